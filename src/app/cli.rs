//! The command line: raw arguments (clap) in, a validated [`Config`] out.
//!
//! Nothing below this module sees clap types. Validation turns every mistake a
//! user can make into one clear line with exit code 2 ([`Fatal::usage`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, ValueEnum};

use super::config::Config;
use super::error::Fatal;
use super::set::FileSet;
use super::values::{parse_duration, parse_grace, split_words};
use crate::language::{self, LangInfo};
use crate::oracle;
use crate::reduce::{Algorithm, Ddmin, Order};

/// Shrink a file that makes a program misbehave into a tiny file that still
/// does, keeping every candidate shaped like the input language.
///
/// The test is a program (usually a shell script) that gets the candidate's
/// path as its last argument, runs in a private temporary directory holding the
/// candidate under the input's own file name, and exits 0 when the candidate
/// is still interesting (shows the bug). The input is never modified; the
/// result goes to FILE.reduced.EXT (see --output, --in-place).
///
/// Several files (a directory, or a list of files) are reduced jointly: the
/// test runs in a private copy of the directory (or of the files, in their
/// common parent's layout) and gets the copy's path (or the files' paths);
/// each file is reduced in the language of its extension, binary files are
/// copied as they are, a file may be emptied but never removed. The result
/// goes to DIR.reduced/.
#[derive(Parser, Debug)]
#[command(name = "hdd", version, max_term_width = 100)]
#[command(after_help = "Exit codes: 0 done, 1 unexpected error, 2 bad usage or input, \
3 the original is not interesting, 4 flaky test, 130 interrupted (143 SIGTERM, 129 SIGHUP; the best result so far is kept).")]
pub struct Args {
    /// The file to reduce; or a directory, or several files, to reduce
    /// jointly.
    #[arg(value_name = "FILE", required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,

