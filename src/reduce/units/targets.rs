//! Hoist targets, found once per tree: each hoistable node's nearest
//! descendants whose kind fits its place, the runs of them in a list, the
//! end of a chain of single targets first, and the rewrites (`[statement]`,
//! `[[splice]]`).

use super::NONE;
use crate::syntax::policy::Stands;
use crate::syntax::tree::{flags, roles, NodeId, Tree};
use crate::syntax::Target;

/// A hoistable node and its targets: first those that hoist a part of it,
/// then those that rewrite it.
#[derive(Clone, Debug)]
pub(super) struct Hoistable {
    pub(super) node: NodeId,
    /// Its range in the targets.
    pub(super) targets: std::ops::Range<u32>,
    /// How many of them hoist a part of it (the first ones).
    pub(super) plain: u32,
}

/// Every hoistable node with its targets: its nearest descendants that are
/// of a kind hoisting moves, fit its place, are not empty and not kept by a rule;
/// and, in a place that holds a list, when they are two or more siblings
/// with nothing else named between them, the run from the first to the last.
/// A node's targets are in order of size, the run last; then those that
/// rewrite it: an expression made a statement (see [`statement_targets`]),
/// a splice (see [`splice_targets`]).
pub(super) fn hoist_targets(tree: &Tree) -> (Vec<Hoistable>, Vec<Target>) {
    let nodes = tree.nodes();
    let mut hoistable = Vec::new();
    let mut targets = Vec::new();
    let mut nearest = Vec::new();
    let leaf = Leaves::new(tree);
    let policy = tree.policy();
    let statements: Vec<u16> = (0..policy.kinds.len() as u16)
        .filter(|&k| policy.kind(k).stands == Stands::Statement)
        .collect();
    for (i, n) in nodes.iter().enumerate() {
        if n.member == 0 || n.slot == 0 || n.is_empty() {
            continue;
        }
        let slot = tree.slot(NodeId(i as u32));
        nearest.clear();
        for d in nearest_members(tree, NodeId(i as u32)) {
            let c = tree.node(d);
            // a leaf (nothing hoisting moves inside it) must also stand
            // where the node could: elsewhere it is a name, not a value
            // (a parameter's, a key's, an assignment's target). One kept
            // in its place by a rule (`s` of `s->f`, whose minimal form
            // `0` is never valid there) may still take the place of the
            // node around it, but not a called function (`f(x)` by
            // `f`: valid C that almost no test wants)
            let is_leaf = leaf.is(d.0);
            let kept = c.has(flags::KEPT) && (!is_leaf || tree.is_call(c.parent));
            let fits = slot.accepts(c.kind)
                && (!is_leaf || tree.slot(d).accepts(n.kind))
                && !c.is_empty()
                && !kept;
            if fits && (c.start, c.end) != (n.start, n.end) {
                nearest.push(d);
            }
        }
        let first = targets.len() as u32;
        targets.extend(nearest.iter().map(|&t| Target::node(t)));
        // smallest first: when several would do, the first that does is
        // kept, and the smallest leaves the least for later tests
        targets[first as usize..].sort_by_key(|t| {
            let n = tree.node(t.first);
            n.end - n.start
        });
        if slot.repeated && nearest.len() > 1 && is_run(tree, &nearest) {
            targets.push(Target::run(nearest[0], nearest[nearest.len() - 1]));
        }
        let plain = targets.len() as u32 - first;
        if statements.iter().any(|&k| slot.accepts(k)) {
            statement_targets(tree, &leaf, NodeId(i as u32), &mut targets);
        }
        splice_targets(tree, NodeId(i as u32), &mut targets);
        if targets.len() as u32 > first {
            let node = NodeId(i as u32);
            hoistable.push(Hoistable { node, targets: first..targets.len() as u32, plain });
        }
    }
    chain_ends(tree, &leaf, &mut hoistable, &mut targets);
    (hoistable, targets)
}

/// The target that makes `id`, a declaration or statement that ends in the
/// end token of grammar data `[statement]`, an expression statement: the
/// nearest expression inside it that only whitespace parts from the token,
/// with the token (`int *p = x + *d;` by `x + *d;`, `return f(x);` by
/// `f(x);`), found down the last children before the token. Not a leaf
/// (`p;`, `0;` are worth no test), and not one kept in its place by a rule.
fn statement_targets(tree: &Tree, leaf: &Leaves, id: NodeId, out: &mut Vec<Target>) {
    let nodes = tree.nodes();
    let stands = |k: u16| tree.policy().kind(k).stands;
    let Some(end) = tree.children(id).last() else { return };
    if stands(nodes[id.index()].kind) == Stands::Statement
        || stands(nodes[end.index()].kind) != Stands::End
    {
        return;
    }
    let before = nodes[end.index()].start as usize;
    let close = |c: NodeId| {
        tree.src()[nodes[c.index()].end as usize..before].iter().all(u8::is_ascii_whitespace)
    };
    // the last child before the token, then its last child, while they
    // end where the token's whitespace begins
    let mut at = tree.children(id).filter(|&c| c != end).last();
    while let Some(c) = at.filter(|&c| close(c)) {
        let n = &nodes[c.index()];
        if n.has(flags::NAMED) && stands(n.kind) == Stands::Expression {
            if !leaf.is(c.0) && !n.is_empty() && !n.has(flags::KEPT) {
                out.push(Target::run(c, end));
            }
            return;
        }
        at = tree.children(c).last();
    }
}

