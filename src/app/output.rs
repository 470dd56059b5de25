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
//! - Results are written through a [`Dir`] of the output's directory, so
//!   an output deeper than `PATH_MAX` (given by a relative path) works, and
//!   a set's files may lie that deep below it.
//! - One run writes an output at a time: a run holds a [`Claim`] on its
//!   output (an advisory `flock` on `.NAME.hdd-lock` beside it, removed at
//!   the end) and a second run is refused up front. The lock dies with its
//!   process, so a run killed with `kill -9` never blocks the next one.
//! - Temporary files and directories carry their writer's pid
//!   (`.NAME.PID.XXXXXX.hdd-tmp`); the next run that claims the output
//!   removes those whose writer is gone.
//! - With `--in-place`, a file the user changed during the run is never
//!   overwritten: before each write hdd checks that the file still holds
//!   what it last wrote (the input, before the first write); if not, the
//!   best result goes to `FILE.reduced.EXT` (`DIR.reduced`) beside it and
//!   the run stops
//!   ([`exit::CHANGED`](super::error::exit::CHANGED)).

use std::ffi::{OsStr, OsString};
use std::fs;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

use anyhow::{Context, Result};

use super::error::{exit, Fatal};
use crate::oracle::dir::{self, Dir};

/// Where results go.
#[derive(Debug)]
pub struct Output {
    path: PathBuf,
    permissions: Option<fs::Permissions>,
    /// With `--in-place`: what the file holds unless the user changed it
    /// (what hdd last wrote, or the input), and the side file that gets
    /// the results when they did.
    in_place: Option<(Mutex<Stamp>, PathBuf)>,
}

/// What a file holds, enough to tell whether someone else wrote it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    hash: u64,
}

impl Stamp {
    fn of(bytes: &[u8]) -> Stamp {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        bytes.hash(&mut h);
        Stamp { len: bytes.len() as u64, hash: h.finish() }
    }

    /// The stamp of a directory holding these files (relative paths), in
    /// any order.
    fn of_files<'a>(files: impl IntoIterator<Item = (&'a Path, &'a [u8])>) -> Stamp {
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
    fn of_dir(dir: &Path) -> Option<Stamp> {
        let mut files = Vec::new();
        let mut todo = vec![PathBuf::new()];
        while let Some(rel) = todo.pop() {
            for (name, is_dir) in dir::entries(&dir.join(&rel)).ok()? {
                let rel = rel.join(name);
                if is_dir {
                    todo.push(rel);
                } else {
                    files.push((dir::read(&dir.join(&rel)).ok()?, rel));
                }
            }
        }
        Some(Stamp::of_files(files.iter().map(|(b, r)| (r.as_path(), b.as_slice()))))
    }

    /// Whether the file at `path` still holds what this stamp describes.
    fn holds(self, path: &Path) -> bool {
        match fs::metadata(path) {
            Ok(meta) if meta.is_file() && meta.len() == self.len => {
                fs::read(path).is_ok_and(|bytes| Stamp::of(&bytes) == self)
            }
            _ => false,
        }
    }
}

/// The longest name a directory entry may have (`NAME_MAX`).
const NAME_MAX: usize = 255;

/// The longest tail hdd appends to a stem: `.PID.XXXXXX.hdd-tmp`.
const TAIL_MAX: usize = 1 + 10 + 1 + 6 + 8;

/// The start of the names of hdd's own files beside the output named
/// `name`: `.NAME`, or `.hdd-HASH` when `.NAME` and a tail would not fit in
/// a name.
fn stem(name: &OsStr) -> OsString {
    let bytes = name.as_bytes();
    if 1 + bytes.len() + TAIL_MAX <= NAME_MAX {
        let mut s = OsString::from(".");
        s.push(name);
        return s;
    }
    // FNV-1a: the same for every run and every build of hdd
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    OsString::from(format!(".hdd-{hash:016x}"))
}

