//! hdd: hierarchical delta debugging over grammar-aware parse trees.
//!
//! Given a file that makes some program misbehave and a test that says whether
//! a file still does, hdd finds a much smaller file that still does, with as
//! few runs of the test as it can, and keeps every candidate syntactically
//! shaped like the input language (C, JavaScript, JSON, XML).
//!
//! The pipeline (see `ARCHITECTURE.md`):
//!
//! ```text
//! bytes ─frontend─▶ Tree ─reduce (HDD levels, ddmin / adaptive ddmin, HDD+)─▶ result
//!                     every candidate = unparse(Tree, Mask) ─▶ oracle (the user's test)
//! ```
//!
//! - [`frontend`]: bytes to an arena [`tree::Tree`]; never fails.
//! - [`mask`], [`unparse`]: candidates as bitsets over nodes, and their text.
//! - [`reduce`]: the algorithms; no I/O.
//! - [`oracle`]: running the user's test, with cache, syntax guard and `-j`.
//! - [`session`]: one reduction from start to end; [`cli`]: the command line.
//!
//! A reduction in memory, with a predicate instead of a test:
//!
//! ```
//! use std::sync::Arc;
//! use hdd::{frontend, mask::Mask, reduce, unparse::Unparser};
//!
//! let json = frontend::by_name("json").unwrap().frontend().unwrap();
//! let tree = json.parse(Arc::from(&br#"{"a": [1, 2, 3], "b": {"c": true}}"#[..]));
//! let units = reduce::Units::new(&tree);
//!
//! // interesting iff the text still contains "2"
//! struct Contains2<'t>(&'t hdd::tree::Tree, Unparser);
//! impl reduce::Oracle for Contains2<'_> {
//!     fn evaluate(&mut self, candidates: &mut dyn reduce::Candidates) -> reduce::Verdict {
//!         while let Some(c) = candidates.next() {
//!             let mut text = Vec::new();
//!             self.1.unparse(self.0, &c.mask, &mut text);
//!             candidates.settle(c.index, text.contains(&b'2'));
//!         }
//!         reduce::Verdict::Finished
//!     }
//! }
//!
//! let mut mask = Mask::new(tree.len());
//! let mut oracle = Contains2(&tree, Unparser::new());
//! let hdd = reduce::Hdd::new(reduce::Ddmin::Adaptive, reduce::Order::Forward);
//! reduce::run(hdd, &units, &mut mask, &mut oracle);
//! let mut text = Vec::new();
//! Unparser::new().unparse(&tree, &mask, &mut text);
//! assert_eq!(text, br#"{"": [2]}"#); // keys have a minimal form too
//! ```

pub mod cli;
pub mod error;
pub mod frontend;
pub mod grammar;
pub mod mask;
pub mod oracle;
pub mod output;
pub mod progress;
pub mod reduce;
pub mod session;
pub mod stats;
pub mod tree;
pub mod unparse;
