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

use std::sync::Arc;

use anyhow::Result;

use super::{Frontend, LangInfo, OrderData};
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
        let counts = self.each(src).map(|(fe, text)| fe.syntax_errors(text));
        counts.zip(&self.allowed).map(|(n, &a)| n.max(a)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::language::by_name;

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
}
