//! What each top-level item of a tree uses of the others, by name: the
//! graph the dependency-aware cuts search over (see
//! [`Closures`](crate::reduce::closures::Closures)).
//!
//! An item uses another when a name token inside it resolves to a
//! declaration inside the other (by the same scope rules as coordinated
//! deletion), or, for a name the file declares nowhere it can see from the
//! use (a member's name, a name the scope rules cannot follow), when the
//! other declares a file-scope name of that text. The second rule may see
//! a use where there is none, which only keeps more; a use the graph
//! misses makes a candidate fail its test, never a wrong result.

use std::collections::HashMap;

use super::names::{resolved, Resolved};
use super::FILE;
use crate::syntax::tree::{NodeId, Tree};

/// The items each item uses, directly, as indices into `items` (top-level
/// nodes in preorder, none inside another); `None` for a language without
/// names.
pub(crate) fn dependencies(tree: &Tree, items: &[NodeId]) -> Option<Vec<Vec<usize>>> {
    let Resolved { decls, members, uses, undeclared, .. } = resolved(tree)?;
    let item_of = |node: NodeId| {
        let i = items.partition_point(|it| it.0 <= node.0).checked_sub(1)?;
        (node.0 < tree.node(items[i]).subtree_end).then_some(i)
    };
    let mut out = vec![Vec::new(); items.len()];
    let mut link = |user: Option<usize>, used: &[usize]| {
        let Some(user) = user else { return };
        out[user].extend(used.iter().copied().filter(|&u| u != user));
    };
    for (group, tokens) in members.iter().zip(&uses) {
        let declaring: Vec<usize> = group.iter().filter_map(|&d| item_of(decls[d].node)).collect();
        // (a prototype's name is no use of the definition)
        let named = |t: &NodeId| group.iter().any(|&d| decls[d].name == *t);
        for token in tokens.iter().filter(|t| !named(t)) {
            link(item_of(*token), &declaring);
        }
    }
    let mut by_text: HashMap<&[u8], Vec<usize>> = HashMap::new();
    // (file-scope names only: a local or a parameter of the same text in
    // another function is no declaration a use elsewhere can reach)
    for decl in decls.iter().filter(|d| d.scope == FILE) {
        if let Some(i) = item_of(decl.node) {
            by_text.entry(tree.text(decl.name)).or_default().push(i);
        }
    }
    for tokens in &undeclared {
        let Some(declaring) = tokens.first().and_then(|&t| by_text.get(tree.text(t))) else {
            continue;
        };
        for &token in tokens {
            link(item_of(token), declaring);
        }
    }
    for used in &mut out {
        used.sort_unstable();
        used.dedup();
    }
    Some(out)
}
