//! The JSON reader: a [`Cursor`] that walks a JSON text itself and gives
//! the nodes tree-sitter-json would (the same kinds, spans and fields), so
//! the generic build makes the very tree it makes from tree-sitter's parse,
//! without tree-sitter's tree: that tree takes about twenty times the text,
//! and on a file of tens of megabytes its parse took most of a run's memory
//! and seconds before the first test (`BENCHMARKS.md`, "A large JSON file").
//!
//! The reader takes only texts it is sure of: strict JSON (RFC 8259) that
//! tree-sitter-json also reads without an error, that is at most one value,
//! whitespace of space, tab, newline and carriage return, exponents without
//! `+`, strings without control characters, valid UTF-8. Anything else
//! (comments, syntax errors, a `1e+5`) goes to tree-sitter as before, which
//! recovers from errors. A text it takes has no syntax errors, so the guard
//! counts none for it without a parse. A test builds both trees over the
//! corpus and fuzzed texts and requires them equal.

use tree_sitter::Language;

use super::cursor::{Cursor, SourceNode};

/// The grammar's symbol and field ids of what the reader makes.
#[derive(Debug, Clone, Copy)]
struct Kinds {
    document: u16,
    object: u16,
    pair: u16,
    array: u16,
    string: u16,
    number: u16,
    true_: u16,
    false_: u16,
    null: u16,
    open_brace: u16,
    close_brace: u16,
    open_bracket: u16,
    close_bracket: u16,
    comma: u16,
    colon: u16,
    key: u16,
    value: u16,
}

/// The reader of one grammar (tree-sitter-json's ids).
#[derive(Debug)]
pub(super) struct JsonReader {
    kinds: Kinds,
}

/// A text the reader took: where each object and array ends, by where it
/// starts (in order of their starts).
pub(super) struct Read<'s> {
    src: &'s [u8],
    ends: Vec<(u32, u32)>,
}

/// The guard's base for a text the reader took: it has no syntax errors,
/// and nothing of its parse is needed to count a candidate's.
pub(super) struct Valid;

impl JsonReader {
    /// The reader for `language`, tree-sitter-json; `None` when a kind or
    /// field it makes is not in the grammar.
    pub(super) fn new(language: &Language) -> Option<JsonReader> {
        let named = |name: &str| Some(language.id_for_node_kind(name, true)).filter(|&id| id != 0);
        let token = |name: &str| Some(language.id_for_node_kind(name, false)).filter(|&id| id != 0);
        let field = |name: &str| language.field_id_for_name(name).map(|f| f.get());
        let kinds = Kinds {
            document: named("document")?,
            object: named("object")?,
            pair: named("pair")?,
            array: named("array")?,
            string: named("string")?,
            number: named("number")?,
            true_: named("true")?,
            false_: named("false")?,
            null: named("null")?,
            open_brace: token("{")?,
            close_brace: token("}")?,
            open_bracket: token("[")?,
            close_bracket: token("]")?,
            comma: token(",")?,
            colon: token(":")?,
            key: field("key")?,
            value: field("value")?,
        };
        Some(JsonReader { kinds })
    }

    /// The kinds whose insides the reader does not make: the build must
    /// never descend into them.
    pub(super) fn leaf_kinds(&self) -> [u16; 2] {
        [self.kinds.string, self.kinds.number]
    }

    /// `src` read, if it is a text the reader takes.
    pub(super) fn read<'s>(&self, src: &'s [u8]) -> Option<Read<'s>> {
        let ends = scan(src, true)?;
        Some(Read { src, ends })
    }

    /// Whether `src` is a text the reader takes (and so has no syntax
    /// errors), without keeping anything of it.
    pub(super) fn accepts(&self, src: &[u8]) -> bool {
        scan(src, false).is_some()
    }

    /// A cursor at the root of `read`.
    pub(super) fn cursor<'r>(&'r self, read: &'r Read<'_>) -> JsonCursor<'r> {
        let src = read.src;
        let first = skip_ws(src, 0);
        // tree-sitter's document starts at its first token and takes the
        // whitespace after its last; an empty one is all whitespace
        let start = if first == src.len() { src.len() } else { first };
        let root = JsonNode::new(self.kinds.document, true, start, src.len(), 0);
        let root = JsonNode { leaf: first == src.len(), ..root };
        JsonCursor { kinds: self.kinds, src, ends: &read.ends, stack: vec![(root, 0)], count: 0 }
    }
}

