//! The S-expression front-end, a reader of our own: SMT-LIB 2, WebAssembly
//! text and other Lisp-shaped formats. Grammar data `[sexp]` says what a
//! dialect's comments, strings and quoted symbols look like, and which list
//! kinds its head symbols name.
//!
//! Tree shape (kinds in [`FIXED`], then those of `[sexp.heads]`):
//!
//! ```text
//! source_file
//!   list | atom | comment | ERROR      top-level forms; an ERROR is a `)`
//!   list                               that closes nothing
//!     (                                kept
//!     head                             the symbol a list starts with: kept
//!     element*                         while the list stands; the element
//!     )                                right after a head is in field
//!                                      `first`, the others in `rest`
//!     attribute                        a keyword and the element after it
//!       keyword element?               (not a keyword), both kept
//!   atom: symbol | identifier ($x) | keyword (:x) | number | string
//!         | quoted_symbol (|x y|)
//! ```
//!
//! A list whose head is one of the symbols `[sexp.heads]` lists under a
//! kind is a node of that kind (SMT-LIB's `declaration`): the rest of the
//! grammar data names such kinds like any other. A kind that declares names
//! (`[[declare]]`) is kept only for a list whose `first` element is a name
//! of the declared kind; any other such list is a plain `list`.
//!
//! Elements and comments may be deleted (unless `[[keep]]` keeps them); an
//! attribute goes whole (`:weight 0` of SMT-LIB, `:key value` of a plist);
//! below the top level an element stands in a place that takes any kind
//! hoisting moves, one at a time, so `(and a (or b c))` may become
//! `(or b c)`. Top-level forms (commands, a module) are never replaced by
//! what is inside them, and a head is never a hoist target.
//!
//! Parsing never fails: a `)` that closes nothing is an error node; a list,
//! string, quoted symbol or block comment still open at the end of the input
//! ends there. Each counts as one syntax error for the syntax guard. Every
//! byte outside the tokens is whitespace left where it was, so unparsing
//! with nothing switched off gives the input back.

use std::collections::HashMap;
use std::sync::Arc;

use anyhow::{bail, Context, Result};

use super::grammar::{EscapeData, GrammarData, OrderData, SexpData};
use super::tables::{Tables, Vocabulary};
use super::{whole, Frontend, Interrupt, LangInfo, INTERRUPT_EVERY};
use crate::syntax::policy::{SlotInfo, ERROR_KIND};
use crate::syntax::tree::{flags, Action, NodeId, Tree, TreeBuilder};

/// The kinds every S-expression language has; `[sexp.heads]` adds more
/// list kinds after them.
pub(crate) const FIXED: &[&str] = &[
    "source_file",
    "list",
    "head",
    "symbol",
    "identifier",
    "keyword",
    "number",
    "string",
    "quoted_symbol",
    "comment",
    "(",
    ")",
    "attribute",
];

const SOURCE_FILE: u16 = 0;
const LIST: u16 = 1;
const HEAD: u16 = 2;
const SYMBOL: u16 = 3;
const IDENTIFIER: u16 = 4;
const KEYWORD: u16 = 5;
const NUMBER: u16 = 6;
const STRING: u16 = 7;
const QUOTED_SYMBOL: u16 = 8;
const COMMENT: u16 = 9;
const OPEN: u16 = 10;
const CLOSE: u16 = 11;
const ATTRIBUTE: u16 = 12;

/// The fields: the element right after a list's head, and those after it.
const FIELDS: &[&str] = &["first", "rest"];
const FIRST: u16 = 1;
const REST: u16 = 2;

pub(crate) fn build(info: &LangInfo) -> Result<Box<dyn Frontend>> {
    let (file, text) = info.grammar;
    let data = GrammarData::parse(file, text)?;
    let frontend = SexpFrontend::new(&data).with_context(|| format!("in {file}"))?;
    Ok(Box::new(frontend))
}

/// The kind and field names of one S-expression language.
struct SexpKinds {
    names: Vec<Box<str>>,
}

impl Vocabulary for SexpKinds {
    fn kind_count(&self) -> usize {
        self.names.len()
    }

    fn names(&self) -> Vec<Box<str>> {
        self.names.clone()
    }

    fn named(&self, name: &str) -> Result<Vec<u16>> {
        match self.names.iter().position(|k| &**k == name) {
            Some(i) => Ok(vec![i as u16]),
            None => {
                bail!("unknown node kind {name:?} (S-expression kinds: {})", self.names.join(", "))
            }
        }
    }

    fn is_supertype(&self, _name: &str) -> bool {
        false
    }

