//! The characters view: a tree over the same text whose units are the
//! characters inside string literals, XML text and attribute values (the
//! kinds grammar data lists under `shrink`), for the shrinking pass.
//!
//! Deleting characters one by one is what a tree cannot do: a 60-character
//! JSON key that matters only for being a key becomes `""`, an XSLT test
//! attribute that matters for one `<` keeps only that. A unit is one UTF-8
//! character, one backslash escape (`\n`, `\"`), or one entity reference
//! (`&amp;`), so that deleting a unit never splits one of those.
//!
//! For languages whose grammar data says `squeeze = true` (data formats,
//! whose layout means nothing), the whitespace between tokens is a unit too:
//! deleted, or cut to one space where the tokens around it would otherwise
//! glue together.
//!
//! The view says `tokens: false`: the unparser then neither puts spaces
//! between characters that meet nor tidies whitespace, so each deletion
//! removes exactly its bytes.

use std::sync::{Arc, OnceLock};

use super::policy::{KindPolicy, Policy, Shrink, ERROR_KIND};
use super::tree::{flags, Action, Tree, TreeBuilder};
use super::unparse::would_glue;

const TEXT: u16 = 0;
const LEAF: u16 = 1;
const CHAR: u16 = 2;
const SPACE: u16 = 3;

fn view_policy() -> Arc<Policy> {
    static POLICY: OnceLock<Arc<Policy>> = OnceLock::new();
    POLICY
        .get_or_init(|| {
            let kinds =
                ["text", "leaf", "char", "space"].into_iter().map(KindPolicy::named).collect();
            Arc::new(Policy {
                kinds,
                replacements: vec![Box::from(&b" "[..])],
                tokens: false,
                ..Policy::default()
            })
        })
        .clone()
}

/// A part of the text the view makes units of.
enum Region {
    /// The characters of a string or text.
    Chars(usize, usize),
    /// Whitespace between tokens.
    Space(usize, usize),
}

/// The characters view of `tree`, or `None` when it has nothing to shrink.
pub(crate) fn view(tree: &Tree) -> Option<Tree> {
    let src = tree.src();
    let policy = tree.policy();
    let mut ranges = Vec::new();
    let mut covered = 0u32;
    for n in tree.nodes() {
        if n.kind == ERROR_KIND || n.start < covered {
            continue;
        }
        let how = policy.kind(n.kind).shrink;
        let text = &src[n.start as usize..n.end as usize];
        let inner = match how {
            Shrink::No => continue,
            Shrink::Whole => Some((0, text.len())),
            Shrink::Quoted => {
                // a regular expression's slashes too; a string begins and
                // ends with its quote, so a slash inside it never counts
                let quote = |c: &u8| matches!(c, b'"' | b'\'' | b'`' | b'/');
                match (text.iter().position(quote), text.iter().rposition(quote)) {
                    (Some(a), Some(b)) if a < b => Some((a + 1, b)),
                    _ => None,
                }
            }
        };
        if let Some((a, b)) = inner.filter(|(a, b)| a < b) {
            ranges.push((n.start as usize + a, n.start as usize + b));
            covered = n.end;
        }
    }
    let mut regions: Vec<(usize, Region)> =
        ranges.into_iter().map(|(a, b)| (a, Region::Chars(a, b))).collect();
    if policy.squeeze {
        regions.extend(spaces(tree).into_iter().map(|(a, b)| (a, Region::Space(a, b))));
        regions.sort_by_key(|&(a, _)| a);
    }
    if regions.is_empty() {
        return None;
    }
    let mut b = TreeBuilder::new(tree.src_arc());
    b.open(TEXT, flags::NAMED, 0, src.len());
    for (_, region) in regions {
        match region {
            Region::Chars(start, end) => {
                b.open(LEAF, flags::NAMED, start, end);
                let mut i = start;
                while i < end {
                    let len = unit_len(&src[i..end]);
                    let id = b.open(CHAR, flags::NAMED, i, i + len);
                    b.node_mut(id).action = Action::Delete;
                    b.close();
                    i += len;
                }
                b.close();
            }
            Region::Space(start, end) => {
                let glue = start > 0
                    && end < src.len()
                    && would_glue(src[start - 1], src[end], policy.operators_glue);
                let action = match (glue, end - start) {
                    (false, _) => Action::Delete,
                    (true, 1) => continue, // already as small as it can be
                    (true, _) => Action::Replace(0),
                };
                let id = b.open(SPACE, flags::NAMED, start, end);
                b.node_mut(id).action = action;
                b.close();
            }
        }
    }
    b.close();
    Some(b.finish(view_policy()))
}

