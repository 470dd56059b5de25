//! Counters of a run: what the summary line and `--stats-json` report.
//!
//! The evaluator counts what happened to each candidate; a plan's phases
//! (and HDD levels) key the per-phase figures. Invariant: a test that ran
//! is counted once, when its answer comes, whether its answer was used or
//! not; the scheduler reads the counts only to bound its waste (see
//! `tuning::SPARE_CHANCE`).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::reduce::Phase;

/// Figures for one phase (and HDD level) of a run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PhaseStats {
    /// Tests run (the user's test actually executed).
    pub tests: u64,
    /// Interesting candidates committed.
    pub improvements: u64,
    /// Bytes removed.
    pub bytes_removed: u64,
}

/// Counters of a run.
#[derive(Clone, Debug, Serialize)]
pub struct Stats {
    pub original_bytes: u64,
    pub final_bytes: u64,
    /// Tests run to completion (interesting or not, timeouts included).
    pub tests: u64,
    /// Tests whose answer decided something (the rest were speculation).
    pub useful_tests: u64,
    /// Tests that completed but whose answer was not needed.
    pub wasted: u64,
    /// Tests run ahead of their pass, on the text a later pass was
    /// guessed to test, while the pass before it ended (with `-j`).
    pub ahead: u64,
    /// Of those, the ones a later pass's candidate used (the rest are
    /// counted as wasted at the end).
    pub ahead_used: u64,
    /// Tests killed before they finished because their answer was no longer needed.
    pub cancelled: u64,
    /// The final re-check of the result ran ahead, beside the plan's last
    /// tests, on the text the plan was forecast to end on (with `-j`): no
    /// test latency after the plan. Its run is counted in `tests`, as are
    /// those of re-checks ahead on a text the plan did not end on (wasted).
    pub recheck_ahead: bool,
    /// Runs of the final re-check ahead on the very text the plan ended
    /// on (0 or 1): in `tests`, neither useful nor wasted. (A re-check
    /// made after the plan, like the check of the original, is not in
    /// `tests`.)
    pub rechecks: u64,
    /// Candidates guessed to be interesting (what `-j` speculates on).
    pub expected_interesting: u64,
    /// Candidates that did not turn out as guessed (each sends the
    /// speculation after it down the other branch).
    pub mispredicted: u64,
    /// Tests guessed again as interesting while they ran, because they
    /// outlasted nearly all recent failing tests (with `-j`).
    pub guessed_again: u64,
    /// Useful tests that ran on the other branch of a guess, started while
    /// workers were idle before the guess turned out wrong (with `-j`).
    pub other_branch_used: u64,
    /// Candidates answered from the cache.
    pub cache_hits: u64,
    /// Candidates rejected by the syntax guard without running the test.
    pub guard_skips: u64,
    /// Candidates whose text equalled the current best (no test needed).
    pub same_text: u64,
    pub timeouts: u64,
    /// Interesting candidates committed.
    pub improvements: u64,
    /// Passes run (parses of the current best).
    pub passes: u64,
    /// Rounds of the plan's passes: HDD+ runs them until a round leaves
    /// the text as it was.
    pub rounds: u64,
    /// The useful tests of the last round, the one that found nothing
    /// more: what the guarantee that hdd on its result changes nothing cost.
    pub last_round_tests: u64,
    #[serde(serialize_with = "secs")]
    pub wall_time: Duration,
    /// Summed over all tests, so it can exceed the wall time with `-j`.
    #[serde(serialize_with = "secs")]
    pub test_time: Duration,
    /// Wall time not spent waiting for tests (an estimate with `-j`).
    #[serde(serialize_with = "secs")]
    pub overhead_time: Duration,
    /// Of the reducer's own time: unparsing and hashing candidates (summed
    /// over worker threads).
    #[serde(serialize_with = "secs")]
    pub unparse_time: Duration,
    /// Re-parsing candidates for the syntax guard (summed over workers).
    #[serde(serialize_with = "secs")]
    pub guard_time: Duration,
    /// Writing candidates, starting tests and cleaning up after them, outside
    /// the tests' own time (summed over workers).
    #[serde(serialize_with = "secs")]
    pub spawn_time: Duration,
    pub jobs: usize,
    /// hdd's own peak resident memory in KiB (`VmHWM` of `/proc/self/status`:
    /// of this process since it started, not of its tests; 0 where `/proc`
    /// does not say).
    pub peak_memory_kb: u64,
    /// Per phase, and per HDD level within a phase ("hdd/2").
    pub phases: BTreeMap<String, PhaseStats>,
    #[serde(skip)]
    started: Instant,
    #[serde(skip)]
    phase: Option<Phase>,
    #[serde(skip)]
    level: Option<usize>,
    /// The number of HDD levels of the current pass's tree, when known.
    #[serde(skip)]
    levels: Option<usize>,
    /// `useful_tests` when the current round started.
    #[serde(skip)]
    round_start: u64,
}

fn secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((d.as_secs_f64() * 1000.0).round() / 1000.0)
}

