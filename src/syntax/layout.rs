//! The layout view: the whitespace between the tokens of a result, laid
//! out again, for the layout pass.
//!
//! Deletions leave a result with lines at the indentation of where they
//! came from, runs of blank lines where statements were, and one statement
//! spread over the lines its deleted arguments took. The view makes each
//! run of whitespace between two tokens that would read better otherwise a
//! unit whose replacement is the new whitespace; switching them all off at
//! once is one candidate that changes only whitespace, kept when the test
//! still passes. It is the one change that may make the text longer (a
//! line moved in to its block's depth), never past a given limit (the
//! input's size: a result is never larger than the input).
//!
//! The rules are the language's [`Rules`] (grammar data `layout`):
//!
//! - A line starts at its depth of *blocks* (`{ }`), one `indent` per
//!   block; a line that closes a block starts at the block's own depth.
//!   Lines that start with the `flush` prefix (C's `#`) start at column 0.
//! - Inside *joined* brackets (`( )`, `[ ]`) line breaks become one space,
//!   and no space is left after the opening or before the closing bracket.
//! - Outside joined brackets a line break stays where an item of a block,
//!   of the file or of a node of an `items` kind (C's `#ifdef`) ends (a
//!   statement, a declaration: the parse says where, so a JavaScript
//!   statement that a line break ends stays ended), after a block's
//!   opening bracket and before its closing one, and around comments and
//!   `flush` lines. Every other line break is joined: a
//!   statement that deletions spread over lines is one line again, and
//!   `}` and `else`, or `}` and a typedef's name, meet.
//! - Where deletions or hoists left two items on one line (`g;void a();`,
//!   `{ a();` over a block whose items had lines of their own), a line
//!   break comes between them, also where there was no whitespace at all.
//!   A block written on one line (`{ return 0; }`) stays on one line.
//!   A block's opening bracket right after a joined closing one (`f(){`)
//!   gets one space; an item that goes with the token after it (`public`
//!   and its `:`) ends at that token.
//! - Blank lines go, and so does whitespace at the end of a line, at the
//!   start of the text and before a `tight` token (`,`, `;`); the text ends
//!   with one line break if it ended with any.
//!
//! In a set of files (a forest), each file is laid out as a file: its
//! root holds its items, it starts with its first token and no bracket
//! open, and it ends with one line break if it ended with any.
//!
//! A closing bracket also closes the brackets that a syntax error left
//! open inside it (`f(x; }`): an unclosed `(` would join every line after
//! it.
//!
//! Whitespace next to anything that is not a token of the tree (the inside
//! of a string or a comment is one token) is left as it is, as is the line
//! break after a `\` that continues a line; the line it continues is still
//! the directive's (a macro's body), whose line break after it stays. Two tokens that were apart are
//! never glued together.

use std::collections::HashMap;

use super::forest;
use super::policy::{Pair, Rules};
use super::tree::{continues, flags, Action, FlatUnit, Tree, NO_PARENT};
use super::unparse::would_glue;

/// The kind of the layout view's units (0 is its root).
const SPACE: u16 = 1;

impl Rules {
    /// The bracket `token` opens, if it opens one.
    fn opened_by(&self, token: &[u8]) -> Option<Open> {
        let find = |pairs: &[Pair]| pairs.iter().position(|(o, _)| **o == *token);
        find(&self.blocks).map(Open::Block).or_else(|| find(&self.joined).map(Open::Joined))
    }

    /// The closing text of `open`.
    fn closer(&self, open: Open) -> &[u8] {
        match open {
            Open::Block(i) => &self.blocks[i].1,
            Open::Joined(i) => &self.joined[i].1,
        }
    }
}

/// An open bracket, while walking the tokens.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    /// The `i`-th pair of [`Rules::blocks`].
    Block(usize),
    /// The `i`-th pair of [`Rules::joined`].
    Joined(usize),
}

