//! The tokens the token pass keeps: each token that ends a node of a kind
//! whose end the language keeps (grammar data `kept_ends`), found in the
//! language's parse and kept in the plain-text view of the same text.
//!
//! The token pass deletes words and punctuation as plain text, under the
//! syntax guard alone, which lets a candidate have as many syntax errors as
//! the input had. A result of an input with errors to spare then loses
//! tokens that no pass of the tree deletes alone, where the compiler only
//! warns: a struct's last member without its `;` (gcc's "no semicolon at
//! end of struct or union"), which changes what the test sees and reads
//! wrong. A node's ending token is its last child when that is a token of
//! its own (a member's `;`), else the token right after it in its parent
//! (the `;` after a struct that declares nothing).
//!
//! A line of the text view still goes whole, its kept tokens with it: a
//! line holds the whole node more often than not, and what it breaks
//! otherwise the syntax guard and the test judge as before.

use super::tree::{flags, Node, NodeId, Tree};

/// Keeps each leaf of `text`, the plain-text view of `language`'s text,
/// that is a token ending a node of a `kept_end` kind of `language`.
pub(crate) fn keep(text: &mut Tree, language: &Tree) {
    debug_assert_eq!(text.src(), language.src(), "two views of one text");
    let mut spans = ending_tokens(language);
    if spans.is_empty() {
        return;
    }
    spans.sort_unstable();
    let leaves: Vec<NodeId> = (0..text.len() as u32)
        .map(NodeId)
        .filter(|&id| {
            let n = text.node(id);
            n.subtree_end == id.0 + 1 && spans.binary_search(&(n.start, n.end)).is_ok()
        })
        .collect();
    for id in leaves {
        text.keep(id);
    }
}

/// The spans of the tokens that end a node of a `kept_end` kind.
fn ending_tokens(tree: &Tree) -> Vec<(u32, u32)> {
    let nodes = tree.nodes();
    let policy = tree.policy();
    // a token of the grammar's own: a leaf with text that names nothing
    let token = |id: u32| {
        let n: &Node = &nodes[id as usize];
        n.subtree_end == id + 1 && !n.is_empty() && !n.has(flags::NAMED)
    };
    let mut out = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        if !policy.kind(n.kind).kept_end || n.subtree_end == i as u32 + 1 {
            continue;
        }
        let last = tree.children(NodeId(i as u32)).last().map(|c| c.0);
        // in preorder, the node right after the subtree is the next
        // sibling when it has the same parent
        let next = n.subtree_end;
        let after =
            (next < nodes.len() as u32 && nodes[next as usize].parent == n.parent).then_some(next);
        let end = match last {
            Some(l) if token(l) => Some(l),
            _ => after.filter(|&a| token(a)),
        };
        if let Some(e) = end {
            out.push((nodes[e as usize].start, nodes[e as usize].end));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::tree::Action;
    use std::sync::Arc;

    /// The offsets and texts of the leaves of `src`'s plain-text view that
    /// `keep` keeps, by `lang`'s parse.
    fn kept(lang: &str, src: &str) -> Vec<(u32, String)> {
        let parse = |name: &str| {
            let fe = crate::language::by_name(name).expect("language").frontend().expect("fe");
            fe.parse(Arc::from(src.as_bytes()))
        };
        let language = parse(lang);
        let mut text = parse("text");
        let before: Vec<Action> = text.nodes().iter().map(|n| n.action).collect();
        keep(&mut text, &language);
        let changed = text.nodes().iter().zip(before).filter(|(n, a)| n.action != *a);
        changed.map(|(n, _)| (n.start, src[n.start as usize..n.end as usize].to_string())).collect()
    }

    #[test]
    fn a_members_and_a_bare_structs_semicolons_are_kept_and_no_other() {
        // not the `;` of a declaration (`} u;`) or of a statement
        let src = "struct S { int a; int b, c; };\nunion U { int a; } u;\nenum E { A };\nint f(void) { struct T { int x; }; return 0; }\n";
        let got = kept("c", src);
        let at: Vec<u32> = got.iter().map(|(at, _)| *at).collect();
        assert_eq!(at, [16, 26, 29, 46, 65, 97, 100], "{got:?}");
        assert!(got.iter().all(|(_, t)| t == ";"), "{got:?}");
    }

    #[test]
    fn a_language_without_kept_ends_keeps_nothing() {
        assert!(kept("js", "class A { a; }\nlet b = 1;\n").is_empty());
    }
}
