//! The formatter of `--format`: the language's formatter run on the
//! result, its output one more candidate.
//!
//! It reads the text on its standard input and writes the formatted text
//! to its standard output. It is a child hdd registers like a test's, so
//! no orphan sweep reaps it under the wait here.

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::os::reaper::Registry;
use crate::os::stop::Stop;

/// Runs the formatter `command` of `--format` with `text` on its standard
/// input; returns what it wrote to its standard output, or why it did not
/// finish well. It gets `timeout` (the test's), stops with the run, and is
/// a registered child, so no orphan sweep reaps it under us.
pub(crate) fn format(
    command: &[String],
    text: &[u8],
    timeout: Duration,
    stop: &Stop,
) -> Result<Vec<u8>> {
    use std::io::{Read, Write};
    let Some((program, args)) = command.split_first() else {
        anyhow::bail!("no formatter given");
    };
    let mut cmd = Command::new(program);
    cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
    // a group of its own, ended whole: a child it leaves behind would hold
    // its output open, and the read below would wait for it forever
    cmd.process_group(0);
    let mut child = {
        let mut registry = Registry::lock();
        let child = cmd.spawn().with_context(|| format!("cannot run {program}"))?;
        Registry::add(&mut registry, child.id() as i32);
        child
    };
    // written and read on threads of their own: a formatter may write
    // before it has read everything
    let mut stdin = child.stdin.take().context("no pipe to the formatter")?;
    let input = text.to_vec();
    let writer = std::thread::spawn(move || drop(stdin.write_all(&input)));
    let mut stdout = child.stdout.take().context("no pipe from the formatter")?;
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        stdout.read_to_end(&mut out).map(|_| out)
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline && !stop.is_set() => {
                std::thread::sleep(Duration::from_millis(5));
            }
            _ => {
                kill_group(child.id());
                let _ = child.wait();
                break None;
            }
        }
    };
    // what it started and left running goes with it
    kill_group(child.id());
    Registry::remove(child.id() as i32);
    let _ = writer.join();
    let out = reader.join().map_err(|_| anyhow::anyhow!("reading {program}'s output failed"))?;
    match status {
        Some(s) if s.success() => {
            Ok(out.with_context(|| format!("cannot read {program}'s output"))?)
        }
        Some(s) => anyhow::bail!("{program} failed ({s})"),
        None if stop.is_set() => anyhow::bail!("{program} was stopped"),
        None => anyhow::bail!("{program} did not finish within {timeout:?}"),
    }
}

/// Sends SIGKILL to the process group `pgid` (the formatter's own).
fn kill_group(pgid: u32) {
    // SAFETY: killpg only sends a signal; the group is the formatter's,
    // made for it by `process_group(0)`
    unsafe { libc::killpg(pgid as libc::pid_t, libc::SIGKILL) };
}
