//! Looking past the end of a pass: the texts the plan will test next if
//! the pass ends as guessed.
//!
//! A plan decides its next pass on what the one before it found (counts,
//! a fresh parse of the new best), so with `-j` each pass boundary costs
//! a full test latency: the next pass's first candidates are not known
//! until the last candidate of the pass before is settled. [`forecast`]
//! knows them earlier. It runs the plan again from the start on a host of
//! its own, answering each candidate with the outcome already settled for
//! it (the plan is deterministic, so it proposes the same candidates in
//! the same order), then with the outcomes assumed for the pass in flight,
//! and past those on guesses; and it collects the texts of the candidates
//! past what is known. The oracle tests them on free workers; when the
//! real plan gets there, their outcomes are in the cache. Only outcomes of
//! tests of the same text reach the real plan, so the result does not
//! change: only when its tests run.

use std::collections::HashSet;
use std::sync::Arc;

use super::{Candidates, Context, Host, Oracle, Phase, Plan, Verdict, View};
use crate::syntax::{TextKey, Tree, Unparser};

/// What the oracle's tests so far say, as [`forecast`] asks it about
/// candidates past what is known: the odds of a candidate like this, and
/// what is known of a text.
pub(crate) trait TestHistory {
    /// The chance that a candidate like this turns out interesting.
    fn chance(&self, context: Context, expect: bool) -> f64;

    /// What the oracle knows of a text.
    fn seen(&self, text: &[u8]) -> Seen;
}

/// What the oracle knows of a text a forecast names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Seen {
    /// A test (or the syntax guard, as not interesting) answered it before.
    Known(bool),
    /// A test of it is running.
    Running,
    New,
}

/// The views of a text, as the real plan's [`Host`] makes them.
pub(crate) trait Views {
    /// `view` of `text`, or `None` where the real host has none (or would
    /// run something to make it, as `--format` runs the formatter).
    fn view(&mut self, view: View, text: &Arc<[u8]>) -> Option<Arc<Tree>>;
}

/// What a forecast is asked: where it starts and how far it goes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ForecastRequest<'o> {
    /// The outcome of every candidate the plan has settled, in order, then
    /// those assumed for the candidates of the pass in flight.
    pub outcomes: &'o [bool],
    /// At most this many texts.
    pub want: usize,
    /// The chance that the assumed outcomes hold; a text is collected
    /// while the chance that it will be needed is at least `floor`.
    pub sure: f64,
    pub floor: f64,
}

/// What a forecast found.
#[derive(Debug, Default)]
pub(crate) struct Forecast {
    /// The texts to test, the likeliest to be needed first.
    pub texts: Vec<Arc<[u8]>>,
    /// The text the plan ends on if its guesses hold, when the forecast got
    /// to the end of the plan likely enough (at least `floor`): the oracle
    /// runs the final re-check of the result on it ahead.
    pub last: Option<Arc<[u8]>>,
    /// The other branch of the forecast's first guess about a candidate
    /// that commits, to be forecast too where workers are left.
    pub branch: Option<Branch>,
}

/// The other branch of a forecast's guess: the outcomes that lead to it,
/// past those the forecast was given (the guessed one the other way
/// round), and the chance that it is the one taken.
///
/// A pass of one candidate (renaming, a coordinated group) is guessed from
/// its search's prior, and when the guess goes wrong every text forecast
/// after it is of no use: the next pass's first tests then start a test
/// latency later. Forecast too, its texts run beside the guessed branch's.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Branch {
    pub outcomes: Vec<bool>,
    pub chance: f64,
}

