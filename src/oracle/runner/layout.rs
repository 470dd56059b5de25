//! How a candidate is laid out for the test: one file under the input's
//! own name, or a set of files as a private copy of the whole set.
//!
//! A set's candidate is the files' texts joined by [`forest::SEPARATOR`];
//! the files that are not reduced (binary files, say) are copied as they
//! were, in the same relative layout. The copy of the directory is the
//! test's working directory, and the test gets its absolute path (a
//! directory was given) or the files' absolute paths (files were given).
//! A set's copy stays in its run directory for the next run, which writes
//! only the files that differ ([`reuse`]).
//!
//! [`room`] says how long a run's paths get, so that the session directory
//! can be reached by a shorter path when its own is too long for them.

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};

use super::reuse;
use crate::os::dir;
use crate::syntax::forest;

/// How a candidate is laid out for the test.
#[derive(Debug, Clone)]
pub enum Layout {
    /// One file, under the input's own name.
    File(OsString),
    /// A set of files, reduced jointly.
    Set(SetLayout),
}

/// A set of files in a directory, as the test sees it.
#[derive(Debug, Clone)]
pub struct SetLayout {
    /// The directory's name (the input directory's, or the files' common
    /// parent's).
    pub dir: OsString,
    /// The reduced files, relative to the directory, in the order of their
    /// texts in a candidate.
    pub files: Vec<PathBuf>,
    /// Files written as they are in every run (binary files, say), relative
    /// to the directory, with their bytes.
    pub copied: Vec<(PathBuf, Arc<[u8]>)>,
    /// Symbolic links made in every run, relative to the directory, with
    /// what they point to.
    pub links: Vec<(PathBuf, PathBuf)>,
    /// The permission bits of each file (reduced or copied), relative to
    /// the directory, as the input had them.
    pub modes: HashMap<PathBuf, u32>,
    /// The test gets the directory's path; else each reduced file's path.
    pub pass_dir: bool,
}

impl Layout {
    /// Writes the candidate `bytes` into the run's directory `work` (of a
    /// set, the files `absent` marks left out); returns the test's working
    /// directory and its arguments.
    pub(super) fn write(
        &self,
        work: PathBuf,
        bytes: &[u8],
        absent: &[bool],
    ) -> Result<(PathBuf, Vec<PathBuf>)> {
        match self {
            Layout::File(name) => {
                let candidate = work.join(name);
                fs::write(&candidate, bytes)
                    .with_context(|| format!("cannot write {}", candidate.display()))?;
                Ok((work, vec![candidate]))
            }
            Layout::Set(set) => set.write(&work, bytes, absent),
        }
    }
}

impl Layout {
    /// After a run: empties its working directory `work` of all the test
    /// left, but what of a set's copy the next run can reuse (see
    /// [`reuse`]).
    pub(super) fn tidy(&self, work: &Path) -> std::io::Result<()> {
        match self {
            Layout::File(_) => reuse::clear(work),
            Layout::Set(set) => {
                let files = set.files.iter().chain(set.copied.iter().map(|(p, _)| p));
                let files = files.map(|p| (p.as_path(), set.mode(p)));
                let links = set.links.iter().map(|(p, t)| (p.as_path(), t.as_path()));
                reuse::tidy(work, &set.dir, files, links)
            }
        }
    }
}

impl SetLayout {
    /// The permission bits the file `rel` gets in the test's copy: the
    /// input's (`rw-r--r--` for a file `modes` does not name, which a set
    /// read from the disk never has).
    fn mode(&self, rel: &Path) -> u32 {
        self.modes.get(rel).copied().unwrap_or(0o644)
    }

    /// Writes the candidate `bytes` into `work`, but the files `absent`
    /// marks; returns the directory (the working directory) and the test's
    /// arguments.
    fn write(&self, work: &Path, bytes: &[u8], absent: &[bool]) -> Result<(PathBuf, Vec<PathBuf>)> {
        let dir = work.join(&self.dir);
        let texts = forest::split(bytes);
        anyhow::ensure!(
            texts.len() == self.files.len(),
            "a candidate has {} files, the set {}",
            texts.len(),
            self.files.len()
        );
        let present = |i: &usize| !absent.get(*i).copied().unwrap_or(false);
        // the copy an earlier run left, as tidy kept it: only what differs
        // is written (a set's files may lie deeper below it than PATH_MAX)
        for (i, (rel, text)) in self.files.iter().zip(texts).enumerate() {
            let path = dir.join(rel);
            match present(&i) {
                true => reuse::put(&path, text, self.mode(rel)),
                false => reuse::absent(&path),
            }
            .with_context(|| format!("cannot write {}", path.display()))?;
        }
        for (rel, bytes) in &self.copied {
            let path = dir.join(rel);
            reuse::put(&path, bytes, self.mode(rel))
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        for (rel, target) in &self.links {
            let path = dir.join(rel);
            reuse::link(&path, target)
                .with_context(|| format!("cannot make the link {}", path.display()))?;
        }
        let args = if self.pass_dir {
            vec![dir.clone()]
        } else {
            let files = self.files.iter().enumerate().filter(|(i, _)| present(i));
            files.map(|(_, f)| dir.join(f)).collect()
        };
        Ok((dir, args))
    }
}

/// Makes the symbolic links `links` (relative paths, targets) below `dir`.
pub(crate) fn make_links(dir: &Path, links: &[(PathBuf, PathBuf)]) -> Result<()> {
    for (rel, target) in links {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            dir::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::os::unix::fs::symlink(target, &*dir::reach(&path)?)
            .with_context(|| format!("cannot make the link {}", path.display()))?;
    }
    Ok(())
}

/// What a test may add below its private directory, in bytes of path,
/// when hdd decides whether the session's real path is short enough.
const TEST_ROOM: usize = 256;

/// How long the paths of a run get below the session's parent: the
/// session's and the run's directories, the candidate's path in it, and
/// [`TEST_ROOM`].
pub(super) fn room(layout: &Layout) -> usize {
    let candidate = match layout {
        Layout::File(name) => name.len(),
        Layout::Set(set) => {
            let files = set.files.iter().chain(set.copied.iter().map(|(p, _)| p));
            set.dir.len() + 1 + files.map(|f| f.as_os_str().len()).max().unwrap_or(0)
        }
    };
    format!("/hdd-XXXXXX/run{}/work/", u64::MAX).len() + candidate + TEST_ROOM
}
