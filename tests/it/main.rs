//! Integration tests: the real `hdd` binary with real test scripts.
//!
//! - `cli`: what a user sees for good and bad command lines (exit codes,
//!   messages, the input left alone, `--in-place`, `--stats-json`).
//! - `runner`: the test contract (working directory, file name, `TMPDIR`),
//!   timeouts, process groups, Ctrl-C.
//! - `roundtrip`: every corpus file parses and unparses to itself.
//! - `reduce`: small end-to-end reductions whose results are checked exactly.
//! - `corpus`: the real corpus cases with their real oracles.
//! - `parallel`: `-j1` and `-j4` give the same result.

mod cli;
mod corpus;
mod parallel;
mod reduce;
mod roundtrip;
mod runner;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `hdd` binary under test.
pub fn hdd() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hdd"))
}

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch directory, removed when dropped.
pub fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("hdd-it-").tempdir().expect("temp dir")
}

/// Writes an executable shell script.
pub fn script(path: &Path, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    fs::write(path, format!("#!/bin/sh\n{body}\n")).expect("write script");
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).expect("chmod");
    path.to_path_buf()
}

/// Runs a command, returning its output.
pub fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("run hdd")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
