//! The arena parse tree every front-end produces and every pass works on.
//!
//! A [`Tree`] owns the original bytes and a `Vec<Node>` in preorder: a node's
//! descendants are exactly the ids `id + 1 .. subtree_end`, so children and
//! subtrees need no pointer lists and "skip this subtree" is one jump. Nodes hold
//! byte spans into the original, never strings of their own.
//!
//! Invariants (checked by `debug_assert`s in [`TreeBuilder`] and by tests):
//! - ids are preorder, node 0 is the root, spans nest (a child lies inside its parent);
//! - `lead <= start <= end`, and `lead` never reaches back past the previous
//!   sibling's end or the parent's start, so the cut spans of any two nodes are
//!   either nested or disjoint (the unparser relies on this);
//! - the bytes outside the root's span, and between nodes, are kept verbatim.

use std::fmt;
use std::sync::Arc;

use super::policy::{KindPolicy, Policy, SlotInfo};

/// The `parent` of a root: no node.
pub(crate) const NO_PARENT: u32 = u32::MAX;

/// Index of a node in its [`Tree`]; ids are assigned in preorder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What switching a node off does to the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// The node cannot change: switching it off is never proposed.
    Keep,
    /// The node and its leading whitespace disappear.
    Delete,
    /// The node's text is replaced by `Tree::replacement(index)`.
    Replace(u16),
}

/// Per-node flags.
pub(crate) mod flags {
    /// A named node (as opposed to an anonymous token such as `;`).
    pub(crate) const NAMED: u8 = 1;
    /// An "extra" such as a comment, allowed anywhere by the grammar.
    pub(crate) const EXTRA: u8 = 1 << 1;
    /// A syntax error node made by the parser's error recovery.
    pub(crate) const ERROR: u8 = 1 << 2;
    /// A zero-width token the parser inserted to recover from an error.
    pub(crate) const MISSING: u8 = 1 << 3;
    /// A separated list (e.g. an argument list): its separators follow its elements.
    pub(crate) const LIST: u8 = 1 << 4;
    /// An element of the parent [`LIST`].
    pub(crate) const ELEMENT: u8 = 1 << 5;
    /// A separator token of the parent [`LIST`].
    pub(crate) const SEPARATOR: u8 = 1 << 6;
    /// Kept by a rule of the grammar data: never switched off, never hoisted
    /// out of its place (it may itself be replaced by what is inside it).
    pub(crate) const KEPT: u8 = 1 << 7;
}

/// Per-node roles in naming and coordinated deletion (see [`Node::role`]).
pub(crate) mod roles {
    /// The child of a declaration that holds the name it declares (the
    /// field grammar data `declare` names, e.g. C's `declarator`).
    pub(crate) const NAME_PLACE: u8 = 1;
    /// Replaced only by coordinated deletion, as a use of a name whose
    /// declaration goes in the same candidate: by a minimal form exactly as
    /// long as the node (`x` by `0`, which alone would change the text
    /// without shortening it), or by one of grammar data `group_replace`
    /// (a type name by `int`). Never a unit of the other searches.
    pub(crate) const GROUPED: u8 = 1 << 1;
    /// The child of a node hoisting may splice up to which the node's
    /// beginning stays (grammar data `[[splice]]`: an `if`'s condition).
    pub(crate) const HEAD: u8 = 1 << 2;
    /// The child of such a node whose statement may take the rest's place
    /// (an `if`'s `else`).
    pub(crate) const TAIL: u8 = 1 << 3;
    /// The child of a declaration whose text may stand for the name at its
    /// uses (grammar data `[[declare]] inline`: a typedef's type).
    pub(crate) const INLINE: u8 = 1 << 4;
    /// The return type of a function's definition or declaration (grammar
    /// data `[functions]`).
    pub(crate) const TYPE: u8 = 1 << 5;
    /// Deleted together with the token right before it, a sibling (grammar
    /// data `[[with_token_before]]`: Rust's return type and its `->`).
    pub(crate) const WITH_TOKEN_BEFORE: u8 = 1 << 6;
}

/// One node of the arena: a kind, a byte span and what may happen to it.
#[derive(Clone, Debug)]
pub struct Node {
    pub kind: u16,
    pub flags: u8,
    /// 1 if the node's kind is one hoisting moves (grammar data `hoist`).
    pub member: u8,
    /// Bits of [`roles`].
    pub role: u8,
    /// The place the node stands in (an index into [`Policy::slots`]; 0 when
    /// nothing is known about it): which kinds could stand there instead.
    pub slot: u16,
    pub action: Action,
    /// The parent's id, [`NO_PARENT`] for the root.
    pub parent: u32,
    /// Start of the whitespace that precedes the node and goes with it when deleted.
    pub lead: u32,
    pub start: u32,
    pub end: u32,
    /// One past the id of the last descendant.
    pub subtree_end: u32,
}

