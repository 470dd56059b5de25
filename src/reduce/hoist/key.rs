//! The key by which a failed hoist is known again across parses: the
//! text it deletes, each name read as it was before the renaming pass.

use std::collections::HashSet;

use super::HoistMemory;
use crate::reduce::memory::{Remembered, Renamed};
use crate::reduce::Units;
use crate::syntax::{Hoist, NodeId, Tree};

impl HoistMemory {
    /// The hoists of `tree` (with `units`) known to fail.
    pub(crate) fn known_failures(&self, tree: &Tree, units: &Units) -> HashSet<Hoist> {
        // nothing failed yet (`--algorithm hdd`, or HDD+ without early
        // hoists): nothing to skip, no need to hash every hoist
        if self.is_empty() {
            return HashSet::new();
        }
        (0..units.hoistable_count())
            .filter_map(|i| units.hoistable(i))
            .flat_map(|(node, targets)| targets.iter().map(move |&to| Hoist { node, to }))
            .filter(|h| self.knows(tree, h))
            .collect()
    }
}

impl Remembered for Hoist {
    fn key(&self, tree: &Tree, renamed: &Renamed) -> u128 {
        hoist_key(tree, *self, renamed)
    }
}

/// What tells a hoist apart across parses of changing text: the kinds of the
/// node and of its target, and what the hoist deletes (the tokens of the
/// node before and after the target, each name read as it was before the
/// renaming pass, by `renamed`). Changes inside the target do not make a
/// failed hoist worth another test: it would delete the same text; nor
/// does the renaming pass, which only changes names.
pub(super) fn hoist_key(tree: &Tree, hoist: Hoist, renamed: &Renamed) -> u128 {
    let n = tree.node(hoist.node);
    let (first, last) = (tree.node(hoist.to.first), tree.node(hoist.to.last));
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(&n.kind.to_le_bytes());
    h.update(&first.kind.to_le_bytes());
    h.update(&last.kind.to_le_bytes());
    let start = hoist.to.head.map_or(n.start, |head| tree.node(head).end);
    h.update(&[u8::from(hoist.to.head.is_some())]);
    // the nodes before the run and after it: the run's own are kept
    let outside = (hoist.node.0 + 1..hoist.to.first.0).chain(last.subtree_end..n.subtree_end);
    for id in outside {
        let t = tree.node(NodeId(id));
        let before = start <= t.start && t.end <= first.start;
        let after = last.end <= t.start && t.end <= n.end;
        if t.subtree_end != id + 1 || t.is_empty() || !(before || after) {
            continue;
        }
        let text = tree.text(NodeId(id));
        let text = renamed.read(text);
        h.update(&[u8::from(before)]);
        h.update(&t.kind.to_le_bytes());
        h.update(&(text.len() as u64).to_le_bytes());
        h.update(text);
    }
    h.digest128()
}