/// The targets that splice `id` (grammar data `[[splice]]`): its beginning
/// up to its head child, then each nearest node hoisting moves inside its
/// tail child that fits the node's place (`if (c) ; else B` to `if (c) B`).
fn splice_targets(tree: &Tree, id: NodeId, out: &mut Vec<Target>) {
    let role = |r: u8| tree.children(id).find(|&c| tree.node(c).role & r != 0);
    let (Some(head), Some(tail)) = (role(roles::HEAD), role(roles::TAIL)) else { return };
    let slot = tree.slot(id);
    for d in nearest_members(tree, tail) {
        let c = tree.node(d);
        if slot.accepts(c.kind) && !c.is_empty() && !c.has(flags::KEPT) {
            out.push(Target { first: d, last: d, head: Some(head) });
        }
    }
}

/// The named nodes below `id` that hoisting moves with none such between
/// them and `id`, in preorder.
fn nearest_members(tree: &Tree, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    let nodes = tree.nodes();
    let end = nodes[id.index()].subtree_end;
    let mut d = id.0 + 1;
    std::iter::from_fn(move || {
        while d < end {
            let c = &nodes[d as usize];
            if c.member != 0 && c.has(flags::NAMED) {
                let found = NodeId(d);
                d = c.subtree_end;
                return Some(found);
            }
            d += 1;
        }
        None
    })
}

/// Which nodes have nothing hoisting moves inside them, answered in
/// constant time (a deep nest would make a scan of each subtree quadratic).
struct Leaves {
    /// The first node at or after each id that hoisting moves.
    next_member: Vec<u32>,
    subtree_end: Vec<u32>,
}

impl Leaves {
    fn new(tree: &Tree) -> Leaves {
        let nodes = tree.nodes();
        let mut next_member = vec![NONE; nodes.len() + 1];
        for i in (0..nodes.len()).rev() {
            next_member[i] = if nodes[i].member != 0 { i as u32 } else { next_member[i + 1] };
        }
        Leaves { next_member, subtree_end: nodes.iter().map(|n| n.subtree_end).collect() }
    }

    /// Whether nothing inside node `i` (below it) is one hoisting moves.
    fn is(&self, i: u32) -> bool {
        let next = self.next_member[i as usize + 1];
        next == NONE || next >= self.subtree_end[i as usize]
    }
}

/// Adds, to each node whose only target leads down a chain of nodes with
/// one target each (`[[[[1]]]]`, `<a><b><c/></b></a>`), the end of the
/// chain, when it fits the node's place, as its first target: a deep
/// nest goes in one test rather than one per level. (When the deepest
/// will not do, the direct target is next, as without the chain.)
fn chain_ends(tree: &Tree, leaf: &Leaves, hoistable: &mut [Hoistable], targets: &mut Vec<Target>) {
    // the single target of each node that has one (rewrites aside)
    let mut single = vec![NONE; tree.len()];
    for h in hoistable.iter() {
        let t = targets[h.targets.start as usize];
        if h.plain == 1 && t.first == t.last {
            single[h.node.index()] = t.first.0;
        }
    }
    // the end of the chain below each node, deepest nodes first (a target
    // comes after its node in preorder), so each chain is walked once
    let mut end = vec![NONE; tree.len()];
    for i in (0..tree.len()).rev() {
        let t = single[i];
        if t != NONE {
            end[i] = if end[t as usize] != NONE { end[t as usize] } else { t };
        }
    }
    let mut extra: Vec<(usize, Target)> = Vec::new();
    for (h, Hoistable { node: n, .. }) in hoistable.iter().enumerate() {
        let (direct, last) = (single[n.index()], end[n.index()]);
        if direct == NONE || last == direct {
            continue;
        }
        // the end must fit the node's place, and a leaf stand where the
        // node could (see above)
        let kind = tree.node(NodeId(last)).kind;
        if tree.slot(*n).accepts(kind)
            && (!leaf.is(last) || tree.slot(NodeId(last)).accepts(tree.node(*n).kind))
        {
            extra.push((h, Target::node(NodeId(last))));
        }
    }
    if extra.is_empty() {
        return;
    }
    // rebuild the target ranges with each extra target first
    let mut rebuilt = Vec::with_capacity(targets.len() + extra.len());
    let mut extra = extra.into_iter().peekable();
    for (i, h) in hoistable.iter_mut().enumerate() {
        let start = rebuilt.len() as u32;
        if let Some((_, t)) = extra.next_if(|(e, _)| *e == i) {
            rebuilt.push(t);
            h.plain += 1;
        }
        rebuilt.extend_from_slice(&targets[h.targets.start as usize..h.targets.end as usize]);
        h.targets = start..rebuilt.len() as u32;
    }
    *targets = rebuilt;
}

/// Whether `nodes` (in order) are siblings with nothing named between them
/// but each other and extras (comments): a run that can stand in a list.
fn is_run(tree: &Tree, nodes: &[NodeId]) -> bool {
    let parent = tree.node(nodes[0]).parent;
    if nodes.iter().any(|&n| tree.node(n).parent != parent) {
        return false;
    }
    let last = nodes[nodes.len() - 1];
    let mut wanted = nodes.iter().peekable();
    let mut c = nodes[0];
    loop {
        let n = tree.node(c);
        if wanted.peek() == Some(&&c) {
            wanted.next();
        } else if n.has(flags::NAMED) && !n.has(flags::EXTRA) {
            return false;
        }
        if c == last {
            return true;
        }
        c = NodeId(n.subtree_end);
    }
}
