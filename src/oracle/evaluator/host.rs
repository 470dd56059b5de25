//! The [`Evaluator`] as the scheduler's [`DispatchHost`]: what becomes of
//! each answer. A settled one is counted, traced and learnt from, and an
//! interesting one that commits becomes the new best; one not needed
//! after all is counted as waste (a test ahead only if no candidate takes
//! it, a re-check run ahead kept for the end of the run).
//!
//! Invariant: a test's run is counted once, when its answer comes; a test
//! ahead counts as the test of the first candidate settled on its text,
//! and as a cached outcome for the others.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::Evaluator;
use crate::oracle::check::{Done, Eval, Found};
use crate::oracle::dispatch::DispatchHost;
use crate::oracle::forecast::{forecast_with_branch, OracleHistory};
use crate::oracle::guard::{Best, Guard};
use crate::oracle::predict::Timing;
use crate::oracle::queue::QueuePlace;
use crate::oracle::runner::Outcome;
use crate::oracle::sink::Answer;
use crate::reduce::ahead::Forecast;
use crate::reduce::Context;
use crate::syntax::Mask;

impl Evaluator<'_> {
    /// Hands `eval` to the sink, if it traces (`settled`: the step that
    /// proposed it and the guess it was handed out on, when the search
    /// used it).
    fn trace(&mut self, eval: &Eval, settled: Option<(Context, bool)>, used: bool) {
        if !self.sink.traces() {
            return;
        }
        let (how, secs) = match eval {
            Eval::Same => ("same", Duration::ZERO),
            Eval::Cached(_) => ("cache", Duration::ZERO),
            Eval::Guarded => ("guard", Duration::ZERO),
            Eval::Dropped => ("dropped", Duration::ZERO),
            Eval::Tested(Outcome::Cancelled, t) => ("cancelled", *t),
            Eval::Tested(Outcome::Timeout, t) => ("timeout", *t),
            Eval::Ahead(_, t, _) => ("ahead", *t),
            Eval::Tested(_, t) => ("test", *t),
        };
        let answer = Answer {
            phase: self.stats.phase_label(),
            step: settled.map(|(c, _)| format!("{:?}", c.step)),
            guess: settled.map(|(_, guess)| guess),
            how,
            interesting: eval.interesting(),
            used,
            test_secs: secs.as_secs_f64(),
        };
        if let Err(e) = self.sink.answered(&answer) {
            self.failure.get_or_insert(e);
        }
    }

    /// Records what was learnt about one candidate (of HDD level `level`).
    fn account(&mut self, eval: &Eval, level: Option<usize>) {
        let s = &mut self.stats;
        s.set_level(level);
        match eval {
            Eval::Same => s.same_text += 1,
            // its test counted when it ran (and only the first candidate
            // settled on it gets here: see `settle`)
            Eval::Ahead(..) => s.ahead_used += 1,
            Eval::Cached(_) => s.cache_hits += 1,
            Eval::Guarded => s.guard_skips += 1,
            Eval::Dropped => {}
            Eval::Tested(Outcome::Cancelled, t) => {
                s.cancelled += 1;
                s.test_time += *t;
            }
            Eval::Tested(o, t) => {
                s.tests += 1;
                s.test_time += *t;
                if *o == Outcome::Timeout {
                    s.timeouts += 1;
                }
                s.count_test();
            }
        }
        self.sink.progress(&self.stats, self.best.text.len());
    }

    /// Makes the candidate `mask` the best; `found`: what its check kept.
    fn improve(&mut self, mask: &Mask, found: Found) {
        // the new best's text and parse are made under a share of the
        // budget, like a worker's candidate: not beside a worker's check
        let permit = self.checker.budget.take(self.best.text.len(), QueuePlace::BEST, None);
        let text: Arc<[u8]> = Arc::from(self.buffers.unparse(&self.tree, mask));
        self.buffers.trim();
        self.stats.count_improvement(self.best.text.len(), text.len());
        // keep the guard's parse in step with the best
        let base = Guard::next_base(self.checker.guard, &self.best, found.base, &text);
        self.best = Best { text, base };
        *self.checker.best.lock().expect("best lock") = self.best.clone();
        drop(permit);
        self.stats.improvements += 1;
        self.sink.progress(&self.stats, self.best.text.len());
        if let Err(e) = self.sink.improved(&self.best.text) {
            self.failure.get_or_insert(e);
        }
    }
}

