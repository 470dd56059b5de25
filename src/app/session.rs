//! One reduction from start to end: check the input, check the test, run
//! the plan (see [`crate::reduce::plan`]), re-check the result.
//!
//! The session is the plan's [`Host`]: it parses the current best with the
//! input's front-end (again only when the text changed), as plain text for
//! the token pass, or as the characters view for the shrinking pass, and
//! hands the plan the [`Evaluator`] that runs the user's test. Every better
//! text is saved at once (see [`output`](super::output)).
//!
//! A set of files (see [`set`](super::set)) is the same run over a forest:
//! its front-end is a [`Forest`] of the files' front-ends, the runner lays
//! each candidate out as files, and results are saved as a directory.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde::Serialize;

use super::config::Config;
use super::error::{exit, Fatal};
use super::output::{Claim, DirOutput, Output};
use super::progress::Progress;
use super::set::FileSet;
use crate::language::forest::Forest;
use crate::language::{self, Frontend, Interrupt, LangInfo, OrderData};
use crate::oracle::guard::Guard;
use crate::oracle::runner::{Layout, Outcome, Runner, Spec};
use crate::oracle::stats::Stats;
use crate::oracle::stop::{Alarm, Cancel, Stop};
use crate::oracle::{Answer, Evaluator, Forecaster, Settings, Sink, StopReason};
use crate::reduce::ahead::{self, Forecast, ForecastRequest, TestHistory, Views};
use crate::reduce::{rename, Host, Oracle, Order, Phase, Plan, Units, View};
use crate::syntax::{chars, dump, forest, layout, TextKey, Tree};

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The plan finished.
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

/// The reducer core's order for a language's preference.
fn order_of(data: OrderData) -> Order {
    match data {
        OrderData::Forward => Order::Forward,
        OrderData::Backward => Order::Backward,
    }
}

/// What is reduced: one file, or a set of files seen as one forest.
struct Subject {
    input: Vec<u8>,
    frontend: Box<dyn Frontend>,
    /// Plain text, for the token pass.
    text: Option<Box<dyn Frontend>>,
    layout: Layout,
    /// Separators in the text (files of a set less one): not the user's bytes.
    separators: u64,
}

impl Subject {
    fn new(config: &Config) -> Result<Subject> {
        let text_lang = language::by_name("text");
        let Some(set) = &config.set else {
            let file_name: OsString = config
                .input
                .file_name()
                .map(|n| n.to_os_string())
                .unwrap_or_else(|| "input".into());
            return Ok(Subject {
                input: read_input(&config.input)?,
                frontend: config.lang.frontend()?,
                text: text_lang.and_then(|l| l.frontend().ok()),
                layout: Layout::File(file_name),
                separators: 0,
            });
        };
        let texts = text_lang.map(|l| vec![l; set.files.len()]);
        let text = texts.and_then(|t| Forest::new(&t).ok());
        let input = set.read()?;
        let mut frontend = Forest::new(&set.langs())?;
        frontend.allow(&input);
        Ok(Subject {
            input,
            frontend: Box::new(frontend),
            text: text.map(|t| Box::new(t) as Box<dyn Frontend>),
            layout: set.layout()?,
            separators: set.files.len() as u64 - 1,
        })
    }
}

/// Runs one reduction.
pub fn reduce(config: &Config, stop: Arc<Stop>) -> Result<Summary> {
    let began = Instant::now();
    // a second run writing the same output is refused before any test
    let _claim = Claim::take(&config.output)?;
    // With more than one worker the original is checked beside the first
    // tests. A test that fails under load (a timeout inside the script, on
    // a busy machine) may then fail on the original too: before hdd says
    // the original is not interesting, it checks it again alone, first
    // thing in a run of its own (nothing was saved meanwhile).
    match reduce_from(config, &stop, began, config.jobs > 1) {
        Err(e) if e.is::<CheckAlone>() => {
            stop.resume();
            Progress::new(config.progress, config.quiet).println(
                "hdd: the test did not find the original interesting while other tests ran \
                 beside it (does it time out under load?): checking it again, alone",
            );
            reduce_from(config, &stop, began, false)
        }
        ended => ended,
    }
}

