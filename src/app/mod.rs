//! The application layer: one reduction as a user asks for it.
//!
//! - [`cli`]: the command line (clap) into a validated [`config::Config`];
//!   [`values`]: the values its options take (durations, shell words).
//! - [`session`]: one reduction from start to end, the plan's host.
//! - [`set`]: a set of files (a directory, or several files) reduced jointly.
//! - [`output`]: saving results without ever losing the user's data.
//! - [`progress`]: the live line on stderr.
//! - [`error`]: the documented exit codes and the error that carries one.
//!
//! Only `main` (the binary) picks the exit code, from what these return.

pub mod cli;
pub mod config;
pub mod error;
pub mod output;
pub mod progress;
pub mod session;
pub mod set;
pub mod values;
