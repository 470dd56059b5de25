//! How much candidate text the workers hold at once, so that peak memory
//! does not grow with `-j`.
//!
//! A candidate costs memory in proportion to its text: the text itself,
//! and the guard's parse of it (a tree-sitter tree is many times its
//! text; editing one to re-parse from it copies every node inside the
//! edit). With `-j 8`, eight workers at once on large candidates would
//! need eight times what one needs. The [`Budget`] is the input's length,
//! and a worker takes the best's length (about the most a candidate can
//! be: only the layout pass may add indentation) before it makes a
//! candidate's text, and gives it back once the test has its copy of the
//! text: checks of small candidates run side by side, those of large ones
//! one after the other, and the tests run side by side holding no text,
//! so the peak is the same for every `-j`.
//!
//! Invariant: shares go out in the order the candidates are needed (an
//! [`AllowanceQueue`]), the new best first; waiting changes when an answer
//! comes, never what it is.

use super::queue::{AllowanceQueue, QueuePlace};
use super::tuning::{MIN_BUDGET, SMALL};
use crate::os::stop::Cancel;

/// The allowance of candidate text, in bytes (see the module's
/// documentation).
#[derive(Debug)]
pub(super) struct Budget {
    queue: AllowanceQueue,
}

/// A share of the [`Budget`], given back when dropped.
pub(super) struct Permit<'b> {
    budget: &'b Budget,
    cost: usize,
}

impl Budget {
    /// A budget for the candidates of an input of `input` bytes.
    pub(super) fn new(input: usize) -> Budget {
        Budget { queue: AllowanceQueue::new(input.max(MIN_BUDGET)) }
    }

    /// Waits until a candidate of at most `len` bytes may be made (at once
    /// when no other holds a share, or when it is small), its `place`
    /// first of those waiting, and takes its share. `None` when it is
    /// small, or when `cancel` was set while it waited.
    pub(super) fn take(
        &self,
        len: usize,
        place: QueuePlace,
        cancel: Option<&Cancel>,
    ) -> Option<Permit<'_>> {
        if len <= SMALL {
            return None;
        }
        self.queue.take(len, place, cancel).then(|| Permit { budget: self, cost: len })
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        self.budget.queue.give_back(self.cost);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    use super::*;
    use crate::oracle::queue::QueueState;

    /// Waits until `n` candidates wait in `budget`'s queue.
    fn until_waiting(budget: &Budget, n: usize) {
        while budget.queue.waiting() < n {
            thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn the_budget_goes_to_the_candidate_needed_soonest_not_the_first_to_wake() {
        let budget = Budget::new(MIN_BUDGET);
        let held = budget.take(MIN_BUDGET, QueuePlace::BEST, None).expect("a large share");
        let (order_tx, order_rx) = mpsc::channel();
        thread::scope(|scope| {
            // candidates 9, 7, 5, 3 and 1 queue in that order, each for the
            // whole budget
            for (n, index) in [9, 7, 5, 3, 1].into_iter().enumerate() {
                let (budget, order_tx) = (&budget, order_tx.clone());
                scope.spawn(move || {
                    let permit =
                        budget.take(MIN_BUDGET, QueuePlace::of(index, 1), Some(&Cancel::default()));
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
        let held = budget.take(MIN_BUDGET, QueuePlace::BEST, None).expect("a large share");
        let cancel = Cancel::default();
        thread::scope(|scope| {
            let first = scope
                .spawn(|| budget.take(MIN_BUDGET, QueuePlace::of(1, 1), Some(&cancel)).is_some());
            until_waiting(&budget, 1);
            let second =
                scope.spawn(|| budget.take(MIN_BUDGET, QueuePlace::of(2, 2), None).is_some());
            until_waiting(&budget, 2);
            cancel.set();
            assert!(!first.join().expect("first"), "a cancelled candidate got a share");
            // the one behind it is first now, but the budget is still held
            until_waiting(&budget, 1);
            drop(held);
            assert!(second.join().expect("second"), "the next in line got no share");
        });
        assert_eq!(*budget.queue.state(), QueueState::default());
    }

    #[test]
    fn small_candidates_never_wait() {
        let budget = Budget::new(MIN_BUDGET);
        let _held = budget.take(MIN_BUDGET, QueuePlace::BEST, None).expect("a large share");
        assert!(budget.take(SMALL, QueuePlace::of(1, 1), None).is_none());
    }
}