    /// The interestingness test: exits 0 when the file it gets still shows the bug.
    #[arg(
        short,
        long,
        value_name = "SCRIPT",
        required_unless_present = "dump_tree",
        help_heading = "Test"
    )]
    pub test: Option<PathBuf>,

    /// Seconds (or 500ms, 2m, ...) one test may run before it is killed and
    /// counted as not interesting.
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = parse_duration, help_heading = "Test")]
    pub timeout: Duration,

    /// Tests to run at once, 1 to 256 [default: the number of cores].
    #[arg(short, long, value_name = "N", help_heading = "Test")]
    pub jobs: Option<usize>,

    /// How long a test that must stop (timeout, cancel, Ctrl-C) gets after
    /// SIGTERM before SIGKILL (0: SIGKILL at once) [default: 1s; 10s with
    /// --launcher].
    #[arg(long, value_name = "DURATION", value_parser = parse_grace, help_heading = "Test")]
    pub kill_grace: Option<Duration>,

    /// Run the test through this command, e.g. 'srun -Q --quit-on-interrupt -n1'
    /// (words split like a shell's; the test and the candidate follow).
    #[arg(long, value_name = "CMD", help_heading = "Test")]
    pub launcher: Option<String>,

    /// Make the tests' private directories here (with --launcher: a
    /// directory shared with the compute nodes) [default: $TMPDIR].
    #[arg(long, value_name = "DIR", help_heading = "Test")]
    pub work_dir: Option<PathBuf>,

    /// The input's language [default: from the file extension]. The help
    /// lists the names from the registry (see [`command`]).
    #[arg(short, long, value_name = "LANG", help_heading = "Input and output")]
    pub lang: Option<String>,

    /// Where to write the result [default: FILE.reduced.EXT next to FILE;
    /// DIR.reduced for a directory or several files].
    #[arg(short, long, value_name = "PATH", help_heading = "Input and output")]
    pub output: Option<PathBuf>,

    /// Overwrite FILE (or DIR) with the result, after copying it to
    /// FILE.orig (DIR.orig).
    #[arg(long, conflicts_with = "output", help_heading = "Input and output")]
    pub in_place: bool,

    /// The reduction algorithm.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::HddPlus, help_heading = "Algorithm")]
    pub algorithm: AlgorithmArg,

    /// The ddmin variant run at each HDD level.
    #[arg(long, value_enum, default_value_t = DdminArg::Adaptive, help_heading = "Algorithm")]
    pub ddmin: DdminArg,

    /// The order in which the nodes of a level are tried [default: the
    /// language's own]. The help lists each language's (see [`command`]).
    #[arg(long, value_enum, help_heading = "Algorithm")]
    pub order: Option<OrderArg>,

    /// Run the test even on candidates with more syntax errors than the input.
    #[arg(long, help_heading = "Algorithm")]
    pub no_syntax_guard: bool,

    /// Skip the hoisting pass (replacing a node by a descendant of the same
    /// class, e.g. a loop by its body): a faster, less thorough run.
    #[arg(long, help_heading = "Algorithm")]
    pub no_hoist: bool,

    /// Skip coordinated deletion (a declaration together with every use of
    /// its name, in one test) after HDD+'s 1-minimal phase.
    #[arg(long, help_heading = "Algorithm")]
    pub no_coordinated: bool,

    /// Test ddmin's, the hoists' and the 1-minimal phase's changes in
    /// rounds against the same text, the first round cutting an HDD level
    /// into N blocks, so that many workers test at once (0: one change at a
    /// time). The result is the same for every -j with the same N. See the
    /// README's "Many workers".
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = "Algorithm")]
    pub batch: usize,

    /// Skip the token pass (deleting lines and words as plain text, still
    /// under the syntax guard) that follows the tree's passes.
    #[arg(long, help_heading = "Algorithm")]
    pub no_tokens: bool,

    /// Skip the shrinking pass (deleting characters of string literals, XML
    /// text and attribute values, one by one).
    #[arg(long, help_heading = "Algorithm")]
    pub no_shrink: bool,

    /// Leave the result's whitespace as the deletions left it (by default
    /// the last candidate lays it out again: indentation by block, no blank
    /// lines, statements on one line; kept if the test still passes).
    #[arg(long, help_heading = "Algorithm")]
    pub no_layout: bool,

    /// Run the language's formatter on the result as one more candidate,
    /// kept if the test still passes: clang-format for C and C++, prettier
    /// for JavaScript (grammars/<lang>.toml, `format`); it must be on the
    /// PATH.
    #[arg(long, help_heading = "Algorithm")]
    pub format: bool,

    /// Keep the names the result declares (by default each is renamed to
    /// the shortest name the text does not use, `a`, `b`, ..., one name per
    /// test, kept if the test still passes).
    #[arg(long, help_heading = "Algorithm")]
    pub no_rename: bool,

    /// Stop after this long (e.g. 90s, 10m, 1h) and keep the best result so far.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, help_heading = "Algorithm")]
    pub max_time: Option<Duration>,

    /// Print nothing but errors.
    #[arg(short, long, conflicts_with = "progress", help_heading = "Reporting")]
    pub quiet: bool,

    /// Draw the progress line even when stderr is not a terminal.
    #[arg(long, help_heading = "Reporting")]
    pub progress: bool,

    /// Write the run's figures as JSON to this file.
    #[arg(long, value_name = "PATH", help_heading = "Reporting")]
    pub stats_json: Option<PathBuf>,

    /// Write one JSON line per answered candidate to this file, as the run
    /// goes: when, in which phase and step, how it was answered, and
    /// whether the search used the answer (see the README).
    #[arg(long, value_name = "PATH", help_heading = "Reporting")]
    pub trace: Option<PathBuf>,

    /// Print the parsed tree (kinds, spans, what may be deleted) and exit.
    #[arg(long, help_heading = "Reporting")]
    pub dump_tree: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AlgorithmArg {
    /// One HDD pass.
    Hdd,
    /// HDD repeated until a pass removes nothing.
    HddStar,
    /// HDD, then removing single nodes until none can go (1-tree-minimal).
    HddPlus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    /// In source order.
    Forward,
    /// Last first (uses go before what they use).
    Backward,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DdminArg {
    /// Blocks of n/2, n/4, ... 1.
    Classic,
    /// The largest deletable block at each index, found by probing.
    Adaptive,
}

/// The most tests hdd runs at once (`--jobs`).
pub const MAX_JOBS: usize = 256;

/// The command line, with the help texts that come from the language
/// registry: the `--lang` names and each language's default `--order`.
pub fn command() -> clap::Command {
    let lang =
        format!("The input's language: {} [default: from the file extension]", language::names());
    Args::command().mut_arg("lang", |a| a.help(lang)).mut_arg("order", |a| a.help(order_help()))
}

/// Parses the process's arguments; on a bad command line, prints clap's
/// message and exits (code 2), as `Args::parse` would.
pub fn parse() -> Args {
    Args::from_arg_matches(&command().get_matches()).unwrap_or_else(|e| e.exit())
}

/// "... [default: backward for c, js; forward for json, xml, text]", from
/// each language's grammar data.
fn order_help() -> String {
    let (mut forward, mut backward) = (Vec::new(), Vec::new());
    for info in language::LANGUAGES {
        let data = language::grammar::GrammarData::parse(info.grammar.0, info.grammar.1);
        match data.map(|d| d.order) {
            Ok(language::OrderData::Backward) => backward.push(info.name),
            _ => forward.push(info.name),
        }
    }
    let mut parts = Vec::new();
    for (order, names) in [("backward", backward), ("forward", forward)] {
        if !names.is_empty() {
            parts.push(format!("{order} for {}", names.join(", ")));
        }
    }
    format!("The order in which the nodes of a level are tried [default: {}]", parts.join("; "))
}

/// `--kill-grace` by default.
const KILL_GRACE: Duration = Duration::from_secs(1);

/// `--kill-grace` by default with `--launcher`.
const LAUNCHER_KILL_GRACE: Duration = Duration::from_secs(10);

/// `--launcher`: its words; the first must be a program hdd can run.
fn check_launcher(cmd: &str) -> Result<Vec<String>> {
    let bad = |why: String| Fatal::usage(format!("--launcher {cmd:?}: {why}"));
    let words = split_words(cmd).map_err(bad)?;
    let Some(first) = words.first() else {
        return Err(bad("no command given".into()));
    };
    runnable(first).map_err(bad)?;
    Ok(words)
}

/// `--format`: the language's formatter (grammar data `format`) for the
/// file `input`, its program on PATH.
fn formatter(lang: &LangInfo, input: &Path, set: bool) -> Result<Vec<String>> {
    if set {
        return Err(Fatal::usage("--format takes one file"));
    }
    let words = lang.formatter()?;
    let Some(first) = words.first() else {
        return Err(Fatal::usage(format!("--format: hdd knows no formatter for {}", lang.name)));
    };
    runnable(first).map_err(|why| Fatal::usage(format!("--format: {why}")))?;
    let name = input.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
    Ok(words.iter().map(|w| w.replace("{name}", &name)).collect())
}

/// Whether `program` (a path, or a name looked up on PATH) is an
/// executable file; else why not.
fn runnable(program: &str) -> std::result::Result<(), String> {
    let path = Path::new(program);
    let found = if program.contains('/') {
        path.is_file().then(|| path.to_path_buf())
    } else {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths).map(|d| d.join(program)).find(|p| p.is_file())
        })
    };
    match found {
        None if program.contains('/') => Err(format!("{program} does not exist")),
        None => Err(format!("{program} is not on PATH")),
        Some(p) if !executable(&p) => Err(format!("{} is not executable", p.display())),
        Some(_) => Ok(()),
    }
}