/// The runs of whitespace outside every leaf of `tree` (outside tokens,
/// strings, comments and text).
fn spaces(tree: &Tree) -> Vec<(usize, usize)> {
    let src = tree.src();
    let mut runs = Vec::new();
    let mut pos = 0usize;
    let scan = |from: usize, to: usize, runs: &mut Vec<(usize, usize)>| {
        let mut i = from;
        while i < to {
            if src[i].is_ascii_whitespace() {
                let start = i;
                while i < to && src[i].is_ascii_whitespace() {
                    i += 1;
                }
                runs.push((start, i));
            } else {
                i += 1;
            }
        }
    };
    for (i, n) in tree.nodes().iter().enumerate() {
        let leaf = n.subtree_end == i as u32 + 1;
        if leaf && n.end as usize > pos && !n.is_empty() {
            scan(pos, (n.start as usize).max(pos), &mut runs);
            pos = n.end as usize;
        }
    }
    scan(pos, src.len(), &mut runs);
    runs
}

/// The length of the unit at the start of `s`: an escape, an entity
/// reference, or one UTF-8 character.
fn unit_len(s: &[u8]) -> usize {
    let char_len = |s: &[u8]| match s.first() {
        Some(&c) if c >= 0xF0 => 4,
        Some(&c) if c >= 0xE0 => 3,
        Some(&c) if c >= 0xC0 => 2,
        _ => 1,
    };
    let len = match s.first() {
        Some(b'\\') if s.len() > 1 => 1 + escape_len(&s[1..]).unwrap_or_else(|| char_len(&s[1..])),
        Some(b'&') => match s.iter().take(12).position(|&c| c == b';') {
            Some(k) if k > 1 && s[1..k].iter().all(|c| c.is_ascii_alphanumeric() || *c == b'#') => {
                k + 1
            }
            _ => 1,
        },
        _ => char_len(s),
    };
    len.min(s.len()).max(1)
}

/// The length of a numbered escape after its backslash (`x41`, `u00A9`,
/// `U0001D306`, `u{1D306}`): one character, which a cut between its digits
/// would turn into other characters.
fn escape_len(s: &[u8]) -> Option<usize> {
    let hex = |from: usize, n: usize| {
        (s.len() >= from + n && s[from..from + n].iter().all(u8::is_ascii_hexdigit))
            .then_some(from + n)
    };
    match s.first()? {
        b'x' => hex(1, 2),
        b'u' if s.get(1) == Some(&b'{') => {
            let end = s.iter().take(10).position(|&c| c == b'}')?;
            (end > 2 && s[2..end].iter().all(u8::is_ascii_hexdigit)).then_some(end + 1)
        }
        b'u' => hex(1, 4),
        b'U' => hex(1, 8),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_keep_escapes_entities_and_utf8_whole() {
        assert_eq!(unit_len(b"\\nabc"), 2);
        assert_eq!(unit_len(b"&amp;x"), 5);
        assert_eq!(unit_len(b"&#60;"), 5);
        assert_eq!(unit_len(b"& b;"), 1);
        assert_eq!(unit_len("é!".as_bytes()), 2);
        assert_eq!(unit_len("𝌆".as_bytes()), 4);
        assert_eq!(unit_len(b"\\"), 1);
        assert_eq!(unit_len(b"\\x1F\\x7F"), 4);
        assert_eq!(unit_len(b"\\uD800-"), 6);
        assert_eq!(unit_len(b"\\u{1D306}x"), 9);
        assert_eq!(unit_len(b"\\U0001D306"), 10);
        assert_eq!(unit_len(b"\\xZ1"), 2);
        assert_eq!(unit_len(b"\\u12"), 2);
    }

    #[test]
    fn squeezing_cuts_whitespace_between_tokens_but_never_glues_them() {
        let fe = crate::language::by_name("xml").expect("xml").frontend().expect("front-end");
        let tree = fe.parse(Arc::from(&b"<a  x='1'   >\n  <b>t u</b>\n</a>\n"[..]));
        let view = view(&tree).expect("something to shrink");
        let spaces: Vec<(&[u8], Action)> = view
            .nodes()
            .iter()
            .filter(|n| n.kind == SPACE)
            .map(|n| (&view.src()[n.start as usize..n.end as usize], n.action))
            .collect();
        assert_eq!(
            spaces,
            [
                // `a` and `x` would glue: one space stays
                (&b"  "[..], Action::Replace(0)),
                (b"   ", Action::Delete),
                // `>` and `<` do not glue in XML
                (b"\n  ", Action::Delete),
                (b"\n", Action::Delete),
                (b"\n", Action::Delete),
            ]
        );
    }

    #[test]
    fn the_view_of_json_has_the_characters_of_its_strings() {
        let fe = crate::language::by_name("json").expect("json").frontend().expect("front-end");
        let tree = fe.parse(Arc::from(&br#"{"ab": "c\"d", "n": 1}"#[..]));
        let view = view(&tree).expect("something to shrink");
        let chars: Vec<&[u8]> = view
            .nodes()
            .iter()
            .filter(|n| n.kind == CHAR)
            .map(|n| &view.src()[n.start as usize..n.end as usize])
            .collect();
        assert_eq!(chars, [&b"a"[..], b"b", b"c", b"\\\"", b"d", b"n"]);
    }
}