/// The layout view of `tree`, or `None` when its language has no layout
/// rules, the text reads as the rules would lay it out already, or laid
/// out it would be longer than `limit`.
pub(crate) fn view(tree: &Tree, limit: usize) -> Option<Tree> {
    let rules = tree.policy().layout.as_deref()?;
    let src = tree.src();
    let tokens = tokens(tree, rules);
    let gaps = lay_out(rules, src, &tokens, tree.policy().operators_glue);
    let len = gaps.iter().fold(src.len(), |len, g| len - (g.end - g.start) + g.text.len());
    if gaps.is_empty() || len > limit {
        return None;
    }
    // one replacement text per distinct run of whitespace
    let mut texts: Vec<Box<[u8]>> = Vec::new();
    let mut index: HashMap<Vec<u8>, u16> = HashMap::new();
    let mut units = Vec::with_capacity(gaps.len());
    for gap in gaps {
        let action = if gap.text.is_empty() {
            Action::Delete
        } else {
            let next = texts.len() as u16;
            let i = *index.entry(gap.text.clone()).or_insert(next);
            if i == next {
                texts.push(gap.text.into_boxed_slice());
            }
            Action::Replace(i)
        };
        units.push(FlatUnit { kind: SPACE, start: gap.start, end: gap.end, action });
    }
    let names = ["text", "space"].iter().map(|&n| Box::from(n)).collect();
    Some(Tree::flat(tree.src_arc(), names, texts, units))
}

/// The view of `tree`'s text as a formatter wrote it (`--format`): one unit
/// over the whole text, switched to `formatted`. `None` when it reads the
/// same, or is longer than `limit`.
pub(crate) fn formatted(tree: &Tree, formatted: Vec<u8>, limit: usize) -> Option<Tree> {
    let src = tree.src();
    if formatted == src || formatted.len() > limit {
        return None;
    }
    let names = ["text", "formatted"].iter().map(|&n| Box::from(n)).collect();
    let unit = FlatUnit { kind: 1, start: 0, end: src.len(), action: Action::Replace(0) };
    Some(Tree::flat(tree.src_arc(), names, vec![formatted.into_boxed_slice()], [unit]))
}

/// A token: the span of a leaf of the tree, whether it is an extra (a
/// comment), and whether it ends an item of a block or of the file.
#[derive(Clone, Copy, Debug)]
struct Token {
    start: usize,
    end: usize,
    extra: bool,
    ends_item: bool,
}

/// The non-empty leaves of `tree`, in source order.
fn tokens(tree: &Tree, rules: &Rules) -> Vec<Token> {
    let nodes = tree.nodes();
    let src = tree.src();
    let policy = tree.policy();
    // per node: whether it holds items, as its first token opens a block
    // or its kind says so (a preprocessor conditional)
    let mut holds_items = vec![false; nodes.len()];
    let mut first_leaf: Option<usize> = None;
    for i in (0..nodes.len()).rev() {
        let n = &nodes[i];
        if n.subtree_end == i as u32 + 1 && !n.is_empty() {
            first_leaf = Some(i);
        }
        holds_items[i] = policy.kind(n.kind).items
            || first_leaf.is_some_and(|l| {
                let t = &src[nodes[l].start as usize..nodes[l].end as usize];
                nodes[l].start == n.start && matches!(rules.opened_by(t), Some(Open::Block(_)))
            });
    }
    // the root holds the file's items; in a set of files, each file and
    // its own root too
    let depth = forest::file_root_depth(tree);
    let holds = |parent: u32| {
        let mut up = parent;
        for _ in 0..=depth {
            if up == NO_PARENT {
                return true;
            }
            up = nodes[up as usize].parent;
        }
        up == NO_PARENT || holds_items[parent as usize]
    };
    let mut out: Vec<Token> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        let leaf = n.subtree_end == i as u32 + 1;
        let after_last = out.last().is_none_or(|t| n.start as usize >= t.end);
        if leaf && !n.is_empty() && after_last {
            // the token, or a node it ends, is an item of a block or the
            // file; a block's own brackets are not its items
            let text = &src[n.start as usize..n.end as usize];
            let bracket = matches!(rules.opened_by(text), Some(Open::Block(_)))
                || rules.blocks.iter().any(|(_, c)| **c == *text);
            let mut at = i as u32;
            let mut ends_item = !bracket && holds(n.parent);
            while !ends_item && nodes[at as usize].parent != NO_PARENT {
                at = nodes[at as usize].parent;
                if nodes[at as usize].end != n.end {
                    break;
                }
                ends_item = holds(nodes[at as usize].parent);
            }
            // an item that goes with the token after it (`public` and its
            // `:`) ends at that token
            ends_item &= !policy.kind(nodes[at as usize].kind).with_next_token;
            let extra = n.flags & flags::EXTRA != 0;
            out.push(Token { start: n.start as usize, end: n.end as usize, extra, ends_item });
        }
    }
    out
}

