//! Re-parsing a candidate from the parse of the current best, for the
//! syntax guard: the old parse is edited where the texts differ and
//! tree-sitter re-reads only that part. It must count exactly the errors a
//! parse from scratch would (tested on the corpus).

use tree_sitter::{InputEdit, Point};

/// A parse kept for the syntax guard: the tree and the text it is of.
pub(super) struct Base {
    pub tree: tree_sitter::Tree,
    pub src: Vec<u8>,
}

impl Base {
    /// The parse, edited to stand for `text` so that tree-sitter re-parses
    /// only what changed: one edit covering where the texts differ. `None`
    /// when parsing `text` from scratch is the cheaper: an edit copies
    /// every node inside it (tree-sitter's nodes are shared with the base,
    /// so it cannot change them in place), and a parse from scratch makes
    /// about as many nodes as `text` has, so a candidate that drops most of
    /// the best is read whole rather than copy what it drops.
    pub(super) fn edited_to(&self, text: &[u8]) -> Option<tree_sitter::Tree> {
        let old = &self.src;
        let (prefix, suffix) = crate::syntax::common_ends(old, text);
        let (old_end, new_end) = (old.len() - suffix, text.len() - suffix);
        if old_end - prefix > text.len() {
            return None;
        }
        let start = advance(text, (0, Point::new(0, 0)), prefix);
        let mut tree = self.tree.clone();
        tree.edit(&InputEdit {
            start_byte: prefix,
            old_end_byte: old_end,
            new_end_byte: new_end,
            start_position: start.1,
            old_end_position: advance(old, start, old_end).1,
            new_end_position: advance(text, start, new_end).1,
        });
        Some(tree)
    }
}

/// The position of byte `to` of `text`, counting on from a known one.
fn advance(text: &[u8], from: (usize, Point), to: usize) -> (usize, Point) {
    let (mut row, mut column) = (from.1.row, from.1.column);
    for (i, &c) in text[from.0..to].iter().enumerate() {
        if c == b'\n' {
            row += 1;
            column = to - (from.0 + i + 1);
        }
    }
    if row == from.1.row {
        column += to - from.0;
    }
    (to, Point::new(row, column))
}

/// Error and missing nodes in a tree-sitter tree, visiting only subtrees that have any.
pub(super) fn count_errors(tree: &tree_sitter::Tree) -> usize {
    let root = tree.root_node();
    if !root.has_error() {
        return 0;
    }
    let mut count = 0;
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            count += 1;
        }
        if node.has_error() && !node.is_missing() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return count;
            }
        }
    }
}
