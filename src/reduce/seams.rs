//! Seams: the runs of tokens that join two bracketed groups, deleted at
//! once, for the cut-through of a small result of malformed input.
//!
//! The token pass deletes one token at a time (more only where the first
//! one could go), so it stops where every token of a run must go at once.
//! The seam `><xsl:if` between two start tags is such a run: without the
//! `>` alone the first tag runs into the second, without `<xsl:if` alone
//! the second's attribute is text, but without both the second tag's
//! attribute (the broken one the test is about) belongs to the first.
//! C-Vise finds such runs by trying every run of up to a dozen tokens
//! (`rm-toks-N`); on a result already 1-minimal in tokens most of those
//! fail, and every one costs a test. A seam is a closing bracket, the
//! opening bracket of the same kind right after it, and the tokens glued
//! to that one (no whitespace between) up to its own closing bracket: one
//! candidate per place where a group ends and the next begins, so a
//! handful on a small result. Whole groups (a tag, an element) are the
//! tree's to delete.
//!
//! Brackets are `()`, `[]`, `{}` and `<>`. Seams are tried in source order,
//! each once; one whose tokens a success before it took in part is
//! skipped.

use super::{Proposal, Search, Step, Units};
use crate::syntax::tree::Action;
use crate::syntax::{Mask, NodeId, Tree};

/// The seams of a tree of lines of tokens, tried in turn.
#[derive(Clone, Debug, Default)]
pub(crate) struct Seams {
    /// The runs to try, in source order; a line all of whose tokens a run
    /// holds stands for them.
    runs: Vec<Vec<NodeId>>,
    next: usize,
}

impl Seams {
    /// The seams of `tree`, a view whose leaves are the tokens (lines of
    /// tokens, as the plain-text front-end makes them).
    pub(crate) fn new(tree: &Tree) -> Seams {
        let tokens: Vec<NodeId> = (0..tree.len() as u32)
            .map(NodeId)
            .filter(|&id| {
                let n = tree.node(id);
                n.subtree_end == id.0 + 1 && !n.is_empty()
            })
            .collect();
        let bracket = |i: usize| bracket(tree.text(tokens[i]));
        let glued = |i: usize| tree.node(tokens[i + 1]).start == tree.node(tokens[i]).end;
        let mut runs = Vec::new();
        for i in 0..tokens.len().saturating_sub(1) {
            let Some((kind, false)) = bracket(i) else { continue };
            if bracket(i + 1) != Some((kind, true)) {
                continue;
            }
            let mut end = i + 1;
            while end + 1 < tokens.len() && glued(end) && bracket(end + 1) != Some((kind, false)) {
                end += 1;
            }
            runs.push(with_lines(tree, &tokens[i..=end]));
        }
        Seams { runs, next: 0 }
    }

    /// The runs to try, each as the nodes it switches off.
    #[cfg(test)]
    pub(crate) fn runs(&self) -> &[Vec<NodeId>] {
        &self.runs
    }
}

/// The kind of bracket `text` is (0 to 3) and whether it opens, if it is one.
fn bracket(text: &[u8]) -> Option<(u8, bool)> {
    match text {
        b"(" => Some((0, true)),
        b")" => Some((0, false)),
        b"[" => Some((1, true)),
        b"]" => Some((1, false)),
        b"{" => Some((2, true)),
        b"}" => Some((2, false)),
        b"<" => Some((3, true)),
        b">" => Some((3, false)),
        _ => None,
    }
}

/// `tokens` (a run in source order), with each line all of whose tokens
/// are in it switched off as a whole instead, so that no empty line is
/// left behind.
fn with_lines(tree: &Tree, tokens: &[NodeId]) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        // the nearest node before the token whose subtree holds it
        let line = (1..tokens[i].0).rev().map(NodeId).find(|&l| {
            let n = tree.node(l);
            n.subtree_end > tokens[i].0 && n.action == Action::Delete
        });
        let children: Vec<NodeId> = line.map(|l| tree.children(l).collect()).unwrap_or_default();
        match line {
            Some(l) if !children.is_empty() && tokens[i..].starts_with(&children) => {
                i += children.len();
                out.push(l);
            }
            _ => {
                out.push(tokens[i]);
                i += 1;
            }
        }
    }
    out
}

