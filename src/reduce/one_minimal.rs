//! HDD+'s second phase, the 1-tree-minimality phase.
//!
//! [`OneMinimal`] tries switching off single units in BFS order, continuing
//! after a success rather than restarting; a plan repeats it (on a fresh
//! parse) while a pass removed anything. Its result is then
//! 1-tree-minimal: no single present unit can be switched off.

use super::{Order, Proposal, Search, Step, Units};
use crate::syntax::{Mask, NodeId};

/// The 1-tree-minimality phase: one pass of single units in BFS order,
/// continuing after each success. The session repeats it (on a fresh parse)
/// until a pass removes nothing; the result is then 1-tree-minimal.
#[derive(Clone, Debug, Default)]
pub(crate) struct OneMinimal {
    order: Order,
    items: Option<Vec<NodeId>>,
    i: usize,
    /// Whether the last proposal was interesting: successes come in runs
    /// (the units of something that became unused), so it predicts the next.
    last: bool,
}

impl OneMinimal {
    pub(crate) fn new(order: Order) -> OneMinimal {
        OneMinimal { order, ..OneMinimal::default() }
    }
}

impl Search for OneMinimal {
    fn propose(&mut self, units: &Units, mask: &Mask) -> Option<Proposal> {
        let order = self.order;
        let items = self.items.get_or_insert_with(|| {
            (0..units.depth()).flat_map(|l| units.ordered(l, mask, order)).collect()
        });
        while self.i < items.len() {
            let unit = items[self.i];
            if units.is_present(unit, mask) {
                return Some(Proposal::Off(vec![unit]));
            }
            self.i += 1;
        }
        None
    }

    fn expect(&self) -> bool {
        self.last
    }

    fn step(&self) -> Step {
        Step::Removal { after_success: self.last }
    }

    fn feedback(&mut self, interesting: bool) {
        self.last = interesting;
        self.i += 1;
    }
}
