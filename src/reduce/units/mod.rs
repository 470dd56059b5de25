//! The reduction view of a tree: which nodes are units, and the HDD levels.
//!
//! A *unit* is a node that switching off changes the text: its action is
//! delete or replace, it is not empty, and it does not do exactly what its
//! nearest unit ancestor does (a wrapper whose only child covers the same bytes
//! is one unit, not two levels: testing both would waste a test). Every other
//! node is transparent. HDD's level of a unit is the number of unit ancestors
//! it has, so levels count decisions, not grammar nesting.
//!
//! A *hoistable* node (its kind is one hoisting moves, see
//! `grammars/README.md`, and its place is known) may be replaced by one of
//! its *targets*: a nearest such descendant whose kind fits
//! the node's place; or, in a place that holds a list, by the whole run from
//! its first target to its last (unwrapping `{ a; b; }` into `a; b;`).
//! Targets are found here once per tree.

use crate::syntax::tree::{flags, roles, Action, NodeId, Tree};
use crate::syntax::{Mask, Target};

mod targets;
#[cfg(test)]
mod tests;
mod words;

use targets::{hoist_targets, Hoistable};

const NONE: u32 = u32::MAX;

/// The units of a tree, grouped by level.
#[derive(Debug)]
pub struct Units {
    /// Units of each level, in source order.
    levels: Vec<Vec<NodeId>>,
    /// The nearest unit ancestor of each node (`NONE` at the top).
    up: Vec<u32>,
    /// The level of the nearest unit at or above each node (`NONE` above
    /// every unit).
    level_of: Vec<u32>,
    /// Whether each node is a unit.
    unit: Vec<bool>,
    /// Subtree ends, to tell whether a node is inside another.
    subtree_end: Vec<u32>,
    /// Hoistable nodes in preorder, each with its targets in `targets`.
    hoistable: Vec<Hoistable>,
    /// The indices into `hoistable` of each HDD level's hoistable nodes
    /// (by [`Units::level_of`]), in preorder.
    hoistable_by_level: Vec<Vec<u32>>,
    targets: Vec<Target>,
    /// The kind of each node.
    kinds: Vec<u16>,
    /// Each name token that resolves to a declaration, with the node that
    /// declares it (empty unless [`Units::with_uses`]).
    uses: Vec<(NodeId, NodeId)>,
    /// Each word of the leaves' texts (a run of letters, digits and `_`
    /// that starts with a letter or `_`), by leaf, as a number per
    /// spelling (empty unless [`Units::with_words`]).
    words: Vec<(NodeId, u32)>,
}

/// The order in which the units of a level are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Order {
    /// Source order.
    #[default]
    Forward,
    /// Last unit first: later code tends to depend on earlier code, so
    /// removing users before what they use can reach a fixed point in fewer
    /// passes (MacIver, "Representing steps in test-case reduction").
    Backward,
}

impl Units {
    pub fn new(tree: &Tree) -> Units {
        let nodes = tree.nodes();
        let mut levels: Vec<Vec<NodeId>> = Vec::new();
        let mut up = vec![NONE; nodes.len()];
        let mut level_of = vec![NONE; nodes.len()];
        let mut unit = vec![false; nodes.len()];
        // (subtree end, nearest unit at or above, its level)
        let mut stack: Vec<(u32, u32, usize)> = Vec::new();
        for (i, n) in nodes.iter().enumerate() {
            while stack.last().is_some_and(|&(end, _, _)| end <= i as u32) {
                stack.pop();
            }
            let (above, above_level) = stack.last().map_or((NONE, 0), |&(_, u, l)| (u, l));
            up[i] = above;
            let is_unit = n.action != Action::Keep
                && n.role & roles::GROUPED == 0
                && !n.is_empty()
                && (above == NONE || !same_effect(tree, above, i as u32));
            let (mark, level) = if is_unit {
                let level = if above == NONE { 0 } else { above_level + 1 };
                if levels.len() <= level {
                    levels.resize_with(level + 1, Vec::new);
                }
                levels[level].push(NodeId(i as u32));
                unit[i] = true;
                (i as u32, level)
            } else {
                (above, above_level)
            };
            if mark != NONE {
                level_of[i] = level as u32;
            }
            stack.push((n.subtree_end, mark, level));
        }
        let (hoistable, targets) = hoist_targets(tree);
        let mut hoistable_by_level = vec![Vec::new(); levels.len()];
        for (i, h) in hoistable.iter().enumerate() {
            if let Some(at) = hoistable_by_level.get_mut(level_of[h.node.index()] as usize) {
                at.push(i as u32);
            }
        }
        let subtree_end = nodes.iter().map(|n| n.subtree_end).collect();
        let kinds = nodes.iter().map(|n| n.kind).collect();
        Units {
            levels,
            up,
            level_of,
            unit,
            subtree_end,
            hoistable,
            hoistable_by_level,
            targets,
            kinds,
            uses: Vec::new(),
            words: Vec::new(),
        }
    }

    /// The `i`-th hoistable node (in preorder) and its targets.
    pub fn hoistable(&self, i: usize) -> Option<(NodeId, &[Target])> {
        let h = self.hoistable.get(i)?;
        Some((h.node, &self.targets[h.targets.start as usize..h.targets.end as usize]))
    }

