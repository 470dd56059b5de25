//! Deciding one candidate, cheapest way first (on a worker thread):
//!
//! 1. unparse it (see [`crate::syntax::unparse`]);
//! 2. if its text is the current best's, it is interesting: no test;
//! 3. if its text was seen before, the cached outcome: no test;
//! 4. if the syntax guard is on and it has more syntax errors than the input
//!    had, it is not interesting: no test;
//! 5. if another worker is testing the same text, its outcome: no test;
//! 6. otherwise the user's test decides ([`Runner`]).
//!
//! A text of a later pass tested ahead (see [`crate::reduce::ahead`]) goes
//! the same way from step 2, always under the guard; its outcome waits in
//! the cache for the candidates that need it (the first one settled takes
//! it as its test's). The final re-check run ahead runs the test whatever
//! the cache knows, and its outcome stays out of the cache.
//!
//! Here too: the jobs the scheduler sends and the answers that come back
//! ([`Job`], [`Done`]), and the worker loop ([`Checker::work`]), one text
//! buffer per worker. Invariant: an outcome in the cache is one the test
//! gave for the very text (or the guard's refusal, which counts only while
//! the guard is on), so a cache hit answers as the test would.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use anyhow::Result;

use super::budget::{Budget, Permit};
use super::guard::{Best, Guard, Recent};
use super::queue::QueuePlace;
use super::runner::{Outcome, Runner};
use super::tuning::{LARGE_BUFFER, SMALL, WAIT_POLL};
use crate::language::GuardBase;
use crate::os::stop::Cancel;
use crate::reduce::ahead::Seen;
use crate::syntax::{Mask, TextKey, Tree, Unparser};

/// What is known about one candidate.
#[derive(Clone, Copy, Debug)]
pub(super) enum Eval {
    /// Its text is the current best's.
    Same,
    /// Seen before.
    Cached(bool),
    /// Rejected by the syntax guard.
    Guarded,
    /// The test ran.
    Tested(Outcome, Duration),
    /// The test of the same text ran ahead, for this candidate's pass,
    /// while the pass before it ended (see [`Input::Ahead`]): its outcome,
    /// how long it ran, and the text's hash. The first candidate settled
    /// on it takes it as its own test, run early; for the others it is a
    /// cached outcome.
    Ahead(bool, Duration, TextKey),
    /// No longer needed before its test started (or while it waited for
    /// another worker's test of the same text): no answer, and no test.
    Dropped,
}

impl Eval {
    pub(super) fn interesting(&self) -> bool {
        match self {
            Eval::Same => true,
            Eval::Cached(b) | Eval::Ahead(b, ..) => *b,
            Eval::Guarded | Eval::Dropped => false,
            Eval::Tested(o, _) => o.is_interesting(),
        }
    }

    /// Whether it was cut short, so that the answer is not known (the
    /// test was stopped, or never started).
    pub(super) fn cancelled(&self) -> bool {
        matches!(self, Eval::Tested(Outcome::Cancelled, _) | Eval::Dropped)
    }
}

/// What a worker checks.
pub(super) enum Input {
    /// A candidate of the current pass, unparsed against the pass's tree.
    Mask(Arc<Tree>, Mask),
    /// The text of a candidate of a later pass, tested ahead: the outcome
    /// goes to the cache, where it waits for the candidate (see
    /// [`crate::reduce::ahead`]).
    Ahead(Arc<[u8]>),
    /// The text the plan was forecast to end on: the final re-check of
    /// the result, run ahead (see `dispatch::ahead`).
    /// The test runs whatever the cache knows; its outcome stays out of the
    /// cache.
    Recheck(Arc<[u8]>),
}

/// A candidate sent to a worker.
pub(super) struct Job {
    /// Tells this sending of candidate `index` from earlier ones that were
    /// cancelled.
    pub ticket: u64,
    pub index: usize,
    pub level: Option<usize>,
    pub input: Input,
    pub cancel: Arc<Cancel>,
}

impl Job {
    /// Whether it is a test ahead ([`Input::Ahead`]).
    pub(super) fn ahead(&self) -> bool {
        matches!(self.input, Input::Ahead(_))
    }

    /// The hash of its text, if it is a re-check ([`Input::Recheck`]).
    fn recheck(&self) -> Option<TextKey> {
        match &self.input {
            Input::Recheck(text) => Some(TextKey::of(text)),
            _ => None,
        }
    }
}

/// An interesting candidate: the syntax guard's parse of it, with `-j 1`.
/// Not its text: the answers waiting to be settled in order would hold up
/// to one copy of the text per worker; the one that becomes the best is
/// unparsed again from its mask. With more workers, not the parse either
/// (one parsed from scratch is as large as the tree-sitter tree of the
/// text): the new best's is made again from the old best's.
pub(super) struct Found {
    pub base: Option<Arc<GuardBase>>,
}

