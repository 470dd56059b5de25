//! Turns a tree and a mask back into bytes: the candidate the user's test sees.
//!
//! Every candidate goes through here, so it is built to cost about a `memcpy` of
//! its output: the switched-off nodes are collected as a sorted list of *cuts*
//! (byte ranges of the original, each dropped or replaced by a short text), and
//! the output is the original with those ranges cut out. No per-node walk of the
//! kept part, no per-token printing.
//!
//! Rules, all tested:
//! - with nothing switched off the output is the input, byte for byte;
//! - a deleted node takes its leading whitespace with it; a replaced node keeps it;
//!   a node marked to go with the token before it (Rust's return type and
//!   its `->`) takes that token and its whitespace too;
//! - in a separated list, deleting elements also deletes separators so that
//!   exactly one separator stands between consecutive kept elements and none
//!   dangles (`[1,2,3]` minus `2` is `[1,3]`, minus `3` is `[1,2]`); when the
//!   first elements go, the first kept one takes over the old first one's
//!   leading whitespace (`f(a, b)` minus `a` is `f(b)`);
//! - a hoisted node keeps its leading whitespace and becomes the text of its
//!   chosen descendants (`if (c) { s; }` becomes `{ s; }`, and `{ a; b; }`
//!   becomes `a; b;`); a splice also keeps the node's beginning up to its
//!   head (`if (c) ; else B` becomes `if (c) B`);
//! - a swapped node becomes its text (a replacement, or a copy of another
//!   node's original text), keeping its leading whitespace; a moved node
//!   goes with its leading whitespace, and its text stands on a line of
//!   its own right before the node it moved before;
//! - two tokens that were apart in the input are never glued together by a cut
//!   (`int a` never becomes `inta`): a space is put between them.

use super::mask::{Mask, Text};
use super::tree::{continues, flags, roles, Action, NodeId, Tree};

/// A byte range of the original to drop, and what to write instead.
#[derive(Clone, Copy, Debug)]
struct Cut {
    start: u32,
    end: u32,
    with: With,
}

#[derive(Clone, Copy, Debug)]
enum With {
    Nothing,
    Replacement(u16),
    /// A range of the original (used to move leading whitespace).
    Original(u32, u32),
    /// A range of the original and a line break: a moved node's text.
    Line(u32, u32),
}

/// Reusable scratch space for unparsing; keep one per thread.
#[derive(Debug, Default)]
pub struct Unparser {
    cuts: Vec<Cut>,
    lists: Vec<u32>,
}

impl Unparser {
    pub fn new() -> Unparser {
        Unparser::default()
    }

    /// Writes the candidate for `mask` into `out` (which is cleared first).
    pub fn unparse(&mut self, tree: &Tree, mask: &Mask, out: &mut Vec<u8>) {
        out.clear();
        self.collect_cuts(tree, mask);
        let src = tree.src();
        let tokens = tree.policy().tokens;
        let operators = tree.policy().operators_glue;
        let mut pos = 0usize;
        let mut after_cut = false;
        for cut in &self.cuts {
            let (start, end) = (cut.start as usize, cut.end as usize);
            if start < pos && end <= pos {
                continue; // inside an earlier cut
            }
            let start = start.max(pos);
            push(out, &src[pos..start], after_cut && tokens, operators);
            let (text, line): (&[u8], bool) = match cut.with {
                With::Nothing => (&[], false),
                With::Replacement(r) => (tree.replacement(r), false),
                With::Original(s, e) => (&src[s as usize..e as usize], false),
                With::Line(s, e) => (&src[s as usize..e as usize], true),
            };
            push(out, text, tokens, operators);
            if line {
                out.push(b'\n');
            }
            after_cut = true;
            pos = end;
        }
        push(out, &src[pos..], after_cut && tokens, operators);
    }