impl Node {
    pub fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }

    pub fn len(&self) -> usize {
        (self.end - self.start) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// A parsed input: the original bytes and the arena of nodes over them.
#[derive(Clone)]
pub struct Tree {
    src: Arc<[u8]>,
    nodes: Vec<Node>,
    policy: Arc<Policy>,
    errors: usize,
}

/// One unit of a [`Tree::flat`] view: its kind, byte span and action.
#[derive(Clone, Copy, Debug)]
pub struct FlatUnit {
    pub kind: u16,
    pub start: usize,
    pub end: usize,
    pub action: Action,
}

impl Tree {
    /// A view over `src` whose units stand side by side under one root of
    /// kind 0, each switched off by its own action: the views of passes
    /// whose changes are not the language's own (the layout pass's
    /// whitespace, the renaming pass's names). Its cuts are exact bytes
    /// (`tokens: false`): the unparser neither spaces nor tidies around
    /// them. `units` are in source order, none inside another.
    pub fn flat(
        src: Arc<[u8]>,
        kinds: Vec<Box<str>>,
        replacements: Vec<Box<[u8]>>,
        units: impl IntoIterator<Item = FlatUnit>,
    ) -> Tree {
        let len = src.len();
        let mut b = TreeBuilder::new(src);
        b.open(0, flags::NAMED, 0, len);
        for u in units {
            let id = b.open(u.kind, flags::NAMED, u.start, u.end);
            b.node_mut(id).action = u.action;
            b.close();
        }
        b.close();
        let kinds = kinds.into_iter().map(KindPolicy::named).collect();
        b.finish(Arc::new(Policy { kinds, replacements, tokens: false, ..Policy::default() }))
    }

    /// A tree from nodes already laid out (preorder, leads computed); for
    /// [`forest`](super::forest), which splices finished trees.
    pub(crate) fn from_parts(
        src: Arc<[u8]>,
        nodes: Vec<Node>,
        policy: Arc<Policy>,
        errors: usize,
    ) -> Tree {
        Tree { src, nodes, policy, errors }
    }

    pub fn src(&self) -> &[u8] {
        &self.src
    }

    /// Makes node `id` one that no search switches off (see
    /// [`ends::keep`](super::ends::keep)).
    pub(crate) fn keep(&mut self, id: NodeId) {
        self.nodes[id.index()].action = Action::Keep;
    }

    /// The original bytes, shared.
    pub fn src_arc(&self) -> Arc<[u8]> {
        self.src.clone()
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub fn kind_name(&self, kind: u16) -> &str {
        self.policy.kind_name(kind)
    }

    /// The text a node with `Action::Replace(index)` is replaced by.
    pub fn replacement(&self, index: u16) -> &[u8] {
        &self.policy.replacements[index as usize]
    }

    /// The language's rules, shared by every tree of it.
    pub fn policy(&self) -> &Arc<Policy> {
        &self.policy
    }

    /// What may stand in a node's place.
    pub fn slot(&self, id: NodeId) -> &SlotInfo {
        &self.policy.slots[self.node(id).slot as usize]
    }

    /// Syntax errors (error and missing nodes) the parser reported.
    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// The original bytes of a node.
    pub fn text(&self, id: NodeId) -> &[u8] {
        let n = self.node(id);
        &self.src[n.start as usize..n.end as usize]
    }

    /// Whether node `id` (a `parent` index: `NO_PARENT` for none) is a call
    /// (grammar data `calls`).
    pub fn is_call(&self, id: u32) -> bool {
        id != NO_PARENT && self.policy.kind(self.nodes[id as usize].kind).call
    }

    /// The children of `id`, in order.
    pub fn children(&self, id: NodeId) -> Children<'_> {
        Children { tree: self, next: id.0 + 1, end: self.node(id).subtree_end }
    }
}

impl fmt::Debug for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tree")
            .field("bytes", &self.src.len())
            .field("nodes", &self.nodes.len())
            .field("errors", &self.errors)
            .finish()
    }
}

/// Iterator over the children of a node.
#[derive(Debug)]
pub struct Children<'t> {
    tree: &'t Tree,
    next: u32,
    end: u32,
}

impl Iterator for Children<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        if self.next >= self.end {
            return None;
        }
        let id = NodeId(self.next);
        self.next = self.tree.node(id).subtree_end;
        Some(id)
    }
}

/// Builds a [`Tree`] in preorder: `open` a node, add its children, `close` it.
#[derive(Debug)]
pub(crate) struct TreeBuilder {
    src: Arc<[u8]>,
    nodes: Vec<Node>,
    open: Vec<u32>,
    errors: usize,
    /// Whether closing a node keeps its descendants (see [`TreeBuilder::counting`]).
    keep: bool,
}