/// The texts `plan` will test after the candidates whose outcomes `request`
/// gives, if its guesses hold: those not known or running already, the
/// likeliest to be needed first; and the text it ends on, if the forecast
/// gets there. `input`: the text the plan started on.
pub(crate) fn forecast(
    plan: &Plan,
    views: &mut dyn Views,
    input: Arc<[u8]>,
    request: ForecastRequest<'_>,
    history: &dyn TestHistory,
) -> Forecast {
    let mut host = ForecastHost {
        views,
        history,
        request,
        best: input,
        tree: None,
        guarded: true,
        answered: 0,
        sure: request.sure,
        round: 1.0,
        texts: Vec::new(),
        seen: HashSet::new(),
        given: Vec::new(),
        branch: None,
        unparser: Unparser::new(),
        buffer: Vec::new(),
    };
    // it stops itself once it has what it wants
    let ended = plan.run(&mut host).is_ok();
    let likely = host.sure * host.round >= request.floor;
    let last = (ended && likely).then(|| host.best.clone());
    Forecast { texts: host.texts, last, branch: host.branch }
}

/// The plan's host and oracle of a forecast.
struct ForecastHost<'a, 'o> {
    views: &'a mut dyn Views,
    history: &'a dyn TestHistory,
    request: ForecastRequest<'o>,
    /// The best text, as the plan's outcomes so far make it.
    best: Arc<[u8]>,
    /// The view candidates are unparsed against.
    tree: Option<Arc<Tree>>,
    /// Whether the syntax guard answers the current pass.
    guarded: bool,
    /// Candidates answered so far.
    answered: usize,
    /// The chance that what was guessed so far holds, and that the probes
    /// of the current round turn out as guessed (as the scheduler counts them:
    /// `Chain::odds` in `oracle::dispatch::chain`).
    sure: f64,
    round: f64,
    texts: Vec<Arc<[u8]>>,
    seen: HashSet<TextKey>,
    /// The outcomes it gave the candidates past those it was given.
    given: Vec<bool>,
    branch: Option<Branch>,
    unparser: Unparser,
    buffer: Vec<u8>,
}

impl ForecastHost<'_, '_> {
    /// The outcome a candidate of text `self.buffer` is given; collects the
    /// text when it is to be tested ahead. `None`: the forecast has what it
    /// wants.
    fn guess(&mut self, context: Context, expect: bool, commit: bool) -> Option<bool> {
        if self.buffer[..] == *self.best {
            return Some(true);
        }
        let seen = self.history.seen(&self.buffer);
        if let Seen::Known(known) = seen {
            return Some(known);
        }
        let chance = self.history.chance(context, expect);
        if commit && self.branch.is_none() {
            let mut outcomes = self.given.clone();
            outcomes.push(chance <= 0.5);
            let other = chance.min(1.0 - chance);
            self.branch = Some(Branch { outcomes, chance: self.sure * other });
        }
        // a text the syntax guard would answer differently off than on is
        // not tested ahead (the oracle tests every text ahead under it)
        let fresh =
            self.guarded && seen == Seen::New && self.seen.insert(TextKey::of(&self.buffer));
        if fresh {
            self.texts.push(Arc::from(&self.buffer[..]));
        }
        let sure = chance.max(1.0 - chance);
        match commit {
            true => self.sure *= sure,
            false => self.round *= sure,
        }
        let enough = self.texts.len() >= self.request.want || self.sure < self.request.floor;
        (!enough).then_some(chance > 0.5)
    }
}

impl Host for ForecastHost<'_, '_> {
    fn view(&mut self, view: View) -> Option<Arc<Tree>> {
        let tree = self.views.view(view, &self.best)?;
        self.tree = Some(tree.clone());
        Some(tree)
    }

    fn oracle(&mut self, phase: Phase) -> &mut dyn Oracle {
        self.guarded = phase.guarded();
        self
    }
}

