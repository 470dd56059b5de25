//! The real oracle: from a candidate mask to "interesting or not".
//!
//! For each candidate, in this order, cheapest first:
//! 1. unparse it (see [`crate::unparse`]);
//! 2. if its text is the current best's, it is interesting: no test;
//! 3. if its text was seen before, the cached outcome: no test;
//! 4. if the syntax guard is on and it has more syntax errors than the input
//!    had, it is not interesting: no test;
//! 5. otherwise the user's test decides ([`runner`]).
//!
//! [`Evaluator`] implements the core's [`Oracle`]: with `-j N` it keeps N
//! candidates of the sequential order in flight on worker threads and
//! settles them in that order. Each candidate handed out assumes a guess
//! about the ones before it: what candidates of the same search step and
//! node kind mostly turned out lately in this run (see `Odds`). A test that
//! comes back other than assumed cancels the speculation after it, and the
//! stream goes on from there at once, without waiting for earlier tests. When the tests that
//! fail are much quicker than the ones that pass (a script that compiles
//! first and runs the slow check only then), a test that has outlasted
//! nearly all recent failures is guessed again as interesting before it
//! ends (see `Timing`). The settled outcomes, and so the result, are the
//! same for every N. Each interesting candidate becomes the new best and is
//! handed to the `on_improve` callback (which saves it) at once.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::frontend::{Frontend, GuardBase};
use crate::mask::Mask;
use crate::progress::Progress;
use crate::reduce::{Candidates, Context, Oracle, Verdict};
use crate::stats::Stats;
use crate::tree::Tree;
use crate::unparse::Unparser;

pub mod runner;

use runner::{Cancel, Outcome, Runner};

/// What is known about one candidate.
#[derive(Debug)]
enum Eval {
    /// Its text is the current best's.
    Same,
    /// Seen before.
    Cached(bool),
    /// Rejected by the syntax guard.
    Guarded,
    /// The test ran.
    Tested(Outcome, Duration),
}

impl Eval {
    fn interesting(&self) -> bool {
        match self {
            Eval::Same => true,
            Eval::Cached(b) => *b,
            Eval::Guarded => false,
            Eval::Tested(o, _) => o.is_interesting(),
        }
    }
}

/// The syntax guard: re-parse, and reject candidates with more errors than allowed.
#[derive(Clone, Copy)]
pub struct Guard<'f> {
    pub frontend: &'f dyn Frontend,
    pub allowed: usize,
}

/// How an [`Evaluator`] works.
#[derive(Debug)]
pub struct Settings<'f> {
    /// The syntax guard, if on.
    pub guard: Option<Guard<'f>>,
    /// Candidates tested at once.
    pub jobs: usize,
    /// When the run must end (`--max-time`).
    pub deadline: Option<Instant>,
    pub progress: Progress,
}

impl std::fmt::Debug for Guard<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guard").field("allowed", &self.allowed).finish()
    }
}

/// The current best text and the syntax guard's parse of it (to re-parse
/// candidates incrementally).
#[derive(Clone)]
struct Best {
    text: Arc<[u8]>,
    base: Option<Arc<GuardBase>>,
}

/// Everything the workers share.
struct Shared<'a> {
    runner: &'a Runner,
    guard: Option<Guard<'a>>,
    cache: Mutex<HashMap<u128, bool>>,
    /// The current best, as workers pick it up for each candidate.
    best: Mutex<Best>,
    /// Nanoseconds spent unparsing and hashing, in the syntax guard, and
    /// around the test (writing the candidate, spawning, cleaning up).
    unparse_ns: AtomicU64,
    guard_ns: AtomicU64,
    setup_ns: AtomicU64,
}

