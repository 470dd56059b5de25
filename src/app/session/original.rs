//! The check of the original input, and the gate that holds every write
//! back until it passed.
//!
//! Nothing is written before the test found the original interesting
//! (invariant 8). With one worker the check comes first. With more, it
//! runs on a thread beside the first tests, a test latency sooner: the
//! [`WriteGate`] makes every save wait for its [`Clearance`], and a failed
//! check abandons the run (the session then checks it again alone, in case
//! the test only fails under load).
//!
//! A failed check is an error that shows how to run the test by hand on
//! the original, and the last lines the test printed.

use std::path::PathBuf;
use std::sync::{mpsc, Arc};
use std::time::Instant;

use anyhow::Result;

use super::destination::Destination;
use super::interrupted;
use crate::app::config::Config;
use crate::app::error::Fatal;
use crate::app::output::{DirOutput, Output};
use crate::app::shown::shown;
use crate::app::values::shell_quote;
use crate::oracle::runner::{Layout, Outcome, Runner};
use crate::os::stop::{Alarm, Stop};

/// The check of the original input, and what comes once it passed: the
/// output prepared (backed up with `--in-place`, else holding the input)
/// and the alarm of `--max-time`, which counts from the start but stops
/// tests only once the check is done.
pub(super) struct OriginalCheck<'a> {
    pub(super) runner: &'a Runner,
    pub(super) config: &'a Config,
    pub(super) input: &'a [u8],
    pub(super) stop: &'a Arc<Stop>,
    pub(super) deadline: Option<Instant>,
    pub(super) layout: Layout,
}

/// What a passed check grants: the output, prepared for writing, and the
/// alarm of `--max-time` (dropping it disarms it).
pub(super) struct Clearance<'c> {
    pub(super) output: Destination<'c>,
    pub(super) alarm: Option<Alarm>,
}

impl<'a> OriginalCheck<'a> {
    /// Checks the original; once it passed, arms the alarm and prepares
    /// the output.
    pub(super) fn run(&self) -> Result<Clearance<'a>> {
        let config = self.config;
        check_original(self.runner, config, self.input)?;
        let alarm = self.deadline.map(|d| self.stop.alarm(d));
        let output = match (&config.set, &self.layout) {
            (Some(set), Layout::Set(l)) => Destination::Dir(
                DirOutput::prepare(
                    &config.input,
                    &config.output,
                    config.in_place,
                    set.links.clone(),
                    set.modes.clone(),
                )?,
                set,
                l.copied.clone(),
            ),
            _ => Destination::File(Output::prepare(
                &config.input,
                self.input,
                &config.output,
                config.in_place,
            )?),
        };
        if !config.in_place {
            output.write(self.input)?;
        }
        Ok(Clearance { output, alarm })
    }
}

/// Where the output stands while the original is checked beside the first
/// tests (`-j` more than 1): nothing is saved before the check passed.
pub(super) enum WriteGate<'c> {
    /// The check runs; its result comes by this channel.
    Waiting(mpsc::Receiver<Result<Clearance<'c>>>),
    /// Boxed: a set's output is large beside the other variants.
    Open(Box<Clearance<'c>>),
    /// The check failed: why, until the session takes it.
    Failed(Option<anyhow::Error>),
}

impl<'c> WriteGate<'c> {
    /// The output once the check passed, waiting for it; `None` if it
    /// failed.
    pub(super) fn wait(&mut self) -> Option<&Clearance<'c>> {
        if let WriteGate::Waiting(checked) = self {
            *self = match checked.recv() {
                Ok(Ok(cleared)) => WriteGate::Open(Box::new(cleared)),
                Ok(Err(e)) => WriteGate::Failed(Some(e)),
                Err(mpsc::RecvError) => WriteGate::Failed(None),
            };
        }
        match self {
            WriteGate::Open(cleared) => Some(cleared),
            _ => None,
        }
    }

    /// The output, or why the check of the original failed.
    pub(super) fn into_clearance(mut self) -> Result<Clearance<'c>> {
        self.wait();
        match self {
            WriteGate::Open(cleared) => Ok(*cleared),
            WriteGate::Failed(Some(e)) => Err(e),
            _ => Err(anyhow::anyhow!("the check of the original input did not end")),
        }
    }
}

