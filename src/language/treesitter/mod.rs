//! The generic tree-sitter front-end: C, C++, JavaScript, JSON, Python and
//! Rust are rows of it.
//!
//! What may be deleted comes from the grammar's own `node-types.json`
//! (`NODE_TYPES` in each grammar crate, read in [`node_types`]): a child
//! that the parent's node type lists as optional, or as one of a repeated
//! list, may be deleted; a required child may only be replaced by the
//! minimal form its kind has in the grammar data (`grammars/<lang>.toml`),
//! or kept. Comments and other extras may always be deleted, and so may
//! anything inside a syntax error node, whose shape the grammar says
//! nothing about. Nothing here is specific to one language.

use std::collections::HashSet;
use std::sync::Arc;

use anyhow::{Context, Result};
use std::ops::ControlFlow;

use tree_sitter::{Language, ParseOptions, ParseState, Parser};

use super::grammar::{GrammarData, OrderData};
use super::tables::Tables;
use super::{whole, Frontend, GuardBase, Interrupt, LangInfo, INTERRUPT_EVERY};
use crate::syntax::policy::ERROR_KIND;
use crate::syntax::tree::{flags, roles, Action, Node, NodeId, Tree, TreeBuilder};

mod cursor;
mod incremental;
mod json;
mod node_types;

use cursor::{Cursor, SourceNode};
use incremental::{errors, Base};
use node_types::{Grammar, Places, Slot};

/// A walk of a tree-sitter tree into a [`TreeBuilder`]: the nodes it has
/// open there (each one's kind, field and tree-sitter id), and the links
/// of chains it closed before the cursor left them.
#[derive(Default)]
struct Walk {
    open: Vec<Opened>,
    /// The tree-sitter ids of the nodes closed early, innermost last.
    early: Vec<usize>,
}

/// A node a [`Walk`] has open in the builder.
#[derive(Clone, Copy)]
struct Opened {
    id: NodeId,
    kind: u16,
    field: u16,
    ts: usize,
    /// Where its last child so far ends (its start before one).
    last_end: usize,
}

impl Walk {
    fn open(&mut self, b: &mut TreeBuilder, node: Opened, flags: u8, span: (usize, usize)) {
        let id = b.open(node.kind, flags, span.0, span.1);
        self.open.push(Opened { id, last_end: span.0, ..node });
    }

    fn close(&mut self, b: &mut TreeBuilder) {
        b.close();
        if let Some(closed) = self.open.pop() {
            let end = b.node(closed.id).end as usize;
            if let Some(parent) = self.open.last_mut() {
                parent.last_end = end;
            }
        }
    }

    /// Moves `cursor` to the next node in preorder after the current one's
    /// subtree, closing in `b` the nodes it leaves (but those closed
    /// early); true at the end of the tree.
    fn next(&mut self, cursor: &mut impl Cursor, b: &mut TreeBuilder) -> bool {
        loop {
            if cursor.goto_next_sibling() {
                return false;
            }
            if !cursor.goto_parent() {
                return true;
            }
            if self.early.last() == Some(&cursor.node().id()) {
                self.early.pop();
                continue;
            }
            self.close(b);
        }
    }

    /// Before a child in `field` of the innermost open node opens: when
    /// that node continues a chain (grammar data `[[chain]]`: it is in a
    /// link in the chain's field of a node of its own kind), it and its
    /// link end where its children so far end, and the child opens under
    /// the node before them, beside the link: so every link of the chain
    /// is a child of its first node, in order.
    fn unnest(&mut self, b: &mut TreeBuilder, chains: &HashSet<(u16, u16, u16)>, field: u16) {
        let [.., head, link, node] = self.open[..] else { return };
        if node.kind != head.kind
            || link.field != field
            || !chains.contains(&(node.kind, field, link.kind))
        {
            return;
        }
        let end = node.last_end;
        for id in [node.id, link.id] {
            b.node_mut(id).end = end as u32;
            self.close(b);
        }
        // a link goes whole: what is left of the node in it has nothing
        // to stand for it (`else ;` before the next `else` is no C)
        b.node_mut(node.id).action = Action::Keep;
        self.early.extend([link.ts, node.ts]);
    }
}

