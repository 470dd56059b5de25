//! The watchdog: a small shell, started with the runner, that ends every
//! process of its runs if hdd is killed outright.
//!
//! A SIGKILLed hdd runs no code of its own. The watchdog holds a pipe from
//! hdd; when that closes without hdd's word that all is done, it sends
//! SIGTERM, and SIGKILL after the grace period, to every process carrying
//! the runs' mark. A parent-death signal would reach the test's own
//! process only, not the compiler its script waits for, and setting one
//! needs code run between fork and exec, which makes every spawn fork hdd.

use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::Duration;

use crate::os::reaper::{self, Registry};

/// The watchdog's script: `$1` is the mark of the runs (`HDD_RUN=PREFIX`),
/// `$2` the grace period in seconds. It waits for hdd's word; a pipe closed
/// without it means hdd is gone, and what carries the mark is ended. A
/// process in the middle of `execve` may show no environment for a moment:
/// the last sweeps catch it.
const WATCHDOG: &str = r#"read -r word
[ "$word" = done ] && exit 0
sweep() {
  for env in /proc/[0-9]*/environ; do
    if grep -qzF "$1" "$env" 2>/dev/null; then
      pid=${env#/proc/}
      kill -"$2" "${pid%/environ}" 2>/dev/null
    fi
  done
}
sweep "$1" TERM
sleep "$2"
for round in 1 2 3; do sweep "$1" KILL; sleep 0.1; done
"#;

/// A shell that outlives hdd to end its runs' processes when hdd is
/// killed outright (see the module's doc).
#[derive(Debug)]
pub(super) struct Watchdog {
    child: Child,
    word: Option<ChildStdin>,
}

impl Watchdog {
    /// Starts the watchdog of the runs marked `mark`; `None` if no shell
    /// can be started (hdd then runs without one).
    pub(super) fn start(mark: &str, grace: Duration) -> Option<Watchdog> {
        let mut cmd = Command::new("/bin/sh");
        cmd.arg("-c").arg(WATCHDOG).arg("hdd-watchdog");
        cmd.arg(format!("{}={mark}", reaper::VAR)).arg(format!("{:.3}", grace.as_secs_f64()));
        // not of the terminal's process group (Ctrl-C is hdd's to handle),
        // and never taken for a test's process
        cmd.stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null());
        cmd.env_remove(reaper::VAR).process_group(0);
        // registered like a test child: no orphan sweep reaps it, and it is
        // not an orphan the reaper looks into
        let mut registry = Registry::lock();
        let mut child = cmd.spawn().ok()?;
        Registry::add(&mut registry, child.id() as i32);
        let word = child.stdin.take();
        Some(Watchdog { child, word })
    }

    /// hdd ends well: tells the watchdog so, and waits for it to exit.
    pub(super) fn stand_down(mut self) {
        use std::io::Write;
        if let Some(mut word) = self.word.take() {
            let _ = word.write_all(b"done\n");
        }
        let _ = self.child.wait();
        Registry::remove(self.child.id() as i32);
    }
}
