//! -j determinism (placeholder).
