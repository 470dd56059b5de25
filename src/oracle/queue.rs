//! A shared allowance handed out in the order candidates are needed: the
//! bytes of candidate text of the [`Budget`](super::budget::Budget), and
//! the syntax guard's parse slots ([`Recent`](super::guard::Recent)).
//!
//! Workers wake in any order; without a queue, the one that woke first
//! would take what frees up, and the candidate every later answer waits
//! for could wait behind speculation for as long as speculation goes on.
//! Invariants: the first in [`QueuePlace`] order takes what it asks once
//! that fits beside what is taken, or once nothing is; a worker whose
//! candidate is cancelled while it waits leaves the queue, and the one
//! behind it may go first. Waiting changes when an answer comes, never
//! what it is.

use std::collections::BTreeSet;
use std::sync::{Condvar, Mutex};

use super::tuning::CANCEL_POLL;
use crate::os::stop::Cancel;

/// Workers in [`QueuePlace`] order for a shared allowance of `limit`
/// units (see the module's documentation).
#[derive(Debug)]
pub(super) struct AllowanceQueue {
    limit: usize,
    state: Mutex<QueueState>,
    freed: Condvar,
}

/// What an [`AllowanceQueue`] has handed out, and who waits in which
/// order.
#[derive(Debug, Default, PartialEq)]
pub(super) struct QueueState {
    used: usize,
    waiting: BTreeSet<QueuePlace>,
}

/// A place in an [`AllowanceQueue`]: the earlier a candidate is in the
/// order its outcomes are settled in, the sooner it is needed; the best's
/// own text comes before all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct QueuePlace {
    index: usize,
    ticket: u64,
}

impl QueuePlace {
    /// The new best's text and parse, made while settling: every answer
    /// after it waits for it.
    pub(super) const BEST: QueuePlace = QueuePlace { index: 0, ticket: 0 };

    /// Candidate `index`, sent as `ticket` (tickets start at 1).
    pub(super) fn of(index: usize, ticket: u64) -> QueuePlace {
        QueuePlace { index, ticket }
    }
}

impl AllowanceQueue {
    pub(super) fn new(limit: usize) -> AllowanceQueue {
        AllowanceQueue { limit, state: Mutex::default(), freed: Condvar::new() }
    }

    /// Waits until `place` is the first of those waiting and `cost` fits,
    /// then takes it; false when `cancel` was set while it waited.
    pub(super) fn take(&self, cost: usize, place: QueuePlace, cancel: Option<&Cancel>) -> bool {
        let mut state = self.state.lock().expect("queue lock");
        state.waiting.insert(place);
        loop {
            let first = state.waiting.first() == Some(&place);
            if first && (state.used == 0 || state.used + cost <= self.limit) {
                break;
            }
            if cancel.is_some_and(Cancel::is_set) {
                state.waiting.remove(&place);
                // the one behind it may be first now
                self.freed.notify_all();
                return false;
            }
            state = match cancel {
                Some(_) => self.freed.wait_timeout(state, CANCEL_POLL).expect("queue lock").0,
                None => self.freed.wait(state).expect("queue lock"),
            };
        }
        state.waiting.remove(&place);
        state.used += cost;
        // the next in line may fit beside it
        self.freed.notify_all();
        true
    }

    /// Gives back what [`AllowanceQueue::take`] took.
    pub(super) fn give_back(&self, cost: usize) {
        self.state.lock().expect("queue lock").used -= cost;
        self.freed.notify_all();
    }

    /// What it has handed out, and who waits (for tests).
    #[cfg(test)]
    pub(super) fn state(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().expect("queue lock")
    }

    /// How many wait (for tests).
    #[cfg(test)]
    pub(super) fn waiting(&self) -> usize {
        self.state().waiting.len()
    }
}
