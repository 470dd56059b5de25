//! One reduction from start to end: check the input, check the test, run the
//! passes, re-check the result.
//!
//! The passes: the algorithm (HDD, HDD* or HDD+, see [`Algorithm`]) with
//! hoisting until hoisting finds nothing; for malformed input, lines and
//! words as plain text; then shrinking strings character by character.
//! Before each pass the current best text is parsed again, so every pass
//! works on a tree that matches the text (after replacements and hoists) and
//! that gets smaller as it does.

use std::collections::HashSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::error::{exit, Fatal};
use crate::frontend::{self, chars, Frontend, LangInfo};
use crate::mask::Mask;
use crate::oracle::runner::{Outcome, Runner, Stop};
use crate::oracle::{Evaluator, Guard, Settings};
use crate::output::Output;
use crate::progress::Progress;
use crate::reduce::hdd::Algorithm;
use crate::reduce::{self, Ddmin, Hdd, Hoist, OneMinimal, Order, Search, Target, Units};
use crate::stats::Stats;
use crate::tree::{NodeId, Tree};

/// A validated reduction request (built by [`crate::cli`]).
#[derive(Debug, Clone)]
pub struct Config {
    pub input: PathBuf,
    pub output: PathBuf,
    pub in_place: bool,
    pub lang: &'static LangInfo,
    /// Absolute path of the test.
    pub test: PathBuf,
    pub timeout: Duration,
    pub jobs: usize,
    pub algorithm: Algorithm,
    pub ddmin: Ddmin,
    /// `None`: the language's own default (grammar data `order`).
    pub order: Option<Order>,
    pub syntax_guard: bool,
    /// Run the hoisting pass along with the algorithm (see the session's passes).
    pub hoist: bool,
    /// Run the token pass (lines and words as plain text) on malformed input.
    pub tokens: bool,
    /// Run the shrinking pass (characters of strings) at the end.
    pub shrink: bool,
    pub max_time: Option<Duration>,
    /// Draw the progress line.
    pub progress: bool,
    /// Print nothing but errors.
    pub quiet: bool,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The algorithm finished.
    Finished,
    /// `--max-time` ran out.
    TimeUp,
    /// A signal (Ctrl-C) stopped it.
    Signal(i32),
}

/// What a run did, for the summary.
#[derive(Debug)]
pub struct Summary {
    pub stats: Stats,
    pub ended: Ended,
    /// The test did not find the result interesting on re-check.
    pub flaky: bool,
    pub output: PathBuf,
    /// The result is empty or only whitespace.
    pub trivial: bool,
}

impl Summary {
    /// The exit code `main` should use.
    pub fn exit_code(&self) -> u8 {
        match self.ended {
            Ended::Signal(s) => (128 + s).clamp(0, 255) as u8,
            _ if self.flaky => exit::FLAKY,
            _ => exit::OK,
        }
    }
}

/// Reads the input, refusing what cannot be reduced.
pub fn read_input(path: &Path) -> Result<Vec<u8>> {
    let bytes = std::fs::read(path)
        .map_err(|e| Fatal::usage(format!("cannot read {}: {e}", path.display())))?;
    if bytes.is_empty() {
        return Err(Fatal::usage(format!(
            "{} is empty: there is nothing to reduce",
            path.display()
        )));
    }
    if bytes.contains(&0) {
        return Err(Fatal::usage(format!(
            "{} looks binary (it contains NUL bytes); hdd reduces text formats",
            path.display()
        )));
    }
    Ok(bytes)
}

