//! Integration tests: the real `hdd` binary with real test scripts.
//!
//! - `languages`: every language of the registry has its grammar data, a
//!   corpus case and its README row.
//! - `cli`: what a user sees for good and bad command lines (exit codes,
//!   messages, the input left alone, `--in-place`, `--stats-json`).
//! - `runner`: the test contract (working directory, file name, `TMPDIR`),
//!   launchers and work dirs, timeouts, process trees, Ctrl-C, stale
//!   session directories.
//! - `roundtrip`: every corpus file parses and unparses to itself.
//! - `reduce`: small end-to-end reductions whose results are checked exactly,
//!   one directory of data per case (`tests/data/reduce/`).
//! - `corpus`: the real corpus cases with their real oracles, as their
//!   `case.env` files describe them.
//! - `parallel`: `-j1` and `-j4` give the same result.
//! - `tidy`: the rules of the codebase no compiler checks (layers, documented grammar data, the code map).
//! - `slurm`: tests as Slurm job steps (`--launcher srun ...`) on a private
//!   one-node cluster: the local result, and no step left behind.
//! - `multi`: a directory, or several files, reduced jointly.
//! - `fuzz`: structured mutations of every input through every front-end,
//!   deterministic from a seed, for a bounded time (`HDD_FUZZ_SECS`);
//!   `fuzz_dirs`: random directory inputs (links, FIFOs, hostile names)
//!   reduced by the binary.
//! - `memory`: peak memory against input size, at `-j 1` and `-j 8`.
//! - `progress`: the progress line on a pseudo-terminal of 80 columns: it
//!   moves while a test runs, and fits.
//! - `faults`: the fault table: a run killed with `kill -9`, two runs on
//!   one output, an `--in-place` file edited during the run, `--max-time`
//!   during a long test; exit codes, and nothing left behind.
//!
//! Shared here: running the binary, scratch directories (and copying
//! them), [`Case`] (the one reader of `corpora/<lang>/<case>/case.env`),
//! [`in_parallel`] for tests that run many cases, and the few calls into the library ([`frontend`],
//! [`parse`]) so that a change of its paths touches one place.

mod cli;
mod conventions;
mod corpus;
mod directories;
mod faults;
mod fuzz;
mod fuzz_dirs;
mod languages;
mod memory;
mod multi;
mod parallel;
mod progress;
mod reduce;
mod roundtrip;
// the generator of the unit tests, so that both draw from one
#[path = "../../src/reduce/rng.rs"]
#[allow(dead_code)] // the integration tests draw only some kinds of numbers
mod rng;
mod runner;
mod slurm;
mod stopping;
mod tidy;

use std::collections::HashSet;
use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

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
    fs::write(path, format!("#!/bin/sh\n{body}\n")).expect("write script");
    make_executable(path);
    path.to_path_buf()
}

/// Sets a file's mode to 0755.
pub fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// Waits until `ready` holds; fails with `what` after `limit`.
pub fn wait_for(what: &str, limit: std::time::Duration, mut ready: impl FnMut() -> bool) {
    let waiting = std::time::Instant::now();
    while !ready() {
        assert!(waiting.elapsed() < limit, "{what} within {limit:?}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Ctrl-C to a running hdd a moment after it got going (tests in flight);
/// fails if it takes longer than `limit` to exit. Its exit status.
pub fn interrupt(
    child: &mut std::process::Child,
    limit: std::time::Duration,
) -> std::process::ExitStatus {
    std::thread::sleep(std::time::Duration::from_millis(300));
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let stopped = std::time::Instant::now();
    let status = child.wait().expect("wait");
    assert!(stopped.elapsed() < limit, "took {:?} to stop", stopped.elapsed());
    status
}

/// Runs a command, returning its output.
pub fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("run hdd")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The front-end of a language, by its `--lang` name.
pub fn frontend(lang: &str) -> Box<dyn hdd::language::Frontend> {
    hdd::language::by_name(lang)
        .unwrap_or_else(|| panic!("unknown language {lang:?}"))
        .frontend()
        .expect("front-end")
}

/// Parses `bytes` as the library does before reducing them.
pub fn parse(lang: &str, bytes: &[u8]) -> hdd::syntax::Tree {
    frontend(lang).parse(Arc::from(bytes))
}

/// Runs `f` on every item, `threads` at a time, and returns what each call
/// gave, in the items' order; a call that panics gives its panic message as
/// an error, so that one broken case does not hide the others.
pub fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<Result<R, String>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<R, String>>>> =
        Mutex::new(items.iter().map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, items.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(item) = items.get(i) else { break };
                let result = panic::catch_unwind(AssertUnwindSafe(|| f(item))).map_err(|e| {
                    e.downcast_ref::<String>()
                        .cloned()
                        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "panicked".to_string())
                });
                results.lock().expect("results")[i] = Some(result);
            });
        }
    });
    results.into_inner().expect("results").into_iter().map(|r| r.expect("every item ran")).collect()
}