/// Whitespace `start..end` of the text, to become `text`.
#[derive(Debug, PartialEq, Eq)]
struct Gap {
    start: usize,
    end: usize,
    text: Vec<u8>,
}

/// The gaps between `tokens` of `src` that `rules` lay out otherwise.
fn lay_out(rules: &Rules, src: &[u8], tokens: &[Token], operators_glue: bool) -> Vec<Gap> {
    let spans_lines = blocks_over_lines(rules, src, tokens);
    let mut walk =
        Walk { rules, src, operators_glue, stack: Vec::new(), lines: Vec::new(), directive: false };
    let mut gaps = Vec::new();
    let mut prev: Option<Token> = None;
    for (k, t) in tokens.iter().enumerate() {
        let from = prev.map_or(0, |p| p.end);
        let old = &src[from..t.start];
        // a file of a set starts with nothing open
        let next_file = old.contains(&forest::SEPARATOR);
        if next_file {
            walk.stack.clear();
            walk.lines.clear();
        }
        // brackets that a syntax error left open inside the one `t` closes
        // (`f(x; }`) end with it: a `(` never closed would otherwise join
        // the rest of the text into its line
        if let Some(at) = walk.stack.iter().rposition(|&o| walk.text(t) == rules.closer(o)) {
            walk.stack.truncate(at + 1);
            walk.lines.truncate(at + 1);
        }
        // the innermost open bracket that `t` closes does not count for
        // `t`'s own line
        let closes = walk.stack.last().is_some_and(|&o| walk.text(t) == rules.closer(o));
        if next_file {
            // the end of one file and the start of the next, as the text's
            let first = from + old.iter().position(|&b| b == forest::SEPARATOR).unwrap_or(0);
            let last = from + old.iter().rposition(|&b| b == forest::SEPARATOR).unwrap_or(0);
            gaps.extend(walk.file_end(prev, from, first));
            let start = &src[last + 1..t.start];
            if !start.is_empty() && start.iter().all(u8::is_ascii_whitespace) {
                gaps.push(Gap { start: last + 1, end: t.start, text: Vec::new() });
            }
        }
        let new = match prev {
            _ if !old.iter().all(u8::is_ascii_whitespace) => None,
            None => Some(Vec::new()),
            Some(p) if walk.text(&p).ends_with(b"\\") => None,
            Some(p) => Some(walk.between(p, t, old, closes)),
        };
        if let Some(new) = new.filter(|n| *n != old) {
            let start = match prev {
                Some(p) if old.is_empty() && new.starts_with(walk.text(&p)) => p.start,
                _ => from,
            };
            gaps.push(Gap { start, end: t.start, text: new });
        }
        // a line a `\` continues goes on with the directive it is part of
        // (a macro's body), whose line break after its last line stays
        let continued = old.iter().rposition(|&b| b == b'\n').is_some_and(|i| {
            let at = from + i - usize::from(i > 0 && old[i - 1] == b'\r');
            at > 0 && continues(src, at - 1)
        });
        if (old.contains(&b'\n')
            || next_file
            || prev.is_none()
            || prev.is_some_and(|p| walk.text(&p).ends_with(b"\n")))
            && !continued
        {
            walk.directive = walk.starts_flush(t);
        }
        if closes {
            walk.stack.pop();
            walk.lines.pop();
        } else if let Some(open) = walk.opens(t) {
            walk.stack.push(open);
            walk.lines.push(spans_lines[k]);
        }
        prev = Some(*t);
    }
    gaps.extend(walk.file_end(prev, prev.map_or(0, |p| p.end), src.len()));
    gaps
}

