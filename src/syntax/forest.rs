//! Several files as one tree, so that a set of files is reduced jointly by
//! the same machinery as one file.
//!
//! The forest's text is the files' texts joined by [`SEPARATOR`] (a NUL
//! byte, which no reduced file holds: hdd refuses or copies unchanged any
//! file with one). Its tree has a root (`forest`) with one child per file
//! (`file`), and each file's own tree under it, its spans moved by the
//! file's offset and its kinds, slots and replacements renumbered into one
//! merged [`Policy`]. So masks, unparsing, the cache (a hash of all the
//! bytes) and every pass work unchanged, and the first HDD level is the
//! files.
//!
//! The merged policy has the layout rules all the files' languages share,
//! if they do (a C file and its headers), and none otherwise.
//!
//! A file node's action is `Delete`: the file's text goes, the file stays
//! (empty). The separators lie between the file nodes, outside every node,
//! so every candidate keeps them all and [`split`] always gives the files
//! back in order.

use std::sync::Arc;

use super::policy::{KindPolicy, Policy, SlotInfo, ERROR_KIND};
use super::tree::{flags, Action, Node, Tree, NO_PARENT};

/// The name of the forest root's kind.
const FOREST: &str = "forest";

/// The byte between two files' texts.
pub(crate) const SEPARATOR: u8 = 0;

/// The files' texts in a forest's text (always one more than the
/// separators).
pub(crate) fn split(text: &[u8]) -> Vec<&[u8]> {
    text.split(|&b| b == SEPARATOR).collect()
}

/// How deep the root of each file's own tree lies: 0 in a tree of one
/// file, 2 in a forest (under the `forest` root and a `file` node).
pub(crate) fn file_root_depth(tree: &Tree) -> usize {
    // the forest's two kinds come after every language's
    let forest = tree.policy().kinds.len().saturating_sub(2);
    let root = tree.nodes().first();
    match root.is_some_and(|r| r.kind as usize == forest && tree.kind_name(r.kind) == FOREST) {
        true => 2,
        false => 0,
    }
}

/// The forest's text for the files' texts.
pub fn join<T: AsRef<[u8]>>(files: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, f) in files.iter().enumerate() {
        if i > 0 {
            out.push(SEPARATOR);
        }
        out.extend_from_slice(f.as_ref());
    }
    out
}

/// Offsets of one language's numbering in the merged [`Policy`].
#[derive(Clone, Copy)]
struct Offsets {
    kind: u16,
    slot: u16,
    replacement: u16,
}

/// Splices the files' trees (each over its own text) into one tree over
/// their [`join`]ed texts, as the module says.
pub(crate) fn splice(trees: &[Tree]) -> Tree {
    let (policy, offsets) = merged_policy(trees);
    let src = join(&trees.iter().map(|t| t.src()).collect::<Vec<_>>());
    let nodes = spliced_nodes(trees, &offsets, policy.kinds.len() as u16 - 2, src.len());
    let errors = trees.iter().map(Tree::error_count).sum();
    Tree::from_parts(Arc::from(src), nodes, Arc::new(policy), errors)
}

/// The forest's policy: each language's records once, renumbered, then the
/// `forest` and `file` kinds; and where each tree's numbering starts in it.
fn merged_policy(trees: &[Tree]) -> (Policy, Vec<Offsets>) {
    let mut policy = Policy {
        slots: vec![SlotInfo::default()],
        squeeze: true,
        operators_glue: false,
        tokens: true,
        ..Policy::default()
    };
    // languages seen so far (trees of one language share their policy)
    let mut seen: Vec<(*const Policy, Offsets)> = Vec::new();
    let mut offsets = Vec::new();
    // the layout rules every file's language shares, if they all do (C
    // files and their headers); files laid out by different rules have none
    policy.layout = trees.first().and_then(|t| t.policy().layout.clone());
    for tree in trees {
        let one = tree.policy();
        if policy.layout.is_some() && one.layout != policy.layout {
            policy.layout = None;
        }
        if let Some((_, o)) = seen.iter().find(|(p, _)| *p == Arc::as_ptr(one)) {
            offsets.push(*o);
            continue;
        }
        let o = Offsets {
            kind: policy.kinds.len() as u16,
            slot: policy.slots.len() as u16,
            replacement: policy.replacements.len() as u16,
        };
        policy.kinds.extend(one.kinds.iter().map(|k| k.renumbered(o.kind, o.replacement)));
        policy.replacements.extend(one.replacements.iter().cloned());
        policy.slots.extend(one.slots.iter().map(|s| SlotInfo {
            repeated: s.repeated,
            accepts: s.accepts.iter().map(|k| k + o.kind).collect(),
        }));
        for name in &one.fixed_names {
            if !policy.fixed_names.contains(name) {
                policy.fixed_names.push(name.clone());
            }
        }
        // one language's "no" wins: squeezing and tidying only where every
        // language allows it, spaces between operators where any needs them
        policy.squeeze &= one.squeeze;
        policy.token_pass |= one.token_pass;
        policy.operators_glue |= one.operators_glue;
        policy.tokens &= one.tokens;
        seen.push((Arc::as_ptr(one), o));
        offsets.push(o);
    }
    policy.kinds.push(KindPolicy::named(FOREST));
    policy.kinds.push(KindPolicy::named("file"));
    (policy, offsets)
}

