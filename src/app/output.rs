//! Saving results without ever losing the user's data.
//!
//! - The input is never modified, unless `--in-place` is given; then it is
//!   first copied to `FILE.orig` (refusing to overwrite an existing one).
//! - Every result is written to a temporary file in the output's directory and
//!   renamed over the output, so the output is always a complete file: the
//!   original, or some interesting candidate. An interrupt, a crash or
//!   `kill -9` at any moment loses nothing already found.
//! - The output keeps the input's permissions.
//! - A set of files ([`DirOutput`]) goes to a directory (`DIR.reduced/`),
//!   written whole into a temporary directory beside it and renamed into
//!   place; `--in-place` first copies the input directory to `DIR.orig/`.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::error::Fatal;

/// Where results go.
#[derive(Debug)]
pub struct Output {
    path: PathBuf,
    permissions: Option<fs::Permissions>,
}

/// Checks, before anything runs, that hdd may write `path` (`what` names it
/// in messages): it is absent or a regular file that is not write-protected,
/// it is neither the input (unless `in_place`) nor the test, and its
/// directory exists and is writable. Renaming over anything else would
/// replace it: `/dev/null`, a FIFO, the user's test script.
pub fn check_target(
    path: &Path,
    what: &str,
    input: &Path,
    test: &Path,
    in_place: bool,
) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let shown = path.display();
    if same_file(path, test) {
        return Err(Fatal::usage(format!(
            "{what} {shown} is the test script; choose another path"
        )));
    }
    if !in_place && same_file(path, input) {
        return Err(Fatal::usage(format!(
            "{what} {shown} is the input; use --in-place to overwrite the input (it keeps a .orig copy)"
        )));
    }
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return Err(Fatal::usage(format!(
                "{what} {shown} exists and is not a regular file; hdd would replace it"
            )));
        }
        Ok(meta) if meta.permissions().mode() & 0o222 == 0 => {
            return Err(Fatal::usage(format!(
                "{what} {shown} is write-protected; remove it or choose another path"
            )));
        }
        _ => {}
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(Fatal::usage(format!(
            "cannot write {what} {shown}: no directory {}",
            dir.display()
        )));
    }
    if !writable(dir) {
        return Err(Fatal::usage(format!(
            "cannot write {what} {shown}: the directory {} is not writable",
            dir.display()
        )));
    }
    Ok(())
}

/// Whether this process may create files in `dir`.
fn writable(dir: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else { return false };
    // SAFETY: a valid NUL-terminated path; access only reads it.
    unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) == 0 }
}

/// Where `--in-place` keeps the input (`FILE.orig`, `DIR.orig`); refused
/// when something is there already.
fn backup_path(input: &Path) -> Result<PathBuf> {
    let mut backup = input.as_os_str().to_owned();
    backup.push(".orig");
    let backup = PathBuf::from(backup);
    if backup.exists() {
        return Err(Fatal::usage(format!(
            "{} already exists; move it away (--in-place keeps the original there)",
            backup.display()
        )));
    }
    Ok(backup)
}

/// Refuses an output that is the input (without `--in-place`).
fn refuse_the_input(input: &Path, path: &Path) -> Result<()> {
    if same_file(input, path) {
        return Err(Fatal::usage(format!(
            "the output {} is the input; use --in-place to overwrite the input (it keeps a .orig copy)",
            path.display()
        )));
    }
    Ok(())
}

/// The default output path: `dir/bug.c` → `dir/bug.reduced.c`.
pub fn default_path(input: &Path) -> PathBuf {
    let stem = input.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = match input.extension() {
        Some(ext) => format!("{stem}.reduced.{}", ext.to_string_lossy()),
        None => format!("{stem}.reduced"),
    };
    input.with_file_name(name)
}