/// `--work-dir`: an existing directory hdd may write into, made absolute
/// (however long: the session directory is reached through a descriptor
/// when it must, see `oracle::scratch`).
fn check_work_dir(dir: &Path) -> Result<PathBuf> {
    let bad = |why: &str| Fatal::usage(format!("--work-dir {}: {why}", dir.display()));
    let here = oracle::dir::reach(dir).map_err(|e| bad(&e.to_string()))?;
    let meta = std::fs::metadata(&*here).map_err(|e| bad(&e.to_string()))?;
    if !meta.is_dir() {
        return Err(bad("not a directory"));
    }
    let c = std::ffi::CString::new(here.as_os_str().as_encoded_bytes())
        .map_err(|_| bad("a path with a NUL byte"))?;
    // SAFETY: a valid NUL-terminated path and plain flags.
    if unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) } != 0 {
        return Err(bad("not writable"));
    }
    std::path::absolute(dir).map_err(|e| bad(&e.to_string()))
}

fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

impl Args {
    /// The one file given (the first, when several are).
    pub fn file(&self) -> &Path {
        &self.files[0]
    }

    /// The set of files to reduce jointly, when a directory or several
    /// files are given.
    fn file_set(&self) -> Result<Option<FileSet>> {
        let set = match &self.files[..] {
            [one] if one.is_dir() => FileSet::of_dir(one)?,
            [_] => return Ok(None),
            many => FileSet::of_files(many)?,
        };
        if self.lang.is_some() {
            return Err(Fatal::usage(
                "--lang takes one file; the files of a set get their languages from their extensions",
            ));
        }
        if self.in_place && !set.is_dir {
            return Err(Fatal::usage(
                "--in-place takes one file or a directory, not several files; use --output",
            ));
        }
        Ok(Some(set))
    }