    /// Fills `self.cuts` with the maximal cuts of `mask`, sorted by start.
    fn collect_cuts(&mut self, tree: &Tree, mask: &Mask) {
        self.cuts.clear();
        self.lists.clear();
        let nodes = tree.nodes();
        let mut next = mask.next_off(0);
        while let Some(id) = next {
            let n = &nodes[id.index()];
            match n.action {
                Action::Delete => {
                    let start = token_before(tree, id).map_or(n.lead, |t| nodes[t.index()].lead);
                    self.cuts.push(Cut { start, end: n.end, with: With::Nothing })
                }
                Action::Replace(r) => {
                    self.cuts.push(Cut { start: n.start, end: n.end, with: With::Replacement(r) })
                }
                Action::Keep => debug_assert!(false, "node {} cannot be switched off", id.0),
            }
            if n.has(flags::ELEMENT) {
                self.lists.push(n.parent);
            }
            // descendants of an off node are gone with it
            next = mask.next_off(n.subtree_end);
        }
        let mut sort = false;
        if !self.lists.is_empty() {
            self.lists.sort_unstable();
            self.lists.dedup();
            for i in 0..self.lists.len() {
                let list = NodeId(self.lists[i]);
                self.separator_cuts(tree, mask, list);
            }
            sort = true;
        }
        for h in mask.hoists() {
            // all of the node but its run from first to last goes; the
            // node's leading whitespace stays (a splice keeps its beginning
            // up to its head, and the whitespace before the run)
            let (n, a, b) =
                (&nodes[h.node.index()], &nodes[h.to.first.index()], &nodes[h.to.last.index()]);
            let (start, end) = match h.to.head {
                Some(head) => (nodes[head.index()].end, a.lead),
                None => (n.start, a.start),
            };
            self.cuts.push(Cut { start, end, with: With::Nothing });
            self.cuts.push(Cut { start: b.end, end: n.end, with: With::Nothing });
            sort = true;
        }
        for s in mask.swaps() {
            let n = &nodes[s.node.index()];
            let with = match s.with {
                Text::Replacement(r) => With::Replacement(r),
                Text::Copy(c) => With::Original(nodes[c.index()].start, nodes[c.index()].end),
                Text::Span(a, b) => With::Original(nodes[a.index()].start, nodes[b.index()].end),
                Text::Nothing => With::Nothing,
                Text::MovedBefore(to) => {
                    // an insertion (a cut of no bytes) and a deletion
                    let at = nodes[to.index()].start;
                    self.cuts.push(Cut { start: at, end: at, with: With::Line(n.start, n.end) });
                    self.cuts.push(Cut { start: n.lead, end: n.end, with: With::Nothing });
                    sort = true;
                    continue;
                }
            };
            self.cuts.push(Cut { start: n.start, end: n.end, with });
            sort = true;
        }
        if sort {
            // an enclosing cut before the cuts inside it, which are then
            // skipped; an insertion before a cut that starts where it does
            self.cuts
                .sort_unstable_by_key(|c| (c.start, c.end > c.start, std::cmp::Reverse(c.end)));
        }
    }

    /// Adds the cuts that keep the separators of `list` right for `mask`.
    fn separator_cuts(&mut self, tree: &Tree, mask: &Mask, list: NodeId) {
        let nodes = tree.nodes();
        let last_kept = tree
            .children(list)
            .filter(|&c| nodes[c.index()].has(flags::ELEMENT) && !mask.is_off(c))
            .last();
        let mut first_element: Option<NodeId> = None;
        let mut seen_kept = false;
        // whether the last element or separator seen was an element, and if so
        // whether it is kept
        let mut prev_element: Option<bool> = None;
        let mut after_last_kept = false;
        for c in tree.children(list) {
            let n = &nodes[c.index()];
            if n.has(flags::ELEMENT) {
                let kept = !mask.is_off(c);
                let first = *first_element.get_or_insert(c);
                if kept && !seen_kept {
                    seen_kept = true;
                    if first != c {
                        // the new first element takes the old first one's leading whitespace
                        let f = &nodes[first.index()];
                        if n.lead < n.start || f.lead < f.start {
                            self.cuts.push(Cut {
                                start: n.lead,
                                end: n.start,
                                with: With::Original(f.lead, f.start),
                            });
                        }
                    }
                }
                prev_element = Some(kept);
                if Some(c) == last_kept {
                    after_last_kept = true;
                }
            } else if n.has(flags::SEPARATOR) {
                let keep = match prev_element {
                    // a separator right after a kept element survives if another
                    // kept element follows, or if it is the list's trailing one
                    Some(true) => !after_last_kept || !has_element_after(tree, list, c),
                    Some(false) => false,
                    // a leading or doubled separator is not ours to judge
                    None => true,
                };
                if !keep {
                    self.cuts.push(Cut { start: n.lead, end: n.end, with: With::Nothing });
                }
                prev_element = None;
            }
        }
    }
}

