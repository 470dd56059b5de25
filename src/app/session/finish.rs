//! The end of a run, once the plan is done.
//!
//! - A set's files that the reduction emptied are left out of the result
//!   if the test still passes without them (one test each, phase `files`).
//! - The result is re-checked, the original too when nothing could be
//!   removed: a flaky test is reported, not trusted (invariant 7). With
//!   `-j`, a free worker may have run that re-check ahead on the text the
//!   plan was forecast to end on; only one that passed on the very result
//!   counts, else it is made again here.
//! - With `--in-place`, a file the user changed meanwhile keeps their
//!   change (see [`Output::verify`](crate::app::output::Output::verify)).
//! - The figures are completed into the [`Summary`].

use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;

use super::destination::Destination;
use super::{Ended, Summary};
use crate::app::progress::Progress;
use crate::app::shown::shown;
use crate::oracle::runner::{Outcome, Runner};
use crate::oracle::stats::Stats;
use crate::oracle::{Evaluator, StopReason};
use crate::os::stop::{Cancel, Stop};
use crate::reduce::Phase;
use crate::syntax::forest;

/// What the plan left: the best text, the figures, and the outcome of a
/// final re-check run ahead on it, if one finished.
pub(super) struct PlanEnd {
    pub(super) best: Arc<[u8]>,
    pub(super) stats: Stats,
    pub(super) rechecked: Option<bool>,
}

impl PlanEnd {
    /// Takes what the plan left from its evaluator. The figures come last:
    /// taking the re-check counts the other re-checks run ahead as wasted.
    pub(super) fn of(mut ev: Evaluator<'_>) -> PlanEnd {
        let rechecked = ev.take_recheck();
        let best = ev.best().clone();
        let stats = ev.stats();
        PlanEnd { best, stats, rechecked }
    }
}

/// How a run ended, by why its plan stopped (`None`: it did not); a
/// failure is the run's error.
pub(super) fn ended_by(reason: Option<StopReason>) -> Result<Ended> {
    Ok(match reason {
        Some(StopReason::Failed(e)) => return Err(e),
        Some(StopReason::Signal(s)) => Ended::Signal(s),
        Some(StopReason::TimeUp) => Ended::TimeUp,
        None => Ended::Finished,
    })
}

/// What the end of a run works with.
pub(super) struct Finish<'a> {
    pub(super) runner: &'a Runner,
    pub(super) stop: &'a Stop,
    pub(super) progress: &'a Progress,
    pub(super) output: &'a Destination<'a>,
    /// When the run began: `--max-time` and the wall time count from here.
    pub(super) began: Instant,
    /// The input's size, and the separators in it (not the user's bytes).
    pub(super) input_len: usize,
    pub(super) separators: u64,
}

