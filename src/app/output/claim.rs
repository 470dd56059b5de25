//! One run writes an output at a time: a run holds a [`Claim`] on its
//! output, an advisory `flock` on `.NAME.hdd-lock` beside it (removed at
//! the end), and a second run is refused up front. The lock dies with its
//! process, so a run killed with `kill -9` never blocks the next one (a
//! test it was starting holds it for a moment: the next run waits for that
//! while the pid in the lock file is gone).
//!
//! What killed runs left beside the output is removed once it is claimed
//! ([`sweep`]): temporary names carry their writer's pid, and those of a
//! writer that is gone are stale, but for the previous result of a
//! directory whose writer was killed between its two renames while the
//! output is missing: that is then the only copy.

use std::fs;
use std::io::Write;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::names::{dir_of, stem_of};
use crate::app::error::Fatal;
use crate::app::shown::shown;

/// A run's hold on its output: no other hdd run writes it meanwhile.
/// Dropping it removes the lock file.
#[derive(Debug)]
pub(crate) struct Claim {
    lock: PathBuf,
    /// Holds the `flock`; `None` where the file system has no locks.
    file: Option<fs::File>,
}

impl Claim {
    /// Claims the output `path` (a file or a directory): refused when
    /// another live hdd run holds it. Then removes what killed runs left
    /// beside it.
    pub(crate) fn take(path: &Path) -> Result<Claim> {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::MetadataExt;
        let mut name = stem_of(path);
        name.push(".hdd-lock");
        let lock = dir_of(path).join(name);
        let ctx = || format!("cannot lock the output {}", shown(&path));
        let began = std::time::Instant::now();
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
                // a run killed while it started a test leaves its lock with
                // that child until the child's exec closes it, moments later
                if !writer_alive(&lock) && began.elapsed() < HANDOVER {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    continue;
                }
                return Err(held_by_another(&lock, path));
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

/// How long a lock whose writer is gone may stay held (by a test that
/// writer was starting when it was killed) before the output counts as
/// another run's.
const HANDOVER: std::time::Duration = std::time::Duration::from_secs(2);

/// Whether the run whose pid the `lock` file holds is alive (a lock file
/// that names none counts as alive).
fn writer_alive(lock: &Path) -> bool {
    let pid = fs::read_to_string(lock).unwrap_or_default();
    pid.trim().parse().map_or(true, alive)
}

/// The error of an output `path` whose `lock` another run holds, with its
/// pid when the lock file says it.
fn held_by_another(lock: &Path, path: &Path) -> anyhow::Error {
    let pid = fs::read_to_string(lock).unwrap_or_default();
    let pid = pid.trim();
    let who = if pid.is_empty() { String::new() } else { format!(" (pid {pid})") };
    Fatal::usage(format!(
        "another hdd run{who} writes {}; wait for it to end or choose another output",
        shown(&path)
    ))
}

impl Drop for Claim {
    fn drop(&mut self) {
        // removed while still locked, so no run locks a file that is gone
        if self.file.is_some() {
            let _ = fs::remove_file(&self.lock);
        }
    }
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
pub(super) fn sweep(path: &Path) {
    let dir = dir_of(path);
    let mut stem = stem_of(path).into_vec();
    stem.push(b'.');
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.as_bytes().strip_prefix(&stem[..]) else { continue };
        let Some((pid, old)) = writer_of(rest) else { continue };
        if alive(pid) {
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

/// The writer's pid in the rest of a temporary name after its stem
/// (`PID.XXXXXX.hdd-tmp` or `PID.XXXXXX.hdd-old`), and whether it is a
/// previous result (`.hdd-old`); `None` for any other name.
fn writer_of(rest: &[u8]) -> Option<(i32, bool)> {
    let (rest, old) = match (rest.strip_suffix(b".hdd-tmp"), rest.strip_suffix(b".hdd-old")) {
        (Some(r), _) => (r, false),
        (_, Some(r)) => (r, true),
        _ => return None,
    };
    let mut parts = rest.split(|&b| b == b'.');
    let (Some(pid), Some(random), None) = (parts.next(), parts.next(), parts.next()) else {
        return None;
    };
    let pid = match std::str::from_utf8(pid).ok().and_then(|p| p.parse::<i32>().ok()) {
        Some(p) if pid.iter().all(u8::is_ascii_digit) => p,
        _ => return None,
    };
    if random.len() != 6 || !random.iter().all(u8::is_ascii_alphanumeric) {
        return None;
    }
    Some((pid, old))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn only_temporary_names_of_hdd_name_a_writer() {
        assert_eq!(writer_of(b"123.aB3xYz.hdd-tmp"), Some((123, false)));
        assert_eq!(writer_of(b"123.aB3xYz.hdd-old"), Some((123, true)));
        assert_eq!(writer_of(b"123.aB3xYz.hdd-lock"), None);
        assert_eq!(writer_of(b"+12.aB3xYz.hdd-tmp"), None);
        assert_eq!(writer_of(b"123.short.hdd-tmp"), None);
        assert_eq!(writer_of(b"123.aB3xYz.extra.hdd-tmp"), None);
        assert_eq!(writer_of(b"123.aB-xYz.hdd-tmp"), None);
    }

    #[test]
    fn only_what_dead_writers_left_is_swept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("x.c");
        // no process has pid i32::MAX (pid_max is at most 2^22)
        let dead = format!(".x.c.{}.aaaaaa.hdd-tmp", i32::MAX);
        let live = format!(".x.c.{}.bbbbbb.hdd-tmp", std::process::id());
        let old = format!(".x.c.{}.cccccc.hdd-old", i32::MAX);
        for name in [&dead, &live, &old] {
            fs::write(dir.path().join(name), "").expect("write");
        }
        sweep(&out);
        // the output is missing: the previous result is the only copy
        assert!(!dir.path().join(&dead).exists());
        assert!(dir.path().join(&live).exists() && dir.path().join(&old).exists());
        fs::write(&out, "int x;").expect("output");
        sweep(&out);
        assert!(!dir.path().join(&old).exists());
    }
}