/// The JSON whitespace after `at`: the first byte past it.
fn skip_ws(src: &[u8], mut at: usize) -> usize {
    while at < src.len() && matches!(src[at], b' ' | b'\t' | b'\n' | b'\r') {
        at += 1;
    }
    at
}

/// The end of the string starting at `at` (a `"`), if it is one the reader
/// takes.
fn string_end(src: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    loop {
        match *src.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => match *src.get(i + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                b'u' => {
                    let hex = src.get(i + 2..i + 6)?;
                    if !hex.iter().all(u8::is_ascii_hexdigit) {
                        return None;
                    }
                    i += 6;
                }
                _ => return None,
            },
            c if c < 0x20 => return None,
            _ => i += 1,
        }
    }
}

/// The end of the number starting at `at`, if it is one both JSON and
/// tree-sitter-json read as one number (no `+` in the exponent).
fn number_end(src: &[u8], at: usize) -> Option<usize> {
    let digits = |mut i: usize| {
        let from = i;
        while src.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        (i > from).then_some(i)
    };
    let mut i = at + usize::from(src.get(at) == Some(&b'-'));
    i = match src.get(i)? {
        b'0' => i + 1,
        b'1'..=b'9' => digits(i)?,
        _ => return None,
    };
    if src.get(i) == Some(&b'.') {
        i = digits(i + 1)?;
    }
    if matches!(src.get(i), Some(b'e' | b'E')) {
        i += 1;
        i += usize::from(src.get(i) == Some(&b'-'));
        i = digits(i)?;
    }
    Some(i)
}

/// The end of the scalar value starting at `at`, if it is one.
fn scalar_end(src: &[u8], at: usize) -> Option<usize> {
    let word = |w: &[u8]| src[at..].starts_with(w).then_some(at + w.len());
    match src[at] {
        b'"' => string_end(src, at),
        b'-' | b'0'..=b'9' => number_end(src, at),
        b't' => word(b"true"),
        b'f' => word(b"false"),
        b'n' => word(b"null"),
        _ => None,
    }
}

/// Reads `src` as the reader takes it; with `keep`, the span of every
/// object and array in order of their starts (else none). `None` if the
/// reader does not take it.
fn scan(src: &[u8], keep: bool) -> Option<Vec<(u32, u32)>> {
    u32::try_from(src.len()).ok()?;
    std::str::from_utf8(src).ok()?;
    let mut ends = Vec::new();
    // the open containers: their opening byte and index in `ends`
    let mut open: Vec<(u8, usize)> = Vec::new();
    let mut i = skip_ws(src, 0);
    if i == src.len() {
        return Some(ends);
    }
    // a key and its `:` at `i`; the value's start after them
    let key = |i: usize| -> Option<usize> {
        if src.get(i) != Some(&b'"') {
            return None;
        }
        let i = skip_ws(src, string_end(src, i)?);
        (src.get(i) == Some(&b':')).then(|| skip_ws(src, i + 1))
    };
    'value: loop {
        let c = *src.get(i)?;
        if c == b'{' || c == b'[' {
            open.push((c, ends.len()));
            if keep {
                ends.push((i as u32, 0));
            }
            let close = if c == b'{' { b'}' } else { b']' };
            i = skip_ws(src, i + 1);
            if src.get(i) != Some(&close) {
                i = if c == b'{' { key(i)? } else { i };
                continue 'value;
            }
        } else {
            i = scalar_end(src, i)? - 1;
        }
        // `i` is at the last byte of a value, or at a closing bracket
        loop {
            if src[i] == b'}' || src[i] == b']' {
                let (_, index) = open.pop()?;
                if keep {
                    ends[index].1 = i as u32 + 1;
                }
            }
            i = skip_ws(src, i + 1);
            let Some(&(kind, _)) = open.last() else { break 'value };
            match (kind, *src.get(i)?) {
                (b'[', b',') => {
                    i = skip_ws(src, i + 1);
                    continue 'value;
                }
                (b'{', b',') => {
                    i = key(skip_ws(src, i + 1))?;
                    continue 'value;
                }
                (b'[', b']') | (b'{', b'}') => {}
                _ => return None,
            }
        }
    }
    (i == src.len()).then_some(ends)
}