/// The token that goes with `id` when it is deleted (`roles::WITH_TOKEN_BEFORE`):
/// its previous sibling, if that is a token that is never switched off alone.
fn token_before(tree: &Tree, id: NodeId) -> Option<NodeId> {
    let nodes = tree.nodes();
    let n = &nodes[id.index()];
    if n.role & roles::WITH_TOKEN_BEFORE == 0 || id.0 == 0 {
        return None;
    }
    // in preorder, a leaf sibling right before the node is the node before it
    let t = NodeId(id.0 - 1);
    let before = &nodes[t.index()];
    let token = before.parent == n.parent && before.subtree_end == id.0;
    (token && before.action == Action::Keep && !before.has(flags::EXTRA)).then_some(t)
}

fn has_element_after(tree: &Tree, list: NodeId, sep: NodeId) -> bool {
    let end = tree.node(list).subtree_end;
    let mut c = tree.node(sep).subtree_end;
    while c < end {
        if tree.node(NodeId(c)).has(flags::ELEMENT) {
            return true;
        }
        c = tree.node(NodeId(c)).subtree_end;
    }
    false
}

/// Appends `chunk`. At a cut (`join`), the whitespace on either side is
/// merged so that deletions leave no runs of blank lines (the side with more
/// line breaks wins, keeping the right side's indentation), and a space goes
/// between two tokens that would otherwise glue into one.
fn push(out: &mut Vec<u8>, chunk: &[u8], join: bool, operators: bool) {
    if chunk.is_empty() {
        return;
    }
    if !join {
        out.extend_from_slice(chunk);
        return;
    }
    let mut left = out.iter().rev().take_while(|c| c.is_ascii_whitespace()).count();
    if left < out.len() && continues(out, out.len() - left - 1) {
        // the line break of a backslash that continues a line is not
        // whitespace to merge: a macro body whose last lines went still
        // ends where it did, on an empty continued line
        left -= if out[out.len() - left] == b'\r' { 2 } else { 1 };
    }
    let right = chunk.iter().take_while(|c| c.is_ascii_whitespace()).count();
    if left == out.len() {
        // nothing but whitespace before: whitespace left at the start of the
        // file by a deletion goes too
        out.clear();
        out.extend_from_slice(&chunk[right..]);
        return;
    }
    if left == 0 && right == 0 {
        if let (Some(&a), Some(&b)) = (out.last(), chunk.first()) {
            if would_glue(a, b, operators) {
                out.push(b' ');
            }
        }
        out.extend_from_slice(chunk);
        return;
    }
    let lines = |ws: &[u8]| ws.iter().filter(|&&c| c == b'\n').count();
    let (left_lines, right_lines) = (lines(&out[out.len() - left..]), lines(&chunk[..right]));
    if right_lines >= left_lines && (right_lines > 0 || left == 0) {
        // the right side's whitespace, with its indentation
        out.truncate(out.len() - left);
        out.extend_from_slice(chunk);
    } else if right_lines == 0 {
        // spacing inside a line next to a line break, or two spacings: one is enough
        out.extend_from_slice(&chunk[right..]);
    } else {
        // more line breaks on the left: keep those, and the right's indentation
        let right_ws = &chunk[..right];
        let indent = right_ws.iter().rposition(|&c| c == b'\n').map_or(0, |i| right - i - 1);
        let left_ws = &out[out.len() - left..];
        let keep = left_ws.iter().rposition(|&c| c == b'\n').map_or(left, |i| i + 1);
        out.truncate(out.len() - left + keep);
        out.extend_from_slice(&chunk[right - indent..]);
    }
}

