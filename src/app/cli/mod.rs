//! The command line: raw arguments (clap) in, a validated [`Config`] out.
//!
//! Nothing below this module sees clap types. Validation turns every mistake a
//! user can make into one clear line with exit code 2 ([`Fatal::usage`]).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, ValueEnum};

use super::config::Config;
use super::error::Fatal;
use super::naming::original_name;
use super::set::FileSet;
use super::values::{parse_duration, parse_grace};
use crate::language::{self, LangInfo};
use crate::reduce::{Algorithm, Ddmin, Order};

mod checks;

use crate::app::shown::shown;
use checks::{check_launcher, check_work_dir, formatter, resolve_test};

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
#[command(name = "hdd", version = env!("HDD_VERSION"), max_term_width = 100)]
#[command(after_help = "Exit codes: 0 done, 1 unexpected error, 2 bad usage or input, \
3 the original is not interesting, 4 flaky test, 5 --in-place file changed during the run, \
6 the result is empty (see --allow-empty), \
130 interrupted (143 SIGTERM, 129 SIGHUP; the best result so far is kept).")]
pub struct Args {
    /// The file to reduce; or a directory, or several files, to reduce
    /// jointly.
    #[arg(value_name = "FILE", required_unless_present_any = ["completions", "man"], num_args = 1..)]
    pub files: Vec<PathBuf>,

    /// The interestingness test: exits 0 when the file it gets still shows the bug.
    #[arg(
        short,
        long,
        value_name = "SCRIPT",
        required_unless_present_any = ["command", "dump_tree", "completions", "man"],
        help_heading = "Test"
    )]
    pub test: Option<PathBuf>,

    /// A shell command as the test, instead of a script: run by `sh -c`
    /// with the candidate's path as $1 (and on its stdin), e.g.
    /// --command 'gcc -c "$1" 2>&1 | grep -q "internal compiler error"'.
    #[arg(long, value_name = "CMD", conflicts_with = "test", help_heading = "Test")]
    pub command: Option<String>,

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
    /// lists the names from the registry (see `command`).
    #[arg(short, long, value_name = "LANG", help_heading = "Input and output")]
    pub lang: Option<String>,

    /// Where to write the result [default: FILE.reduced.EXT next to FILE;
    /// DIR.reduced for a directory or several files].
    #[arg(short, long, value_name = "PATH", help_heading = "Input and output")]
    pub output: Option<PathBuf>,

    /// The candidate's file name in the test's directory (of a directory or
    /// several files, their directory's name) [default: the input's; X.EXT
    /// for an input named X.reduced.EXT, so that a run on a result tests it
    /// under the original's name].
    #[arg(long, value_name = "NAME", help_heading = "Input and output")]
    pub name: Option<PathBuf>,

    /// Overwrite FILE (or DIR) with the result, after copying it to
    /// FILE.orig (DIR.orig).
    #[arg(long, conflicts_with = "output", help_heading = "Input and output")]
    pub in_place: bool,

    /// Accept an empty result (exit 0): without it, a result that is empty
    /// (or only whitespace) is written but exits with code 6, as the test
    /// then probably accepts too much.
    #[arg(long, help_heading = "Input and output")]
    pub allow_empty: bool,

    /// The reduction algorithm.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::HddPlus, help_heading = "Algorithm")]
    pub algorithm: AlgorithmArg,

    /// The ddmin variant run at each HDD level.
    #[arg(long, value_enum, default_value_t = DdminArg::Adaptive, help_heading = "Algorithm")]
    pub ddmin: DdminArg,

    /// The order in which the nodes of a level are tried [default: the
    /// language's own]. The help lists each language's (see `command`).
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
    /// its name, in one test) after HDD+'s 1-minimal phase, and the
    /// dependency-aware cuts before its HDD pass.
    #[arg(long, help_heading = "Algorithm")]
    pub no_coordinated: bool,

    /// Test ddmin's, the hoists' and the 1-minimal phase's changes in
    /// rounds against the same text, the first round cutting an HDD level
    /// into N blocks, so that many workers test at once (0: one change at a
    /// time). The result is the same for every -j with the same N. See the
    /// README's "Many workers".
    /// [default: 0 below -j 8, 16 from -j 8, 64 from -j 16]
    #[arg(long, value_name = "N", help_heading = "Algorithm")]
    pub batch: Option<usize>,

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
    /// kept if the test still passes: clang-format for C, C++ and GLSL,
    /// prettier for JavaScript and TypeScript, rustfmt for Rust, gofmt for
    /// Go (`grammars/<lang>.toml`, `format`); it must be on the PATH.
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

    /// Print a completion script for this shell and exit.
    #[arg(long, value_name = "SHELL", help_heading = "Reporting")]
    pub completions: Option<clap_complete::Shell>,

    /// Print the manual page (roff) and exit: `hdd --man > hdd.1`.
    #[arg(long, help_heading = "Reporting")]
    pub man: bool,
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
pub(crate) const MAX_JOBS: usize = 256;

