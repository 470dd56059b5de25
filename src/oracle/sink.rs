//! Where an evaluator's news goes: each better text (to be saved at once),
//! the figures for the progress line, and, for `--trace`, every answer.
//!
//! A trait, so that the oracle layer knows nothing of files or terminals:
//! the session decides what saving and showing mean.

use anyhow::Result;
use serde::Serialize;

use super::stats::Stats;

/// Where an evaluator's news goes.
pub(crate) trait Sink {
    /// A better text was found: save it. An error stops the run.
    fn improved(&mut self, text: &[u8]) -> Result<()>;

    /// The figures changed (`best`: the current best's length).
    fn progress(&mut self, stats: &Stats, best: usize);

    /// Whether it wants every answer ([`Sink::answered`]).
    fn traces(&self) -> bool {
        false
    }

    /// A candidate was answered (only called when [`Sink::traces`]). An
    /// error stops the run.
    fn answered(&mut self, _answer: &Answer) -> Result<()> {
        Ok(())
    }
}

/// One candidate's answer, as `--trace` writes it.
#[derive(Debug, Serialize)]
pub(crate) struct Answer {
    /// The pass and level (`hdd level 2`, `tokens level 0`, `layout`).
    pub phase: String,
    /// The search's step that proposed it (`Probe { single: false }`);
    /// none for an answer the search did not use.
    pub step: Option<String>,
    /// `test`, `timeout`, `cancelled` (the test was stopped), `cache`,
    /// `guard` (refused by the syntax guard), `same` (the current best's
    /// text).
    pub how: &'static str,
    pub interesting: bool,
    /// What it was guessed to turn out when it was handed out (for `-j`);
    /// none for an answer the search did not use.
    pub guess: Option<bool>,
    /// Whether the search used the answer (false: speculation on a guess
    /// that went the other way).
    pub used: bool,
    /// Seconds the test ran (0 when none ran).
    pub test_secs: f64,
}