    /// The `i`-th hoistable node and those of its targets that move a part
    /// of it into its place, leaving out those that rewrite it (an
    /// expression made a statement, a splice): what HDD's early hoists
    /// offer, since a rewrite seldom pays where the levels below still
    /// cut (its tests there are mostly spent for nothing).
    pub fn hoistable_early(&self, i: usize) -> Option<(NodeId, &[Target])> {
        let h = self.hoistable.get(i)?;
        let start = h.targets.start as usize;
        Some((h.node, &self.targets[start..start + h.plain as usize]))
    }

    /// The hoistable nodes (by index, outermost first) that unit `unit` is
    /// the nearest unit of: in its subtree, and not in a unit below it.
    pub fn hoistable_in(&self, unit: NodeId) -> impl Iterator<Item = usize> + '_ {
        let end = self.subtree_end[unit.index()];
        let first = self.hoistable.partition_point(|h| h.node < unit);
        let level = self.level_of(unit);
        (first..self.hoistable.len())
            .take_while(move |&i| self.hoistable[i].node.0 < end)
            .filter(move |&i| self.level_of(self.hoistable[i].node) == level)
    }

    /// The hoistable nodes (by index, in preorder) whose nearest unit at
    /// or above is at HDD level `level`.
    pub fn hoistable_at(&self, level: usize) -> &[u32] {
        self.hoistable_by_level.get(level).map_or(&[], Vec::as_slice)
    }

    /// Number of hoistable nodes.
    pub fn hoistable_count(&self) -> usize {
        self.hoistable.len()
    }

    fn contains(&self, outer: NodeId, inner: NodeId) -> bool {
        outer.0 <= inner.0 && inner.0 < self.subtree_end[outer.index()]
    }

    /// Number of HDD levels.
    pub fn depth(&self) -> usize {
        self.levels.len()
    }

    /// The level of the nearest unit at or above node `id`, if any.
    pub fn level_of(&self, id: NodeId) -> Option<usize> {
        let l = self.level_of[id.index()];
        (l != NONE).then_some(l as usize)
    }

    /// The units of one level, in source order.
    pub fn level(&self, level: usize) -> &[NodeId] {
        &self.levels[level]
    }

    /// The kind of node `id` (as the tree numbers kinds).
    pub fn kind(&self, id: NodeId) -> u16 {
        self.kinds[id.0 as usize]
    }

    pub fn is_unit(&self, id: NodeId) -> bool {
        self.unit[id.index()]
    }

    /// Total number of units.
    pub fn count(&self) -> usize {
        self.levels.iter().map(Vec::len).sum()
    }

    /// Whether a node is still in the candidate: neither it nor a unit above
    /// it is off, and no hoist dropped it.
    pub fn is_present(&self, id: NodeId, mask: &Mask) -> bool {
        // the hoists and swaps first: a hoist near the root of a deep input
        // drops a whole chain of levels, which the walk up would cross for
        // each of its units
        let dropped = mask.hoists().iter().any(|h| {
            h.node != id
                && self.contains(h.node, id)
                && !(h.to.first.0 <= id.0 && id.0 < self.subtree_end[h.to.last.index()])
                && h.to.head.is_none_or(|head| id.0 >= self.subtree_end[head.index()])
        }) || mask.swaps().iter().any(|s| s.node != id && self.contains(s.node, id));
        if dropped {
            return false;
        }
        let mut at = id.0;
        while at != NONE {
            if mask.is_off(NodeId(at)) {
                return false;
            }
            at = self.up[at as usize];
        }
        true
    }

    /// The units of `level` still present under `mask`, in `order`.
    pub fn ordered(&self, level: usize, mask: &Mask, order: Order) -> Vec<NodeId> {
        let mut items = self.present_at(level, mask);
        if order == Order::Backward {
            items.reverse();
        }
        items
    }

    /// The units of `level` still present under `mask`.
    pub fn present_at(&self, level: usize, mask: &Mask) -> Vec<NodeId> {
        self.levels[level].iter().copied().filter(|&u| self.is_present(u, mask)).collect()
    }

    /// Every unit still present under `mask`, level by level (BFS order).
    pub fn present_bfs(&self, mask: &Mask) -> Vec<NodeId> {
        (0..self.depth()).flat_map(|l| self.present_at(l, mask)).collect()
    }
}

/// Whether switching off `b` (inside `a`) changes the text exactly as switching off `a` does.
fn same_effect(tree: &Tree, a: u32, b: u32) -> bool {
    let (a, b) = (tree.node(NodeId(a)), tree.node(NodeId(b)));
    if a.has(flags::ELEMENT) || b.has(flags::ELEMENT) {
        return false;
    }
    match (a.action, b.action) {
        (Action::Delete, Action::Delete) => a.lead == b.lead && a.end == b.end,
        (Action::Replace(x), Action::Replace(y)) => {
            a.start == b.start && a.end == b.end && tree.replacement(x) == tree.replacement(y)
        }
        _ => false,
    }
}