/// The directory `path` is in.
fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// The start of the temporary names of the output `path`: `STEM.PID.`.
fn temp_prefix(path: &Path) -> OsString {
    let mut prefix = stem(path.file_name().unwrap_or(OsStr::new("output")));
    prefix.push(format!(".{}.", std::process::id()));
    prefix
}

/// Whether the process `pid` exists (a pid hdd cannot judge counts as one).
fn alive(pid: i32) -> bool {
    if pid <= 0 {
        return true;
    }
    // SAFETY: signal 0 only checks that the process exists.
    let found = unsafe { libc::kill(pid, 0) } == 0;
    found || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Removes what runs that are gone left beside the output `path` while
/// writing it: `STEM.PID.XXXXXX.hdd-tmp` (an unfinished or unrenamed
/// result) and, while the output exists, `STEM.PID.XXXXXX.hdd-old` (the
/// result a directory write was replacing). Names of other outputs, and of
/// live runs, are left alone.
fn sweep(path: &Path) {
    let dir = dir_of(path);
    let mut stem = stem(path.file_name().unwrap_or(OsStr::new("output"))).into_vec();
    stem.push(b'.');
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.as_bytes().strip_prefix(&stem[..]) else { continue };
        let (rest, old) = match (rest.strip_suffix(b".hdd-tmp"), rest.strip_suffix(b".hdd-old")) {
            (Some(r), _) => (r, false),
            (_, Some(r)) => (r, true),
            _ => continue,
        };
        let mut parts = rest.split(|&b| b == b'.');
        let (Some(pid), Some(random), None) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let pid = match std::str::from_utf8(pid).ok().and_then(|p| p.parse::<i32>().ok()) {
            Some(p) if pid.iter().all(u8::is_ascii_digit) => p,
            _ => continue,
        };
        if random.len() != 6 || !random.iter().all(u8::is_ascii_alphanumeric) || alive(pid) {
            continue;
        }
        if old && !path.exists() {
            // killed between the two renames: this is the only copy
            continue;
        }
        let stale = entry.path();
        let _ = match entry.file_type() {
            Ok(t) if t.is_dir() => fs::remove_dir_all(&stale),
            _ => fs::remove_file(&stale),
        };
    }
}

/// A run's hold on its output: no other hdd run writes it meanwhile.
/// Dropping it removes the lock file.
#[derive(Debug)]
pub struct Claim {
    lock: PathBuf,
    /// Holds the `flock`; `None` where the file system has no locks.
    file: Option<fs::File>,
}

