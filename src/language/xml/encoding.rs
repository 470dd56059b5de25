//! What the XML parser reads: the document's bytes seen through its byte
//! order mark and declared encoding.
//!
//! quick-xml reads UTF-8 only: it gives up at the first byte sequence that is
//! not UTF-8 (a well-formed ISO-8859-1 document would lose everything after
//! its first `é`), and it drops a UTF-8 byte order mark without counting it
//! in its positions (every span would be 3 bytes early). But a tree's spans are
//! offsets into the original bytes, and unparsing copies those bytes, never
//! re-encoded text. So quick-xml parses an [`AsciiView`] of the document: ASCII
//! only, at the original's offsets:
//!
//! - A document in an ASCII-compatible encoding (UTF-8, the default, or what
//!   its declaration names: ISO-8859-*, windows-125*, EUC-*, …) has ASCII
//!   markup. Its view is the same bytes with each byte from 0x80 up replaced
//!   by a name character at the same offset, so the view's offsets are the
//!   original's. Text, names and attribute values keep their bytes.
//! - A UTF-8 byte order mark stays in the document, before its first child:
//!   part of no node, so no candidate deletes it and no span moves.
//! - A UTF-16 document (byte order mark FE FF or FF FE) is not parsed: its
//!   tree is the document node alone, which round-trips and offers nothing
//!   to delete. Its markup is not ASCII, and the unparser's rules (whitespace
//!   merged at a cut, a space against gluing) work on ASCII bytes, so its
//!   candidates could split a character; hdd refuses such a file anyway, as
//!   binary (it has NUL bytes).
//!
//! A document meant to be UTF-8 (no byte order mark or declaration says
//! otherwise) has one syntax error per run of bytes that are not UTF-8; the
//! structure around them is parsed as usual.

use std::sync::Arc;

/// What a byte from 0x80 up becomes in the view:
/// a name character, so a non-ASCII name stays one name, and no letter of
/// `xml`, so `<?é …?>` stays a processing instruction.
const PLACEHOLDER: u8 = b'_';

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// The bytes the parser reads, at the original's offsets.
pub(super) struct AsciiView {
    /// Only ASCII.
    pub bytes: Arc<[u8]>,
    /// Where parsing starts: after the byte order mark.
    pub start: usize,
    /// Byte sequences the encoding does not allow.
    pub errors: usize,
    /// A UTF-16 document, which is not parsed.
    pub utf16: bool,
}

impl AsciiView {
    /// The view of `src`.
    pub(super) fn of(src: &Arc<[u8]>) -> AsciiView {
        if src.starts_with(b"\xFF\xFE") || src.starts_with(b"\xFE\xFF") {
            return AsciiView { bytes: src.clone(), start: 0, errors: 0, utf16: true };
        }
        let bom = if src.starts_with(UTF8_BOM) { UTF8_BOM.len() } else { 0 };
        let errors = if bom > 0 || declared_utf8(src) {
            src[bom..].utf8_chunks().filter(|c| !c.invalid().is_empty()).count()
        } else {
            0
        };
        let bytes = if src.is_ascii() {
            src.clone()
        } else {
            src.iter().map(|&c| if c.is_ascii() { c } else { PLACEHOLDER }).collect()
        };
        AsciiView { bytes, start: bom, errors, utf16: false }
    }
}

/// Whether a document without a byte order mark is UTF-8: its declaration
/// names no encoding, or names UTF-8.
fn declared_utf8(src: &[u8]) -> bool {
    declared_encoding(src)
        .is_none_or(|e| e.eq_ignore_ascii_case(b"utf-8") || e.eq_ignore_ascii_case(b"utf8"))
}

/// The `encoding` of the XML declaration at the start of `src`, if any.
fn declared_encoding(src: &[u8]) -> Option<&[u8]> {
    let rest = src.strip_prefix(b"<?xml")?;
    if !rest.first().is_some_and(u8::is_ascii_whitespace) {
        return None;
    }
    let decl = &rest[..rest.windows(2).position(|w| w == b"?>").unwrap_or(rest.len())];
    let at = decl.windows(8).position(|w| w == b"encoding")?;
    let value = decl[at + 8..].trim_ascii_start().strip_prefix(b"=")?.trim_ascii_start();
    let quote = *value.first().filter(|&&q| q == b'"' || q == b'\'')?;
    let value = &value[1..];
    Some(&value[..value.iter().position(|&c| c == quote)?])
}
