//! One reduction from start to end: check the input, check the test, run
//! the plan (see [`crate::reduce::plan`]), re-check the result.
//!
//! The session is the plan's host: it parses the current best with the
//! input's front-end, as plain text for the token pass, or as one of the
//! views derived from a parse, and hands the plan the [`Evaluator`] that
//! runs the user's test. Every better text is saved at once (see
//! [`output`](super::output)), never before the original passed its check.
//!
//! - [`input`]: the input read and refused when it cannot be reduced, with
//!   its front-ends.
//! - [`original`]: the check of the original, and the gate that holds
//!   every write back until it passed.
//! - [`host`]: the plan's host, and the views of a forecast of the plan.
//! - [`sink`]: saving results as the run goes, and the `--trace` file;
//!   [`destination`]: where results go.
//! - [`finish`]: the end of a run: a set's needless empty files left out,
//!   the final re-check, the summary.
//! - [`dump`]: the parsed tree of `--dump-tree`.
//!
//! A set of files (see [`set`](super::set)) is the same run over a forest:
//! its front-end is a forest of the files' front-ends, the runner lays each
//! candidate out as files, and results are saved as a directory.

use std::path::PathBuf;
use std::sync::{mpsc, Arc};
use std::time::Instant;

use anyhow::Result;

use super::config::Config;
use super::error::{exit, Fatal};
use super::output::Claim;
use super::progress::Progress;
use crate::language::{Frontend, OrderData};
use crate::oracle::guard::Guard;
use crate::oracle::runner::{Layout, Runner, Spec};
use crate::oracle::stats::Stats;
use crate::oracle::{Evaluator, Settings};
use crate::os::stop::Stop;
use crate::reduce::{Order, Plan};
use crate::syntax::Tree;

mod destination;
mod dump;
mod finish;
mod host;
mod input;
mod original;
mod sink;

pub use dump::dump_tree;

