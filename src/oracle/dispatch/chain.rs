//! The chain of guesses: the candidates of the sequential order handed out
//! on assumed outcomes of the ones before them, and their answers settled
//! strictly in that order.
//!
//! Each candidate handed out assumes a guess about the ones before it (see
//! [`predict`](crate::oracle::predict)). An answer that comes back other
//! than assumed changes the assumption at once ([`Dispatch::assume`]): what
//! followed is left behind ([`super::left_behind`]) and the stream goes on
//! from there, without waiting for earlier tests; so does a test that has
//! run long enough to be guessed again as passing. The chain goes only as
//! deep as its chance of being needed allows
//! ([`MIN_CHANCE`]), and a round's first
//! probe counts the probes of the round before it, on which it depends
//! ([`Search::opens_round`](crate::reduce::Search::opens_round)).
//!
//! Invariant: only settled outcomes reach the search, in order, so the
//! result is the same for every `-j`.

use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

use super::left_behind::{MaskedTest, TestState};
use super::{known, Dispatch, DispatchHost, Flight, Workers};
use crate::oracle::check::{Done, Eval};
use crate::oracle::runner::Outcome;
use crate::oracle::tuning::MIN_CHANCE;
use crate::reduce::{Candidate, Candidates, Context, Step, Verdict};
use crate::syntax::Mask;

/// A candidate handed out and not settled yet.
pub(super) struct Pending {
    /// Its test was one of the other branch of a guess.
    pub other: bool,
    pub mask: Mask,
    pub context: Context,
    /// Whether it becomes the best if interesting.
    pub commit: bool,
    /// It opens a round of probes: it depends on the outcomes of the
    /// probes before it, as the other probes of its round do not.
    pub opens_round: bool,
    /// What it was guessed to turn out when handed out.
    pub guess: bool,
    /// What the stream now assumes.
    pub assumed: bool,
    /// The chance that it turns out as assumed (1 once its answer is in).
    pub sure: f64,
}

/// The chain's candidates, their tests and their answers.
#[derive(Default)]
pub(super) struct Chain {
    /// Every candidate handed out and not settled, by index.
    pub pending: BTreeMap<usize, Pending>,
    /// Their tests running, by index.
    pub flying: BTreeMap<usize, Flight>,
    /// Which candidate each ticket in flight is for now.
    pub tickets_at: HashMap<u64, usize>,
    /// Answers waiting for the candidates before them.
    pub answers: BTreeMap<usize, Done>,
    /// A merge handed out but not sent to a worker until every candidate
    /// before it has its answer: its index and HDD level.
    pub held: Option<(usize, Option<usize>)>,
    /// Every candidate before this one is settled.
    pub settled: usize,
    /// The stream has no candidate left under the current assumptions.
    pub exhausted: bool,
}

impl Chain {
    /// The chance that the chain's next candidate will be needed: that the
    /// outcomes assumed for the changes before it that are not answered
    /// yet all hold. It is handed out only if at least [`MIN_CHANCE`]. (A
    /// probe changes nothing the candidates after it depend on, but its
    /// merge, which is held until the probes are answered.)
    pub(super) fn chance(&self) -> f64 {
        self.odds().0
    }

    /// The chance that the chain's next candidate will be needed if it is
    /// of the round of the last one handed out (see [`Chain::chance`]),
    /// and the factor by which it is smaller if it opens a round: the
    /// chance that the probes of the last round not answered yet turn out
    /// as assumed (all fail, or the round would end in a merge).
    pub(super) fn odds(&self) -> (f64, f64) {
        let (mut chance, mut round) = (1.0, 1.0);
        for (i, p) in &self.pending {
            if p.opens_round {
                chance *= round;
                round = 1.0;
            }
            if self.answers.contains_key(i) {
                continue;
            }
            match p.commit {
                true => chance *= p.sure,
                false => round *= p.sure,
            }
        }
        (chance, round)
    }

    /// Whether every candidate before `index` has its answer.
    pub(super) fn answered_before(&self, index: usize) -> bool {
        self.pending.range(..index).all(|(i, _)| self.answers.contains_key(i))
    }
}

