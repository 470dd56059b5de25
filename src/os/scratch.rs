//! The session directory: `hdd-XXXX` in `$TMPDIR` (or in `--work-dir`),
//! holding every run's private directory; and the removal of the session
//! directories that runs killed with SIGKILL left behind.
//!
//! Each session directory holds a file `owner`: the pid of the hdd that made
//! it, that process's start time (from `/proc/PID/stat`, so that a reused pid
//! is not taken for the owner) and the host name (a shared `--work-dir` holds
//! directories of other machines, whose pids mean nothing here). Before making
//! its own, hdd removes every `hdd-*` directory next to it whose owner, on
//! this host, is gone. A directory without a readable `owner` is left alone.
//! Removing a session directory gives hdd's user back the permissions a
//! test took from the directories it made ([`remove_all`]), so a test's
//! `chmod 000` leaves nothing behind for a user other than root either.
//!
//! A parent so deep that a run's paths below it would not fit in
//! `PATH_MAX` is reached through a [`Dir`] of it that the tests inherit:
//! the session directory is then `/proc/self/fd/N/hdd-XXXX`, for hdd and
//! for the tests alike (their candidate's path, working directory and
//! `TMPDIR` go through it), and is removed by that path before the
//! descriptor is closed.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::dir::{remove_all, Dir, PATH_MAX};

/// The name of the file that says who owns a session directory.
pub(crate) const OWNER: &str = "owner";

/// A session directory, removed (with everything in it) when dropped.
#[derive(Debug)]
pub(crate) struct Session {
    dir: tempfile::TempDir,
    /// The descriptor of the parent `dir` is reached through, when the
    /// parent's path leaves the runs too little room before `PATH_MAX`;
    /// inherited by the tests, whose paths go through it too. Closed
    /// after `dir` is removed (fields drop in order).
    _parent: Option<Dir>,
}

impl Session {
    /// The session directory: its real path, or `/proc/self/fd/N/hdd-XXXX`.
    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // before `TempDir` tries: a directory a test made unreadable stops
        // its plain removal for any user but root
        let _ = remove_all(self.dir.path());
    }
}

/// Makes a new session directory in `parent` (default: the temp directory),
/// after removing stale ones there. `room` is how long the paths of a run
/// get below `parent`: when the parent's absolute path and `room` do not
/// fit in `PATH_MAX`, the session is reached through a descriptor of the
/// parent, as `/proc/self/fd/N/hdd-XXXX`, in hdd and in the tests alike.
pub(crate) fn session_dir(parent: Option<&Path>, room: usize) -> Result<Session> {
    let parent: PathBuf = parent.map_or_else(std::env::temp_dir, Path::to_path_buf);
    let cannot = || format!("cannot create a temporary directory in {}", parent.display());
    let long =
        std::path::absolute(&parent).map_or(true, |a| a.as_os_str().len() + room >= PATH_MAX);
    let held = match long {
        true => Some(Dir::open(&parent).and_then(Dir::inherited).with_context(cannot)?),
        false => None,
    };
    let at = held.as_ref().map_or_else(|| parent.clone(), Dir::path);
    remove_stale(&at);
    let dir = tempfile::Builder::new().prefix("hdd-").tempdir_in(&at).with_context(cannot)?;
    let me = std::process::id() as i32;
    let owner = Owner { pid: me, start: start_time(me).unwrap_or(0), host: host() };
    fs::write(dir.path().join(OWNER), owner.line())
        .with_context(|| format!("cannot write into {}", dir.path().display()))?;
    Ok(Session { dir, _parent: held })
}

/// Who made a session directory.
#[derive(Debug, PartialEq, Eq)]
struct Owner {
    pid: i32,
    /// Start time of the process, in clock ticks after boot.
    start: u64,
    host: String,
}

impl Owner {
    fn line(&self) -> String {
        format!("{} {} {}\n", self.pid, self.start, self.host)
    }

    fn parse(text: &str) -> Option<Owner> {
        let mut words = text.split_whitespace();
        let pid = words.next()?.parse().ok()?;
        let start = words.next()?.parse().ok()?;
        let host = words.next().unwrap_or("").to_string();
        Some(Owner { pid, start, host })
    }

    /// Whether the owner still runs (on this host, which it must be on).
    fn alive(&self) -> bool {
        start_time(self.pid) == Some(self.start)
    }
}

/// The start time of process `pid` (field 22 of `/proc/PID/stat`).
fn start_time(pid: i32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // fields after the command name (which may hold ')') start at field 3
    stat[stat.rfind(')')? + 1..].split_whitespace().nth(19)?.parse().ok()
}

fn host() -> String {
    fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default()
}

/// Removes the `hdd-*` directories in `parent` whose owner, on this host,
/// is gone. Errors are ignored: this is tidying, not the run.
pub(crate) fn remove_stale(parent: &Path) {
    let Ok(entries) = fs::read_dir(parent) else { return };
    let here = host();
    for entry in entries.flatten() {
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if !is_dir || !entry.file_name().to_string_lossy().starts_with("hdd-") {
            continue;
        }
        let dir = entry.path();
        let Some(owner) = fs::read_to_string(dir.join(OWNER)).ok().and_then(|t| Owner::parse(&t))
        else {
            continue;
        };
        if owner.host == here && !owner.alive() {
            let _ = remove_all(&dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_directories_whose_owner_is_gone_are_removed() {
        let parent = tempfile::tempdir().expect("temp dir");
        let me = std::process::id() as i32;
        let start = start_time(me).expect("own start time");
        let make = |name: &str, owner: Option<Owner>| {
            let dir = parent.path().join(name);
            fs::create_dir(&dir).expect("mkdir");
            if let Some(o) = owner {
                fs::write(dir.join(OWNER), o.line()).expect("write");
            }
            dir
        };
        let live = make("hdd-live", Some(Owner { pid: me, start, host: host() }));
        // the same pid with another start time: a reused pid, its owner is gone
        let reused = make("hdd-reused", Some(Owner { pid: me, start: start + 1, host: host() }));
        let other_host =
            make("hdd-far", Some(Owner { pid: me, start: start + 1, host: "elsewhere".into() }));
        let no_owner = make("hdd-old", None);
        let not_ours = make("data", Some(Owner { pid: me, start: start + 1, host: host() }));
        remove_stale(parent.path());
        assert!(live.exists() && other_host.exists() && no_owner.exists() && not_ours.exists());
        assert!(!reused.exists());

        let made = session_dir(Some(parent.path()), 0).expect("session dir");
        let owner = Owner::parse(&fs::read_to_string(made.path().join(OWNER)).expect("owner"));
        assert_eq!(owner, Some(Owner { pid: me, start, host: host() }));
    }
}