impl Oracle for ForecastHost<'_, '_> {
    fn evaluate(&mut self, candidates: &mut dyn Candidates) -> Verdict {
        let Some(tree) = self.tree.clone() else { return Verdict::Stopped };
        while let Some(c) = candidates.next() {
            let known = self.request.outcomes.get(self.answered).copied();
            self.answered += 1;
            let outcome = match known {
                Some(outcome) => outcome,
                None => {
                    if c.commit || c.opens_round {
                        // what follows depends on the round's probes
                        self.sure *= self.round;
                        self.round = 1.0;
                    }
                    self.unparser.unparse(&tree, &c.mask, &mut self.buffer);
                    match self.guess(c.context, c.expect, c.commit) {
                        Some(outcome) => {
                            self.given.push(outcome);
                            outcome
                        }
                        None => return Verdict::Stopped,
                    }
                }
            };
            if outcome && c.commit {
                self.unparser.unparse(&tree, &c.mask, &mut self.buffer);
                self.best = Arc::from(&self.buffer[..]);
            }
            candidates.settle(c.index, outcome);
        }
        Verdict::Finished
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::HashMap;

    use super::*;
    use crate::reduce::testing::flat_over;
    use crate::reduce::{Algorithm, Ddmin, Order};

    /// One view of every text: a flat tree of its bytes.
    struct Flat;

    impl Views for Flat {
        fn view(&mut self, view: View, text: &Arc<[u8]>) -> Option<Arc<Tree>> {
            (view == View::Language && !text.is_empty()).then(|| Arc::new(flat_over(text.clone())))
        }
    }

    /// A history that knows the texts a map holds and guesses `chance`.
    struct MapHistory<'m> {
        map: &'m RefCell<HashMap<Vec<u8>, bool>>,
        chance: f64,
    }