    fn tokens(&self, text: &str) -> Result<Vec<u16>> {
        bail!("S-expressions have no separator tokens such as {text:?}")
    }

    fn field(&self, name: &str) -> Result<u16> {
        match FIELDS.iter().position(|f| *f == name) {
            Some(i) => Ok(i as u16 + 1),
            None => bail!("unknown field {name:?} (S-expression fields: {})", FIELDS.join(", ")),
        }
    }
}

/// A block comment's opening and closing brackets.
type Pair = (Box<[u8]>, Box<[u8]>);

/// What a dialect's tokens look like (grammar data `[sexp]`, as bytes).
#[derive(Debug, Default)]
struct Lexer {
    line_comment: Option<Box<[u8]>>,
    block_comment: Option<Pair>,
    escape: EscapeData,
    quoted_symbols: bool,
}

impl Lexer {
    fn new(data: &SexpData) -> Result<Lexer> {
        let bytes = |s: &String| -> Result<Box<[u8]>> {
            anyhow::ensure!(
                !s.is_empty() && !s.bytes().any(|c| c.is_ascii_whitespace()),
                "in sexp: a comment bracket must be a non-empty word, not {s:?}"
            );
            Ok(Box::from(s.as_bytes()))
        };
        Ok(Lexer {
            line_comment: data.line_comment.as_ref().map(bytes).transpose()?,
            block_comment: match &data.block_comment {
                Some([open, close]) => Some((bytes(open)?, bytes(close)?)),
                None => None,
            },
            escape: data.escape,
            quoted_symbols: data.quoted_symbols,
        })
    }

    /// Whether an atom ends before `src[i]`.
    fn ends_atom(&self, src: &[u8], i: usize) -> bool {
        let c = src[i];
        c.is_ascii_whitespace()
            || matches!(c, b'(' | b')' | b'"')
            || (c == b'|' && self.quoted_symbols)
            || self.line_comment.as_ref().is_some_and(|l| src[i..].starts_with(l))
            || self.block_comment.as_ref().is_some_and(|(o, _)| src[i..].starts_with(o))
    }

    /// The end of the block comment that starts at `i` (nested ones
    /// inside), and whether it is closed.
    fn block_end(&self, src: &[u8], i: usize, open: &[u8], close: &[u8]) -> (usize, bool) {
        let mut depth = 0usize;
        let mut j = i;
        while j < src.len() {
            if src[j..].starts_with(open) {
                depth += 1;
                j += open.len();
            } else if src[j..].starts_with(close) {
                depth -= 1;
                j += close.len();
                if depth == 0 {
                    return (j, true);
                }
            } else {
                j += 1;
            }
        }
        (src.len(), false)
    }

    /// The end of the string that starts at `i` (its `"`), and whether it
    /// is closed.
    fn string_end(&self, src: &[u8], i: usize) -> (usize, bool) {
        let mut j = i + 1;
        while j < src.len() {
            match (src[j], self.escape) {
                (b'\\', EscapeData::Backslash) => j += 2,
                (b'"', EscapeData::Double) if src.get(j + 1) == Some(&b'"') => j += 2,
                (b'"', _) => return (j + 1, true),
                _ => j += 1,
            }
        }
        (src.len(), false)
    }
}

/// The kind of the atom `text` (not a string nor a quoted symbol).
fn atom_kind(text: &[u8]) -> u16 {
    match text {
        [b':', _, ..] => KEYWORD,
        [b'$', ..] => IDENTIFIER,
        [c, ..] if c.is_ascii_digit() => NUMBER,
        [b'+' | b'-', c, ..] if c.is_ascii_digit() => NUMBER,
        _ => SYMBOL,
    }
}

#[derive(Debug)]
struct SexpFrontend {
    tables: Tables,
    lexer: Lexer,
    /// The list kind each head symbol names (grammar data `[sexp.heads]`).
    heads: HashMap<Box<[u8]>, u16>,
    /// Replacement entry per kind.
    replacement: Vec<Option<u16>>,
    /// Parses give up when it is set.
    interrupt: Interrupt,
}

