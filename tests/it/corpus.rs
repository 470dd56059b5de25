//! The real corpus cases (placeholder until the corpus is final).