    impl TestHistory for MapHistory<'_> {
        fn chance(&self, _: Context, _: bool) -> f64 {
            self.chance
        }
        fn seen(&self, text: &[u8]) -> Seen {
            self.map.borrow().get(text).map_or(Seen::New, |&b| Seen::Known(b))
        }
    }

    fn plan() -> Plan {
        Plan {
            algorithm: Algorithm::HddPlus,
            ddmin: Ddmin::Adaptive,
            order: Order::Forward,
            token_order: Order::Forward,
            hoist: false,
            coordinated: false,
            tokens: false,
            shrink: false,
            rename: false,
            layout: false,
            format: false,
            batch: None,
        }
    }

    /// A host whose oracle is an in-memory predicate on the text, logging
    /// each candidate's text and outcome in order.
    struct Real<'p> {
        best: Arc<[u8]>,
        tree: Option<Arc<Tree>>,
        interesting: &'p dyn Fn(&[u8]) -> bool,
        log: Vec<(Vec<u8>, bool)>,
    }

    impl Host for Real<'_> {
        fn view(&mut self, view: View) -> Option<Arc<Tree>> {
            let tree = Flat.view(view, &self.best)?;
            self.tree = Some(tree.clone());
            Some(tree)
        }
        fn oracle(&mut self, _: Phase) -> &mut dyn Oracle {
            self
        }
    }

    impl Oracle for Real<'_> {
        fn evaluate(&mut self, candidates: &mut dyn Candidates) -> Verdict {
            let tree = self.tree.clone().expect("a view");
            let mut unparser = Unparser::new();
            while let Some(c) = candidates.next() {
                let mut text = Vec::new();
                unparser.unparse(&tree, &c.mask, &mut text);
                let outcome = text[..] == *self.best || (self.interesting)(&text);
                if outcome && c.commit {
                    self.best = Arc::from(&text[..]);
                }
                self.log.push((text, outcome));
                candidates.settle(c.index, outcome);
            }
            Verdict::Finished
        }
    }

    #[test]
    fn a_forecast_on_the_settled_outcomes_names_the_texts_the_plan_tries_next() {
        // (punctuation: no deletion glues two of its bytes into a token)
        let input: Arc<[u8]> = Arc::from(&b"(){}[];,.:"[..]);
        let keep = |t: &[u8]| t.contains(&b'{') && t.contains(&b']');
        let mut real = Real { best: input.clone(), tree: None, interesting: &keep, log: vec![] };
        plan().run(&mut real).expect("no stop");
        let outcomes: Vec<bool> = real.log.iter().map(|(_, o)| *o).collect();
        let map = RefCell::new(HashMap::new());
        // from every point of the run, knowing the outcomes before it: the
        // next texts, as long as the guesses hold (here: always guessed to
        // fail, and known where a test ran)
        for cut in 0..outcomes.len() {
            map.borrow_mut().clear();
            let history = MapHistory { map: &map, chance: 0.0 };
            let request =
                ForecastRequest { outcomes: &outcomes[..cut], want: 3, sure: 1.0, floor: 0.2 };
            let texts = forecast(&plan(), &mut Flat, input.clone(), request, &history).texts;
            // what the run tried next, up to the first guess that failed
            let mut next: Vec<&[u8]> = Vec::new();
            for (text, outcome) in &real.log[cut..] {
                if next.len() < 3 && !next.contains(&&text[..]) {
                    next.push(text);
                }
                if *outcome {
                    break;
                }
            }
            let got: Vec<&[u8]> = texts.iter().map(|t| &t[..]).collect();
            assert!(got.len() <= 3);
            assert_eq!(got[..next.len()], next[..], "after {cut} outcomes");
        }
        // every outcome known: the forecast gets to the end, on the result
        let history = MapHistory { map: &map, chance: 0.0 };
        let request = ForecastRequest { outcomes: &outcomes, want: 3, sure: 1.0, floor: 0.2 };
        let result = forecast(&plan(), &mut Flat, input.clone(), request, &history);
        assert!(result.texts.is_empty());
        assert_eq!(result.last.as_deref(), Some(&real.best[..]));
    }

    #[test]
    fn a_forecast_skips_texts_already_known_and_stops_at_its_floor() {
        let input: Arc<[u8]> = Arc::from(&b"(){}[];,.:(){}[];,.:(){}[];,.:(){}[];,.:"[..]);
        let map = RefCell::new(HashMap::new());
        let request = ForecastRequest { outcomes: &[], want: 100, sure: 1.0, floor: 0.2 };
        // every guess 0.9 sure of a failure, each of a change that commits:
        // 0.9^16 < 0.2 < 0.9^15
        let history = MapHistory { map: &map, chance: 0.1 };
        let result = forecast(&plan(), &mut Flat, input.clone(), request, &history);
        let texts = result.texts;
        assert_eq!(texts.len(), 16);
        // stopped at its floor, it cannot say where the plan ends
        assert_eq!(result.last, None);
        // the first text known to fail: it is not collected again
        map.borrow_mut().insert(texts[0].to_vec(), false);
        let again = forecast(&plan(), &mut Flat, input.clone(), request, &history).texts;
        assert_eq!(again[0], texts[1]);
        // a forecast never tests the input itself
        assert!(texts.iter().all(|t| **t != *input));
    }

    #[test]
    fn a_forecast_names_the_other_branch_of_its_first_guess() {
        let input: Arc<[u8]> = Arc::from(&b"(){}[];,.:"[..]);
        let map = RefCell::new(HashMap::new());
        // every candidate guessed to fail, 0.9 sure
        let history = MapHistory { map: &map, chance: 0.1 };
        let request = ForecastRequest { outcomes: &[], want: 100, sure: 1.0, floor: 0.2 };
        let main = forecast(&plan(), &mut Flat, input.clone(), request, &history);
        let branch = main.branch.expect("a branch");
        // the first candidate, taken after all
        assert_eq!(branch.outcomes, [true]);
        assert!((branch.chance - 0.1).abs() < 1e-9, "{}", branch.chance);
        let first = main.texts[0].clone();
        let request =
            ForecastRequest { outcomes: &branch.outcomes, want: 3, sure: 1.0, floor: 0.2 };
        let other = forecast(&plan(), &mut Flat, input.clone(), request, &history).texts;
        // what the plan tries when only that first candidate is interesting
        let only_first = |t: &[u8]| *t == first[..];
        let mut real =
            Real { best: input.clone(), tree: None, interesting: &only_first, log: vec![] };
        plan().run(&mut real).expect("no stop");
        assert_eq!(real.log[0], (first.to_vec(), true));
        let mut next: Vec<&[u8]> = Vec::new();
        for (text, _) in &real.log[1..] {
            if next.len() < 3 && !next.contains(&&text[..]) && *text != first[..] {
                next.push(text);
            }
        }
        let got: Vec<&[u8]> = other.iter().map(|t| &t[..]).collect();
        assert_eq!(got, next);
        // none of them is a text the guessed branch names
        assert!(other.iter().all(|t| !main.texts.contains(t)));
    }
}