/// A worker's answer.
pub(super) struct Done {
    pub ticket: u64,
    pub index: usize,
    pub level: Option<usize>,
    pub eval: Result<Eval>,
    /// The candidate, when it is interesting.
    pub found: Option<Found>,
    /// It was a test ahead ([`Input::Ahead`]).
    pub ahead: bool,
    /// It was the final re-check run ahead, of the text with this hash
    /// ([`Input::Recheck`]).
    pub recheck: Option<TextKey>,
}

/// A worker's reusable buffers: one text, whatever the size of the
/// candidates it checks (given back when larger than [`LARGE_BUFFER`]).
#[derive(Default)]
pub(super) struct Buffers {
    unparser: Unparser,
    text: Vec<u8>,
}

impl Buffers {
    /// Gives back a large text buffer.
    pub(super) fn trim(&mut self) {
        Buffers::trim_text(&mut self.text);
    }

    /// Gives back `text`'s buffer if it is large.
    fn trim_text(text: &mut Vec<u8>) {
        if text.capacity() > LARGE_BUFFER {
            *text = Vec::new();
        }
    }

    /// The text of `mask` over `tree`, in the one buffer.
    pub(super) fn unparse(&mut self, tree: &Tree, mask: &Mask) -> &[u8] {
        self.unparser.unparse(tree, mask, &mut self.text);
        &self.text
    }
}

/// What the cache knows of a text.
#[derive(Clone, Copy)]
enum Known {
    /// The test said so.
    Tested(bool),
    /// A test ahead said so (after this long).
    Ahead(bool, Duration),
    /// The syntax guard rejected it (the test did not run).
    Guarded,
}

/// A text whose test is running, for the workers that get a candidate
/// with the same text meanwhile (with `-j`, two candidates of different
/// masks can read the same): they wait for its outcome rather than run
/// the same test again.
#[derive(Default)]
struct Running {
    /// `Some` once the test ended: its outcome, or `None` when it gave
    /// none (cancelled, or it could not run), and a waiter runs it itself.
    ended: Mutex<Option<Option<bool>>>,
    wake: Condvar,
}

/// Marks a text as being tested by one worker until dropped, when the
/// waiting workers learn the outcome (`None` unless set).
struct Testing<'c> {
    running: &'c Mutex<HashMap<TextKey, Arc<Running>>>,
    key: TextKey,
    entry: Arc<Running>,
    outcome: Option<bool>,
}

impl Drop for Testing<'_> {
    fn drop(&mut self) {
        self.running.lock().expect("running lock").remove(&self.key);
        *self.entry.ended.lock().expect("ended lock") = Some(self.outcome);
        self.entry.wake.notify_all();
    }
}

/// Everything the workers share.
pub(super) struct Checker<'a> {
    pub runner: &'a Runner,
    pub guard: Option<Guard<'a>>,
    /// How much text the guard re-parses at once.
    pub(super) budget: Budget,
    /// The guard's parses of recent small candidates.
    recent: Recent,
    /// Whether an interesting candidate's answer keeps its parse (see
    /// [`Found`]).
    keep_parses: bool,
    /// Whether the guard is off for the current pass (see
    /// [`Checker::set_guarded`]).
    unguarded: AtomicBool,
    cache: Mutex<HashMap<TextKey, Known>>,
    /// The texts being tested, by their hash.
    running: Mutex<HashMap<TextKey, Arc<Running>>>,
    /// The current best, as workers pick it up for each candidate.
    pub best: Mutex<Best>,
    /// Nanoseconds spent unparsing and hashing, in the syntax guard, and
    /// around the test (writing the candidate, spawning, cleaning up).
    pub unparse_ns: AtomicU64,
    pub guard_ns: AtomicU64,
    pub setup_ns: AtomicU64,
}

