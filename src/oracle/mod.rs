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
//! [`Evaluator`] implements the core's [`Oracle`]: with `-j N` it runs up to N
//! candidates of the sequential order at once on worker threads and settles
//! them in that order, stopping at the first that did not turn out as the
//! search expected and cancelling the rest; so the verdict (and the result) is
//! the same for every N. Each interesting candidate becomes the new best and is
//! handed to the `on_improve` callback (which saves it) at once.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::frontend::{Frontend, GuardBase};
use crate::mask::Mask;
use crate::progress::Progress;
use crate::reduce::{Candidate, Oracle, Verdict};
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

/// Everything the workers share.
struct Shared<'a> {
    runner: &'a Runner,
    guard: Option<Guard<'a>>,
    cache: Mutex<HashMap<u128, bool>>,
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
    best: Arc<[u8]>,
    /// The syntax guard's parse of `best`, to re-parse candidates incrementally.
    best_base: Option<Arc<GuardBase>>,
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
            .field("best", &self.best.len())
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
        let best: Arc<[u8]> = Arc::from(tree.src());
        let jobs = settings.jobs.max(1);
        let best_base = settings.guard.and_then(|g| g.frontend.guard_base(&best)).map(Arc::new);
        Evaluator {
            shared: Arc::new(Shared {
                runner,
                guard: settings.guard,
                cache: Mutex::new(HashMap::new()),
                unparse_ns: AtomicU64::new(0),
                guard_ns: AtomicU64::new(0),
                setup_ns: AtomicU64::new(0),
            }),
            jobs,
            deadline: settings.deadline,
            stats: Stats::new(best.len(), jobs),
            tree,
            best,
            best_base,
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
        debug_assert_eq!(tree.src(), &*self.best, "a new tree must be a parse of the best");
        self.tree = tree;
    }

    /// The smallest interesting text so far.
    pub fn best(&self) -> &Arc<[u8]> {
        &self.best
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

    /// Records what was learnt about one candidate.
    fn account(&mut self, eval: &Eval) {
        let s = &mut self.stats;
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
        self.progress.update(&self.stats, self.best.len());
    }

    fn improve(&mut self, found: Found) {
        let Found { text, base } = found;
        self.stats.count_improvement(self.best.len(), text.len());
        // keep the guard's parse in step with the best
        self.best_base = match (base, &self.best_base, self.shared.guard) {
            (Some(base), _, _) => Some(Arc::new(base)),
            (None, Some(old), Some(g)) => g.frontend.syntax_errors_from(old, &text).1.map(Arc::new),
            (None, _, _) => None,
        };
        self.best = Arc::from(text);
        self.stats.improvements += 1;
        self.progress.update(&self.stats, self.best.len());
        if let Err(e) = (self.on_improve)(&self.best) {
            self.error.get_or_insert(e);
        }
    }
}

/// Called with every better text found (the session saves it).
pub type OnImprove<'a> = Box<dyn FnMut(&[u8]) -> Result<()> + 'a>;