    /// The language: `--lang`, else the file extension.
    pub fn language(&self) -> Result<&'static LangInfo> {
        match &self.lang {
            Some(name) => language::by_name(name).ok_or_else(|| {
                Fatal::usage(format!("unknown language {name:?}; hdd knows {}", language::names()))
            }),
            None => language::by_path(self.file()).ok_or_else(|| {
                Fatal::usage(format!(
                    "cannot tell the language of {} from its extension; pass --lang ({})",
                    self.file().display(),
                    language::names()
                ))
            }),
        }
    }

    /// Checks everything and builds the [`Config`].
    pub fn into_config(self) -> Result<Config> {
        let set = self.file_set()?;
        let lang = match &set {
            Some(set) => set.files[0].1,
            None => self.language()?,
        };
        let test = self.test.as_deref().ok_or_else(|| Fatal::usage("--test is required"))?;
        let test = resolve_test(test)?;
        let input = match &set {
            Some(set) => set.root.clone(),
            None => {
                let file = self.file().display();
                match std::fs::metadata(self.file()) {
                    Ok(meta) if meta.is_file() => {}
                    Ok(_) => {
                        return Err(Fatal::usage(format!(
                            "{file} is not a regular file (a FIFO or a device?); copy it into a file first"
                        )));
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        return Err(Fatal::usage(format!("cannot read {file}: no such file")));
                    }
                    Err(e) => return Err(Fatal::usage(format!("cannot read {file}: {e}"))),
                }
                self.file().to_path_buf()
            }
        };
        let output = match (&self.output, self.in_place) {
            (_, true) => input.clone(),
            (Some(o), false) => o.clone(),
            (None, false) if set.is_some() => super::output::default_dir_path(&input),
            (None, false) => super::output::default_path(&input),
        };
        if self.jobs == Some(0) {
            return Err(Fatal::usage("--jobs must be at least 1"));
        }
        if let Some(n) = self.jobs.filter(|&n| n > MAX_JOBS) {
            return Err(Fatal::usage(format!(
                "--jobs {n} is more than hdd runs at once (at most {MAX_JOBS}); more tests at once than cores only helps tests that wait rather than compute"
            )));
        }
        // a set's output is a directory, written by its own rules (DirOutput)
        if set.is_none() {
            super::output::check_target(&output, "the output", &input, &test, self.in_place)?;
        }
        if let Some(stats) = &self.stats_json {
            super::output::check_target(stats, "the --stats-json file", &input, &test, false)?;
        }
        if let Some(trace) = &self.trace {
            super::output::check_target(trace, "the --trace file", &input, &test, false)?;
            if Some(trace) == self.stats_json.as_ref() || *trace == output {
                return Err(Fatal::usage(
                    "--trace names the same file as the output or --stats-json",
                ));
            }
        }
        let jobs = self
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let format = if self.format { Some(formatter(lang, &input, set.is_some())?) } else { None };
        let launcher = self.launcher.as_deref().map(check_launcher).transpose()?;
        let work_dir = self.work_dir.as_deref().map(check_work_dir).transpose()?;
        let progress =
            !self.quiet && (self.progress || std::io::IsTerminal::is_terminal(&std::io::stderr()));
        Ok(Config {
            input,
            set,
            output,
            in_place: self.in_place,
            lang,
            test,
            timeout: self.timeout,
            // a launcher cancels remote work on SIGTERM (srun its job step)
            // and must not be killed before it has: on a busy machine that
            // took srun over a second (a step left running in CI)
            kill_grace: self.kill_grace.unwrap_or(if launcher.is_some() {
                LAUNCHER_KILL_GRACE
            } else {
                KILL_GRACE
            }),
            launcher: launcher.unwrap_or_default(),
            work_dir,
            jobs,
            algorithm: match self.algorithm {
                AlgorithmArg::Hdd => Algorithm::Hdd,
                AlgorithmArg::HddStar => Algorithm::HddStar,
                AlgorithmArg::HddPlus => Algorithm::HddPlus,
            },
            ddmin: match self.ddmin {
                DdminArg::Classic => Ddmin::Classic,
                DdminArg::Adaptive => Ddmin::Adaptive,
            },
            order: self.order.map(|o| match o {
                OrderArg::Forward => Order::Forward,
                OrderArg::Backward => Order::Backward,
            }),
            syntax_guard: !self.no_syntax_guard,
            hoist: !self.no_hoist,
            coordinated: !self.no_coordinated,
            tokens: !self.no_tokens,
            shrink: !self.no_shrink,
            layout: !self.no_layout,
            format,
            rename: !self.no_rename,
            batch: (self.batch > 0).then_some(self.batch),
            max_time: self.max_time,
            progress,
            quiet: self.quiet,
            trace: self.trace.clone(),
        })
    }
}