impl Dispatch {
    /// Hands out the chain's next candidates while they are likelier to be
    /// needed than those of another branch, and while the stream hands out
    /// again what a change of assumption left behind. Whether it handed
    /// out any.
    pub(super) fn feed_chain(
        &mut self,
        host: &dyn DispatchHost,
        candidates: &mut dyn Candidates,
        workers: &dyn Workers,
    ) -> Result<bool, Verdict> {
        let mut fed = false;
        while !self.chain.exhausted && self.chain.held.is_none() {
            let chain = self.chain.chance();
            let wanted = self.running() < host.jobs()
                && self.window_open(host, 0)
                && chain >= MIN_CHANCE
                && self.likeliest_branch().is_none_or(|(_, other, _)| chain >= other);
            if !wanted && self.left_behind.is_empty() {
                break;
            }
            let Some(c) = candidates.next() else {
                self.chain.exhausted = true;
                break;
            };
            // a round's first probe is needed only if the probes of the
            // round before it all fail, as assumed
            let wanted = wanted && (!c.opens_round || self.round_wanted());
            let kept = self.take_left_behind(&c.mask);
            if kept.is_none() && !wanted {
                // not needed yet, and not run before: the stream takes it
                // back (with nothing pending it is needed for sure)
                if let Some((&last, p)) = self.chain.pending.last_key_value() {
                    candidates.assume(last, p.assumed);
                    break;
                }
            }
            fed = true;
            self.hand_out(host, candidates, c, kept, workers)?;
        }
        Ok(fed)
    }

    /// Makes `c` the chain's next pending candidate, with its test `kept`
    /// from before a change of assumption if there is one, else sent to a
    /// worker (or held, for a merge).
    fn hand_out(
        &mut self,
        host: &dyn DispatchHost,
        candidates: &mut dyn Candidates,
        c: Candidate,
        kept: Option<MaskedTest>,
        workers: &dyn Workers,
    ) -> Result<(), Verdict> {
        let chance = host.chance(c.context, c.expect);
        let guess = chance > 0.5;
        let mut sure = chance.max(1.0 - chance);
        let mut assumed = guess;
        let other = kept.as_ref().is_some_and(|k| k.other);
        let state = kept.map(|k| k.state);
        if let Some(TestState::Answered(done)) = &state {
            // assume what it turned out, as if it came back now
            assumed = known(done).unwrap_or(guess);
            sure = 1.0;
        }
        if assumed != c.expect {
            candidates.assume(c.index, assumed);
        }
        let (index, level, mask) = (c.index, c.level, c.mask.clone());
        let pending = Pending {
            other,
            mask: c.mask,
            context: c.context,
            commit: c.commit,
            opens_round: c.opens_round,
            guess,
            assumed,
            sure,
        };
        self.chain.pending.insert(index, pending);
        match state {
            Some(TestState::Running(flight)) => {
                self.chain.tickets_at.insert(flight.ticket, index);
                self.chain.flying.insert(index, flight);
            }
            Some(TestState::Answered(mut done)) => {
                done.index = index;
                self.chain.answers.insert(index, done);
            }
            None if c.context.step == Step::Merge && !self.chain.answered_before(index) => {
                // a merge depends on every probe of its round: testing
                // it (and what follows) on guessed probes is mostly waste
                self.chain.held = Some((index, level));
            }
            None => self.launch(index, level, mask, workers)?,
        }
        Ok(())
    }

    /// Whether a candidate that opens a round is to be handed out now: it
    /// is likely enough to be needed, and likelier than the other branch
    /// of a guess.
    fn round_wanted(&self) -> bool {
        let (chance, round) = self.chain.odds();
        let chance = chance * round;
        chance >= MIN_CHANCE && self.likeliest_branch().is_none_or(|(_, other, _)| chance >= other)
    }