/// `--batch` when the command line does not set it: one change at a time
/// below 8 workers, where it needs the fewest tests and is the fastest;
/// rounds from 8 workers on, where waves of tests cost more than tests
/// (README, "Many workers"). The width depends on bands of `-j`, not on
/// `-j` itself, so that a result is the same for every `-j` of a band.
fn batch_for(jobs: usize) -> Option<usize> {
    match jobs {
        0..=7 => None,
        8..=15 => Some(16),
        _ => Some(64),
    }
}

/// The command line, with the help texts that come from the language
/// registry: the `--lang` names and each language's default `--order`.
pub(crate) fn command() -> clap::Command {
    let lang =
        format!("The input's language: {} [default: from the file extension]", language::names());
    Args::command().mut_arg("lang", |a| a.help(lang)).mut_arg("order", |a| a.help(order_help()))
}

/// Parses the process's arguments; on a bad command line, prints clap's
/// message and exits (code 2), as `Args::parse` would.
pub fn parse() -> Args {
    Args::from_arg_matches(&command().get_matches()).unwrap_or_else(|e| e.exit())
}

/// The candidate's file name in the test's directory (of a set, its
/// directory's name): `--name`, else `own` with a `.reduced` before the
/// extension taken out (`bug.reduced.c` is tested as `bug.c`, the name the
/// test knew).
fn candidate_name(own: &OsStr, name: Option<&Path>) -> Result<OsString> {
    let Some(name) = name else { return Ok(original_name(own)) };
    let one = name.components().count() == 1 && name.file_name().is_some();
    if !one {
        return Err(Fatal::usage(format!(
            "--name {}: a file name, without a directory",
            shown(&name)
        )));
    }
    Ok(name.as_os_str().to_os_string())
}

/// A completion script for `shell`, from the command line's definition.
pub fn completions(shell: clap_complete::Shell, out: &mut dyn std::io::Write) {
    clap_complete::generate(shell, &mut command(), "hdd", out);
}

