//! The result of a set of files: [`DirOutput`], a directory
//! (`DIR.reduced/`) written whole.
//!
//! Each result is written into a temporary directory beside the output and
//! renamed into place, through a [`Dir`] of the parent, so the parent may
//! lie deeper than `PATH_MAX` and a set's files that deep below it. At
//! every moment the output is a complete result or, between the two
//! renames, missing while the previous one sits beside it as
//! `.NAME.*.hdd-old`; so what a killed run left there is swept only once
//! this run's first result is in place.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

use anyhow::{Context, Result};

use super::claim::sweep;
use super::in_place::{backup_path, changed, copy_dir, Stamp};
use super::names::{dir_of, temp_prefix};
use super::target::refuse_the_input;
use crate::app::error::Fatal;
use crate::app::shown::shown;
use crate::oracle::runner::make_links;
use crate::os::dir::{self, Dir};

/// Where the results of a set of files go: a directory.
#[derive(Debug)]
pub(crate) struct DirOutput {
    path: PathBuf,
    /// With `--in-place`, as for [`Output`](super::Output): what the
    /// directory holds unless the user changed it, and the side directory.
    in_place: Option<(Mutex<Stamp>, PathBuf)>,
    /// Swept once this run's first result is in place: what a killed run
    /// left beside a missing output was kept as the only copy until then.
    swept: Once,
    /// The input's symbolic links (relative paths, targets), made in every
    /// result as they were.
    links: Vec<(PathBuf, PathBuf)>,
    /// The permission bits of the input's files (relative paths), given
    /// to the same files of every result.
    modes: HashMap<PathBuf, u32>,
}

/// The default output of a directory: `dir/src` → `dir/src.reduced`, the
/// same for `dir/src/`; a directory named `.` or `..` by its real name
/// (`.` in `/home/u/proj` → `/home/u/proj.reduced`).
pub(crate) fn default_dir_path(input: &Path) -> PathBuf {
    let named = match input.file_name() {
        Some(_) if !input.ends_with(".") => input.to_path_buf(),
        _ => std::fs::canonicalize(input).unwrap_or_else(|_| input.to_path_buf()),
    };
    let mut name = named.file_name().map_or_else(|| "root".into(), |n| n.to_os_string());
    name.push(".reduced");
    named.with_file_name(name)
}

impl DirOutput {
    /// Prepares the output directory for the input directory `input`: with
    /// `in_place`, copies the input to `DIR.orig` first. `path` must not be
    /// the input unless `in_place`, nor inside it. Every result holds the
    /// symbolic links `links` and gives its files the permission bits
    /// `modes` (a file it does not name gets `rw-r--r--`).
    pub(crate) fn prepare(
        input: &Path,
        path: &Path,
        in_place: bool,
        links: Vec<(PathBuf, PathBuf)>,
        modes: HashMap<PathBuf, u32>,
    ) -> Result<DirOutput> {
        let mut watched = None;
        if in_place {
            let backup = backup_path(input)?;
            if let Err(e) = copy_dir(input, &backup) {
                // half a backup would block the next run, and is no backup
                let _ = std::fs::remove_dir_all(&*dir::reach(&backup)?);
                return Err(e).with_context(|| {
                    format!("cannot back up {} to {}", shown(&input), shown(&backup))
                });
            }
            let stamp = Stamp::of_dir(&backup)
                .with_context(|| format!("cannot read the backup {}", shown(&backup)))?;
            watched = Some((Mutex::new(stamp), default_dir_path(input)));
        } else {
            refuse_the_input(input, path)?;
            if let (Ok(i), Ok(o)) = (dir::absolute(input), dir::absolute(path)) {
                if o.starts_with(&i) {
                    return Err(Fatal::usage(format!(
                        "the output {} is inside the input {}",
                        shown(&path),
                        shown(&input)
                    )));
                }
            }
        }
        let path = path.to_path_buf();
        Ok(DirOutput { path, in_place: watched, swept: Once::new(), links, modes })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Replaces the output directory with these files (relative paths and
    /// bytes): written into a new directory beside it, which is then
    /// renamed into place. At every moment the output is a complete result,
    /// or (between the two renames) is missing while the previous one sits
    /// beside it as `.NAME.*.hdd-old`.
    pub(crate) fn write<'a>(
        &self,
        files: impl IntoIterator<Item = (&'a Path, &'a [u8])>,
    ) -> Result<()> {
        let Some((stamp, side)) = &self.in_place else { return self.replace(files) };
        let files: Vec<_> = files.into_iter().collect();
        let mut stamp = stamp.lock().unwrap_or_else(|e| e.into_inner());
        self.check(*stamp, side, &files)?;
        self.replace(files.iter().copied())?;
        *stamp = Stamp::of_files(files);
        Ok(())
    }

    /// With `--in-place`, at the end: as [`Output::verify`](super::Output::verify).
    pub(crate) fn verify<'a>(
        &self,
        best: impl IntoIterator<Item = (&'a Path, &'a [u8])>,
    ) -> Result<()> {
        let Some((stamp, side)) = &self.in_place else { return Ok(()) };
        let stamp = stamp.lock().unwrap_or_else(|e| e.into_inner());
        self.check(*stamp, side, &best.into_iter().collect::<Vec<_>>())
    }