impl Search for Seams {
    fn propose(&mut self, units: &Units, mask: &Mask) -> Option<Proposal> {
        while let Some(run) = self.runs.get(self.next) {
            if run.iter().all(|&id| units.is_present(id, mask)) {
                return Some(Proposal::Off(run.clone()));
            }
            self.next += 1;
        }
        None
    }

    fn step(&self) -> Step {
        Step::Seam
    }

    fn feedback(&mut self, _interesting: bool) {
        self.next += 1;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::reduce::{run, Candidates, Oracle, Verdict};
    use crate::syntax::Unparser;

    fn text_view(src: &str) -> Tree {
        let text = crate::language::by_name("text").expect("text").frontend().expect("front-end");
        text.parse(Arc::from(src.as_bytes()))
    }

    /// Each run as the texts of the nodes it switches off.
    fn runs(src: &str) -> Vec<Vec<String>> {
        let tree = text_view(src);
        let seams = Seams::new(&tree);
        seams
            .runs()
            .iter()
            .map(|run| {
                run.iter().map(|&id| String::from_utf8_lossy(tree.text(id)).into_owned()).collect()
            })
            .collect()
    }

    /// An oracle over the candidate's text; records every text it tests.
    struct TextOracle<'t, F> {
        tree: &'t Tree,
        predicate: F,
        tested: Vec<String>,
    }

    impl<F: FnMut(&str) -> bool> Oracle for TextOracle<'_, F> {
        fn evaluate(&mut self, candidates: &mut dyn Candidates) -> Verdict {
            while let Some(c) = candidates.next() {
                let mut out = Vec::new();
                Unparser::new().unparse(self.tree, &c.mask, &mut out);
                let text = String::from_utf8(out).expect("utf-8");
                let interesting = (self.predicate)(&text);
                self.tested.push(text);
                candidates.settle(c.index, interesting);
            }
            Verdict::Finished
        }
    }

    #[test]
    fn a_seam_is_a_closing_bracket_the_next_opening_one_and_what_is_glued_to_it() {
        // an XSLT test written with a raw `<`: the seam before `<if` takes
        // the tag's name, the one before `</s` stops at its `>`
        assert_eq!(
            runs(r#"<s a="1"><if test="<"/></s>"#),
            [vec![">", "<", "if"], vec![">", "<", "/", "s"]]
        );
        // brackets of other kinds, and none where the next group is another kind's
        assert_eq!(runs("f(a)(b) [1][2] {x}<y>"), [vec![")", "(", "b"], vec!["]", "[", "2"]]);
        // a line all of whose tokens the seam takes goes as the line
        assert_eq!(runs("<a>\n<b\n<c/>"), [vec![">", "<b\n"]]);
    }

    #[test]
    fn the_seam_between_two_start_tags_gives_the_second_ones_attribute_to_the_first() {
        let tree = text_view("<xsl:stylesheet xmlns:xsl=\"x\">\n<xsl:if test=\" <\n");
        let units = Units::new(&tree);
        let mut oracle = TextOracle {
            tree: &tree,
            // the broken attribute on the stylesheet's own start tag
            predicate: |t: &str| !t.contains('>') && t.contains("test=\" <"),
            tested: Vec::new(),
        };
        let mut mask = Mask::new(tree.len());
        let cut = run(Seams::new(&tree), &units, &mut mask, &mut oracle).expect("finished");
        assert_eq!(cut, 1);
        assert_eq!(oracle.tested, ["<xsl:stylesheet xmlns:xsl=\"x\"\ntest=\" <\n"]);
    }

    #[test]
    fn seams_are_tried_in_source_order_on_what_the_earlier_ones_left() {
        // `><b` goes first, then `><c`, whose `>` (b's) the first left
        let tree = text_view("<a><b><c>");
        let units = Units::new(&tree);
        let mut oracle = TextOracle { tree: &tree, predicate: |_: &str| true, tested: Vec::new() };
        let mut mask = Mask::new(tree.len());
        run(Seams::new(&tree), &units, &mut mask, &mut oracle).expect("finished");
        assert_eq!(oracle.tested, ["<a><c>", "<a>"]);
    }
}
