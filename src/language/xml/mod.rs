//! The XML front-end, on quick-xml's event reader.
//!
//! Tree shape (kinds in [`KINDS`]):
//!
//! ```text
//! document
//!   declaration | doctype | comment | pi | text | element | ERROR
//!   doctype                      <!DOCTYPE name external_id? [ … ]>
//!     external_id                SYSTEM "uri", PUBLIC "id" "uri"
//!     markup_declaration|comment|pi    the internal subset
//!       content_model            <!ELEMENT e (a, (b | c)*)>: a list of
//!         content_model|particle  particles (names, or groups) and their
//!         separator               `,` or `|`
//!       attribute_definition*    <!ATTLIST e a CDATA #IMPLIED b ...>
//!   element                      <name attr="v">…</name>, or <name attr="v"/>
//!     attribute*                 name="value", deleted with its leading space
//!     content                    from the start tag's `>` to the end of the end
//!       element|text|cdata|…     tag; replaced by `/>` to empty the element
//!       end_tag
//! ```
//!
//! Malformed documents are a main use, so nothing here fails: quick-xml runs
//! with end-name checks off, and this module matches end tags itself. An end
//! tag that closes an outer element closes the inner ones with it (they are
//! unclosed); one that matches nothing is an error node; elements still open
//! at the end of the input end there; markup quick-xml cannot read becomes an
//! error node. Each of those counts as one syntax error for the syntax guard,
//! as do a missing or second root element, an attribute without a quoted
//! value and a raw `<` in an attribute's value. Whitespace-only text is not
//! a node: it stays between nodes, and a deleted node takes the whitespace
//! before it along.
//!
//! The parser reads a view of the bytes ([`encoding`]): a UTF-8 byte order
//! mark and the declared encoding are honoured, so a document in UTF-8 with
//! a byte order mark or in ISO-8859-1 parses like any other, while spans stay
//! offsets into the original bytes and nothing is re-encoded. A UTF-16
//! document is the document node alone.

use std::sync::Arc;

use anyhow::{Context, Result};
use quick_xml::events::Event;
use quick_xml::Reader;

use self::encoding::AsciiView;
use super::grammar::{GrammarData, OrderData};
use super::tables::{FixedKinds, Tables};
use super::{whole, Frontend, Interrupt, LangInfo, INTERRUPT_EVERY};
use crate::syntax::policy::{SlotInfo, ERROR_KIND};
use crate::syntax::tree::{flags, Action, NodeId, Tree, TreeBuilder};

/// The node kinds of the XML front-end; grammar data names them.
pub(crate) const KINDS: &[&str] = &[
    "document",
    "element",
    "attribute",
    "content",
    "end_tag",
    "text",
    "cdata",
    "comment",
    "pi",
    "declaration",
    "doctype",
    "markup_declaration",
    "external_id",
    "content_model",
    "particle",
    "attribute_definition",
    "separator",
];

const DOCUMENT: u16 = 0;
const ELEMENT: u16 = 1;
const ATTRIBUTE: u16 = 2;
const CONTENT: u16 = 3;
const END_TAG: u16 = 4;
const TEXT: u16 = 5;
const CDATA: u16 = 6;
const COMMENT: u16 = 7;
const PI: u16 = 8;
const DECLARATION: u16 = 9;
const DOCTYPE: u16 = 10;
const MARKUP_DECLARATION: u16 = 11;
const EXTERNAL_ID: u16 = 12;
const CONTENT_MODEL: u16 = 13;
const PARTICLE: u16 = 14;
const ATTRIBUTE_DEFINITION: u16 = 15;
const SEPARATOR: u16 = 16;

pub(crate) fn build(info: &LangInfo) -> Result<Box<dyn Frontend>> {
    let (file, text) = info.grammar;
    let data = GrammarData::parse(file, text)?;
    let frontend = XmlFrontend::new(&data).with_context(|| format!("in {file}"))?;
    Ok(Box::new(frontend))
}

#[derive(Debug)]
struct XmlFrontend {
    tables: Tables,
    /// Replacement entry per kind.
    replacement: Vec<Option<u16>>,
    /// Parses give up when it is set.
    interrupt: Interrupt,
}