/// A corpus case: `corpora/<lang>/<case>/` and what its `case.env` says.
/// `corpora/README.md` documents the keys.
#[derive(Debug, Clone)]
pub struct Case {
    /// `<lang>/<case>`, e.g. `json/mime-db-truncated`.
    pub name: String,
    /// The case's directory (`test.sh`, the input, helpers).
    pub dir: PathBuf,
    /// The directory the case is in: the `--lang` name of a one-file case,
    /// `multi` for a case whose input is a directory.
    pub lang: String,
    /// `input=`: the name of the input, in `dir`: a file, or a directory
    /// of files reduced jointly.
    pub input: String,
    /// `max_bytes=`: the most bytes the corpus test accepts in a result.
    pub max_bytes: usize,
    /// `result=`: further checks of the result.
    pub result: Vec<ResultCheck>,
    /// `ci=skip`: the corpus test does not run the case; the reason, from
    /// the comment right above the key.
    pub skip: Option<String>,
}

/// A word of `result=` in `case.env`: something the corpus test checks about
/// a case's result besides its size and its oracle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultCheck {
    /// `valid-json`: the result parses as JSON.
    ValidJson,
    /// `invalid-json`: the result does not parse as JSON.
    InvalidJson,
    /// `ends-with-quote`: the result's last byte is `"`.
    EndsWithQuote,
}

impl ResultCheck {
    /// Every check, with its word in `case.env`.
    pub const ALL: &[(&str, ResultCheck)] = &[
        ("valid-json", ResultCheck::ValidJson),
        ("invalid-json", ResultCheck::InvalidJson),
        ("ends-with-quote", ResultCheck::EndsWithQuote),
    ];

    /// The word `result=` names the check by.
    pub fn word(self) -> &'static str {
        ResultCheck::ALL.iter().find(|(_, c)| *c == self).expect("every check has a word").0
    }

    /// Whether `result` passes the check.
    pub fn holds(self, result: &[u8]) -> bool {
        let json = || serde_json::from_slice::<serde_json::Value>(result).is_ok();
        match self {
            ResultCheck::ValidJson => json(),
            ResultCheck::InvalidJson => !json(),
            ResultCheck::EndsWithQuote => result.ends_with(b"\""),
        }
    }
}

impl Case {
    /// Every corpus case (`corpora/*/*/case.env`), sorted by name.
    pub fn all() -> Vec<Case> {
        let corpora = root().join("corpora");
        let mut names = Vec::new();
        for lang in fs::read_dir(&corpora).expect("corpora") {
            let lang = lang.expect("entry").path();
            if !lang.is_dir() {
                continue;
            }
            for case in fs::read_dir(&lang).expect("language directory") {
                let case = case.expect("entry").path();
                if case.join("case.env").is_file() {
                    let rel = case.strip_prefix(&corpora).expect("under corpora");
                    names.push(rel.to_string_lossy().into_owned());
                }
            }
        }
        names.sort();
        assert!(!names.is_empty(), "no corpus cases in {}", corpora.display());
        names.iter().map(|n| Case::load(n)).collect()
    }

    /// The case `<lang>/<case>`; panics if its `case.env` is wrong or names
    /// an input that is not there.
    pub fn load(name: &str) -> Case {
        let dir = root().join("corpora").join(name);
        let env = dir.join("case.env");
        let text = fs::read_to_string(&env)
            .unwrap_or_else(|e| panic!("{name}: cannot read {}: {e}", env.display()));
        let case =
            Case::parse(name, &dir, &text).unwrap_or_else(|e| panic!("{name}: case.env: {e}"));
        assert!(case.input_path().exists(), "{name}: no input {:?}", case.input);
        case
    }

