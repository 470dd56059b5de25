//! The result of one file: [`Output`], written whole and atomically.
//!
//! Every result is written to a temporary file in the output's directory
//! and renamed over the output, so the output is always a complete file:
//! the original, or some interesting candidate. The output keeps the
//! input's permissions. The temporary file and the rename go through a
//! [`Dir`] of the output's directory, by short names, so an output deeper
//! than `PATH_MAX` (given by a relative path) works.

use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result};

use super::in_place::{backup_path, changed, Stamp};
use super::names::{dir_of, temp_prefix};
use super::target::refuse_the_input;
use crate::app::shown::shown;
use crate::os::dir::{self, Dir};

/// Where results go.
#[derive(Debug)]
pub(crate) struct Output {
    path: PathBuf,
    permissions: Option<fs::Permissions>,
    /// With `--in-place`: what the file holds unless the user changed it
    /// (what hdd last wrote, or the input), and the side file that gets
    /// the results when they did.
    in_place: Option<(Mutex<Stamp>, PathBuf)>,
}

/// The default output path: `dir/bug.c` → `dir/bug.reduced.c`.
pub(crate) fn default_path(input: &Path) -> PathBuf {
    let stem = input.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = match input.extension() {
        Some(ext) => format!("{stem}.reduced.{}", ext.to_string_lossy()),
        None => format!("{stem}.reduced"),
    };
    input.with_file_name(name)
}

impl Output {
    /// Prepares the output for `input`, whose text hdd read as `read`: with
    /// `in_place`, backs the input up to `FILE.orig` first. `path` must not
    /// be the input unless `in_place`.
    pub(crate) fn prepare(
        input: &Path,
        read: &[u8],
        path: &Path,
        in_place: bool,
    ) -> Result<Output> {
        let permissions = fs::metadata(input).ok().map(|m| m.permissions());
        let mut watched = None;
        if in_place {
            let backup = backup_path(input)?;
            let copied = dir::reach(input).and_then(|i| fs::copy(&*i, &*dir::reach(&backup)?));
            copied.with_context(|| {
                format!("cannot back up {} to {}", shown(&input), shown(&backup))
            })?;
            watched = Some((Mutex::new(Stamp::of(read)), default_path(input)));
        } else {
            refuse_the_input(input, path)?;
        }
        Ok(Output { path: path.to_path_buf(), permissions, in_place: watched })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Replaces the output with `bytes`, atomically. With `--in-place`,
    /// only while the file holds what hdd last wrote; else the result goes
    /// to the side file and the error says so.
    pub(crate) fn write(&self, bytes: &[u8]) -> Result<()> {
        let Some((stamp, side)) = &self.in_place else { return self.replace(bytes) };
        let mut stamp = stamp.lock().unwrap_or_else(|e| e.into_inner());
        self.check(*stamp, side, bytes)?;
        self.replace(bytes)?;
        *stamp = Stamp::of(bytes);
        Ok(())
    }

    /// With `--in-place`, at the end: whether the file still holds the
    /// result `best`; if the user changed it since hdd last wrote it,
    /// `best` goes to the side file and the error says so.
    pub(crate) fn verify(&self, best: &[u8]) -> Result<()> {
        let Some((stamp, side)) = &self.in_place else { return Ok(()) };
        let stamp = stamp.lock().unwrap_or_else(|e| e.into_inner());
        self.check(*stamp, side, best)
    }

    /// The error of a file changed behind hdd's back, after saving `best`
    /// to `side`.
    fn check(&self, stamp: Stamp, side: &Path, best: &[u8]) -> Result<()> {
        if stamp.holds(&self.path) {
            return Ok(());
        }
        // the side file is the user's result as much as the file would
        // have been: it keeps the input's permissions too
        let permissions = self.permissions.clone();
        let saved = Output { path: side.to_path_buf(), permissions, in_place: None };
        saved.replace(best)?;
        Err(changed(&self.path, side))
    }

    /// Replaces the output with `bytes` by a rename.
    fn replace(&self, bytes: &[u8]) -> Result<()> {
        let ctx = || format!("cannot write the result to {}", shown(&self.path));
        let name =
            self.path.file_name().map(OsStr::to_os_string).unwrap_or_else(|| "output".into());
        // through a descriptor of the directory: the temp file and the
        // rename use short names, however deep the directory (an absolute
        // path longer than PATH_MAX cannot be written to)
        let dir = Dir::open(dir_of(&self.path)).with_context(ctx)?;
        let (tmp, mut file) = dir.create_temp(&temp_prefix(&self.path)).with_context(ctx)?;
        let written = (|| -> std::io::Result<()> {
            file.write_all(bytes)?;
            file.sync_data()?;
            if let Some(p) = &self.permissions {
                let _ = file.set_permissions(p.clone());
            }
            drop(file);
            dir.rename(&tmp, &name)
        })();
        if written.is_err() {
            dir.unlink(&tmp);
        }
        written.with_context(ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::error::{code_of, exit};

    #[test]
    fn default_path_inserts_reduced_before_the_extension() {
        assert_eq!(default_path(Path::new("a/bug.c")), PathBuf::from("a/bug.reduced.c"));
        assert_eq!(
            default_path(Path::new("data.min.json")),
            PathBuf::from("data.min.reduced.json")
        );
        assert_eq!(default_path(Path::new("Makefile")), PathBuf::from("Makefile.reduced"));
    }

    #[test]
    fn in_place_keeps_a_backup_and_refuses_to_clobber_one() {
        let dir = tempfile::tempdir().expect("tempdir");
        let input = dir.path().join("x.c");
        fs::write(&input, "int x;").expect("write");
        let out = Output::prepare(&input, b"int x;", &input, true).expect("prepare");
        out.write(b"int;").expect("write");
        assert_eq!(fs::read(dir.path().join("x.c.orig")).expect("backup"), b"int x;");
        assert_eq!(fs::read(&input).expect("result"), b"int;");
        let err = Output::prepare(&input, b"int x;", &input, true).unwrap_err();
        assert!(err.to_string().contains("already exists"), "{err}");
    }

    #[test]
    fn in_place_refuses_to_overwrite_a_file_changed_meanwhile() {
        let dir = tempfile::tempdir().expect("tempdir");
        let input = dir.path().join("x.c");
        fs::write(&input, "int x;").expect("write");
        let out = Output::prepare(&input, b"int x;", &input, true).expect("prepare");
        out.write(b"int;").expect("first write");
        out.verify(b"int;").expect("unchanged");
        fs::write(&input, "mine").expect("edit");
        let err = out.write(b"in;").unwrap_err();
        assert_eq!(code_of(&err), exit::CHANGED, "{err}");
        assert_eq!(fs::read(&input).expect("kept"), b"mine");
        let side = dir.path().join("x.reduced.c");
        assert_eq!(fs::read(&side).expect("side"), b"in;");
        let mode = |p: &Path| fs::metadata(p).expect("stat").permissions();
        assert_eq!(mode(&side), mode(&input), "the side file's permissions");
        assert!(out.verify(b"in;").is_err());
    }

    #[test]
    fn output_may_not_be_the_input_without_in_place() {
        let dir = tempfile::tempdir().expect("tempdir");
        let input = dir.path().join("x.c");
        fs::write(&input, "int x;").expect("write");
        assert!(Output::prepare(&input, b"int x;", &input, false).is_err());
        assert_eq!(fs::read(&input).expect("input"), b"int x;");
    }
}
