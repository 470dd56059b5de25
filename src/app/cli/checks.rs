//! The checks of what the command line names to run or to write into: the
//! test, `--launcher`, the formatter of `--format`, `--work-dir`.
//!
//! Each is checked before anything runs, so that a mistake is one clear
//! line with exit code 2 ([`Fatal::usage`]) rather than a failure of the
//! first test. A test deeper than `PATH_MAX` is reached through an
//! inherited descriptor of its directory, as the tests reach it too.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::app::error::Fatal;
use crate::app::shown::shown;
use crate::app::values::split_words;
use crate::language::LangInfo;
use crate::os;

/// `--launcher`: its words; the first must be a program hdd can run.
pub(super) fn check_launcher(cmd: &str) -> Result<Vec<String>> {
    let bad = |why: String| Fatal::usage(format!("--launcher {cmd:?}: {why}"));
    let words = split_words(cmd).map_err(bad)?;
    let Some(first) = words.first() else {
        return Err(bad("no command given".into()));
    };
    runnable(first).map_err(bad)?;
    Ok(words)
}

/// `--format`: the language's formatter (grammar data `format`) for the
/// file `input`, its program on PATH.
pub(super) fn formatter(lang: &LangInfo, input: &Path, set: bool) -> Result<Vec<String>> {
    if set {
        return Err(Fatal::usage("--format takes one file"));
    }
    let words = lang.formatter()?;
    let Some(first) = words.first() else {
        return Err(Fatal::usage(format!("--format: hdd knows no formatter for {}", lang.name)));
    };
    runnable(first).map_err(|why| Fatal::usage(format!("--format: {why}")))?;
    let name = input.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
    Ok(words.iter().map(|w| w.replace("{name}", &name)).collect())
}

/// Whether `program` (a path, or a name looked up on PATH) is an
/// executable file; else why not.
fn runnable(program: &str) -> std::result::Result<(), String> {
    let path = Path::new(program);
    let found = if program.contains('/') {
        path.is_file().then(|| path.to_path_buf())
    } else {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths).map(|d| d.join(program)).find(|p| p.is_file())
        })
    };
    match found {
        None if program.contains('/') => Err(format!("{program} does not exist")),
        None => Err(format!("{program} is not on PATH")),
        Some(p) if !executable(&p) => Err(format!("{} is not executable", shown(&p))),
        Some(_) => Ok(()),
    }
}

/// `--work-dir`: an existing directory hdd may write into, made absolute
/// (however long: the session directory is reached through a descriptor
/// when it must, see `os::scratch`).
pub(super) fn check_work_dir(dir: &Path) -> Result<PathBuf> {
    let bad = |why: &str| Fatal::usage(format!("--work-dir {}: {why}", shown(&dir)));
    let here = os::dir::reach(dir).map_err(|e| bad(&e.to_string()))?;
    let meta = std::fs::metadata(&*here).map_err(|e| bad(&e.to_string()))?;
    if !meta.is_dir() {
        return Err(bad("not a directory"));
    }
    let c = std::ffi::CString::new(here.as_os_str().as_encoded_bytes())
        .map_err(|_| bad("a path with a NUL byte"))?;
    // SAFETY: a valid NUL-terminated path and plain flags.
    if unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) } != 0 {
        return Err(bad("not writable"));
    }
    std::path::absolute(dir).map_err(|e| bad(&e.to_string()))
}

/// Whether `path` has an execute bit.
fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

/// The test as an absolute path: a path with a `/` (or a file in the current
/// directory) as given, else a command found on `PATH`. It must be an
/// executable file.
pub(super) fn resolve_test(test: &Path) -> Result<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let found = if test.components().count() > 1 || test.exists() {
        Some(test.to_path_buf())
    } else {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths).map(|d| d.join(test)).find(|p| p.is_file())
        })
    };
    let Some(path) = found.filter(|p| p.exists()) else {
        return Err(Fatal::usage(format!("the test {} does not exist", shown(&test))));
    };
    let meta = std::fs::metadata(&path)
        .map_err(|e| Fatal::usage(format!("cannot use the test {}: {e}", shown(&path))))?;
    if !meta.is_file() {
        return Err(Fatal::usage(format!("the test {} is not a file", shown(&path))));
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Err(Fatal::usage(format!(
            "the test {} is not executable (chmod +x {})",
            shown(&path),
            shown(&path)
        )));
    }
    crlf_shebang(&path)?;
    let absolute = std::path::absolute(&path)
        .map_err(|e| Fatal::usage(format!("cannot resolve the test {}: {e}", shown(&path))))?;
    if absolute.as_os_str().len() < libc::PATH_MAX as usize {
        return Ok(absolute);
    }
    through_dir_fd(&path)
}

/// A script saved with CRLF line endings names an interpreter ending in a
/// carriage return (`/bin/sh\r`), which the kernel cannot find: the test
/// would fail as "No such file or directory" on every run.
fn crlf_shebang(path: &Path) -> Result<()> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(path).and_then(|mut f| f.read(&mut head)).unwrap_or(0);
    let first = head[..n].split(|&b| b == b'\n').next().unwrap_or_default();
    if first.starts_with(b"#!") && first.ends_with(b"\r") {
        return Err(Fatal::usage(format!(
            "the test {} has CRLF line endings: its #! line names an interpreter ending in a carriage return; convert it with dos2unix or sed -i 's/\\r$//'",
            shown(&path)
        )));
    }
    Ok(())
}

/// A test whose absolute path is too long to run (deeper than `PATH_MAX`):
/// reached through a descriptor of its directory, `/proc/self/fd/N/NAME`,
/// which every test process inherits. The descriptor stays open for the
/// whole run (hdd is one run per process).
fn through_dir_fd(path: &Path) -> Result<PathBuf> {
    let cannot = |e: std::io::Error| {
        Fatal::usage(format!("cannot reach the test {} by a shorter path: {e}", shown(&path)))
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path.file_name().ok_or_else(|| cannot(std::io::ErrorKind::InvalidInput.into()))?;
    let dir = os::dir::Dir::open(dir).and_then(os::dir::Dir::inherited).map_err(cannot)?;
    Ok(dir.leak().join(name))
}