/// Whether `a` directly followed by `b` could read as one token where two were meant.
/// `operators`: whether two operator characters can glue too (`+ +`, `/ *`
/// in C and JavaScript; not in JSON or XML).
pub(crate) fn would_glue(a: u8, b: u8, operators: bool) -> bool {
    let word = super::is_word_byte;
    let op = |c: u8| b"+-*/%<>=&|!^~.:?#".contains(&c);
    (word(a) && word(b)) || (operators && op(a) && op(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::mask::Swap;
    use crate::syntax::policy::Policy;
    use crate::syntax::tree::TreeBuilder;
    use std::sync::Arc;

    /// Builds a flat list `[e,e,e]`-style tree from a string: every
    /// alphanumeric run is an element, every `,` a separator.
    fn list_tree(src: &str) -> Tree {
        let mut b = TreeBuilder::new(Arc::from(src.as_bytes()));
        b.open(0, flags::NAMED | flags::LIST, 0, src.len());
        let bytes = src.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i].is_ascii_alphanumeric() {
                let s = i;
                while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                let id = b.open(1, flags::NAMED | flags::ELEMENT, s, i);
                b.node_mut(id).action = Action::Delete;
                b.close();
            } else {
                if bytes[i] == b',' {
                    b.open(2, flags::SEPARATOR, i, i + 1);
                    b.close();
                }
                i += 1;
            }
        }
        b.finish(Arc::new(Policy::default()))
    }

    fn unparse_without(tree: &Tree, off: &[u32]) -> String {
        let mut mask = Mask::new(tree.len());
        for &i in off {
            mask.set_off(NodeId(i));
        }
        let mut out = Vec::new();
        Unparser::new().unparse(tree, &mask, &mut out);
        String::from_utf8(out).expect("utf-8")
    }

    /// The element node ids of a `list_tree`, in order.
    fn elements(tree: &Tree) -> Vec<u32> {
        (0..tree.len() as u32).filter(|&i| tree.node(NodeId(i)).has(flags::ELEMENT)).collect()
    }

    #[test]
    fn all_kept_is_the_input() {
        let t = list_tree("[ a, b ,c ]");
        assert_eq!(unparse_without(&t, &[]), "[ a, b ,c ]");
    }

    #[test]
    fn deleting_list_elements_keeps_separators_right() {
        let t = list_tree("[1,2,3]");
        let e = elements(&t);
        assert_eq!(unparse_without(&t, &[e[1]]), "[1,3]");
        assert_eq!(unparse_without(&t, &[e[2]]), "[1,2]");
        assert_eq!(unparse_without(&t, &[e[0]]), "[2,3]");
        assert_eq!(unparse_without(&t, &[e[1], e[2]]), "[1]");
        assert_eq!(unparse_without(&t, &[e[0], e[1]]), "[3]");
        assert_eq!(unparse_without(&t, &[e[0], e[2]]), "[2]");
        assert_eq!(unparse_without(&t, &e), "[]");
    }

    #[test]
    fn prefix_deletion_moves_the_leading_whitespace() {
        let t = list_tree("(a, b, c)");
        let e = elements(&t);
        assert_eq!(unparse_without(&t, &[e[0]]), "(b, c)");
        assert_eq!(unparse_without(&t, &[e[0], e[1]]), "(c)");
        let t = list_tree("[\n  a,\n  b\n]");
        let e = elements(&t);
        assert_eq!(unparse_without(&t, &[e[0]]), "[\n  b\n]");
        assert_eq!(unparse_without(&t, &[e[1]]), "[\n  a\n]");
    }

    #[test]
    fn trailing_separator_stays_with_the_last_element() {
        let t = list_tree("[1,2,]");
        let e = elements(&t);
        assert_eq!(unparse_without(&t, &[e[0]]), "[2,]");
        assert_eq!(unparse_without(&t, &[e[1]]), "[1]");
    }

    #[test]
    fn every_subset_of_a_list_has_no_dangling_separator() {
        let t = list_tree("( a , b,c ,d )");
        let e = elements(&t);
        for bits in 0u32..16 {
            let off: Vec<u32> = (0..4).filter(|i| bits >> i & 1 == 1).map(|i| e[i]).collect();
            let out = unparse_without(&t, &off);
            let inner = out.trim_start_matches('(').trim_end_matches(')');
            let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
            if off.len() == 4 {
                assert_eq!(inner.trim(), "", "{out:?}");
            } else {
                assert!(parts.iter().all(|p| !p.is_empty()), "dangling separator in {out:?}");
                assert_eq!(parts.len(), 4 - off.len(), "{out:?}");
            }
        }
    }

    #[test]
    fn deletions_leave_no_runs_of_blank_lines() {
        let mut out = b"a;\n".to_vec();
        push(&mut out, b"\n\nb;", true, true);
        assert_eq!(out, b"a;\n\nb;");
        let mut out = b"{\n\n".to_vec();
        push(&mut out, b"\n    x", true, true);
        assert_eq!(out, b"{\n\n    x");
        let mut out = b"f(a ".to_vec();
        push(&mut out, b" b)", true, true);
        assert_eq!(out, b"f(a b)");
        let mut out = b"int".to_vec();
        push(&mut out, b"a", true, true);
        assert_eq!(out, b"int a");
        // a deleted first child leaves no stray space
        let mut out = b"#include <a.h>\n".to_vec();
        push(&mut out, b" int f;", true, true);
        assert_eq!(out, b"#include <a.h>\nint f;");
        let mut out = Vec::new();
        push(&mut out, b" int f;", true, true);
        assert_eq!(out, b"int f;");
        let mut out = b"\n".to_vec();
        push(&mut out, b"\n\n#include <a.h>", true, true);
        assert_eq!(out, b"#include <a.h>");
        let mut out = b"int".to_vec();
        push(&mut out, b"a", false, true);
        assert_eq!(out, b"inta");
    }

    #[test]
    fn the_line_break_of_a_continuation_is_never_merged_away() {
        // a macro whose last lines went ends on an empty continued line
        let mut out = b"#define M \\\n  ".to_vec();
        push(&mut out, b"\nint y;", true, true);
        assert_eq!(out, b"#define M \\\n\nint y;");
        let mut out = b"#define M \\\r\n  ".to_vec();
        push(&mut out, b"\r\nint y;", true, true);
        assert_eq!(out, b"#define M \\\r\n\r\nint y;");
        // and one that goes on keeps its next line
        let mut out = b"#define M \\\n  ".to_vec();
        push(&mut out, b" \\\n  f();", true, true);
        assert_eq!(out, b"#define M \\\n  \\\n  f();");
    }

    #[test]
    fn a_moved_node_stands_on_a_line_of_its_own_before_its_place() {
        let tree = list_tree("a, b, c");
        let &[_, b, c] = elements(&tree).as_slice() else { panic!("three elements") };
        let text = |mask: &Mask| {
            let mut out = Vec::new();
            Unparser::new().unparse(&tree, mask, &mut out);
            String::from_utf8(out).expect("utf-8")
        };
        let moved = Swap { node: NodeId(c), with: Text::MovedBefore(NodeId(b)) };
        let mask = Mask::new(tree.len()).with_swaps(&[moved]);
        assert_eq!(text(&mask), "a, c\nb,");
        // also where another cut starts at the same byte
        let mask = mask.with_swaps(&[Swap { node: NodeId(b), with: Text::Nothing }]);
        assert_eq!(text(&mask), "a, c\n,");
    }

    #[test]
    fn cuts_never_glue_words() {
        assert!(would_glue(b't', b'a', false));
        assert!(would_glue(b'+', b'+', true));
        assert!(!would_glue(b'>', b'<', false));
        assert!(!would_glue(b'a', b'(', true));
        assert!(!would_glue(b';', b'}', true));
    }
}
