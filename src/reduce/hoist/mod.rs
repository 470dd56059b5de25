//! Hoisting: replacing a node by a descendant that fits its place in the
//! grammar (a loop by its body, a call by one of its arguments, a block in
//! a block by its statements).
//!
//! - [`Hoisting`]: the search. Each hoistable node, outermost first, is
//!   replaced in turn by each of its targets (smallest first, see
//!   [`Units::hoistable`]) until one is interesting.
//! - [`HoistBatch`]: the same in rounds, for many workers (`--batch`).
//! - [`HoistMemory`]: the hoists that failed, remembered across parses of a
//!   changing text by what they delete, so a plan does not test them again
//!   while that text reads the same.

mod key;
mod rounds;
#[cfg(test)]
mod tests;

use std::collections::HashSet;
use std::sync::Arc;

pub(crate) use rounds::HoistBatch;

use super::memory::FailureMemory;
use super::{Proposal, Search, Step, Units};
use crate::syntax::{Hoist, Mask, NodeId, Target};

/// The hoists that failed so far, by what they delete (see
/// [`Hoist`]'s [`Remembered`](super::memory::Remembered) key): a hoist that
/// failed is not tried again while that text reads the same, with the
/// names the renaming pass changed read as they were before it.
pub(crate) type HoistMemory = FailureMemory<Hoist>;

/// The most targets a node may have to be offered its hoists at its own HDD
/// level. The common shapes have one or two (a binary expression, a call
/// with one argument, a loop, an `if` with an `else`): at most two tests that
/// can spare the levels below a whole subtree. A node with many (an XML
/// element with hundreds of children) is cheaper to leave to ddmin on its
/// children first; the hoisting round after HDD then hoists what is left.
pub(super) const EARLY_TARGETS: usize = 2;

/// Hoisting: each hoistable node, outermost first, replaced in turn by each
/// of its targets until one is interesting.
#[derive(Clone, Debug, Default)]
pub(crate) struct Hoisting {
    /// The place of the node being tried among the hoistable nodes, or at
    /// a `level`, among that level's ([`Units::hoistable_at`]): a deep
    /// input has as many levels as nodes, and a walk over every hoistable
    /// node at each level would cost their square.
    node: usize,
    target: usize,
    /// Hoists not to try.
    skip: Arc<HashSet<Hoist>>,
    /// Only the nodes of this HDD level (see [`Units::level_of`]).
    level: Option<usize>,
    /// The hoist proposed last.
    last: Option<Hoist>,
    /// The hoists tried that were not interesting.
    failed: Vec<Hoist>,
}

impl Hoisting {
    /// Hoisting that does not try the hoists in `skip` (the caller knows
    /// they fail).
    pub(crate) fn skipping(skip: HashSet<Hoist>) -> Hoisting {
        Hoisting { skip: Arc::new(skip), ..Hoisting::default() }
    }

    /// Hoisting of the nodes of one HDD level only, and only of those with
    /// at most two targets (`EARLY_TARGETS`).
    pub(crate) fn at_level(level: usize) -> Hoisting {
        Hoisting { level: Some(level), ..Hoisting::default() }
    }

    /// The hoists tried that were not interesting, after a run (see
    /// [`drive`](crate::reduce::drive)).
    pub(crate) fn failed(&self) -> &[Hoist] {
        &self.failed
    }
}

impl Search for Hoisting {
    fn step(&self) -> Step {
        Step::Hoist
    }

    fn propose(&mut self, units: &Units, mask: &Mask) -> Option<Proposal> {
        loop {
            let i = match self.level {
                Some(l) => *units.hoistable_at(l).get(self.node)? as usize,
                None => self.node,
            };
            let (node, targets) = offered(units, i, self.level)?;
            let done = self.target >= targets.len()
                || self.level.is_some_and(|l| {
                    units.level_of(node) != Some(l) || targets.len() > EARLY_TARGETS
                })
                || !open(units, mask, node);
            if done {
                self.node += 1;
                self.target = 0;
                continue;
            }
            let to = targets[self.target];
            let present = units.is_present(to.first, mask) && units.is_present(to.last, mask);
            let hoist = Hoist { node, to };
            if present && !self.skip.contains(&hoist) {
                self.last = Some(hoist);
                return Some(Proposal::Hoist(hoist));
            }
            self.target += 1;
        }
    }

    fn feedback(&mut self, interesting: bool) {
        if interesting {
            self.node += 1;
            self.target = 0;
        } else {
            self.failed.extend(self.last);
            self.target += 1;
        }
    }
}

/// Whether `hoist` can be made under `mask`: its node and both ends of its
/// target are still there.
pub(super) fn applies(units: &Units, mask: &Mask, hoist: Hoist) -> bool {
    units.is_present(hoist.node, mask)
        && units.is_present(hoist.to.first, mask)
        && units.is_present(hoist.to.last, mask)
}

/// Whether `node` may be offered a hoist under `mask`: it is there and
/// not hoisted already.
pub(super) fn open(units: &Units, mask: &Mask, node: NodeId) -> bool {
    units.is_present(node, mask) && !mask.hoists().iter().any(|h| h.node == node)
}

/// The first hoist of `node` to one of `targets`, from index `from` on,
/// that can be made under `mask` and that `wanted` takes, with its
/// target's index.
pub(super) fn next_hoist(
    units: &Units,
    mask: &Mask,
    node: NodeId,
    targets: &[Target],
    from: usize,
    wanted: impl Fn(&Hoist) -> bool,
) -> Option<(usize, Hoist)> {
    let mut hoists = targets.iter().enumerate().skip(from).map(|(t, &to)| (t, Hoist { node, to }));
    hoists.find(|(_, h)| applies(units, mask, *h) && wanted(h))
}

/// `hoists` made one after the other from `mask`, leaving out those an
/// earlier one dropped (their node or target), or that `mask` does.
pub(super) fn made_in_turn(
    units: &Units,
    mut mask: Mask,
    hoists: impl IntoIterator<Item = Hoist>,
) -> Vec<Hoist> {
    let mut made = Vec::new();
    for hoist in hoists {
        if applies(units, &mask, hoist) {
            mask = mask.with_hoist(hoist);
            made.push(hoist);
        }
    }
    made
}

/// The `i`-th hoistable node and the targets a search offers it: at an HDD
/// `level`, those that move a part of it (see [`Units::hoistable_early`]);
/// after the HDD pass, all.
fn offered(units: &Units, i: usize, level: Option<usize>) -> Option<(NodeId, &[Target])> {
    match level {
        Some(_) => units.hoistable_early(i),
        None => units.hoistable(i),
    }
}