/// Runs the test on the original; an uninteresting original is an error with
/// a way to check the test by hand.
fn check_original(runner: &Runner, config: &Config, input: &[u8]) -> Result<()> {
    let report = runner.run_capturing(input)?;
    if report.outcome == Outcome::Interesting {
        return Ok(());
    }
    if report.outcome == Outcome::Cancelled {
        // each signal its own code, as for a run it stops later
        return Err(interrupted(runner.stop(), "checking the original input"));
    }
    let mut msg = format!(
        "the test does not find the original input interesting: {} {} on {} (interesting means exit code 0)",
        config.test_line(),
        match report.outcome {
            Outcome::Timeout => format!("timed out after {:?} (see --timeout)", config.timeout),
            o => format!("gave {o}"),
        },
        shown(&config.input),
    );
    msg.push_str(&format!("\n  check it by hand: {}", by_hand(config)));
    msg.push_str(&format!("\n  {}", hint(config)));
    if let Some(out) = report.output.filter(|o| !o.is_empty()) {
        msg.push_str(&printed(&out));
    }
    Err(Fatal::not_interesting(msg))
}

/// What a test that works by hand may miss in hdd's private directory.
fn hint(config: &Config) -> String {
    let name = match &config.name {
        Some(n) => format!("named {} (--name sets it), also on its stdin", n.to_string_lossy()),
        None => "a copy of the files".to_string(),
    };
    format!(
        "the test runs in a private directory holding only the candidate, {name}; files beside the test script are in $HDD_TEST_DIR, files beside the input in $HDD_INPUT_DIR"
    )
}

/// A shell line that runs the test on a copy of the original, as hdd does,
/// and prints its exit code.
fn by_hand(config: &Config) -> String {
    let test = format!(
        "HDD_TEST_DIR={} HDD_INPUT_DIR={} {}",
        shell_quote(&config.test_dir.to_string_lossy()),
        shell_quote(&config.input_dir().to_string_lossy()),
        config.test_line()
    );
    match &config.set {
        Some(set) => set.reproduction(&test, shell_quote),
        None => {
            let input_abs: PathBuf =
                std::fs::canonicalize(&config.input).unwrap_or_else(|_| config.input.clone());
            let name = config.name.as_ref().map(|n| n.to_string_lossy()).unwrap_or_default();
            let name = shell_quote(&name);
            format!(
                "(d=$(mktemp -d) && cp {} \"$d\"/{name} && cd \"$d\" && {test} \"$d\"/{name} < \"$d\"/{name}; echo \"exit code $?\")",
                shell_quote(&input_abs.to_string_lossy()),
            )
        }
    }
}

/// The test's last lines shown when the original is not interesting, and
/// how much of each.
const SHOWN_LINES: usize = 10;
const SHOWN_WIDTH: usize = 200;

/// What the test printed, for the error: its last [`SHOWN_LINES`] lines,
/// each cut to [`SHOWN_WIDTH`] characters.
fn printed(out: &[u8]) -> String {
    let text = String::from_utf8_lossy(out);
    let lines: Vec<&str> = text.lines().collect();
    let shown = &lines[lines.len().saturating_sub(SHOWN_LINES)..];
    let mut msg = format!("\n  the test printed (last {} lines):", shown.len());
    for line in shown {
        msg.push_str("\n  | ");
        match line.char_indices().nth(SHOWN_WIDTH) {
            Some((cut, _)) => {
                msg.push_str(&line[..cut]);
                msg.push_str(" [...]");
            }
            None => msg.push_str(line),
        }
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_output_shown_is_its_last_lines_each_cut_short() {
        let out: String = (1..=12).map(|i| format!("line {i}\n")).collect();
        let shown = printed(out.as_bytes());
        assert!(
            shown.starts_with("\n  the test printed (last 10 lines):\n  | line 3\n"),
            "{shown}"
        );
        assert!(shown.ends_with("\n  | line 12"), "{shown}");
        assert!(!shown.contains("line 2\n"), "{shown}");
        let long = "é".repeat(SHOWN_WIDTH + 5);
        let shown = printed(long.as_bytes());
        let cut = format!("\n  | {} [...]", "é".repeat(SHOWN_WIDTH));
        assert!(shown.ends_with(&cut), "{shown}");
        assert_eq!(printed(b"only\n"), "\n  the test printed (last 1 lines):\n  | only");
    }

    #[test]
    fn a_gate_whose_check_failed_gives_its_error_and_saves_nothing() {
        let (tx, rx) = mpsc::channel();
        let mut gate = WriteGate::Waiting(rx);
        tx.send(Err(anyhow::anyhow!("not interesting"))).expect("send");
        assert!(gate.wait().is_none());
        let err = gate.into_clearance().err().expect("the check's error");
        assert_eq!(err.to_string(), "not interesting");
        let (tx, rx) = mpsc::channel::<Result<Clearance<'_>>>();
        drop(tx);
        let err = WriteGate::Waiting(rx).into_clearance().err().expect("no check");
        assert!(err.to_string().contains("did not end"), "{err}");
    }
}
