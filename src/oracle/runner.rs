//! Runs the user's test on one candidate: the only place hdd spawns processes.
//!
//! The contract, compatible with C-Vise/C-Reduce and Picire scripts at once:
//! the candidate is written into a fresh private directory under the input's
//! own file name; the test runs with that directory as its working directory
//! and the candidate's absolute path as its last argument; exit 0 means
//! interesting, anything else (another code, a signal, a timeout) means not.
//!
//! Each run gets its own process group, killed as a whole on timeout, on
//! cancellation and on interrupt, and after the test exits (so nothing it left
//! in the background outlives it). `TMPDIR` points into the run's private
//! directory, stdin is empty, and the test's output goes nowhere (or, for the
//! first run, into a file so a failure can be shown), so a chatty test never
//! blocks. The run directory is removed after each run, and the session
//! directory when the runner is dropped.
//!
//! A set of files ([`Layout::Set`]) is written as a private copy of the whole
//! set, same relative layout: the candidate's bytes are the files' texts
//! joined by [`forest::SEPARATOR`], and the files that are not reduced are
//! copied as they were. The copy of the directory is the working directory,
//! and the test gets its absolute path (a directory was given) or the
//! files' absolute paths (files were given) as its last arguments.

use std::ffi::OsString;
use std::fs::{self, File};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::stop::{Cancel, Stop};
use crate::syntax::forest;

/// How a candidate is laid out for the test.
#[derive(Debug, Clone)]
pub enum Layout {
    /// One file, under the input's own name.
    File(OsString),
    /// A set of files, reduced jointly.
    Set(SetLayout),
}

/// A set of files in a directory, as the test sees it.
#[derive(Debug, Clone)]
pub struct SetLayout {
    /// The directory's name (the input directory's, or the files' common
    /// parent's).
    pub dir: OsString,
    /// The reduced files, relative to the directory, in the order of their
    /// texts in a candidate.
    pub files: Vec<PathBuf>,
    /// Files written as they are in every run (binary files, say), relative
    /// to the directory, with their bytes.
    pub copied: Vec<(PathBuf, Arc<[u8]>)>,
    /// The test gets the directory's path; else each reduced file's path.
    pub pass_dir: bool,
}

impl SetLayout {
    /// Writes the candidate `bytes` into `work`; returns the directory (the
    /// working directory) and the test's arguments.
    fn write(&self, work: &Path, bytes: &[u8]) -> Result<(PathBuf, Vec<PathBuf>)> {
        let dir = work.join(&self.dir);
        let texts = forest::split(bytes);
        anyhow::ensure!(
            texts.len() == self.files.len(),
            "a candidate has {} files, the set {}",
            texts.len(),
            self.files.len()
        );
        let copied = self.copied.iter().map(|(p, b)| (p, &**b));
        for (rel, text) in self.files.iter().zip(texts).chain(copied) {
            let path = dir.join(rel);
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent)
                    .with_context(|| format!("cannot create {}", parent.display()))?;
            }
            fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        }
        fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let args = if self.pass_dir {
            vec![dir.clone()]
        } else {
            self.files.iter().map(|f| dir.join(f)).collect()
        };
        Ok((dir, args))
    }
}

