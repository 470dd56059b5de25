//! The document type declaration of the XML front-end: a DOCTYPE's
//! external identifier and the markup declarations of its internal subset
//! (`<!ELEMENT …>` with its content model as a list of particles,
//! `<!ATTLIST …>` with its attribute definitions), read by scanning the
//! original bytes, since quick-xml gives the DOCTYPE as one event.

use super::{
    Builder, ATTRIBUTE_DEFINITION, COMMENT, CONTENT_MODEL, DOCTYPE, EXTERNAL_ID,
    MARKUP_DECLARATION, PARTICLE, PI, SEPARATOR,
};
use crate::syntax::tree::{flags, Action};

impl Builder<'_> {
    /// A DOCTYPE, with its external identifier and the declarations of its
    /// internal subset as children.
    pub(super) fn doctype(&mut self, start: usize, end: usize) {
        self.node(DOCTYPE, start, end, true);
        if !self.atomic(DOCTYPE) {
            let src = self.src.clone();
            if let Some((a, b)) = external_id(&src[..end], start) {
                self.node(EXTERNAL_ID, a, b, false);
            }
            let body = &src[start..end];
            if let Some(open) = body.iter().position(|&c| c == b'[') {
                let mut i = start + open + 1;
                while i < end {
                    match src[i] {
                        b'<' => {
                            let e = markup_end(&src[..end], i);
                            let kind = if src[i..e].starts_with(b"<!--") {
                                COMMENT
                            } else if src[i..e].starts_with(b"<?") {
                                PI
                            } else {
                                MARKUP_DECLARATION
                            };
                            self.node(kind, i, e, true);
                            if kind == MARKUP_DECLARATION {
                                self.declaration_parts(&src, i, e);
                            }
                            self.b.close();
                            i = e;
                        }
                        b']' => break,
                        _ => i += 1,
                    }
                }
            }
        }
        self.b.close();
    }

    /// The parts of a markup declaration that may go on their own: the
    /// particles of an element's content model, an attribute list's
    /// definitions.
    fn declaration_parts(&mut self, s: &[u8], start: usize, end: usize) {
        let decl = &s[start..end];
        let keyword: &[u8] = match decl {
            d if d.starts_with(b"<!ELEMENT") => b"<!ELEMENT",
            d if d.starts_with(b"<!ATTLIST") => b"<!ATTLIST",
            _ => return,
        };
        let is_element = keyword == b"<!ELEMENT";
        // past the keyword and the element's name
        let mut i = item_end(s, ws(s, start + keyword.len()), end);
        i = ws(s, i);
        if is_element {
            if s.get(i) == Some(&b'(') {
                self.content_model(s, i, end);
            }
            return;
        }
        while i < end && s[i] != b'>' {
            // name, type (NOTATION takes a group), default (#FIXED takes a value)
            let first = i;
            let name = item_end(s, i, end);
            let kind = ws(s, name);
            let mut j = item_end(s, kind, end);
            if s[kind..j] == *b"NOTATION" {
                j = item_end(s, ws(s, j), end);
            }
            let default = ws(s, j);
            j = item_end(s, default, end);
            if s[default..j] == *b"#FIXED" {
                j = item_end(s, ws(s, j), end);
            }
            if j <= first {
                break;
            }
            self.node(ATTRIBUTE_DEFINITION, first, j, false);
            i = ws(s, j);
        }
    }

    /// The group of a content model that starts at `start` (a `(`), with
    /// its particles as elements of a list; returns where it ends (past
    /// its `?`, `*` or `+`). A nested group is a particle itself. Groups
    /// nest on a stack of their own, not on the call stack, so a deeply
    /// nested model cannot overflow it.
    fn content_model(&mut self, s: &[u8], start: usize, end: usize) -> usize {
        // the open groups, the innermost last
        // a group is opened reaching to the declaration's end (its
        // particles lie inside it) and gets its own end when it closes
        let mut groups = vec![self.node(CONTENT_MODEL, start, end, true)];
        let mut i = start + 1;
        loop {
            i = ws(s, i);
            // an unclosed group ends where the declaration does, with every
            // group around it
            let mut close = i >= end || s[i] == b'>';
            if !close {
                match s[i] {
                    b')' => {
                        i = quantified(s, i + 1, end);
                        close = true;
                    }
                    b',' | b'|' => {
                        let sep = self.node(SEPARATOR, i, i + 1, false);
                        let n = self.b.node_mut(sep);
                        n.flags = flags::SEPARATOR;
                        n.action = Action::Keep;
                        i += 1;
                    }
                    b'(' => {
                        groups.push(self.node(CONTENT_MODEL, i, end, true));
                        i += 1;
                    }
                    _ => {
                        let name = s[i..end]
                            .iter()
                            .position(|c| c.is_ascii_whitespace() || b",|()>?*+".contains(c))
                            .map_or(end, |k| i + k);
                        let particle_end = quantified(s, name.max(i + 1), end);
                        let p = self.node(PARTICLE, i, particle_end, false);
                        self.b.node_mut(p).flags |= flags::ELEMENT;
                        i = particle_end;
                    }
                }
            }
            if !close {
                continue;
            }
            let id = groups.pop().expect("an open group");
            let n = self.b.node_mut(id);
            n.end = i as u32;
            n.flags |= flags::LIST;
            // a nested group is a particle; the outer one is the model itself
            if groups.is_empty() {
                n.action = Action::Keep;
            } else {
                n.flags |= flags::ELEMENT;
                n.action = Action::Delete;
            }
            self.b.close();
            if groups.is_empty() {
                return i;
            }
        }
    }
}

