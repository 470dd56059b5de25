//! Guessing outcomes before they are known, for `-j`: what candidates like
//! the next one turned out lately ([`Odds`]), and whether a test that has run
//! long is likely to pass ([`Timing`]). A guess only decides what runs
//! ahead; outcomes are still settled as they come, so a wrong guess costs
//! wasted tests, never a different result.

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use super::tuning::{
    EXPECTED_CHANCE, FOLD_CHANCE, ODDS_DECAY, PASS_SEPARATION, PRIOR_WEIGHT, SLOW_FAIL_MARGIN,
    SLOW_FAIL_QUANTILE, SLOW_FAIL_SLACK, TIMING_MIN_FAILS, TIMING_MIN_PASSES, TIMING_WINDOW,
    UNEXPECTED_CHANCE,
};
use crate::reduce::{Context, Step};

/// How long recent tests took, by outcome, from handing the candidate to a
/// worker to its answer.
///
/// Many tests fail fast and pass slowly: a script that compiles the
/// candidate first and runs the slow check only when that works rejects a
/// broken candidate in a fraction of the time. When the recent tests show
/// that (most passes took far longer than nearly all failures), a test that
/// has outlasted nearly all failures will likely pass, and speculating on
/// its passing keeps the other cores on the likely path. The guess only
/// decides what runs ahead; outcomes are still settled as they come.
#[derive(Debug, Default)]
pub(super) struct Timing {
    fails: VecDeque<Duration>,
    passes: VecDeque<Duration>,
}

impl Timing {
    pub(super) fn record(&mut self, interesting: bool, took: Duration) {
        let times = if interesting { &mut self.passes } else { &mut self.fails };
        if times.len() == TIMING_WINDOW {
            times.pop_front();
        }
        times.push_back(took);
    }

    /// How long a test must have run to be guessed interesting, when the
    /// recent tests tell the outcomes apart by time.
    pub(super) fn likely_interesting_after(&self) -> Option<Duration> {
        if self.fails.len() < TIMING_MIN_FAILS || self.passes.len() < TIMING_MIN_PASSES {
            return None;
        }
        let slow_fail = quantile(&self.fails, SLOW_FAIL_QUANTILE);
        let after = slow_fail.mul_f64(SLOW_FAIL_MARGIN) + SLOW_FAIL_SLACK;
        (quantile(&self.passes, 0.5) > after.mul_f64(PASS_SEPARATION)).then_some(after)
    }
}

/// How often candidates turned out interesting, per [`Context`] and per
/// search step, learnt as the run goes (for guessing with `-j`).
///
/// The chance for a candidate starts from what its search expects, is
/// corrected by how candidates from the same step turned out, and that by
/// how those of the same step and node kind did, each estimate weighing as
/// much as a couple of outcomes of the finer one. Recent outcomes count
/// most: what can go changes as the input shrinks.
#[derive(Debug, Default)]
pub(super) struct Odds {
    /// Outcomes seen, each worth less with every later one of its kind:
    /// `[not interesting, interesting]`.
    by_context: HashMap<Context, [f64; 2]>,
    by_step: HashMap<Step, [f64; 2]>,
}

impl Odds {
    pub(super) fn learn(&mut self, context: Context, interesting: bool) {
        let seen = [
            self.by_context.entry(context).or_default(),
            self.by_step.entry(context.step).or_default(),
        ];
        for counts in seen {
            counts.iter_mut().for_each(|c| *c *= ODDS_DECAY);
            counts[usize::from(interesting)] += 1.0;
        }
    }

    /// The chance that a candidate of `context` is interesting, when its
    /// search expects `expect`.
    pub(super) fn chance(&self, context: Context, expect: bool) -> f64 {
        if context.step == Step::Fold {
            return FOLD_CHANCE;
        }
        let blend = |seen: Option<&[f64; 2]>, prior: f64| {
            let [no, yes] = seen.copied().unwrap_or_default();
            (yes + PRIOR_WEIGHT * prior) / (no + yes + PRIOR_WEIGHT)
        };
        let search = if expect { EXPECTED_CHANCE } else { UNEXPECTED_CHANCE };
        let step = blend(self.by_step.get(&context.step), search);
        blend(self.by_context.get(&context), step)
    }
}

/// The `q` quantile (0 to 1) of a non-empty list of durations.
fn quantile(times: &VecDeque<Duration>, q: f64) -> Duration {
    let mut sorted: Vec<Duration> = times.iter().copied().collect();
    sorted.sort_unstable();
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_long_test_is_guessed_interesting_only_when_failures_are_quick() {
        let mut t = Timing::default();
        assert_eq!(t.likely_interesting_after(), None, "nothing known yet");
        for f in [30, 35, 32, 40, 31, 33, 36, 34, 38, 30] {
            t.record(false, ms(f));
        }
        assert_eq!(t.likely_interesting_after(), None, "no pass seen yet");
        for p in [200, 240, 210] {
            t.record(true, ms(p));
        }
        // 90% of the failures end by 38 ms
        assert_eq!(t.likely_interesting_after(), Some(ms(38).mul_f64(1.1) + ms(2)));

        // passes as quick as failures: the time says nothing
        let mut same = Timing::default();
        for d in [100, 110, 95, 105, 98] {
            same.record(false, ms(d));
            same.record(true, ms(d + 3));
        }
        assert_eq!(same.likely_interesting_after(), None);
    }

    #[test]
    fn odds_are_learnt_per_step_and_node_kind() {
        let mut odds = Odds::default();
        let at = |kind| Context { step: Step::FirstProbe { after_success: false }, kind };
        // nothing seen: the search's own expectation
        assert!(odds.chance(at(1), false) < 0.5);
        assert!(odds.chance(at(1), true) > 0.5);
        // at this step, deleting kind 1 (say, declarations) fails and
        // deleting kind 2 (statements) passes
        for _ in 0..10 {
            odds.learn(at(1), false);
            odds.learn(at(2), true);
        }
        assert!(odds.chance(at(1), true) < 0.2);
        assert!(odds.chance(at(2), false) > 0.8);
        // a kind not seen at this step: about what the step does overall
        assert!((odds.chance(at(3), false) - 0.5).abs() < 0.1);
        // another step has odds of its own
        assert!(odds.chance(Context { step: Step::Bisect, kind: 2 }, false) < 0.5);
    }

    #[test]
    fn odds_follow_the_recent_outcomes() {
        let mut odds = Odds::default();
        let at = Context { step: Step::Linear { nth: 3 }, kind: 1 };
        for _ in 0..30 {
            odds.learn(at, false);
        }
        assert!(odds.chance(at, true) < 0.1);
        // what could go early in the run cannot any more, or the reverse:
        // a handful of outcomes turn the guess
        for _ in 0..5 {
            odds.learn(at, true);
        }
        assert!(odds.chance(at, false) > 0.5);
    }

    #[test]
    fn timing_forgets_old_tests() {
        let mut t = Timing::default();
        for _ in 0..TIMING_WINDOW {
            t.record(false, ms(300));
        }
        t.record(true, ms(2000));
        t.record(true, ms(2000));
        assert!(t.likely_interesting_after().is_some());
        // the input shrank: every test is quick now, passing or not
        for _ in 0..TIMING_WINDOW {
            t.record(false, ms(20));
            t.record(true, ms(25));
        }
        assert_eq!(t.likely_interesting_after(), None);
    }
}
