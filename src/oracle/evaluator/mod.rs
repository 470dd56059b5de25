//! [`Evaluator`], the reducer core's real [`Oracle`]: one candidate at a
//! time on this thread with `-j 1`, else the scheduler of
//! [`dispatch`](super::dispatch) on the run's workers.
//!
//! It holds what outlives a pass: the current best (and the guard's parse
//! of it), the odds and timings guesses are made by, the outcomes settled
//! so far (where a forecast of the plan starts), the workers, and what one
//! pass's scheduling hands the next. [`host`] is its side of the
//! scheduler: what becomes of each answer.
//!
//! Invariant: only settled outcomes change the best, in the sequential
//! order, so the result is the same for every `-j`; each new best goes to
//! the [`Sink`] at once.

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::check::{Buffers, Checker, Done, Input, Job};
use super::dispatch::{Dispatch, DispatchHost, Handover};
use super::forecast::Forecaster;
use super::guard::{Best, Guard};
use super::pool::Pool;
use super::predict::{Odds, Timing};
use super::runner::Runner;
use super::sink::Sink;
use super::stats::Stats;
use crate::os::stop::Cancel;
use crate::reduce::{Candidates, Oracle, Verdict};
use crate::syntax::{TextKey, Tree};

mod host;

/// How an [`Evaluator`] works.
#[derive(Debug)]
pub(crate) struct Settings<'f> {
    /// The syntax guard, if on.
    pub guard: Option<Guard<'f>>,
    /// Candidates tested at once.
    pub jobs: usize,
    /// When the run must end (`--max-time`).
    pub deadline: Option<Instant>,
}

/// Why an evaluation stopped before its search was done.
#[derive(Debug)]
pub(crate) enum StopReason {
    /// A signal asked hdd to stop.
    Signal(i32),
    /// `--max-time` ran out.
    TimeUp,
    /// Saving a result, or running the test, failed.
    Failed(anyhow::Error),
}

/// The oracle the session hands to the reducer core.
pub(crate) struct Evaluator<'a> {
    checker: Arc<Checker<'a>>,
    jobs: usize,
    deadline: Option<Instant>,
    /// The tree candidates are unparsed against.
    tree: Arc<Tree>,
    best: Best,
    /// How long recent tests took, and how often candidates like the next
    /// one turned out interesting (for guessing with `-j`).
    timing: Timing,
    odds: Odds,
    stats: Stats,
    sink: &'a mut dyn Sink,
    /// The first failure met; it stops the run.
    failure: Option<anyhow::Error>,
    /// The buffers of `-j 1`'s checks, and of unparsing each new best.
    buffers: Buffers,
    /// The outcome of every candidate settled so far, in order: where a
    /// forecast of the plan starts.
    outcomes: Vec<bool>,
    forecaster: Option<Box<dyn Forecaster + 'a>>,
    /// The texts whose test ahead a settled candidate took.
    claimed: HashSet<TextKey>,
    /// The final re-checks run ahead: their text's hash, and their outcome
    /// if they finished.
    rechecks: Vec<(TextKey, Option<bool>)>,
    /// The run's workers, if started ([`Evaluator::start_workers`]).
    pool: Option<Pool>,
    /// What one pass's scheduling hands the next (see [`Handover`]).
    handover: Handover,
}

impl std::fmt::Debug for Evaluator<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evaluator")
            .field("jobs", &self.jobs)
            .field("best", &self.best.text.len())
            .finish()
    }
}