/// The oracle the session hands to the reducer core.
pub struct Evaluator<'a> {
    shared: Arc<Shared<'a>>,
    jobs: usize,
    deadline: Option<Instant>,
    tree: Arc<Tree>,
    best: Best,
    /// How long recent tests took, and how often candidates like the next
    /// one turned out interesting (for guessing with `-j`).
    timing: Timing,
    odds: Odds,
    stats: Stats,
    progress: Progress,
    on_improve: OnImprove<'a>,
    /// The first I/O error met; it stops the run.
    error: Option<anyhow::Error>,
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
    /// An evaluator whose current best is the text of `tree`; `on_improve`
    /// gets every better text found.
    pub fn new(
        runner: &'a Runner,
        settings: Settings<'a>,
        tree: Arc<Tree>,
        on_improve: OnImprove<'a>,
    ) -> Evaluator<'a> {
        let text: Arc<[u8]> = Arc::from(tree.src());
        let jobs = settings.jobs.max(1);
        let base = settings.guard.and_then(|g| g.frontend.guard_base(&text)).map(Arc::new);
        let best = Best { text, base };
        Evaluator {
            shared: Arc::new(Shared {
                runner,
                guard: settings.guard,
                cache: Mutex::new(HashMap::new()),
                best: Mutex::new(best.clone()),
                unparse_ns: AtomicU64::new(0),
                guard_ns: AtomicU64::new(0),
                setup_ns: AtomicU64::new(0),
            }),
            jobs,
            deadline: settings.deadline,
            stats: Stats::new(best.text.len(), jobs),
            tree,
            best,
            timing: Timing::default(),
            odds: Odds::default(),
            progress: settings.progress,
            on_improve,
            error: None,
        }
    }

    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// Starts a pass over a new tree (a re-parse of the current best).
    pub fn set_tree(&mut self, tree: Arc<Tree>) {
        debug_assert_eq!(tree.src(), &*self.best.text, "a new tree must be a parse of the best");
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
        let ns = |a: &AtomicU64| Duration::from_nanos(a.load(Ordering::Relaxed));
        stats.unparse_time = ns(&self.shared.unparse_ns);
        stats.guard_time = ns(&self.shared.guard_ns);
        stats.spawn_time = ns(&self.shared.setup_ns);
        stats
    }

    pub fn stats_mut(&mut self) -> &mut Stats {
        &mut self.stats
    }

    /// The I/O error that stopped the run, if one did.
    pub fn take_error(&mut self) -> Option<anyhow::Error> {
        self.error.take()
    }

    fn must_stop(&self) -> bool {
        let stop = self.shared.runner.stop();
        if !stop.is_set() && self.deadline.is_some_and(|d| Instant::now() >= d) {
            stop.time_up();
        }
        stop.is_set() || self.error.is_some()
    }

    /// Records what was learnt about one candidate (of HDD level `level`).
    fn account(&mut self, eval: &Eval, level: Option<usize>) {
        let s = &mut self.stats;
        s.set_level(level);
        match eval {
            Eval::Same => s.same_text += 1,
            Eval::Cached(_) => s.cache_hits += 1,
            Eval::Guarded => s.guard_skips += 1,
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
        self.progress.update(&self.stats, self.best.text.len());
    }

    /// Records an answer that was not needed after all.
    fn waste(&mut self, done: &Done) {
        if let Ok(eval) = &done.eval {
            self.account(eval, done.level);
            self.stats.wasted +=
                u64::from(matches!(eval, Eval::Tested(o, _) if *o != Outcome::Cancelled));
        }
    }

    fn improve(&mut self, found: Found) {
        let Found { text, base } = found;
        self.stats.count_improvement(self.best.text.len(), text.len());
        // keep the guard's parse in step with the best
        let base = match (base, &self.best.base, self.shared.guard) {
            (Some(base), _, _) => Some(Arc::new(base)),
            (None, Some(old), Some(g)) => g.frontend.syntax_errors_from(old, &text).1.map(Arc::new),
            (None, _, _) => None,
        };
        self.best = Best { text: Arc::from(text), base };
        *self.shared.best.lock().expect("best lock") = self.best.clone();
        self.stats.improvements += 1;
        self.progress.update(&self.stats, self.best.text.len());
        if let Err(e) = (self.on_improve)(&self.best.text) {
            self.error.get_or_insert(e);
        }
    }
}

/// Called with every better text found (the session saves it).
pub type OnImprove<'a> = Box<dyn FnMut(&[u8]) -> Result<()> + 'a>;

