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
//! Six layers, each knowing nothing of those above it (`ARCHITECTURE.md`
//! states what each may use):
//!
//! - [`os`]: OS plumbing that knows nothing of reduction: directories past
//!   `PATH_MAX`, stopping, ending a test's processes, the session directory.
//! - [`syntax`]: the arena [`syntax::Tree`], candidates as bitsets over its
//!   nodes ([`syntax::Mask`]) and their text ([`syntax::Unparser`]).
//! - [`language`]: the registry of languages, their grammar data, and the
//!   front-ends that turn bytes into a tree; parsing never fails.
//! - [`reduce`]: the algorithms and plans; no I/O.
//! - [`oracle`]: running the user's test, with cache, syntax guard and `-j`.
//! - [`app`]: the command line, one reduction from start to end, output.
//!
//! A reduction in memory, with a predicate instead of a test:
//!
//! ```
//! use std::sync::Arc;
//! use hdd::{language, reduce, syntax::Mask, syntax::Unparser};
//!
//! let json = language::by_name("json").unwrap().frontend().unwrap();
//! let tree = json.parse(Arc::from(&br#"{"a": [1, 2, 3], "b": {"c": true}}"#[..]));
//! let units = reduce::Units::new(&tree);
//!
//! // interesting iff the text still contains "2"
//! struct Contains2<'t>(&'t hdd::syntax::Tree, Unparser);
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
//! reduce::run(hdd, &units, &mut mask, &mut oracle).unwrap();
//! let mut text = Vec::new();
//! Unparser::new().unparse(&tree, &mask, &mut text);
//! assert_eq!(text, br#"{"": [2]}"#); // keys have a minimal form too
//! ```

pub mod app;
pub mod language;
pub mod oracle;
pub mod os;
pub mod reduce;
pub mod syntax;