impl Stats {
    pub fn new(original_bytes: usize, jobs: usize) -> Stats {
        Stats {
            original_bytes: original_bytes as u64,
            final_bytes: original_bytes as u64,
            tests: 0,
            useful_tests: 0,
            wasted: 0,
            ahead: 0,
            ahead_used: 0,
            cancelled: 0,
            recheck_ahead: false,
            rechecks: 0,
            expected_interesting: 0,
            mispredicted: 0,
            guessed_again: 0,
            other_branch_used: 0,
            cache_hits: 0,
            guard_skips: 0,
            same_text: 0,
            timeouts: 0,
            improvements: 0,
            passes: 0,
            rounds: 0,
            last_round_tests: 0,
            wall_time: Duration::ZERO,
            peak_memory_kb: 0,
            test_time: Duration::ZERO,
            overhead_time: Duration::ZERO,
            unparse_time: Duration::ZERO,
            guard_time: Duration::ZERO,
            spawn_time: Duration::ZERO,
            jobs,
            phases: BTreeMap::new(),
            started: Instant::now(),
            phase: None,
            level: None,
            levels: None,
            round_start: 0,
        }
    }

    /// Starts a round of the plan's passes.
    pub(crate) fn start_round(&mut self) {
        self.rounds += 1;
        self.round_start = self.useful_tests;
    }

    /// Ends the last round: its tests are what proving the fixpoint cost.
    pub(crate) fn end_rounds(&mut self) {
        self.last_round_tests = self.useful_tests - self.round_start;
    }

    /// Starts a pass of `phase`.
    pub fn start_pass(&mut self, phase: Phase) {
        self.phase = Some(phase);
        self.level = None;
        self.levels = None;
        self.passes += 1;
    }

    pub fn set_level(&mut self, level: Option<usize>) {
        self.level = level;
    }

    /// The number of HDD levels of the current pass's tree (its depth in
    /// units), for [`Stats::position`].
    pub(crate) fn set_levels(&mut self, levels: Option<usize>) {
        self.levels = levels;
    }

    /// Where the run is, for the progress line: the pass, and its HDD
    /// level counted from 1, out of the levels when known (`hdd level
    /// 4/17`).
    pub(crate) fn position(&self) -> String {
        let phase = self.phase.map_or("", Phase::name);
        match (self.level, self.levels) {
            (Some(l), Some(n)) => format!("{phase} level {}/{}", (l + 1).min(n), n),
            (Some(l), None) => format!("{phase} level {}", l + 1),
            (None, _) => phase.to_string(),
        }
    }

    /// The label of the current phase and level (from 0, as the trace and
    /// `--stats-json` count them).
    pub fn phase_label(&self) -> String {
        let phase = self.phase.map_or("", Phase::name);
        match self.level {
            Some(l) => format!("{phase} level {l}"),
            None => phase.to_string(),
        }
    }

    fn phase_key(&self) -> String {
        let phase = self.phase.map_or("", Phase::name);
        match self.level {
            Some(l) => format!("{phase}/{l}"),
            None => phase.to_string(),
        }
    }

    /// Counts a test in the current phase.
    pub fn count_test(&mut self) {
        let key = self.phase_key();
        self.phases.entry(key).or_default().tests += 1;
    }

    /// Counts an improvement from `before` to `after` bytes in the current phase.
    pub fn count_improvement(&mut self, before: usize, after: usize) {
        let key = self.phase_key();
        let p = self.phases.entry(key).or_default();
        p.improvements += 1;
        p.bytes_removed += before.saturating_sub(after) as u64;
        self.final_bytes = after as u64;
    }

    /// Counts the run's time from `at` (before the input was parsed).
    pub fn started_at(&mut self, at: Instant) {
        self.started = at;
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Fixes the wall time and the overhead estimate at the end of a run,
    /// and counts the tests ahead no candidate used as wasted.
    pub fn finish(&mut self) {
        self.wasted += self.ahead.saturating_sub(self.ahead_used);
        self.wall_time = self.started.elapsed();
        let busy = self.test_time.div_f64(self.jobs.max(1) as f64);
        self.overhead_time = self.wall_time.saturating_sub(busy);
        self.peak_memory_kb = peak_memory_kb().unwrap_or(0);
    }

    /// What `tests` is made of, each part with its name, for the summary;
    /// they add up to `tests`: the settled candidates' tests, those
    /// speculation did not need, the final re-check run ahead, and a
    /// set's tests without its emptied files.
    pub fn test_parts(&self) -> [(u64, &'static str); 4] {
        let files = self.phases.get(Phase::Files.name()).map_or(0, |p| p.tests);
        [
            (self.useful_tests, "useful"),
            (self.wasted, "not needed"),
            (self.rechecks, "re-check run ahead"),
            (files, "to leave out emptied files"),
        ]
    }

    /// Tests per second so far.
    pub fn rate(&self) -> f64 {
        let s = self.started.elapsed().as_secs_f64();
        if s > 0.0 {
            (self.tests + self.cancelled) as f64 / s
        } else {
            0.0
        }
    }
}

/// The peak resident memory of this process in KiB, from `/proc/self/status`.
/// Not `getrusage`: its peak counts the memory of the process that started
/// hdd as it was before hdd was executed (a large test harness, say).
fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line["VmHWM:".len()..].trim().trim_end_matches("kB").trim().parse().ok()
}