/// A candidate sent to a worker.
struct Job {
    /// Tells this sending of candidate `index` from earlier ones that were
    /// cancelled.
    ticket: u64,
    index: usize,
    level: Option<usize>,
    mask: Mask,
    cancel: Arc<Cancel>,
}

/// An interesting candidate: its text, and the syntax guard's parse of it.
struct Found {
    text: Vec<u8>,
    base: Option<GuardBase>,
}

/// A worker's answer.
struct Done {
    ticket: u64,
    index: usize,
    level: Option<usize>,
    eval: Result<Eval>,
    /// The candidate, when it is interesting.
    found: Option<Found>,
}

impl Shared<'_> {
    /// Decides one candidate (in a worker thread).
    fn evaluate(
        &self,
        scratch: &mut Scratch,
        tree: &Tree,
        best: &Best,
        job: &Job,
    ) -> (Result<Eval>, Option<Found>) {
        let started = Instant::now();
        scratch.unparser.unparse(tree, &job.mask, &mut scratch.text);
        let text = &scratch.text;
        let same = text[..] == *best.text;
        let key = if same { 0 } else { xxhash_rust::xxh3::xxh3_128(text) };
        add_time(&self.unparse_ns, started);
        if same {
            return (Ok(Eval::Same), None);
        }
        let cached = self.cache.lock().expect("cache lock").get(&key).copied();
        // the guard re-parses from the best's parse where it can; that parse
        // of the candidate becomes the base if the candidate becomes the best
        let mut base = None;
        let mut guarded = || {
            let Some(g) = self.guard else { return false };
            let started = Instant::now();
            let errors = match best.base.as_deref() {
                Some(b) => {
                    let (errors, parse) = g.frontend.syntax_errors_from(b, text);
                    base = parse;
                    errors
                }
                None => g.frontend.syntax_errors(text),
            };
            add_time(&self.guard_ns, started);
            errors > g.allowed
        };
        let eval = if let Some(b) = cached {
            Eval::Cached(b)
        } else if guarded() {
            self.cache.lock().expect("cache lock").insert(key, false);
            Eval::Guarded
        } else {
            let started = Instant::now();
            let run = self.runner.run(text, false, Some(&job.cancel));
            let total = started.elapsed();
            match run {
                Ok(report) => {
                    let setup = total.saturating_sub(report.elapsed);
                    self.setup_ns.fetch_add(setup.as_nanos() as u64, Ordering::Relaxed);
                    if report.outcome != Outcome::Cancelled {
                        self.cache
                            .lock()
                            .expect("cache lock")
                            .insert(key, report.outcome.is_interesting());
                    }
                    Eval::Tested(report.outcome, report.elapsed)
                }
                Err(e) => return (Err(e), None),
            }
        };
        let found = eval.interesting().then(|| Found { text: text.clone(), base });
        (Ok(eval), found)
    }
}

fn add_time(counter: &AtomicU64, since: Instant) {
    counter.fetch_add(since.elapsed().as_nanos() as u64, Ordering::Relaxed);
}

/// A worker's reusable buffers.
#[derive(Default)]
struct Scratch {
    unparser: Unparser,
    text: Vec<u8>,
}

impl Oracle for Evaluator<'_> {
    fn evaluate(&mut self, candidates: &mut dyn Candidates) -> Verdict {
        if self.jobs == 1 {
            return self.sequential(candidates);
        }
        self.parallel(candidates)
    }
}