/// The test as an absolute path: a path with a `/` (or a file in the current
/// directory) as given, else a command found on `PATH`. It must be an
/// executable file.
fn resolve_test(test: &Path) -> Result<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let found = if test.components().count() > 1 || test.exists() {
        Some(test.to_path_buf())
    } else {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths).map(|d| d.join(test)).find(|p| p.is_file())
        })
    };
    let Some(path) = found.filter(|p| p.exists()) else {
        return Err(Fatal::usage(format!("the test {} does not exist", test.display())));
    };
    let meta = std::fs::metadata(&path)
        .map_err(|e| Fatal::usage(format!("cannot use the test {}: {e}", path.display())))?;
    if !meta.is_file() {
        return Err(Fatal::usage(format!("the test {} is not a file", path.display())));
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Err(Fatal::usage(format!(
            "the test {} is not executable (chmod +x {})",
            path.display(),
            path.display()
        )));
    }
    let absolute = std::path::absolute(&path)
        .map_err(|e| Fatal::usage(format!("cannot resolve the test {}: {e}", path.display())))?;
    if absolute.as_os_str().len() < libc::PATH_MAX as usize {
        return Ok(absolute);
    }
    through_dir_fd(&path)
}

/// A test whose absolute path is too long to run (deeper than `PATH_MAX`):
/// reached through a descriptor of its directory, `/proc/self/fd/N/NAME`,
/// which every test process inherits. The descriptor stays open for the
/// whole run (hdd is one run per process).
fn through_dir_fd(path: &Path) -> Result<PathBuf> {
    let cannot = |e: std::io::Error| {
        Fatal::usage(format!("cannot reach the test {} by a shorter path: {e}", path.display()))
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path.file_name().ok_or_else(|| cannot(std::io::ErrorKind::InvalidInput.into()))?;
    let dir = oracle::dir::Dir::open(dir).and_then(oracle::dir::Dir::inherited).map_err(cannot)?;
    Ok(dir.leak().join(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_with_and_without_units() {
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert!(parse_duration("0").is_err());
        assert!(parse_duration("ten").is_err());
        assert!(parse_duration("5d").is_err());
    }

    #[test]
    fn launcher_words_split_like_a_shell() {
        let w = |s: &str| split_words(s);
        assert_eq!(w("srun -Q  -n1").unwrap(), ["srun", "-Q", "-n1"]);
        assert_eq!(w("a 'b c' \"d \\\" e\" f\\ g ''").unwrap(), ["a", "b c", "d \" e", "f g", ""]);
        assert_eq!(w("x'y'\"z\"").unwrap(), ["xyz"]);
        assert!(w("'open").is_err() && w("\"open").is_err() && w("end\\").is_err());
        assert!(w("  ").unwrap().is_empty());
        assert_eq!(parse_grace("0"), Ok(Duration::ZERO));
        assert_eq!(parse_grace("0s"), Ok(Duration::ZERO));
        assert_eq!(parse_grace("250ms"), Ok(Duration::from_millis(250)));
    }

    #[test]
    fn the_command_line_is_consistent() {
        command().debug_assert();
    }

    #[test]
    fn the_help_names_every_language_of_the_registry() {
        let help = command().render_help().to_string();
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(help.contains(&format!("language: {} [default", language::names())), "{help}");
        assert!(help.contains("backward for c, cpp, js; forward for json, xml, text"), "{help}");
    }
}
