//! The syntax guard: a candidate with more syntax errors than the input had
//! is not interesting, and is answered without running the test.
//!
//! Candidates are re-parsed from the parse of the current best where the
//! front-end can (tree-sitter re-reads only what changed, a set of files
//! only the files that changed); that parse of a candidate becomes the base
//! for later ones when the candidate becomes the best.

use std::sync::{Arc, Condvar, Mutex};

use crate::language::{Frontend, GuardBase};

/// The syntax guard: re-parse, and reject candidates with more errors than allowed.
#[derive(Clone, Copy)]
pub struct Guard<'f> {
    pub frontend: &'f dyn Frontend,
    /// The syntax errors the input had.
    pub allowed: usize,
}

impl std::fmt::Debug for Guard<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guard").field("allowed", &self.allowed).finish()
    }
}

/// The current best text and the syntax guard's parse of it (to re-parse
/// candidates incrementally).
#[derive(Clone)]
pub(super) struct Best {
    pub text: Arc<[u8]>,
    pub base: Option<Arc<GuardBase>>,
}

impl Guard<'_> {
    /// The best text `text`, with the guard's parse of it.
    pub(super) fn best(guard: Option<Guard<'_>>, text: Arc<[u8]>) -> Best {
        let base = guard.and_then(|g| g.frontend.guard_base(&text)).map(Arc::new);
        Best { text, base }
    }

    /// Whether `text` has more syntax errors than allowed; also its parse,
    /// when it was re-parsed from the best's (the base if it becomes the best).
    pub(super) fn rejects(&self, best: &Best, text: &[u8]) -> (bool, Option<GuardBase>) {
        let (errors, parse) = match best.base.as_deref() {
            Some(base) => self.frontend.syntax_errors_from(base, text),
            None => (self.frontend.syntax_errors(text), None),
        };
        (errors > self.allowed, parse)
    }

    /// The guard's parse of a new best `text`: the one the check made, else
    /// one re-parsed from the old best's.
    pub(super) fn next_base(
        guard: Option<Guard<'_>>,
        old: &Best,
        parsed: Option<GuardBase>,
        text: &[u8],
    ) -> Option<Arc<GuardBase>> {
        match (parsed, &old.base, guard) {
            (Some(base), _, _) => Some(Arc::new(base)),
            (None, Some(old), Some(g)) => g.frontend.syntax_errors_from(old, text).1.map(Arc::new),
            (None, _, _) => None,
        }
    }
}

/// Candidates up to this long are made and checked without asking the
/// [`Budget`]: what they cost is small whatever `-j` is.
const SMALL: usize = 64 << 10;

/// The least a [`Budget`] allows, so that inputs of a few hundred
/// kilobytes never wait.
const MIN_BUDGET: usize = 1 << 20;

/// How much candidate text the workers hold at once: unparsed, re-parsed by
/// the syntax guard, and written for the test.
///
/// A candidate costs memory in proportion to its text: the text itself,
/// and the guard's parse of it (a tree-sitter tree is about 20 times a JSON
/// text; editing one to re-parse from it copies every node inside the
/// edit). With `-j 8`, eight workers at once on large candidates would
/// need eight times what one needs. The budget is the input's length, and
/// a worker takes the best's length (about the most a candidate can be:
/// only the layout pass may add indentation) before it
/// makes a candidate's text, and gives it back once the test has its copy
/// of the text: checks of small candidates run side by side, those of
/// large ones one after the other, and the tests run side by side holding
/// no text, so the peak is the same for every `-j`. Waiting changes when
/// an answer comes, never what it is.
#[derive(Debug)]
pub(super) struct Budget {
    limit: usize,
    used: Mutex<usize>,
    freed: Condvar,
}

/// A share of the [`Budget`], given back when dropped.
pub(super) struct Permit<'b> {
    budget: &'b Budget,
    cost: usize,
}

impl Budget {
    /// A budget for the candidates of an input of `input` bytes.
    pub(super) fn new(input: usize) -> Budget {
        Budget { limit: input.max(MIN_BUDGET), used: Mutex::new(0), freed: Condvar::new() }
    }

    /// Waits until a worker may make a candidate of at most `len` bytes
    /// (at once when no other worker holds one), and takes its share.
    pub(super) fn take(&self, len: usize) -> Option<Permit<'_>> {
        if len <= SMALL {
            return None;
        }
        let mut used = self.used.lock().expect("budget lock");
        while *used > 0 && *used + len > self.limit {
            used = self.freed.wait(used).expect("budget lock");
        }
        *used += len;
        Some(Permit { budget: self, cost: len })
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        *self.budget.used.lock().expect("budget lock") -= self.cost;
        self.budget.freed.notify_all();
    }
}
