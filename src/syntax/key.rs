//! [`TextKey`]: the identity of a text, by which the cache, the tests ahead,
//! the final re-check and the forecasts' parses know a candidate.
//!
//! One 128-bit hash (xxh3) of the bytes: two different texts of a run share
//! a key with a chance far below that of a hardware fault, so a key stands
//! for its text everywhere. Every place that asks "is this the same text?"
//! without the text at hand goes through [`TextKey::of`].

/// The hash of a text's bytes (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TextKey(u128);

impl TextKey {
    /// The key of `text`.
    pub(crate) fn of(text: &[u8]) -> TextKey {
        TextKey(xxhash_rust::xxh3::xxh3_128(text))
    }
}

#[cfg(test)]
mod tests {
    use super::TextKey;

    #[test]
    fn equal_texts_have_equal_keys_and_others_differ() {
        assert_eq!(TextKey::of(b"int a;"), TextKey::of(b"int a;"));
        assert_ne!(TextKey::of(b"int a;"), TextKey::of(b"int b;"));
        assert_ne!(TextKey::of(b""), TextKey::of(b"\0"));
    }
}
