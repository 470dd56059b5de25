//! Runs the user's test on one candidate: the only place hdd spawns
//! processes (the test; the [`watchdog`]; the [`formatter`] of `--format`).
//!
//! The contract, compatible with C-Vise/C-Reduce and Picire scripts at once:
//! the candidate is written into a fresh private directory under the input's
//! own file name ([`layout`]: or a set of files); the test runs with that
//! directory as its working directory and the candidate's absolute path as
//! its last argument; exit 0 means interesting, anything else (another
//! code, a signal, a timeout) means not. With a launcher (`--launcher 'srun
//! -n1'`) the test command is prefixed by it; nothing else changes.
//!
//! Each run gets its own process group and a mark in its environment, and
//! its whole process tree is ended ([`reaper`]) on
//! timeout, on cancellation and on interrupt (SIGTERM first, SIGKILL after
//! the grace period), and after the test exits (so nothing it left in the
//! background outlives it). `TMPDIR` points into the run's private
//! directory, `HDD_TEST_DIR` and `HDD_INPUT_DIR` name where the test's and
//! the input's own files are, stdin is the candidate when it is one file
//! (else empty), and the test's output goes nowhere (or, for
//! the check of the original, into a pipe whose [`tail`] is kept so a
//! failure can be shown), so a chatty test never blocks. After a run its
//! directory is emptied of all the test left (a compiler's `a.out` must
//! never reach the next test) and kept for a later run: making and
//! removing a run's directories for every test costs more CPU than
//! anything else hdd does per test with many workers (BENCHMARKS.md, "What
//! a test costs hdd"). Of a set of files, the copy the test got stays
//! where it is still as hdd made it, and the next run writes only the
//! files that differ ([`reuse`]). The session directory
//! ([`scratch`]) goes when the runner is dropped.
//!
//! Invariant: every process spawned here is registered with the reaper
//! ([`Registry`]) while the spawn holds its lock, so no orphan sweep reaps
//! a child the runner waits for.

use std::fs::{self, File};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::os::dir::remove_all;
use crate::os::reaper::{self, ProcessTree, Registry};
use crate::os::scratch;
use crate::os::stop::{Cancel, Stop};

mod formatter;
mod layout;
mod reuse;
mod tail;
mod watchdog;

pub(crate) use formatter::format;
pub(crate) use layout::{make_links, Layout, SetLayout};
use tail::Tail;
use watchdog::Watchdog;

/// How long a launcher's test runs at least before it is cancelled: srun
/// signalled in its first moments, before it handles signals, dies and
/// leaves its step running.
const LAUNCHER_SETTLE: Duration = Duration::from_millis(300);

/// What to run, and how.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    /// The test, an absolute path.
    pub test: PathBuf,
    /// Words between the test and the candidate's path (`sh -c LINE`'s).
    pub test_args: Vec<String>,
    /// Variables set in the test's environment besides `TMPDIR`.
    pub env: Vec<(&'static str, PathBuf)>,
    /// How a candidate is written for the test (one file under the
    /// input's name, or a set of files).
    pub layout: Layout,
    pub timeout: Duration,
    /// How long a test asked to stop (SIGTERM) gets before SIGKILL.
    pub grace: Duration,
    /// Words put before the test command (`srun -n1`); empty: none.
    pub launcher: Vec<String>,
    /// Where the session directory goes [default: `$TMPDIR`].
    pub work_dir: Option<PathBuf>,
}

/// How one run of the test ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Exit code 0.
    Interesting,
    /// Another exit code.
    Exit(i32),
    /// Killed by a signal it did not get from us.
    Signal(i32),
    /// Ran longer than the timeout; killed.
    Timeout,
    /// Killed because hdd is stopping or no longer needs the answer.
    Cancelled,
}

impl Outcome {
    pub(crate) fn is_interesting(self) -> bool {
        self == Outcome::Interesting
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Interesting => write!(f, "exit code 0"),
            Outcome::Exit(c) => write!(f, "exit code {c}"),
            Outcome::Signal(s) => write!(f, "killed by signal {s}"),
            Outcome::Timeout => write!(f, "timed out"),
            Outcome::Cancelled => write!(f, "cancelled"),
        }
    }
}

