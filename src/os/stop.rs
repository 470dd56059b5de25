//! Telling running tests to stop: [`Stop`] for the whole run (a signal,
//! `--max-time`), [`Cancel`] for one test whose answer is no longer needed.
//!
//! Both are a flag and a [`Wake`] pipe: setting the flag makes the pipe
//! readable, so a runner waiting in `poll` on its test wakes at once
//! instead of at its next timeout.
//!
//! A second signal does not exit on the spot (that would leave the tests
//! and the session directory behind): it makes the stop [hurried](Stop::hurried),
//! and tests still running are killed without `--kill-grace`; hdd then
//! cleans up and exits as after the first. Only `main` exits.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::Instant;

use anyhow::{Context, Result};

/// A pipe that becomes readable when rung.
#[derive(Debug)]
pub(crate) struct Wake {
    read: OwnedFd,
    write: OwnedFd,
}

impl Wake {
    pub(crate) fn new() -> io::Result<Wake> {
        let mut fds = [0; 2];
        // SAFETY: `fds` has room for the two descriptors pipe2 writes.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) } != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: pipe2 succeeded, so both descriptors are open and ours alone.
        let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        Ok(Wake { read, write })
    }

    /// Makes the pipe readable (its reader wakes from `poll`).
    pub(crate) fn ring(&self) {
        // SAFETY: writing one byte from a valid buffer to an open descriptor.
        unsafe { libc::write(self.write.as_raw_fd(), [1u8].as_ptr().cast(), 1) };
    }

    /// The descriptor to poll.
    pub(crate) fn fd(&self) -> RawFd {
        self.read.as_raw_fd()
    }

    /// Makes the pipe unreadable again (what rang it was dealt with).
    fn drain(&self) {
        let mut buf = [0u8; 64];
        // SAFETY: reading into a valid buffer from an open non-blocking
        // descriptor, until it is empty (or fails).
        while unsafe { libc::read(self.read.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) } > 0 {
        }
    }
}

/// Why everything should stop: the signal that arrived (0: none), the
/// time that ran out, or a run abandoned, and a pipe that becomes readable
/// when any of them comes.
#[derive(Debug)]
pub struct Stop {
    signal: Arc<AtomicUsize>,
    /// How many signals arrived.
    signals: Arc<AtomicUsize>,
    timed_out: AtomicBool,
    abandoned: AtomicBool,
    wake: Option<Wake>,
}

impl Stop {
    /// Installs handlers for SIGINT, SIGTERM and SIGHUP.
    pub fn install() -> Result<Arc<Stop>> {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let signal = Arc::new(AtomicUsize::new(0));
        let signals = Arc::new(AtomicUsize::new(0));
        let wake = Wake::new().context("cannot create a pipe")?;
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            let count = signals.clone();
            // SAFETY: the handler only adds to an atomic, which is
            // async-signal-safe.
            unsafe {
                signal_hook::low_level::register(sig, move || {
                    count.fetch_add(1, Ordering::SeqCst);
                })
            }
            .context("cannot install a signal handler")?;
            signal_hook::flag::register_usize(sig, signal.clone(), sig as usize)
                .context("cannot install a signal handler")?;
            let w = wake.write.try_clone().context("cannot duplicate a pipe")?;
            signal_hook::low_level::pipe::register(sig, w)
                .context("cannot install a signal handler")?;
        }
        Ok(Arc::new(Stop {
            signal,
            signals,
            timed_out: AtomicBool::new(false),
            abandoned: AtomicBool::new(false),
            wake: Some(wake),
        }))
    }

    /// A stop that only `--max-time` ([`Stop::time_up`]) can set (for tests).
    pub fn manual() -> Arc<Stop> {
        Arc::new(Stop {
            signal: Arc::new(AtomicUsize::new(0)),
            signals: Arc::new(AtomicUsize::new(0)),
            timed_out: AtomicBool::new(false),
            abandoned: AtomicBool::new(false),
            wake: Wake::new().ok(),
        })
    }

    /// The signal that asked hdd to stop, if any.
    pub fn signal(&self) -> Option<i32> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            s => Some(s as i32),
        }
    }

    /// Whether a second signal came: stop without grace, killing tests
    /// at once.
    pub fn hurried(&self) -> bool {
        self.signals.load(Ordering::SeqCst) >= 2
    }

    /// Whether the run must stop now.
    pub fn is_set(&self) -> bool {
        self.signal().is_some()
            || self.timed_out.load(Ordering::SeqCst)
            || self.abandoned.load(Ordering::SeqCst)
    }

    /// Stops the run because its time is up (`--max-time`).
    pub fn time_up(&self) {
        self.timed_out.store(true, Ordering::SeqCst);
        if let Some(w) = &self.wake {
            w.ring();
        }
    }

    /// Stops the run because nothing it finds will be used: the original
    /// input, checked while the first tests ran, was not interesting. The
    /// run ends like one a signal stopped, and the check says why.
    pub fn abandon(&self) {
        self.abandoned.store(true, Ordering::SeqCst);
        if let Some(w) = &self.wake {
            w.ring();
        }
    }

    /// Undoes [`Stop::abandon`], for a run made again from the start. (A
    /// signal that came meanwhile still stops it: its flag stays, and every
    /// wait looks at the flags before it polls.)
    pub fn resume(&self) {
        self.abandoned.store(false, Ordering::SeqCst);
        if let Some(w) = &self.wake {
            w.drain();
        }
    }

    /// Whether the run stopped because its time was up.
    pub fn is_time_up(&self) -> bool {
        self.timed_out.load(Ordering::SeqCst)
    }

    /// The descriptor that becomes readable when the run must stop.
    pub fn fd(&self) -> Option<RawFd> {
        self.wake.as_ref().map(Wake::fd)
    }

    /// Stops the run at `at` (`--max-time`), whatever it is doing then:
    /// waiting for a test, parsing, re-checking the result. A deadline
    /// that has passed stops it at once.
    pub fn alarm(self: &Arc<Self>, at: Instant) -> Alarm {
        let (tx, rx) = mpsc::channel::<()>();
        let stop = self.clone();
        let thread = std::thread::spawn(move || {
            let left = at.saturating_duration_since(Instant::now());
            if rx.recv_timeout(left) == Err(mpsc::RecvTimeoutError::Timeout) {
                stop.time_up();
            }
        });
        Alarm { disarm: tx, thread: Some(thread) }
    }
}