impl SexpFrontend {
    fn new(data: &GrammarData) -> Result<SexpFrontend> {
        anyhow::ensure!(data.list.is_empty(), "S-expressions have no separated lists");
        let sexp = data.sexp.as_ref().context("an S-expression language needs a [sexp] table")?;
        let mut names: Vec<Box<str>> = FIXED.iter().map(|&n| Box::from(n)).collect();
        let mut heads = HashMap::new();
        for (kind, symbols) in &sexp.heads {
            anyhow::ensure!(
                !FIXED.contains(&kind.as_str()),
                "in sexp.heads: {kind:?} is a kind of every S-expression language"
            );
            let id = names.len() as u16;
            names.push(Box::from(kind.as_str()));
            for s in symbols {
                anyhow::ensure!(
                    !s.is_empty() && atom_kind(s.as_bytes()) == SYMBOL,
                    "in sexp.heads: {s:?} is not a symbol"
                );
                if heads.insert(Box::from(s.as_bytes()), id).is_some() {
                    bail!("in sexp.heads: {s:?} names two kinds");
                }
            }
        }
        let vocabulary = SexpKinds { names };
        let mut tables = Tables::compile(data, &vocabulary)?;
        let count = vocabulary.kind_count() as u16;
        let replacement = (0..count).map(|k| tables.replacement_of(k)).collect();
        // one place below the top level: any kind hoisting moves, one at a time
        let members: Vec<u16> = (0..count).filter(|&k| tables.kind(k).hoist).collect();
        let mut slots = vec![SlotInfo::default()];
        if !members.is_empty() {
            slots.push(SlotInfo { repeated: false, accepts: members.into() });
        }
        tables.set_slots(slots);
        let lexer = Lexer::new(sexp)?;
        Ok(SexpFrontend { tables, lexer, heads, replacement, interrupt: Interrupt::default() })
    }
}

impl Frontend for SexpFrontend {
    fn parse(&self, src: Arc<[u8]>) -> Tree {
        let mut p = Reader::new(self, src.clone(), false);
        p.run();
        if p.interrupted {
            return whole(src, SOURCE_FILE, self.tables.policy.clone());
        }
        p.finish()
    }

    fn order(&self) -> OrderData {
        self.tables.order
    }

    fn syntax_errors(&self, src: &[u8]) -> usize {
        let mut p = Reader::new(self, Arc::from(src), true);
        p.run();
        if p.interrupted {
            return usize::MAX;
        }
        p.errors
    }

    fn set_interrupt(&mut self, interrupt: Interrupt) {
        self.interrupt = interrupt;
    }
}

/// A list whose `)` has not been read yet.
struct Open {
    id: NodeId,
    /// Its kind so far: a head may name it, a `first` element unname it.
    kind: u16,
    /// Elements read (comments are none).
    elements: u32,
    /// Whether its first element is a head symbol.
    headed: bool,
    /// Its own field in its parent list.
    field: u16,
    /// The attribute whose keyword was its last element, waiting for its
    /// value: its id, its field and where it ends so far.
    attribute: Option<(NodeId, u16, usize)>,
    /// It is the value of its parent list's attribute.
    value: bool,
}

struct Reader<'f> {
    fe: &'f SexpFrontend,
    src: Arc<[u8]>,
    b: TreeBuilder,
    stack: Vec<Open>,
    errors: usize,
    /// Tokens read, to ask the interrupt now and then.
    tokens: usize,
    /// The parse gave up on the interrupt.
    interrupted: bool,
}

