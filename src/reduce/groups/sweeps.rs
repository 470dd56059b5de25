//! Groups that change a whole text's tokens of a kind at once: a sweep's
//! tokens (JavaScript's `;`), and two namespaces side by side made one.

use super::{Group, FILE};
use crate::syntax::policy::Swept;
use crate::syntax::tree::{NodeId, Tree};
use crate::syntax::{Swap, Text};

/// One group per swept token kind (grammar data `[sweep]`): every token of
/// it that ends a node of a kind it may end (JavaScript's `;` of each
/// statement), when there are two or more.
pub(crate) fn swept(tree: &Tree) -> Vec<Group> {
    let policy = tree.policy();
    if policy.kinds.iter().all(|k| k.swept == Swept::No) {
        return Vec::new();
    }
    let part = |kind: u16| policy.kind(kind).swept;
    let mut by_kind: Vec<(u16, Vec<NodeId>)> = Vec::new();
    for (i, n) in tree.nodes().iter().enumerate() {
        let id = NodeId(i as u32);
        if part(n.kind) != Swept::Token || n.parent == FILE {
            continue;
        }
        let parent = NodeId(n.parent);
        if part(tree.node(parent).kind) != Swept::Ends || tree.children(parent).last() != Some(id) {
            continue;
        }
        match by_kind.iter_mut().find(|(k, _)| *k == n.kind) {
            Some((_, ids)) => ids.push(id),
            None => by_kind.push((n.kind, vec![id])),
        }
    }
    // the tokens are kept nodes, which only a swap to nothing takes away
    let group = |ids: Vec<NodeId>| Group {
        decls: vec![ids[0]],
        off: Vec::new(),
        swaps: ids.into_iter().map(|node| Swap { node, with: Text::Nothing }).collect(),
    };
    by_kind.into_iter().filter(|(_, ids)| ids.len() > 1).map(|(_, ids)| group(ids)).collect()
}

/// Each two namespaces side by side (grammar data `namespaces`), alike up
/// to their bodies, made one: the first's closing bracket and the second's
/// beginning up to its opening bracket written as nothing (`namespace n { A }\nnamespace n { B }` to
/// `namespace n { A \n B }`).
pub(super) fn merges(tree: &Tree) -> Vec<Group> {
    let policy = tree.policy();
    if !policy.kinds.iter().any(|k| k.namespace) {
        return Vec::new();
    }
    let mergeable = |id: NodeId| policy.kind(tree.node(id).kind).namespace;
    // the children before the body, and the body's brackets
    let parts = |id: NodeId| {
        let children: Vec<NodeId> = tree.children(id).collect();
        let (&body, head) = children.split_last()?;
        let open = tree.children(body).next()?;
        let close = tree.children(body).last()?;
        let leaf = |t: NodeId| tree.node(t).subtree_end == t.0 + 1;
        (leaf(open) && leaf(close) && open != close).then(|| (head.to_vec(), open, close))
    };
    let mut out = Vec::new();
    for (i, n) in tree.nodes().iter().enumerate() {
        if n.subtree_end == i as u32 + 1 {
            continue;
        }
        let children: Vec<NodeId> = tree.children(NodeId(i as u32)).collect();
        for pair in children.windows(2) {
            let [a, b] = [pair[0], pair[1]];
            if !mergeable(a) || tree.node(a).kind != tree.node(b).kind {
                continue;
            }
            let (Some((head_a, _, close)), Some((head_b, open, _))) = (parts(a), parts(b)) else {
                continue;
            };
            let texts = |h: &[NodeId]| h.iter().map(|&t| tree.text(t)).collect::<Vec<_>>();
            if texts(&head_a) != texts(&head_b) {
                continue;
            }
            let nothing = |node| Swap { node, with: Text::Nothing };
            let swaps = std::iter::once(close).chain(head_b).chain([open]).map(nothing).collect();
            out.push(Group { decls: vec![a, b], off: Vec::new(), swaps });
        }
    }
    out
}