/// A candidate sent to a worker.
struct Job {
    index: usize,
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
    index: usize,
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
        best: &[u8],
        best_base: Option<&GuardBase>,
        job: &Job,
    ) -> (Result<Eval>, Option<Found>) {
        let started = Instant::now();
        scratch.unparser.unparse(tree, &job.mask, &mut scratch.text);
        let text = &scratch.text;
        let same = text[..] == *best;
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
            let errors = match best_base {
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
    fn evaluate(&mut self, candidates: &mut dyn Iterator<Item = Candidate>) -> Verdict {
        if self.jobs == 1 {
            return self.sequential(candidates);
        }
        self.parallel(candidates)
    }

    fn progress(&mut self, level: Option<usize>) {
        self.stats.set_level(level);
    }
}

/// What to do after settling one candidate in order.
enum Settled {
    /// It turned out as expected: go on with the next.
    AsExpected,
    /// Stop here with this verdict.
    Return(Verdict),
}

impl Evaluator<'_> {
    /// Accounts for the candidate at `index` (the next in order), commits it
    /// if it is interesting, and says whether the sequence goes on.
    fn settle(
        &mut self,
        index: usize,
        expect: bool,
        eval: Result<Eval>,
        found: Option<Found>,
    ) -> Settled {
        let eval = match eval {
            Ok(eval) => eval,
            Err(e) => {
                self.error.get_or_insert(e);
                return Settled::Return(Verdict::Stopped);
            }
        };
        self.account(&eval);
        if let Eval::Tested(Outcome::Cancelled, _) = eval {
            return Settled::Return(Verdict::Stopped);
        }
        self.stats.useful_tests += u64::from(matches!(eval, Eval::Tested(..)));
        let interesting = eval.interesting();
        if interesting {
            if let Some(found) = found {
                self.improve(found);
            }
            if self.error.is_some() {
                return Settled::Return(Verdict::Stopped);
            }
        }
        self.stats.expected_interesting += u64::from(expect);
        if interesting == expect {
            Settled::AsExpected
        } else {
            self.stats.mispredicted += 1;
            Settled::Return(Verdict::Diverged { index, interesting })
        }
    }

    /// One candidate at a time, on this thread.
    fn sequential(&mut self, candidates: &mut dyn Iterator<Item = Candidate>) -> Verdict {
        let mut scratch = Scratch::default();
        let cancel = Arc::new(Cancel::default());
        let mut count = 0;
        for (index, c) in candidates.enumerate() {
            if self.must_stop() {
                return Verdict::Stopped;
            }
            let job = Job { index, mask: c.mask, cancel: cancel.clone() };
            let base = self.best_base.as_deref();
            let (eval, found) =
                self.shared.evaluate(&mut scratch, &self.tree, &self.best, base, &job);
            match self.settle(index, c.expect, eval, found) {
                Settled::AsExpected => count += 1,
                Settled::Return(verdict) => return verdict,
            }
        }
        Verdict::AsExpected(count)
    }

    /// Up to `jobs` candidates at once, settled in order.
    fn parallel(&mut self, candidates: &mut dyn Iterator<Item = Candidate>) -> Verdict {
        let (job_tx, job_rx) = mpsc::channel::<Job>();
        let job_rx = Mutex::new(job_rx);
        let (done_tx, done_rx) = mpsc::channel::<Done>();
        let shared = self.shared.clone();
        let shared = &*shared;
        let tree = self.tree.clone();
        let best = self.best.clone();
        let best_base = self.best_base.clone();
        std::thread::scope(|scope| {
            for _ in 0..self.jobs {
                let done_tx = done_tx.clone();
                let (job_rx, tree, best, best_base) = (&job_rx, &tree, &best, &best_base);
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
                            shared.evaluate(&mut scratch, tree, best, best_base.as_deref(), &job)
                        };
                        if done_tx.send(Done { index: job.index, eval, found }).is_err() {
                            return;
                        }
                    }
                });
            }
            drop(done_tx);
            let verdict = self.dispatch(candidates, &job_tx, &done_rx);
            drop(job_tx);
            // workers finish their current job (cancelled) and exit; what
            // they finished was speculation that is no longer needed
            for done in done_rx.iter() {
                if let Ok(eval) = &done.eval {
                    self.account(eval);
                    self.stats.wasted +=
                        u64::from(matches!(eval, Eval::Tested(o, _) if *o != Outcome::Cancelled));
                }
            }
            verdict
        })
    }

    /// Feeds the workers and settles their answers in sequential order.
    fn dispatch(
        &mut self,
        candidates: &mut dyn Iterator<Item = Candidate>,
        job_tx: &mpsc::Sender<Job>,
        done_rx: &mpsc::Receiver<Done>,
    ) -> Verdict {
        let mut in_flight: BTreeMap<usize, Arc<Cancel>> = BTreeMap::new();
        let mut expects: BTreeMap<usize, bool> = BTreeMap::new();
        let mut answers: BTreeMap<usize, Done> = BTreeMap::new();
        let mut next = 0usize; // index of the next candidate to send
        let mut settled = 0usize; // every candidate before this one is settled
        let mut diverged: Option<usize> = None; // the earliest known divergence
        let mut exhausted = false;
        let cancel_from = |in_flight: &BTreeMap<usize, Arc<Cancel>>, from: usize| {
            for (_, c) in in_flight.range(from..) {
                c.set();
            }
        };
        let verdict = loop {
            if self.must_stop() {
                break Verdict::Stopped;
            }
            while in_flight.len() < self.jobs && diverged.is_none() && !exhausted {
                match candidates.next() {
                    Some(c) => {
                        let cancel = Arc::new(Cancel::default());
                        in_flight.insert(next, cancel.clone());
                        expects.insert(next, c.expect);
                        if job_tx.send(Job { index: next, mask: c.mask, cancel }).is_err() {
                            return Verdict::Stopped;
                        }
                        next += 1;
                    }
                    None => exhausted = true,
                }
            }
            let mut returned = None;
            while let Some(done) = answers.remove(&settled) {
                let expect = expects[&settled];
                match self.settle(settled, expect, done.eval, done.found) {
                    Settled::AsExpected => settled += 1,
                    Settled::Return(verdict) => {
                        returned = Some(verdict);
                        break;
                    }
                }
            }
            if let Some(verdict) = returned {
                break verdict;
            }
            if exhausted && in_flight.is_empty() && settled == next {
                break Verdict::AsExpected(settled);
            }
            let wait = self.deadline.map_or(Duration::from_millis(200), |d| {
                d.saturating_duration_since(Instant::now()).min(Duration::from_millis(200))
            });
            match done_rx.recv_timeout(wait) {
                Ok(done) => {
                    in_flight.remove(&done.index);
                    let outcome = done.eval.as_ref().map(Eval::interesting);
                    if outcome.is_ok_and(|i| i != expects[&done.index]) {
                        // everything after it assumed otherwise
                        diverged = Some(diverged.map_or(done.index, |d| d.min(done.index)));
                        cancel_from(&in_flight, done.index + 1);
                    }
                    answers.insert(done.index, done);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break Verdict::Stopped,
            }
        };
        cancel_from(&in_flight, 0);
        // answers that arrived but were not settled were speculation
        for (_, later) in answers {
            if let Ok(e) = &later.eval {
                self.account(e);
                self.stats.wasted +=
                    u64::from(matches!(e, Eval::Tested(o, _) if *o != Outcome::Cancelled));
            }
        }
        verdict
    }
}
