//! A batch's merge and fold: the changes that passed made together, else
//! one at a time, leaving out of the fold the changes likely to interfere
//! (see [`Batch::suspect`]).

use std::collections::{HashMap, HashSet};

use super::{Batch, Change};
use crate::reduce::hoist::{applies, made_in_turn};
use crate::reduce::{Proposal, Units};
use crate::syntax::Mask;

impl Batch {
    /// The merge: the present units of the blocks that passed, switched
    /// off, then the hoists that passed that can still be made.
    pub(super) fn merged(&mut self, units: &Units, mask: &Mask) -> Proposal {
        let mut ids = Vec::new();
        let mut hoists = Vec::new();
        for k in 0..self.passed.len() {
            match self.round[self.passed[k]].hoist {
                Some((_, _, hoist)) => hoists.push(hoist),
                None => ids.extend(self.members(self.passed[k], units, mask)),
            }
        }
        if !self.users.is_empty() {
            // two changes' users may be the same units
            let mut seen = HashSet::new();
            ids.retain(|&id| seen.insert(id));
        }
        if hoists.is_empty() {
            return Proposal::Off(ids);
        }
        let hoists = made_in_turn(units, mask.with_off(&ids), hoists);
        Proposal::OffHoists(ids, hoists)
    }

    /// The proposal of change `i`, a fold step, if there is anything left
    /// of it to make.
    pub(super) fn fold_step(&mut self, i: usize, units: &Units, mask: &Mask) -> Option<Proposal> {
        match self.round[i].hoist {
            Some((_, _, hoist)) => applies(units, mask, hoist).then_some(Proposal::Hoist(hoist)),
            None => {
                Some(self.members(i, units, mask)).filter(|ids| !ids.is_empty()).map(Proposal::Off)
            }
        }
    }

    /// Before a fold: leaves out of it, for the next round, each change
    /// that would take the last occurrences of a word still in the text
    /// when a change before it in the fold takes others. Two changes that
    /// passed alone interfere where each holds a copy of what the test
    /// needs; every interference in a fold costs a test latency (and the
    /// steps after it a second test), whereas the next round probes its
    /// changes all at once, against the mask the fold made. Where more
    /// than a third of the fold would be left out (large blocks, each
    /// with the last copies of some word), the words tell nothing, and
    /// none is; nor is a change left out before.
    pub(super) fn suspect(&mut self, units: &Units, mask: &Mask) {
        let mut holders = HashMap::new();
        for (k, i) in self.passed.clone().into_iter().enumerate() {
            if self.round[i].hoist.is_none() {
                holders.extend(self.members(i, units, mask).into_iter().map(|id| (id, k)));
            }
        }
        let mut left: HashMap<u32, usize> = HashMap::new();
        let mut held: Vec<HashMap<u32, usize>> = vec![HashMap::new(); self.passed.len()];
        for (word, holder) in units.words_in(mask, &holders) {
            *left.entry(word).or_default() += 1;
            if let Some(k) = holder {
                *held[k].entry(word).or_default() += 1;
            }
        }
        // occurrences the fold's steps so far take, if they pass
        let mut taken: HashMap<u32, usize> = HashMap::new();
        let (mut first, mut last) = (Vec::new(), Vec::new());
        for (k, &i) in self.passed.iter().enumerate() {
            let ends = !self.round[i].left_out
                && held[k].iter().any(|(w, &n)| {
                    let before = taken.get(w).copied().unwrap_or(0);
                    before > 0 && before + n == left[w]
                });
            if ends {
                last.push(i);
            } else {
                for (&w, &n) in &held[k] {
                    *taken.entry(w).or_default() += n;
                }
                first.push(i);
            }
        }
        if last.is_empty() || 3 * last.len() > self.passed.len() {
            return;
        }
        self.passed = first;
        for i in last {
            let block = self.round[i].block.clone();
            if self.hoisting {
                // (as a change that fails in the fold, it is not offered
                // its hoists when it fails then)
                block.clone().for_each(|p| self.offered[p] = true);
            }
            let users = self.round[i].users;
            self.suspects.push(Change { left_out: true, ..Change::block(block, users) });
        }
    }
}