/// The check of the original failed beside the first tests: it is to be
/// made again alone.
#[derive(Debug)]
struct CheckAlone;

impl std::fmt::Display for CheckAlone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the original is to be checked again, alone")
    }
}

impl std::error::Error for CheckAlone {}

/// One reduction from `began`, the original checked beside the first
/// tests if `beside`, else first.
fn reduce_from(config: &Config, stop: &Arc<Stop>, began: Instant, beside: bool) -> Result<Summary> {
    // --max-time counts from the start: the check of the original and parsing too
    let deadline = config.max_time.map(|t| began + t);
    let Subject { input, mut frontend, mut text, layout, separators } = Subject::new(config)?;
    // a parse of megabytes takes seconds: a signal or the deadline ends it
    frontend.set_interrupt(interrupt(stop));
    if let Some(t) = &mut text {
        t.set_interrupt(interrupt(stop));
    }
    let spec = Spec {
        test: config.test.clone(),
        layout: layout.clone(),
        timeout: config.timeout,
        grace: config.kill_grace,
        launcher: config.launcher.clone(),
        work_dir: config.work_dir.clone(),
    };
    let runner = Runner::new(spec, stop.clone())?;
    let progress = Progress::new(config.progress, config.quiet);
    progress.println(&format!(
        "hdd: checking that {} finds {} interesting",
        config.test.display(),
        config.input.display()
    ));
    let opening = Opening { runner: &runner, config, input: &input, stop, deadline, layout };
    // Beside: the first tests run beside the check of the original, a test
    // latency sooner; nothing they find is saved until it passed, and a
    // failed check abandons the run (see `Gate`).
    let (gate, mut checking) = match beside {
        false => (Gate::Open(opening.open()?), None),
        true => {
            let (tx, rx) = mpsc::channel();
            (Gate::Waiting(rx), Some((opening, tx)))
        }
    };
    let tree = Arc::new(frontend.parse(Arc::from(input.as_slice())));
    // the guard parses the text once more: not for a run whose time ran
    // out while the input was parsed, which will test nothing
    let guard = (config.syntax_guard && !stop.is_set())
        .then(|| Guard { frontend: &*frontend, allowed: tree.error_count() });
    // beside the check of the original, the deadline stops tests only once
    // the check has passed (its alarm is set then): the check always
    // completes
    let deadline = deadline.filter(|_| !beside);
    let settings = Settings { guard, jobs: config.jobs, deadline };
    let plan = Plan {
        algorithm: config.algorithm,
        ddmin: config.ddmin,
        order: config.order.unwrap_or_else(|| order_of(frontend.order())),
        token_order: text.as_ref().map_or(Order::Forward, |t| order_of(t.order())),
        hoist: config.hoist,
        coordinated: config.coordinated,
        tokens: config.tokens,
        shrink: config.shrink,
        layout: config.layout,
        format: config.format.is_some(),
        rename: config.rename,
        batch: config.batch,
    };
    let trace = config.trace.as_deref().map(Trace::create).transpose()?;
    let mut sink = Saving { gate, progress: &progress, trace };
    let mut bench = Bench {
        stop,
        frontend: &*frontend,
        text: text.as_deref(),
        tree: tree.clone(),
        input_len: input.len(),
        format: config.format.as_deref().map(|c| (c, config.timeout)),
        progress: &progress,
        ev: Evaluator::new(&runner, settings, tree, &mut sink),
    };
    if config.jobs > 1 && input.len() <= FORECAST_MAX_INPUT {
        // free workers test the next pass's first candidates ahead
        bench.ev.set_forecaster(Box::new(Forecasts {
            plan,
            input: bench.tree.src_arc(),
            frontend: &*frontend,
            text: text.as_deref(),
            input_len: input.len(),
            parses: VecDeque::new(),
        }));
    }
    std::thread::scope(|scope| {
        if let Some((opening, opened)) = checking.take() {
            scope.spawn(move || {
                let checked = opening.open();
                if checked.is_err() {
                    opening.stop.abandon();
                }
                // (a run that ended meanwhile no longer waits for it)
                let _ = opened.send(checked);
            });
        }
        // one set of workers for every pass: a test ahead of a pass goes on
        // while the next one starts
        bench.ev.start_workers(scope);
        // a stopped plan says why through the evaluator; the workers end
        // before the scope waits for them, also if the plan panics
        let ran = panic::catch_unwind(AssertUnwindSafe(|| plan.run(&mut bench)));
        bench.ev.stop_workers();
        if let Err(panicked) = ran {
            panic::resume_unwind(panicked);
        }
    });
    let mut ev = bench.into_evaluator();
    progress.clear();
    let reason = ev.stop_reason();
    let rechecked = ev.take_recheck();
    let best = ev.best().clone();
    let mut stats = ev.stats();
    drop(ev);
    if let Some(trace) = &mut sink.trace {
        trace.out.flush().context("cannot write the --trace file")?;
    }
    // a failed check of the original says why the run ended, whatever
    // else stopped it (once it failed alone too: see `reduce`); the alarm
    // of --max-time goes on to the re-check
    let Opened { output, alarm: _alarm } = sink.gate.into_opened().map_err(|e| {
        let not_interesting =
            e.downcast_ref::<Fatal>().is_some_and(|f| f.code == exit::NOT_INTERESTING);
        match not_interesting && stop.signal().is_none() && !stop.is_time_up() {
            true => anyhow::Error::new(CheckAlone),
            false => e,
        }
    })?;
    let mut ended = match reason {
        Some(StopReason::Failed(e)) => return Err(e),
        Some(StopReason::Signal(s)) => Ended::Signal(s),
        Some(StopReason::TimeUp) => Ended::TimeUp,
        None => Ended::Finished,
    };
    let absent = match (&output, ended) {
        (Saved::Dir(..), Ended::Finished) => {
            let (absent, stopped) =
                drop_empty_files(&runner, &output, &best, &mut stats, &progress)?;
            if stopped {
                ended = stop.signal().map_or(Ended::TimeUp, Ended::Signal);
            }
            absent
        }
        _ => Vec::new(),
    };
    // every result is re-checked, the original too when nothing could be
    // removed: a flaky test is reported, not trusted. With -j, a free
    // worker may have run the re-check already, on the text the plan was
    // foreseen to end on; a run that did not pass is made again here
    let ran_ahead = rechecked == Some(true) && !absent.contains(&true);
    stats.recheck_ahead = ran_ahead && ended == Ended::Finished;
    let flaky = if ended == Ended::Finished && !ran_ahead {
        match runner.run_without(&best, &absent, &Cancel::default())?.outcome {
            Outcome::Interesting => false,
            Outcome::Cancelled => {
                // a signal during the re-check stops the run like any other
                ended = stop.signal().map_or(Ended::TimeUp, Ended::Signal);
                false
            }
            _ => true,
        }
    } else {
        false
    };
    // --in-place: a file the user changed meanwhile keeps their change
    output.verify(&best, &absent)?;
    stats.started_at(began);
    stats.original_bytes = input.len() as u64 - separators;
    stats.final_bytes = best.len() as u64 - separators;
    stats.finish();
    Ok(Summary {
        stats,
        ended,
        flaky,
        output: output.path().to_path_buf(),
        trivial: best.iter().all(|&b| b.is_ascii_whitespace() || b == forest::SEPARATOR),
    })
}