/// One finished run.
#[derive(Debug)]
pub(crate) struct Report {
    pub outcome: Outcome,
    pub elapsed: Duration,
    /// The end of the test's output (stdout and stderr), at most
    /// [`OUTPUT_TAIL`](tail::OUTPUT_TAIL) bytes, when asked for.
    pub output: Option<Vec<u8>>,
}

/// Runs the test; shared by every worker.
#[derive(Debug)]
pub(crate) struct Runner {
    spec: Spec,
    /// Run the test through `/bin/sh` (a script without a `#!` line).
    via_shell: AtomicBool,
    root: scratch::Session,
    /// What marks this runner's processes: `PID.` then the run's number.
    mark: String,
    stop: Arc<Stop>,
    runs: AtomicU64,
    /// Run directories emptied after their run, for the next runs (see
    /// [`empty_run_dir`]).
    free: Mutex<Vec<PathBuf>>,
    /// Ends the runs' processes if hdd is killed outright; `None` where no
    /// shell could be started.
    watchdog: Option<Watchdog>,
}

/// What gets a worker's text buffer back once its candidate is written.
type Written<'a> = Box<dyn FnOnce(&mut Vec<u8>) + 'a>;

/// A candidate's text as a run gets it: borrowed, or a worker's buffer
/// handed back (to be freed) once written (see [`Runner::run`]).
enum Text<'a> {
    Borrowed(&'a [u8]),
    Buffer(&'a mut Vec<u8>, Written<'a>),
}

impl Text<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Text::Borrowed(b) => b,
            Text::Buffer(b, _) => b,
        }
    }

    fn written(self) {
        if let Text::Buffer(b, written) = self {
            written(b);
        }
    }
}

impl Runner {
    /// Makes the session directory (removing stale ones next to it).
    pub(crate) fn new(spec: Spec, stop: Arc<Stop>) -> Result<Runner> {
        let root = scratch::session_dir(spec.work_dir.as_deref(), layout::room(&spec.layout))?;
        // a launcher cannot tell hdd that the test lacks a #! line: look
        let via_shell = !spec.launcher.is_empty() && !has_interpreter(&spec.test);
        let name = root.path().file_name().map(|n| n.to_string_lossy().into_owned());
        let mark = format!("{}.{}.", std::process::id(), name.unwrap_or_default());
        let watchdog = Watchdog::start(&mark, spec.grace);
        Ok(Runner {
            spec,
            via_shell: AtomicBool::new(via_shell),
            root,
            mark,
            stop,
            runs: AtomicU64::new(0),
            free: Mutex::new(Vec::new()),
            watchdog,
        })
    }

    pub(crate) fn stop(&self) -> &Arc<Stop> {
        &self.stop
    }

    /// Runs the test on `text`; setting `cancel` abandons the run early.
    /// Once the candidate is written and before the test starts, `written`
    /// gets the text: a caller that frees it there (and what it held for
    /// it) keeps no copy of a candidate while its test runs, whatever the
    /// number of tests in flight.
    pub(crate) fn run(
        &self,
        text: &mut Vec<u8>,
        written: impl FnOnce(&mut Vec<u8>),
        cancel: &Cancel,
    ) -> Result<Report> {
        self.run_with(Text::Buffer(text, Box::new(written)), &[], false, Some(cancel))
    }

    /// Runs the test on the set of files `bytes` with the files that
    /// `absent` marks left out of the copy (and of the test's arguments).
    pub(crate) fn run_without(
        &self,
        bytes: &[u8],
        absent: &[bool],
        cancel: &Cancel,
    ) -> Result<Report> {
        self.run_with(Text::Borrowed(bytes), absent, false, Some(cancel))
    }

    /// Runs the test on `bytes`, keeping what it prints (for the check of
    /// the original, whose failure is shown to the user).
    pub(crate) fn run_capturing(&self, bytes: &[u8]) -> Result<Report> {
        self.run_with(Text::Borrowed(bytes), &[], true, None)
    }

