//! The plan's host ([`PlanHost`]) and, with `-j`, the views of a forecast
//! of the plan ([`ForecastViews`]).
//!
//! The host parses the current best with the input's front-end (again only
//! when the text changed), as plain text for the token pass, as one of the
//! views derived from that parse, or through the formatter of `--format`,
//! and hands the plan the [`Evaluator`] that runs the user's test. A
//! stopped run gets no more views.
//!
//! A forecast runs the plan again from the start (see
//! [`crate::reduce::ahead`]) and asks for the same views of other texts,
//! but none by the formatter, which is a process to run.

use std::collections::VecDeque;
use std::sync::{Arc, Weak};
use std::time::Duration;

use crate::app::progress::Progress;
use crate::language::Frontend;
use crate::oracle::{Evaluator, Forecaster};
use crate::os::stop::Stop;
use crate::reduce::ahead::{self, Forecast, ForecastRequest, TestHistory, Views};
use crate::reduce::{rename, Host, Oracle, Phase, Plan, Units, View};
use crate::syntax::{chars, ends, layout, TextKey, Tree};

/// The plan's [`Host`]: parses of the current best, and the evaluator.
pub(super) struct PlanHost<'a> {
    /// A stopped run gets no more views (a parse that gave up is no tree
    /// to search, and a search would stop at its first candidate anyway).
    pub(super) stop: &'a Stop,
    pub(super) frontend: &'a dyn Frontend,
    /// The plain-text front-end, for the token pass.
    pub(super) text: Option<&'a dyn Frontend>,
    /// A parse of the current best by the input's front-end.
    pub(super) tree: Arc<Tree>,
    /// The input's size.
    pub(super) input_len: usize,
    /// `--format`: the formatter's command line, and how long it may take.
    pub(super) format: Option<(&'a [String], Duration)>,
    /// For a formatter's failure, which is worth a line but not the run.
    pub(super) progress: &'a Progress,
    pub(super) ev: Evaluator<'a>,
    /// The last view handed out, and its number of HDD levels (its depth
    /// in units), for the progress line's `level 4/17`: a pass's search
    /// runs on the last view asked for before its oracle.
    pub(super) levels: Option<(Weak<Tree>, usize)>,
}

impl<'a> PlanHost<'a> {
    /// The evaluator, once the plan is done.
    pub(super) fn into_evaluator(self) -> Evaluator<'a> {
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

    fn make_view(&mut self, view: View) -> Option<Arc<Tree>> {
        let tree = match view {
            View::Language => {
                self.reparse();
                return Some(self.tree.clone());
            }
            View::Format => {
                self.reparse();
                self.formatted()?
            }
            View::Text => {
                let text = self.text?;
                // a parse of the best, if the language keeps tokens
                if self.tree.policy().has_kept_ends() {
                    self.reparse();
                }
                text_view(text, self.ev.best(), &self.tree)
            }
            _ => {
                self.reparse();
                derived_view(view, &self.tree, self.input_len)?
            }
        };
        self.ev.set_tree(tree.clone());
        Some(tree)
    }

    /// The best text as the formatter of `--format` writes it; `None` if
    /// there is none, or it failed (said on a line unless the run stopped).
    fn formatted(&self) -> Option<Arc<Tree>> {
        let (command, timeout) = self.format?;
        let text = self.tree.src();
        match crate::oracle::runner::format(command, text, timeout, self.stop) {
            Ok(out) => Some(Arc::new(layout::formatted(&self.tree, out, self.input_len)?)),
            Err(e) => {
                if !self.stop.is_set() {
                    self.progress.println(&format!(
                        "hdd: warning: --format: {e:#}; the result stays as it is"
                    ));
                }
                None
            }
        }
    }
}

impl Host for PlanHost<'_> {
    fn view(&mut self, view: View) -> Option<Arc<Tree>> {
        if self.stop.is_set() {
            return None;
        }
        let tree = self.make_view(view)?;
        // the parse may have given up on a signal or the deadline
        if self.stop.is_set() {
            return None;
        }
        // counted here, before the plan makes its own units of the tree
        // (not beside them, which would raise the peak memory), and once
        // per tree: the 1-minimal rounds ask for the same parse many times
        if !self.levels.as_ref().is_some_and(|(t, _)| Weak::ptr_eq(t, &Arc::downgrade(&tree))) {
            self.levels = Some((Arc::downgrade(&tree), Units::new(&tree).depth()));
        }
        Some(tree)
    }

    fn oracle(&mut self, phase: Phase) -> &mut dyn Oracle {
        let levels = self.levels.as_ref().map(|&(_, n)| n);
        self.ev.stats_mut().start_pass(phase);
        self.ev.stats_mut().set_levels(levels);
        self.ev.set_guarded(phase.guarded());
        &mut self.ev
    }

    fn start_round(&mut self) {
        self.ev.stats_mut().start_round();
    }

    fn end_rounds(&mut self) {
        self.ev.stats_mut().end_rounds();
    }
}

/// The plain-text view of `best` for the token pass (`text` its
/// front-end), with the tokens that `language`, a parse of `best` by the
/// input's front-end, says the token pass keeps (see [`ends`]). A
/// language that keeps none is not asked about its parse, which may then
/// be of an older text.
fn text_view(text: &dyn Frontend, best: &Arc<[u8]>, language: &Tree) -> Arc<Tree> {
    let mut view = text.parse(best.clone());
    if language.policy().has_kept_ends() {
        ends::keep(&mut view, language);
    }
    Arc::new(view)
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
/// latency a pass boundary saves (BENCHMARKS.md, "The next pass's tests
/// ahead, on workers that outlive a pass").
pub(super) const FORECAST_MAX_INPUT: usize = 2 << 20;

/// The views of a forecast of the plan: as the plan's [`PlanHost`] makes
/// them, but none by the formatter. The last parses are kept: each
/// forecast runs the plan again from the start.
pub(super) struct ForecastViews<'a> {
    plan: Plan,
    input: Arc<[u8]>,
    frontend: &'a dyn Frontend,
    text: Option<&'a dyn Frontend>,
    input_len: usize,
    /// Parses by the input's front-end, by the text's hash, in the order
    /// made.
    parses: VecDeque<(TextKey, Arc<Tree>)>,
}

impl<'a> ForecastViews<'a> {
    /// Parses kept: about as many as a plan has passes.
    const KEEP: usize = 32;

    /// The views of forecasts of `plan` from `input` (the text of its
    /// first parse; `input_len`, the input's size).
    pub(super) fn new(
        plan: Plan,
        input: Arc<[u8]>,
        input_len: usize,
        frontend: &'a dyn Frontend,
        text: Option<&'a dyn Frontend>,
    ) -> ForecastViews<'a> {
        ForecastViews { plan, input, frontend, text, input_len, parses: VecDeque::new() }
    }

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

impl Views for ForecastViews<'_> {
    fn view(&mut self, view: View, text: &Arc<[u8]>) -> Option<Arc<Tree>> {
        match view {
            View::Language => Some(self.parse(text)),
            View::Text => {
                let text_frontend = self.text?;
                Some(text_view(text_frontend, text, &self.parse(text)))
            }
            View::Format => None,
            _ => derived_view(view, &self.parse(text), self.input_len),
        }
    }
}

impl Forecaster for ForecastViews<'_> {
    fn forecast(&mut self, request: ForecastRequest<'_>, history: &dyn TestHistory) -> Forecast {
        let (plan, input) = (self.plan, self.input.clone());
        ahead::forecast(&plan, self, input, request, history)
    }
}