impl<'f> Reader<'f> {
    /// A reader of `src`; with `counting`, one that only counts its syntax
    /// errors (see [`TreeBuilder::counting`]).
    fn new(fe: &'f SexpFrontend, src: Arc<[u8]>, counting: bool) -> Reader<'f> {
        let mut b = match counting {
            true => TreeBuilder::counting(src.clone()),
            false => TreeBuilder::new(src.clone()),
        };
        b.open(SOURCE_FILE, flags::NAMED, 0, src.len());
        Reader { fe, src, b, stack: Vec::new(), errors: 0, tokens: 0, interrupted: false }
    }

    fn run(&mut self) {
        let src = self.src.clone();
        let lexer = &self.fe.lexer;
        let mut i = 0;
        while i < src.len() {
            let c = src[i];
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            self.tokens += 1;
            if self.tokens.is_multiple_of(INTERRUPT_EVERY) && self.fe.interrupt.is_set() {
                self.interrupted = true;
                return;
            }
            if let Some((open, close)) = &lexer.block_comment {
                if src[i..].starts_with(open) {
                    let (end, closed) = lexer.block_end(&src, i, open, close);
                    self.comment(i, end, closed);
                    i = end;
                    continue;
                }
            }
            if let Some(line) = &lexer.line_comment {
                if src[i..].starts_with(line) {
                    let end =
                        src[i..].iter().position(|&c| c == b'\n').map_or(src.len(), |n| i + n);
                    self.comment(i, end, true);
                    i = end;
                    continue;
                }
            }
            match c {
                b'(' => {
                    self.open_list(i);
                    i += 1;
                }
                b')' => {
                    self.close_list(i);
                    i += 1;
                }
                b'"' => {
                    let (end, closed) = lexer.string_end(&src, i);
                    self.atom(STRING, i, end, closed);
                    i = end;
                }
                b'|' if lexer.quoted_symbols => {
                    let (end, closed) = match src[i + 1..].iter().position(|&c| c == b'|') {
                        Some(n) => (i + n + 2, true),
                        None => (src.len(), false),
                    };
                    self.atom(QUOTED_SYMBOL, i, end, closed);
                    i = end;
                }
                _ => {
                    let mut end = i + 1;
                    while end < src.len() && !lexer.ends_atom(&src, end) {
                        end += 1;
                    }
                    self.atom(atom_kind(&src[i..end]), i, end, true);
                    i = end;
                }
            }
        }
        // lists still open at the end of the input end there
        while !self.stack.is_empty() {
            self.errors += 1;
            self.finish_list(self.src.len());
        }
    }

    /// A comment, deletable anywhere; `closed`: not cut off by the end of
    /// the input.
    fn comment(&mut self, start: usize, end: usize, closed: bool) {
        if !closed {
            self.errors += 1;
        }
        let id = self.b.open(COMMENT, flags::NAMED | flags::EXTRA, start, end);
        self.b.node_mut(id).action = Action::Delete;
        self.b.close();
        // inside an attribute waiting for its value, the comment is its own
        if let Some((_, _, at)) = self.stack.last_mut().and_then(|o| o.attribute.as_mut()) {
            *at = end;
        }
    }

    /// Whether the innermost open list has an attribute waiting for its
    /// value.
    fn pending(&self) -> bool {
        self.stack.last().is_some_and(|o| o.attribute.is_some())
    }

    /// Ends the innermost open list's pending attribute, if any.
    fn close_attribute(&mut self) {
        let Some(open) = self.stack.last_mut() else { return };
        let Some((id, field, end)) = open.attribute.take() else { return };
        self.b.node_mut(id).end = end as u32;
        self.place(id, field);
        self.b.close();
    }

    /// A keyword or value inside an attribute: kept, as the attribute goes
    /// whole (a value may still become what is inside it).
    fn in_attribute(&mut self, id: NodeId) {
        let hoist = self.fe.tables.kind(self.b.node(id).kind).hoist;
        let n = self.b.node_mut(id);
        n.action = Action::Keep;
        n.flags |= flags::KEPT;
        n.member = u8::from(hoist);
        n.slot = u16::from(hoist);
    }

    /// The field of the next element of the innermost open list, counting
    /// it, and the kind that list is now; `None` at the top level.
    fn next_place(&mut self, kind: u16, text: &[u8]) -> Option<(u16, bool)> {
        let fe = self.fe;
        let open = self.stack.last_mut()?;
        let position = open.elements;
        open.elements += 1;
        if position == 0 && kind == SYMBOL {
            open.headed = true;
            if let Some(&k) = fe.heads.get(text) {
                open.kind = k;
            }
            return Some((0, true));
        }
        if !open.headed {
            return Some((0, false));
        }
        if position == 1 {
            // a declaring kind only where a name follows its head
            let policy = &fe.tables.policy;
            if let Some(d) = policy.kind(open.kind).declare {
                if policy.name_kind(kind) != d.name {
                    open.kind = LIST;
                }
            }
            return Some((FIRST, false));
        }
        Some((REST, false))
    }

    /// An atom: a head, an element of the innermost open list, or a
    /// top-level form.
    fn atom(&mut self, kind: u16, start: usize, end: usize, closed: bool) {
        if !closed {
            self.errors += 1;
        }
        if self.pending() && kind == KEYWORD {
            self.close_attribute();
        } else if self.pending() {
            // the value of the pending attribute
            let id = self.b.open(kind, flags::NAMED, start, end);
            self.in_attribute(id);
            self.b.close();
            if let Some((_, _, at)) = self.stack.last_mut().and_then(|o| o.attribute.as_mut()) {
                *at = end;
            }
            self.close_attribute();
            return;
        }
        let src = self.src.clone();
        let place = self.next_place(kind, &src[start..end]);
        if let Some(open) = self.stack.last() {
            let (id, k) = (open.id, open.kind);
            self.b.node_mut(id).kind = k;
        }
        match place {
            Some((_, true)) => {
                // kept while its list stands; never a hoist target (slot 0)
                self.b.open(HEAD, flags::NAMED, start, end);
                self.b.close();
            }
            Some((field, false)) if kind == KEYWORD => {
                // an attribute: the keyword and the element after it, if any
                let attribute = self.b.open(ATTRIBUTE, flags::NAMED, start, self.src.len());
                let id = self.b.open(kind, flags::NAMED, start, end);
                self.in_attribute(id);
                self.b.close();
                if let Some(open) = self.stack.last_mut() {
                    open.attribute = Some((attribute, field, end));
                }
            }
            Some((field, false)) => {
                let id = self.b.open(kind, flags::NAMED, start, end);
                self.place(id, field);
                self.b.close();
            }
            None => {
                let id = self.b.open(kind, flags::NAMED, start, end);
                self.place(id, 0);
                self.b.close();
            }
        }
    }

    fn open_list(&mut self, start: usize) {
        if self.pending() {
            // the value of the pending attribute
            let id = self.b.open(LIST, flags::NAMED, start, self.src.len());
            let (elements, headed, attribute) = (0, false, None);
            let open = Open { id, kind: LIST, elements, headed, field: 0, attribute, value: true };
            self.stack.push(open);
            self.b.open(OPEN, 0, start, start + 1);
            self.b.close();
            return;
        }
        let field = match self.next_place(LIST, b"(") {
            Some((field, _)) => field,
            None => 0,
        };
        if let Some(open) = self.stack.last() {
            let (id, k) = (open.id, open.kind);
            self.b.node_mut(id).kind = k;
        }
        let id = self.b.open(LIST, flags::NAMED, start, self.src.len());
        let (elements, headed, attribute) = (0, false, None);
        let open = Open { id, kind: LIST, elements, headed, field, attribute, value: false };
        self.stack.push(open);
        self.b.open(OPEN, 0, start, start + 1);
        self.b.close();
    }

    fn close_list(&mut self, at: usize) {
        if self.stack.is_empty() {
            // a `)` that closes nothing
            self.errors += 1;
            let id = self.b.open(ERROR_KIND, flags::NAMED | flags::ERROR, at, at + 1);
            self.b.node_mut(id).action = Action::Delete;
            self.b.close();
            return;
        }
        self.close_attribute();
        self.b.open(CLOSE, 0, at, at + 1);
        self.b.close();
        self.finish_list(at + 1);
    }

    /// Ends the innermost open list at `end`, and decides what may happen
    /// to it now that its kind and length are known.
    fn finish_list(&mut self, end: usize) {
        self.close_attribute();
        let open = self.stack.pop().expect("an open list");
        let policy = &self.fe.tables.policy;
        let kind = match policy.kind(open.kind).declare {
            Some(_) if open.elements < 2 => LIST,
            _ => open.kind,
        };
        let n = self.b.node_mut(open.id);
        n.kind = kind;
        n.end = end as u32;
        if !open.value {
            self.place(open.id, open.field);
            self.b.close();
            return;
        }
        self.in_attribute(open.id);
        self.b.close();
        if let Some((_, _, at)) = self.stack.last_mut().and_then(|o| o.attribute.as_mut()) {
            *at = end;
        }
        self.close_attribute();
    }

    /// Gives the element `id` (of the innermost open list, or at the top
    /// level when none is open) its action, flags, role and slot.
    fn place(&mut self, id: NodeId, field: u16) {
        let t = &self.fe.tables;
        let (kind, len) = {
            let n = self.b.node(id);
            (n.kind, n.len())
        };
        let (parent, top) = match self.stack.last() {
            Some(open) => (open.kind, false),
            None => (SOURCE_FILE, true),
        };
        let kept = t.is_kept(parent, field, kind);
        let action = match (len, kept, self.fe.replacement[kind as usize]) {
            (0, _, _) => Action::Keep,
            (_, false, _) => Action::Delete,
            (_, true, Some(r)) if t.policy.replacements[r as usize].len() < len => {
                Action::Replace(r)
            }
            (_, true, _) => Action::Keep,
        };
        let member = u8::from(t.kind(kind).hoist);
        let role = t.child_role(parent, 0, field);
        let n = self.b.node_mut(id);
        n.action = action;
        if kept && action == Action::Keep {
            n.flags |= flags::KEPT;
        }
        n.member = member;
        n.role = role;
        n.slot = u16::from(!top && member != 0);
    }

    fn finish(mut self) -> Tree {
        self.b.close(); // source_file
        let errors = self.errors;
        let mut b = self.b;
        b.set_error_count(errors);
        b.finish(self.fe.tables.policy.clone())
    }
}

#[cfg(test)]
mod tests;
