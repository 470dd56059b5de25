//! The syntax guard: a candidate with more syntax errors than the input had
//! is not interesting, and is answered without running the test.
//!
//! Candidates are re-parsed from the parse of the current best where the
//! front-end can (tree-sitter re-reads only what changed, a set of files
//! only the files that changed); that parse of a candidate becomes the base
//! for later ones when the candidate becomes the best. Small candidates
//! are re-parsed from the closest of the last few ([`Recent`]).
//!
//! Invariant: the guard's count is the one a parse from scratch gives
//! (`language` checks which re-parses it may trust), so the base a
//! candidate is re-parsed from changes how long the guard takes, never
//! what it answers.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use super::queue::{AllowanceQueue, QueuePlace};
use super::tuning::RECENT;
use crate::language::{Frontend, GuardBase};
use crate::os::stop::Cancel;

/// The syntax guard: re-parse, and reject candidates with more errors than allowed.
#[derive(Clone, Copy)]
pub(crate) struct Guard<'f> {
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

/// The syntax guard's parses of the last candidates up to
/// [`SMALL`](super::tuning::SMALL) bytes, each with its text: a candidate
/// is re-parsed from the closest of them or the best's, the one whose text
/// differs from its own over the fewest bytes.
///
/// tree-sitter re-reads what one edit covers, from the first byte that
/// differs to the last. With `-j`, a candidate assumes what the pending
/// ones before it turn out: a probe of an HDD level assumes the level
/// before it merged, dozens of cuts all over the best, so re-parsed from
/// the best it is read whole, and with many workers the guard takes much
/// of hdd's processor time (BENCHMARKS.md, "The check of the original and
/// the final re-check, beside the plan"). Re-parsed from the probe before
/// it, it differs by two cuts side by side. So that the one before it is
/// parsed first, at most as many parses run at once as there are cores,
/// in the order the candidates are needed ([`QueuePlace`]); more at once
/// would only share the cores.
#[derive(Debug)]
pub(super) struct Recent {
    parses: Mutex<VecDeque<Parsed>>,
    /// The parse slots, one per core.
    slots: AllowanceQueue,
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
        Recent { parses: Mutex::default(), slots: AllowanceQueue::new(cores) }
    }

    /// Waits until fewer parses run than there are cores and `place` is
    /// the first in line; `None` if `cancel` comes first.
    pub(super) fn slot(&self, place: QueuePlace, cancel: &Cancel) -> Option<Slot<'_>> {
        self.slots.take(1, place, Some(cancel)).then(|| Slot { recent: self })
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
        self.recent.slots.give_back(1);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    use super::*;

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
        let recent = Recent { slots: AllowanceQueue::new(1), ..Recent::new() };
        let held = recent.slot(QueuePlace::BEST, &Cancel::default()).expect("a slot");
        let (order_tx, order_rx) = mpsc::channel();
        thread::scope(|scope| {
            for (n, index) in [5, 3, 1].into_iter().enumerate() {
                let (recent, order_tx) = (&recent, order_tx.clone());
                scope.spawn(move || {
                    let slot = recent.slot(QueuePlace::of(index, 1), &Cancel::default());
                    order_tx.send(index).expect("order");
                    drop(slot);
                });
                while recent.slots.waiting() < n + 1 {
                    thread::sleep(Duration::from_millis(1));
                }
            }
            drop(held);
        });
        drop(order_tx);
        assert_eq!(order_rx.iter().collect::<Vec<_>>(), [1, 3, 5]);
    }
}
