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

/// Texts up to this long are checked by the guard without asking the
/// [`Budget`]: what their parses cost is small whatever `-j` is.
const SMALL: usize = 64 << 10;

/// The least a [`Budget`] allows, so that inputs of a few hundred
/// kilobytes never wait.
const MIN_BUDGET: usize = 1 << 20;

/// How much text the syntax guard re-parses at once, over all workers.
///
/// A parse costs memory in proportion to the text it reads (a tree-sitter
/// tree is about 20 times a JSON text; editing one to re-parse from it
/// copies every node inside the edit), so with `-j 8` eight checks of
/// large candidates at once would need eight times what one needs. The
/// budget is the input's length: checks of small candidates run side by
/// side, those of large ones one after the other, and the peak is the
/// same for every `-j`. Waiting changes when an answer comes, never what
/// it is.
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
    /// A budget for re-parsing texts of an input of `input` bytes.
    pub(super) fn new(input: usize) -> Budget {
        Budget { limit: input.max(MIN_BUDGET), used: Mutex::new(0), freed: Condvar::new() }
    }

    /// Waits until the guard may check `text` against `best` (at once when
    /// nothing else is being checked), and takes its share.
    pub(super) fn take(&self, best: &Best, text: &[u8]) -> Option<Permit<'_>> {
        if text.len() <= SMALL {
            return None;
        }
        let cost = cost(best, text);
        let mut used = self.used.lock().expect("budget lock");
        while *used > 0 && *used + cost > self.limit {
            used = self.freed.wait(used).expect("budget lock");
        }
        *used += cost;
        Some(Permit { budget: self, cost })
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        *self.budget.used.lock().expect("budget lock") -= self.cost;
        self.budget.freed.notify_all();
    }
}

/// About how many bytes of text the guard reads to check `text`: all of
/// it without a base; from a base, the part that differs from the best
/// (the front-end parses from scratch when that is the cheaper).
fn cost(best: &Best, text: &[u8]) -> usize {
    if best.base.is_none() {
        return text.len();
    }
    let old = &best.text[..];
    let (prefix, suffix) = crate::syntax::common_ends(old, text);
    let changed = (old.len() - prefix - suffix).max(text.len() - prefix - suffix);
    changed.min(text.len()).max(1)
}