impl TreeBuilder {
    pub(crate) fn new(src: Arc<[u8]>) -> TreeBuilder {
        TreeBuilder { src, nodes: Vec::new(), open: Vec::new(), errors: 0, keep: true }
    }

    /// A builder that forgets a node's descendants when it closes, holding
    /// only the open nodes and their earlier children: for a front-end that
    /// counts syntax errors (the syntax guard) without the memory of the
    /// tree. Only nodes still open, and the last one added, may be looked
    /// at; the tree it finishes is not one to reduce.
    pub(crate) fn counting(src: Arc<[u8]>) -> TreeBuilder {
        TreeBuilder { keep: false, ..TreeBuilder::new(src) }
    }

    /// Opens a child of the innermost open node (or the root) and returns its id.
    pub(crate) fn open(&mut self, kind: u16, flags: u8, start: usize, end: usize) -> NodeId {
        let id = self.nodes.len() as u32;
        let parent = self.open.last().copied().unwrap_or(NO_PARENT);
        debug_assert!(start <= end && end <= self.src.len());
        if let Some(p) = self.nodes.get(parent as usize) {
            debug_assert!(
                p.start as usize <= start && end <= p.end as usize,
                "child outside parent"
            );
        }
        if flags & (flags::ERROR | flags::MISSING) != 0 {
            self.errors += 1;
        }
        self.nodes.push(Node {
            kind,
            flags,
            member: 0,
            role: 0,
            slot: 0,
            action: Action::Keep,
            parent,
            lead: start as u32,
            start: start as u32,
            end: end as u32,
            subtree_end: id + 1,
        });
        self.open.push(id);
        NodeId(id)
    }

    /// Closes the innermost open node.
    pub(crate) fn close(&mut self) {
        let id = self.open.pop().expect("close without open");
        if !self.keep {
            self.nodes.truncate(id as usize + 1);
        }
        self.nodes[id as usize].subtree_end = self.nodes.len() as u32;
    }

    /// The innermost open node.
    pub(crate) fn current(&self) -> Option<NodeId> {
        self.open.last().map(|&i| NodeId(i))
    }

    pub(crate) fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    pub(crate) fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// Sets the syntax error count, for front-ends that count errors the tree
    /// does not hold as nodes (inside atomic nodes, say).
    pub(crate) fn set_error_count(&mut self, errors: usize) {
        self.errors = errors;
    }

    /// Finishes the tree: computes each node's leading whitespace.
    pub(crate) fn finish(mut self, policy: Arc<Policy>) -> Tree {
        while !self.open.is_empty() {
            self.close();
        }
        compute_leads(&self.src, &mut self.nodes);
        // the nodes were pushed one by one: up to twice their size is
        // reserved, for as long as the tree lives
        self.nodes.shrink_to_fit();
        Tree { src: self.src, nodes: self.nodes, policy, errors: self.errors }
    }
}

/// Whether `src[at]` is a backslash that continues its line (`\\` then a
/// line break).
pub(crate) fn continues(src: &[u8], at: usize) -> bool {
    src[at] == b'\\' && matches!(&src[at + 1..], [b'\n', ..] | [b'\r', b'\n', ..])
}

/// Sets `lead` to the start of the whitespace run before each node (line
/// continuations included), bounded by the end of its previous sibling (or
/// the start of its parent).
fn compute_leads(src: &[u8], nodes: &mut [Node]) {
    // bound[i]: where node i's leading whitespace may begin
    let mut bound = vec![0u32; nodes.len()];
    for i in 0..nodes.len() {
        let (start, subtree_end) = (nodes[i].start, nodes[i].subtree_end);
        // the first child starts its search at this node's start; each later
        // child at the previous sibling's end
        let mut child = i as u32 + 1;
        let mut limit = start;
        while child < subtree_end {
            bound[child as usize] = limit;
            limit = limit.max(nodes[child as usize].end);
            child = nodes[child as usize].subtree_end;
        }
    }
    for (i, n) in nodes.iter_mut().enumerate() {
        let lo = if n.parent == NO_PARENT { 0 } else { bound[i] };
        let mut lead = n.start;
        while lead > lo {
            let at = lead as usize;
            // a backslash that continues a line (a macro body's) is
            // whitespace too: a deleted line takes its own, never leaving
            // one that would continue the line before onto the next
            if src[at - 1].is_ascii_whitespace() || (lead < n.start && continues(src, at - 1)) {
                lead -= 1;
            } else {
                break;
            }
        }
        n.lead = lead;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arena is most of the memory a reduction needs beside the input
    /// (a JSON input has a node every 4.5 bytes): a node that grows grows
    /// every run's peak (see BENCHMARKS.md, "Memory against input size").
    #[test]
    fn a_node_takes_at_most_32_bytes() {
        assert!(std::mem::size_of::<Node>() <= 32, "{} bytes", std::mem::size_of::<Node>());
        assert!(std::mem::size_of::<Action>() <= 4);
    }
}
