//! The front-end of a set of files: each file parsed by its own language's
//! front-end, the trees spliced into one forest (see
//! [`crate::syntax::forest`]).
//!
//! Its text is the files' texts joined by the forest's separator; parsing
//! splits it, parses each file and splices the trees. So the session and
//! the syntax guard use a set of files as they use one file.
//!
//! The syntax guard counts per file: [`Frontend::syntax_errors`] counts each
//! file's errors, but never fewer than the file had in the original (see
//! [`Forest::allow`]), so the sum exceeds the original's exactly when some
//! file has more errors than it had. Errors cannot move from a file that
//! lost some to one that had none.
//!
//! A candidate usually changes one file, so the guard's base
//! ([`Frontend::guard_base`]) keeps per file the best's text, its error
//! count and, where the file's front-end can, its parse: a candidate's
//! unchanged files reuse their count, only the changed ones are re-parsed
//! (from their parse in the best, when there is one). The count is the same
//! as [`Frontend::syntax_errors`]' (tested below).

use std::sync::Arc;

use anyhow::Result;

use super::{Frontend, GuardBase, Interrupt, LangInfo, OrderData};
use crate::syntax::forest;
use crate::syntax::tree::Tree;

/// The front-end of a set of files.
#[derive(Debug)]
pub struct Forest {
    /// One front-end per language of the set.
    frontends: Vec<Box<dyn Frontend>>,
    /// Per file, in order: the index of its front-end.
    files: Vec<usize>,
    /// Per file: the syntax errors it had in the original.
    allowed: Vec<usize>,
}

impl Forest {
    /// The front-end of files of these languages, in order; each language's
    /// front-end is built once.
    pub fn new(langs: &[&'static LangInfo]) -> Result<Forest> {
        let mut built: Vec<&str> = Vec::new();
        let mut frontends = Vec::new();
        let mut files = Vec::new();
        for lang in langs {
            let i = match built.iter().position(|n| *n == lang.name) {
                Some(i) => i,
                None => {
                    frontends.push(lang.frontend()?);
                    built.push(lang.name);
                    frontends.len() - 1
                }
            };
            files.push(i);
        }
        anyhow::ensure!(!files.is_empty(), "a set of files needs at least one file");
        let allowed = vec![0; files.len()];
        Ok(Forest { frontends, files, allowed })
    }

    /// Takes each file's syntax errors in `original` as its allowance: from
    /// then on, [`Frontend::syntax_errors`] counts a file with fewer errors
    /// as having that many.
    pub fn allow(&mut self, original: &[u8]) {
        self.allowed = self.each(original).map(|(fe, text)| fe.syntax_errors(text)).collect();
    }

    /// The syntax errors of a set whose files have `counts`: each at least
    /// the file's allowance, summed (saturating: a front-end whose parser
    /// gave nothing counts `usize::MAX`).
    fn total(&self, counts: impl Iterator<Item = usize>) -> usize {
        counts.zip(&self.allowed).fold(0, |sum, (n, &a)| sum.saturating_add(n.max(a)))
    }

    /// The front-end of each file of `text`, with the file's text. A text
    /// with too few separators gets empty files at the end; extra ones are
    /// never made (every candidate keeps every separator).
    fn each<'a>(&'a self, text: &'a [u8]) -> impl Iterator<Item = (&'a dyn Frontend, &'a [u8])> {
        let mut parts = forest::split(text).into_iter();
        self.files.iter().map(move |&i| (&*self.frontends[i], parts.next().unwrap_or_default()))
    }
}

impl Frontend for Forest {
    fn parse(&self, src: Arc<[u8]>) -> Tree {
        let trees: Vec<Tree> =
            self.each(&src).map(|(fe, text)| fe.parse(Arc::from(text))).collect();
        forest::splice(&trees)
    }

    /// The first file's language's order.
    fn order(&self) -> OrderData {
        self.frontends[self.files[0]].order()
    }

    fn syntax_errors(&self, src: &[u8]) -> usize {
        self.total(self.each(src).map(|(fe, text)| fe.syntax_errors(text)))
    }

    fn guard_base(&self, src: &[u8]) -> Option<GuardBase> {
        let files = self.each(src).map(|(fe, text)| Arc::new(FileBase::new(fe, text))).collect();
        Some(Box::new(Base { files }))
    }

    /// Re-parses only the files whose text differs from the base's, each
    /// from its parse in the base where its front-end keeps one.
    fn syntax_errors_from(&self, base: &GuardBase, text: &[u8]) -> (usize, Option<GuardBase>) {
        let Some(base) = base.downcast_ref::<Base>() else {
            return (self.syntax_errors(text), None);
        };
        let files: Vec<Arc<FileBase>> = self
            .each(text)
            .zip(&base.files)
            .map(|((fe, text), old)| {
                if *old.text == *text {
                    return old.clone();
                }
                let (errors, parse) = match &old.parse {
                    Some(parse) => fe.syntax_errors_from(parse, text),
                    None => (fe.syntax_errors(text), None),
                };
                Arc::new(FileBase { text: text.into(), errors, parse })
            })
            .collect();
        (self.total(files.iter().map(|f| f.errors)), Some(Box::new(Base { files })))
    }

    fn set_interrupt(&mut self, interrupt: Interrupt) {
        for fe in &mut self.frontends {
            fe.set_interrupt(interrupt.clone());
        }
    }
}