/// The span of the external identifier (`SYSTEM "uri"` or `PUBLIC "id"
/// "uri"`) of the DOCTYPE that starts at `start` in `s`, if it has one.
fn external_id(s: &[u8], start: usize) -> Option<(usize, usize)> {
    let ws = |i: usize| ws(s, i);
    let mut i = ws(start + b"<!DOCTYPE".len());
    while s.get(i).is_some_and(|c| !c.is_ascii_whitespace() && !b"[>".contains(c)) {
        i += 1; // the root element's name
    }
    let at = ws(i);
    let literals = match &s[at.min(s.len())..] {
        r if r.starts_with(b"SYSTEM") => 1,
        r if r.starts_with(b"PUBLIC") => 2,
        _ => return None,
    };
    let mut end = at + b"SYSTEM".len();
    for _ in 0..literals {
        let q = ws(end);
        let quote = *s.get(q).filter(|c| matches!(c, b'"' | b'\''))?;
        end = q + 1 + s.get(q + 1..)?.iter().position(|&c| c == quote)? + 1;
    }
    Some((at, end))
}

/// The end of the markup declaration starting at `i` (`<!ENTITY …>`, a comment
/// or a PI), skipping quoted strings; the input's end if it has none.
pub(super) fn markup_end(s: &[u8], i: usize) -> usize {
    if s[i..].starts_with(b"<!--") {
        return find(s, i + 4, b"-->").map_or(s.len(), |k| k + 3);
    }
    if s[i..].starts_with(b"<?") {
        return find(s, i + 2, b"?>").map_or(s.len(), |k| k + 2);
    }
    let mut j = i + 1;
    let mut quote = None;
    while j < s.len() {
        match (quote, s[j]) {
            (None, b'"' | b'\'') => quote = Some(s[j]),
            (Some(q), c) if c == q => quote = None,
            (None, b'>') => return j + 1,
            _ => {}
        }
        j += 1;
    }
    s.len()
}

/// The first byte at or after `i` that is not whitespace.
fn ws(s: &[u8], mut i: usize) -> usize {
    while s.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// The end of the item of a markup declaration at `i`: a quoted literal, a
/// parenthesized group, or a word.
fn item_end(s: &[u8], i: usize, end: usize) -> usize {
    let close = match s.get(i) {
        Some(&q @ (b'"' | b'\'')) => q,
        Some(b'(') => b')',
        _ => {
            let word =
                s[i.min(end)..end].iter().position(|c| c.is_ascii_whitespace() || *c == b'>');
            return word.map_or(end, |k| i + k);
        }
    };
    s[i + 1..end].iter().position(|&c| c == close).map_or(end, |k| i + 1 + k + 1)
}

/// Past the `?`, `*` or `+` at `i`, if there is one.
fn quantified(s: &[u8], i: usize, end: usize) -> usize {
    if i < end && b"?*+".contains(&s[i]) {
        i + 1
    } else {
        i
    }
}

fn find(s: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    s.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|k| k + from)
}
