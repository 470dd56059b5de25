//! The syntax layer: a parsed text and the candidates made from it.
//!
//! - [`bindings`]: per-kind tables of which nodes declare, scope and call names.
//! - [`tree`]: the arena [`Tree`] every front-end builds and every pass reads.
//! - [`mask`]: a candidate as a bitset over the nodes, plus hoists.
//! - [`unparse`]: tree + mask back to bytes, at about the cost of a `memcpy`.
//! - [`chars`]: another tree over the same text whose units are the
//!   characters of strings, for the shrinking pass.
//! - [`layout`]: another tree whose units are the whitespace between tokens,
//!   laid out again, for the layout pass.
//! - [`dump`]: the tree as text, for `--dump-tree`.
//! - [`forest`]: several files' trees spliced into one, for multi-file
//!   inputs.
//!
//! Invariant: this layer knows nothing of the layers above it (languages,
//! the reducer core, the oracle, the application). It does no I/O.

pub mod bindings;
pub mod chars;
pub mod dump;
pub mod forest;
pub mod layout;
pub mod mask;
pub mod tree;
pub mod unparse;

pub use mask::{Hoist, Mask, Target};
pub use tree::{NodeId, Tree};
pub use unparse::Unparser;