impl Claim {
    /// Claims the output `path` (a file or a directory): refused when
    /// another live hdd run holds it. Then removes what killed runs left
    /// beside it.
    pub fn take(path: &Path) -> Result<Claim> {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::MetadataExt;
        let mut name = stem(path.file_name().unwrap_or(OsStr::new("output")));
        name.push(".hdd-lock");
        let lock = dir_of(path).join(name);
        let ctx = || format!("cannot lock the output {}", path.display());
        let file = loop {
            let file = fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&lock)
                .with_context(ctx)?;
            // SAFETY: flock on a descriptor we own.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
                let err = std::io::Error::last_os_error();
                if err.raw_os_error() != Some(libc::EWOULDBLOCK) {
                    // no locks here (some network file systems): go unlocked
                    drop(file);
                    let _ = fs::remove_file(&lock);
                    return Ok(Claim { lock: PathBuf::new(), file: None });
                }
                let pid = fs::read_to_string(&lock).unwrap_or_default();
                let pid = pid.trim();
                let who = if pid.is_empty() { String::new() } else { format!(" (pid {pid})") };
                return Err(Fatal::usage(format!(
                    "another hdd run{who} writes {}; wait for it to end or choose another output",
                    path.display()
                )));
            }
            // the run that held it may have removed it meanwhile: lock the
            // file that is there now
            let here = file.metadata().with_context(ctx)?;
            match fs::metadata(&lock) {
                Ok(there) if there.dev() == here.dev() && there.ino() == here.ino() => break file,
                _ => continue,
            }
        };
        file.set_len(0).with_context(ctx)?;
        (&file).write_all(format!("{}\n", std::process::id()).as_bytes()).with_context(ctx)?;
        sweep(path);
        Ok(Claim { lock, file: Some(file) })
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        // removed while still locked, so no run locks a file that is gone
        if self.file.is_some() {
            let _ = fs::remove_file(&self.lock);
        }
    }
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
    /// Prepares the output for `input`, whose text hdd read as `read`: with
    /// `in_place`, backs the input up to `FILE.orig` first. `path` must not
    /// be the input unless `in_place`.
    pub fn prepare(input: &Path, read: &[u8], path: &Path, in_place: bool) -> Result<Output> {
        let permissions = fs::metadata(input).ok().map(|m| m.permissions());
        let mut watched = None;
        if in_place {
            let backup = backup_path(input)?;
            let copied = dir::reach(input).and_then(|i| fs::copy(&*i, &*dir::reach(&backup)?));
            copied.with_context(|| {
                format!("cannot back up {} to {}", input.display(), backup.display())
            })?;
            watched = Some((Mutex::new(Stamp::of(read)), default_path(input)));
        } else {
            refuse_the_input(input, path)?;
        }
        Ok(Output { path: path.to_path_buf(), permissions, in_place: watched })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Replaces the output with `bytes`, atomically. With `--in-place`,
    /// only while the file holds what hdd last wrote; else the result goes
    /// to the side file and the error says so.
    pub fn write(&self, bytes: &[u8]) -> Result<()> {
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
    pub fn verify(&self, best: &[u8]) -> Result<()> {
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
        let saved = Output { path: side.to_path_buf(), permissions: None, in_place: None };
        saved.replace(best)?;
        Err(changed(&self.path, side))
    }

    /// Replaces the output with `bytes` by a rename.
    fn replace(&self, bytes: &[u8]) -> Result<()> {
        let ctx = || format!("cannot write the result to {}", self.path.display());
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

/// The error of an `--in-place` file or directory `path` that the user
/// changed during the run, once the best result is in `side`.
fn changed(path: &Path, side: &Path) -> anyhow::Error {
    anyhow::Error::new(Fatal {
        code: exit::CHANGED,
        message: format!(
            "{} changed during the run, not by hdd; hdd left it alone and wrote the best result so far to {}",
            path.display(),
            side.display()
        ),
    })
}

/// Where the results of a set of files go: a directory.
#[derive(Debug)]
pub struct DirOutput {
    path: PathBuf,
    /// With `--in-place`, as for [`Output`]: what the directory holds
    /// unless the user changed it, and the side directory.
    in_place: Option<(Mutex<Stamp>, PathBuf)>,
    /// Swept once this run's first result is in place: what a killed run
    /// left beside a missing output was kept as the only copy until then.
    swept: Once,
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
        let mut watched = None;
        if in_place {
            let backup = backup_path(input)?;
            copy_dir(input, &backup).with_context(|| {
                format!("cannot back up {} to {}", input.display(), backup.display())
            })?;
            let stamp = Stamp::of_dir(&backup)
                .with_context(|| format!("cannot read the backup {}", backup.display()))?;
            watched = Some((Mutex::new(stamp), default_dir_path(input)));
        } else {
            refuse_the_input(input, path)?;
            if let (Ok(i), Ok(o)) = (dir::absolute(input), dir::absolute(path)) {
                if o.starts_with(&i) {
                    return Err(Fatal::usage(format!(
                        "the output {} is inside the input {}",
                        path.display(),
                        input.display()
                    )));
                }
            }
        }
        Ok(DirOutput { path: path.to_path_buf(), in_place: watched, swept: Once::new() })
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
        let Some((stamp, side)) = &self.in_place else { return self.replace(files) };
        let files: Vec<_> = files.into_iter().collect();
        let mut stamp = stamp.lock().unwrap_or_else(|e| e.into_inner());
        self.check(*stamp, side, &files)?;
        self.replace(files.iter().copied())?;
        *stamp = Stamp::of_files(files);
        Ok(())
    }

    /// With `--in-place`, at the end: as [`Output::verify`].
    pub fn verify<'a>(&self, best: impl IntoIterator<Item = (&'a Path, &'a [u8])>) -> Result<()> {
        let Some((stamp, side)) = &self.in_place else { return Ok(()) };
        let stamp = stamp.lock().unwrap_or_else(|e| e.into_inner());
        self.check(*stamp, side, &best.into_iter().collect::<Vec<_>>())
    }

    /// As [`Output::check`], for a directory.
    fn check(&self, stamp: Stamp, side: &Path, best: &[(&Path, &[u8])]) -> Result<()> {
        if Stamp::of_dir(&self.path) == Some(stamp) {
            return Ok(());
        }
        let saved = DirOutput { path: side.to_path_buf(), in_place: None, swept: Once::new() };
        saved.replace(best.iter().copied())?;
        Err(changed(&self.path, side))
    }

    /// Replaces the output directory with these files, through a
    /// descriptor of its parent: however deep the parent, the temporary
    /// directories and the renames use short names (`tempfile` makes a
    /// relative path absolute, which the kernel refuses past `PATH_MAX`).
    fn replace<'a>(&self, files: impl IntoIterator<Item = (&'a Path, &'a [u8])>) -> Result<()> {
        let ctx = || format!("cannot write the result to {}", self.path.display());
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
        for (rel, bytes) in files {
            // a set's files may lie deeper below it than PATH_MAX
            let path = new.path().join(rel);
            if let Some(dir) = path.parent() {
                dir::create_dir_all(dir).with_context(ctx)?;
            }
            dir::write(&path, bytes).with_context(ctx)?;
        }
        let old = temp(".hdd-old")?;
        let (Some(new_name), Some(old_name)) = (name_of(&new), name_of(&old)) else {
            anyhow::bail!("{}: a temporary directory without a name", ctx());
        };
        if at.join(&name).exists() {
            // a directory may be renamed over an empty one
            parent.rename(&name, &old_name).with_context(ctx)?;
        }
        parent.rename(&new_name, &name).with_context(ctx)?;
        // renamed into place: nothing left to remove
        let _ = new.keep();
        self.swept.call_once(|| sweep(&self.path));
        Ok(())
    }
}