    /// As `Output::check`, for a directory: the error of a directory
    /// changed behind hdd's back, after saving `best` to `side`.
    fn check(&self, stamp: Stamp, side: &Path, best: &[(&Path, &[u8])]) -> Result<()> {
        if Stamp::of_dir(&self.path) == Some(stamp) {
            return Ok(());
        }
        let saved = DirOutput {
            path: side.to_path_buf(),
            in_place: None,
            swept: Once::new(),
            links: self.links.clone(),
            modes: self.modes.clone(),
        };
        saved.replace(best.iter().copied())?;
        Err(changed(&self.path, side))
    }

    /// Replaces the output directory with these files, through a
    /// descriptor of its parent: however deep the parent, the temporary
    /// directories and the renames use short names (`tempfile` makes a
    /// relative path absolute, which the kernel refuses past `PATH_MAX`).
    fn replace<'a>(&self, files: impl IntoIterator<Item = (&'a Path, &'a [u8])>) -> Result<()> {
        let ctx = || format!("cannot write the result to {}", shown(&self.path));
        let name =
            self.path.file_name().map(OsStr::to_os_string).unwrap_or_else(|| "output".into());
        let parent = Dir::open(dir_of(&self.path)).with_context(ctx)?;
        let at = parent.path();
        let prefix = temp_prefix(&self.path);
        let temp = |suffix: &str| {
            tempfile::Builder::new()
                .prefix(&prefix)
                .suffix(suffix)
                .tempdir_in(&at)
                .with_context(ctx)
        };
        let name_of = |d: &tempfile::TempDir| d.path().file_name().map(OsStr::to_os_string);
        let new = temp(".hdd-tmp")?;
        let last = at.join(&name);
        for (rel, bytes) in files {
            // a set's files may lie deeper below it than PATH_MAX
            let path = new.path().join(rel);
            if let Some(dir) = path.parent() {
                dir::create_dir_all(dir).with_context(ctx)?;
            }
            let mode = self.modes.get(rel).copied().unwrap_or(0o644);
            if !link_unchanged(&last.join(rel), &path, bytes, mode) {
                dir::write_new(&path, bytes, mode).with_context(ctx)?;
            }
        }
        make_links(new.path(), &self.links).with_context(ctx)?;
        let old = temp(".hdd-old")?;
        let (Some(new_name), Some(old_name)) = (name_of(&new), name_of(&old)) else {
            anyhow::bail!("{}: a temporary directory without a name", ctx());
        };
        match std::fs::symlink_metadata(at.join(&name)) {
            // a directory may be renamed over an empty one
            Ok(meta) if meta.is_dir() => parent.rename(&name, &old_name).with_context(ctx)?,
            // a link to the directory an --in-place run was given (hdd
            // refuses any other output that is not a directory): it goes,
            // as a file's link does, and the directory it names stays
            Ok(_) => {
                std::fs::remove_dir(old.path()).with_context(ctx)?;
                parent.rename(&name, &old_name).with_context(ctx)?;
            }
            Err(_) => {}
        }
        parent.rename(&new_name, &name).with_context(ctx)?;
        // renamed into place: nothing left to remove
        let _ = new.keep();
        self.swept.call_once(|| sweep(&self.path));
        Ok(())
    }
}

