//! A validated reduction request: what [`cli`](super::cli) makes of the
//! command line, and all a session reads. Nothing here is a clap type.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::set::FileSet;
use super::values::shell_quote;
use crate::language::LangInfo;
use crate::reduce::{Algorithm, Ddmin, Order};

/// A validated reduction request.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file, or the set's directory (see `set`).
    pub input: PathBuf,
    /// Several files reduced jointly (a directory or files were given);
    /// `lang` is then the first file's.
    pub set: Option<FileSet>,
    pub output: PathBuf,
    pub in_place: bool,
    pub lang: &'static LangInfo,
    /// Absolute path of the test (`/bin/sh` for `--command`).
    pub test: PathBuf,
    /// Words between the test and the candidate's path (`--command`'s
    /// `-c LINE hdd-test`); empty for a script.
    pub test_args: Vec<String>,
    /// Where the test's own files are (`HDD_TEST_DIR`): the script's
    /// directory, or the current one for `--command`.
    pub test_dir: PathBuf,
    /// The candidate's file name in the test's directory (one file only).
    pub name: Option<std::ffi::OsString>,
    pub timeout: Duration,
    /// How long a test asked to stop gets before SIGKILL.
    pub kill_grace: Duration,
    /// Words put before the test command (`--launcher`); empty: none.
    pub launcher: Vec<String>,
    /// Where the private directories go (`--work-dir`), absolute.
    pub work_dir: Option<PathBuf>,
    pub jobs: usize,
    pub algorithm: Algorithm,
    pub ddmin: Ddmin,
    /// `None`: the language's own default (grammar data `order`).
    pub order: Option<Order>,
    pub syntax_guard: bool,
    /// Hoist along with the algorithm.
    pub hoist: bool,
    /// With HDD+: delete declarations with their uses after the 1-minimal phase.
    pub coordinated: bool,
    /// Run the token pass (lines and words as plain text) after the tree's passes.
    pub tokens: bool,
    /// Run the shrinking pass (characters of strings) at the end.
    pub shrink: bool,
    /// Lay the result out again, as the last candidate but one.
    pub layout: bool,
    /// `--format`: the formatter's command line, run on the result as the
    /// last candidate.
    pub format: Option<Vec<String>>,
    /// Rename declared names to the shortest unused ones.
    pub rename: bool,
    /// Run the searches in batches whose first round has this many blocks.
    pub batch: Option<usize>,
    pub max_time: Option<Duration>,
    /// Draw the progress line.
    pub progress: bool,
    /// Print nothing but errors.
    pub quiet: bool,
    /// `--trace`: where each answered candidate is written, a JSON line.
    pub trace: Option<PathBuf>,
}

impl Config {
    /// The test as a shell would run it, for messages and the lines the
    /// user may paste: the script's path, or `sh -c '...' hdd-test`.
    pub fn test_line(&self) -> String {
        let mut words = vec![shell_quote(&self.test.to_string_lossy())];
        words.extend(self.test_args.iter().map(|w| shell_quote(w)));
        words.join(" ")
    }

    /// The directory that holds the input (`HDD_INPUT_DIR`), absolute.
    pub fn input_dir(&self) -> PathBuf {
        let absolute = std::path::absolute(&self.input).unwrap_or_else(|_| self.input.clone());
        absolute.parent().map_or(absolute.clone(), Path::to_path_buf)
    }
}