impl Evaluator<'_> {
    /// Whether to assume that a candidate turns out interesting: when
    /// candidates like it mostly did (see `Odds`).
    fn guess(&self, context: Context, expect: bool) -> bool {
        self.odds.chance(context, expect) > 0.5
    }

    /// Accounts for the next candidate in order, which was guessed to turn
    /// out `guess`, and commits it if it is interesting. Returns its outcome,
    /// or `None` if the run must stop.
    fn settle(&mut self, guess: bool, context: Context, done: Done) -> Option<bool> {
        let Done { level, eval, found, .. } = done;
        let eval = match eval {
            Ok(eval) => eval,
            Err(e) => {
                self.error.get_or_insert(e);
                return None;
            }
        };
        self.account(&eval, level);
        if let Eval::Tested(Outcome::Cancelled, _) = eval {
            return None;
        }
        self.stats.useful_tests += u64::from(matches!(eval, Eval::Tested(..)));
        let interesting = eval.interesting();
        if interesting {
            if let Some(found) = found {
                self.improve(found);
            }
            if self.error.is_some() {
                return None;
            }
        }
        self.odds.learn(context, interesting);
        self.stats.expected_interesting += u64::from(guess);
        self.stats.mispredicted += u64::from(interesting != guess);
        Some(interesting)
    }

    /// One candidate at a time, on this thread.
    fn sequential(&mut self, candidates: &mut dyn Candidates) -> Verdict {
        let mut scratch = Scratch::default();
        let cancel = Arc::new(Cancel::default());
        while let Some(c) = candidates.next() {
            if self.must_stop() {
                return Verdict::Stopped;
            }
            let job = Job {
                ticket: 0,
                index: c.index,
                level: c.level,
                mask: c.mask,
                cancel: cancel.clone(),
            };
            // nothing runs ahead, but the guess is counted as with -j
            let guess = self.guess(c.context, c.expect);
            let (eval, found) = self.shared.evaluate(&mut scratch, &self.tree, &self.best, &job);
            let done = Done { ticket: 0, index: c.index, level: c.level, eval, found };
            let Some(interesting) = self.settle(guess, c.context, done) else {
                return Verdict::Stopped;
            };
            candidates.settle(c.index, interesting);
        }
        Verdict::Finished
    }

    /// Up to `jobs` candidates at once on worker threads, settled in order.
    fn parallel(&mut self, candidates: &mut dyn Candidates) -> Verdict {
        let (job_tx, job_rx) = mpsc::channel::<Job>();
        let job_rx = Mutex::new(job_rx);
        let (done_tx, done_rx) = mpsc::channel::<Done>();
        let shared = self.shared.clone();
        let shared = &*shared;
        let tree = self.tree.clone();
        std::thread::scope(|scope| {
            for _ in 0..self.jobs {
                let done_tx = done_tx.clone();
                let (job_rx, tree) = (&job_rx, &tree);
                scope.spawn(move || {
                    let mut scratch = Scratch::default();
                    loop {
                        let job = match job_rx.lock().expect("job queue").recv() {
                            Ok(job) => job,
                            Err(_) => return,
                        };
                        let (eval, found) = if job.cancel.is_set() {
                            (Ok(Eval::Tested(Outcome::Cancelled, Duration::ZERO)), None)
                        } else {
                            let best = shared.best.lock().expect("best lock").clone();
                            shared.evaluate(&mut scratch, tree, &best, &job)
                        };
                        let done = Done {
                            ticket: job.ticket,
                            index: job.index,
                            level: job.level,
                            eval,
                            found,
                        };
                        if done_tx.send(done).is_err() {
                            return;
                        }
                    }
                });
            }
            drop(done_tx);
            let verdict = Dispatch::default().run(self, candidates, &job_tx, &done_rx);
            drop(job_tx);
            // workers finish their current job (cancelled) and exit; what
            // they finished was speculation that is no longer needed
            for done in done_rx.iter() {
                self.waste(&done);
            }
            verdict
        })
    }
}

/// A candidate handed to a worker and not answered yet.
struct Flight {
    ticket: u64,
    cancel: Arc<Cancel>,
    sent: Instant,
    /// Already guessed again as interesting because it ran long.
    guessed_again: bool,
}

/// A candidate handed out and not settled yet.
struct Pending {
    context: Context,
    /// What it was guessed to turn out when handed out.
    guess: bool,
    /// What the stream now assumes.
    assumed: bool,
}

/// The bookkeeping of one parallel evaluation: feeds the workers, settles
/// their answers in sequential order, and moves speculation to the other
/// branch when an answer (or a long-running test) says so.
#[derive(Default)]
struct Dispatch {
    /// Every candidate handed out and not settled, by index.
    pending: BTreeMap<usize, Pending>,
    flying: BTreeMap<usize, Flight>,
    /// Answers waiting for the candidates before them.
    answers: BTreeMap<usize, Done>,
    /// Every candidate before this one is settled.
    settled: usize,
    /// The stream has no candidate left under the current assumptions.
    exhausted: bool,
    tickets: u64,
}

