//! Going on from a run's result: the command that continues a run that
//! `--max-time` or a signal stopped.
//!
//! The command is the user's own command line, with each input replaced by
//! its result (a set's file the result left out is dropped) and `--output`
//! and `--in-place` left out (the next run writes beside the result; an
//! `--in-place` backup already exists). The test must find the candidate
//! under the name it knew: when the result's name would not give it,
//! `--name` does. Which options take a value comes from the clap
//! definition, so `--timeout 5s`, `-j4` and `-qo out.c` are read as clap
//! reads them.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use clap::{Arg, CommandFactory};

use super::cli::Args;
use super::config::Config;
use super::naming::original_name;
use super::values::shell_quote;
use crate::os::dir;

/// The options the command leaves out.
const LEFT_OUT: &[&str] = &["output", "in_place"];

/// What the command line of a run changes to go on from its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resume {
    /// Each input as the command line gave it, with what replaces it: the
    /// result's path, or nothing (a file of a set its result left out).
    pub inputs: Vec<(PathBuf, Option<PathBuf>)>,
    /// The name the run tested its input by, when the result's own name
    /// would give the next run another.
    pub name: Option<OsString>,
}

impl Resume {
    /// For a run of `config` on the inputs `given` (as the command line
    /// gave them), whose result is at `output`.
    pub fn of(config: &Config, given: &[PathBuf], output: &Path) -> Resume {
        let tested = match &config.set {
            Some(set) => set.name.clone(),
            None => config.name.clone().unwrap_or_default(),
        };
        let next = original_name(output.file_name().unwrap_or_default());
        let name = (next != tested).then_some(tested);
        let inputs = match &config.set {
            Some(set) if !set.is_dir => {
                let root = dir::absolute(&set.root).unwrap_or_else(|_| set.root.clone());
                let of = |path: &PathBuf| {
                    let rel = dir::absolute(path).ok()?.strip_prefix(&root).ok()?.to_path_buf();
                    let result = output.join(rel);
                    result.symlink_metadata().is_ok().then_some(result)
                };
                given.iter().map(|path| (path.clone(), of(path))).collect()
            }
            _ => given.iter().map(|path| (path.clone(), Some(output.to_path_buf()))).collect(),
        };
        Resume { inputs, name }
    }
}

