//! A batch's rounds: the first cut into blocks, the next built from the
//! failed blocks (halved, cut into units, or with their users), and the
//! blocks that passed committed.

use std::ops::Range;

use super::{Batch, Change};
use crate::reduce::stage::Stage;
use crate::reduce::Units;
use crate::syntax::Mask;

impl Batch {
    /// The first round: the units cut into `width` blocks of about the same size.
    pub(super) fn first_round(&mut self, units: &Units, mask: &Mask) {
        if let Some(order) = self.levels {
            self.items = (0..units.depth()).flat_map(|l| units.ordered(l, mask, order)).collect();
            self.gone = vec![false; self.items.len()];
        }
        let blocks = cut(0..self.items.len(), self.width.min(self.items.len()));
        self.round = blocks.into_iter().map(|block| Change::block(block, false)).collect();
        self.opening = true;
    }

    /// Builds the next round from this one's failed blocks (halved, or
    /// dropped); false when there is nothing left to try.
    pub(super) fn next_round(&mut self) -> bool {
        let mut round = Vec::new();
        let alone = |block| Change::block(block, false);
        for &i in &self.failed {
            let Change { block: r, users, hoist, .. } = self.round[i].clone();
            if users || hoist.is_some() {
                // its halves are in the same round; a hoist is tried once
                continue;
            }
            let left: Vec<usize> = self.left(r.clone()).collect();
            if self.split && left.len() > 1 {
                if left.len() <= SMALL_BLOCK && self.users.is_empty() {
                    round.extend(left.iter().map(|&p| alone(p..p + 1)));
                } else {
                    let mid = left[left.len() / 2];
                    round.push(alone(r.start..mid));
                    round.push(alone(mid..r.end));
                }
            }
            // (not when that would take a unit known to be needed)
            let closure = self.closure(r.clone());
            if self.split && closure.is_some_and(|c| !c.iter().any(|&p| self.needed[p])) {
                round.push(Change::block(r, true));
            }
        }
        if round.is_empty() && self.fixpoint && self.changed {
            // something went since the units left were last tried alone:
            // try each of them again
            let left = (0..self.items.len()).filter(|&p| !self.gone[p]);
            round = left.map(|p| alone(p..p + 1)).collect();
            self.changed = false;
        }
        round.append(&mut self.suspects);
        round.sort_by_key(|c| (c.block.start, c.users));
        self.round = round;
        self.next = 0;
        self.passed.clear();
        self.failed.clear();
        self.stage = Stage::Probing;
        self.opening = true;
        !self.round.is_empty()
    }

    /// Marks the units of the round's blocks `blocks` as switched off.
    pub(super) fn commit(&mut self, blocks: &[usize]) {
        // (a change's users are found gone when next met)
        for &i in blocks {
            for p in self.round[i].block.clone() {
                self.gone[p] = true;
            }
        }
        self.changed = true;
    }
}

/// A failed block of at most this many units is cut into its single units
/// for the next round rather than halved. It holds at least one unit the
/// test needs (or one that interferes), and for 4 units halving takes at
/// least as many tests as the singles (2 halves, then the 2 units of the
/// one that failed) and a round more; for 3 it takes 10/3 on average with one
/// needed unit, against 3. From 5 units on, halving is cheaper while
/// needed units are rare. Only without users (XML, JSON, the token
/// passes): a block with users also goes with them, and cutting it into
/// units at once changed which closures were probed, for better and worse
/// (BENCHMARKS.md, "A failed block of four cut into its units").
const SMALL_BLOCK: usize = 4;

/// `r` cut into `n` ranges of about the same size.
pub(super) fn cut(r: Range<usize>, n: usize) -> Vec<Range<usize>> {
    let len = r.len();
    (0..n).map(|k| r.start + k * len / n..r.start + (k + 1) * len / n).collect()
}