/// The forest's nodes: its root (of kind `forest_kind`), then per tree a
/// `file` node over the tree's nodes, moved by the file's offset in the
/// joined text of `len` bytes and renumbered by `offsets`.
fn spliced_nodes(trees: &[Tree], offsets: &[Offsets], forest_kind: u16, len: usize) -> Vec<Node> {
    let total = 1 + trees.len() + trees.iter().map(Tree::len).sum::<usize>();
    let mut nodes = Vec::with_capacity(total);
    let plain = |kind, action, parent, start: usize, end: usize, subtree_end: usize| Node {
        kind,
        flags: flags::NAMED,
        member: 0,
        role: 0,
        slot: 0,
        action,
        parent,
        lead: start as u32,
        start: start as u32,
        end: end as u32,
        subtree_end: subtree_end as u32,
    };
    nodes.push(plain(forest_kind, Action::Keep, NO_PARENT, 0, len, total));
    let mut offset = 0usize;
    for (tree, o) in trees.iter().zip(offsets) {
        let file = nodes.len();
        let end = offset + tree.src().len();
        nodes.push(plain(forest_kind + 1, Action::Delete, 0, offset, end, file + 1 + tree.len()));
        let base = (file + 1) as u32;
        let at = offset as u32;
        nodes.extend(tree.nodes().iter().map(|n| Node {
            kind: if n.kind == ERROR_KIND { ERROR_KIND } else { n.kind + o.kind },
            slot: n.slot + o.slot,
            action: match n.action {
                Action::Replace(r) => Action::Replace(r + o.replacement),
                a => a,
            },
            parent: if n.parent == NO_PARENT { file as u32 } else { n.parent + base },
            lead: n.lead + at,
            start: n.start + at,
            end: n.end + at,
            subtree_end: n.subtree_end + base,
            ..n.clone()
        }));
        offset = end + 1;
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::mask::Mask;
    use crate::syntax::tree::{NodeId, TreeBuilder};
    use crate::syntax::unparse::Unparser;

    /// A tree of words, each deletable, under a root, over `src`.
    fn words(src: &str, policy: &Arc<Policy>) -> Tree {
        let mut b = TreeBuilder::new(Arc::from(src.as_bytes()));
        b.open(0, flags::NAMED, 0, src.len());
        let mut at = 0;
        for w in src.split(' ') {
            let id = b.open(1, flags::NAMED, at, at + w.len());
            b.node_mut(id).action = Action::Replace(0);
            b.close();
            at += w.len() + 1;
        }
        b.finish(policy.clone())
    }

    fn unparse(tree: &Tree, off: &[u32]) -> Vec<u8> {
        let mut mask = Mask::new(tree.len());
        for &i in off {
            mask.set_off(NodeId(i));
        }
        let mut out = Vec::new();
        Unparser::new().unparse(tree, &mask, &mut out);
        out
    }

    #[test]
    fn a_forest_unparses_to_its_files_and_keeps_every_separator() {
        let a = Arc::new(Policy {
            kinds: vec![KindPolicy::named("doc"), KindPolicy::named("word")],
            replacements: vec![b"x".to_vec().into()],
            ..Policy::default()
        });
        let b = Arc::new(Policy {
            kinds: vec![KindPolicy::named("text"), KindPolicy::named("token")],
            replacements: vec![b"y".to_vec().into()],
            ..Policy::default()
        });
        let trees = [words("one two", &a), words("three", &b), words("four five", &a)];
        let forest = splice(&trees);
        assert_eq!(forest.src(), b"one two\0three\0four five");
        assert_eq!(unparse(&forest, &[]), forest.src());
        // the root, then per file: the file node, its root, its words
        assert_eq!(forest.len(), 1 + (1 + 3) + (1 + 2) + (1 + 3));
        let files: Vec<NodeId> = forest.children(NodeId(0)).collect();
        assert_eq!(files, [NodeId(1), NodeId(5), NodeId(8)]);
        assert_eq!(forest.kind_name(forest.node(files[1]).kind), "file");
        assert_eq!(forest.kind_name(forest.node(NodeId(7)).kind), "token");
        assert_eq!(forest.kind_name(forest.node(NodeId(10)).kind), "word");
        // a replacement keeps its own language's text
        assert_eq!(unparse(&forest, &[7, 10]), b"one two\0y\0x five");
        // a file emptied, and every file emptied: the separators stay
        assert_eq!(split(&unparse(&forest, &[5])), [&b"one two"[..], b"", b"four five"]);
        assert_eq!(unparse(&forest, &[1, 5, 8]), b"\0\0");
    }

    #[test]
    fn split_undoes_join() {
        let files: [&[u8]; 3] = [b"a", b"", b"b c"];
        assert_eq!(split(&join(&files)), files);
        assert_eq!(split(b""), [b""]);
    }
}