    fn run_with(
        &self,
        text: Text<'_>,
        absent: &[bool],
        capture: bool,
        cancel: Option<&Cancel>,
    ) -> Result<Report> {
        let n = self.runs.fetch_add(1, Ordering::Relaxed);
        let reused = self.free.lock().expect("run dir pool").pop();
        let dir = reused.unwrap_or_else(|| self.root.path().join(format!("run{n}")));
        let result = self.run_in(&dir, n, text, absent, capture, cancel);
        match empty_run_dir(&dir, &self.spec.layout) {
            Ok(()) => self.free.lock().expect("run dir pool").push(dir),
            Err(_) => drop(remove_all(&dir)),
        }
        result
    }

    fn run_in(
        &self,
        dir: &Path,
        n: u64,
        text: Text<'_>,
        absent: &[bool],
        capture: bool,
        cancel: Option<&Cancel>,
    ) -> Result<Report> {
        let work = dir.join("work");
        let tmp = dir.join("tmp");
        if !tmp.is_dir() {
            fs::create_dir_all(&work)
                .with_context(|| format!("cannot create {}", work.display()))?;
            fs::create_dir_all(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        }
        let (cwd, args) = self.spec.layout.write(work, text.bytes(), absent)?;
        text.written();
        let (tail, writer) = match capture {
            true => {
                let (reader, writer) = std::io::pipe().context("cannot create a pipe")?;
                (Some(Tail::keep(reader)), Some(writer))
            }
            false => (None, None),
        };

        let started = Instant::now();
        let mark = format!("{}{n}", self.mark);
        let mut child = self.spawn(&args, &cwd, &tmp, &mark, writer)?;
        let tree = ProcessTree::new(&mark, child.id() as i32);
        let outcome = self.wait(&mut child, &tree, started, cancel);
        Registry::remove(child.id() as i32);
        let output = tail.map(Tail::take);
        Ok(Report { outcome: outcome?, elapsed: started.elapsed(), output })
    }

    fn spawn(
        &self,
        args: &[PathBuf],
        cwd: &Path,
        tmp: &Path,
        mark: &str,
        output: Option<std::io::PipeWriter>,
    ) -> Result<Child> {
        let test = &self.spec.test;
        let launcher = &self.spec.launcher;
        loop {
            let shell = self.via_shell.load(Ordering::Relaxed);
            let mut words: Vec<&std::ffi::OsStr> = launcher.iter().map(|w| w.as_ref()).collect();
            if shell {
                words.push("/bin/sh".as_ref());
            }
            words.push(test.as_os_str());
            words.extend(self.spec.test_args.iter().map(std::ffi::OsStr::new));
            let mut cmd = Command::new(words[0]);
            cmd.args(&words[1..]).args(args).current_dir(cwd).stdin(self.stdin(args));
            cmd.env("TMPDIR", tmp).env(reaper::VAR, mark);
            cmd.envs(self.spec.env.iter().map(|(k, v)| (k, v)));
            match &output {
                Some(w) => {
                    let dup = || w.try_clone().context("cannot duplicate a pipe");
                    cmd.stdout(dup()?).stderr(dup()?);
                }
                None => {
                    cmd.stdout(Stdio::null()).stderr(Stdio::null());
                }
            }
            // no pre_exec: std then starts the test with posix_spawn (vfork)
            // instead of forking hdd, whose copy of a large multi-threaded
            // address space costs much CPU with many workers; if hdd is
            // killed outright, the watchdog ends the test
            cmd.process_group(0);
            // no orphan sweep may reap the child before it is registered
            let mut registry = Registry::lock();
            match cmd.spawn() {
                Ok(child) => {
                    Registry::add(&mut registry, child.id() as i32);
                    return Ok(child);
                }
                Err(e) if e.raw_os_error() == Some(libc::ENOEXEC) && !shell => {
                    // a script without a #! line: run it the way a shell would
                    self.via_shell.store(true, Ordering::Relaxed);
                }
                Err(e) => {
                    let what = words.iter().map(|w| w.to_string_lossy()).collect::<Vec<_>>();
                    return Err(e)
                        .with_context(|| format!("cannot run the test ({})", what.join(" ")));
                }
            }
        }
    }

    /// The test's stdin: the candidate, when it is one file (as Shrink
    /// Ray's tests read it), else nothing.
    fn stdin(&self, args: &[PathBuf]) -> Stdio {
        match (&self.spec.layout, args) {
            (Layout::File(_), [candidate]) => {
                File::open(candidate).map_or(Stdio::null(), Stdio::from)
            }
            _ => Stdio::null(),
        }
    }

    /// Waits for the test to exit, for the timeout, for a stop or a cancel,
    /// whichever comes first; then ends the test's whole process tree.
    fn wait(
        &self,
        child: &mut Child,
        tree: &ProcessTree,
        started: Instant,
        cancel: Option<&Cancel>,
    ) -> Result<Outcome> {
        let pidfd = pidfd_open(child.id());
        let deadline = started + self.spec.timeout;
        let mut nap = Duration::from_micros(50);
        let outcome = loop {
            if self.stop.is_set() || cancel.is_some_and(Cancel::is_set) {
                // a launcher signalled before it is set up dies without
                // ending what it launched (srun: the step runs on)
                if !self.spec.launcher.is_empty() && !self.stop.is_set() {
                    std::thread::sleep(LAUNCHER_SETTLE.saturating_sub(started.elapsed()));
                }
                break Outcome::Cancelled;
            }
            if let Some(status) = child.try_wait().context("cannot wait for the test")? {
                tree.end(self.spec.grace, &|| self.stop.hurried(), &mut || true);
                return Ok(outcome_of(status));
            }
            let now = Instant::now();
            if now >= deadline {
                break Outcome::Timeout;
            }
            let left = deadline - now;
            match &pidfd {
                Some(fd) => {
                    use std::os::fd::AsRawFd;
                    let mut fds =
                        vec![libc::pollfd { fd: fd.as_raw_fd(), events: libc::POLLIN, revents: 0 }];
                    for extra in [self.stop.fd(), cancel.and_then(Cancel::fd)].into_iter().flatten()
                    {
                        fds.push(libc::pollfd { fd: extra, events: libc::POLLIN, revents: 0 });
                    }
                    let ms = left.as_millis().clamp(1, i32::MAX as u128) as i32;
                    // SAFETY: `fds` is a valid array of pollfd of the given length.
                    unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
                }
                None => {
                    std::thread::sleep(nap.min(left));
                    nap = (nap * 2).min(Duration::from_millis(2));
                }
            }
        };
        tree.end(self.spec.grace, &|| self.stop.hurried(), &mut || {
            child.try_wait().is_ok_and(|s| s.is_some())
        });
        let _ = child.wait();
        Ok(outcome)
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        // whatever a run left (a test that was never waited for): nothing outlives hdd
        reaper::end_all(&self.mark);
        if let Some(watchdog) = self.watchdog.take() {
            watchdog.stand_down();
        }
    }
}

/// Empties run directory `dir` for the next run: removes everything the
/// test left in its working directory and its `TMPDIR`, the candidate too
/// (the test may have changed it in any way), but the files of a set's
/// copy that are still as hdd made them ([`Layout::tidy`]); also
/// directories the test made unreadable. An error leaves the directory
/// unfit for reuse; the caller removes it.
fn empty_run_dir(dir: &Path, layout: &Layout) -> std::io::Result<()> {
    layout.tidy(&dir.join("work"))?;
    reuse::clear(&dir.join("tmp"))
}

/// Whether `path` starts with `#!` or is an ELF binary: something the kernel
/// runs by itself, not a script for `/bin/sh`.
fn has_interpreter(path: &Path) -> bool {
    let mut head = [0u8; 4];
    let n = File::open(path).and_then(|mut f| std::io::Read::read(&mut f, &mut head)).unwrap_or(0);
    head[..n].starts_with(b"#!") || head[..n].starts_with(b"\x7fELF")
}

fn outcome_of(status: ExitStatus) -> Outcome {
    match (status.code(), status.signal()) {
        (Some(0), _) => Outcome::Interesting,
        (Some(c), _) => Outcome::Exit(c),
        (None, Some(s)) => Outcome::Signal(s),
        (None, None) => Outcome::Exit(-1),
    }
}

/// A descriptor that becomes readable when the process exits (Linux 5.3+).
fn pidfd_open(pid: u32) -> Option<std::os::fd::OwnedFd> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::FromRawFd;
        // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
        // SAFETY: a non-negative result is a descriptor we now own.
        (fd >= 0).then(|| unsafe { std::os::fd::OwnedFd::from_raw_fd(fd as i32) })
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pid;
        None
    }
}
