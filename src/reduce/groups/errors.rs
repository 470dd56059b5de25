//! Groups of what a parser's recovery split: each syntax error with the
//! nodes after it, and a node with the token that goes with it (`public`
//! and its `:`).

use super::{shortens, siblings_after, Group, FILE};
use crate::syntax::tree::{flags, NodeId, Tree};
use crate::syntax::{Swap, Text};

/// Each syntax error node with the sibling right after it, and with the
/// two after it; each node the parser completed with a missing token, the
/// same way; and each two adjacent children of an error node. A parser's
/// error recovery often splits one construct it does not know into an
/// error and a well-formed rest: tree-sitter-cpp reads libstdc++'s
/// `namespace std __attribute__ ((...)) { ... }` as an error node and a
/// block, and without the name (`namespace __attribute__ ((...)) { }`) as
/// an error, a parenthesized expression statement and a block. None may go
/// alone (the block alone is not C++ at file scope, the error alone
/// swallows what follows), so once the block is emptied they must go
/// together. Inside the error, the attribute's name and its parentheses go
/// together or not at all; and where the recovery ended a statement with a
/// missing `;` (`((__visibility__ ()))` before a block, which g++ reads as
/// a function in a system header), that statement and the block go
/// together.
pub(super) fn error_groups(tree: &Tree) -> Vec<Group> {
    if tree.error_count() == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, n) in tree.nodes().iter().enumerate() {
        let id = NodeId(i as u32);
        if n.parent == FILE || !shortens(tree, id) {
            continue;
        }
        if n.has(flags::ERROR) {
            let inside: Vec<NodeId> = tree.children(id).filter(|&c| shortens(tree, c)).collect();
            for pair in inside.windows(2) {
                out.push(Group { decls: vec![pair[0]], off: pair.to_vec(), swaps: Vec::new() });
            }
        } else if !tree.children(id).any(|c| tree.node(c).has(flags::MISSING)) {
            continue;
        }
        let mut off = vec![id];
        for next in siblings_after(tree, id).take(2) {
            if !shortens(tree, next) {
                break;
            }
            off.push(next);
            out.push(Group { decls: vec![id], off: off.clone(), swaps: Vec::new() });
        }
    }
    out
}

/// Each node of a kind that goes with the token right after it (grammar
/// data `with_next_token`), with that token: tree-sitter-cpp's `public`
/// and its `:` are siblings, and neither may go alone.
pub(super) fn with_next_token(tree: &Tree) -> Vec<Group> {
    if !tree.policy().has_next_token_kinds() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, n) in tree.nodes().iter().enumerate() {
        let id = NodeId(i as u32);
        if !tree.policy().kind(n.kind).with_next_token || n.parent == FILE {
            continue;
        }
        let Some(token) = siblings_after(tree, id).next() else { continue };
        let t = tree.node(token);
        if t.has(flags::NAMED) || t.is_empty() || !shortens(tree, id) {
            continue;
        }
        // the token is the syntax itself, never switched off: written as nothing
        let swaps = vec![Swap { node: token, with: Text::Nothing }];
        out.push(Group { decls: vec![id], off: vec![id], swaps });
    }
    out
}