/// Builds the front-end of one registry row.
pub(crate) fn build(
    info: &LangInfo,
    language: Language,
    node_types: &str,
) -> Result<Box<dyn Frontend>> {
    let (file, text) = info.grammar;
    let data = GrammarData::parse(file, text)?;
    let frontend = TreeSitterFrontend::new(language, node_types, &data)
        .with_context(|| format!("cannot build the {} front-end from {file}", info.name))?;
    Ok(Box::new(frontend))
}

/// Builds JSON's front-end: tree-sitter-json's, reading with the JSON
/// reader ([`json`]) every text it takes.
pub(crate) fn build_json(info: &LangInfo) -> Result<Box<dyn Frontend>> {
    let (file, text) = info.grammar;
    let data = GrammarData::parse(file, text)?;
    let language: Language = tree_sitter_json::LANGUAGE.into();
    let mut frontend =
        TreeSitterFrontend::new(language.clone(), tree_sitter_json::NODE_TYPES, &data)
            .with_context(|| format!("cannot build the {} front-end from {file}", info.name))?;
    let reader = json::JsonReader::new(&language)
        .context("tree-sitter-json lacks a kind or field the JSON reader makes")?;
    // the reader makes no insides of strings and numbers, and no chains
    let t = &frontend.tables;
    if !reader.leaf_kinds().iter().all(|&k| t.kind(k).atomic) || !t.chains.is_empty() {
        anyhow::bail!("{file}: the JSON reader needs strings and numbers atomic and no chains");
    }
    frontend.json = Some(reader);
    Ok(Box::new(frontend))
}

#[derive(Debug)]
struct TreeSitterFrontend {
    language: Language,
    tables: Tables,
    places: Places,
    /// JSON's own reader, which reads the texts it takes in place of
    /// tree-sitter (the same tree, without tree-sitter's in memory).
    json: Option<json::JsonReader>,
    /// Parses give up when it is set.
    interrupt: Interrupt,
}

impl TreeSitterFrontend {
    fn new(language: Language, node_types: &str, data: &GrammarData) -> Result<Self> {
        let mut parser = Parser::new();
        parser.set_language(&language).context("the grammar's ABI version is not supported")?;
        let grammar = Grammar::new(&language, node_types)?;
        let mut tables = Tables::compile(data, &grammar)?;
        let places = grammar.places(&tables)?;
        tables.set_slots(places.slot_infos.clone());
        Ok(TreeSitterFrontend {
            language,
            tables,
            places,
            json: None,
            interrupt: Interrupt::default(),
        })
    }

    fn parser(&self) -> Option<Parser> {
        let mut parser = Parser::new();
        parser.set_language(&self.language).ok()?;
        Some(parser)
    }