/// A set's files that the reduction emptied, each left out of the set if
/// the test still passes without it (one test each, in the set's order;
/// phase `files` in the stats): the files marked absent, and whether a stop
/// came meanwhile. A file the test needs, if only to exist, stays as an
/// empty file; the last file of a set always stays.
fn drop_empty_files(
    runner: &Runner,
    output: &Saved,
    best: &[u8],
    stats: &mut Stats,
    progress: &Progress,
) -> Result<(Vec<bool>, bool)> {
    let texts = forest::split(best);
    let mut absent = vec![false; texts.len()];
    stats.start_pass(Phase::Files);
    for (i, text) in texts.iter().enumerate() {
        if !text.is_empty() || absent.iter().filter(|&&a| !a).count() == 1 {
            continue;
        }
        absent[i] = true;
        let report = runner.run_without(best, &absent, &Cancel::default())?;
        match report.outcome {
            Outcome::Cancelled => {
                absent[i] = false;
                return Ok((absent, true));
            }
            Outcome::Interesting => {
                output.write_without(best, &absent)?;
                stats.count_improvement(best.len(), best.len());
                if let Saved::Dir(_, set, _) = output {
                    progress.println(&format!(
                        "hdd: left out {}: the test passes without it",
                        set.files[i].0.display()
                    ));
                }
            }
            _ => absent[i] = false,
        }
        stats.tests += 1;
        stats.test_time += report.elapsed;
        stats.count_test();
    }
    Ok((absent, false))
}