impl<'a> Evaluator<'a> {
    /// An evaluator whose current best is the text of `tree`; `sink` gets
    /// every better text found.
    pub(crate) fn new(
        runner: &'a Runner,
        settings: Settings<'a>,
        tree: Arc<Tree>,
        sink: &'a mut dyn Sink,
    ) -> Evaluator<'a> {
        let jobs = settings.jobs.max(1);
        // the best shares the tree's bytes until it improves
        let best = Guard::best(settings.guard, tree.src_arc());
        Evaluator {
            checker: Arc::new(Checker::new(runner, settings.guard, best.clone(), jobs)),
            jobs,
            deadline: settings.deadline,
            stats: Stats::new(best.text.len(), jobs),
            tree,
            best,
            timing: Timing::default(),
            odds: Odds::default(),
            sink,
            failure: None,
            buffers: Buffers::default(),
            outcomes: Vec::new(),
            forecaster: None,
            claimed: HashSet::new(),
            rechecks: Vec::new(),
            pool: None,
            handover: Handover::default(),
        }
    }

    /// Lets free workers test the texts `forecaster` says the plan will
    /// test after the pass in flight (with `-j`).
    pub(crate) fn set_forecaster(&mut self, forecaster: Box<dyn Forecaster + 'a>) {
        self.forecaster = Some(forecaster);
    }

    /// Switches the syntax guard on or off for the candidates to come (a
    /// pass over malformed input may cut through its broken syntax).
    pub(crate) fn set_guarded(&mut self, on: bool) {
        self.checker.set_guarded(on);
    }

    /// Starts a pass over a new tree of the current best text.
    pub(crate) fn set_tree(&mut self, tree: Arc<Tree>) {
        debug_assert_eq!(tree.src(), &*self.best.text, "a new tree must be of the best text");
        if !Arc::ptr_eq(tree.policy(), self.tree.policy()) {
            // another view of the text: its node kinds mean other things
            self.odds = Odds::default();
        }
        self.tree = tree;
    }

    /// The smallest interesting text so far.
    pub(crate) fn best(&self) -> &Arc<[u8]> {
        &self.best.text
    }

    /// The figures so far, with where the reducer's own time went.
    pub(crate) fn stats(&self) -> Stats {
        let mut stats = self.stats.clone();
        let ns = |a: &std::sync::atomic::AtomicU64| Duration::from_nanos(a.load(Ordering::Relaxed));
        stats.unparse_time = ns(&self.checker.unparse_ns);
        stats.guard_time = ns(&self.checker.guard_ns);
        stats.spawn_time = ns(&self.checker.setup_ns);
        stats
    }

    /// The outcome of the final re-check of the best, if it ran ahead and
    /// finished (see [`Input::Recheck`]); the other re-checks run ahead
    /// count as wasted tests.
    pub(crate) fn take_recheck(&mut self) -> Option<bool> {
        let best = TextKey::of(&self.best.text);
        let mut outcome = None;
        for (key, finished) in std::mem::take(&mut self.rechecks) {
            match (key == best && outcome.is_none(), finished) {
                (true, Some(interesting)) => {
                    outcome = Some(interesting);
                    self.stats.rechecks += 1;
                }
                (_, Some(_)) => self.stats.wasted += 1,
                (_, None) => {}
            }
        }
        outcome
    }

    pub(crate) fn stats_mut(&mut self) -> &mut Stats {
        &mut self.stats
    }

    /// Why the run stopped before its plan was done, if it did: a failure
    /// first, then a signal, then the time.
    pub(crate) fn stop_reason(&mut self) -> Option<StopReason> {
        if let Some(e) = self.failure.take() {
            return Some(StopReason::Failed(e));
        }
        let stop = self.checker.runner.stop();
        match stop.signal() {
            Some(s) => Some(StopReason::Signal(s)),
            None => stop.is_time_up().then_some(StopReason::TimeUp),
        }
    }

    /// One candidate at a time, on this thread.
    fn sequential(&mut self, candidates: &mut dyn Candidates) -> Verdict {
        let cancel = Arc::new(Cancel::default());
        while let Some(c) = candidates.next() {
            if self.must_stop() {
                return Verdict::Stopped;
            }
            let job = Job {
                ticket: 0,
                index: c.index,
                level: c.level,
                input: Input::Mask(self.tree.clone(), c.mask.clone()),
                cancel: cancel.clone(),
            };
            // nothing runs ahead, but the guess is counted as with -j
            let guess = self.chance(c.context, c.expect) > 0.5;
            // one candidate at a time: no share of the budget to wait for
            let (eval, found) =
                self.checker.check(&mut self.buffers, self.best.clone(), None, &job);
            let done = Done {
                ticket: 0,
                index: c.index,
                level: c.level,
                eval,
                found,
                ahead: false,
                recheck: None,
            };
            let Some(interesting) = self.settle(guess, c.context, c.commit, &c.mask, done) else {
                return Verdict::Stopped;
            };
            candidates.settle(c.index, interesting);
        }
        Verdict::Finished
    }

    /// Up to `jobs` candidates at once on the workers, settled in order.
    fn parallel(&mut self, candidates: &mut dyn Candidates) -> Verdict {
        if let Some(pool) = self.pool.take() {
            let verdict = self.dispatch(candidates, &pool);
            self.pool = Some(pool);
            return verdict;
        }
        // no workers of the run's: this evaluation's own
        std::thread::scope(|scope| {
            let pool = Pool::start(scope, &self.checker, self.jobs);
            let verdict = self.dispatch(candidates, &pool);
            self.drain(pool);
            // its tests ahead ended with its workers: none runs on
            self.handover.ahead.clear();
            self.handover.recheck = None;
            verdict
        })
    }

    /// Settles `candidates` on the workers of `pool`. The tests ahead of a
    /// pass that ended as assumed go on running, for the next pass.
    fn dispatch(&mut self, candidates: &mut dyn Candidates, pool: &Pool) -> Verdict {
        let handover = std::mem::take(&mut self.handover);
        let mut dispatch = Dispatch::new(self.tree.clone(), handover);
        let verdict = dispatch.run(self, candidates, pool);
        self.handover = dispatch.into_handover();
        verdict
    }

    /// Starts the workers of the run on `scope`: they test the candidates
    /// of every pass, so that a test ahead of a pass goes on while the
    /// next pass starts. [`Evaluator::stop_workers`] ends them, before the
    /// scope does.
    pub(crate) fn start_workers<'s>(&mut self, scope: &'s std::thread::Scope<'s, '_>)
    where
        'a: 's,
    {
        if self.jobs > 1 && self.pool.is_none() {
            self.pool = Some(Pool::start(scope, &self.checker, self.jobs));
        }
    }

    /// Ends the workers [`Evaluator::start_workers`] started, once their
    /// current tests end (tests ahead no pass needs now are cancelled).
    pub(crate) fn stop_workers(&mut self) {
        let Handover { ahead, recheck, .. } = std::mem::take(&mut self.handover);
        for (_, cancel) in ahead {
            cancel.set();
        }
        // the re-check of the result itself runs on: the session waits for
        // it rather than start it again
        let best = TextKey::of(&self.best.text);
        if let Some(recheck) = recheck.filter(|r| r.key != best) {
            recheck.cancel.set();
        }
        if let Some(pool) = self.pool.take() {
            self.drain(pool);
        }
    }

    /// Closes `pool`'s queue and waits for its workers to end; what they
    /// finished was speculation that is no longer needed.
    fn drain(&mut self, pool: Pool) {
        for done in pool.close() {
            self.waste(&done);
        }
    }
}

impl Oracle for Evaluator<'_> {
    fn evaluate(&mut self, candidates: &mut dyn Candidates) -> Verdict {
        if self.jobs == 1 {
            return self.sequential(candidates);
        }
        self.parallel(candidates)
    }
}