impl Dispatch {
    fn run(
        &mut self,
        ev: &mut Evaluator<'_>,
        candidates: &mut dyn Candidates,
        job_tx: &mpsc::Sender<Job>,
        done_rx: &mpsc::Receiver<Done>,
    ) -> Verdict {
        let verdict = loop {
            if ev.must_stop() {
                break Verdict::Stopped;
            }
            if let Err(verdict) = self.feed(ev, candidates, job_tx) {
                break verdict;
            }
            if let Err(verdict) = self.settle_answered(ev, candidates) {
                break verdict;
            }
            if self.exhausted && self.pending.is_empty() {
                break Verdict::Finished;
            }
            // wait for an answer, or until a test in flight is due to be
            // guessed again
            let now = Instant::now();
            let due = ev.timing.likely_interesting_after().and_then(|after| {
                self.flying
                    .iter()
                    .filter(|(i, f)| !f.guessed_again && !self.pending[i].assumed)
                    .map(|(&i, f)| (f.sent + after, i))
                    .min()
            });
            let mut wait = Duration::from_millis(200);
            if let Some(d) = ev.deadline {
                wait = wait.min(d.saturating_duration_since(now));
            }
            if let Some((at, _)) = due {
                wait = wait.min(at.saturating_duration_since(now));
            }
            match done_rx.recv_timeout(wait) {
                Ok(done) => self.answer(ev, candidates, done),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Some((at, index)) = due.filter(|&(at, _)| Instant::now() >= at) {
                        debug_assert!(at <= Instant::now());
                        let flight = self.flying.get_mut(&index).expect("due tests are in flight");
                        flight.guessed_again = true;
                        ev.stats.guessed_again += 1;
                        self.assume(ev, candidates, index, true);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break Verdict::Stopped,
            }
        };
        for flight in self.flying.values() {
            flight.cancel.set();
        }
        // answers that arrived but were not settled were speculation
        for done in std::mem::take(&mut self.answers).into_values() {
            ev.waste(&done);
        }
        verdict
    }

    /// Hands out candidates while a worker is free, each assuming what the
    /// ones before it were guessed to turn out.
    fn feed(
        &mut self,
        ev: &Evaluator<'_>,
        candidates: &mut dyn Candidates,
        job_tx: &mpsc::Sender<Job>,
    ) -> Result<(), Verdict> {
        while self.flying.len() < ev.jobs && !self.exhausted {
            let Some(c) = candidates.next() else {
                self.exhausted = true;
                break;
            };
            let guess = ev.guess(c.context, c.expect);
            if guess != c.expect {
                candidates.assume(c.index, guess);
            }
            self.tickets += 1;
            let cancel = Arc::new(Cancel::default());
            let pending = Pending { context: c.context, guess, assumed: guess };
            self.pending.insert(c.index, pending);
            let flight = Flight {
                ticket: self.tickets,
                cancel: cancel.clone(),
                sent: Instant::now(),
                guessed_again: false,
            };
            self.flying.insert(c.index, flight);
            let job =
                Job { ticket: self.tickets, index: c.index, level: c.level, mask: c.mask, cancel };
            job_tx.send(job).map_err(|_| Verdict::Stopped)?;
        }
        Ok(())
    }

    /// Settles the answers that are next in order.
    fn settle_answered(
        &mut self,
        ev: &mut Evaluator<'_>,
        candidates: &mut dyn Candidates,
    ) -> Result<(), Verdict> {
        while let Some(done) = self.answers.remove(&self.settled) {
            let p = self.pending.remove(&self.settled).expect("answered candidates are pending");
            let interesting = ev.settle(p.guess, p.context, done).ok_or(Verdict::Stopped)?;
            debug_assert_eq!(interesting, p.assumed, "a divergence was assumed when it arrived");
            candidates.settle(self.settled, interesting);
            self.settled += 1;
        }
        Ok(())
    }

    /// Takes in a worker's answer.
    fn answer(&mut self, ev: &mut Evaluator<'_>, candidates: &mut dyn Candidates, done: Done) {
        let current = self.flying.get(&done.index).is_some_and(|f| f.ticket == done.ticket);
        if !current {
            // cancelled since: a candidate no longer in the stream
            ev.waste(&done);
            return;
        }
        let flight = self.flying.remove(&done.index).expect("checked above");
        if let Ok(Eval::Tested(outcome, _)) = &done.eval {
            if !matches!(outcome, Outcome::Timeout | Outcome::Cancelled) {
                ev.timing.record(outcome.is_interesting(), flight.sent.elapsed());
            }
        }
        let outcome = match &done.eval {
            Ok(Eval::Tested(Outcome::Cancelled, _)) | Err(_) => None,
            Ok(eval) => Some(eval.interesting()),
        };
        let index = done.index;
        self.answers.insert(index, done);
        if let Some(interesting) = outcome.filter(|&i| i != self.pending[&index].assumed) {
            self.assume(ev, candidates, index, interesting);
        }
    }

    /// Assumes candidate `index` turns out `interesting`: everything after it
    /// assumed otherwise, so it is cancelled and the stream goes on from there.
    fn assume(
        &mut self,
        ev: &mut Evaluator<'_>,
        candidates: &mut dyn Candidates,
        index: usize,
        interesting: bool,
    ) {
        for (_, flight) in self.flying.split_off(&(index + 1)) {
            flight.cancel.set();
        }
        for (_, done) in self.answers.split_off(&(index + 1)) {
            ev.waste(&done);
        }
        self.pending.split_off(&(index + 1));
        self.pending.get_mut(&index).expect("assumptions are about pending candidates").assumed =
            interesting;
        candidates.assume(index, interesting);
        self.exhausted = false;
    }
}

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
struct Timing {
    fails: VecDeque<Duration>,
    passes: VecDeque<Duration>,
}

/// Recent tests remembered per outcome: tests get quicker as the input
/// shrinks, so old ones say little.
const TIMING_WINDOW: usize = 24;

impl Timing {
    fn record(&mut self, interesting: bool, took: Duration) {
        let times = if interesting { &mut self.passes } else { &mut self.fails };
        if times.len() == TIMING_WINDOW {
            times.pop_front();
        }
        times.push_back(took);
    }

