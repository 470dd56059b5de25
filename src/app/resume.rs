//! The command that goes on from a run that `--max-time` or a signal
//! stopped: the user's own command line, run on the result.
//!
//! The arguments are the ones given, with the input replaced by the
//! result and `--output` and `--in-place` left out (the next run writes
//! beside the result; an `--in-place` backup already exists). The test
//! must find the candidate under the name it expects: when the result's
//! file name differs from the input's, `--name` gives the input's. Which
//! options take a value comes from the clap definition, so
//! `--timeout 5s`, `-j4` and `-qo out.c` are read as clap reads them.

use std::ffi::{OsStr, OsString};
use std::path::Path;

use clap::{Arg, CommandFactory};

use super::cli::Args;
use super::values::shell_quote;

/// The options the command leaves out.
const LEFT_OUT: &[&str] = &["output", "in_place"];

/// The command that goes on from `result`, for a run of the one file
/// `input` started with `argv` (the program's name first); `None` for a
/// set of files or a command line it cannot read.
pub fn continue_command(argv: &[OsString], input: &Path, result: &Path) -> Option<String> {
    let command = Args::command();
    let args: Vec<&Arg> = command.get_arguments().collect();
    let by_long = |name: &str| args.iter().copied().find(|a| a.get_long() == Some(name));
    let by_short = |c: char| args.iter().copied().find(|a| a.get_short() == Some(c));
    let takes_value = |a: Option<&Arg>| a.is_some_and(|a| a.get_action().takes_values());
    let left_out = |a: Option<&Arg>| a.is_some_and(|a| LEFT_OUT.contains(&a.get_id().as_str()));
    let named = argv.iter().any(|a| a == "--name" || a.to_string_lossy().starts_with("--name="));
    let (program, rest) = argv.split_first()?;
    let mut out = vec![quote(program)];
    let mut replaced = false;
    // where `--` is: options go before it
    let mut dashes: Option<usize> = None;
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        let text = word.to_string_lossy();
        if dashes.is_some() || text == "-" || !text.starts_with('-') {
            if !replaced && word == input.as_os_str() {
                if !named && result.file_name() != input.file_name() {
                    let at = dashes.unwrap_or(out.len());
                    out.splice(at..at, ["--name".to_string(), quote(input.file_name()?)]);
                }
                out.push(quote(result.as_os_str()));
                replaced = true;
            } else {
                out.push(quote(word));
            }
        } else if text == "--" {
            dashes = Some(out.len());
            out.push(text.into_owned());
        } else if let Some(long) = text.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((name, _)) => (name, true),
                None => (long, false),
            };
            let arg = by_long(name);
            let value = (takes_value(arg) && !inline).then(|| words.next()).flatten();
            if !left_out(arg) {
                out.push(quote(word));
                out.extend(value.map(|v| quote(v)));
            }
        } else {
            // a cluster of short options (`-qj4`): an option that takes a
            // value takes the rest of the cluster, or the next word
            let mut kept = String::from("-");
            let mut value = None;
            for (at, c) in text.char_indices().skip(1) {
                let arg = by_short(c);
                if takes_value(arg) {
                    let rest = &text[at + c.len_utf8()..];
                    let next = if rest.is_empty() { words.next() } else { None };
                    if !left_out(arg) {
                        kept.push(c);
                        kept.push_str(rest);
                        value = next;
                    }
                    break;
                }
                kept.push(c);
            }
            if kept != "-" {
                out.push(quote(OsStr::new(&kept)));
            }
            out.extend(value.map(|v| quote(v)));
        }
    }
    replaced.then(|| out.join(" "))
}

/// A word quoted for a POSIX shell when it needs it.
fn quote(word: &OsStr) -> String {
    shell_quote(&word.to_string_lossy())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go_on(argv: &str, input: &str, result: &str) -> Option<String> {
        let argv: Vec<OsString> = argv.split(' ').map(OsString::from).collect();
        continue_command(&argv, Path::new(input), Path::new(result))
    }

    #[test]
    fn the_result_takes_the_inputs_place_under_the_inputs_name() {
        assert_eq!(
            go_on("hdd --lang c -t ./t.sh bug.c", "bug.c", "bug.reduced.c").as_deref(),
            Some("hdd --lang c -t ./t.sh --name bug.c bug.reduced.c")
        );
        // the same name: no --name
        assert_eq!(
            go_on("hdd -t t.sh in/bug.c -o out/bug.c", "in/bug.c", "out/bug.c").as_deref(),
            Some("hdd -t t.sh out/bug.c")
        );
    }

    #[test]
    fn the_output_and_in_place_are_left_out_and_values_stay_with_their_options() {
        let argv = "hdd -qo r.c --timeout 5s -j4 --in-place --output=x.c -t bug.c bug.c";
        assert_eq!(
            go_on(argv, "bug.c", "r.c").as_deref(),
            Some("hdd -q --timeout 5s -j4 -t bug.c --name bug.c r.c")
        );
        assert_eq!(
            go_on("hdd -t t.sh -- -odd.c", "-odd.c", "-odd.reduced.c").as_deref(),
            Some("hdd -t t.sh --name -odd.c -- -odd.reduced.c")
        );
    }

    #[test]
    fn a_given_name_stays_and_odd_words_are_quoted() {
        assert_eq!(
            go_on("hdd --name a.c -t t.sh b.c", "b.c", "b.reduced.c").as_deref(),
            Some("hdd --name a.c -t t.sh b.reduced.c")
        );
        let argv: Vec<OsString> =
            ["hdd", "-t", "my t.sh", "it's.c"].iter().map(OsString::from).collect();
        assert_eq!(
            continue_command(&argv, Path::new("it's.c"), Path::new("it's.reduced.c")).as_deref(),
            Some("hdd -t 'my t.sh' --name \"it's.c\" \"it's.reduced.c\"")
        );
    }

    #[test]
    fn a_command_line_without_the_input_gives_none() {
        assert_eq!(go_on("hdd -t t.sh a.c", "b.c", "b.reduced.c"), None);
    }
}
