//! The oracle layer: from a candidate mask to "interesting or not", by
//! running the user's test as few times as possible.
//!
//! - [`check`]: one candidate, cheapest way first (same text as the best,
//!   the cache, the syntax guard of [`guard`], then the test).
//! - [`dispatch`]: with `-j N`, N candidates of the sequential order in
//!   flight at once, settled in that order; [`predict`] guesses what
//!   speculation should assume.
//! - [`runner`]: the only place that spawns processes; [`reaper`]: finding
//!   and ending every process of a test; [`scratch`]: the session directory;
//!   [`stop`]: signals, `--max-time` and cancelling a test.
//! - [`stats`]: the run's counters.
//!
//! [`Evaluator`] implements the reducer core's [`Oracle`] over all of it.
//! The settled outcomes, and so the result, are the same for every N. Each
//! interesting candidate becomes the new best and is handed to the
//! [`Sink`] (which saves it) at once.
//!
//! Invariant: this layer knows nothing of the application above it (the
//! command line, files the user named, exit codes).

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Result;
use serde::Serialize;

use crate::reduce::ahead::{Forecast, ForecastRequest, Seen, TestHistory};
use crate::reduce::{Candidates, Context, Oracle, Verdict};
use crate::syntax::{Mask, TextKey, Tree};

mod budget;
mod check;
pub mod dir;
mod dispatch;
pub mod guard;
mod predict;
mod queue;
pub mod reaper;
pub mod runner;
pub mod scratch;
pub mod stats;
pub mod stop;
mod tuning;

use check::{Buffers, Checker, Done, Eval, Found, Input, Job};
use dispatch::{Dispatch, DispatchHost, Handover, Workers};
use guard::{Best, Guard};
use predict::{Odds, Timing};
use queue::QueuePlace;
use runner::{Outcome, Runner};
use stats::Stats;
use stop::Cancel;
use tuning::BRANCH_TEXTS;

/// How an [`Evaluator`] works.
#[derive(Debug)]
pub struct Settings<'f> {
    /// The syntax guard, if on.
    pub guard: Option<Guard<'f>>,
    /// Candidates tested at once.
    pub jobs: usize,
    /// When the run must end (`--max-time`).
    pub deadline: Option<Instant>,
}