/// Links `to` to the file `from` of the last result when it holds
/// `bytes` already, with the permission bits `mode`; returns whether it
/// did. Each improvement writes the
/// whole result anew, but a file it leaves as it was gets no new inode:
/// on a set of hundreds of files, making and freeing inodes costs the
/// file system far more than the test (BENCHMARKS.md, "A directory of
/// many files"). The bytes are read and compared, so a file changed since
/// hdd wrote it is written again, not carried over.
fn link_unchanged(from: &Path, to: &Path, bytes: &[u8], mode: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
    let (Ok(from), Ok(to)) = (dir::reach(from), dir::reach(to)) else { return false };
    let same = std::fs::symlink_metadata(&*from)
        .is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64 && m.mode() & 0o7777 == mode)
        && std::fs::read(&*from).is_ok_and(|b| b == bytes);
    same && std::fs::hard_link(&*from, &*to).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::MetadataExt;

    #[test]
    fn a_directory_s_default_output_is_beside_it_however_it_is_named() {
        assert_eq!(default_dir_path(Path::new("a/src")), PathBuf::from("a/src.reduced"));
        assert_eq!(default_dir_path(Path::new("a/src/")), PathBuf::from("a/src.reduced"));
        assert_eq!(default_dir_path(Path::new("proj//")), PathBuf::from("proj.reduced"));
        let here = std::env::current_dir().expect("cwd");
        let mut name = here.file_name().expect("name").to_os_string();
        name.push(".reduced");
        assert_eq!(default_dir_path(Path::new(".")), here.with_file_name(name));
    }

    #[test]
    fn a_directory_result_replaces_the_last_one_whole() {
        let dir = tempfile::tempdir().expect("tempdir");
        let input = dir.path().join("src");
        fs::create_dir_all(input.join("sub")).expect("mkdir");
        fs::write(input.join("sub/a.c"), "int a;").expect("write");
        let path = default_dir_path(&input);
        assert_eq!(path, dir.path().join("src.reduced"));
        assert!(DirOutput::prepare(&input, &input, false, Vec::new(), HashMap::new()).is_err());
        assert!(DirOutput::prepare(&input, &input.join("out"), false, Vec::new(), HashMap::new())
            .is_err());
        let out =
            DirOutput::prepare(&input, &path, false, Vec::new(), HashMap::new()).expect("prepare");
        out.write([(Path::new("sub/a.c"), &b"int;"[..]), (Path::new("b.h"), b"x")]).expect("1");
        out.write([(Path::new("sub/a.c"), &b""[..])]).expect("2");
        assert_eq!(fs::read(path.join("sub/a.c")).expect("result"), b"");
        // a file the next result leaves as it is keeps its inode, unless
        // someone changed it meanwhile
        let ino = |rel: &str| fs::metadata(path.join(rel)).expect("stat").ino();
        out.write([(Path::new("sub/a.c"), &b""[..]), (Path::new("c.c"), b"c")]).expect("3");
        let a = ino("sub/a.c");
        fs::write(path.join("c.c"), "C").expect("an edit of the same size");
        out.write([(Path::new("sub/a.c"), &b""[..]), (Path::new("c.c"), b"c")]).expect("4");
        assert_eq!(ino("sub/a.c"), a);
        assert_eq!(fs::read(path.join("c.c")).expect("c"), b"c");
        assert_eq!(fs::metadata(path.join("c.c")).expect("stat").nlink(), 1);
        out.write([(Path::new("sub/a.c"), &b""[..])]).expect("5");
        assert!(!path.join("b.h").exists());
        let names: Vec<_> =
            fs::read_dir(dir.path()).expect("ls").map(|e| e.expect("e").file_name()).collect();
        assert_eq!(names.len(), 2, "temporary directories left behind: {names:?}");
        // in place: the input is backed up first
        let out =
            DirOutput::prepare(&input, &input, true, Vec::new(), HashMap::new()).expect("in place");
        out.write([(Path::new("sub/a.c"), &b"a"[..])]).expect("3");
        assert_eq!(fs::read(input.join("sub/a.c")).expect("result"), b"a");
        assert_eq!(fs::read(dir.path().join("src.orig/sub/a.c")).expect("backup"), b"int a;");
    }
}