/// The command that goes on from a run's result, for a run started with
/// `argv` (the program's name first); `None` for a command line that does
/// not name every input.
pub fn continue_command(argv: &[OsString], resume: &Resume) -> Option<String> {
    let command = Args::command();
    let args: Vec<&Arg> = command.get_arguments().collect();
    let by_long = |name: &str| args.iter().copied().find(|a| a.get_long() == Some(name));
    let by_short = |c: char| args.iter().copied().find(|a| a.get_short() == Some(c));
    let takes_value = |a: Option<&Arg>| a.is_some_and(|a| a.get_action().takes_values());
    let left_out = |a: Option<&Arg>| a.is_some_and(|a| LEFT_OUT.contains(&a.get_id().as_str()));
    let named = argv.iter().any(|a| a == "--name" || a.to_string_lossy().starts_with("--name="));
    let (program, rest) = argv.split_first()?;
    let mut out = vec![quote(program)];
    let mut replaced = vec![false; resume.inputs.len()];
    // where `--` is: options go before it
    let mut dashes: Option<usize> = None;
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        let text = word.to_string_lossy();
        if dashes.is_some() || text == "-" || !text.starts_with('-') {
            let input = resume
                .inputs
                .iter()
                .enumerate()
                .find(|(i, (path, _))| !replaced[*i] && word == path.as_os_str());
            let Some((i, (_, result))) = input else {
                out.push(quote(word));
                continue;
            };
            if !named && !replaced.contains(&true) {
                if let Some(name) = &resume.name {
                    let at = dashes.unwrap_or(out.len());
                    out.insert(at, name_option(name));
                }
            }
            out.extend(result.as_ref().map(|r| quote(r.as_os_str())));
            replaced[i] = true;
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
    replaced.iter().all(|r| *r).then(|| out.join(" "))
}

/// `--name NAME`, or `--name=NAME` for a name clap would read as an option.
fn name_option(name: &OsStr) -> String {
    let sep = if name.to_string_lossy().starts_with('-') { "=" } else { " " };
    format!("--name{sep}{}", quote(name))
}

/// A word quoted for a POSIX shell when it needs it.
fn quote(word: &OsStr) -> String {
    shell_quote(&word.to_string_lossy())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The command for a run of one file `input`, tested as `tested`,
    /// whose result is `result`.
    fn go_on_as(argv: &[&str], input: &str, tested: &str, result: &str) -> Option<String> {
        let argv: Vec<OsString> = argv.iter().map(OsString::from).collect();
        let name = Path::new(result).file_name().expect("a file name");
        let resume = Resume {
            inputs: vec![(input.into(), Some(result.into()))],
            name: (original_name(name) != tested).then(|| tested.into()),
        };
        continue_command(&argv, &resume)
    }

    fn go_on(argv: &str, input: &str, result: &str) -> Option<String> {
        let argv: Vec<&str> = argv.split(' ').collect();
        let tested = original_name(Path::new(input).file_name().expect("a name"));
        go_on_as(&argv, input, tested.to_str().expect("utf-8"), result)
    }

    #[test]
    fn the_result_takes_the_inputs_place_and_the_name_rule_gives_the_inputs_name() {
        assert_eq!(
            go_on("hdd --lang c -t ./t.sh bug.c", "bug.c", "bug.reduced.c").as_deref(),
            Some("hdd --lang c -t ./t.sh bug.reduced.c")
        );
        assert_eq!(
            go_on("hdd -t t.sh in/bug.c -o out/bug.c", "in/bug.c", "out/bug.c").as_deref(),
            Some("hdd -t t.sh out/bug.c")
        );
        // a run on a result, tested as the original: the next one too
        let argv = ["hdd", "-t", "t.sh", "bug.reduced.c"];
        assert_eq!(
            go_on_as(&argv, "bug.reduced.c", "bug.c", "bug.reduced.reduced.c").as_deref(),
            Some("hdd -t t.sh --name bug.c bug.reduced.reduced.c")
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
            go_on("hdd -t t.sh -- -odd.c", "-odd.c", "out/-odd.x").as_deref(),
            Some("hdd -t t.sh --name=-odd.c -- out/-odd.x")
        );
    }

    #[test]
    fn a_given_name_stays_and_odd_words_are_quoted() {
        assert_eq!(
            go_on("hdd --name a.c -t t.sh b.c", "b.c", "r.c").as_deref(),
            Some("hdd --name a.c -t t.sh r.c")
        );
        let argv = ["hdd", "-t", "my t.sh", "it's.c"];
        assert_eq!(
            go_on_as(&argv, "it's.c", "it's.c", "it's.reduced.c").as_deref(),
            Some("hdd -t 'my t.sh' \"it's.reduced.c\"")
        );
    }

    #[test]
    fn each_file_of_a_set_becomes_its_result_and_one_left_out_goes() {
        let argv: Vec<OsString> = ["hdd", "-t", "t.sh", "a/main.c", "a/inc/u.h", "a/x.h"]
            .iter()
            .map(OsString::from)
            .collect();
        let resume = Resume {
            inputs: vec![
                ("a/main.c".into(), Some("a.reduced/main.c".into())),
                ("a/inc/u.h".into(), Some("a.reduced/inc/u.h".into())),
                ("a/x.h".into(), None),
            ],
            name: None,
        };
        assert_eq!(
            continue_command(&argv, &resume).as_deref(),
            Some("hdd -t t.sh a.reduced/main.c a.reduced/inc/u.h")
        );
    }

    #[test]
    fn a_command_line_without_the_input_gives_none() {
        assert_eq!(go_on("hdd -t t.sh a.c", "b.c", "b.reduced.c"), None);
    }
}
