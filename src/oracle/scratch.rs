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

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The name of the file that says who owns a session directory.
pub const OWNER: &str = "owner";

/// Makes a new session directory in `parent` (default: the temp directory),
/// after removing stale ones there.
pub fn session_dir(parent: Option<&Path>) -> Result<tempfile::TempDir> {
    let parent: PathBuf = parent.map_or_else(std::env::temp_dir, Path::to_path_buf);
    remove_stale(&parent);
    let dir = tempfile::Builder::new()
        .prefix("hdd-")
        .tempdir_in(&parent)
        .with_context(|| format!("cannot create a temporary directory in {}", parent.display()))?;
    let me = std::process::id() as i32;
    let owner = Owner { pid: me, start: start_time(me).unwrap_or(0), host: host() };
    fs::write(dir.path().join(OWNER), owner.line())
        .with_context(|| format!("cannot write into {}", dir.path().display()))?;
    Ok(dir)
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
pub fn remove_stale(parent: &Path) {
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
            let _ = fs::remove_dir_all(&dir);
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

        let made = session_dir(Some(parent.path())).expect("session dir");
        let owner = Owner::parse(&fs::read_to_string(made.path().join(OWNER)).expect("owner"));
        assert_eq!(owner, Some(Owner { pid: me, start, host: host() }));
    }
}
