//! The application layer: one reduction as a user asks for it.
//!
//! - `cli`: the command line (clap) into a validated [`config::Config`];
//!   `values`: the values its options take (durations, shell words).
//! - `session`: one reduction from start to end, the plan's host.
//! - `set`: a set of files (a directory, or several files) reduced jointly.
//! - `output`: saving results without ever losing the user's data.
//! - `progress`: the live line on stderr; `resume`: the command that
//!   goes on from a stopped run's result; `naming`: the name a test
//!   knows an input by.
//! - `error`: the documented exit codes and the error that carries one;
//!   `shown`: a path as messages show it.
//!
//! Only `main` (the binary) picks the exit code, from what these return.

pub(crate) mod cli;
pub(crate) mod config;
pub(crate) mod error;
pub(crate) mod naming;
pub(crate) mod output;
pub(crate) mod progress;
pub(crate) mod resume;
pub(crate) mod session;
pub(crate) mod set;
pub(crate) mod shown;
pub(crate) mod values;

pub use cli::{completions, man_page, parse, Args};
pub use config::Config;
pub use error::{code_of, exit, Fatal};
pub use resume::{continue_command, Resume};
pub use session::{dump_tree, reduce, Ended, Summary};
pub use shown::shown;