    /// Sends candidate `index` to a worker.
    pub(super) fn launch(
        &mut self,
        index: usize,
        level: Option<usize>,
        mask: Mask,
        workers: &dyn Workers,
    ) -> Result<(), Verdict> {
        let input = self.jobs.of_mask(mask);
        let flight = self.jobs.send(workers, index, level, input)?;
        self.chain.tickets_at.insert(flight.ticket, index);
        self.chain.flying.insert(index, flight);
        Ok(())
    }

    /// Settles the answers that are next in order.
    pub(super) fn settle_answered(
        &mut self,
        host: &mut dyn DispatchHost,
        candidates: &mut dyn Candidates,
    ) -> Result<(), Verdict> {
        while let Some(done) = self.chain.answers.remove(&self.chain.settled) {
            let settled = self.chain.settled;
            let p = self.chain.pending.remove(&settled).expect("answered candidates are pending");
            let interesting =
                host.settle(p.guess, p.context, p.commit, &p.mask, done).ok_or(Verdict::Stopped)?;
            debug_assert_eq!(interesting, p.assumed, "a divergence was assumed when it arrived");
            if p.other {
                host.other_branch_used();
            }
            candidates.settle(settled, interesting);
            if let Some(branch) = self.branches.by_pending.remove(&settled) {
                self.drop_tests(host, branch.into_tests().collect());
            }
            self.chain.settled += 1;
        }
        Ok(())
    }

    /// Takes in the answer of the chain's candidate `index`.
    pub(super) fn answer_chain(
        &mut self,
        host: &mut dyn DispatchHost,
        candidates: &mut dyn Candidates,
        index: usize,
        mut done: Done,
        now: Instant,
    ) {
        done.index = index;
        let flight = self.chain.flying.remove(&index).expect("tickets are of tests in flight");
        if let Ok(Eval::Tested(outcome, _)) = &done.eval {
            if !matches!(outcome, Outcome::Timeout | Outcome::Cancelled) {
                let took = now.saturating_duration_since(flight.sent);
                host.timing().record(outcome.is_interesting(), took);
            }
        }
        let outcome = known(&done);
        self.chain.answers.insert(index, done);
        match outcome {
            Some(interesting) if interesting != self.chain.pending[&index].assumed => {
                self.assume(host, candidates, index, interesting);
            }
            _ => {
                // the guess holds: its other branch is not needed
                if let Some(branch) = self.branches.by_pending.remove(&index) {
                    self.drop_tests(host, branch.into_tests().collect());
                }
            }
        }
    }

    /// Assumes candidate `index` turns out `interesting`: everything after it
    /// assumed otherwise, so it is cancelled and the stream goes on from there.
    pub(super) fn assume(
        &mut self,
        host: &mut dyn DispatchHost,
        candidates: &mut dyn Candidates,
        index: usize,
        interesting: bool,
    ) {
        // what followed is left behind: cancelled at the next hand-out,
        // unless the stream hands the same candidate out again
        let chain = &mut self.chain;
        let mut left = chain.pending.split_off(&(index + 1));
        chain.held = chain.held.filter(|&(i, _)| i <= index);
        for (i, flight) in chain.flying.split_off(&(index + 1)) {
            let p = left.remove(&i).expect("candidates in flight are pending");
            let state = TestState::Running(flight);
            self.left_behind.push(MaskedTest { mask: p.mask, state, other: p.other });
        }
        for (i, done) in chain.answers.split_off(&(index + 1)) {
            match left.remove(&i) {
                Some(p) if known(&done).is_some() => {
                    let state = TestState::Answered(done);
                    self.left_behind.push(MaskedTest { mask: p.mask, state, other: p.other });
                }
                _ => host.waste(&done),
            }
        }
        // the other branch of `index` is the branch now taken; those after
        // it were fetched under assumptions that no longer hold, and are
        // kept only if the stream hands the same candidates out again
        let branches = self.branches.by_pending.split_off(&index).into_values();
        self.left_behind.extend(branches.flat_map(|b| b.into_tests()));
        chain.pending.get_mut(&index).expect("assumptions are about pending candidates").assumed =
            interesting;
        candidates.assume(index, interesting);
        chain.exhausted = false;
        self.cancel_ahead();
    }
}
