//! `--in-place`: the backup of the input (`FILE.orig`, `DIR.orig`), and
//! telling whether the user changed the file or directory during the run.
//!
//! The input is first copied to its backup, refusing to overwrite one that
//! exists. Before each write hdd checks that the output still holds what
//! it last wrote (the input, before the first write), by a [`Stamp`]; if
//! not, the best result goes to a side path (`FILE.reduced.EXT`,
//! `DIR.reduced`) and the run stops with
//! [`exit::CHANGED`].

use std::fs;
use std::hash::{Hash, Hasher};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::app::error::{exit, Fatal};
use crate::app::shown::shown;
use crate::os::dir;

/// What a file holds, enough to tell whether someone else wrote it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stamp {
    len: u64,
    hash: u64,
}

impl Stamp {
    pub(super) fn of(bytes: &[u8]) -> Stamp {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        bytes.hash(&mut h);
        Stamp { len: bytes.len() as u64, hash: h.finish() }
    }

    /// The stamp of a directory holding these files (relative paths), in
    /// any order.
    pub(super) fn of_files<'a>(files: impl IntoIterator<Item = (&'a Path, &'a [u8])>) -> Stamp {
        let mut files: Vec<_> = files.into_iter().collect();
        files.sort();
        let mut h = std::collections::hash_map::DefaultHasher::new();
        let mut len = 0;
        for (rel, bytes) in files {
            rel.as_os_str().as_bytes().hash(&mut h);
            bytes.hash(&mut h);
            len += bytes.len() as u64;
        }
        Stamp { len, hash: h.finish() }
    }

    /// The stamp of the directory `dir` as it is now (`None`: unreadable),
    /// however deep its files.
    pub(super) fn of_dir(dir: &Path) -> Option<Stamp> {
        let mut files = Vec::new();
        let mut todo = vec![PathBuf::new()];
        while let Some(rel) = todo.pop() {
            for (name, kind) in dir::entries(&dir.join(&rel)).ok()? {
                let rel = rel.join(name);
                match kind {
                    dir::Kind::Dir => todo.push(rel),
                    dir::Kind::File => files.push((dir::read(&dir.join(&rel)).ok()?, rel)),
                    // what hdd never writes, it does not watch
                    dir::Kind::Link | dir::Kind::Special => {}
                }
            }
        }
        Some(Stamp::of_files(files.iter().map(|(b, r)| (r.as_path(), b.as_slice()))))
    }

    /// Whether the file at `path` still holds what this stamp describes.
    pub(super) fn holds(self, path: &Path) -> bool {
        match fs::metadata(path) {
            Ok(meta) if meta.is_file() && meta.len() == self.len => {
                fs::read(path).is_ok_and(|bytes| Stamp::of(&bytes) == self)
            }
            _ => false,
        }
    }
}

/// Where `--in-place` keeps the input (`FILE.orig`, `DIR.orig`); refused
/// when something is there already.
pub(super) fn backup_path(input: &Path) -> Result<PathBuf> {
    let mut backup = input.as_os_str().to_owned();
    backup.push(".orig");
    let backup = PathBuf::from(backup);
    if backup.exists() {
        return Err(Fatal::usage(format!(
            "{} already exists; move it away (--in-place keeps the original there)",
            shown(&backup)
        )));
    }
    Ok(backup)
}

/// Copies the directory `from` to `to`, recursively (`to` must not exist),
/// however deep its files.
pub(super) fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    fs::create_dir(&*dir::reach(to)?)?;
    for (name, kind) in dir::entries(from)? {
        let (from, to) = (from.join(&name), to.join(&name));
        match kind {
            dir::Kind::Dir => copy_dir(&from, &to)?,
            dir::Kind::File => drop(fs::copy(&*dir::reach(&from)?, &*dir::reach(&to)?)?),
            // a link stays a link: its target's text is not the original's
            dir::Kind::Link => {
                let target = fs::read_link(&*dir::reach(&from)?)?;
                std::os::unix::fs::symlink(target, &*dir::reach(&to)?)?;
            }
            // reading a FIFO would wait for a writer forever; a new one
            // in its place is the same file
            dir::Kind::Special if is_fifo(&from) => make_fifo(&to)?,
            // a socket or a device is left out: hdd never reads or writes it
            dir::Kind::Special => {}
        }
    }
    Ok(())
}

/// Whether `path` (not followed) is a FIFO.
fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    dir::reach(path).and_then(|p| fs::symlink_metadata(&*p)).is_ok_and(|m| m.file_type().is_fifo())
}

/// Makes a FIFO at `path`, readable and writable by its owner.
fn make_fifo(path: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let path = dir::reach(path)?;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes())?;
    // SAFETY: `c` is a valid NUL-terminated path
    match unsafe { libc::mkfifo(c.as_ptr(), 0o600) } {
        0 => Ok(()),
        _ => Err(std::io::Error::last_os_error()),
    }
}

/// The error of an `--in-place` file or directory `path` that the user
/// changed during the run, once the best result is in `side`.
pub(super) fn changed(path: &Path, side: &Path) -> anyhow::Error {
    anyhow::Error::new(Fatal {
        code: exit::CHANGED,
        message: format!(
            "{} changed during the run, not by hdd; hdd left it alone and wrote the best result so far to {}",
            shown(&path),
            shown(&side)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_tells_a_file_or_directory_changed_by_someone_else() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("x.c");
        fs::write(&file, "int x;").expect("write");
        assert!(Stamp::of(b"int x;").holds(&file));
        assert!(!Stamp::of(b"int y;").holds(&file));
        assert!(!Stamp::of(b"int x;").holds(&dir.path().join("absent.c")));
        fs::create_dir(dir.path().join("sub")).expect("mkdir");
        fs::write(dir.path().join("sub/a.h"), "a").expect("write");
        let files = [(Path::new("sub/a.h"), &b"a"[..]), (Path::new("x.c"), b"int x;")];
        let reversed = [files[1], files[0]];
        assert_eq!(Stamp::of_dir(dir.path()), Some(Stamp::of_files(reversed)));
        fs::write(dir.path().join("sub/a.h"), "b").expect("edit");
        assert_ne!(Stamp::of_dir(dir.path()), Some(Stamp::of_files(files)));
    }
}
