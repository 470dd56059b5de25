//! The syntax guard: a candidate with more syntax errors than the input had
//! is not interesting, and is answered without running the test.
//!
//! Candidates are re-parsed from the parse of the current best where the
//! front-end can (tree-sitter re-reads only what changed, a set of files
//! only the files that changed); that parse of a candidate becomes the base
//! for later ones when the candidate becomes the best.

use std::collections::BTreeSet;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use super::stop::Cancel;

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

/// How often a worker waiting for the [`Budget`] looks whether its
/// candidate was cancelled meanwhile.
const CANCEL_POLL: Duration = Duration::from_millis(10);

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
///
/// Shares go out in [`Turn`] order, the candidate needed soonest first:
/// a worker that merely woke first would otherwise take it, and the
/// candidate every answer after it waits for could wait behind speculation
/// for as long as speculation goes on (seen: 50 s for one `grep` of a
/// 4 MB XML at `-j 8`, with 900 tests started meanwhile). A candidate
/// cancelled while it waits leaves the line.
#[derive(Debug)]
pub(super) struct Budget {
    limit: usize,
    shares: Mutex<Shares>,
    freed: Condvar,
}

/// The budget's book: what is taken, and who waits in which order.
#[derive(Debug, Default, PartialEq)]
struct Shares {
    used: usize,
    waiting: BTreeSet<Turn>,
}

/// A place in the line for the [`Budget`]: the earlier a candidate is in
/// the order its outcomes are settled in, the sooner it is needed; the
/// best's own text comes before all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Turn {
    index: usize,
    ticket: u64,
}

impl Turn {
    /// The new best's text and parse, made while settling: every answer
    /// after it waits for it.
    pub(super) const BEST: Turn = Turn { index: 0, ticket: 0 };

    /// Candidate `index`, sent as `ticket` (tickets start at 1).
    pub(super) fn of(index: usize, ticket: u64) -> Turn {
        Turn { index, ticket }
    }
}

/// A share of the [`Budget`], given back when dropped.
pub(super) struct Permit<'b> {
    budget: &'b Budget,
    cost: usize,
}

impl Budget {
    /// A budget for the candidates of an input of `input` bytes.
    pub(super) fn new(input: usize) -> Budget {
        Budget { limit: input.max(MIN_BUDGET), shares: Mutex::default(), freed: Condvar::new() }
    }

    /// Waits until a candidate of at most `len` bytes may be made (at once
    /// when no other holds a share, or when it is small), its `turn` first
    /// of those waiting, and takes its share. `None` when it is small, or
    /// when `cancel` was set while it waited.
    pub(super) fn take(
        &self,
        len: usize,
        turn: Turn,
        cancel: Option<&Cancel>,
    ) -> Option<Permit<'_>> {
        if len <= SMALL {
            return None;
        }
        let mut shares = self.shares.lock().expect("budget lock");
        shares.waiting.insert(turn);
        loop {
            let first = shares.waiting.first() == Some(&turn);
            if first && (shares.used == 0 || shares.used + len <= self.limit) {
                break;
            }
            if cancel.is_some_and(Cancel::is_set) {
                shares.waiting.remove(&turn);
                // the one behind it may be first now
                self.freed.notify_all();
                return None;
            }
            shares = match cancel {
                Some(_) => self.freed.wait_timeout(shares, CANCEL_POLL).expect("budget lock").0,
                None => self.freed.wait(shares).expect("budget lock"),
            };
        }
        shares.waiting.remove(&turn);
        shares.used += len;
        // the next in line may fit beside it
        self.freed.notify_all();
        Some(Permit { budget: self, cost: len })
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        self.budget.shares.lock().expect("budget lock").used -= self.cost;
        self.budget.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::thread;

    use super::*;

    /// Waits until `n` candidates wait in `budget`'s line.
    fn until_waiting(budget: &Budget, n: usize) {
        while budget.shares.lock().expect("budget lock").waiting.len() < n {
            thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn the_budget_goes_to_the_candidate_needed_soonest_not_the_first_to_wake() {
        let budget = Budget::new(MIN_BUDGET);
        let held = budget.take(MIN_BUDGET, Turn::BEST, None).expect("a large share");
        let (order_tx, order_rx) = mpsc::channel();
        thread::scope(|scope| {
            // candidates 9, 7, 5, 3 and 1 queue in that order, each for the
            // whole budget
            for (n, index) in [9, 7, 5, 3, 1].into_iter().enumerate() {
                let (budget, order_tx) = (&budget, order_tx.clone());
                scope.spawn(move || {
                    let permit =
                        budget.take(MIN_BUDGET, Turn::of(index, 1), Some(&Cancel::default()));
                    order_tx.send(index).expect("order");
                    drop(permit);
                });
                until_waiting(budget, n + 1);
            }
            drop(held);
        });
        drop(order_tx);
        assert_eq!(order_rx.iter().collect::<Vec<_>>(), [1, 3, 5, 7, 9]);
    }

    #[test]
    fn a_candidate_cancelled_while_it_waits_leaves_the_line() {
        let budget = Budget::new(MIN_BUDGET);
        let held = budget.take(MIN_BUDGET, Turn::BEST, None).expect("a large share");
        let cancel = Cancel::default();
        thread::scope(|scope| {
            let first =
                scope.spawn(|| budget.take(MIN_BUDGET, Turn::of(1, 1), Some(&cancel)).is_some());
            until_waiting(&budget, 1);
            let second = scope.spawn(|| budget.take(MIN_BUDGET, Turn::of(2, 2), None).is_some());
            until_waiting(&budget, 2);
            cancel.set();
            assert!(!first.join().expect("first"), "a cancelled candidate got a share");
            // the one behind it is first now, but the budget is still held
            until_waiting(&budget, 1);
            drop(held);
            assert!(second.join().expect("second"), "the next in line got no share");
        });
        assert_eq!(*budget.shares.lock().expect("budget lock"), Shares::default());
    }

    #[test]
    fn small_candidates_never_wait() {
        let budget = Budget::new(MIN_BUDGET);
        let _held = budget.take(MIN_BUDGET, Turn::BEST, None).expect("a large share");
        assert!(budget.take(SMALL, Turn::of(1, 1), None).is_none());
    }
}
