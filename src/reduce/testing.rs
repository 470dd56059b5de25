//! In-memory oracles and trees for the algorithm tests.

pub(crate) use super::rng::Rng;
use super::{Candidates, Oracle, Units, Verdict};
use crate::syntax::policy::{Policy, SlotInfo};
use crate::syntax::tree::{flags, Action, Tree, TreeBuilder};
use crate::syntax::{Mask, NodeId};
use std::collections::HashMap;
use std::sync::Arc;

/// An oracle over a predicate on the set of present units; counts calls
/// and, like the real oracle, answers a candidate seen before from a cache.
pub(crate) struct FnOracle<'u, F> {
    pub units: &'u Units,
    pub predicate: F,
    pub calls: usize,
    pub cache_hits: usize,
    seen: HashMap<Vec<NodeId>, bool>,
}

impl<'u, F: FnMut(&[NodeId]) -> bool> FnOracle<'u, F> {
    pub(crate) fn new(units: &'u Units, predicate: F) -> Self {
        FnOracle { units, predicate, calls: 0, cache_hits: 0, seen: HashMap::new() }
    }

    pub(crate) fn test(&mut self, mask: &Mask) -> bool {
        let present = self.units.present_bfs(mask);
        if let Some(&known) = self.seen.get(&present) {
            self.cache_hits += 1;
            return known;
        }
        self.calls += 1;
        let answer = (self.predicate)(&present);
        self.seen.insert(present, answer);
        answer
    }
}

impl<F: FnMut(&[NodeId]) -> bool> Oracle for FnOracle<'_, F> {
    fn evaluate(&mut self, candidates: &mut dyn Candidates) -> Verdict {
        while let Some(c) = candidates.next() {
            let interesting = self.test(&c.mask);
            candidates.settle(c.index, interesting);
        }
        Verdict::Finished
    }
}

/// A tree whose units are `n` deletable leaves under one root: a flat sequence.
pub(crate) fn flat(n: usize) -> Tree {
    flat_over(Arc::from(vec![b'x'; n]))
}

/// [`flat`] over the bytes of `src`: one unit per byte.
pub(crate) fn flat_over(src: Arc<[u8]>) -> Tree {
    let n = src.len();
    let mut b = TreeBuilder::new(src);
    b.open(0, flags::NAMED, 0, n);
    for i in 0..n {
        let id = b.open(1, flags::NAMED, i, i + 1);
        b.node_mut(id).action = Action::Delete;
        b.close();
    }
    b.finish(Arc::new(Policy::default()))
}

/// A random tree of deletable nodes; `shape` draws the number of children
/// of a node at a depth (0 makes it a leaf).
pub(crate) fn random_tree(rng: &mut Rng, max_nodes: usize) -> Tree {
    random_tree_of(rng, max_nodes, false)
}

/// A random tree whose every node is of one hoistable class (as in
/// [`hoist_tree`]): each node with children may be replaced by any of them.
pub(crate) fn random_hoist_tree(rng: &mut Rng, max_nodes: usize) -> Tree {
    random_tree_of(rng, max_nodes, true)
}

fn random_tree_of(rng: &mut Rng, max_nodes: usize, hoistable: bool) -> Tree {
    // lay out nested spans over a byte string: each node is "(" children ")"
    fn grow(
        rng: &mut Rng,
        depth: usize,
        budget: &mut usize,
        out: &mut Vec<(usize, usize)>,
        pos: &mut usize,
    ) {
        let start = *pos;
        *pos += 1;
        let idx = out.len();
        out.push((start, 0));
        *budget = budget.saturating_sub(1);
        let kids = if depth >= 5 || *budget == 0 { 0 } else { rng.below(4) };
        for _ in 0..kids {
            if *budget == 0 {
                break;
            }
            grow(rng, depth + 1, budget, out, pos);
        }
        *pos += 1;
        out[idx].1 = *pos;
    }
    let mut spans = Vec::new();
    let mut pos = 0;
    let mut budget = max_nodes;
    grow(rng, 0, &mut budget, &mut spans, &mut pos);
    let src = vec![b'.'; pos];
    let mut b = TreeBuilder::new(Arc::from(src));
    let mut open: Vec<usize> = Vec::new();
    for (i, &(s, e)) in spans.iter().enumerate() {
        while open.last().is_some_and(|&o| spans[o].1 <= s) {
            open.pop();
            b.close();
        }
        let id = b.open(u16::from(hoistable), flags::NAMED, s, e);
        if i > 0 {
            let n = b.node_mut(id);
            n.action = Action::Delete;
            if hoistable {
                n.member = 1;
                n.slot = 1;
            }
        }
        open.push(i);
    }
    if !hoistable {
        return b.finish(Arc::new(Policy::default()));
    }
    b.finish(hoisting_info())
}

/// The policy of trees whose hoistable nodes are class 1 in slot 1,
/// which accepts class 1: any such node may stand for another.
pub(crate) fn hoisting_info() -> Arc<Policy> {
    let info = Policy {
        slots: vec![SlotInfo::default(), SlotInfo { repeated: false, accepts: Box::new([1]) }],
        ..Policy::default()
    };
    Arc::new(info)
}

/// "x a(b(c)) y": `a` and `b` are hoistable calls of class 1 whose
/// targets are the nearest class-1 descendants.
pub(crate) fn hoist_tree() -> Tree {
    let src = b"x a(b(c)) y";
    let mut b = TreeBuilder::new(Arc::from(&src[..]));
    b.open(0, flags::NAMED, 0, src.len());
    for (start, end) in [(2, 9), (4, 8), (6, 7)] {
        let id = b.open(1, flags::NAMED, start, end);
        let n = b.node_mut(id);
        n.member = 1;
        n.slot = 1;
        n.action = Action::Delete;
    }
    b.close();
    b.close();
    b.close();
    b.finish(hoisting_info())
}

/// Interesting iff the text still has `needle` and is shorter than "x a(b(c)) y".
pub(crate) struct TextOracle<'t, 'u> {
    pub tree: &'t Tree,
    pub unparser: &'u mut crate::syntax::Unparser,
    pub needle: u8,
    pub calls: usize,
}

impl Oracle for TextOracle<'_, '_> {
    fn evaluate(&mut self, candidates: &mut dyn Candidates) -> Verdict {
        while let Some(c) = candidates.next() {
            self.calls += 1;
            let mut text = Vec::new();
            self.unparser.unparse(self.tree, &c.mask, &mut text);
            let interesting = text.contains(&self.needle) && text.len() < 11;
            candidates.settle(c.index, interesting);
        }
        Verdict::Finished
    }
}