    /// Parses `src` (from `old`, edited to it, if given); `None` if the
    /// parse gave up on the interrupt.
    fn ts_parse(&self, src: &[u8], old: Option<&tree_sitter::Tree>) -> Option<tree_sitter::Tree> {
        let mut parser = self.parser()?;
        let len = src.len();
        let mut progress = |_: &ParseState| {
            if self.interrupt.is_set() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let options = ParseOptions::new().progress_callback(&mut progress);
        parser.parse_with_options(
            &mut |i, _| if i < len { &src[i..] } else { &[] },
            old,
            Some(options),
        )
    }

    /// Adds the nodes of `ts`, a parse of `src[offset..limit]` (of the
    /// whole file when `offset` is 0, else of a token's text parsed again,
    /// perhaps with a `;` after it), under the builder's innermost open
    /// node; nodes past `limit` (that `;`) are left out, and those that
    /// reach past it end there. Breaks when the interrupt is set.
    fn build(
        &self,
        b: &mut TreeBuilder,
        mut cursor: impl Cursor,
        src: &[u8],
        (offset, limit): (usize, usize),
        built: &mut usize,
    ) -> ControlFlow<()> {
        let body = b.current().is_some();
        let r = cursor.node();
        // the body's span: a node that spans it all goes with the token
        let whole = (r.start_byte() + offset, (r.end_byte() + offset).min(limit));
        let mut walk = Walk::default();
        loop {
            *built += 1;
            if built.is_multiple_of(INTERRUPT_EVERY) && self.interrupt.is_set() {
                return ControlFlow::Break(());
            }
            let node = cursor.node();
            let (start, end) = (node.start_byte() + offset, node.end_byte() + offset);
            if body && start >= limit {
                // the `;` put after an expression body
                if walk.next(&mut cursor, b) {
                    return ControlFlow::Continue(());
                }
                continue;
            }
            let end = end.min(limit);
            let field = cursor.field_id();
            if field != 0 && !self.tables.chains.is_empty() {
                walk.unnest(b, &self.tables.chains, field);
            }
            let parent = b.current().map(|p| b.node(p).clone());
            let root = body && cursor.depth() == 0;
            let (f, slot, mut action) = if root {
                // the body's root stands for the token, which goes whole
                (flags::NAMED, 0, Action::Keep)
            } else {
                self.classify(parent.as_ref(), &node, field)
            };
            if body && cursor.depth() == 1 && (start, end) == whole {
                // the body's only statement: deleting it is deleting the
                // token, which has a test of its own
                action = Action::Keep;
            }
            let kind = if node.is_error() { ERROR_KIND } else { node.kind_id() };
            let opened = Opened { id: NodeId(0), kind, field, ts: node.id(), last_end: start };
            walk.open(b, opened, f, (start, end));
            let id = b.current().expect("just opened");
            let n = b.node_mut(id);
            n.action = action;
            n.slot = slot;
            if let Action::Replace(e) = action {
                if self.tables.only_in_groups(e, node.end_byte() - node.start_byte()) {
                    n.role |= roles::GROUPED;
                }
            }
            if let Some(p) = parent.as_ref() {
                n.role |= self.tables.child_role(p.kind, p.role, field);
            }
            n.member =
                if node.is_error() || root { 0 } else { u8::from(self.tables.kind(kind).hoist) };
            let rules = self.tables.kind(kind);
            if !rules.atomic && cursor.goto_first_child() {
                continue;
            }
            if !body && rules.reparse && node.is_leaf() {
                self.body(b, src, start, end, built)?;
            }
            walk.close(b);
            if walk.next(&mut cursor, b) {
                return ControlFlow::Continue(());
            }
        }
    }

    /// Parses the text `src[start..end]` of a token of a `reparse` kind
    /// again, as the language, and adds its tree under the token (open in
    /// the builder). A text with syntax errors is parsed once more with a
    /// `;` after it (a macro body that is an expression); when that has
    /// errors too the token stays opaque, since a macro body is often not
    /// the language alone (`##`, half a statement). Bodies are not parsed
    /// again inside bodies, so a file costs at most three parses of its
    /// length.
    fn body(
        &self,
        b: &mut TreeBuilder,
        src: &[u8],
        start: usize,
        end: usize,
        built: &mut usize,
    ) -> ControlFlow<()> {
        let text = &src[start..end];
        // only the interrupt stops a parse
        let Some(mut ts) = self.ts_parse(text, None) else { return ControlFlow::Break(()) };
        if ts.root_node().has_error() {
            let statement = [text, b";"].concat();
            let Some(again) = self.ts_parse(&statement, None) else {
                return ControlFlow::Break(());
            };
            ts = again;
        }
        let root = ts.root_node();
        if root.has_error() || root.child_count() == 0 {
            return ControlFlow::Continue(());
        }
        self.build(b, ts.walk(), src, (start, end), built)
    }

    /// Flags, slot and action of a node, given its parent and field.
    fn classify(
        &self,
        parent: Option<&Node>,
        node: &impl SourceNode,
        field: u16,
    ) -> (u8, u16, Action) {
        let (flags, action) = self.classify_action(parent, node, field);
        let slot = match parent {
            Some(p) if !node.is_error() && p.kind != ERROR_KIND => {
                self.places.slot_ids[self.places.index(p.kind, field)]
            }
            _ => 0,
        };
        (flags, slot, action)
    }

    /// The flags (`flags::*`) of a node of `kind`, in `field` of `parent`:
    /// what the parser says of it, and its part in a separated list.
    fn flags(&self, parent: Option<&Node>, node: &impl SourceNode, kind: u16, field: u16) -> u8 {
        let t = &self.tables;
        let mut f = 0;
        if node.is_named() {
            f |= flags::NAMED;
        }
        if node.is_extra() {
            f |= flags::EXTRA;
        }
        if node.is_error() {
            f |= flags::ERROR;
        }
        if node.is_missing() {
            f |= flags::MISSING;
        }
        if kind == ERROR_KIND || t.list.get(kind as usize).is_some_and(Option::is_some) {
            f |= flags::LIST;
        }
        let Some(parent) = parent.filter(|p| p.has(flags::LIST) && !node.is_extra()) else {
            return f;
        };
        let (separators, element_field) = match t.list.get(parent.kind as usize).copied().flatten()
        {
            Some(l) => (&t.lists[l].separators, t.lists[l].field),
            None => (&t.separators, None), // a syntax error node
        };
        if separators.contains(&kind) {
            f |= flags::SEPARATOR;
        } else if node.is_named() && element_field.is_none_or(|fl| fl == field) {
            f |= flags::ELEMENT;
        }
        f
    }

    fn classify_action(
        &self,
        parent: Option<&Node>,
        node: &impl SourceNode,
        field: u16,
    ) -> (u8, Action) {
        let (t, places) = (&self.tables, &self.places);
        let kind = if node.is_error() { ERROR_KIND } else { node.kind_id() };
        let f = self.flags(parent, node, kind, field);
        let Some(parent) = parent else { return (f, Action::Keep) };
        if node.is_missing() || node.start_byte() == node.end_byte() {
            return (f, Action::Keep);
        }
        if f & flags::SEPARATOR != 0 {
            return (f, Action::Keep); // goes with its elements
        }
        if node.is_extra() || node.is_error() || parent.kind == ERROR_KIND {
            return (f, Action::Delete);
        }
        let index = places.index(parent.kind, field);
        if field == 0 && !node.is_named() {
            // punctuation and keywords outside fields are the syntax itself
            return (f, Action::Keep);
        }
        if t.is_kept(parent.kind, field, kind) {
            // kept from every search but coordinated deletion, if grammar
            // data `group_replace` has a form for it (C++'s `T f();`, whose
            // optional type is kept, to `int f();` with T's typedef)
            let grouped = places.replacements[index].iter().find(|&&e| {
                t.entry_grouped[e as usize] && t.entry_kinds[e as usize][kind as usize]
            });
            return match grouped {
                Some(&e) if node.is_named() => (f, Action::Replace(e)),
                _ => (f | flags::KEPT, Action::Keep),
            };
        }
        if places.slots[index] == Slot::Deletable {
            return (f, Action::Delete);
        }
        if node.is_named() {
            let len = node.end_byte() - node.start_byte();
            for &e in &places.replacements[index] {
                if t.entry_kinds[e as usize][kind as usize] {
                    // one for coordinated deletion only is marked so by
                    // the builder (`roles::GROUPED`)
                    if t.policy.replacements[e as usize].len() < len || t.only_in_groups(e, len) {
                        return (f, Action::Replace(e));
                    }
                    break;
                }
            }
        }
        (f, Action::Keep)
    }
}

impl Frontend for TreeSitterFrontend {
    fn parse(&self, src: Arc<[u8]>) -> Tree {
        let mut b = TreeBuilder::new(src.clone());
        if let Some(read) = self.json.as_ref().and_then(|r| Some((r, r.read(&src)?))) {
            let cursor = read.0.cursor(&read.1);
            if self.build(&mut b, cursor, &src, (0, src.len()), &mut 0).is_break() {
                return whole(src, 0, self.tables.policy.clone());
            }
            return b.finish(self.tables.policy.clone()); // no syntax errors
        }
        let Some(ts) = self.ts_parse(&src, None) else {
            // only an interrupted or misconfigured parser returns nothing;
            // keep the input whole rather than fail
            return whole(src, 0, self.tables.policy.clone());
        };
        let mut built = 0usize;
        if self.build(&mut b, ts.walk(), &src, (0, src.len()), &mut built).is_break() {
            return whole(src, 0, self.tables.policy.clone());
        }
        // the file's own errors, as a full parse counts them: errors of a
        // body parsed again never count (the guard's parse sees none), and
        // such a body stays opaque anyway
        b.set_error_count(errors(&ts).len());
        b.finish(self.tables.policy.clone())
    }