impl DispatchHost for Evaluator<'_> {
    fn jobs(&self) -> usize {
        self.jobs
    }

    fn must_stop(&mut self) -> bool {
        let stop = self.checker.runner.stop();
        if !stop.is_set() && self.deadline.is_some_and(|d| Instant::now() >= d) {
            stop.time_up();
        }
        stop.is_set() || self.failure.is_some()
    }

    fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// How often candidates like it turned out interesting (see `Odds`).
    fn chance(&self, context: Context, expect: bool) -> f64 {
        self.odds.chance(context, expect)
    }

    fn settle(
        &mut self,
        guess: bool,
        context: Context,
        commit: bool,
        mask: &Mask,
        done: Done,
    ) -> Option<bool> {
        let Done { level, eval, found, .. } = done;
        let eval = match eval {
            // a test ahead is one candidate's test, the first settled on it
            Ok(Eval::Ahead(b, _, key)) if !self.claimed.insert(key) => Eval::Cached(b),
            Ok(eval) => eval,
            Err(e) => {
                self.failure.get_or_insert(e);
                return None;
            }
        };
        self.account(&eval, level);
        self.trace(&eval, Some((context, guess)), true);
        if eval.cancelled() {
            return None;
        }
        self.stats.useful_tests += u64::from(matches!(eval, Eval::Tested(..) | Eval::Ahead(..)));
        let interesting = eval.interesting();
        self.outcomes.push(interesting);
        if interesting && commit {
            if let Some(found) = found {
                self.improve(mask, found);
            }
            if self.failure.is_some() {
                return None;
            }
        }
        self.odds.learn(context, interesting);
        self.stats.expected_interesting += u64::from(guess);
        self.stats.mispredicted += u64::from(interesting != guess);
        Some(interesting)
    }

    fn waste(&mut self, done: &Done) {
        if let Some(key) = done.recheck {
            // a test like any other, used or not at the end of the run
            if let Ok(eval) = &done.eval {
                self.account(eval, None);
                let finished = matches!(eval, Eval::Tested(..)) && !eval.cancelled();
                self.rechecks.push((key, finished.then(|| eval.interesting())));
            }
            return;
        }
        if let Ok(eval) = &done.eval {
            // not the candidate that takes the test ahead
            let eval = &match *eval {
                Eval::Ahead(b, ..) => Eval::Cached(b),
                eval => eval,
            };
            self.account(eval, done.level);
            self.trace(eval, None, false);
            let finished = matches!(eval, Eval::Tested(..)) && !eval.cancelled();
            // a test ahead is waste only if no later candidate takes it
            match done.ahead {
                true => self.stats.ahead += u64::from(finished),
                false => self.stats.wasted += u64::from(finished),
            }
        }
    }

    fn spare(&self) -> bool {
        let s = &self.stats;
        s.wasted + s.ahead.saturating_sub(s.ahead_used) + s.cancelled < s.useful_tests
    }

    fn forecast(
        &mut self,
        assumed: &[bool],
        want: usize,
        sure: f64,
        floors: (f64, f64),
    ) -> Forecast {
        let Some(forecaster) = self.forecaster.as_deref_mut() else { return Forecast::default() };
        let settled = self.outcomes.len();
        self.outcomes.extend_from_slice(assumed);
        let history = OracleHistory { odds: &self.odds, checker: &self.checker };
        let forecast =
            forecast_with_branch(forecaster, &history, &mut self.outcomes, want, sure, floors);
        self.outcomes.truncate(settled);
        forecast
    }

    fn timing(&mut self) -> &mut Timing {
        &mut self.timing
    }

    fn guessed_again(&mut self) {
        self.stats.guessed_again += 1;
    }

    fn other_branch_used(&mut self) {
        self.stats.other_branch_used += 1;
    }
}