/// Where results go: a file, or a directory for a set of files.
enum Saved<'c> {
    File(Output),
    Dir(DirOutput, &'c FileSet, Vec<(PathBuf, Arc<[u8]>)>),
}

impl Saved<'_> {
    fn write(&self, text: &[u8]) -> Result<()> {
        self.write_without(text, &[])
    }

    /// Writes `text`, leaving out the files of a set that `absent` marks.
    fn write_without(&self, text: &[u8], absent: &[bool]) -> Result<()> {
        match self {
            Saved::File(o) => o.write(text),
            Saved::Dir(o, set, copied) => o.write(set.result(text, copied, absent)),
        }
    }

    /// At the end: whether the output still holds the result, less the
    /// files `absent` marks (see [`Output::verify`]).
    fn verify(&self, best: &[u8], absent: &[bool]) -> Result<()> {
        match self {
            Saved::File(o) => o.verify(best),
            Saved::Dir(o, set, copied) => o.verify(set.result(best, copied, absent)),
        }
    }

    fn path(&self) -> &Path {
        match self {
            Saved::File(o) => o.path(),
            Saved::Dir(o, ..) => o.path(),
        }
    }
}

/// The original input's check, and what comes once it passed: the output
/// prepared (backed up with `--in-place`, else holding the input) and the
/// alarm of `--max-time`, which counts from the start but stops tests only
/// once the check is done.
struct Opening<'a> {
    runner: &'a Runner,
    config: &'a Config,
    input: &'a [u8],
    stop: &'a Arc<Stop>,
    deadline: Option<Instant>,
    layout: Layout,
}

/// What a passed check opens.
struct Opened<'c> {
    output: Saved<'c>,
    alarm: Option<Alarm>,
}

impl<'a> Opening<'a> {
    fn open(&self) -> Result<Opened<'a>> {
        let config = self.config;
        check_original(self.runner, config, self.input)?;
        let alarm = self.deadline.map(|d| self.stop.alarm(d));
        let output = match (&config.set, &self.layout) {
            (Some(set), Layout::Set(l)) => Saved::Dir(
                DirOutput::prepare(&config.input, &config.output, config.in_place)?,
                set,
                l.copied.clone(),
            ),
            _ => Saved::File(Output::prepare(
                &config.input,
                self.input,
                &config.output,
                config.in_place,
            )?),
        };
        if !config.in_place {
            output.write(self.input)?;
        }
        Ok(Opened { output, alarm })
    }
}

/// Where the output stands while the original is checked beside the first
/// tests (`-j` more than 1): nothing is saved before the check passed.
enum Gate<'c> {
    Waiting(mpsc::Receiver<Result<Opened<'c>>>),
    Open(Opened<'c>),
    /// The check failed: why, until the session takes it.
    Failed(Option<anyhow::Error>),
}

impl<'c> Gate<'c> {
    /// The output once the check passed, waiting for it; `None` if it
    /// failed.
    fn wait(&mut self) -> Option<&Opened<'c>> {
        if let Gate::Waiting(checked) = self {
            *self = match checked.recv() {
                Ok(Ok(opened)) => Gate::Open(opened),
                Ok(Err(e)) => Gate::Failed(Some(e)),
                Err(mpsc::RecvError) => Gate::Failed(None),
            };
        }
        match self {
            Gate::Open(opened) => Some(opened),
            _ => None,
        }
    }

    /// The output, or why the check of the original failed.
    fn into_opened(mut self) -> Result<Opened<'c>> {
        self.wait();
        match self {
            Gate::Open(opened) => Ok(opened),
            Gate::Failed(Some(e)) => Err(e),
            _ => Err(anyhow::anyhow!("the check of the original input did not end")),
        }
    }
}

