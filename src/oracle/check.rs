//! Deciding one candidate, cheapest way first (on a worker thread):
//!
//! 1. unparse it (see [`crate::syntax::unparse`]);
//! 2. if its text is the current best's, it is interesting: no test;
//! 3. if its text was seen before, the cached outcome: no test;
//! 4. if the syntax guard is on and it has more syntax errors than the input
//!    had, it is not interesting: no test;
//! 5. otherwise the user's test decides ([`Runner`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Result;

use super::guard::{Best, Budget, Guard, Permit};
use super::runner::{Outcome, Runner};
use super::stop::Cancel;
use crate::language::GuardBase;
use crate::syntax::{Mask, Tree, Unparser};

/// What is known about one candidate.
#[derive(Debug)]
pub(super) enum Eval {
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
    pub(super) fn interesting(&self) -> bool {
        match self {
            Eval::Same => true,
            Eval::Cached(b) => *b,
            Eval::Guarded => false,
            Eval::Tested(o, _) => o.is_interesting(),
        }
    }

    /// Whether the test ran and was cut short (the answer is not known).
    pub(super) fn cancelled(&self) -> bool {
        matches!(self, Eval::Tested(Outcome::Cancelled, _))
    }
}

/// A candidate sent to a worker.
pub(super) struct Job {
    /// Tells this sending of candidate `index` from earlier ones that were
    /// cancelled.
    pub ticket: u64,
    pub index: usize,
    pub level: Option<usize>,
    pub mask: Mask,
    pub cancel: Arc<Cancel>,
}

/// An interesting candidate: the syntax guard's parse of it, with `-j 1`.
/// Not its text: the answers waiting to be settled in order would hold up
/// to one copy of the text per worker; the one that becomes the best is
/// unparsed again from its mask. With more workers, not the parse either
/// (one parsed from scratch is as large as the tree-sitter tree of the
/// text): the new best's is made again from the old best's.
pub(super) struct Found {
    pub base: Option<GuardBase>,
}

/// A worker's answer.
pub(super) struct Done {
    pub ticket: u64,
    pub index: usize,
    pub level: Option<usize>,
    pub eval: Result<Eval>,
    /// The candidate, when it is interesting.
    pub found: Option<Found>,
}

/// A worker's reusable buffers: one text, whatever the size of the
/// candidates it checks.
#[derive(Default)]
pub(super) struct Scratch {
    unparser: Unparser,
    text: Vec<u8>,
}

impl Scratch {
    /// A text buffer larger than this is given back after each candidate:
    /// workers waiting for work then hold nothing, whatever `-j` is.
    const KEEP: usize = 1 << 20;

    /// Gives back a large text buffer.
    pub(super) fn trim(&mut self) {
        Scratch::trim_text(&mut self.text);
    }

    /// Gives back `text`'s buffer if it is large.
    fn trim_text(text: &mut Vec<u8>) {
        if text.capacity() > Self::KEEP {
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
    /// The syntax guard rejected it (the test did not run).
    Guarded,
}

/// Everything the workers share.
pub(super) struct Checker<'a> {
    pub runner: &'a Runner,
    pub guard: Option<Guard<'a>>,
    /// How much text the guard re-parses at once.
    pub(super) budget: Budget,
    /// Whether an interesting candidate's answer keeps its parse (see
    /// [`Found`]).
    keep_parses: bool,
    /// Whether the guard is off for the current pass (see
    /// [`Checker::set_guarded`]).
    unguarded: AtomicBool,
    cache: Mutex<HashMap<u128, Known>>,
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
            keep_parses: jobs == 1,
            unguarded: AtomicBool::new(false),
            cache: Mutex::new(HashMap::new()),
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

    /// Decides one candidate.
    pub(super) fn check(
        &self,
        scratch: &mut Scratch,
        tree: &Tree,
        best: Best,
        permit: Option<Permit<'_>>,
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
        let unguarded = self.unguarded.load(Ordering::Relaxed);
        let cached = match self.cache.lock().expect("cache lock").get(&key) {
            Some(Known::Tested(b)) => Some(*b),
            Some(Known::Guarded) if !unguarded => Some(false),
            _ => None,
        };
        // the guard's parse of the candidate becomes the base if the
        // candidate becomes the best
        let mut base = None;
        let mut guarded = || {
            let Some(g) = self.guard.filter(|_| !unguarded) else { return false };
            let started = Instant::now();
            let (rejected, parse) = g.rejects(&best, text);
            base = parse.filter(|_| self.keep_parses);
            add_time(&self.guard_ns, started);
            rejected
        };
        let eval = if let Some(b) = cached {
            Eval::Cached(b)
        } else if guarded() {
            self.cache.lock().expect("cache lock").insert(key, Known::Guarded);
            Eval::Guarded
        } else {
            // the test does not need the best: an older one is not kept
            // alive (text and parse) while it runs
            drop(best);
            let started = Instant::now();
            let written = |text: &mut Vec<u8>| {
                Scratch::trim_text(text);
                drop(permit);
            };
            let run = self.runner.run(&mut scratch.text, written, &job.cancel);
            let total = started.elapsed();
            match run {
                Ok(report) => {
                    let setup = total.saturating_sub(report.elapsed);
                    self.setup_ns.fetch_add(setup.as_nanos() as u64, Ordering::Relaxed);
                    if report.outcome != Outcome::Cancelled {
                        let known = Known::Tested(report.outcome.is_interesting());
                        self.cache.lock().expect("cache lock").insert(key, known);
                    }
                    Eval::Tested(report.outcome, report.elapsed)
                }
                Err(e) => return (Err(e), None),
            }
        };
        let found = eval.interesting().then_some(Found { base });
        (Ok(eval), found)
    }

    /// A worker: checks the jobs it receives (against the best as it is
    /// when each job starts) until the queue closes.
    pub(super) fn work(
        &self,
        tree: &Tree,
        jobs: &Mutex<mpsc::Receiver<Job>>,
        done: mpsc::Sender<Done>,
    ) {
        let mut scratch = Scratch::default();
        loop {
            let job = match jobs.lock().expect("job queue").recv() {
                Ok(job) => job,
                Err(_) => return,
            };
            let (eval, found) = if job.cancel.is_set() {
                (Ok(Eval::Tested(Outcome::Cancelled, Duration::ZERO)), None)
            } else {
                // a large candidate is made, checked and written under a
                // share of the budget, given back once the test has its
                // copy of the text; taken before the best is picked up, so
                // that a worker waiting for it keeps no old best alive
                let len = self.best.lock().expect("best lock").text.len();
                let permit = self.budget.take(len);
                let best = self.best.lock().expect("best lock").clone();
                let checked = self.check(&mut scratch, tree, best, permit, &job);
                scratch.trim();
                checked
            };
            let answer =
                Done { ticket: job.ticket, index: job.index, level: job.level, eval, found };
            if done.send(answer).is_err() {
                return;
            }
        }
    }
}

fn add_time(counter: &AtomicU64, since: Instant) {
    counter.fetch_add(since.elapsed().as_nanos() as u64, Ordering::Relaxed);
}
