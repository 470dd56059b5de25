//! The command line: raw arguments (clap) in, a validated [`Config`] out.
//!
//! Nothing below this module sees clap types. Validation turns every mistake a
//! user can make into one clear line with exit code 2 ([`Fatal::usage`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use clap::{Parser, ValueEnum};

use super::config::Config;
use super::error::Fatal;
use crate::language::{self, LangInfo};
use crate::reduce::{Algorithm, Ddmin, Order};

/// Shrink a file that makes a program misbehave into a tiny file that still
/// does, keeping every candidate shaped like the input language.
///
/// The test is a program (usually a shell script) that gets the candidate's
/// path as its last argument, runs in a private temporary directory holding the
/// candidate under the input's own file name, and exits 0 when the candidate
/// is still interesting (shows the bug). The input is never modified; the
/// result goes to FILE.reduced.EXT (see --output, --in-place).
#[derive(Parser, Debug)]
#[command(name = "hdd", version, max_term_width = 100)]
#[command(after_help = "Exit codes: 0 done, 1 unexpected error, 2 bad usage or input, \
3 the original is not interesting, 4 flaky test, 130 interrupted (the best result so far is kept).")]
pub struct Args {
    /// The file to reduce.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

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

    /// Tests to run at once [default: the number of cores].
    #[arg(short, long, value_name = "N", help_heading = "Test")]
    pub jobs: Option<usize>,

    /// The input's language [default: from the file extension].
    #[arg(short, long, value_name = "LANG", help_heading = "Input and output")]
    pub lang: Option<String>,

    /// Where to write the result [default: FILE.reduced.EXT next to FILE].
    #[arg(short, long, value_name = "PATH", help_heading = "Input and output")]
    pub output: Option<PathBuf>,

    /// Overwrite FILE with the result, after copying it to FILE.orig.
    #[arg(long, conflicts_with = "output", help_heading = "Input and output")]
    pub in_place: bool,

    /// The reduction algorithm.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::HddPlus, help_heading = "Algorithm")]
    pub algorithm: AlgorithmArg,

    /// The ddmin variant run at each HDD level.
    #[arg(long, value_enum, default_value_t = DdminArg::Adaptive, help_heading = "Algorithm")]
    pub ddmin: DdminArg,

    /// The order in which the nodes of a level are tried [default: backward
    /// for C and JavaScript, forward for JSON and XML].
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

    /// Skip the token pass that malformed input gets (deleting lines and
    /// words as plain text, still under the syntax guard).
    #[arg(long, help_heading = "Algorithm")]
    pub no_tokens: bool,

    /// Skip the shrinking pass (deleting characters of string literals, XML
    /// text and attribute values, one by one).
    #[arg(long, help_heading = "Algorithm")]
    pub no_shrink: bool,

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

/// Parses "90", "90s", "1.5s", "500ms", "10m", "2h".
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let split = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let value: f64 =
        num.parse().map_err(|_| format!("not a duration: {s:?} (try 30s, 500ms, 10m)"))?;
    let scale = match unit.trim() {
        "" | "s" => 1.0,
        "ms" => 0.001,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        other => return Err(format!("unknown unit {other:?} in {s:?} (use ms, s, m or h)")),
    };
    let secs = value * scale;
    if !(secs > 0.0 && secs.is_finite()) {
        return Err(format!("a duration must be positive: {s:?}"));
    }
    Ok(Duration::from_secs_f64(secs))
}

impl Args {
    /// The language: `--lang`, else the file extension.
    pub fn language(&self) -> Result<&'static LangInfo> {
        match &self.lang {
            Some(name) => language::by_name(name).ok_or_else(|| {
                Fatal::usage(format!("unknown language {name:?}; hdd knows {}", language::names()))
            }),
            None => language::by_path(&self.file).ok_or_else(|| {
                Fatal::usage(format!(
                    "cannot tell the language of {} from its extension; pass --lang ({})",
                    self.file.display(),
                    language::names()
                ))
            }),
        }
    }

    /// Checks everything and builds the [`Config`].
    pub fn into_config(self) -> Result<Config> {
        let lang = self.language()?;
        let test = self.test.as_deref().ok_or_else(|| Fatal::usage("--test is required"))?;
        let test = resolve_test(test)?;
        if !self.file.is_file() {
            return Err(Fatal::usage(format!("cannot read {}: no such file", self.file.display())));
        }
        let output = match (&self.output, self.in_place) {
            (_, true) => self.file.clone(),
            (Some(o), false) => o.clone(),
            (None, false) => super::output::default_path(&self.file),
        };
        if self.jobs == Some(0) {
            return Err(Fatal::usage("--jobs must be at least 1"));
        }
        let jobs = self
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let progress =
            !self.quiet && (self.progress || std::io::IsTerminal::is_terminal(&std::io::stderr()));
        Ok(Config {
            input: self.file,
            output,
            in_place: self.in_place,
            lang,
            test,
            timeout: self.timeout,
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
            max_time: self.max_time,
            progress,
            quiet: self.quiet,
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
    std::path::absolute(&path)
        .map_err(|e| Fatal::usage(format!("cannot resolve the test {}: {e}", path.display())))
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
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        Args::command().debug_assert();
    }
}