/// Where an evaluator's news goes.
pub trait Sink {
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
pub struct Answer {
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

/// What the plan will test after the pass in flight, if that pass ends as
/// guessed (see [`crate::reduce::ahead`]): with `-j`, free workers test
/// those texts ahead, while the pass ends.
pub trait Forecaster {
    /// The texts, the likeliest to be needed first, and the text the plan
    /// ends on if the forecast gets there.
    fn forecast(&mut self, request: ForecastRequest<'_>, history: &dyn TestHistory) -> Forecast;
}

/// Why an evaluation stopped before its search was done.
#[derive(Debug)]
pub enum StopReason {
    /// A signal asked hdd to stop.
    Signal(i32),
    /// `--max-time` ran out.
    TimeUp,
    /// Saving a result, or running the test, failed.
    Failed(anyhow::Error),
}

/// The oracle the session hands to the reducer core.
pub struct Evaluator<'a> {
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
    pub fn new(
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
    pub fn set_forecaster(&mut self, forecaster: Box<dyn Forecaster + 'a>) {
        self.forecaster = Some(forecaster);
    }

    /// Switches the syntax guard on or off for the candidates to come (a
    /// pass over malformed input may cut through its broken syntax).
    pub fn set_guarded(&mut self, on: bool) {
        self.checker.set_guarded(on);
    }

    /// Starts a pass over a new tree of the current best text.
    pub fn set_tree(&mut self, tree: Arc<Tree>) {
        debug_assert_eq!(tree.src(), &*self.best.text, "a new tree must be of the best text");
        if !Arc::ptr_eq(tree.info(), self.tree.info()) {
            // another view of the text: its node kinds mean other things
            self.odds = Odds::default();
        }
        self.tree = tree;
    }

    /// The smallest interesting text so far.
    pub fn best(&self) -> &Arc<[u8]> {
        &self.best.text
    }

    /// The figures so far, with where the reducer's own time went.
    pub fn stats(&self) -> Stats {
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
    pub fn take_recheck(&mut self) -> Option<bool> {
        let best = TextKey::of(&self.best.text);
        let mut outcome = None;
        for (key, finished) in std::mem::take(&mut self.rechecks) {
            match (key == best && outcome.is_none(), finished) {
                (true, Some(interesting)) => outcome = Some(interesting),
                (_, Some(_)) => self.stats.wasted += 1,
                (_, None) => {}
            }
        }
        outcome
    }

    pub fn stats_mut(&mut self) -> &mut Stats {
        &mut self.stats
    }

    /// Why the run stopped before its plan was done, if it did: a failure
    /// first, then a signal, then the time.
    pub fn stop_reason(&mut self) -> Option<StopReason> {
        if let Some(e) = self.failure.take() {
            return Some(StopReason::Failed(e));
        }
        let stop = self.checker.runner.stop();
        match stop.signal() {
            Some(s) => Some(StopReason::Signal(s)),
            None => stop.is_time_up().then_some(StopReason::TimeUp),
        }
    }

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
    pub fn start_workers<'s>(&mut self, scope: &'s std::thread::Scope<'s, '_>)
    where
        'a: 's,
    {
        if self.jobs > 1 && self.pool.is_none() {
            self.pool = Some(Pool::start(scope, &self.checker, self.jobs));
        }
    }

    /// Ends the workers [`Evaluator::start_workers`] started, once their
    /// current tests end (tests ahead no pass needs now are cancelled).
    pub fn stop_workers(&mut self) {
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
        let Pool { jobs, done } = pool;
        drop(jobs);
        for done in done.iter() {
            self.waste(&done);
        }
    }
}

/// The worker threads of `-j`: the queue of jobs they take, and the
/// answers they send back.
struct Pool {
    jobs: mpsc::Sender<Job>,
    done: mpsc::Receiver<Done>,
}

impl Pool {
    /// `n` workers checking candidates with `checker`, on `scope`.
    fn start<'s, 'a: 's>(
        scope: &'s std::thread::Scope<'s, '_>,
        checker: &Arc<Checker<'a>>,
        n: usize,
    ) -> Pool {
        let (job_tx, job_rx) = mpsc::channel::<Job>();
        let job_rx = Arc::new(Mutex::new(job_rx));
        let (done_tx, done_rx) = mpsc::channel::<Done>();
        for _ in 0..n {
            let (checker, job_rx, done_tx) = (checker.clone(), job_rx.clone(), done_tx.clone());
            scope.spawn(move || checker.work(&job_rx, done_tx));
        }
        Pool { jobs: job_tx, done: done_rx }
    }
}

impl Workers for Pool {
    fn send(&self, job: Job) -> bool {
        self.jobs.send(job).is_ok()
    }

    fn recv_timeout(&self, wait: Duration) -> Result<Done, RecvTimeoutError> {
        self.done.recv_timeout(wait)
    }

    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// What the evaluator's tests so far tell a forecast: the odds it guesses
/// by, and the texts tested or running.
struct OracleHistory<'e, 'a> {
    odds: &'e Odds,
    checker: &'e Checker<'a>,
}

impl TestHistory for OracleHistory<'_, '_> {
    fn chance(&self, context: Context, expect: bool) -> f64 {
        self.odds.chance(context, expect)
    }

    fn seen(&self, text: &[u8]) -> Seen {
        self.checker.seen(text)
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
        let Some(forecaster) = self.forecaster.as_mut() else { return Forecast::default() };
        let settled = self.outcomes.len();
        self.outcomes.extend_from_slice(assumed);
        let history = OracleHistory { odds: &self.odds, checker: &self.checker };
        let request = ForecastRequest { outcomes: &self.outcomes, want, sure, floor: floors.0 };
        let mut forecast = forecaster.forecast(request, &history);
        // the other branch of its first guess, on the workers left
        let left = want.saturating_sub(forecast.texts.len()).min(BRANCH_TEXTS);
        if let Some(branch) = forecast.branch.take().filter(|b| left > 0 && b.chance >= floors.1) {
            self.outcomes.extend_from_slice(&branch.outcomes);
            let request = ForecastRequest {
                outcomes: &self.outcomes,
                want: left,
                sure: branch.chance,
                floor: floors.1,
            };
            for text in forecaster.forecast(request, &history).texts {
                if !forecast.texts.contains(&text) {
                    forecast.texts.push(text);
                }
            }
        }
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