/// Runs one reduction.
pub fn reduce(config: &Config, stop: Arc<Stop>) -> Result<Summary> {
    let input = read_input(&config.input)?;
    let frontend = config.lang.frontend()?;
    let file_name: OsString =
        config.input.file_name().map(|n| n.to_os_string()).unwrap_or_else(|| "input".into());
    let runner = Runner::new(config.test.clone(), file_name, config.timeout, stop.clone())?;
    let progress = Progress::new(config.progress, config.quiet);
    progress.println(&format!(
        "hdd: checking that {} finds {} interesting",
        config.test.display(),
        config.input.display()
    ));
    check_original(&runner, config, &input)?;

    let output = Output::prepare(&config.input, &config.output, config.in_place)?;
    if !config.in_place {
        output.write(&input)?;
    }
    let started = Instant::now();
    let tree = Arc::new(frontend.parse(Arc::from(input.as_slice())));
    let guard =
        config.syntax_guard.then(|| Guard { frontend: &*frontend, allowed: tree.error_count() });
    let settings = Settings {
        guard,
        jobs: config.jobs,
        deadline: config.max_time.map(|t| started + t),
        progress,
    };
    let mut ev =
        Evaluator::new(&runner, settings, tree.clone(), Box::new(|b: &[u8]| output.write(b)));
    passes(config, &*frontend, tree, &mut ev);
    ev.progress().clear();
    if let Some(e) = ev.take_error() {
        return Err(e);
    }

    let best = ev.best().clone();
    let ended = match (stop.signal(), stop.is_time_up()) {
        (Some(s), _) => Ended::Signal(s),
        (None, true) => Ended::TimeUp,
        (None, false) => Ended::Finished,
    };
    // every result is re-checked: a flaky test is reported, not trusted
    let flaky = if ended == Ended::Finished && *best != *input {
        let report = runner.run(&best, false, None)?;
        report.outcome != Outcome::Interesting && report.outcome != Outcome::Cancelled
    } else {
        false
    };
    let mut stats = ev.stats();
    stats.final_bytes = best.len() as u64;
    stats.finish();
    Ok(Summary {
        stats,
        ended,
        flaky,
        output: output.path().to_path_buf(),
        trivial: best.iter().all(u8::is_ascii_whitespace),
    })
}

/// Runs the test on the original; an uninteresting original is an error with
/// a way to check the test by hand.
fn check_original(runner: &Runner, config: &Config, input: &[u8]) -> Result<()> {
    let report = runner.run(input, true, None)?;
    if report.outcome == Outcome::Interesting {
        return Ok(());
    }
    if report.outcome == Outcome::Cancelled {
        return Err(anyhow::Error::new(Fatal {
            code: exit::INTERRUPTED,
            message: "interrupted while checking the original input".into(),
        }));
    }
    let input_abs = std::fs::canonicalize(&config.input).unwrap_or_else(|_| config.input.clone());
    let name =
        config.input.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut msg = format!(
        "the test does not find the original input interesting: {} {} on {} (interesting means exit code 0)",
        config.test.display(),
        match report.outcome {
            Outcome::Timeout => format!("timed out after {:?} (see --timeout)", config.timeout),
            o => format!("gave {o}"),
        },
        config.input.display(),
    );
    msg.push_str(&format!(
        "\n  check it by hand: (d=$(mktemp -d) && cp {} \"$d/{}\" && cd \"$d\" && {} \"$d/{}\"; echo \"exit code $?\")",
        shell_quote(&input_abs.to_string_lossy()),
        name,
        shell_quote(&config.test.to_string_lossy()),
        name,
    ));
    if let Some(out) = report.output.filter(|o| !o.is_empty()) {
        let text = String::from_utf8_lossy(&out);
        let lines: Vec<&str> = text.lines().collect();
        msg.push_str(&format!("\n  the test printed (last {} lines):", lines.len().min(10)));
        for line in &lines[lines.len().saturating_sub(10)..] {
            msg.push_str("\n  | ");
            msg.push_str(line);
        }
    }
    Err(Fatal::not_interesting(msg))
}

