//! The syntax layer: a parsed text and the candidates made from it.
//!
//! - `policy`: a language's rules for reduction, one record per node kind.
//! - `tree`: the arena [`Tree`] every front-end builds and every pass reads.
//! - `mask`: a candidate as a bitset over the nodes, plus hoists.
//! - `unparse`: tree + mask back to bytes, at about the cost of a `memcpy`.
//! - `chars`: another tree over the same text whose units are the
//!   characters of strings, for the shrinking pass.
//! - `layout`: another tree whose units are the whitespace between tokens,
//!   laid out again, for the layout pass.
//! - `ends`: the tokens of the plain-text view that the token pass keeps,
//!   as the language's parse of the same text says.
//! - `dump`: the tree as text, for `--dump-tree`.
//! - `key`: `TextKey`, a text's identity for caches.
//! - `forest`: several files' trees spliced into one, for multi-file
//!   inputs.
//!
//! Invariant: this layer knows nothing of the layers above it (languages,
//! the reducer core, the oracle, the application). It does no I/O.

pub(crate) mod chars;
pub(crate) mod dump;
pub(crate) mod ends;
pub(crate) mod forest;
pub(crate) mod key;
pub(crate) mod layout;
pub(crate) mod mask;
pub(crate) mod policy;
pub(crate) mod tree;
pub(crate) mod unparse;

pub use forest::join;
pub(crate) use key::TextKey;
pub use mask::{Hoist, Mask};
pub(crate) use mask::{Swap, Target, Text};
pub use tree::{NodeId, Tree};
pub use unparse::Unparser;

/// Whether byte `c` belongs to a word: a name, keyword or number, where
/// two such bytes side by side read as one token. ASCII letters and digits,
/// `_`, `$` (JavaScript names) and every byte of a non-ASCII character
/// (identifiers in UTF-8). The one rule of the crate: the unparser's gluing
/// check, the renaming's fresh names, the units' words and plain text's
/// tokens all read words with it.
pub fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80
}

/// Where two texts differ: the lengths of their longest common prefix and
/// of their longest common suffix that does not overlap it. A candidate
/// differs from the best in one place or a few close ones, so the span
/// between them is what a re-parse must read again.
pub fn common_ends(old: &[u8], new: &[u8]) -> (usize, usize) {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix =
        old.iter().rev().zip(new.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
    (prefix, suffix)
}

#[cfg(test)]
mod tests {
    #[test]
    fn common_ends_never_overlap() {
        assert_eq!(super::common_ends(b"x-ab-y", b"xy"), (1, 1));
        // a repeated text: the prefix takes it, the suffix gets what is left
        assert_eq!(super::common_ends(b"abcabc", b"abc"), (3, 0));
        assert_eq!(super::common_ends(b"same", b"same"), (4, 0));
        assert_eq!(super::common_ends(b"", b"new"), (0, 0));
    }
}
