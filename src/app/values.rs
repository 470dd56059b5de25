//! The values options take, parsed: durations (`90s`, `500ms`, `1h30m`) and
//! a command line split into words as a shell would (`--launcher`).

use std::time::Duration;

/// The longest duration an option takes: anything longer is a typo.
const LONGEST: Duration = Duration::from_secs(366 * 24 * 3600);

/// Parses a duration: a bare number of seconds ("90", "1.5"), one number
/// with a unit ("500ms", "10m", "2h") or humantime's compound forms
/// ("1h30m", "2min 30s"). Zero and anything over a year are refused.
pub(crate) fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let d = match one_unit(s) {
        Some(r) => r?,
        None => humantime::parse_duration(s)
            .map_err(|e| format!("not a duration: {s:?} ({e}; try 30s, 500ms, 1h30m)"))?,
    };
    if d.is_zero() {
        return Err(format!("a duration must be positive: {s:?}"));
    }
    if d > LONGEST {
        return Err(format!("{s:?} is longer than a year"));
    }
    Ok(d)
}

/// A number with at most one unit, decimals allowed ("1.5s"); `None` when
/// `s` is not of that form.
fn one_unit(s: &str) -> Option<Result<Duration, String>> {
    let split = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let value: f64 = num.parse().ok()?;
    let scale = match unit.trim() {
        "" | "s" => 1.0,
        "ms" => 0.001,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => return None,
    };
    let secs = value * scale;
    Some(match secs.is_finite() && secs <= LONGEST.as_secs_f64() {
        true => Ok(Duration::from_secs_f64(secs)),
        false => Err(format!("{s:?} is longer than a year")),
    })
}

/// Like [`parse_duration`], but "0" (no grace) is allowed.
pub(crate) fn parse_grace(s: &str) -> Result<Duration, String> {
    match s.trim().trim_end_matches(['s', 'm']) {
        "0" | "0.0" => Ok(Duration::ZERO),
        _ => parse_duration(s),
    }
}

/// Splits a command line into words the way a POSIX shell does, without
/// expansions (the `shlex` crate): blanks separate, `'...'` is literal,
/// `"..."` keeps blanks, a backslash escapes.
pub(crate) fn split_words(s: &str) -> Result<Vec<String>, String> {
    shlex::split(s).ok_or_else(|| "a quote is not closed, or it ends with a \\".to_string())
}

/// Quotes a word for a POSIX shell when it needs it (the `shlex` crate),
/// for the command lines hdd prints for the user to run.
pub(crate) fn shell_quote(s: &str) -> String {
    // only a NUL byte cannot be quoted, and no path or argument holds one
    shlex::try_quote(s).map_or_else(|_| s.to_string(), |q| q.into_owned())
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
        assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("2min 30s"), Ok(Duration::from_secs(150)));
        assert!(parse_duration("5x").is_err());
        assert!(parse_duration("99999999999999999999").is_err());
        assert!(parse_duration("400days").is_err());
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

    #[test]
    fn quoted_words_read_back_as_themselves() {
        assert_eq!(shell_quote("/tmp/a-b_c.sh"), "/tmp/a-b_c.sh");
        for word in ["a b", "$HOME", "it's", "", "x\ny", "say \"hi\""] {
            let quoted = shell_quote(word);
            assert_eq!(split_words(&quoted).unwrap(), [word], "{quoted}");
        }
    }
}
