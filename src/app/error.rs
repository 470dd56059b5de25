//! Exit codes, and the error that carries one.
//!
//! Only `main` exits. Code below it returns [`Fatal`] (inside an
//! `anyhow::Error`) for the failures a user can fix, and `main` maps it to its
//! code; any other error exits with [`exit::ERROR`]. A run that ends (by
//! finishing, a signal or `--max-time`) returns its summary, and `main`
//! maps that to its code.

use std::fmt;

/// The documented exit codes (README, "Exit codes").
pub mod exit {
    /// The run finished (or `--max-time` ended it) and the result is written.
    pub const OK: u8 = 0;
    /// An unexpected failure (I/O error while running, say).
    pub const ERROR: u8 = 1;
    /// Bad command line or bad input: missing file, unknown language, test
    /// not executable, empty or binary input, output path clash, an output
    /// another live hdd run writes.
    pub const USAGE: u8 = 2;
    /// The test does not find the original input interesting.
    pub const NOT_INTERESTING: u8 = 3;
    /// The test is flaky: the result was interesting once but not on re-check.
    pub const FLAKY: u8 = 4;
    /// With `--in-place`, the file changed during the run, not by hdd: it is
    /// left as it is and the best result is in a file beside it.
    pub const CHANGED: u8 = 5;
    /// The result is empty (or only whitespace) and `--allow-empty` was not
    /// given: it is written, but the test probably accepts too much.
    pub const EMPTY: u8 = 6;
    /// Stopped by SIGINT (Ctrl-C); the best result so far is written.
    /// SIGTERM and SIGHUP give 128 + their number (143, 129) the same way.
    pub const INTERRUPTED: u8 = 130;
}

/// A failure the user can act on, with its exit code.
#[derive(Debug)]
pub struct Fatal {
    pub code: u8,
    pub message: String,
}

impl Fatal {
    pub fn usage(message: impl Into<String>) -> anyhow::Error {
        anyhow::Error::new(Fatal { code: exit::USAGE, message: message.into() })
    }

    pub fn not_interesting(message: impl Into<String>) -> anyhow::Error {
        anyhow::Error::new(Fatal { code: exit::NOT_INTERESTING, message: message.into() })
    }
}

impl fmt::Display for Fatal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Fatal {}

/// The exit code for an error: a [`Fatal`]'s own, else [`exit::ERROR`].
pub fn code_of(err: &anyhow::Error) -> u8 {
    err.downcast_ref::<Fatal>().map_or(exit::ERROR, |f| f.code)
}
