//! The plain text front-end, for any other format (`--lang text`): lines,
//! then the words and punctuation inside each line.
//!
//! HDD over this tree is line-based ddmin first and token-based ddmin inside
//! the lines that stay, as Lithium or C-Vise's line passes do. There is no
//! grammar, so there are no syntax errors, no replacements and no hoisting.
//! Words are tokens: a deletion never glues two words that were apart, and
//! leaves no stray spaces (see `unparse.rs`).

use std::sync::Arc;

use anyhow::Result;

use super::grammar::{GrammarData, OrderData};
use super::tables::{FixedKinds, Tables};
use super::{Frontend, LangInfo};
use crate::syntax::policy::Policy;
use crate::syntax::tree::{flags, Action, Tree, TreeBuilder};

const KINDS: &[&str] = &["document", "line", "token"];
const DOCUMENT: u16 = 0;
const LINE: u16 = 1;
const TOKEN: u16 = 2;

pub(crate) fn build(info: &LangInfo) -> Result<Box<dyn Frontend>> {
    let (file, text) = info.grammar;
    let data = GrammarData::parse(file, text)?;
    anyhow::ensure!(
        data.replace.is_empty()
            && data.list.is_empty()
            && data.hoist.is_empty()
            && data.keep.is_empty(),
        "{file}: plain text has no kinds to replace, hoist, keep or list"
    );
    let tables = Tables::compile(&data, &FixedKinds { language: "plain text", names: KINDS })?;
    Ok(Box::new(TextFrontend { order: tables.order, policy: tables.policy }))
}

#[derive(Debug)]
struct TextFrontend {
    order: OrderData,
    policy: Arc<Policy>,
}

impl Frontend for TextFrontend {
    fn parse(&self, src: Arc<[u8]>) -> Tree {
        let mut b = TreeBuilder::new(src.clone());
        b.open(DOCUMENT, flags::NAMED, 0, src.len());
        let mut start = 0;
        while start < src.len() {
            let end =
                src[start..].iter().position(|&c| c == b'\n').map_or(src.len(), |i| start + i + 1);
            let line = b.open(LINE, flags::NAMED, start, end);
            b.node_mut(line).action = Action::Delete;
            let mut i = start;
            while i < end {
                if src[i].is_ascii_whitespace() {
                    i += 1;
                    continue;
                }
                let word = crate::syntax::is_word_byte;
                let len = if word(src[i]) {
                    src[i..end].iter().take_while(|&&c| word(c)).count()
                } else {
                    1
                };
                let token = b.open(TOKEN, flags::NAMED, i, i + len);
                b.node_mut(token).action = Action::Delete;
                b.close();
                i += len;
            }
            b.close();
            start = end;
        }
        b.finish(self.policy.clone())
    }

    fn order(&self) -> OrderData {
        self.order
    }

    fn syntax_errors(&self, _src: &[u8]) -> usize {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{Mask, NodeId, Unparser};

    #[test]
    fn lines_then_tokens() {
        let fe = crate::language::by_name("text").expect("text").frontend().expect("front-end");
        let src = "first line\nsecond, line\n";
        let tree = fe.parse(Arc::from(src.as_bytes()));
        let kinds: Vec<u16> = tree.nodes().iter().map(|n| n.kind).collect();
        assert_eq!(kinds, [DOCUMENT, LINE, TOKEN, TOKEN, LINE, TOKEN, TOKEN, TOKEN]);
        // deleting the first line and "second," leaves "line\n"
        let mut mask = Mask::new(tree.len());
        mask.set_off(NodeId(1));
        mask.set_off(NodeId(5));
        mask.set_off(NodeId(6));
        let mut out = Vec::new();
        Unparser::new().unparse(&tree, &mask, &mut out);
        assert_eq!(out, b"line\n");
    }
}