/// The forest's base for the syntax guard: what the guard knows of each
/// file of the best, shared with the bases made from it while the file is
/// unchanged.
struct Base {
    files: Vec<Arc<FileBase>>,
}

/// One file of a [`Base`].
struct FileBase {
    /// The file's text.
    text: Box<[u8]>,
    /// Its syntax errors, as its front-end counts them (before the
    /// allowance).
    errors: usize,
    /// Its front-end's base, to re-parse a changed text from.
    parse: Option<GuardBase>,
}

impl FileBase {
    /// Counts and keeps the parse of `text` from scratch.
    fn new(fe: &dyn Frontend, text: &[u8]) -> FileBase {
        FileBase { text: text.into(), errors: fe.syntax_errors(text), parse: fe.guard_base(text) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::language::by_name;
    use crate::reduce::testing::Rng;
    use crate::syntax::tree::Action;
    use crate::syntax::{Mask, NodeId, Unparser};

    #[test]
    fn each_file_is_parsed_in_its_own_language() {
        let langs =
            [by_name("c").expect("c"), by_name("json").expect("json"), by_name("c").unwrap()];
        let fe = Forest::new(&langs).expect("forest");
        assert_eq!(fe.frontends.len(), 2);
        let text = forest::join(&["int x;\n", "[1, 2]", "int y = ;"]);
        let tree = fe.parse(Arc::from(text.as_slice()));
        assert_eq!(tree.src(), text.as_slice());
        assert_eq!(tree.error_count(), 1);
        assert_eq!(fe.syntax_errors(&text), 1);
        let kinds: Vec<&str> = tree.nodes().iter().map(|n| tree.kind_name(n.kind)).collect();
        assert!(kinds.contains(&"array") && kinds.contains(&"declaration"), "{kinds:?}");
    }

    #[test]
    fn the_guard_counts_per_file() {
        let c = by_name("c").expect("c");
        let mut fe = Forest::new(&[c, c]).expect("forest");
        fe.allow(&forest::join(&["int x = ;", "int y;"]));
        assert_eq!(fe.syntax_errors(&forest::join(&["int x = ;", "int y;"])), 1);
        // the first file's error fixed does not pay for one in the second
        assert_eq!(fe.syntax_errors(&forest::join(&["int x;", "int y = ;"])), 2);
        assert_eq!(fe.syntax_errors(&forest::join(&["", ""])), 1);
    }

    #[test]
    fn the_guard_reusing_unchanged_files_counts_as_from_scratch() {
        // candidates of a set as the reducer makes them: a few nodes off,
        // mostly in one file, some with syntax errors; the base moves on to some of them as to a new
        // best, and files without a tree-sitter base (XML, text) are counted
        // whole
        let langs = ["c", "json", "xml", "c", "text"].map(|l| by_name(l).expect("language"));
        let mut fe = Forest::new(&langs).expect("forest");
        let original = forest::join(&[
            "struct s { int a, b; };\nint f(int x) { return x + 1; }\nint y = ;\n",
            r#"{"a": [1, 2, {"b": null}], "c": "d"}"#,
            "<a x=\"1\"><b>text</b><c/></a>",
            "#define M(x) ((x) * 2)\nstatic int g(void) { int z = M(3); return z; }\n",
            "one two\nthree\n",
        ]);
        fe.allow(&original);
        let tree = fe.parse(Arc::from(original.as_slice()));
        let files: Vec<NodeId> = tree.children(NodeId(0)).collect();
        let mut base = fe.guard_base(&original).expect("the forest keeps a base");
        let (mut mask, mut unparser, mut text) =
            (Mask::new(tree.len()), Unparser::new(), Vec::new());
        let mut rng = Rng::new(0x5eed);
        let mut counts = std::collections::BTreeSet::new();
        for round in 0..300 {
            // nodes of one file, now and then of any
            let file = files[rng.below(files.len())];
            let (lo, hi) = (file.0 as usize + 1, tree.node(file).subtree_end as usize);
            let mut candidate = mask.clone();
            for _ in 0..1 + rng.below(3) {
                let id = match rng.chance(0.2) || hi <= lo {
                    true => 1 + rng.below(tree.len() - 1),
                    false => lo + rng.below(hi - lo),
                };
                // only what the reducer may switch off (a node whose
                // action is to stay is never off in a candidate)
                if tree.node(NodeId(id as u32)).action != Action::Keep {
                    candidate.set_off(NodeId(id as u32));
                }
            }
            unparser.unparse(&tree, &candidate, &mut text);
            if rng.chance(0.5) {
                // and half the time a cut through that file's tokens, which
                // the grammar-aware deletions above rarely make
                let i = files.iter().position(|&f| f == file).expect("a file");
                let start: usize = forest::split(&text)[..i].iter().map(|t| t.len() + 1).sum();
                let len = forest::split(&text)[i].len();
                let from = start + rng.below(len + 1);
                let to = from + rng.below(start + len - from + 1).min(8);
                text.drain(from..to);
            }
            let (reusing, parse) = fe.syntax_errors_from(&base, &text);
            assert_eq!(
                reusing,
                fe.syntax_errors(&text),
                "round {round}: {}",
                String::from_utf8_lossy(&text)
            );
            counts.insert(reusing);
            if rng.chance(0.3) {
                base = parse.expect("a base");
                mask = candidate;
            }
        }
        assert!(counts.len() > 3, "candidates with few kinds of errors: {counts:?}");
    }
}