/// [`lay_out`]'s walk over the tokens: what is open at the current one.
struct Walk<'a> {
    rules: &'a Rules,
    src: &'a [u8],
    operators_glue: bool,
    /// The brackets open before the current token.
    stack: Vec<Open>,
    /// Per open bracket: whether it is a block whose items are on lines of
    /// their own (see [`blocks_over_lines`]).
    lines: Vec<bool>,
    /// Whether the current line is a `flush` line (a directive), whose line
    /// breaks end it.
    directive: bool,
}

impl Walk<'_> {
    fn text(&self, t: &Token) -> &[u8] {
        &self.src[t.start..t.end]
    }

    fn starts_flush(&self, t: &Token) -> bool {
        self.rules.flush.as_deref().is_some_and(|f| self.text(t).starts_with(f))
    }

    /// The end of a file, `from..end` after its last token `prev`: one
    /// line break if there was any.
    fn file_end(&self, prev: Option<Token>, from: usize, end: usize) -> Option<Gap> {
        let old = &self.src[from..end];
        if !old.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        let ends_line = prev.is_some_and(|p| self.text(&p).ends_with(b"\n"));
        let new: &[u8] = if old.contains(&b'\n') && !ends_line { b"\n" } else { b"" };
        (new != old).then(|| Gap { start: from, end, text: new.to_vec() })
    }

    fn opens(&self, t: &Token) -> Option<Open> {
        self.rules.opened_by(self.text(t))
    }

    fn opens_block(&self, t: &Token) -> bool {
        matches!(self.opens(t), Some(Open::Block(_)))
    }

    fn in_joined(&self) -> bool {
        matches!(self.stack.last(), Some(Open::Joined(_)))
    }

    /// The whitespace between tokens `p` and `t`, `old` being what is
    /// there now, `closes` whether `t` closes the innermost bracket.
    fn between(&self, p: Token, t: &Token, old: &[u8], closes: bool) -> Vec<u8> {
        let broken = old.contains(&b'\n') || self.text(&p).ends_with(b"\n");
        // the bracket the line break is in: for a closing bracket, the one
        // it closes
        let joined = self.in_joined();
        let ends = closes || p.ends_item || self.opens_block(&p);
        let keep_break = broken
            && (p.extra || t.extra || self.directive || self.starts_flush(t) || (!joined && ends));
        // where an item ends (or a block opens or closes) on the line of
        // the next one, in a block laid out over lines or at file level: a
        // hoist or a deletion joined them
        let add_break = !broken
            && !joined
            && !self.directive
            && !p.extra
            && !t.extra
            && !self.rules.tight.iter().any(|s| **s == *self.text(t))
            && self.lines.last().copied().unwrap_or(true)
            && ends;
        match keep_break || add_break {
            true => self.line_break(p, t, old.is_empty() && add_break, closes),
            false => self.space(p, t, old, closes),
        }
    }

    /// A line break before `t`, indented to its depth; with `takes_prev`
    /// (no whitespace to replace) the gap takes `p` along.
    fn line_break(&self, p: Token, t: &Token, takes_prev: bool, closes: bool) -> Vec<u8> {
        let mut new = Vec::new();
        if takes_prev {
            new.extend_from_slice(self.text(&p));
        }
        if !self.text(&p).ends_with(b"\n") {
            new.push(b'\n');
        }
        if !self.starts_flush(t) {
            let open = &self.stack[..self.stack.len() - usize::from(closes)];
            let depth = open.iter().filter(|o| matches!(o, Open::Block(_))).count();
            for _ in 0..depth {
                new.extend_from_slice(&self.rules.indent);
            }
        }
        new
    }

    /// What stands between `p` and `t` on one line: nothing, a space, or
    /// `p` and a space before a block.
    fn space(&self, p: Token, t: &Token, old: &[u8], closes: bool) -> Vec<u8> {
        let after_opener = self.in_joined() && self.opens(&p) == self.stack.last().copied();
        let before_closer = closes && self.in_joined();
        let tight =
            after_opener || before_closer || self.rules.tight.iter().any(|s| **s == *self.text(t));
        let glue = would_glue(self.src[p.end - 1], self.src[t.start], self.operators_glue);
        // a block right after a closing bracket (`f(){`, the body a rewrite
        // copied after a declaration's `)`) gets the space a person would
        // write; the gap takes the bracket along, as it has no whitespace to
        // replace
        let spaced_block =
            self.opens_block(t) && self.rules.joined.iter().any(|(_, c)| **c == *self.text(&p));
        if old.is_empty() && spaced_block {
            [self.text(&p), b" "].concat()
        } else if old.is_empty() || (tight && !glue) {
            Vec::new()
        } else {
            b" ".to_vec()
        }
    }
}

