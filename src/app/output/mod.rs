//! Saving results without ever losing the user's data.
//!
//! - The input is never modified, unless `--in-place` is given; then it is
//!   first copied to `FILE.orig` (refusing to overwrite an existing one).
//! - Every result is written to a temporary file in the output's directory and
//!   renamed over the output, so the output is always a complete file: the
//!   original, or some interesting candidate. An interrupt, a crash or
//!   `kill -9` at any moment loses nothing already found ([`file`](mod@file)).
//! - The output keeps the input's permissions.
//! - A set of files ([`DirOutput`]) goes to a directory (`DIR.reduced/`),
//!   written whole into a temporary directory beside it and renamed into
//!   place; `--in-place` first copies the input directory to `DIR.orig/`
//!   ([`directory`]).
//! - Results are written through a [`Dir`](crate::os::dir::Dir) of the
//!   output's directory, so an output deeper than `PATH_MAX` (given by a
//!   relative path) works, and a set's files may lie that deep below it.
//! - One run writes an output at a time: a run holds a [`Claim`] on its
//!   output and a second run is refused up front ([`claim`]).
//! - Temporary files and directories carry their writer's pid
//!   (`.NAME.PID.XXXXXX.hdd-tmp`, see [`names`]); the next run that claims
//!   the output removes those whose writer is gone.
//! - With `--in-place`, a file the user changed during the run is never
//!   overwritten: before each write hdd checks that the file still holds
//!   what it last wrote; if not, the best result goes beside it and the run
//!   stops ([`in_place`]).
//! - Nothing is written where renaming would replace what is not a result:
//!   the paths are checked before anything runs ([`target`]).

mod claim;
mod directory;
mod file;
mod in_place;
mod names;
mod target;

pub(crate) use claim::Claim;
pub(crate) use directory::{default_dir_path, DirOutput};
pub(crate) use file::{default_path, Output};
pub(crate) use target::{check_dir_target, check_names, check_target};
