//! Re-parsing a candidate from the parse of the current best, for the
//! syntax guard: the old parse is edited where the texts differ and
//! tree-sitter re-reads only that part. It must count exactly the errors a
//! parse from scratch would (invariant 9).
//!
//! tree-sitter's error recovery can go another way when it reuses the old
//! parse than from scratch (the fuzzing suite found a deletion from a valid
//! C file counted 2 errors re-parsed, 1 from scratch). So a re-parse is
//! trusted only when the edit touched none of the best's errors and the
//! re-parse found exactly the best's errors, of the same kinds at the same
//! (shifted) places, none of them where it changed the tree
//! ([`Base::agrees`]). Anything else is parsed again from scratch. This
//! is a measured rule, not a proven one: tree-sitter promises no such thing,
//! and `BENCHMARKS.md` ("The guard's re-parse of candidates with errors")
//! says how often it was checked against a full parse.

use tree_sitter::{InputEdit, Point};

/// One syntax error of a parse: an error node or a missing token, its kind
/// and span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Spot {
    start: usize,
    end: usize,
    kind: u16,
}

/// A parse kept for the syntax guard: the tree, the text it is of, and its
/// syntax errors in tree order (as many as a parse from scratch finds).
pub(super) struct Base {
    pub tree: tree_sitter::Tree,
    pub src: Vec<u8>,
    errors: Vec<Spot>,
}

/// The parse of the best, edited to stand for a candidate, and the edit.
pub(super) struct Edited {
    pub tree: tree_sitter::Tree,
    edit: InputEdit,
}

impl Base {
    /// The base of `tree`, a parse of `src` whose errors are `errors`.
    pub(super) fn new(tree: tree_sitter::Tree, src: &[u8], errors: Vec<Spot>) -> Base {
        Base { tree, src: src.to_vec(), errors }
    }

    /// The parse, edited to stand for `text` so that tree-sitter re-parses
    /// only what changed: one edit covering where the texts differ. `None`
    /// when parsing `text` from scratch is the cheaper: an edit copies
    /// every node inside it (tree-sitter's nodes are shared with the base,
    /// so it cannot change them in place), and a parse from scratch makes
    /// about as many nodes as `text` has, so a candidate that drops most of
    /// the best is read whole rather than copy what it drops.
    pub(super) fn edited_to(&self, text: &[u8]) -> Option<Edited> {
        let old = &self.src;
        let (prefix, suffix) = crate::syntax::common_ends(old, text);
        let (old_end, new_end) = (old.len() - suffix, text.len() - suffix);
        if old_end - prefix > text.len() {
            return None;
        }
        let start = advance(text, (0, Point::new(0, 0)), prefix);
        let edit = InputEdit {
            start_byte: prefix,
            old_end_byte: old_end,
            new_end_byte: new_end,
            start_position: start.1,
            old_end_position: advance(old, start, old_end).1,
            new_end_position: advance(text, start, new_end).1,
        };
        let mut tree = self.tree.clone();
        tree.edit(&edit);
        Some(Edited { tree, edit })
    }

    /// Whether `errors`, those of `new` (re-parsed from `edited`), may be
    /// trusted to be what a parse from scratch finds: the edit touched none
    /// of the base's errors, `errors` are exactly the base's at their
    /// shifted places (no error came or went), and none lies in a range
    /// where the re-parse changed the tree (tree-sitter's own account of
    /// what it built anew rather than reused). An edit that cuts an error
    /// is not trusted: cutting one from a C file changed how a parse from
    /// scratch recovered from another, far after the edit, which the
    /// re-parse kept as it was (found by random byte cuts, 1 in about
    /// 65 000 trusted re-parses).
    pub(super) fn agrees(&self, edited: &Edited, new: &tree_sitter::Tree, errors: &[Spot]) -> bool {
        self.same_errors(edited, errors) && untouched(edited, new, errors)
    }

    /// Whether the edit touches none of the base's errors and `errors` are
    /// exactly the base's, at their shifted places.
    fn same_errors(&self, edited: &Edited, errors: &[Spot]) -> bool {
        let e = &edited.edit;
        let shift = |b: usize| b - e.old_end_byte + e.new_end_byte;
        let mut kept = self.errors.iter().map(|s| {
            if s.end < e.start_byte {
                Some(*s) // before the edit
            } else if s.start > e.old_end_byte {
                Some(Spot { start: shift(s.start), end: shift(s.end), ..*s })
            } else {
                None // the edit touches it
            }
        });
        errors.iter().all(|s| kept.next() == Some(Some(*s))) && kept.next().is_none()
    }
}

/// Whether no error of `errors` (those of `new`) lies in or next to a
/// range where `new` differs from `edited`.
fn untouched(edited: &Edited, new: &tree_sitter::Tree, errors: &[Spot]) -> bool {
    errors.is_empty()
        || edited
            .tree
            .changed_ranges(new)
            .all(|r| errors.iter().all(|s| s.end < r.start_byte || r.end_byte < s.start))
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

/// Error and missing nodes in a tree-sitter tree, in tree order, visiting
/// only subtrees that have any.
pub(super) fn errors(tree: &tree_sitter::Tree) -> Vec<Spot> {
    let root = tree.root_node();
    let mut spots = Vec::new();
    if !root.has_error() {
        return spots;
    }
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            let (start, end, kind) = (node.start_byte(), node.end_byte(), node.kind_id());
            spots.push(Spot { start, end, kind });
        }
        if node.has_error() && !node.is_missing() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return spots;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, old: Option<&tree_sitter::Tree>) -> tree_sitter::Tree {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&tree_sitter_c::LANGUAGE.into()).expect("C");
        parser.parse(text, old).expect("a parse")
    }

    /// Whether the guard trusts `candidate` re-parsed from `best`'s parse.
    fn trusted(best: &str, candidate: &str) -> bool {
        let tree = parse(best, None);
        let found = errors(&tree);
        let base = Base::new(tree, best.as_bytes(), found);
        let edited = base.edited_to(candidate.as_bytes()).expect("an edit");
        let new = parse(candidate, Some(&edited.tree));
        base.agrees(&edited, &new, &errors(&new))
    }

    #[test]
    fn a_re_parse_is_trusted_only_with_the_best_s_errors_unmoved() {
        let best = "int a = ;\nint b;\nint c;\nint d = ;\n";
        assert_eq!(errors(&parse(best, None)).len(), 2);
        // errors before and after the cut, the second one shifted
        assert!(trusted(best, "int a = ;\nint c;\nint d = ;\n"));
        // an error cut with its declaration: the recovery from the others
        // may go another way from scratch
        assert!(!trusted(best, "int b;\nint c;\nint d = ;\n"));
        // a new error
        assert!(!trusted(best, "int a = ;\nint b\nint c;\nint d = ;\n"));
        // an error gone that the edit did not touch (a missing value just
        // before the one inserted)
        assert!(!trusted(best, "int a = ;\nint b;\nint c;\nint d = 1;\n"));
    }
}
