//! Where a session's results go: a file, or a directory for a set of files
//! (see [`output`](crate::app::output), which writes them safely).
//!
//! A set's result is the set's files with the best text's parts in place
//! of the reduced files, the copied files as they were, and the files the
//! test turned out not to need left out.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Result;

use crate::app::output::{DirOutput, Output};
use crate::app::set::FileSet;

/// Where results go: a file, or a directory for a set of files (with the
/// set, and the files copied as they are).
pub(super) enum Destination<'c> {
    File(Output),
    Dir(DirOutput, &'c FileSet, Vec<(PathBuf, Arc<[u8]>)>),
}

impl Destination<'_> {
    pub(super) fn write(&self, text: &[u8]) -> Result<()> {
        self.write_without(text, &[])
    }

    /// Writes `text`, leaving out the files of a set that `absent` marks.
    pub(super) fn write_without(&self, text: &[u8], absent: &[bool]) -> Result<()> {
        match self {
            Destination::File(o) => o.write(text),
            Destination::Dir(o, set, copied) => o.write(set.result(text, copied, absent)),
        }
    }

    /// At the end: whether the output still holds the result, less the
    /// files `absent` marks (see [`Output::verify`]).
    pub(super) fn verify(&self, best: &[u8], absent: &[bool]) -> Result<()> {
        match self {
            Destination::File(o) => o.verify(best),
            Destination::Dir(o, set, copied) => o.verify(set.result(best, copied, absent)),
        }
    }

    pub(super) fn path(&self) -> &Path {
        match self {
            Destination::File(o) => o.path(),
            Destination::Dir(o, ..) => o.path(),
        }
    }
}