/// The manual page, in roff, from the command line's definition.
pub fn man_page(out: &mut dyn std::io::Write) -> std::io::Result<()> {
    clap_mangen::Man::new(command()).render(out)
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
                    shown(&self.file()),
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
        let (test, test_args, test_dir) = self.test_command()?;
        let input = match &set {
            Some(set) => set.root.clone(),
            None => self.one_file()?,
        };
        let output = self.output_path(&input, set.is_some());
        let jobs = self.jobs()?;
        self.check_written(&output, &input, &test, set.is_some())?;
        let (set, name) = match set {
            Some(mut set) => {
                set.name = candidate_name(&set.name, self.name.as_deref())?;
                (Some(set), None)
            }
            None => {
                let own = input.file_name().unwrap_or(OsStr::new("input"));
                (None, Some(candidate_name(own, self.name.as_deref())?))
            }
        };
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
            test_args,
            test_dir,
            name,
            timeout: self.timeout,
            // a launcher cancels remote work on SIGTERM (srun its job step)
            // and must not be killed before it has, which on a busy machine
            // takes srun longer than the default grace
            kill_grace: self.kill_grace.unwrap_or(if launcher.is_some() {
                LAUNCHER_KILL_GRACE
            } else {
                KILL_GRACE
            }),
            launcher: launcher.unwrap_or_default(),
            work_dir,
            jobs,
            algorithm: self.algorithm.into(),
            ddmin: self.ddmin.into(),
            order: self.order.map(Order::from),
            syntax_guard: !self.no_syntax_guard,
            hoist: !self.no_hoist,
            coordinated: !self.no_coordinated,
            tokens: !self.no_tokens,
            shrink: !self.no_shrink,
            layout: !self.no_layout,
            format,
            rename: !self.no_rename,
            batch: match self.batch {
                Some(0) => None,
                Some(width) => Some(width),
                None => batch_for(jobs),
            },
            max_time: self.max_time,
            progress,
            quiet: self.quiet,
            trace: self.trace.clone(),
        })
    }

    /// The test: `--test`'s script as an absolute path, or `--command`'s
    /// line run by `sh -c`; the words between it and the candidate's path;
    /// the directory the test's own files are in (`HDD_TEST_DIR`).
    fn test_command(&self) -> Result<(PathBuf, Vec<String>, PathBuf)> {
        let cwd = || {
            std::env::current_dir()
                .map_err(|e| Fatal::usage(format!("cannot read the current directory: {e}")))
        };
        if let Some(line) = &self.command {
            if line.trim().is_empty() {
                return Err(Fatal::usage("--command is empty"));
            }
            let args = vec!["-c".to_string(), line.clone(), "hdd-test".to_string()];
            return Ok((PathBuf::from("/bin/sh"), args, cwd()?));
        }
        let test = self.test.as_deref().ok_or_else(|| Fatal::usage("--test is required"))?;
        let test = resolve_test(test)?;
        let dir = test.parent().map_or_else(cwd, |d| Ok(d.to_path_buf()))?;
        Ok((test, Vec::new(), dir))
    }

    /// The one file given, which must be a regular file hdd can read.
    fn one_file(&self) -> Result<PathBuf> {
        let path = self.file();
        let file = shown(&path);
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
        Ok(self.file().to_path_buf())
    }

    /// Where the result goes: the input itself with `--in-place`, else
    /// `--output`, else beside the input (a file, or a set's directory).
    fn output_path(&self, input: &Path, set: bool) -> PathBuf {
        match (&self.output, self.in_place) {
            (_, true) => input.to_path_buf(),
            (Some(o), false) => o.clone(),
            (None, false) if set => super::output::default_dir_path(input),
            (None, false) => super::output::default_path(input),
        }
    }

    /// `--jobs`, from 1 to [`MAX_JOBS`] [default: the number of cores].
    fn jobs(&self) -> Result<usize> {
        if self.jobs == Some(0) {
            return Err(Fatal::usage("--jobs must be at least 1"));
        }
        if let Some(n) = self.jobs.filter(|&n| n > MAX_JOBS) {
            return Err(Fatal::usage(format!(
                "--jobs {n} is more than hdd runs at once (at most {MAX_JOBS}); more tests at once than cores only helps tests that wait rather than compute"
            )));
        }
        Ok(self.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())))
    }

    /// Checks the files hdd will write: the output (a set's, a directory,
    /// is written by its own rules, see `DirOutput`), `--stats-json` and
    /// `--trace`, none of them the input or the test, nor one another.
    fn check_written(&self, output: &Path, input: &Path, test: &Path, set: bool) -> Result<()> {
        super::output::check_names(output, input, self.in_place)?;
        match set {
            false => super::output::check_target(output, "the output", input, test, self.in_place)?,
            true => super::output::check_dir_target(output, self.in_place)?,
        }
        if let Some(stats) = &self.stats_json {
            super::output::check_target(stats, "the --stats-json file", input, test, false)?;
        }
        if let Some(trace) = &self.trace {
            super::output::check_target(trace, "the --trace file", input, test, false)?;
            if Some(trace) == self.stats_json.as_ref() || *trace == output {
                return Err(Fatal::usage(
                    "--trace names the same file as the output or --stats-json",
                ));
            }
        }
        Ok(())
    }
}

impl From<AlgorithmArg> for Algorithm {
    fn from(arg: AlgorithmArg) -> Algorithm {
        match arg {
            AlgorithmArg::Hdd => Algorithm::Hdd,
            AlgorithmArg::HddStar => Algorithm::HddStar,
            AlgorithmArg::HddPlus => Algorithm::HddPlus,
        }
    }
}

impl From<DdminArg> for Ddmin {
    fn from(arg: DdminArg) -> Ddmin {
        match arg {
            DdminArg::Classic => Ddmin::Classic,
            DdminArg::Adaptive => Ddmin::Adaptive,
        }
    }
}

impl From<OrderArg> for Order {
    fn from(arg: OrderArg) -> Order {
        match arg {
            OrderArg::Forward => Order::Forward,
            OrderArg::Backward => Order::Backward,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        command().debug_assert();
    }

    #[test]
    fn the_help_names_every_language_of_the_registry() {
        let help = command().render_help().to_string();
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(help.contains(&format!("language: {} [default", language::names())), "{help}");
        assert!(
            help.contains(
                "backward for c, cpp, glsl, go, java, js, llvm, python, rust, smt2, wat, solidity, ts, tsx; forward for json, sexp, xml, text"
            ),
            "{help}"
        );
    }
}
