//! Tests a change of assumption left behind, kept for reuse.
//!
//! When an answer comes back other than assumed, the candidates handed out
//! after it assumed the wrong outcome, and the stream goes on from there.
//! Many of the candidates it hands out again are the same (the probes of a
//! batch do not depend on each other's outcomes), so their tests are not
//! cancelled at once: they are kept by their candidate's mask until the
//! next candidates are handed out, matched by mask, and only the ones left
//! unmatched then are cancelled (or, answered, counted as waste).
//! Invariant: a kept test has no index; whoever takes it gives it one.

use super::{Dispatch, Flight};
use crate::oracle::check::Done;
use crate::oracle::dispatch::DispatchHost;
use crate::syntax::Mask;

/// Where a started test is: running, or answered.
pub(super) enum TestState {
    Running(Flight),
    Answered(Done),
}

/// A [`TestState`] with its candidate's mask, by which the stream's
/// next candidates are matched.
pub(super) struct MaskedTest {
    pub mask: Mask,
    pub state: TestState,
    /// A test of the other branch of a guess (see [`super::branch`]).
    pub other: bool,
}

impl Dispatch {
    /// The test left behind for candidate `mask`, if one is kept.
    pub(super) fn take_left_behind(&mut self, mask: &Mask) -> Option<MaskedTest> {
        let k = self.left_behind.iter().position(|k| k.mask == *mask)?;
        let kept = self.left_behind.swap_remove(k);
        // a test left behind by the chain still has its ticket at its old
        // index: whoever takes it maps it again (the chain) or not at all
        // (another branch, whose answers are found by ticket), never
        // leaving an answer to reach another candidate at that index
        if let TestState::Running(flight) = &kept.state {
            self.chain.tickets_at.remove(&flight.ticket);
        }
        Some(kept)
    }

    /// Cancels the tests left behind still running and accounts for the
    /// answered ones as waste.
    pub(super) fn drop_left_behind(&mut self, host: &mut dyn DispatchHost) {
        let left = std::mem::take(&mut self.left_behind);
        self.drop_tests(host, left);
    }

    /// Cancels `tests` still running and accounts for answered ones as
    /// waste.
    pub(super) fn drop_tests(&mut self, host: &mut dyn DispatchHost, tests: Vec<MaskedTest>) {
        for k in tests {
            match k.state {
                TestState::Running(flight) => {
                    self.chain.tickets_at.remove(&flight.ticket);
                    flight.cancel.set();
                }
                TestState::Answered(done) => host.waste(&done),
            }
        }
    }
}