/// A pending [`Stop::alarm`]; dropping it disarms it.
#[derive(Debug)]
pub struct Alarm {
    /// Dropped first, which wakes the alarm's thread before its time.
    disarm: mpsc::Sender<()>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Alarm {
    fn drop(&mut self) {
        let (tx, _) = mpsc::channel();
        drop(std::mem::replace(&mut self.disarm, tx));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Lets a caller abandon a run that is no longer needed.
#[derive(Debug)]
pub(crate) struct Cancel {
    flag: AtomicBool,
    wake: Option<Wake>,
}

impl Default for Cancel {
    fn default() -> Self {
        Cancel { flag: AtomicBool::new(false), wake: Wake::new().ok() }
    }
}

impl Cancel {
    pub(crate) fn set(&self) {
        self.flag.store(true, Ordering::SeqCst);
        if let Some(w) = &self.wake {
            w.ring();
        }
    }

    pub(crate) fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// The descriptor that becomes readable when the run is cancelled.
    pub(crate) fn fd(&self) -> Option<RawFd> {
        self.wake.as_ref().map(Wake::fd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn readable(fd: RawFd) -> bool {
        let mut p = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
        // SAFETY: one valid pollfd, no wait.
        unsafe { libc::poll(&mut p, 1, 0) == 1 }
    }

    #[test]
    fn setting_a_flag_wakes_its_pipe() {
        let cancel = Cancel::default();
        let fd = cancel.fd().expect("a pipe");
        assert!(!cancel.is_set() && !readable(fd));
        cancel.set();
        assert!(cancel.is_set() && readable(fd));

        let stop = Stop::manual();
        let fd = stop.fd().expect("a pipe");
        assert!(!stop.is_set() && !readable(fd));
        stop.time_up();
        assert!(stop.is_set() && stop.is_time_up() && stop.signal().is_none() && readable(fd));
    }

    #[test]
    fn an_alarm_stops_the_run_at_its_time_unless_dropped_first() {
        let stop = Stop::manual();
        drop(stop.alarm(Instant::now() + std::time::Duration::from_millis(50)));
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert!(!stop.is_set(), "a dropped alarm rang");
        let _alarm = stop.alarm(Instant::now() + std::time::Duration::from_millis(50));
        let fd = stop.fd().expect("a pipe");
        let mut p = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
        // SAFETY: one valid pollfd, waiting at most 5 s.
        assert_eq!(unsafe { libc::poll(&mut p, 1, 5000) }, 1, "the alarm did not ring");
        assert!(stop.is_time_up());
    }
}
