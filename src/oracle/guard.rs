//! The syntax guard: a candidate with more syntax errors than the input had
//! is not interesting, and is answered without running the test.
//!
//! Candidates are re-parsed from the parse of the current best where the
//! front-end can (tree-sitter re-reads only what changed, a set of files
//! only the files that changed); that parse of a candidate becomes the base
//! for later ones when the candidate becomes the best.

use std::collections::{BTreeSet, VecDeque};
use std::sync::{Arc, Condvar, Mutex};

use super::stop::Cancel;
use super::tuning::{CANCEL_POLL, MIN_BUDGET, RECENT, SMALL};
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
    /// when it was re-parsed from `base` (the best's, or a recent
    /// candidate's: see [`Recent`]), to be the base of later ones.
    pub(super) fn rejects(
        &self,
        base: Option<&GuardBase>,
        text: &[u8],
    ) -> (bool, Option<GuardBase>) {
        let (errors, parse) = match base {
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
        parsed: Option<Arc<GuardBase>>,
        text: &[u8],
    ) -> Option<Arc<GuardBase>> {
        match (parsed, &old.base, guard) {
            (Some(base), _, _) => Some(base),
            (None, Some(old), Some(g)) => g.frontend.syntax_errors_from(old, text).1.map(Arc::new),
            (None, _, _) => None,
        }
    }
}

/// The syntax guard's parses of the last candidates up to [`SMALL`] bytes,
/// each with its text: a candidate is re-parsed from the closest of them
/// or the best's, the one whose text differs from its own over the
/// fewest bytes.
///
/// tree-sitter re-reads what one edit covers, from the first byte that
/// differs to the last. With `-j`, a candidate assumes what the pending
/// ones before it turn out: a probe of an HDD level assumes the level
/// before it merged, dozens of cuts all over the best, so re-parsed from
/// the best it is read whole (c-names at `-j 64`: the guard was a third of
/// hdd's processor time, and a round of 64 probes took 0.1 to 0.15 s
/// to start on two cores). Re-parsed from the probe before it, it differs
/// by two cuts side by side. So that the one before it is parsed first,
/// at most as many parses run at once as there are cores, in the order the
/// candidates are needed ([`Turn`]); more at once would only share the
/// cores.
#[derive(Debug)]
pub(super) struct Recent {
    parses: Mutex<VecDeque<Parsed>>,
    /// The parse slots, one per core.
    line: Line,
}

/// A text and the guard's parse of it.
#[derive(Debug)]
struct Parsed {
    text: Arc<[u8]>,
    base: Arc<GuardBase>,
}

/// A parse slot of [`Recent`], given back when dropped.
pub(super) struct Slot<'r> {
    recent: &'r Recent,
}

impl Recent {
    pub(super) fn new() -> Recent {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Recent { parses: Mutex::default(), line: Line::new(cores) }
    }

    /// Waits until fewer parses run than there are cores and `turn` is the
    /// first in line; `None` if `cancel` comes first.
    pub(super) fn slot(&self, turn: Turn, cancel: &Cancel) -> Option<Slot<'_>> {
        self.line.take(1, turn, Some(cancel)).then(|| Slot { recent: self })
    }

    /// The base to re-parse `text` from: the best's or a recent parse's,
    /// whichever text differs from it over the fewest bytes.
    pub(super) fn closest(&self, best: &Best, text: &[u8]) -> Option<Arc<GuardBase>> {
        let apart = |old: &[u8]| {
            let (prefix, suffix) = crate::syntax::common_ends(old, text);
            old.len() + text.len() - 2 * (prefix + suffix)
        };
        let mut closest = best.base.clone().map(|b| (apart(&best.text), b));
        for parsed in self.parses.lock().expect("recent parses lock").iter() {
            let d = apart(&parsed.text);
            if closest.as_ref().is_none_or(|(c, _)| d < *c) {
                closest = Some((d, parsed.base.clone()));
            }
        }
        closest.map(|(_, base)| base)
    }

    /// Keeps `base`, the parse of `text`, for the next candidates.
    pub(super) fn keep(&self, text: &[u8], base: Arc<GuardBase>) {
        let mut parses = self.parses.lock().expect("recent parses lock");
        if parses.len() == RECENT {
            parses.pop_front();
        }
        parses.push_back(Parsed { text: Arc::from(text), base });
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.recent.line.give_back(1);
    }
}

/// Workers in [`Turn`] order for a shared allowance (bytes of candidate
/// text for the [`Budget`], parse slots for [`Recent`]): the first in line
/// takes what it asks once that fits beside what is taken, or once
/// nothing is; a worker whose candidate is cancelled while it waits leaves
/// the line.
#[derive(Debug)]
struct Line {
    limit: usize,
    book: Mutex<Book>,
    freed: Condvar,
}

/// A line's book: what is taken, and who waits in which order.
#[derive(Debug, Default, PartialEq)]
struct Book {
    used: usize,
    waiting: BTreeSet<Turn>,
}

impl Line {
    fn new(limit: usize) -> Line {
        Line { limit, book: Mutex::default(), freed: Condvar::new() }
    }

