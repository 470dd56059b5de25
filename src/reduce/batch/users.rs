//! A batch's units by position: which are left, which a change takes with
//! its users (the units that use what it declares), and which are needed
//! (see [`Batch::with_users`]).

use std::collections::HashSet;
use std::ops::Range;

use super::{Batch, Change};
use crate::reduce::Units;
use crate::syntax::{Mask, NodeId};

impl Batch {
    /// The present units of change `i` of the round (marking the absent
    /// ones gone): its block's, and with its users those of its closure
    /// (see [`Batch::closure`]).
    pub(super) fn members(&mut self, i: usize, units: &Units, mask: &Mask) -> Vec<NodeId> {
        let Change { block, users, .. } = self.round[i].clone();
        // (its users may be gone by now, in the fold)
        match users.then(|| self.closure(block.clone())).flatten() {
            Some(inside) => self.present(inside, units, mask),
            None => self.present(block, units, mask),
        }
    }

    /// The positions of block `r`'s units left, with those of the units
    /// left that use a name one of them declares, and so on; `None` when
    /// that adds nothing, or meets a use no deletion here takes.
    pub(super) fn closure(&self, r: Range<usize>) -> Option<Vec<usize>> {
        let mut inside: Vec<usize> = self.left(r.clone()).collect();
        let alone = inside.len();
        let mut seen: HashSet<usize> = inside.iter().copied().collect();
        let mut k = 0;
        while k < inside.len() {
            for &u in self.users.get(inside[k])?.as_deref()? {
                if !self.gone[u] && seen.insert(u) {
                    inside.push(u);
                }
            }
            k += 1;
        }
        inside.sort_unstable();
        (inside.len() > alone).then_some(inside)
    }

    /// Learns from change `i`, which failed, when it was one unit: the
    /// unit is needed if nothing left uses it, or if it went with its
    /// users (one of them is needed then, and it uses this one). So is
    /// every unit a needed one uses.
    pub(super) fn mark_needed(&mut self, i: usize) {
        let Change { block, users, hoist: None, .. } = self.round[i].clone() else { return };
        let left: Vec<usize> = self.left(block).collect();
        let &[p] = &left[..] else { return };
        let unused = self.users[p].as_ref().is_some_and(|list| list.iter().all(|&u| self.gone[u]));
        if !users && !unused {
            return;
        }
        let mut stack = vec![p];
        while let Some(q) = stack.pop() {
            if !std::mem::replace(&mut self.needed[q], true) {
                stack.extend(self.uses[q].iter().copied());
            }
        }
    }

    /// The present units at `positions` (marking the absent ones gone).
    pub(super) fn present(
        &mut self,
        positions: impl IntoIterator<Item = usize>,
        units: &Units,
        mask: &Mask,
    ) -> Vec<NodeId> {
        let mut ids = Vec::new();
        for p in positions {
            if self.gone[p] {
                continue;
            }
            if units.is_present(self.items[p], mask) {
                ids.push(self.items[p]);
            } else {
                self.gone[p] = true;
            }
        }
        ids
    }

    /// The positions of `r` still there.
    pub(super) fn left(&self, r: Range<usize>) -> impl Iterator<Item = usize> + '_ {
        r.filter(|&p| !self.gone[p])
    }
}