impl Finish<'_> {
    /// Leaves out a set's needless empty files, re-checks the result,
    /// verifies the output, and sums the run up.
    pub(super) fn summary(&self, plan: PlanEnd, mut ended: Ended) -> Result<Summary> {
        let PlanEnd { best, mut stats, rechecked } = plan;
        let absent = match (self.output, ended) {
            (Destination::Dir(..), Ended::Finished) => {
                let (absent, stopped) = self.drop_empty_files(&best, &mut stats)?;
                if stopped {
                    ended = self.stopped();
                }
                absent
            }
            _ => Vec::new(),
        };
        let ran_ahead = rechecked == Some(true) && !absent.contains(&true);
        stats.recheck_ahead = ran_ahead && ended == Ended::Finished;
        let flaky = match ended == Ended::Finished && !ran_ahead {
            true => self.recheck(&best, &absent, &mut ended)?,
            false => false,
        };
        // --in-place: a file the user changed meanwhile keeps their change
        self.output.verify(&best, &absent)?;
        let position = (stats.passes > 0).then(|| stats.position());
        stats.started_at(self.began);
        stats.original_bytes = self.input_len as u64 - self.separators;
        stats.final_bytes = best.len() as u64 - self.separators;
        stats.finish();
        Ok(Summary {
            stats,
            ended,
            flaky,
            output: self.output.path().to_path_buf(),
            trivial: is_trivial(&best),
            position,
        })
    }

    /// How a run that a stop cut short ended: by a signal, else by its
    /// time.
    fn stopped(&self) -> Ended {
        self.stop.signal().map_or(Ended::TimeUp, Ended::Signal)
    }

    /// Re-checks the result `best` (less the files `absent` marks): whether
    /// the test is flaky. A signal during the re-check stops the run like
    /// any other (`ended` says so).
    fn recheck(&self, best: &[u8], absent: &[bool], ended: &mut Ended) -> Result<bool> {
        self.progress.doing("checking the result again");
        Ok(match self.runner.run_without(best, absent, &Cancel::default())?.outcome {
            Outcome::Interesting => false,
            Outcome::Cancelled => {
                *ended = self.stopped();
                false
            }
            _ => true,
        })
    }

    /// A set's files that the reduction emptied, each left out of the set
    /// if the test still passes without it (one test each, in the set's
    /// order; phase `files` in the stats): the files marked absent, and
    /// whether a stop came meanwhile. A file the test needs, if only to
    /// exist, stays as an empty file; the last file of a set always stays.
    fn drop_empty_files(&self, best: &[u8], stats: &mut Stats) -> Result<(Vec<bool>, bool)> {
        let texts = forest::split(best);
        let mut absent = vec![false; texts.len()];
        stats.start_pass(Phase::Files);
        for (i, text) in texts.iter().enumerate() {
            if !worth_leaving_out(text, &absent) {
                continue;
            }
            absent[i] = true;
            let report = self.runner.run_without(best, &absent, &Cancel::default())?;
            match report.outcome {
                Outcome::Cancelled => {
                    absent[i] = false;
                    return Ok((absent, true));
                }
                Outcome::Interesting => {
                    self.output.write_without(best, &absent)?;
                    stats.count_improvement(best.len(), best.len());
                    if let Destination::Dir(_, set, _) = self.output {
                        self.progress.println(&format!(
                            "hdd: left out {}: the test passes without it",
                            shown(&set.files[i].0)
                        ));
                    }
                }
                _ => absent[i] = false,
            }
            stats.tests += 1;
            stats.test_time += report.elapsed;
            stats.count_test();
        }
        Ok((absent, false))
    }
}

/// Whether a set's file whose text is `text` is worth a test without it,
/// the files `absent` marks already left out: it is empty, and not the
/// last file left.
fn worth_leaving_out(text: &[u8], absent: &[bool]) -> bool {
    text.is_empty() && absent.iter().filter(|&&a| !a).count() != 1
}

/// Whether a result is empty or only whitespace (and a set's separators):
/// the test probably accepts too much.
fn is_trivial(best: &[u8]) -> bool {
    best.iter().all(|&b| b.is_ascii_whitespace() || b == forest::SEPARATOR)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_empty_files_are_left_out_and_never_the_last_one() {
        assert!(worth_leaving_out(b"", &[false, false, false]));
        assert!(!worth_leaving_out(b"int x;", &[false, false, false]));
        assert!(worth_leaving_out(b"", &[true, false, false]));
        assert!(!worth_leaving_out(b"", &[true, true, false]));
        assert!(!worth_leaving_out(b"", &[false]));
    }

    #[test]
    fn a_result_of_whitespace_and_separators_is_trivial() {
        assert!(is_trivial(b""));
        assert!(is_trivial(&[b' ', b'\n', forest::SEPARATOR, b'\t']));
        assert!(!is_trivial(b" x "));
    }

    #[test]
    fn a_run_ends_as_its_plan_stopped_and_fails_with_its_failure() {
        assert_eq!(ended_by(None).expect("finished"), Ended::Finished);
        assert_eq!(ended_by(Some(StopReason::TimeUp)).expect("time"), Ended::TimeUp);
        let signal = ended_by(Some(StopReason::Signal(libc::SIGTERM))).expect("signal");
        assert_eq!(signal, Ended::Signal(libc::SIGTERM));
        let failed = ended_by(Some(StopReason::Failed(anyhow::anyhow!("disk full"))));
        assert_eq!(failed.expect_err("a failure").to_string(), "disk full");
    }
}