/// Saves every better text, redraws the progress line, and writes the
/// trace.
struct Saving<'o> {
    gate: Gate<'o>,
    progress: &'o Progress,
    trace: Option<Trace>,
}

impl Sink for Saving<'_> {
    fn improved(&mut self, text: &[u8]) -> Result<()> {
        match self.gate.wait() {
            Some(opened) => opened.output.write(text),
            // the session reports the check's own error
            None => Err(anyhow::anyhow!("the original input is not interesting")),
        }
    }

    fn progress(&mut self, stats: &Stats, best: usize) {
        self.progress.update(stats, best);
    }

    fn traces(&self) -> bool {
        self.trace.is_some()
    }

    fn answered(&mut self, answer: &Answer) -> Result<()> {
        let Some(trace) = &mut self.trace else { return Ok(()) };
        let line = TraceLine { at: trace.start.elapsed().as_secs_f64(), answer };
        serde_json::to_writer(&mut trace.out, &line).context("cannot write the --trace file")?;
        trace.out.write_all(b"\n").context("cannot write the --trace file")
    }
}

/// `--trace`: every answered candidate, a JSON line, written as the run
/// goes.
struct Trace {
    out: BufWriter<File>,
    /// What `at` counts from: the start of the reduction proper (after the
    /// check of the original with `-j 1`, beside it with more workers).
    start: Instant,
}

impl Trace {
    fn create(path: &Path) -> Result<Trace> {
        let file = File::create(path)
            .with_context(|| format!("cannot write the --trace file {}", path.display()))?;
        Ok(Trace { out: BufWriter::new(file), start: Instant::now() })
    }
}

/// One line of the trace: seconds since its start, and the answer.
#[derive(Serialize)]
struct TraceLine<'a> {
    at: f64,
    #[serde(flatten)]
    answer: &'a Answer,
}

/// The plan's [`Host`]: parses of the current best, and the evaluator.
struct Bench<'a> {
    /// A stopped run gets no more views (a parse that gave up is no tree
    /// to search, and a search would stop at its first candidate anyway).
    stop: &'a Stop,
    frontend: &'a dyn Frontend,
    /// The plain-text front-end, for the token pass.
    text: Option<&'a dyn Frontend>,
    /// A parse of the current best by the input's front-end.
    tree: Arc<Tree>,
    /// The input's size.
    input_len: usize,
    /// `--format`: the formatter's command line, and how long it may take.
    format: Option<(&'a [String], Duration)>,
    /// For a formatter's failure, which is worth a line but not the run.
    progress: &'a Progress,
    ev: Evaluator<'a>,
}

impl<'a> Bench<'a> {
    /// The evaluator, once the plan is done.
    fn into_evaluator(self) -> Evaluator<'a> {
        self.ev
    }

    /// Makes `self.tree` a parse of the current best, and the tree
    /// candidates are unparsed against.
    fn reparse(&mut self) {
        if *self.tree.src() != **self.ev.best() {
            self.tree = Arc::new(self.frontend.parse(self.ev.best().clone()));
        }
        self.ev.set_tree(self.tree.clone());
    }
}

impl Host for Bench<'_> {
    fn view(&mut self, view: View) -> Option<Arc<Tree>> {
        if self.stop.is_set() {
            return None;
        }
        let tree = self.make_view(view)?;
        // the parse may have given up on a signal or the deadline
        (!self.stop.is_set()).then_some(tree)
    }

    fn oracle(&mut self, phase: Phase) -> &mut dyn Oracle {
        self.ev.stats_mut().start_pass(phase);
        self.ev.set_guarded(phase.guarded());
        &mut self.ev
    }
}