    fn order(&self) -> OrderData {
        self.tables.order
    }

    fn syntax_errors(&self, src: &[u8]) -> usize {
        if self.json.as_ref().is_some_and(|r| r.accepts(src)) {
            return 0;
        }
        match self.ts_parse(src, None) {
            Some(ts) => errors(&ts).len(),
            None => usize::MAX,
        }
    }

    fn guard_base(&self, src: &[u8]) -> Option<GuardBase> {
        if self.json.as_ref().is_some_and(|r| r.accepts(src)) {
            return Some(Box::new(json::Valid));
        }
        let tree = self.ts_parse(src, None)?;
        let errors = errors(&tree);
        Some(Box::new(Base::new(tree, src, errors)))
    }

    fn syntax_errors_from(&self, base: &GuardBase, text: &[u8]) -> (usize, Option<GuardBase>) {
        if self.json.as_ref().is_some_and(|r| r.accepts(text)) {
            return (0, Some(Box::new(json::Valid)));
        }
        let Some(base) = base.downcast_ref::<Base>() else {
            return (self.syntax_errors(text), None);
        };
        let edited = base.edited_to(text);
        let Some(mut ts) = self.ts_parse(text, edited.as_ref().map(|e| &e.tree)) else {
            return (usize::MAX, None);
        };
        let mut found = errors(&ts);
        // tree-sitter's error recovery may go another way when it reuses
        // the old parse (one error more or fewer than from scratch), so a
        // re-parse is trusted only when the edit touched none of the best's
        // errors and it found exactly those; else it is done again from
        // scratch
        if edited.is_some_and(|e| !base.agrees(&e, &ts, &found)) {
            match self.ts_parse(text, None) {
                Some(fresh) => ts = fresh,
                None => return (usize::MAX, None),
            }
            found = errors(&ts);
        }
        (found.len(), Some(Box::new(Base::new(ts, text, found))))
    }