/// Quotes a string for a POSIX shell when it needs it.
fn shell_quote(s: &str) -> String {
    if s.bytes().all(|c| c.is_ascii_alphanumeric() || b"/._-+=:,@".contains(&c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// Runs the configured algorithm's passes until done or stopped: the
/// algorithm with hoisting (unless `--no-hoist`; see [`Passes::hdd_plus`]
/// and [`Passes::hdd_then_hoist`]); then, for malformed input (unless
/// `--no-tokens`), deleting lines and words as plain text; then (unless
/// `--no-shrink`) deleting characters of strings and text.
fn passes(config: &Config, frontend: &dyn Frontend, tree: Arc<Tree>, ev: &mut Evaluator<'_>) {
    let malformed = tree.error_count() > 0;
    let mut p = Passes { config, frontend, ev, tree, failed_hoists: HashSet::new() };
    let structure = match config.algorithm {
        Algorithm::HddPlus => p.hdd_plus(),
        Algorithm::Hdd | Algorithm::HddStar => p.hdd_then_hoist(),
    };
    if structure.is_err() {
        return;
    }
    if config.tokens && malformed && p.tokens().is_err() {
        return;
    }
    if config.shrink {
        let _ = p.shrink();
    }
}

/// The run was stopped (interrupt, `--max-time`, I/O error).
struct Stopped;

struct Passes<'c, 'e, 'a> {
    config: &'c Config,
    frontend: &'c dyn Frontend,
    ev: &'e mut Evaluator<'a>,
    /// A parse of the current best.
    tree: Arc<Tree>,
    /// The hoists that failed so far (see [`hoist_key`]).
    failed_hoists: HashSet<u128>,
}

impl Passes<'_, '_, '_> {
    /// The order of units within a level: `--order`, else the language's.
    fn order(&self) -> Order {
        self.config.order.unwrap_or(self.tree.info().order)
    }

    /// HDD+ with hoisting: one HDD pass that also hoists the nodes of each
    /// level with one or two targets (see [`Hdd::hoisting`]), then hoisting
    /// and the 1-minimality phase in turn until hoisting finds nothing. The
    /// hoists that failed during HDD are not tried again while what they
    /// delete reads the same. Hoisting comes before the single removals, not
    /// after them: a hoist changes the tree, so 1-minimality reached before
    /// it would have to be checked again (on the corpus this saves an HDD
    /// pass and a 1-minimal pass per hoisting round). When the last hoisting
    /// round finds nothing, the 1-minimal pass after it is answered from the
    /// cache.
    fn hdd_plus(&mut self) -> Result<(), Stopped> {
        let order = self.order();
        let mut hdd = Hdd::single_pass(self.config.ddmin, order);
        if self.config.hoist {
            hdd = hdd.hoisting();
        }
        self.reparse();
        let tree = self.tree.clone();
        self.drive(&tree, &Units::new(&tree), &mut hdd, "hdd")?;
        self.remember_failed_hoists(&tree, hdd.failed_hoists());
        loop {
            let hoisted = if self.config.hoist { self.hoist()? } else { 0 };
            while self.run(OneMinimal::new(order), "1-minimal")? > 0 {}
            if hoisted == 0 {
                return Ok(());
            }
        }
    }

    /// HDD or HDD*, then hoisting and the algorithm again while hoisting
    /// finds something.
    fn hdd_then_hoist(&mut self) -> Result<(), Stopped> {
        let (ddmin, order) = (self.config.ddmin, self.order());
        let star = self.config.algorithm == Algorithm::HddStar;
        loop {
            while self.run(Hdd::new(ddmin, order), "hdd")? > 0 && star {}
            if !self.config.hoist || self.hoist()? == 0 {
                return Ok(());
            }
        }
    }

    /// Runs one search over a fresh parse of the current best; returns the
    /// number of interesting candidates it committed.
    fn run<S: Search>(&mut self, search: S, phase: &str) -> Result<usize, Stopped> {
        self.reparse();
        let tree = self.tree.clone();
        self.run_on(&tree, search, phase)
    }

    /// One round of hoisting. A hoist that failed in an earlier round is not
    /// tried again while what it deletes reads the same, so the rounds
    /// after the first (for what the 1-minimal phase's removals made
    /// possible) test only hoists whose text changed.
    fn hoist(&mut self) -> Result<usize, Stopped> {
        self.reparse();
        let tree = self.tree.clone();
        let units = Units::new(&tree);
        // nothing failed yet (`--algorithm hdd`, or HDD+ without early
        // hoists): nothing to skip, no need to hash every hoist
        let skip = if self.failed_hoists.is_empty() {
            HashSet::new()
        } else {
            (0..units.hoistable_count())
                .filter_map(|i| units.hoistable(i))
                .flat_map(|(node, targets)| targets.iter().map(move |&to| (node, to)))
                .filter(|&(node, to)| self.failed_hoists.contains(&hoist_key(&tree, node, to)))
                .collect()
        };
        let mut search = Hoist::skipping(skip);
        let hoisted = self.drive(&tree, &units, &mut search, "hoist")?;
        self.remember_failed_hoists(&tree, search.failed());
        Ok(hoisted)
    }

    /// Adds hoists that were not interesting to those not to try again.
    fn remember_failed_hoists<'f>(
        &mut self,
        tree: &Tree,
        failed: impl IntoIterator<Item = &'f (NodeId, Target)>,
    ) {
        let keys = failed.into_iter().map(|&(node, to)| hoist_key(tree, node, to));
        self.failed_hoists.extend(keys);
    }

    /// The shrinking pass: adaptive ddmin over the characters of strings.
    fn shrink(&mut self) -> Result<usize, Stopped> {
        self.reparse();
        let Some(view) = chars::view(&self.tree) else { return Ok(0) };
        let view = Arc::new(view);
        self.ev.set_tree(view.clone());
        self.run_on(&view, Hdd::new(Ddmin::Adaptive, Order::Forward), "shrink")
    }

    /// The token pass, for malformed input: ddmin over the lines and words of
    /// the text, which can cut through the broken structure a tree keeps
    /// whole; the syntax guard still keeps the errors from growing.
    fn tokens(&mut self) -> Result<usize, Stopped> {
        let Some(Ok(text)) = frontend::by_name("text").map(LangInfo::frontend) else {
            return Ok(0);
        };
        let tree = Arc::new(text.parse(self.ev.best().clone()));
        self.ev.set_tree(tree.clone());
        let order = tree.info().order;
        self.run_on(&tree, Hdd::single_pass(Ddmin::Adaptive, order), "tokens")
    }

    /// Makes `self.tree` a parse of the current best.
    fn reparse(&mut self) {
        if *self.tree.src() != **self.ev.best() {
            self.tree = Arc::new(self.frontend.parse(self.ev.best().clone()));
        }
        self.ev.set_tree(self.tree.clone());
    }

    fn run_on<S: Search>(
        &mut self,
        tree: &Tree,
        mut search: S,
        phase: &str,
    ) -> Result<usize, Stopped> {
        self.drive(tree, &Units::new(tree), &mut search, phase)
    }

    /// [`Passes::run_on`] with the units at hand, leaving `search` as it ended.
    fn drive<S: Search>(
        &mut self,
        tree: &Tree,
        units: &Units,
        search: &mut S,
        phase: &str,
    ) -> Result<usize, Stopped> {
        let stats = self.ev.stats_mut();
        stats.set_phase(phase);
        stats.passes += 1;
        let mut mask = Mask::new(tree.len());
        let outcome = reduce::drive(search, units, &mut mask, self.ev);
        if outcome.stopped {
            Err(Stopped)
        } else {
            Ok(outcome.successes)
        }
    }
}