impl Bench<'_> {
    fn make_view(&mut self, view: View) -> Option<Arc<Tree>> {
        let tree = match view {
            View::Language => {
                self.reparse();
                return Some(self.tree.clone());
            }
            View::Format => {
                self.reparse();
                let (command, timeout) = self.format?;
                let text = self.tree.src();
                match crate::oracle::runner::format(command, text, timeout, self.stop) {
                    Ok(out) => Arc::new(layout::formatted(&self.tree, out, self.input_len)?),
                    Err(e) => {
                        if !self.stop.is_set() {
                            self.progress.println(&format!(
                                "hdd: warning: --format: {e:#}; the result stays as it is"
                            ));
                        }
                        return None;
                    }
                }
            }
            View::Text => Arc::new(self.text?.parse(self.ev.best().clone())),
            _ => {
                self.reparse();
                derived_view(view, &self.tree, self.input_len)?
            }
        };
        self.ev.set_tree(tree.clone());
        Some(tree)
    }
}

/// A view made from the parse of the text by the input's front-end (not
/// the language's own, the plain text's, or the formatter's).
fn derived_view(view: View, tree: &Tree, input_len: usize) -> Option<Arc<Tree>> {
    let tree = match view {
        View::Chars => chars::view(tree)?,
        View::Rename => rename::view(tree)?,
        // a result is never larger than the input
        View::Layout => layout::view(tree, input_len)?,
        View::Language | View::Text | View::Format => unreachable!("not made from a parse"),
    };
    Some(Arc::new(tree))
}

/// The largest input whose run forecasts its plan (with `-j`). Each
/// forecast runs the plan again from a parse of the input, and keeps its
/// parses: on a larger input that costs more time and memory than the test
/// latency a pass boundary saves (1.7 MB of XML: about 30 ms a forecast,
/// and 7 MB more at the peak).
const FORECAST_MAX_INPUT: usize = 2 << 20;

/// The views of a forecast of the plan (see [`crate::reduce::ahead`]): as
/// the plan's [`Bench`] makes them, but none by the formatter, which is a
/// process to run. The last parses are kept: each forecast runs the plan
/// again from the start.
struct Forecasts<'a> {
    plan: Plan,
    input: Arc<[u8]>,
    frontend: &'a dyn Frontend,
    text: Option<&'a dyn Frontend>,
    input_len: usize,
    /// Parses by the input's front-end, by the text's hash, in the order
    /// made.
    parses: VecDeque<(TextKey, Arc<Tree>)>,
}

impl Forecasts<'_> {
    /// Parses kept: about as many as a plan has passes.
    const KEEP: usize = 32;

    fn parse(&mut self, text: &Arc<[u8]>) -> Arc<Tree> {
        let key = TextKey::of(text);
        if let Some((_, tree)) = self.parses.iter().find(|(k, _)| *k == key) {
            return tree.clone();
        }
        let tree = Arc::new(self.frontend.parse(text.clone()));
        if self.parses.len() == Self::KEEP {
            self.parses.pop_front();
        }
        self.parses.push_back((key, tree.clone()));
        tree
    }
}

impl Views for Forecasts<'_> {
    fn view(&mut self, view: View, text: &Arc<[u8]>) -> Option<Arc<Tree>> {
        match view {
            View::Language => Some(self.parse(text)),
            View::Text => Some(Arc::new(self.text?.parse(text.clone()))),
            View::Format => None,
            _ => derived_view(view, &self.parse(text), self.input_len),
        }
    }
}

impl Forecaster for Forecasts<'_> {
    fn forecast(&mut self, request: ForecastRequest<'_>, history: &dyn TestHistory) -> Forecast {
        let (plan, input) = (self.plan, self.input.clone());
        ahead::forecast(&plan, self, input, request, history)
    }
}

/// What makes the parses of a run give up: its stop.
fn interrupt(stop: &Arc<Stop>) -> Interrupt {
    let stop = stop.clone();
    Interrupt::new(move || stop.is_set())
}

/// The error of a run a signal stopped before it had a result: 128 + the
/// signal, as for a run it stops later.
fn interrupted(stop: &Stop, while_: &str) -> anyhow::Error {
    let signal = stop.signal().unwrap_or(libc::SIGINT);
    anyhow::Error::new(Fatal {
        code: (128 + signal).clamp(0, 255) as u8,
        message: format!("interrupted while {while_}"),
    })
}