impl XmlFrontend {
    fn new(data: &GrammarData) -> Result<XmlFrontend> {
        anyhow::ensure!(data.list.is_empty(), "XML has no separated lists");
        let mut tables = Tables::compile(data, &FixedKinds { language: "XML", names: KINDS })?;
        let replacement = (0..KINDS.len() as u16).map(|k| tables.replacement_of(k)).collect();
        // one slot: among an element's content (or at the top), where any
        // kind hoisting moves may stand, several at once
        let members: Vec<u16> = (0..KINDS.len() as u16).filter(|&k| tables.kind(k).hoist).collect();
        let mut slots = vec![SlotInfo::default()];
        if !members.is_empty() {
            slots.push(SlotInfo { repeated: true, accepts: members.into() });
        }
        tables.set_slots(slots);
        Ok(XmlFrontend { tables, replacement, interrupt: Interrupt::default() })
    }
}

impl Frontend for XmlFrontend {
    fn parse(&self, src: Arc<[u8]>) -> Tree {
        let mut p = Builder::new(self, src.clone(), false);
        p.run();
        if p.interrupted {
            return whole(src, DOCUMENT, self.tables.policy.clone());
        }
        p.finish()
    }

    fn order(&self) -> OrderData {
        self.tables.order
    }

    fn syntax_errors(&self, src: &[u8]) -> usize {
        let mut p = Builder::new(self, Arc::from(src), true);
        p.run();
        if p.interrupted {
            return usize::MAX;
        }
        p.finish().error_count()
    }

    fn set_interrupt(&mut self, interrupt: Interrupt) {
        self.interrupt = interrupt;
    }
}

/// An element whose start tag has been read and whose end tag has not.
struct Open {
    name: Vec<u8>,
    element: NodeId,
}

struct Builder<'f> {
    fe: &'f XmlFrontend,
    src: Arc<[u8]>,
    /// What quick-xml reads: ASCII, at the original's offsets. The scanning
    /// here reads the original, whose bytes from 0x80 up are neither
    /// whitespace nor markup either.
    view: AsciiView,
    b: TreeBuilder,
    stack: Vec<Open>,
    errors: usize,
    roots: usize,
    /// Events read, to ask the interrupt now and then.
    events: usize,
    /// The parse gave up on the interrupt.
    interrupted: bool,
}