    /// Waits until `turn` is the first of those waiting and `cost` fits,
    /// then takes it; false when `cancel` was set while it waited.
    fn take(&self, cost: usize, turn: Turn, cancel: Option<&Cancel>) -> bool {
        let mut book = self.book.lock().expect("line lock");
        book.waiting.insert(turn);
        loop {
            let first = book.waiting.first() == Some(&turn);
            if first && (book.used == 0 || book.used + cost <= self.limit) {
                break;
            }
            if cancel.is_some_and(Cancel::is_set) {
                book.waiting.remove(&turn);
                // the one behind it may be first now
                self.freed.notify_all();
                return false;
            }
            book = match cancel {
                Some(_) => self.freed.wait_timeout(book, CANCEL_POLL).expect("line lock").0,
                None => self.freed.wait(book).expect("line lock"),
            };
        }
        book.waiting.remove(&turn);
        book.used += cost;
        // the next in line may fit beside it
        self.freed.notify_all();
        true
    }

    /// Gives back what [`Line::take`] took.
    fn give_back(&self, cost: usize) {
        self.book.lock().expect("line lock").used -= cost;
        self.freed.notify_all();
    }
}

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
    line: Line,
}

/// A place in a [`Line`] (the [`Budget`]'s, or the parse slots of
/// [`Recent`]): the earlier a candidate is in the order its outcomes are
/// settled in, the sooner it is needed; the best's own text comes before
/// all.
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
        Budget { line: Line::new(input.max(MIN_BUDGET)) }
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
        self.line.take(len, turn, cancel).then(|| Permit { budget: self, cost: len })
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        self.budget.line.give_back(self.cost);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    use super::*;

    /// Waits until `n` candidates wait in `budget`'s line.
    fn until_waiting(budget: &Budget, n: usize) {
        while budget.line.book.lock().expect("line lock").waiting.len() < n {
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
        assert_eq!(*budget.line.book.lock().expect("line lock"), Book::default());
    }

    #[test]
    fn small_candidates_never_wait() {
        let budget = Budget::new(MIN_BUDGET);
        let _held = budget.take(MIN_BUDGET, Turn::BEST, None).expect("a large share");
        assert!(budget.take(SMALL, Turn::of(1, 1), None).is_none());
    }

    #[test]
    fn a_candidate_is_re_parsed_from_the_closest_recent_parse_and_counts_the_same() {
        let lang = crate::language::by_name("c").expect("C");
        let frontend = lang.frontend().expect("a front-end");
        let guard = Guard { frontend: &*frontend, allowed: 0 };
        let decls: Vec<String> = (0..40).map(|i| format!("int v{i} = {i};\n")).collect();
        let text = |skip: &dyn Fn(usize) -> bool| -> Vec<u8> {
            let kept = decls.iter().enumerate().filter(|(i, _)| !skip(*i));
            kept.map(|(_, d)| d.as_str()).collect::<String>().into_bytes()
        };
        let best = Guard::best(Some(guard), Arc::from(text(&|_| false)));
        let recent = Recent::new();
        // what a round of probes of `-j` looks like: every odd declaration
        // assumed gone, and one even one more, in turn
        let assumed = |i: usize| i % 2 == 1;
        for probe in (0..40).step_by(2) {
            let candidate = text(&|i| assumed(i) || i == probe);
            let from = recent.closest(&best, &candidate);
            if probe > 0 {
                // the probe before it is closer than the best
                let before = text(&|i| assumed(i) || i == probe - 2);
                let parses = recent.parses.lock().expect("lock");
                let last = parses.back().expect("a parse");
                assert_eq!(*last.text, before[..]);
                assert!(from.as_ref().is_some_and(|f| Arc::ptr_eq(f, &last.base)));
            }
            let (rejected, parse) = guard.rejects(from.as_deref(), &candidate);
            assert!(!rejected);
            recent.keep(&candidate, Arc::new(parse.expect("a parse")));
        }
        assert_eq!(recent.parses.lock().expect("lock").len(), RECENT);
        // a broken candidate counts its error from any base
        let mut broken = text(&assumed);
        broken.extend_from_slice(b"int = ;\n");
        let from = recent.closest(&best, &broken);
        assert_eq!(guard.rejects(from.as_deref(), &broken).0, frontend.syntax_errors(&broken) > 0);
        assert!(guard.rejects(from.as_deref(), &broken).0);
    }

    #[test]
    fn parse_slots_go_in_turn_and_no_more_than_there_are_cores() {
        let recent = Recent { line: Line::new(1), ..Recent::new() };
        let held = recent.slot(Turn::BEST, &Cancel::default()).expect("a slot");
        let (order_tx, order_rx) = mpsc::channel();
        thread::scope(|scope| {
            for (n, index) in [5, 3, 1].into_iter().enumerate() {
                let (recent, order_tx) = (&recent, order_tx.clone());
                scope.spawn(move || {
                    let slot = recent.slot(Turn::of(index, 1), &Cancel::default());
                    order_tx.send(index).expect("order");
                    drop(slot);
                });
                while recent.line.book.lock().expect("lock").waiting.len() < n + 1 {
                    thread::sleep(Duration::from_millis(1));
                }
            }
            drop(held);
        });
        drop(order_tx);
        assert_eq!(order_rx.iter().collect::<Vec<_>>(), [1, 3, 5]);
    }
}