/// Copies the directory `from` to `to`, recursively (`to` must not exist),
/// however deep its files.
pub fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    fs::create_dir(&*dir::reach(to)?)?;
    for (name, is_dir) in dir::entries(from)? {
        let (from, to) = (from.join(&name), to.join(&name));
        if is_dir {
            copy_dir(&from, &to)?;
        } else {
            fs::copy(&*dir::reach(&from)?, &*dir::reach(&to)?)?;
        }
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
    fn temporary_names_fit_for_the_longest_output_name_and_name_their_output() {
        for len in [1, 200, 228, 229, 255] {
            let name = "a".repeat(len);
            let prefix = temp_prefix(Path::new(&name));
            assert!(prefix.len() + 6 + ".hdd-tmp".len() <= NAME_MAX, "{len}: {prefix:?}");
            assert!(stem(OsStr::new(&name)).len() + ".hdd-lock".len() <= NAME_MAX, "{len}");
        }
        assert_eq!(stem(OsStr::new("bug.c")), ".bug.c");
        assert_ne!(stem(OsStr::new(&"a".repeat(250))), stem(OsStr::new(&"b".repeat(250))));
    }

    #[test]
    fn a_second_claim_is_refused_and_the_lock_file_goes_with_the_first() {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("x.reduced.c");
        let first = Claim::take(&out).expect("first");
        let err = Claim::take(&out).unwrap_err();
        assert!(err.to_string().contains("another hdd run"), "{err}");
        drop(first);
        let again = Claim::take(&out).expect("after the first");
        drop(again);
        assert_eq!(fs::read_dir(dir.path()).expect("ls").count(), 0);
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
        assert_eq!(super::super::error::code_of(&err), exit::CHANGED, "{err}");
        assert_eq!(fs::read(&input).expect("kept"), b"mine");
        assert_eq!(fs::read(dir.path().join("x.reduced.c")).expect("side"), b"in;");
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