/// How one run of the test ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
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
    pub fn is_interesting(self) -> bool {
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
pub struct Report {
    pub outcome: Outcome,
    pub elapsed: Duration,
    /// The test's output (stdout and stderr), when asked for.
    pub output: Option<Vec<u8>>,
}

/// Runs the test; shared by every worker.
#[derive(Debug)]
pub struct Runner {
    test: PathBuf,
    /// Run the test through `/bin/sh` (a script without a `#!` line).
    via_shell: AtomicBool,
    layout: Layout,
    timeout: Duration,
    root: tempfile::TempDir,
    stop: Arc<Stop>,
    runs: AtomicU64,
}

impl Runner {
    /// `test` must be an absolute path; `file_name` is the input's own name.
    pub fn new(
        test: PathBuf,
        file_name: OsString,
        timeout: Duration,
        stop: Arc<Stop>,
    ) -> Result<Runner> {
        Runner::with_layout(test, Layout::File(file_name), timeout, stop)
    }

    /// A runner that writes candidates as `layout` says.
    pub fn with_layout(
        test: PathBuf,
        layout: Layout,
        timeout: Duration,
        stop: Arc<Stop>,
    ) -> Result<Runner> {
        let root = tempfile::Builder::new()
            .prefix("hdd-")
            .tempdir()
            .context("cannot create a temporary directory")?;
        Ok(Runner {
            test,
            via_shell: AtomicBool::new(false),
            layout,
            timeout,
            root,
            stop,
            runs: AtomicU64::new(0),
        })
    }

    /// The session's private directory.
    pub fn root(&self) -> &Path {
        self.root.path()
    }

    pub fn stop(&self) -> &Arc<Stop> {
        &self.stop
    }

    /// Runs the test on `bytes`; setting `cancel` abandons the run early.
    pub fn run(&self, bytes: &[u8], cancel: &Cancel) -> Result<Report> {
        self.run_with(bytes, false, Some(cancel))
    }

    /// Runs the test on `bytes`, keeping what it prints (for the check of
    /// the original, whose failure is shown to the user).
    pub fn run_capturing(&self, bytes: &[u8]) -> Result<Report> {
        self.run_with(bytes, true, None)
    }

    fn run_with(&self, bytes: &[u8], capture: bool, cancel: Option<&Cancel>) -> Result<Report> {
        let n = self.runs.fetch_add(1, Ordering::Relaxed);
        let dir = self.root.path().join(format!("run{n}"));
        let result = self.run_in(&dir, bytes, capture, cancel);
        let _ = fs::remove_dir_all(&dir);
        result
    }

    fn run_in(
        &self,
        dir: &Path,
        bytes: &[u8],
        capture: bool,
        cancel: Option<&Cancel>,
    ) -> Result<Report> {
        let work = dir.join("work");
        let tmp = dir.join("tmp");
        fs::create_dir_all(&work).with_context(|| format!("cannot create {}", work.display()))?;
        fs::create_dir_all(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        let (cwd, args) = match &self.layout {
            Layout::File(name) => {
                let candidate = work.join(name);
                fs::write(&candidate, bytes)
                    .with_context(|| format!("cannot write {}", candidate.display()))?;
                (work, vec![candidate])
            }
            Layout::Set(set) => set.write(&work, bytes)?,
        };
        let log = dir.join("output");

        let started = Instant::now();
        let mut child = self.spawn(&args, &cwd, &tmp, capture.then_some(&log))?;
        let outcome = self.wait(&mut child, started, cancel);
        let output = if capture { fs::read(&log).ok() } else { None };
        Ok(Report { outcome: outcome?, elapsed: started.elapsed(), output })
    }

    fn spawn(
        &self,
        args: &[PathBuf],
        cwd: &Path,
        tmp: &Path,
        log: Option<&PathBuf>,
    ) -> Result<Child> {
        loop {
            let shell = self.via_shell.load(Ordering::Relaxed);
            let mut cmd = if shell {
                let mut c = Command::new("/bin/sh");
                c.arg(&self.test);
                c
            } else {
                Command::new(&self.test)
            };
            cmd.args(args).current_dir(cwd).env("TMPDIR", tmp).stdin(Stdio::null());
            match log {
                Some(path) => {
                    let f = File::create(path)
                        .with_context(|| format!("cannot create {}", path.display()))?;
                    cmd.stderr(f.try_clone().context("cannot duplicate a file")?).stdout(f);
                }
                None => {
                    cmd.stdout(Stdio::null()).stderr(Stdio::null());
                }
            }
            cmd.process_group(0);
            #[cfg(target_os = "linux")]
            // SAFETY: prctl is async-signal-safe and touches no memory of ours.
            unsafe {
                cmd.pre_exec(|| {
                    // the test dies with us, even if we are killed with SIGKILL
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    Ok(())
                });
            }
            match cmd.spawn() {
                Ok(child) => return Ok(child),
                Err(e) if e.raw_os_error() == Some(libc::ENOEXEC) && !shell => {
                    // a script without a #! line: run it the way a shell would
                    self.via_shell.store(true, Ordering::Relaxed);
                }
                Err(e) => {
                    return Err(e)
                        .with_context(|| format!("cannot run the test {}", self.test.display()))
                }
            }
        }
    }

    /// Waits for the test to exit, for the timeout, for a stop or a cancel,
    /// whichever comes first; then kills the test's process group.
    fn wait(
        &self,
        child: &mut Child,
        started: Instant,
        cancel: Option<&Cancel>,
    ) -> Result<Outcome> {
        let pgid = child.id() as i32;
        let pidfd = pidfd_open(child.id());
        let deadline = started + self.timeout;
        let mut nap = Duration::from_micros(50);
        let outcome = loop {
            if self.stop.is_set() || cancel.is_some_and(Cancel::is_set) {
                break Outcome::Cancelled;
            }
            if let Some(status) = child.try_wait().context("cannot wait for the test")? {
                kill_group(pgid);
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
        kill_group(pgid);
        let _ = child.wait();
        Ok(outcome)
    }
}

fn outcome_of(status: ExitStatus) -> Outcome {
    match (status.code(), status.signal()) {
        (Some(0), _) => Outcome::Interesting,
        (Some(c), _) => Outcome::Exit(c),
        (None, Some(s)) => Outcome::Signal(s),
        (None, None) => Outcome::Exit(-1),
    }
}

fn kill_group(pgid: i32) {
    // SAFETY: plain syscall; a group that is already gone gives ESRCH, ignored.
    unsafe { libc::kill(-pgid, libc::SIGKILL) };
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