impl<'f> Builder<'f> {
    /// A builder of the tree of `src`; with `counting`, one that only
    /// counts its syntax errors (see [`TreeBuilder::counting`]).
    fn new(fe: &'f XmlFrontend, src: Arc<[u8]>, counting: bool) -> Builder<'f> {
        let mut b = match counting {
            true => TreeBuilder::counting(src.clone()),
            false => TreeBuilder::new(src.clone()),
        };
        b.open(DOCUMENT, flags::NAMED, 0, src.len());
        let view = AsciiView::of(&src);
        Builder {
            fe,
            src,
            view,
            b,
            stack: Vec::new(),
            errors: 0,
            roots: 0,
            events: 0,
            interrupted: false,
        }
    }

    /// Adds a leaf (or opens a node when `open`) with the action its kind gets here.
    fn node(&mut self, kind: u16, start: usize, end: usize, open: bool) -> NodeId {
        let parent_kind = self.b.current().map(|p| self.b.node(p).kind);
        let named = if kind == END_TAG { 0 } else { flags::NAMED };
        let error = if kind == ERROR_KIND { flags::ERROR } else { 0 };
        let id = self.b.open(kind, named | error, start, end);
        let action = self.action(parent_kind, kind, end - start);
        let member = u8::from(self.fe.tables.kind(kind).hoist);
        let n = self.b.node_mut(id);
        n.action = action;
        n.member = member;
        // anything that stands among an element's content (or at the top) may
        // stand in for another such node of its class
        if matches!(parent_kind, Some(CONTENT | DOCUMENT)) && member != 0 {
            n.slot = 1;
        }
        if kind == ERROR_KIND {
            self.errors += 1;
        }
        if !open {
            self.b.close();
        }
        id
    }

    fn action(&self, parent: Option<u16>, kind: u16, len: usize) -> Action {
        if kind == END_TAG || len == 0 {
            return Action::Keep;
        }
        if kind == ERROR_KIND {
            return Action::Delete;
        }
        let kept = parent.is_some_and(|p| self.fe.tables.is_kept(p, 0, kind));
        if kind != CONTENT && !kept {
            return Action::Delete;
        }
        match self.fe.replacement[kind as usize] {
            Some(r) if self.fe.tables.policy.replacements[r as usize].len() < len => {
                Action::Replace(r)
            }
            _ => Action::Keep,
        }
    }

    fn atomic(&self, kind: u16) -> bool {
        self.fe.tables.kind(kind).atomic
    }

    fn run(&mut self) {
        if self.view.utf16 {
            return;
        }
        let src = self.view.bytes.clone();
        let mut offset = self.view.start;
        self.errors += self.view.errors;
        // quick-xml gives up at markup it cannot read; the rest of the input
        // is read by a new reader from just after the bad markup
        while let Some(resume) = self.read_from(offset) {
            offset = resume;
        }
        // elements still open at the end of the input end there, unclosed
        while self.stack.pop().is_some() {
            self.errors += 1;
            self.b.close(); // content
            self.b.close(); // element
        }
        if self.roots != 1 {
            self.errors += 1;
        }
        debug_assert!(offset <= src.len());
    }

    /// Reads events from `offset`; returns where to start again after markup
    /// quick-xml could not read (now an error node), or `None` at the end.
    fn read_from(&mut self, offset: usize) -> Option<usize> {
        let src = self.view.bytes.clone();
        let mut reader = Reader::from_reader(&src[offset..]);
        let config = reader.config_mut();
        config.check_end_names = false;
        config.allow_unmatched_ends = true;
        config.allow_dangling_amp = true;
        config.check_comments = false;
        config.expand_empty_elements = false;
        let mut text: Option<(usize, usize)> = None; // pending run of text and references
        loop {
            self.events += 1;
            if self.events.is_multiple_of(INTERRUPT_EVERY) && self.fe.interrupt.is_set() {
                self.interrupted = true;
                return None;
            }
            let before = offset + reader.buffer_position() as usize;
            let event = reader.read_event();
            let after = (offset + reader.buffer_position() as usize).min(src.len());
            if !matches!(event, Ok(Event::Text(_) | Event::GeneralRef(_))) {
                if let Some((s, e)) = text.take() {
                    self.text(s, e);
                }
            }
            match event {
                Ok(Event::Eof) => return None,
                Ok(Event::Text(_) | Event::GeneralRef(_)) => {
                    text = Some(text.map_or((before, after), |(s, _)| (s, after)));
                }
                Ok(Event::Start(_)) => self.start_tag(before, after, false),
                Ok(Event::Empty(_)) => self.start_tag(before, after, true),
                Ok(Event::End(_)) => self.end_tag(before, after),
                Ok(Event::CData(_)) => {
                    self.node(CDATA, before, after, false);
                }
                Ok(Event::Comment(_)) => {
                    self.node(COMMENT, before, after, false);
                }
                Ok(Event::PI(_)) => {
                    self.node(PI, before, after, false);
                }
                Ok(Event::Decl(_)) => {
                    self.node(DECLARATION, before, after, false);
                }
                Ok(Event::DocType(_)) => self.doctype(before, after),
                Err(_) => {
                    let start =
                        (offset + reader.error_position() as usize).clamp(before, src.len());
                    if after > start {
                        self.node(ERROR_KIND, start, after, false);
                        continue;
                    }
                    // no progress: the bad markup is an error node, and
                    // reading starts again after it
                    let end = if src.get(start) == Some(&b'<') {
                        doctype::markup_end(&src, start)
                    } else {
                        src[start + 1..]
                            .iter()
                            .position(|&c| c == b'<')
                            .map_or(src.len(), |i| start + 1 + i)
                    };
                    let end = end.max(start + 1).min(src.len());
                    self.node(ERROR_KIND, start, end, false);
                    return (end < src.len()).then_some(end);
                }
            }
        }
    }

    /// A run of text and entity references; whitespace around it is not part of it.
    fn text(&mut self, start: usize, end: usize) {
        let bytes = &self.src[start..end];
        let Some(first) = bytes.iter().position(|c| !c.is_ascii_whitespace()) else { return };
        let last = bytes.iter().rposition(|c| !c.is_ascii_whitespace()).unwrap_or(first);
        if self.stack.is_empty() {
            self.errors += 1; // text outside the root element
        }
        self.node(TEXT, start + first, start + last + 1, false);
    }

    fn start_tag(&mut self, start: usize, end: usize, empty: bool) {
        if self.stack.is_empty() {
            self.roots += 1;
        }
        let id = self.node(ELEMENT, start, self.src.len(), true);
        let tag_end = if empty { end.saturating_sub(2) } else { end.saturating_sub(1) };
        let name_end = self.attributes(start + 1, tag_end.max(start + 1));
        if empty {
            self.b.node_mut(id).end = end as u32;
            self.b.close();
            return;
        }
        let name = self.src[start + 1..name_end].to_vec();
        // content runs from the start tag's `>`; its end is fixed at the end tag
        self.node(CONTENT, end - 1, self.src.len(), true);
        self.stack.push(Open { name, element: id });
    }

    /// Adds the attributes between `from` (just after `<`) and `to` (the tag's
    /// closing `>` or `/>`); returns the end of the element name.
    fn attributes(&mut self, from: usize, to: usize) -> usize {
        let src = self.src.clone();
        let s = &src[..to];
        let mut i = from;
        while i < to && !s[i].is_ascii_whitespace() && s[i] != b'/' {
            i += 1;
        }
        let name_end = i;
        loop {
            while i < to && (s[i].is_ascii_whitespace() || s[i] == b'/') {
                i += 1;
            }
            if i >= to {
                break;
            }
            let a = i;
            while i < to && !s[i].is_ascii_whitespace() && s[i] != b'=' {
                i += 1;
            }
            let mut j = i;
            while j < to && s[j].is_ascii_whitespace() {
                j += 1;
            }
            let mut well_formed = false;
            if j < to && s[j] == b'=' {
                j += 1;
                while j < to && s[j].is_ascii_whitespace() {
                    j += 1;
                }
                if j < to && (s[j] == b'"' || s[j] == b'\'') {
                    let q = s[j];
                    match s[j + 1..to].iter().position(|&c| c == q) {
                        Some(k) => {
                            i = j + 1 + k + 1;
                            well_formed = true;
                            // a raw `<` is not allowed in a value (XML 1.0,
                            // AttValue); quick-xml reads it all the same
                            if s[j + 1..i - 1].contains(&b'<') {
                                self.errors += 1;
                            }
                        }
                        None => i = to,
                    }
                } else {
                    while j < to && !s[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    i = j;
                }
            }
            // an attribute must be separated from what comes before it
            if well_formed && !s[a - 1].is_ascii_whitespace() {
                self.errors += 1;
            }
            if well_formed {
                self.node(ATTRIBUTE, a, i, false);
            } else {
                self.node(ERROR_KIND, a, i.max(a + 1).min(to), false);
                i = i.max(a + 1);
            }
        }
        name_end
    }

    fn end_tag(&mut self, start: usize, end: usize) {
        let src = self.src.clone();
        let tag = &src[(start + 2).min(end)..end.saturating_sub(1).max(start)];
        let name = tag.trim_ascii();
        match self.stack.iter().rposition(|o| o.name == name) {
            Some(depth) => {
                // inner elements without their own end tag end here, unclosed
                while self.stack.len() > depth + 1 {
                    self.close_open(start);
                    self.errors += 1;
                }
                self.node(END_TAG, start, end, false);
                self.close_open(end);
            }
            None => {
                self.node(ERROR_KIND, start, end, false);
            }
        }
    }

    /// Closes the innermost open element (and its content) at `end`.
    fn close_open(&mut self, end: usize) {
        let open = self.stack.pop().expect("an open element");
        let content = self.b.current().expect("open content");
        self.b.node_mut(content).end = end as u32;
        self.b.close();
        self.b.node_mut(open.element).end = end as u32;
        self.b.close();
    }

    fn finish(mut self) -> Tree {
        self.b.close(); // document
        let errors = self.errors;
        let mut b = self.b;
        b.set_error_count(errors);
        b.finish(self.fe.tables.policy.clone())
    }
}

mod doctype;
mod encoding;
#[cfg(test)]
mod tests;
