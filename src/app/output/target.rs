//! The checks of the paths hdd will write, made before anything runs: an
//! output, the `--stats-json` file, the `--trace` file.
//!
//! Renaming over anything but a regular file would replace it (`/dev/null`,
//! a FIFO, the user's test script), and an output that is the input would
//! overwrite it without `--in-place`. Paths are compared by device and
//! inode, so that a directory deeper than `PATH_MAX`, where `realpath`
//! fails, is no way round these checks.

use std::fs;
use std::path::Path;

use anyhow::Result;

use super::names::{dir_of, NAME_MAX};
use crate::app::error::Fatal;
use crate::app::shown::shown;
use crate::os::dir;

/// Checks, before anything runs, that hdd may write `path` (`what` names it
/// in messages): it is absent or a regular file that is not write-protected,
/// it is neither the input (unless `in_place`) nor the test, and its
/// directory exists and is writable. Renaming over anything else would
/// replace it: `/dev/null`, a FIFO, the user's test script.
pub(crate) fn check_target(
    path: &Path,
    what: &str,
    input: &Path,
    test: &Path,
    in_place: bool,
) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let named = shown(&path);
    if same_file(path, test) {
        return Err(Fatal::usage(format!(
            "{what} {named} is the test script; choose another path"
        )));
    }
    if !in_place && same_file(path, input) {
        return Err(Fatal::usage(format!(
            "{what} {named} is the input; use --in-place to overwrite the input (it keeps a .orig copy)"
        )));
    }
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return Err(Fatal::usage(format!(
                "{what} {named} exists and is not a regular file; hdd would replace it"
            )));
        }
        Ok(meta) if meta.permissions().mode() & 0o222 == 0 => {
            return Err(Fatal::usage(format!(
                "{what} {named} is write-protected; remove it or choose another path"
            )));
        }
        _ => {}
    }
    let dir = dir_of(path);
    if !dir.is_dir() {
        return Err(Fatal::usage(format!(
            "cannot write {what} {named}: no directory {}",
            shown(&dir)
        )));
    }
    if !writable(dir) {
        return Err(Fatal::usage(format!(
            "cannot write {what} {named}: the directory {} is not writable",
            shown(&dir)
        )));
    }
    Ok(())
}

/// Checks, before anything runs, that the names hdd gives the output and,
/// with `in_place`, the backup beside the input (`FILE.orig`, `DIR.orig`)
/// fit in a directory entry (`NAME_MAX`): a default output adds
/// `.reduced` to the input's name, which may then be too long.
pub(crate) fn check_names(output: &Path, input: &Path, in_place: bool) -> Result<()> {
    let too_long = |path: &Path, what: &str, fix: &str| {
        let long = path.file_name().is_some_and(|n| n.len() > NAME_MAX);
        match long {
            true => Err(Fatal::usage(format!(
                "cannot write {what} {}: its name is longer than {NAME_MAX} bytes; {fix}",
                shown(&path)
            ))),
            false => Ok(()),
        }
    };
    too_long(output, "the output", "name a shorter one with -o")?;
    if in_place {
        let mut backup = input.as_os_str().to_owned();
        backup.push(".orig");
        too_long(
            Path::new(&backup),
            "the backup",
            "rename the input or reduce it without --in-place",
        )?;
    }
    Ok(())
}

/// Checks, before anything runs, that the output directory of a set,
/// `path`, is absent or a directory (unless `in_place`: then it is the
/// input): a directory cannot replace anything else.
pub(crate) fn check_dir_target(path: &Path, in_place: bool) -> Result<()> {
    let exists = dir::reach(path).and_then(|p| fs::symlink_metadata(&*p));
    match exists {
        Ok(meta) if !in_place && !meta.is_dir() => Err(Fatal::usage(format!(
            "the output {} exists and is not a directory; hdd would replace it",
            shown(&path)
        ))),
        _ => Ok(()),
    }
}

/// Whether this process may create files in `dir`.
fn writable(dir: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else { return false };
    // SAFETY: a valid NUL-terminated path; access only reads it.
    unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) == 0 }
}

/// Refuses an output that is the input (without `--in-place`).
pub(super) fn refuse_the_input(input: &Path, path: &Path) -> Result<()> {
    if same_file(input, path) {
        return Err(Fatal::usage(format!(
            "the output {} is the input; use --in-place to overwrite the input (it keeps a .orig copy)",
            shown(&path)
        )));
    }
    Ok(())
}

/// Whether two paths name the same file (the second may not exist yet),
/// however long their paths: the same device and inode, so that a
/// directory deeper than `PATH_MAX`, where `realpath` fails, is no way
/// round the checks that use this.
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let meta = |p: &Path| dir::reach(p).and_then(|p| fs::metadata(&*p));
    match (meta(a), meta(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_a_device_and_the_input_are_no_targets() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (input, test) = (dir.path().join("x.c"), dir.path().join("t.sh"));
        fs::write(&input, "int x;").expect("write");
        fs::write(&test, "exit 0").expect("write");
        let check =
            |path: &Path, in_place| check_target(path, "the output", &input, &test, in_place);
        let err = |path: &Path, in_place| check(path, in_place).unwrap_err().to_string();
        assert!(err(&test, false).contains("is the test script"));
        assert!(err(&input, false).contains("is the input; use --in-place"));
        check(&input, true).expect("in place");
        assert!(err(Path::new("/dev/null"), false).contains("not a regular file"));
        assert!(err(&dir.path().join("no/x.c"), false).contains("no directory"));
        check(&dir.path().join("x.reduced.c"), false).expect("a new file");
    }
}