/// A node the reader made.
#[derive(Debug, Clone, Copy)]
pub(super) struct JsonNode {
    kind: u16,
    named: bool,
    leaf: bool,
    start: u32,
    end: u32,
    id: usize,
}

impl JsonNode {
    fn new(kind: u16, named: bool, start: usize, end: usize, id: usize) -> JsonNode {
        JsonNode { kind, named, leaf: true, start: start as u32, end: end as u32, id }
    }
}

impl SourceNode for JsonNode {
    fn kind_id(&self) -> u16 {
        self.kind
    }
    fn is_named(&self) -> bool {
        self.named
    }
    fn is_extra(&self) -> bool {
        false
    }
    fn is_error(&self) -> bool {
        false
    }
    fn is_missing(&self) -> bool {
        false
    }
    fn start_byte(&self) -> usize {
        self.start as usize
    }
    fn end_byte(&self) -> usize {
        self.end as usize
    }
    fn is_leaf(&self) -> bool {
        self.leaf
    }
    fn id(&self) -> usize {
        self.id
    }
}

/// A cursor over a text the reader took: the nodes from the root to the
/// current one, each with its field.
pub(super) struct JsonCursor<'r> {
    kinds: Kinds,
    src: &'r [u8],
    ends: &'r [(u32, u32)],
    stack: Vec<(JsonNode, u16)>,
    /// Nodes made so far: the next one's id.
    count: usize,
}

impl JsonCursor<'_> {
    fn make(&mut self, kind: u16, named: bool, start: usize, end: usize) -> JsonNode {
        self.count += 1;
        JsonNode::new(kind, named, start, end, self.count)
    }

    /// The value starting at `at`.
    fn value(&mut self, at: usize) -> JsonNode {
        let k = self.kinds;
        let (kind, end) = match self.src[at] {
            b'{' | b'[' => {
                let i = self.ends.binary_search_by_key(&(at as u32), |e| e.0);
                let end = self.ends[i.expect("a container the scan saw")].1 as usize;
                let kind = if self.src[at] == b'{' { k.object } else { k.array };
                let node = self.make(kind, true, at, end);
                return JsonNode { leaf: false, ..node };
            }
            b'"' => (k.string, string_end(self.src, at)),
            b't' => (k.true_, Some(at + 4)),
            b'f' => (k.false_, Some(at + 5)),
            b'n' => (k.null, Some(at + 4)),
            _ => (k.number, number_end(self.src, at)),
        };
        self.make(kind, true, at, end.expect("a value the scan took"))
    }

    /// The pair starting at `at`, and the field of its value.
    fn pair(&mut self, at: usize) -> JsonNode {
        let key = string_end(self.src, at).expect("a key the scan took");
        let colon = skip_ws(self.src, key);
        let value = skip_ws(self.src, colon + 1);
        // the value is made again, with another id, as the pair's child
        let value = self.value(value);
        let node = self.make(self.kinds.pair, true, at, value.end as usize);
        JsonNode { leaf: false, ..node }
    }

    /// The node at `at` inside `parent`, and its field.
    fn child(&mut self, parent: JsonNode, at: usize) -> (JsonNode, u16) {
        let k = self.kinds;
        let c = self.src[at];
        let last = at + 1 == parent.end as usize;
        if parent.kind == k.object || parent.kind == k.array {
            let token = match c {
                b'{' if at == parent.start as usize => Some(k.open_brace),
                b'[' if at == parent.start as usize => Some(k.open_bracket),
                b'}' if last => Some(k.close_brace),
                b']' if last => Some(k.close_bracket),
                b',' => Some(k.comma),
                _ => None,
            };
            if let Some(kind) = token {
                return (self.make(kind, false, at, at + 1), 0);
            }
            if parent.kind == k.object {
                return (self.pair(at), 0);
            }
            return (self.value(at), 0);
        }
        if parent.kind == k.pair {
            if at == parent.start as usize {
                let end = string_end(self.src, at).expect("a key the scan took");
                return (self.make(k.string, true, at, end), k.key);
            }
            if c == b':' {
                return (self.make(k.colon, false, at, at + 1), 0);
            }
            return (self.value(at), k.value);
        }
        (self.value(at), 0) // the document's value
    }
}