/// Runs the test on the original; an uninteresting original is an error with
/// a way to check the test by hand.
fn check_original(runner: &Runner, config: &Config, input: &[u8]) -> Result<()> {
    let report = runner.run_capturing(input)?;
    if report.outcome == Outcome::Interesting {
        return Ok(());
    }
    if report.outcome == Outcome::Cancelled {
        // each signal its own code, as for a run it stops later
        return Err(interrupted(runner.stop(), "checking the original input"));
    }
    let mut msg = format!(
        "the test does not find the original input interesting: {} {} on {} (interesting means exit code 0)",
        config.test.display(),
        match report.outcome {
            Outcome::Timeout => format!("timed out after {:?} (see --timeout)", config.timeout),
            o => format!("gave {o}"),
        },
        config.input.display(),
    );
    let test = shell_quote(&config.test.to_string_lossy());
    let by_hand = match &config.set {
        Some(set) => set.reproduction(&test, shell_quote),
        None => {
            let input_abs =
                std::fs::canonicalize(&config.input).unwrap_or_else(|_| config.input.clone());
            let name = config.input.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
            let name = shell_quote(&name);
            format!(
                "(d=$(mktemp -d) && cp {} \"$d\"/{name} && cd \"$d\" && {test} \"$d\"/{name}; echo \"exit code $?\")",
                shell_quote(&input_abs.to_string_lossy()),
            )
        }
    };
    msg.push_str(&format!("\n  check it by hand: {by_hand}"));
    if let Some(out) = report.output.filter(|o| !o.is_empty()) {
        let text = String::from_utf8_lossy(&out);
        let lines: Vec<&str> = text.lines().collect();
        let shown = &lines[lines.len().saturating_sub(SHOWN_LINES)..];
        msg.push_str(&format!("\n  the test printed (last {} lines):", shown.len()));
        for line in shown {
            msg.push_str("\n  | ");
            match line.char_indices().nth(SHOWN_WIDTH) {
                Some((cut, _)) => {
                    msg.push_str(&line[..cut]);
                    msg.push_str(" [...]");
                }
                None => msg.push_str(line),
            }
        }
    }
    Err(Fatal::not_interesting(msg))
}

/// The test's last lines shown when the original is not interesting, and
/// how much of each.
const SHOWN_LINES: usize = 10;
const SHOWN_WIDTH: usize = 200;

/// Quotes a string for a POSIX shell when it needs it.
fn shell_quote(s: &str) -> String {
    if s.bytes().all(|c| c.is_ascii_alphanumeric() || b"/._-+=:,@".contains(&c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// `--dump-tree`: the parsed tree with kinds, spans, actions and units,
/// written to `out` line by line. A signal stops the parse and the writing
/// (the tree of a file of megabytes takes seconds).
pub fn dump_tree(
    path: &Path,
    lang: &LangInfo,
    stop: &Arc<Stop>,
    out: &mut dyn std::io::Write,
) -> Result<()> {
    let input = read_input(path)?;
    let mut frontend = lang.frontend()?;
    frontend.set_interrupt(interrupt(stop));
    let tree = frontend.parse(Arc::from(input));
    if stop.is_set() {
        return Err(interrupted(stop, "parsing"));
    }
    let units = Units::new(&tree);
    use std::io::Write as _;
    let mut out = Stoppable { out, stop };
    let written = dump::dump(&tree, &mut out, &|id| units.is_unit(id)).and_then(|()| {
        writeln!(
            out,
            "# {} nodes, {} units on {} levels, {} syntax errors",
            tree.len(),
            units.count(),
            units.depth(),
            tree.error_count()
        )
    });
    if stop.is_set() {
        return Err(interrupted(stop, "writing the tree"));
    }
    written.and_then(|()| out.flush()).context("cannot write the tree")
}

/// A writer that refuses more text once the run must stop.
struct Stoppable<'s> {
    out: &'s mut dyn std::io::Write,
    stop: &'s Stop,
}

impl std::io::Write for Stoppable<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.stop.is_set() {
            // not `Interrupted`, which `write_all` retries
            return Err(std::io::Error::other("stopped"));
        }
        self.out.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}