    /// How long a test must have run to be guessed interesting, when the
    /// recent tests tell the outcomes apart by time.
    fn likely_interesting_after(&self) -> Option<Duration> {
        if self.fails.len() < 4 || self.passes.len() < 2 {
            return None;
        }
        let slow_fail = quantile(&self.fails, 0.9);
        let after = slow_fail.mul_f64(1.1) + Duration::from_millis(2);
        (quantile(&self.passes, 0.5) > after.mul_f64(1.5)).then_some(after)
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
struct Odds {
    /// Outcomes seen, each worth less with every later one of its kind:
    /// `[not interesting, interesting]`.
    by_context: HashMap<Context, [f64; 2]>,
    by_step: HashMap<u8, [f64; 2]>,
}

/// How many outcomes a coarser estimate weighs as, against a finer one.
const PRIOR_WEIGHT: f64 = 2.0;

/// What an outcome is worth after each later one of the same context (or
/// step): the last half dozen or so decide. On the corpus this cut wrong
/// guesses by 3% overall and by 10% on `js/he-encode` against counting
/// every outcome alike.
const ODDS_DECAY: f64 = 0.85;

impl Odds {
    fn learn(&mut self, context: Context, interesting: bool) {
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
    fn chance(&self, context: Context, expect: bool) -> f64 {
        let blend = |seen: Option<&[f64; 2]>, prior: f64| {
            let [no, yes] = seen.copied().unwrap_or_default();
            (yes + PRIOR_WEIGHT * prior) / (no + yes + PRIOR_WEIGHT)
        };
        let search = if expect { 0.8 } else { 0.2 };
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
        let at = |kind| Context { step: 0, kind };
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
        assert!(odds.chance(Context { step: 7, kind: 2 }, false) < 0.5);
    }

    #[test]
    fn odds_follow_the_recent_outcomes() {
        let mut odds = Odds::default();
        let at = Context { step: 3, kind: 1 };
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