impl Output {
    /// Prepares the output for `input`: with `in_place`, backs the input up to
    /// `FILE.orig` first. `path` must not be the input unless `in_place`.
    pub fn prepare(input: &Path, path: &Path, in_place: bool) -> Result<Output> {
        let permissions = fs::metadata(input).ok().map(|m| m.permissions());
        if in_place {
            let backup = backup_path(input)?;
            fs::copy(input, &backup).with_context(|| {
                format!("cannot back up {} to {}", input.display(), backup.display())
            })?;
        } else {
            refuse_the_input(input, path)?;
        }
        Ok(Output { path: path.to_path_buf(), permissions })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Replaces the output with `bytes`, atomically.
    pub fn write(&self, bytes: &[u8]) -> Result<()> {
        let dir = match self.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let ctx = || format!("cannot write the result to {}", self.path.display());
        // a short name of its own: the output's name may already be as long
        // as a name can be
        let mut tmp = tempfile::Builder::new()
            .prefix(".hdd-")
            .suffix(".tmp")
            .tempfile_in(dir)
            .with_context(ctx)?;
        tmp.write_all(bytes).with_context(ctx)?;
        tmp.as_file().sync_data().with_context(ctx)?;
        if let Some(p) = &self.permissions {
            let _ = fs::set_permissions(tmp.path(), p.clone());
        }
        tmp.persist(&self.path).map_err(|e| e.error).with_context(ctx)?;
        Ok(())
    }
}

/// Where the results of a set of files go: a directory.
#[derive(Debug)]
pub struct DirOutput {
    path: PathBuf,
}

/// The default output of a directory: `dir/src` → `dir/src.reduced`.
pub fn default_dir_path(input: &Path) -> PathBuf {
    let mut name = input.as_os_str().to_owned();
    name.push(".reduced");
    PathBuf::from(name)
}

impl DirOutput {
    /// Prepares the output directory for the input directory `input`: with
    /// `in_place`, copies the input to `DIR.orig` first. `path` must not be
    /// the input unless `in_place`, nor inside it.
    pub fn prepare(input: &Path, path: &Path, in_place: bool) -> Result<DirOutput> {
        if in_place {
            let backup = backup_path(input)?;
            copy_dir(input, &backup).with_context(|| {
                format!("cannot back up {} to {}", input.display(), backup.display())
            })?;
        } else {
            refuse_the_input(input, path)?;
            if let (Ok(i), Ok(o)) = (fs::canonicalize(input), std::path::absolute(path)) {
                if o.starts_with(&i) {
                    return Err(Fatal::usage(format!(
                        "the output {} is inside the input {}",
                        path.display(),
                        input.display()
                    )));
                }
            }
        }
        Ok(DirOutput { path: path.to_path_buf() })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Replaces the output directory with these files (relative paths and
    /// bytes): written into a new directory beside it, which is then
    /// renamed into place. At every moment the output is a complete result,
    /// or (between the two renames) is missing while the previous one sits
    /// beside it as `.NAME.*.hdd-old`.
    pub fn write<'a>(&self, files: impl IntoIterator<Item = (&'a Path, &'a [u8])>) -> Result<()> {
        let parent = match self.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let name =
            self.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let ctx = || format!("cannot write the result to {}", self.path.display());
        let new = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".hdd-tmp")
            .tempdir_in(parent)
            .with_context(ctx)?;
        for (rel, bytes) in files {
            let path = new.path().join(rel);
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir).with_context(ctx)?;
            }
            fs::write(&path, bytes).with_context(ctx)?;
        }
        let old = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".hdd-old")
            .tempdir_in(parent)
            .with_context(ctx)?;
        if self.path.exists() {
            // a directory may be renamed over an empty one
            fs::rename(&self.path, old.path()).with_context(ctx)?;
        }
        fs::rename(new.path(), &self.path).with_context(ctx)?;
        Ok(())
    }
}

/// Copies the directory `from` to `to`, recursively (`to` must not exist).
pub fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    fs::create_dir(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let dest = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &dest)?;
        } else {
            fs::copy(entry.path(), &dest)?;
        }
    }
    Ok(())
}

/// Whether two paths name the same file (the second may not exist yet).
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let out = Output::prepare(&input, &input, true).expect("prepare");
        out.write(b"int;").expect("write");
        assert_eq!(fs::read(dir.path().join("x.c.orig")).expect("backup"), b"int x;");
        assert_eq!(fs::read(&input).expect("result"), b"int;");
        let err = Output::prepare(&input, &input, true).unwrap_err();
        assert!(err.to_string().contains("already exists"), "{err}");
    }

    #[test]
    fn a_directory_result_replaces_the_last_one_whole() {
        let dir = tempfile::tempdir().expect("tempdir");
        let input = dir.path().join("src");
        fs::create_dir_all(input.join("sub")).expect("mkdir");
        fs::write(input.join("sub/a.c"), "int a;").expect("write");
        let path = default_dir_path(&input);
        assert_eq!(path, dir.path().join("src.reduced"));
        assert!(DirOutput::prepare(&input, &input, false).is_err());
        assert!(DirOutput::prepare(&input, &input.join("out"), false).is_err());
        let out = DirOutput::prepare(&input, &path, false).expect("prepare");
        out.write([(Path::new("sub/a.c"), &b"int;"[..]), (Path::new("b.h"), b"x")]).expect("1");
        out.write([(Path::new("sub/a.c"), &b""[..])]).expect("2");
        assert_eq!(fs::read(path.join("sub/a.c")).expect("result"), b"");
        assert!(!path.join("b.h").exists());
        let names: Vec<_> =
            fs::read_dir(dir.path()).expect("ls").map(|e| e.expect("e").file_name()).collect();
        assert_eq!(names.len(), 2, "temporary directories left behind: {names:?}");
        // in place: the input is backed up first
        let out = DirOutput::prepare(&input, &input, true).expect("in place");
        out.write([(Path::new("sub/a.c"), &b"a"[..])]).expect("3");
        assert_eq!(fs::read(input.join("sub/a.c")).expect("result"), b"a");
        assert_eq!(fs::read(dir.path().join("src.orig/sub/a.c")).expect("backup"), b"int a;");
    }

    #[test]
    fn output_may_not_be_the_input_without_in_place() {
        let dir = tempfile::tempdir().expect("tempdir");
        let input = dir.path().join("x.c");
        fs::write(&input, "int x;").expect("write");
        assert!(Output::prepare(&input, &input, false).is_err());
        assert_eq!(fs::read(&input).expect("input"), b"int x;");
    }
}