    /// Reads a `case.env`: `key=value` lines, `#` comments and blank lines.
    pub fn parse(name: &str, dir: &Path, text: &str) -> Result<Case, String> {
        let lang = name.split('/').next().filter(|l| !l.is_empty() && name.contains('/'));
        let lang = lang.ok_or_else(|| format!("{name:?} is not <lang>/<case>"))?;
        let (mut input, mut max_bytes, mut result, mut skip) = (None, None, Vec::new(), None);
        let mut seen = HashSet::new();
        let mut comment: Vec<&str> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let at = |msg: String| format!("line {}: {msg}", i + 1);
            if let Some(c) = line.strip_prefix('#') {
                comment.push(c.trim());
                continue;
            }
            let above = std::mem::take(&mut comment);
            if line.trim().is_empty() {
                continue;
            }
            let (key, value) =
                line.split_once('=').ok_or_else(|| at(format!("not key=value: {line:?}")))?;
            if value.is_empty() || value.trim() != value {
                return Err(at(format!("{key}: empty, or blanks around the value: {value:?}")));
            }
            if !seen.insert(key) {
                return Err(at(format!("{key} given twice")));
            }
            match key {
                "input" => input = Some(value.to_string()),
                "max_bytes" => {
                    let n = value.parse().map_err(|e| at(format!("max_bytes={value}: {e}")))?;
                    max_bytes = Some(n);
                }
                "result" => {
                    for word in value.split_whitespace() {
                        let check = ResultCheck::ALL.iter().find(|(w, _)| *w == word);
                        let words: Vec<&str> = ResultCheck::ALL.iter().map(|(w, _)| *w).collect();
                        let check = check.ok_or_else(|| {
                            at(format!("result: unknown check {word:?} (known: {words:?})"))
                        })?;
                        result.push(check.1);
                    }
                }
                "ci" if value == "run" => {}
                "ci" if value == "skip" => {
                    if above.is_empty() {
                        return Err(at(
                            "ci=skip needs its reason in a # comment right above".into()
                        ));
                    }
                    skip = Some(above.join(" "));
                }
                "ci" => return Err(at(format!("ci={value}: not run or skip"))),
                _ => return Err(at(format!("unknown key {key:?}"))),
            }
        }
        Ok(Case {
            name: name.to_string(),
            dir: dir.to_path_buf(),
            lang: lang.to_string(),
            input: input.ok_or("no input=")?,
            max_bytes: max_bytes.ok_or("no max_bytes=")?,
            result,
            skip,
        })
    }

    /// The input: a file, or a directory (see [`Case::is_dir`]).
    pub fn input_path(&self) -> PathBuf {
        self.dir.join(&self.input)
    }

    /// Whether the input is a directory of files reduced jointly.
    pub fn is_dir(&self) -> bool {
        self.input_path().is_dir()
    }

    /// The input's files with their languages: the input itself in the
    /// case's language, or every file under a directory input (sorted) in
    /// the language its extension selects, plain text for any other.
    pub fn files(&self) -> Vec<(PathBuf, &'static str)> {
        if !self.is_dir() {
            let lang = hdd::language::by_name(&self.lang)
                .unwrap_or_else(|| panic!("{}: no language {:?}", self.name, self.lang));
            return vec![(self.input_path(), lang.name)];
        }
        files_under(&self.input_path())
            .into_iter()
            .map(|f| (f.clone(), hdd::language::by_path(&f).map_or("text", |l| l.name)))
            .collect()
    }

    /// A directory case as a set: its files' texts, those texts joined as
    /// one candidate, and the forest's front-end that reads it.
    pub fn forest(&self) -> (Vec<Vec<u8>>, Vec<u8>, hdd::language::Forest) {
        let (texts, langs): (Vec<Vec<u8>>, Vec<_>) = self
            .files()
            .into_iter()
            .map(|(path, lang)| {
                (fs::read(path).expect("input"), hdd::language::by_name(lang).expect("lang"))
            })
            .unzip();
        let joined = hdd::syntax::join(&texts);
        let mut fe = hdd::language::Forest::new(&langs).expect("forest");
        fe.allow(&joined);
        (texts, joined, fe)
    }

    /// The oracle.
    pub fn test(&self) -> PathBuf {
        self.dir.join("test.sh")
    }

    /// Whether `bytes` are interesting to the case's oracle, run the way hdd
    /// runs it: in a fresh directory holding them under the input's name,
    /// which is also the working directory, the absolute path as the last
    /// argument.
    pub fn interesting(&self, bytes: &[u8]) -> bool {
        let work = scratch();
        let path = work.path().join(&self.input);
        fs::write(&path, bytes).expect("write candidate");
        self.oracle_says(&path, work.path())
    }

    /// Whether the directory `result` is interesting to the case's oracle,
    /// run the way hdd runs it on a directory input: on a fresh copy named
    /// like the input, which is also the working directory, its absolute
    /// path as the last argument.
    pub fn interesting_dir(&self, result: &Path) -> bool {
        let work = scratch();
        let copy = work.path().join(&self.input);
        copy_dir(result, &copy);
        self.oracle_says(&copy, &copy)
    }

    fn oracle_says(&self, arg: &Path, cwd: &Path) -> bool {
        Command::new(self.test())
            .arg(arg)
            .current_dir(cwd)
            .status()
            .unwrap_or_else(|e| panic!("{}: cannot run the oracle: {e}", self.name))
            .success()
    }
}

/// Every file under `dir`, recursively, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in fs::read_dir(&d).expect("read_dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                todo.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Copies the directory `from` to `to` (created), recursively.
pub fn copy_dir(from: &Path, to: &Path) {
    for file in files_under(from) {
        let dest = to.join(file.strip_prefix(from).expect("under from"));
        fs::create_dir_all(dest.parent().expect("a parent")).expect("mkdir");
        fs::copy(&file, &dest).expect("copy");
    }
    fs::create_dir_all(to).expect("mkdir");
}