impl<'a> Checker<'a> {
    pub(super) fn new(
        runner: &'a Runner,
        guard: Option<Guard<'a>>,
        best: Best,
        jobs: usize,
    ) -> Checker<'a> {
        Checker {
            runner,
            guard,
            budget: Budget::new(best.text.len()),
            recent: Recent::new(),
            keep_parses: jobs == 1,
            unguarded: AtomicBool::new(false),
            cache: Mutex::new(HashMap::new()),
            running: Mutex::new(HashMap::new()),
            best: Mutex::new(best),
            unparse_ns: AtomicU64::new(0),
            guard_ns: AtomicU64::new(0),
            setup_ns: AtomicU64::new(0),
        }
    }

    /// Switches the syntax guard on or off for the candidates to come; a
    /// text the guard rejected before is then tested like any other.
    pub(super) fn set_guarded(&self, on: bool) {
        self.unguarded.store(!on, Ordering::Relaxed);
    }

    /// What a test (or the syntax guard, as not interesting: a test ahead
    /// is of a guarded pass) said of `text` before, or whether one runs.
    pub(super) fn seen(&self, text: &[u8]) -> Seen {
        let key = TextKey::of(text);
        match self.cache.lock().expect("cache lock").get(&key) {
            Some(Known::Tested(b) | Known::Ahead(b, _)) => return Seen::Known(*b),
            Some(Known::Guarded) => return Seen::Known(false),
            None => {}
        }
        match self.running.lock().expect("running lock").contains_key(&key) {
            true => Seen::Running,
            false => Seen::New,
        }
    }

    /// The cache's answer for a candidate of text `key`.
    fn cached(&self, key: TextKey, unguarded: bool) -> Option<Eval> {
        match *self.cache.lock().expect("cache lock").get(&key)? {
            Known::Tested(b) => Some(Eval::Cached(b)),
            Known::Ahead(b, t) => Some(Eval::Ahead(b, t, key)),
            Known::Guarded if !unguarded => Some(Eval::Cached(false)),
            Known::Guarded => None,
        }
    }

    /// Decides one candidate.
    pub(super) fn check(
        &self,
        buffers: &mut Buffers,
        best: Best,
        permit: Option<Permit<'_>>,
        job: &Job,
    ) -> (Result<Eval>, Option<Found>) {
        let started = Instant::now();
        let ahead = job.ahead();
        match &job.input {
            Input::Mask(tree, mask) => buffers.unparser.unparse(tree, mask, &mut buffers.text),
            Input::Ahead(text) => {
                buffers.text.clear();
                buffers.text.extend_from_slice(text);
            }
            Input::Recheck(text) => {
                drop(best);
                return (self.recheck(text, permit, &job.cancel), None);
            }
        }
        if buffers.text[..] == *best.text {
            add_time(&self.unparse_ns, started);
            return (Ok(Eval::Same), None);
        }
        let key = TextKey::of(&buffers.text);
        add_time(&self.unparse_ns, started);
        let unguarded = !ahead && self.unguarded.load(Ordering::Relaxed);
        let cached = self.cached(key, unguarded);
        // the guard's parse of the candidate becomes the base if the
        // candidate becomes the best
        let mut base = None;
        let mut testing = None;
        let eval = if let Some(eval) = cached {
            eval
        } else if self.guard_rejects(job, &best, &buffers.text, unguarded, &mut base) {
            self.cache.lock().expect("cache lock").insert(key, Known::Guarded);
            Eval::Guarded
        } else if let Some(eval) = self.same_text_tested(key, unguarded, &job.cancel, &mut testing)
        {
            eval
        } else {
            // the test does not need the best: an older one is not kept
            // alive (text and parse) while it runs
            drop(best);
            match self.test(buffers, key, job, permit, testing.as_mut()) {
                Ok(eval) => eval,
                Err(e) => return (Err(e), None),
            }
        };
        let found = eval.interesting().then_some(Found { base });
        (Ok(eval), found)
    }

    /// Whether the syntax guard, if on for this candidate, rejects its
    /// `text`; the guard's parse of it goes to `base` when answers keep
    /// their parses (see [`Found`]).
    fn guard_rejects(
        &self,
        job: &Job,
        best: &Best,
        text: &[u8],
        unguarded: bool,
        base: &mut Option<Arc<GuardBase>>,
    ) -> bool {
        let Some(g) = self.guard.filter(|_| !unguarded) else { return false };
        // a small text is re-parsed from the closest recent parse, parsed
        // in the order the candidates are needed (see `Recent`); a large
        // one from the best's
        let small = text.len() <= SMALL;
        let place = QueuePlace::of(job.index, job.ticket);
        let slot = small.then(|| self.recent.slot(place, &job.cancel));
        let started = Instant::now();
        let from = match small {
            true => self.recent.closest(best, text),
            false => best.base.clone(),
        };
        let (rejected, parse) = g.rejects(from.as_deref(), text);
        let parse = parse.map(Arc::new);
        if let Some(parse) = parse.as_ref().filter(|_| small) {
            self.recent.keep(text, parse.clone());
        }
        drop(slot);
        *base = parse.filter(|_| self.keep_parses);
        add_time(&self.guard_ns, started);
        rejected
    }

    /// Runs the user's test on `job`'s text, in `buffers` (`permit` given
    /// back once it is written), and caches its outcome by the text's hash
    /// `key`, unless it was cancelled; the workers waiting for the same
    /// text learn it through `testing`.
    fn test(
        &self,
        buffers: &mut Buffers,
        key: TextKey,
        job: &Job,
        permit: Option<Permit<'_>>,
        testing: Option<&mut Testing<'_>>,
    ) -> Result<Eval> {
        let started = Instant::now();
        let written = |text: &mut Vec<u8>| {
            Buffers::trim_text(text);
            drop(permit);
        };
        let report = self.runner.run(&mut buffers.text, written, &job.cancel)?;
        let setup = started.elapsed().saturating_sub(report.elapsed);
        self.setup_ns.fetch_add(setup.as_nanos() as u64, Ordering::Relaxed);
        if report.outcome != Outcome::Cancelled {
            let interesting = report.outcome.is_interesting();
            let known = match job.ahead() {
                true => Known::Ahead(interesting, report.elapsed),
                false => Known::Tested(interesting),
            };
            self.cache.lock().expect("cache lock").insert(key, known);
            if let Some(t) = testing {
                t.outcome = Some(interesting);
            }
        }
        Ok(Eval::Tested(report.outcome, report.elapsed))
    }

    /// Runs the test on `text` once more, for the final re-check.
    fn recheck(&self, text: &[u8], permit: Option<Permit<'_>>, cancel: &Cancel) -> Result<Eval> {
        let mut text = text.to_vec();
        let started = Instant::now();
        let report = self.runner.run(&mut text, |_| drop(permit), cancel)?;
        let setup = started.elapsed().saturating_sub(report.elapsed);
        self.setup_ns.fetch_add(setup.as_nanos() as u64, Ordering::Relaxed);
        Ok(Eval::Tested(report.outcome, report.elapsed))
    }

    /// The outcome of another worker's test of the same text (`key`), once
    /// it ends; `Dropped` if `cancel` comes first. `None` when no
    /// other worker tests it (or its test gave no outcome): this worker
    /// tests it, marked in `testing` meanwhile.
    fn same_text_tested<'c>(
        &'c self,
        key: TextKey,
        unguarded: bool,
        cancel: &Cancel,
        testing: &mut Option<Testing<'c>>,
    ) -> Option<Eval> {
        loop {
            let entry = {
                let mut running = self.running.lock().expect("running lock");
                match running.get(&key) {
                    Some(entry) => entry.clone(),
                    // it ended since this worker looked in the cache (a
                    // test's outcome is cached before its mark goes)
                    None if let Some(eval) = self.cached(key, unguarded) => return Some(eval),
                    None => {
                        let entry = Arc::new(Running::default());
                        running.insert(key, entry.clone());
                        let running = &self.running;
                        *testing = Some(Testing { running, key, entry, outcome: None });
                        return None;
                    }
                }
            };
            let mut ended = entry.ended.lock().expect("ended lock");
            loop {
                match *ended {
                    // (a test ahead's outcome is this candidate's)
                    Some(Some(interesting)) => {
                        let eval = self.cached(key, unguarded);
                        return Some(eval.unwrap_or(Eval::Cached(interesting)));
                    }
                    // it gave no outcome: test it here (or wait for
                    // whoever took it up first)
                    Some(None) => break,
                    None if cancel.is_set() => return Some(Eval::Dropped),
                    None => {
                        ended = entry.wake.wait_timeout(ended, WAIT_POLL).expect("ended lock").0;
                    }
                }
            }
        }
    }

    /// A worker: checks the jobs it receives (against the best as it is
    /// when each job starts) until the queue closes.
    pub(super) fn work(&self, jobs: &Mutex<mpsc::Receiver<Job>>, done: mpsc::Sender<Done>) {
        let mut buffers = Buffers::default();
        loop {
            let job = match jobs.lock().expect("job queue").recv() {
                Ok(job) => job,
                Err(_) => return,
            };
            let (eval, found) = if job.cancel.is_set() {
                (Ok(Eval::Dropped), None)
            } else {
                // a large candidate is made, checked and written under a
                // share of the budget, given back once the test has its
                // copy of the text; taken before the best is picked up, so
                // that a worker waiting for it keeps no old best alive
                let len = self.best.lock().expect("best lock").text.len();
                let place = QueuePlace::of(job.index, job.ticket);
                let permit = self.budget.take(len, place, Some(&job.cancel));
                if job.cancel.is_set() {
                    (Ok(Eval::Dropped), None)
                } else {
                    let best = self.best.lock().expect("best lock").clone();
                    let checked = self.check(&mut buffers, best, permit, &job);
                    buffers.trim();
                    checked
                }
            };
            let (ahead, recheck) = (job.ahead(), job.recheck());
            let (ticket, index, level) = (job.ticket, job.index, job.level);
            let answer = Done { ticket, index, level, eval, found, ahead, recheck };
            if done.send(answer).is_err() {
                return;
            }
        }
    }
}

fn add_time(counter: &AtomicU64, since: Instant) {
    counter.fetch_add(since.elapsed().as_nanos() as u64, Ordering::Relaxed);
}