/// What tells a hoist apart across parses of changing text: the kinds of the
/// node and of its target, and what the hoist deletes (the node's text
/// before and after the target). Changes inside the target do not make a
/// failed hoist worth another test: it would delete the same text.
fn hoist_key(tree: &Tree, node: NodeId, to: Target) -> u128 {
    let n = tree.node(node);
    let (first, last) = (tree.node(to.first), tree.node(to.last));
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(&n.kind.to_le_bytes());
    h.update(&first.kind.to_le_bytes());
    h.update(&last.kind.to_le_bytes());
    let src = tree.src();
    let before = &src[n.start as usize..first.start as usize];
    h.update(&(before.len() as u64).to_le_bytes());
    h.update(before);
    h.update(&src[last.end as usize..n.end as usize]);
    h.digest128()
}

/// `--dump-tree`: the parsed tree with kinds, spans, actions and units.
pub fn dump_tree(path: &Path, lang: &LangInfo) -> Result<String> {
    let input = read_input(path)?;
    let frontend = lang.frontend()?;
    let tree = frontend.parse(Arc::from(input));
    let units = Units::new(&tree);
    let mut out = String::new();
    tree.dump(&mut out, &|id| units.is_unit(id)).context("cannot format the tree")?;
    out.push_str(&format!(
        "# {} nodes, {} units on {} levels, {} syntax errors\n",
        tree.len(),
        units.count(),
        units.depth(),
        tree.error_count()
    ));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys of every hoist of `text` parsed as JSON, by the hoisted text.
    fn hoists(text: &str) -> Vec<(String, u128)> {
        let json = frontend::by_name("json").expect("json").frontend().expect("front-end");
        let tree = json.parse(Arc::from(text.as_bytes()));
        let units = Units::new(&tree);
        let node_text = |id: NodeId| {
            let n = tree.node(id);
            String::from_utf8_lossy(&tree.src()[n.start as usize..n.end as usize]).into_owned()
        };
        (0..units.hoistable_count())
            .filter_map(|i| units.hoistable(i))
            .flat_map(|(node, targets)| targets.iter().map(move |&to| (node, to)))
            .map(|(node, to)| (node_text(node), hoist_key(&tree, node, to)))
            .collect()
    }

    #[test]
    fn a_hoist_is_known_again_while_what_it_deletes_reads_the_same() {
        let key = |text: &str, node: &str| {
            hoists(text).into_iter().find(|(n, _)| n == node).map(|(_, k)| k).expect(node)
        };
        // the text around the node changed: the same hoist
        assert_eq!(key("[[1, 2], 3]", "[1, 2]"), key("[7, [1, 2], 3]", "[1, 2]"));
        // the target changed: it would delete the same text, the same hoist
        assert_eq!(key("[[1], 2]", "[1]"), key("[[5], 2]", "[5]"));
        // what it deletes changed: another one
        assert_ne!(key("[[1, 2], 3]", "[1, 2]"), key("[[1, 4], 3]", "[1, 4]"));
    }
}