impl Cursor for JsonCursor<'_> {
    type Node = JsonNode;

    fn node(&self) -> JsonNode {
        self.stack.last().expect("the root at least").0
    }

    fn field_id(&self) -> u16 {
        self.stack.last().map_or(0, |s| s.1)
    }

    fn depth(&self) -> u32 {
        self.stack.len() as u32 - 1
    }

    fn goto_first_child(&mut self) -> bool {
        let node = self.node();
        if node.leaf {
            return false;
        }
        let at = if node.kind == self.kinds.document {
            skip_ws(self.src, 0)
        } else {
            node.start as usize
        };
        let child = self.child(node, at);
        self.stack.push(child);
        true
    }

    fn goto_next_sibling(&mut self) -> bool {
        let [.., (parent, _), (node, _)] = self.stack[..] else { return false };
        let at = skip_ws(self.src, node.end as usize);
        if at >= parent.end as usize {
            return false;
        }
        let child = self.child(parent, at);
        *self.stack.last_mut().expect("a node") = child;
        true
    }

    fn goto_parent(&mut self) -> bool {
        if self.stack.len() < 2 {
            return false;
        }
        self.stack.pop();
        true
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use super::*;
    use crate::language::treesitter::TreeSitterFrontend;
    use crate::language::{by_name, Frontend};
    use crate::reduce::rng::Rng;
    use crate::syntax::tree::Tree;

    /// tree-sitter-json's front-end alone, and with the reader.
    fn frontends() -> (TreeSitterFrontend, Box<dyn Frontend>) {
        let data = crate::language::grammar::GrammarData::parse(
            "grammars/json.toml",
            include_str!("../../../grammars/json.toml"),
        )
        .expect("grammar data");
        let language: Language = tree_sitter_json::LANGUAGE.into();
        let ts = TreeSitterFrontend::new(language, tree_sitter_json::NODE_TYPES, &data)
            .expect("tree-sitter-json");
        let json = by_name("json").expect("json").frontend().expect("builds");
        (ts, json)
    }

    /// Every node of `tree`, all it holds, one line each.
    fn lines(tree: &Tree) -> Vec<String> {
        tree.nodes().iter().map(|n| format!("{n:?}")).collect()
    }

    /// Checks `src` with both front-ends: when the reader takes it, the
    /// same tree, no syntax errors and the guard counting none; true then.
    fn same(ts: &TreeSitterFrontend, json: &dyn Frontend, src: &[u8]) -> bool {
        let reader = ts_reader();
        let taken = reader.accepts(src);
        let by_ts = ts.parse(Arc::from(src));
        let by_json = json.parse(Arc::from(src));
        let shown = String::from_utf8_lossy(&src[..src.len().min(200)]).into_owned();
        if taken {
            assert_eq!(by_ts.error_count(), 0, "tree-sitter finds errors in {shown:?}");
        }
        assert_eq!(lines(&by_ts), lines(&by_json), "{shown:?}");
        assert_eq!(by_ts.error_count(), by_json.error_count(), "{shown:?}");
        assert_eq!(json.syntax_errors(src), ts.syntax_errors(src), "{shown:?}");
        taken
    }

    fn ts_reader() -> JsonReader {
        JsonReader::new(&tree_sitter_json::LANGUAGE.into()).expect("the kinds")
    }

    /// The JSON files of the corpus and of the data-driven tests.
    fn files() -> Vec<Vec<u8>> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut out = Vec::new();
        let mut dirs = vec![root.join("corpora/json"), root.join("tests/data")];
        while let Some(dir) = dirs.pop() {
            for e in std::fs::read_dir(&dir).expect("a directory") {
                let path = e.expect("an entry").path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|x| x == "json") {
                    out.push(std::fs::read(&path).expect("readable"));
                }
            }
        }
        out
    }

    #[test]
    fn the_reader_builds_tree_sitter_s_tree_of_every_json_file() {
        let (ts, json) = frontends();
        let files = files();
        let taken = files.iter().filter(|f| same(&ts, &*json, f)).count();
        // the corpus's twitter.json and the valid test inputs; the
        // truncated mime-db goes to tree-sitter
        assert!(taken >= 4 && taken < files.len(), "{taken} of {}", files.len());
    }

    #[test]
    fn the_edge_cases_of_json_s_syntax_build_the_same_tree() {
        let (ts, json) = frontends();
        let taken = [
            "",
            " ",
            "\n\t\r ",
            "0",
            " 0 ",
            "-0",
            "1.5",
            "-12.5e-3",
            "1E5",
            "0e0",
            "\"\"",
            "\"a\\\"b\\\\c\\/\\b\\f\\n\\r\\t\\u00e9\"",
            "\"é😋\"",
            "true",
            "false",
            "null",
            "[]",
            "{}",
            "[ ]",
            "{ }",
            "[1,2]",
            "[ 1 , 2 ]",
            "{\"a\":1}",
            "{ \"a\" : [ ] , \"b\" : {} }",
            "[[[]],[{}]]",
            "\n[\n  {\"k\": null}\n]\n",
        ];
        for src in taken {
            assert!(same(&ts, &*json, src.as_bytes()), "the reader takes {src:?}");
        }
        let refused = [
            "1e+5",
            "1.",
            ".5",
            "01",
            "+1",
            "-",
            "[1,]",
            "{\"a\":1,}",
            "[1 2]",
            "0 0",
            "{1:2}",
            "\"a\tb\"",
            "\"\\x\"",
            "\"\\u12\"",
            "[// c\n]",
            "[/* c */]",
            "tru",
            "nul",
            "[",
            "]",
            "{\"a\"}",
            "{\"a\":}",
            "\"open",
            "\u{a0}[]",
            "[\u{b}]",
            "\"\\ud83d\"x",
            "[1]]",
            "[}",
        ];
        for src in refused {
            assert!(!same(&ts, &*json, src.as_bytes()), "the reader refuses {src:?}");
        }
    }

    /// A random JSON value, at most `depth` deep.
    fn value(rng: &mut Rng, depth: usize, out: &mut String) {
        const WS: [&str; 5] = ["", " ", "\n  ", "\t", "\r\n"];
        let ws = |rng: &mut Rng| WS[rng.below(WS.len())];
        match if depth == 0 { rng.below(4) } else { rng.below(6) } {
            0 => out.push_str(["0", "-1", "12.25", "3e7", "-0.5E-2", "99"][rng.below(6)]),
            1 => out.push_str(["\"\"", "\"x\"", "\"a\\nb\"", "\"\\u0041é\""][rng.below(4)]),
            2 => out.push_str(["true", "false", "null"][rng.below(3)]),
            3 => out.push_str("\"k\""),
            4 => {
                out.push('[');
                for i in 0..rng.below(4) {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(ws(rng));
                    value(rng, depth - 1, out);
                    out.push_str(ws(rng));
                }
                out.push(']');
            }
            _ => {
                out.push('{');
                for i in 0..rng.below(4) {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(ws(rng));
                    out.push_str(&format!("\"k{i}\"{}:{}", ws(rng), ws(rng)));
                    value(rng, depth - 1, out);
                }
                out.push_str(ws(rng));
                out.push('}');
            }
        }
    }

    #[test]
    fn random_and_broken_json_builds_the_same_tree() {
        let (ts, json) = frontends();
        let mut rng = Rng::new(44);
        let (mut taken, mut refused) = (0, 0);
        const BITS: &[u8] = b"{}[],:\"\\ -+.0123eEtfnul\n\t/*";
        for _ in 0..3000 {
            let mut text = String::new();
            value(&mut rng, 4, &mut text);
            let mut bytes = text.into_bytes();
            // half of them broken: a byte range cut or a byte put in
            if rng.chance(0.5) && !bytes.is_empty() {
                let at = rng.below(bytes.len());
                if rng.chance(0.5) {
                    let to = (at + 1 + rng.below(4)).min(bytes.len());
                    bytes.drain(at..to);
                } else {
                    bytes.insert(at, BITS[rng.below(BITS.len())]);
                }
            }
            if same(&ts, &*json, &bytes) {
                taken += 1;
            } else {
                refused += 1;
            }
        }
        assert!(taken > 1000 && refused > 500, "{taken} taken, {refused} refused");
    }
}
