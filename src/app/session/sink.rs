//! The session's [`Sink`]: what the evaluator hands up as the run goes.
//!
//! Every better text is saved at once, through the [`WriteGate`] (so not
//! before the check of the original passed); the progress line is redrawn;
//! and with `--trace`, every answered candidate is written as a JSON line.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use serde::Serialize;

use super::original::WriteGate;
use crate::app::progress::Progress;
use crate::app::shown::shown;
use crate::oracle::stats::Stats;
use crate::oracle::{Answer, Sink};

/// Saves every better text, redraws the progress line, and writes the
/// trace.
pub(super) struct ResultSink<'o> {
    pub(super) gate: WriteGate<'o>,
    pub(super) progress: &'o Progress,
    pub(super) trace: Option<Trace>,
}

impl ResultSink<'_> {
    /// Writes out what the trace holds, once the run's answers are in.
    pub(super) fn flush_trace(&mut self) -> Result<()> {
        match &mut self.trace {
            Some(trace) => trace.out.flush().context("cannot write the --trace file"),
            None => Ok(()),
        }
    }
}

impl Sink for ResultSink<'_> {
    fn improved(&mut self, text: &[u8]) -> Result<()> {
        match self.gate.wait() {
            Some(cleared) => cleared.output.write(text),
            // the session reports the check's own error
            None => Err(anyhow::anyhow!("the original input is not interesting")),
        }
    }

    fn progress(&mut self, stats: &Stats, best: usize) {
        self.progress.update(stats, best);
    }

    fn traces(&self) -> bool {
        self.trace.is_some()
    }

    fn answered(&mut self, answer: &Answer) -> Result<()> {
        let Some(trace) = &mut self.trace else { return Ok(()) };
        let line = TraceLine { at: trace.start.elapsed().as_secs_f64(), answer };
        serde_json::to_writer(&mut trace.out, &line).context("cannot write the --trace file")?;
        trace.out.write_all(b"\n").context("cannot write the --trace file")
    }
}

/// `--trace`: every answered candidate, a JSON line, written as the run
/// goes.
pub(super) struct Trace {
    out: BufWriter<File>,
    /// What `at` counts from: the start of the reduction proper (after the
    /// check of the original with `-j 1`, beside it with more workers).
    start: Instant,
}

impl Trace {
    pub(super) fn create(path: &Path) -> Result<Trace> {
        let file = File::create(path)
            .with_context(|| format!("cannot write the --trace file {}", shown(&path)))?;
        Ok(Trace { out: BufWriter::new(file), start: Instant::now() })
    }
}

/// One line of the trace: seconds since its start, and the answer.
#[derive(Serialize)]
struct TraceLine<'a> {
    at: f64,
    #[serde(flatten)]
    answer: &'a Answer,
}