/// Per token: whether it opens a block whose inside holds a line break
/// (its items were on lines of their own: a block written on one line, `{
/// return 0; }`, stays so). A block never closed counts as one.
fn blocks_over_lines(rules: &Rules, src: &[u8], tokens: &[Token]) -> Vec<bool> {
    let mut out = vec![false; tokens.len()];
    let mut open: Vec<(usize, Open)> = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        let text = &src[t.start..t.end];
        // as in `lay_out`, a file of a set starts with nothing open, and
        // what a syntax error left open inside the bracket `t` closes ends
        // with it
        let from = k.checked_sub(1).map_or(0, |j| tokens[j].end);
        if src[from..t.start].contains(&forest::SEPARATOR) {
            open.clear();
        }
        if let Some(at) = open.iter().rposition(|&(_, kind)| text == rules.closer(kind)) {
            open.truncate(at + 1);
        }
        if let Some(&(o, kind)) = open.last() {
            if text == rules.closer(kind) {
                open.pop();
                out[o] =
                    matches!(kind, Open::Block(_)) && src[tokens[o].end..t.start].contains(&b'\n');
                continue;
            }
        }
        if let Some(kind) = rules.opened_by(text) {
            out[k] = matches!(kind, Open::Block(_));
            open.push((k, kind));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::Unparser;
    use std::sync::Arc;

    /// `src` in `lang`, laid out: the view's units all switched off.
    fn laid_out(lang: &str, src: &str) -> String {
        let fe = crate::language::by_name(lang).expect("language").frontend().expect("front-end");
        let tree = fe.parse(Arc::from(src.as_bytes()));
        let Some(view) = view(&tree, usize::MAX) else { return src.to_string() };
        let mut mask = crate::syntax::Mask::new(view.len());
        for (i, n) in view.nodes().iter().enumerate() {
            if n.action != Action::Keep {
                mask.set_off(crate::syntax::NodeId(i as u32));
            }
        }
        let mut out = Vec::new();
        Unparser::new().unparse(&view, &mask, &mut out);
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn a_formatted_text_is_one_unit_within_the_limit_only() {
        let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
        let tree = fe.parse(Arc::from(&b"int  f(){return 0;}\n"[..]));
        let text = b"int f() { return 0; }\n".to_vec();
        let view = formatted(&tree, text.clone(), 100).expect("a view");
        let mut mask = crate::syntax::Mask::new(view.len());
        let mut out = Vec::new();
        Unparser::new().unparse(&view, &mask, &mut out);
        assert_eq!(out, tree.src(), "nothing switched: the text as it is");
        let units: Vec<_> =
            (0..view.len()).filter(|&i| view.nodes()[i].action != Action::Keep).collect();
        assert_eq!(units.len(), 1);
        mask.set_off(crate::syntax::NodeId(units[0] as u32));
        Unparser::new().unparse(&view, &mask, &mut out);
        assert_eq!(out, text);
        // the same text, or longer than the limit: nothing to try
        assert!(formatted(&tree, tree.src().to_vec(), 100).is_none());
        assert!(formatted(&tree, text, 10).is_none());
    }

    #[test]
    fn c_lines_are_indented_by_their_blocks_and_statements_joined() {
        let src = "#include \"x.h\"\n\nvoid f ( int a )\n{\n   Int32 n;\n\n\n   if (a) n = 5; else\n                 n = 6;\n   for (;;) {\n\nn = 0;\n      while (1) {\n}\n   }\n   g( n,\n            3003 );   \n}\n\n\n";
        let want = "#include \"x.h\"\nvoid f (int a) {\n  Int32 n;\n  if (a) n = 5; else n = 6;\n  for (;;) {\n    n = 0;\n    while (1) {\n    }\n  }\n  g(n, 3003);\n}\n";
        assert_eq!(laid_out("c", src), want);
    }

    #[test]
    fn c_directives_comments_and_continued_lines_keep_their_breaks() {
        let src = "int a;\n  #define M(x) \\\n     (x)\n/* c */ int\n   b; // d\n  int c;\n";
        let want = "int a;\n#define M(x) \\\n     (x)\n/* c */ int b; // d\nint c;\n";
        assert_eq!(laid_out("c", src), want);
    }

    #[test]
    fn the_line_break_after_a_macro_s_continued_last_line_stays() {
        // the body's last line, on a line a `\` continued, still ends the
        // directive: the function after it is not joined into the macro
        let src = "#define r(cl)       \\\n   int v;     \\\n         cl = v\nint al ( int s )\n{\nr(s);\n   }\n";
        let want = "#define r(cl)       \\\n   int v;     \\\n         cl = v\nint al (int s) {\n  r(s);\n}\n";
        assert_eq!(laid_out("c", src), want);
        let crlf = "#define A \\\r\n  1\r\nint x;\r\n";
        assert_eq!(laid_out("c", crlf), "#define A \\\r\n  1\nint x;\n");
    }

    #[test]
    fn javascript_keeps_every_line_break_outside_brackets() {
        let src = "function f() {\n        let a = 1\n\n  g(a,\n b)\n}\n";
        let want = "function f() {\n  let a = 1\n  g(a, b)\n}\n";
        assert_eq!(laid_out("js", src), want);
    }

    #[test]
    fn a_line_moves_in_to_its_block_within_the_limit_only() {
        let fe = crate::language::by_name("js").expect("js").frontend().expect("front-end");
        let src = "function f() {\ng()\n}\n";
        let tree = fe.parse(Arc::from(src.as_bytes()));
        assert!(view(&tree, src.len() + 2).is_some());
        assert!(view(&tree, src.len() + 1).is_none());
        assert_eq!(laid_out("js", src), "function f() {\n  g()\n}\n");
    }

    #[test]
    fn a_line_break_stays_where_an_item_ends_and_only_there() {
        let src = "typedef struct { int b[8]; }\nd;\nint f(int x) {\n  if (x) { g(); }\n  else\n  { h(); }\n  do { x--; }\n  while (x);\n}\n";
        let want = "typedef struct { int b[8]; } d;\nint f(int x) {\n  if (x) { g(); } else { h(); }\n  do { x--; } while (x);\n}\n";
        assert_eq!(laid_out("c", src), want);
        let js = "s = s\n    .trim()\n    .toUpperCase()\nreturn\ns\n";
        assert_eq!(laid_out("js", js), "s = s.trim().toUpperCase()\nreturn\ns\n");
        let js = "(function() {\n  f(function(d) {\n    return d\n})\n  x = he\n        }())\n";
        let want = "(function() {\n  f(function(d) {\n    return d\n  })\n  x = he\n}())\n";
        assert_eq!(laid_out("js", js), want, "a block closes on its own line, in brackets too");
    }

    #[test]
    fn items_that_deletions_joined_on_one_line_get_lines_of_their_own() {
        // a hoist left a declaration right after the one before it, and a
        // statement on the line of its block's opening bracket
        let src = "typedef unsigned g;void a (unsigned);\nint f(int i) { a (0);\n  return i; }\nint h() { return 0; }\n";
        let want = "typedef unsigned g;\nvoid a (unsigned);\nint f(int i) {\n  a (0);\n  return i;\n}\nint h() { return 0; }\n";
        assert_eq!(laid_out("c", src), want, "a block on one line stays so");
        let js = "function f() { g()\n  h() }\nlet a = 1; let b = 2\n";
        let want = "function f() {\n  g()\n  h()\n}\nlet a = 1;\nlet b = 2\n";
        assert_eq!(laid_out("js", js), want);
        // never a break before a `tight` token: a class's `;`
        let cpp = "struct P {\n  int a; };\nstruct Q {};int b;\n";
        let want = "struct P {\n  int a;\n};\nstruct Q {};\nint b;\n";
        assert_eq!(laid_out("cpp", cpp), want);
        // a block right after a closing bracket gets a space
        assert_eq!(laid_out("cpp", "void f(int a){ g(a); }\n"), "void f(int a) { g(a); }\n");
        // an access specifier ends at its `:`
        let cpp = "class A {\npublic:\n  int a;\n  private\n  :\n};\n";
        let want = "class A {\n  public:\n  int a;\n  private :\n};\n";
        assert_eq!(laid_out("cpp", cpp), want);
    }

    #[test]
    fn what_a_preprocessor_conditional_guards_stays_on_lines_of_their_own() {
        let src = "#ifdef X\nint a() {\n  return 0;\n}\nint c(int x) {\n  return x;\n}\nint d;\nint e;\n#endif\nint f(void) {\n#if 1\n  int y;\n  y = 1;\n#else\n  int y; y = 2;\n#endif\n  return y;\n}\n";
        let want = "#ifdef X\nint a() {\n  return 0;\n}\nint c(int x) {\n  return x;\n}\nint d;\nint e;\n#endif\nint f(void) {\n#if 1\n  int y;\n  y = 1;\n#else\n  int y;\n  y = 2;\n#endif\n  return y;\n}\n";
        assert_eq!(laid_out("c", src), want);
        let cpp = "struct A {\n#if X\n  int a; int b;\n#endif\n};\n";
        assert_eq!(laid_out("cpp", cpp), "struct A {\n#if X\n  int a;\n  int b;\n#endif\n};\n");
    }

    #[test]
    fn a_bracket_a_syntax_error_left_open_ends_with_the_block_around_it() {
        // `(` never closed: the function's `}` still ends its line, and the
        // next function starts a line of its own
        let src = "int f(int x) {\n    return (\n        x\n        ;\n}\nint h(int x) {\n    return g(x\n    ;\n}\n";
        let want = "int f(int x) {\n  return (x;\n}\nint h(int x) {\n  return g(x;\n}\n";
        assert_eq!(laid_out("c", src), want);
    }

    #[test]
    fn each_file_of_a_set_is_laid_out_as_a_file() {
        let fe = |name: &str| crate::language::by_name(name).expect("language");
        let files: [(&str, &[u8]); 2] = [
            ("c", b"typedef unsigned   UInt32;int f(int x) {\n    return\n        x\n        ;\n    }\nint g(\n\n\n"),
            ("c", b"\n  int h(\n  struct {\n      int     g;\n  }* s )\n{\nf(s->g);\n   }\n"),
        ];
        let trees: Vec<Tree> = files
            .iter()
            .map(|(l, t)| fe(l).frontend().expect("front-end").parse(Arc::from(*t)))
            .collect();
        let tree = crate::syntax::forest::splice(&trees);
        let laid = view(&tree, usize::MAX).expect("a layout");
        let mut mask = crate::syntax::Mask::new(laid.len());
        for (i, n) in laid.nodes().iter().enumerate() {
            if n.action != Action::Keep {
                mask.set_off(crate::syntax::NodeId(i as u32));
            }
        }
        let mut out = Vec::new();
        Unparser::new().unparse(&laid, &mask, &mut out);
        let got: Vec<String> =
            forest::split(&out).iter().map(|f| String::from_utf8_lossy(f).into_owned()).collect();
        // the first file's unclosed `(` ends with it, and each file ends
        // with one line break and starts with its first token
        let want = [
            "typedef unsigned UInt32;\nint f(int x) {\n  return x;\n}\nint g(\n",
            "int h(struct {\n  int g;\n}* s) {\n  f(s->g);\n}\n",
        ];
        assert_eq!(got, want);
        // files laid out by different rules are left as they are
        let js = fe("js").frontend().expect("front-end").parse(Arc::from(&b"let  a\n"[..]));
        let mixed = crate::syntax::forest::splice(&[trees[0].clone(), js]);
        assert!(view(&mixed, usize::MAX).is_none());
    }

    #[test]
    fn tokens_that_were_apart_stay_apart() {
        assert_eq!(laid_out("c", "int\n   a = - -b;\n"), "int a = - -b;\n");
    }

    #[test]
    fn a_text_laid_out_already_has_nothing_to_change() {
        let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
        let tree = fe.parse(Arc::from(&b"int f() {\n  return 0;\n}\n"[..]));
        assert!(view(&tree, usize::MAX).is_none());
    }
}
