//! A batch's hoists at an HDD level with hoisting: a unit that failed alone
//! offered its hoists in the same round, a failed hoist its node's next
//! target (see [`Batch::hoisting`]).

use super::{Again, Batch, Change};
use crate::reduce::hoist::{next_hoist, open, EARLY_TARGETS};
use crate::reduce::Units;
use crate::syntax::Mask;

impl Batch {
    /// Change `i` of the round failed: with `hoisting`, its unit is
    /// offered its hoists in the same round if it was one unit alone,
    /// not offered them before; a hoist's node its next target.
    pub(super) fn offer_hoists(&mut self, i: usize) {
        if !self.hoisting {
            return;
        }
        let Change { block, users, hoist, .. } = self.round[i].clone();
        if let Some((h, t, _)) = hoist {
            self.again.push(Again::Node(h, t + 1));
            return;
        }
        let left: Vec<usize> = self.left(block).collect();
        if let &[p] = &left[..] {
            if !users && !std::mem::replace(&mut self.offered[p], true) {
                self.again.push(Again::Unit(p));
            }
        }
    }

    /// Puts the hoists waiting to be offered into the round, right after
    /// the last change proposed: each hoistable node's next target that
    /// can be made under `mask`.
    pub(super) fn insert_hoists(&mut self, units: &Units, mask: &Mask) {
        let early = |h: &usize| {
            units
                .hoistable_early(*h)
                .is_some_and(|(_, t)| !t.is_empty() && t.len() <= EARLY_TARGETS)
        };
        let mut nodes = Vec::new();
        for again in std::mem::take(&mut self.again) {
            match again {
                Again::Unit(p) => {
                    nodes.extend(units.hoistable_in(self.items[p]).filter(early).map(|h| (h, 0)))
                }
                Again::Node(h, t) => nodes.push((h, t)),
            }
        }
        let mut at = self.next;
        for (h, first) in nodes {
            let (node, targets) = units.hoistable_early(h).expect("a hoistable node");
            let next = open(units, mask, node)
                .then(|| next_hoist(units, mask, node, targets, first, |_| true))
                .flatten();
            if let Some((t, hoist)) = next {
                self.round.insert(
                    at,
                    Change { hoist: Some((h, t, hoist)), ..Change::block(0..0, false) },
                );
                at += 1;
            }
        }
    }

    /// Remembers change `i` of the round as a failed hoist if it is one.
    pub(super) fn hoist_failed(&mut self, i: usize) {
        if let Some((_, _, hoist)) = self.round[i].hoist {
            self.failed_hoists.push(hoist);
        }
    }
}
