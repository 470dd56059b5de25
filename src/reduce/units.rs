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

use std::collections::HashMap;

use crate::syntax::policy::Stands;
use crate::syntax::tree::{flags, roles, Action, NodeId, Tree};
use crate::syntax::{Mask, Target};

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
        let subtree_end = nodes.iter().map(|n| n.subtree_end).collect();
        let kinds = nodes.iter().map(|n| n.kind).collect();
        Units {
            levels,
            up,
            level_of,
            unit,
            subtree_end,
            hoistable,
            targets,
            kinds,
            uses: Vec::new(),
            words: Vec::new(),
        }
    }

    /// This view, knowing which name tokens use which declaration (for
    /// [`Units::users`]; nothing for a language without names).
    pub fn with_uses(self, tree: &Tree) -> Units {
        Units { uses: super::groups::name_uses(tree), ..self }
    }

    /// This view, knowing the words of its leaves (see
    /// [`Units::words_in`]).
    pub fn with_words(self, tree: &Tree) -> Units {
        let mut ids: HashMap<&[u8], u32> = HashMap::new();
        let mut words = Vec::new();
        for (i, n) in tree.nodes().iter().enumerate() {
            if n.subtree_end != i as u32 + 1 {
                continue;
            }
            let text = tree.text(NodeId(i as u32));
            let word = |b: &u8| crate::syntax::is_word_byte(*b);
            let mut at = 0;
            while at < text.len() {
                let start = at;
                if !word(&text[at]) {
                    at += 1;
                    continue;
                }
                at += text[at..].iter().take_while(|b| word(b)).count();
                if text[start].is_ascii_digit() {
                    // a number, `0x1f` too
                    continue;
                }
                let next = ids.len() as u32;
                let id = *ids.entry(&text[start..at]).or_insert(next);
                words.push((NodeId(i as u32), id));
            }
        }
        Units { words, ..self }
    }

    /// The words of the leaves present under `mask`, each with the
    /// nearest of `holders` at or above its leaf, if any; `holders` maps
    /// a node to its holder's number.
    pub fn words_in(
        &self,
        mask: &Mask,
        holders: &HashMap<NodeId, usize>,
    ) -> Vec<(u32, Option<usize>)> {
        let mut out = Vec::new();
        for &(leaf, word) in &self.words {
            if !self.is_present(leaf, mask) {
                continue;
            }
            let mut at = leaf.0;
            let holder = loop {
                if let Some(&h) = holders.get(&NodeId(at)) {
                    break Some(h);
                }
                at = self.up[at as usize];
                if at == NONE {
                    break None;
                }
            };
            out.push((word, holder));
        }
        out
    }

    /// For each of `items` (units of `level`): the positions in `items` of
    /// the others that use a name it declares, or `None` when a use still
    /// present lies outside all of `items` (no deletion at this level
    /// takes that use with the declaration). Empty without
    /// [`Units::with_uses`].
    pub fn users(&self, level: usize, items: &[NodeId], mask: &Mask) -> Vec<Option<Vec<usize>>> {
        if self.uses.is_empty() {
            return Vec::new();
        }
        let position: HashMap<NodeId, usize> =
            items.iter().enumerate().map(|(p, &u)| (u, p)).collect();
        let mut users = vec![Some(Vec::new()); items.len()];
        for &(decl, token) in &self.uses {
            let Some(&d) = self.unit_at(decl, level).and_then(|u| position.get(&u)) else {
                continue;
            };
            match self.unit_at(token, level).and_then(|u| position.get(&u)) {
                Some(&u) if u == d => {}
                Some(&u) => {
                    if let Some(list) = &mut users[d] {
                        list.push(u);
                    }
                }
                None if self.is_present(token, mask) => users[d] = None,
                None => {}
            }
        }
        for list in users.iter_mut().flatten() {
            list.sort_unstable();
            list.dedup();
        }
        users
    }

    /// The unit of `level` at or above node `id`, if any.
    fn unit_at(&self, id: NodeId, level: usize) -> Option<NodeId> {
        let mut at = if self.unit[id.index()] { id.0 } else { self.up[id.index()] };
        while at != NONE && self.level_of[at as usize] as usize > level {
            at = self.up[at as usize];
        }
        (at != NONE && self.level_of[at as usize] as usize == level).then_some(NodeId(at))
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
        let mut at = id.0;
        while at != NONE {
            if mask.is_off(NodeId(at)) {
                return false;
            }
            at = self.up[at as usize];
        }
        !mask.hoists().iter().any(|h| {
            h.node != id
                && self.contains(h.node, id)
                && !(h.to.first.0 <= id.0 && id.0 < self.subtree_end[h.to.last.index()])
                && h.to.head.is_none_or(|head| id.0 >= self.subtree_end[head.index()])
        }) && !mask.swaps().iter().any(|s| s.node != id && self.contains(s.node, id))
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

/// A hoistable node and its targets: first those that hoist a part of it,
/// then those that rewrite it.
#[derive(Clone, Debug)]
struct Hoistable {
    node: NodeId,
    /// Its range in the targets.
    targets: std::ops::Range<u32>,
    /// How many of them hoist a part of it (the first ones).
    plain: u32,
}

/// Every hoistable node with its targets: its nearest descendants that are
/// of a kind hoisting moves, fit its place, are not empty and not kept by a rule;
/// and, in a place that holds a list, when they are two or more siblings
/// with nothing else named between them, the run from the first to the last.
/// A node's targets are in order of size, the run last; then those that
/// rewrite it: an expression made a statement (see [`statement_targets`]),
/// a splice (see [`splice_targets`]).
fn hoist_targets(tree: &Tree) -> (Vec<Hoistable>, Vec<Target>) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::Hoist;
    use std::collections::HashSet;
    use std::sync::Arc;

    /// The words of the leaves (not numbers, a comment's too), the same
    /// spelling the same number, each with the unit it is in.
    #[test]
    fn words_are_the_leaves_names_and_know_their_holder() {
        let src = "int x1 = 0x1f + x1; /* ONE two */\nint y;\n";
        let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
        let tree = fe.parse(Arc::from(src.as_bytes()));
        let units = Units::new(&tree).with_words(&tree);
        let &[first, comment, second] = units.level(0) else { panic!("{:?}", units.level(0)) };
        let mask = Mask::new(tree.len());
        let holders = HashMap::from([(first, 0), (second, 1)]);
        let words = units.words_in(&mask, &holders);
        // int x1 x1 | ONE two | int y
        let ids: Vec<u32> = words.iter().map(|&(w, _)| w).collect();
        assert_eq!(ids.len(), 7, "{words:?}");
        assert_eq!((ids[0], ids[1]), (ids[5], ids[2]), "int and x1 twice: {words:?}");
        assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 5, "{words:?}");
        let held: Vec<Option<usize>> = words.iter().map(|&(_, h)| h).collect();
        assert_eq!(held, [Some(0), Some(0), Some(0), None, None, Some(1), Some(1)]);
        // what a mask switches off is not counted
        let fewer = units.words_in(&mask.with_off(&[comment, second]), &holders);
        assert_eq!(fewer, words[..3]);
    }

    /// The hoist targets of every hoistable node of a snippet, as texts.
    fn targets(lang: &str, src: &str) -> Vec<(String, Vec<String>)> {
        let fe = crate::language::by_name(lang).expect("lang").frontend().expect("front-end");
        let tree = fe.parse(Arc::from(src.as_bytes()));
        let units = Units::new(&tree);
        let text = |a: NodeId, b: NodeId| {
            let (a, b) = (tree.node(a), tree.node(b));
            String::from_utf8_lossy(&src.as_bytes()[a.start as usize..b.end as usize]).into_owned()
        };
        (0..units.hoistable_count())
            .map(|i| {
                let (n, ts) = units.hoistable(i).expect("hoistable");
                let target = |t: &Target| {
                    let head = t.head.map(|h| text(n, h) + " ").unwrap_or_default();
                    head + &text(t.first, t.last)
                };
                (text(n, n), ts.iter().map(target).collect())
            })
            .collect()
    }

    #[test]
    fn hoist_targets_fit_the_place_of_the_node() {
        let t = targets("c", "void f(void) { if (x) { a(); b(); } g(h(1), 2); }");
        let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        // a statement by the statement inside it; never by its condition
        assert_eq!(of("if (x) { a(); b(); }"), Some(vec!["{ a(); b(); }".to_string()]));
        // the block of an `if` by one statement (its place holds only one)
        assert_eq!(of("{ a(); b(); }"), Some(vec!["a();".into(), "b();".into()]));
        // a call by its arguments, not by the called function (kept by a rule)
        assert_eq!(of("h(1)"), Some(vec!["1".to_string()]));
        // smallest first
        assert_eq!(of("g(h(1), 2)"), Some(vec!["2".to_string(), "h(1)".into()]));
        // the function body only by the block inside it: none here
        assert!(of("{ if (x) { a(); b(); } g(h(1), 2); }").is_none());
        // a name kept in its place by a rule may take the place around it
        let t = targets("c", "int f(struct s *p) { return p->n + a[1]; }");
        let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        assert_eq!(of("p->n"), Some(vec!["p".to_string()]));
        assert_eq!(of("a[1]"), Some(vec!["a".to_string(), "1".into()]));
    }

    #[test]
    fn a_declaration_or_statement_may_become_an_expression_inside_it() {
        let t = targets(
            "c",
            "int f(int *d) { int *ay = x + *d, b = 1; int *ay = x + *d; return g(ay); { h(1); } }",
        );
        let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        // with its own `;`; never a leaf (`ay;`), nor one with more after it
        assert_eq!(of("int *ay = x + *d, b = 1;"), None);
        assert_eq!(of("int *ay = x + *d;"), Some(vec!["x + *d;".to_string()]));
        assert_eq!(of("return g(ay);"), Some(vec!["g(ay);".to_string()]));
        // an expression statement is one already; a block ends in no `;`
        assert_eq!(of("h(1);"), None);
        assert_eq!(of("{ h(1); }"), Some(vec!["h(1);".to_string()]));
    }

    #[test]
    fn an_if_with_an_else_may_keep_its_condition_and_take_the_else() {
        for lang in ["c", "cpp", "js"] {
            let t = targets(lang, "void f() { if (c) ; else for (;;) { g(); } }");
            let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
            let want = [";", "for (;;) { g(); }", "if (c) for (;;) { g(); }"];
            assert_eq!(
                of("if (c) ; else for (;;) { g(); }"),
                Some(want.map(String::from).to_vec()),
                "{lang}"
            );
        }
        // and the unparser keeps the beginning and the target
        let src = "void f() {\n  if (c) ;\n  else for (;;) { g(); }\n}\n";
        let fe = crate::language::by_name("c").expect("lang").frontend().expect("front-end");
        let tree = fe.parse(Arc::from(src.as_bytes()));
        let units = Units::new(&tree);
        let (node, to) = (0..units.hoistable_count())
            .filter_map(|i| units.hoistable(i))
            .find_map(|(n, ts)| ts.iter().find(|t| t.head.is_some()).map(|&t| (n, t)))
            .expect("a splice");
        let mut out = Vec::new();
        crate::syntax::Unparser::new().unparse(
            &tree,
            &Mask::new(tree.len()).with_hoist(Hoist { node, to }),
            &mut out,
        );
        assert_eq!(String::from_utf8_lossy(&out), "void f() {\n  if (c) for (;;) { g(); }\n}\n");
    }

    #[test]
    fn a_chain_of_single_targets_offers_its_end_first() {
        let t = targets("json", "[[[[1]]], 2]");
        let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        // the chain [[[1]]] -> [[1]] -> [1] -> 1: its end first, then the
        // direct target
        assert_eq!(of("[[[1]]]"), Some(vec!["1".to_string(), "[[1]]".into()]));
        assert_eq!(of("[1]"), Some(vec!["1".to_string()]));
    }

    #[test]
    fn a_block_in_a_block_unwraps_into_its_statements() {
        let t = targets("c", "void f(void) { { a(); int i; l: b(); } }");
        let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        assert_eq!(
            of("{ a(); int i; l: b(); }"),
            Some(vec![
                "a();".into(),
                "int i;".into(),
                "l: b();".into(),
                "a(); int i; l: b();".into()
            ])
        );
    }

    #[test]
    fn a_leaf_target_stands_where_its_node_could_stand() {
        // not a parameter's name, an object's key or an assignment's target:
        // they are names there, not values, though a value is their kind
        let t = targets("js", "x = {k: function(p) { return y; }, 'q': a.b};");
        let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        assert_eq!(
            of("{k: function(p) { return y; }, 'q': a.b}"),
            Some(vec!["a.b".to_string(), "function(p) { return y; }".into()])
        );
        assert_eq!(of("function(p) { return y; }"), None);
        assert_eq!(
            of("x = {k: function(p) { return y; }, 'q': a.b}"),
            Some(vec!["{k: function(p) { return y; }, 'q': a.b}".to_string()])
        );
        assert_eq!(of("a.b"), Some(vec!["a".to_string()]));
        // a target with more inside may stand in a place of its own: a class
        // by the body of its method
        let t = targets("js", "class A { m() { s(); } }");
        let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        assert_eq!(of("class A { m() { s(); } }"), Some(vec!["{ s(); }".to_string()]));
    }

    #[test]
    fn a_run_of_targets_needs_them_to_be_siblings() {
        // an object in an array: its values are values, but they are not
        // siblings, so the object never unwraps into 1, 2
        let t = targets("json", r#"[{"a": 1, "b": 2}, [3, 4]]"#);
        let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        assert_eq!(of(r#"{"a": 1, "b": 2}"#), Some(vec!["1".to_string(), "2".into()]));
        // an array in an array does unwrap
        assert_eq!(of("[3, 4]"), Some(vec!["3".to_string(), "4".into(), "3, 4".into()]));
    }
    #[test]
    fn cpp_namespaces_and_linkages_unwrap_into_their_declarations() {
        let src = "namespace n { struct S { void h() {} }; int a; }\n\
                   extern \"C\" { int b; }\n\
                   template <class T> T g(T x) { return x; }";
        let t = targets("cpp", src);
        let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        // a namespace by one of its declarations, or by all of them; never by
        // a member of a class inside it
        let ns = of("namespace n { struct S { void h() {} }; int a; }").expect("namespace");
        assert_eq!(ns[0], "int a;");
        assert_eq!(ns.last().map(String::as_str), Some("struct S { void h() {} }; int a;"));
        assert!(!ns.iter().any(|t| t == "void h() {}"), "{ns:?}");
        // a class at namespace level by a member function (its `;` stays)
        assert_eq!(of("struct S { void h() {} }"), Some(vec!["void h() {}".to_string()]));
        assert_eq!(of("extern \"C\" { int b; }"), Some(vec!["int b;".to_string()]));
        // what a template declares is kept: the template is never replaced by it
        assert_eq!(of("template <class T> T g(T x) { return x; }"), None);
    }

    /// The units of a small C file at level 0: a typedef, two functions
    /// (the second calls the first) and one that uses nothing.
    fn chain() -> (Tree, Units) {
        let src = "typedef int T;\nT f(void) { return 1; }\nT g(void) { return f(); }\n\
                   int keep(void) { return 0; }\n";
        let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
        let tree = fe.parse(Arc::from(src.as_bytes()));
        let units = Units::new(&tree).with_uses(&tree);
        (tree, units)
    }

    #[test]
    fn users_are_the_units_that_use_a_name_a_unit_declares() {
        let (tree, units) = chain();
        let mask = Mask::new(tree.len());
        let items = units.ordered(0, &mask, Order::Backward);
        let text = |u: NodeId| String::from_utf8_lossy(tree.text(u)).into_owned();
        let names: Vec<String> = items.iter().map(|&u| text(u)).collect();
        assert!(names[0].starts_with("int keep") && names[3].starts_with("typedef"), "{names:?}");
        // keep and g are used by nothing; g uses f; f and g use T
        let users = units.users(0, &items, &mask);
        assert_eq!(users, [Some(vec![]), Some(vec![]), Some(vec![1]), Some(vec![1, 2])]);
        // without g among the units, nothing at this level takes g's uses
        // with f or T
        let some = [items[0], items[2], items[3]];
        assert_eq!(units.users(0, &some, &mask), [Some(vec![]), None, None]);
        // a view without uses knows no users
        assert!(Units::new(&tree).users(0, &items, &mask).is_empty());
    }
}