    fn set_interrupt(&mut self, interrupt: Interrupt) {
        self.interrupt = interrupt;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::language::by_name;
    use crate::syntax::mask::Mask;
    use crate::syntax::tree::{Action, NodeId, Tree};
    use crate::syntax::Unparser;

    fn parse(lang: &str, src: &str) -> Tree {
        let frontend = by_name(lang).expect("a language").frontend().expect("builds");
        frontend.parse(Arc::from(src.as_bytes()))
    }

    /// The nodes inside the first node of kind `kind`: depth below it, kind
    /// and text.
    fn inside(tree: &Tree, kind: &str) -> Vec<(usize, String, String)> {
        let nodes = tree.nodes();
        let at = nodes.iter().position(|n| tree.kind_name(n.kind) == kind).expect("the kind");
        let mut out = Vec::new();
        for i in at + 1..nodes[at].subtree_end as usize {
            let mut depth = 0;
            let mut p = nodes[i].parent as usize;
            while p != at {
                depth += 1;
                p = nodes[p].parent as usize;
            }
            let text = String::from_utf8_lossy(tree.text(NodeId(i as u32))).into_owned();
            out.push((depth, tree.kind_name(nodes[i].kind).to_string(), text));
        }
        out
    }

    /// The text with the named children of the body's root whose text
    /// starts with one of `off` switched off.
    fn without(tree: &Tree, off: &[&str]) -> String {
        let nodes = tree.nodes();
        let body =
            nodes.iter().position(|n| tree.kind_name(n.kind) == "preproc_arg").expect("a body") + 1;
        let mut mask = Mask::new(tree.len());
        for c in tree.children(NodeId(body as u32)) {
            let text = String::from_utf8_lossy(tree.text(c)).into_owned();
            if off.iter().any(|o| text.starts_with(o)) {
                assert_eq!(tree.node(c).action, Action::Delete, "{text}");
                mask.set_off(c);
            }
        }
        let mut out = Vec::new();
        Unparser::new().unparse(tree, &mask, &mut out);
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn an_else_if_chain_is_one_list_of_links_under_its_first_if() {
        // grammar data `[[chain]]`, in C, C++, JavaScript and Rust
        let cases = [
            ("c", "if_statement", "void f(int x) { if (x) a(); else if (x > 1) b(); else if (x > 2) c(); else d(); }\n"),
            ("cpp", "if_statement", "void f(int x) { if (x) a(); else if (x > 1) b(); else if (x > 2) c(); else d(); }\n"),
            ("js", "if_statement", "function f(x) { if (x) a(); else if (x > 1) b(); else if (x > 2) c(); else d(); }\n"),
            ("rust", "if_expression", "fn f(x: u8) { if x == 0 { a() } else if x > 1 { b() } else if x > 2 { c() } else { d() } }\n"),
        ];
        for (lang, kind, src) in cases {
            let tree = parse(lang, src);
            let nodes = tree.nodes();
            let head = nodes.iter().position(|n| tree.kind_name(n.kind) == kind).expect("an if");
            let links: Vec<NodeId> = tree
                .children(NodeId(head as u32))
                .filter(|&c| tree.kind_name(tree.node(c).kind) == "else_clause")
                .collect();
            let texts: Vec<String> =
                links.iter().map(|&l| String::from_utf8_lossy(tree.text(l)).into_owned()).collect();
            assert_eq!(texts.len(), 3, "{lang}: {texts:?}");
            // each link ends where the next begins
            let first = &texts[0];
            assert!(first.starts_with("else if") && first.contains("b()"), "{lang}: {texts:?}");
            assert!(!first.contains("c()"), "{lang}: {texts:?}");
            assert!(texts[2].starts_with("else {") || texts[2] == "else d();", "{lang}: {texts:?}");
            // a middle link goes alone, and the rest of the chain stays
            let mut mask = Mask::new(tree.len());
            assert_eq!(tree.node(links[1]).action, Action::Delete, "{lang}");
            mask.set_off(links[1]);
            let mut out = Vec::new();
            Unparser::new().unparse(&tree, &mask, &mut out);
            let text = String::from_utf8(out).expect("utf-8");
            assert!(
                !text.contains("x > 2") && text.contains("x > 1") && text.contains("d()"),
                "{text}"
            );
            assert_eq!(parse(lang, &text).error_count(), 0, "{lang}: {text}");
            // nothing else moved: with nothing off, the text is the input
            let mut out = Vec::new();
            Unparser::new().unparse(&tree, &Mask::new(tree.len()), &mut out);
            assert_eq!(out, src.as_bytes(), "{lang}");
        }
    }

    #[test]
    fn a_child_with_its_token_before_goes_with_it() {
        // grammar data `[[with_token_before]]`: Rust's `-> u8`, `: u8`, `= 1`
        let tree = parse("rust", "fn f() -> u8 { let x: u8 = 1; x }\n");
        // the child of a node of kind `parent` whose text is `text`
        let child = |parent: &str, text: &str| {
            let nodes = tree.nodes();
            let p = nodes.iter().position(|n| tree.kind_name(n.kind) == parent).expect("parent");
            let c = tree.children(NodeId(p as u32)).find(|&c| tree.text(c) == text.as_bytes());
            c.expect("a child with the text")
        };
        let cases: &[(&[(&str, &str)], &str)] = &[
            (&[("function_item", "u8")], "fn f() { let x: u8 = 1; x }\n"),
            (&[("let_declaration", "u8")], "fn f() -> u8 { let x = 1; x }\n"),
            (&[("let_declaration", "1")], "fn f() -> u8 { let x: u8; x }\n"),
            (&[("let_declaration", "u8"), ("let_declaration", "1")], "fn f() -> u8 { let x; x }\n"),
        ];
        for &(off, want) in cases {
            let mut mask = Mask::new(tree.len());
            for &(parent, text) in off {
                let c = child(parent, text);
                assert_eq!(tree.node(c).action, Action::Delete, "{parent} {text}");
                mask.set_off(c);
            }
            let mut out = Vec::new();
            Unparser::new().unparse(&tree, &mask, &mut out);
            assert_eq!(String::from_utf8(out).expect("utf-8"), want, "without {off:?}");
        }
    }

    const MACRO: &str = "#define M(x) \\\n  int a; \\\n  a = x; \\\n  f(a);\nint y;\n";

    #[test]
    fn a_macro_body_is_parsed_again_under_its_token() {
        let tree = parse("c", MACRO);
        let got = inside(&tree, "preproc_arg");
        let want: &[(usize, &str, &str)] = &[
            (0, "translation_unit", "int a; \\\n  a = x; \\\n  f(a);"),
            (1, "declaration", "int a;"),
            (2, "primitive_type", "int"),
            (2, "identifier", "a"),
            (2, ";", ";"),
            (1, "expression_statement", "a = x;"),
            (2, "assignment_expression", "a = x"),
            (3, "identifier", "a"),
            (3, "=", "="),
            (3, "identifier", "x"),
            (2, ";", ";"),
            (1, "expression_statement", "f(a);"),
            (2, "call_expression", "f(a)"),
            (3, "identifier", "f"),
            (3, "argument_list", "(a)"),
            (4, "(", "("),
            (4, "identifier", "a"),
            (4, ")", ")"),
            (2, ";", ";"),
        ];
        let want: Vec<_> =
            want.iter().map(|&(d, k, t)| (d, k.to_string(), t.to_string())).collect();
        assert_eq!(got, want);
        assert_eq!(without(&tree, &[]), MACRO);
        assert_eq!(tree.error_count(), 0);
        // the same in C++
        assert_eq!(inside(&parse("cpp", MACRO), "preproc_arg")[1].1, "declaration");
    }

    #[test]
    fn deleted_lines_of_a_body_keep_its_continuations() {
        let tree = parse("c", MACRO);
        let cases: &[(&[&str], &str)] = &[
            (&["a ="], "#define M(x) \\\n  int a; \\\n  f(a);\nint y;\n"),
            (&["int", "a ="], "#define M(x) \\\n  \\\n  f(a);\nint y;\n"),
            (&["f("], "#define M(x) \\\n  int a; \\\n  a = x;\nint y;\n"),
            (&["a =", "f("], "#define M(x) \\\n  int a;\nint y;\n"),
            // the body's first line too: the macro ends on an empty
            // continued line, never on `int y;`
            (&["int", "a =", "f("], "#define M(x) \\\n\nint y;\n"),
        ];
        for &(off, want) in cases {
            assert_eq!(without(&tree, off), want, "without {off:?}");
        }
        // a body on the directive's line
        let tree = parse("c", "#define M(x) int a; \\\n  f(a);\nint y;\n");
        assert_eq!(without(&tree, &["f("]), "#define M(x) int a;\nint y;\n");
        assert_eq!(without(&tree, &["int"]), "#define M(x) \\\n  f(a);\nint y;\n");
    }

    #[test]
    fn an_expression_body_is_read_as_a_statement_without_its_semicolon() {
        let tree = parse("c", "#define N(x) ((x) + f(x))\nint y;\n");
        let got = inside(&tree, "preproc_arg");
        let kinds: Vec<&str> = got.iter().take(4).map(|(_, k, _)| k.as_str()).collect();
        assert_eq!(
            kinds,
            ["translation_unit", "expression_statement", "parenthesized_expression", "("]
        );
        // nothing reaches past the body, and nothing stands for the `;`
        assert!(got.iter().all(|(_, k, t)| k != ";" && t.len() <= 13), "{got:?}");
        assert_eq!(got[1].2, "((x) + f(x))");
        assert_eq!(tree.error_count(), 0);
        assert_eq!(without(&tree, &[]), "#define N(x) ((x) + f(x))\nint y;\n");
    }

    #[test]
    fn a_large_or_deep_body_costs_what_the_same_text_as_a_file_does() {
        let statements = "f(); \\\n".repeat(20_000);
        let src = format!("#define M \\\n{statements}g();\nint y;\n");
        let tree = parse("c", &src);
        let alone = parse("c", &format!("{statements}g();\n"));
        // the body's nodes are its text's alone; the file adds its root,
        // the directive's four and the declaration's four
        assert_eq!(tree.len(), alone.len() + 9, "{} and {}", tree.len(), alone.len());
        assert_eq!(without(&tree, &[]), src);
        // a deep expression, parsed a third time with its `;`
        let deep = format!("#define D {}x{}\n", "(".repeat(5_000), ")".repeat(5_000));
        let tree = parse("c", &deep);
        assert!(tree.len() > 10_000 && tree.error_count() == 0, "{tree:?}");
        assert_eq!(without(&tree, &[]), deep);
    }

    #[test]
    fn a_body_with_syntax_errors_stays_whole_and_counts_none() {
        for src in ["#define P(a, b) a##b\n", "#define S(x) #x\n", "#define E if (x\n"] {
            let tree = parse("c", src);
            assert_eq!(inside(&tree, "preproc_arg"), [], "{src}");
            assert_eq!(tree.error_count(), 0, "{src}");
        }
        // a file's own errors are counted as a full parse counts them
        let tree = parse("c", "#define M int a; f(a);\nint y = ;\n");
        assert_eq!(inside(&tree, "preproc_arg").len(), 13);
        assert_eq!(tree.error_count(), 1);
    }
}
