//! The values options take, parsed: durations (`90s`, `500ms`, `10m`) and
//! a command line split into words as a shell would (`--launcher`).

use std::time::Duration;

/// Parses "90", "90s", "1.5s", "500ms", "10m", "2h".
pub(crate) fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let split = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let value: f64 =
        num.parse().map_err(|_| format!("not a duration: {s:?} (try 30s, 500ms, 10m)"))?;
    let scale = match unit.trim() {
        "" | "s" => 1.0,
        "ms" => 0.001,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        other => return Err(format!("unknown unit {other:?} in {s:?} (use ms, s, m or h)")),
    };
    let secs = value * scale;
    if !(secs > 0.0 && secs.is_finite()) {
        return Err(format!("a duration must be positive: {s:?}"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Like [`parse_duration`], but "0" (no grace) is allowed.
pub(crate) fn parse_grace(s: &str) -> Result<Duration, String> {
    match s.trim().trim_end_matches(['s', 'm']) {
        "0" | "0.0" => Ok(Duration::ZERO),
        _ => parse_duration(s),
    }
}

/// Splits a command line into words the way a POSIX shell does, without
/// expansions: blanks separate, `'...'` is literal, `"..."` keeps blanks and
/// lets a backslash escape `\`, `"`, `$` and `` ` ``, and a backslash outside
/// quotes escapes any character.
pub(crate) fn split_words(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("a ' is not closed".into()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('\\' | '"' | '$' | '`')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err("a \" is not closed".into()),
                        },
                        Some(c) => w.push(c),
                        None => return Err("a \" is not closed".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err("it ends with a \\".into()),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_with_and_without_units() {
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert!(parse_duration("0").is_err());
        assert!(parse_duration("ten").is_err());
        assert!(parse_duration("5d").is_err());
    }

    #[test]
    fn launcher_words_split_like_a_shell() {
        let w = |s: &str| split_words(s);
        assert_eq!(w("srun -Q  -n1").unwrap(), ["srun", "-Q", "-n1"]);
        assert_eq!(w("a 'b c' \"d \\\" e\" f\\ g ''").unwrap(), ["a", "b c", "d \" e", "f g", ""]);
        assert_eq!(w("x'y'\"z\"").unwrap(), ["xyz"]);
        assert!(w("'open").is_err() && w("\"open").is_err() && w("end\\").is_err());
        assert!(w("  ").unwrap().is_empty());
        assert_eq!(parse_grace("0"), Ok(Duration::ZERO));
        assert_eq!(parse_grace("0s"), Ok(Duration::ZERO));
        assert_eq!(parse_grace("250ms"), Ok(Duration::from_millis(250)));
    }
}