use crate::app::shown::shown;
use finish::{ended_by, Finish, PlanEnd};
use host::{ForecastViews, PlanHost, FORECAST_MAX_INPUT};
use input::Subject;
use original::{Clearance, OriginalCheck, WriteGate};
use sink::{ResultSink, Trace};

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
    /// Where the run was when it ended (`hdd level 4/17`); none before
    /// its first pass.
    pub position: Option<String>,
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
            // a line, and no progress line left behind it
            Progress::new(false, config.quiet).println(
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

/// The check of the original running beside the first tests, and where it
/// sends its result.
type CheckBeside<'a> = (OriginalCheck<'a>, mpsc::Sender<Result<Clearance<'a>>>);

/// One reduction from `began`, the original checked beside the first
/// tests if `beside`, else first.
fn reduce_from(config: &Config, stop: &Arc<Stop>, began: Instant, beside: bool) -> Result<Summary> {
    // --max-time counts from the start: the check of the original and parsing too
    let deadline = config.max_time.map(|t| began + t);
    let Subject { input, frontend, text, layout, separators } = Subject::new(config, stop)?;
    let runner = Runner::new(spec_of(config, layout.clone()), stop.clone())?;
    let progress = Progress::new(config.progress, config.quiet);
    progress.println(&format!(
        "hdd: checking that {} finds {} interesting",
        config.test_line(),
        shown(&config.input)
    ));
    let check = OriginalCheck { runner: &runner, config, input: &input, stop, deadline, layout };
    // Beside: the first tests run beside the check of the original, a test
    // latency sooner; nothing they find is saved until it passed, and a
    // failed check abandons the run (see `WriteGate`).
    let (gate, checking) = match beside {
        false => (WriteGate::Open(Box::new(check.run()?)), None),
        true => {
            let (tx, rx) = mpsc::channel();
            (WriteGate::Waiting(rx), Some((check, tx)))
        }
    };
    let tree = Arc::new(frontend.parse(Arc::from(input.as_slice())));
    if let Some(warning) = wrong_language(config, &tree) {
        progress.println(&warning);
    }
    // the guard parses the text once more: not for a run whose time ran
    // out while the input was parsed, which will test nothing
    let guard = (config.syntax_guard && !stop.is_set())
        .then(|| Guard { frontend: &*frontend, allowed: tree.error_count() });
    // beside the check of the original, the deadline stops tests only once
    // the check has passed (its alarm is set then): the check always
    // completes
    let deadline = deadline.filter(|_| !beside);
    let settings = Settings { guard, jobs: config.jobs, deadline };
    let plan = plan_of(config, &*frontend, text.as_deref());
    let trace = config.trace.as_deref().map(Trace::create).transpose()?;
    let mut sink = ResultSink { gate, progress: &progress, trace };
    let mut host = PlanHost {
        stop,
        frontend: &*frontend,
        text: text.as_deref(),
        tree: tree.clone(),
        input_len: input.len(),
        format: config.format.as_deref().map(|c| (c, config.timeout)),
        progress: &progress,
        ev: Evaluator::new(&runner, settings, tree, &mut sink),
        levels: None,
    };
    if config.jobs > 1 && input.len() <= FORECAST_MAX_INPUT {
        // free workers test the next pass's first candidates ahead
        let input_text = host.tree.src_arc();
        let views = ForecastViews::new(plan, input_text, input.len(), &*frontend, text.as_deref());
        host.ev.set_forecaster(Box::new(views));
    }
    run_plan(&plan, &mut host, checking);
    let mut ev = host.into_evaluator();
    let reason = ev.stop_reason();
    let plan_end = PlanEnd::of(ev);
    sink.flush_trace()?;
    // the alarm of --max-time goes on to the re-check
    let Clearance { output, alarm: _alarm } = clearance(sink.gate, stop)?;
    let ended = ended_by(reason)?;
    let finish = Finish {
        runner: &runner,
        stop,
        progress: &progress,
        output: &output,
        began,
        input_len: input.len(),
        separators,
    };
    // the line stays through the end of the run (a re-check takes a test)
    let summary = finish.summary(plan_end, ended);
    progress.clear();
    summary
}

/// Runs `plan` on `host`, with one set of workers for every pass (a test
/// ahead of a pass goes on while the next one starts), and the check of
/// the original on a thread of its own if it runs beside them. A stopped
/// plan says why through the evaluator; the workers end before the scope
/// waits for them, also if the plan panics.
fn run_plan(plan: &Plan, host: &mut PlanHost<'_>, checking: Option<CheckBeside<'_>>) {
    std::thread::scope(|scope| {
        if let Some((check, cleared)) = checking {
            scope.spawn(move || {
                let checked = check.run();
                if checked.is_err() {
                    check.stop.abandon();
                }
                // (a run that ended meanwhile no longer waits for it)
                let _ = cleared.send(checked);
            });
        }
        host.ev.start_workers(scope);
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| plan.run(host)));
        host.ev.stop_workers();
        if let Err(panicked) = ran {
            std::panic::resume_unwind(panicked);
        }
    });
}

/// The output, once the check of the original passed; else why not. A
/// check that failed beside the first tests, with no signal or deadline
/// to blame, is made again alone ([`CheckAlone`]; once it failed alone
/// too, its failure says why the run ended, whatever else stopped it).
fn clearance<'c>(gate: WriteGate<'c>, stop: &Stop) -> Result<Clearance<'c>> {
    gate.into_clearance().map_err(|e| {
        let not_interesting =
            e.downcast_ref::<Fatal>().is_some_and(|f| f.code == exit::NOT_INTERESTING);
        match not_interesting && stop.signal().is_none() && !stop.is_time_up() {
            true => anyhow::Error::new(CheckAlone),
            false => e,
        }
    })
}

/// A warning when `--lang` names another language than the file's
/// extension and the file reads as far more broken in it: a file read in
/// the wrong language (`--lang json` on C) has syntax errors everywhere,
/// and the syntax guard then protects nothing. (A malformed file in its
/// own language may have many too: only the comparison tells.)
fn wrong_language(config: &Config, tree: &Tree) -> Option<String> {
    let errors = tree.error_count();
    let by_extension = crate::language::by_path(&config.input)?;
    // plain text has no syntax errors to compare with
    let same = by_extension.name == config.lang.name || by_extension.name == "text";
    if config.set.is_some() || errors < 10 || same {
        return None;
    }
    let other = by_extension.frontend().ok()?.syntax_errors(tree.src());
    (other * 10 <= errors).then(|| {
        format!(
            "hdd: warning: {} has {errors} syntax errors as {} but {other} as {}: is --lang right?",
            shown(&config.input),
            config.lang.name,
            by_extension.name
        )
    })
}

/// How the runner runs the test of `config` on candidates laid out as
/// `layout`.
fn spec_of(config: &Config, layout: Layout) -> Spec {
    Spec {
        test: config.test.clone(),
        test_args: config.test_args.clone(),
        env: vec![("HDD_TEST_DIR", config.test_dir.clone()), ("HDD_INPUT_DIR", config.input_dir())],
        layout,
        timeout: config.timeout,
        grace: config.kill_grace,
        launcher: config.launcher.clone(),
        work_dir: config.work_dir.clone(),
    }
}

/// The plan `config` asks for; the orders not given are the languages'
/// own (the input's, and plain text's for the token pass).
fn plan_of(config: &Config, frontend: &dyn Frontend, text: Option<&dyn Frontend>) -> Plan {
    Plan {
        algorithm: config.algorithm,
        ddmin: config.ddmin,
        order: config.order.unwrap_or_else(|| order_of(frontend.order())),
        token_order: text.map_or(Order::Forward, |t| order_of(t.order())),
        hoist: config.hoist,
        coordinated: config.coordinated,
        tokens: config.tokens,
        shrink: config.shrink,
        layout: config.layout,
        format: config.format.is_some(),
        rename: config.rename,
        batch: config.batch,
    }
}

/// The reducer core's order for a language's preference.
fn order_of(data: OrderData) -> Order {
    match data {
        OrderData::Forward => Order::Forward,
        OrderData::Backward => Order::Backward,
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::language;

    #[test]
    fn each_language_reduces_in_its_own_order_unless_told() {
        let order = |name: &str| {
            let frontend = language::by_name(name).expect(name).frontend().expect(name);
            order_of(frontend.order())
        };
        assert_eq!(order("c"), Order::Backward);
        assert_eq!(order("js"), Order::Backward);
        assert_eq!(order("json"), Order::Forward);
        assert_eq!(order("xml"), Order::Forward);
        assert_eq!(order("text"), Order::Forward);
    }

    #[test]
    fn an_interrupted_run_exits_with_128_and_its_signal() {
        let stop = Stop::manual();
        let err = interrupted(&stop, "parsing");
        let fatal = err.downcast_ref::<Fatal>().expect("a fatal error");
        assert_eq!(fatal.code, 128 + libc::SIGINT as u8);
        assert_eq!(fatal.message, "interrupted while parsing");
    }

    #[test]
    fn only_a_check_that_failed_on_its_own_is_made_again_alone() {
        let failed = |e: anyhow::Error, stop: &Stop| {
            let (tx, rx) = mpsc::channel();
            tx.send(Err(e)).expect("send");
            clearance(WriteGate::Waiting(rx), stop).err().expect("no clearance")
        };
        let stop = Stop::manual();
        let again = failed(Fatal::not_interesting("no".to_string()), &stop);
        assert!(again.is::<CheckAlone>(), "{again}");
        let other = failed(anyhow::anyhow!("disk full"), &stop);
        assert!(!other.is::<CheckAlone>(), "{other}");
        stop.time_up();
        let timed_out = failed(Fatal::not_interesting("no".to_string()), &stop);
        assert!(!timed_out.is::<CheckAlone>(), "{timed_out}");
    }
}
