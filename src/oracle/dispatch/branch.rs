//! The other branch of a pending guess, on workers the chain leaves free.
//!
//! A wrong guess costs a full test latency however many workers there
//! are, and the chain of guesses soon gets too unlikely to go deeper; so
//! free workers also take the other branch of the chain's guesses: the
//! candidates the stream would hand out if a pending candidate turned out
//! the other way. A free worker goes to whichever candidate, of the chain
//! or of such a branch, is likeliest to be needed, none below
//! [`MIN_CHANCE`] (a branch's down to [`SPARE_CHANCE`] while fewer tests
//! were wasted than used). A branch's tests wait beside the chain: when
//! the answer does go against the guess, the stream hands the same
//! candidates out again and they are matched like a test left behind
//! ([`super::left_behind`]), so the branch starts with its tests done or
//! running rather than a latency late; a confirmed guess cancels them. A
//! probe's other branch is what follows its failure in the same round: a
//! failed hoist's next target.
//!
//! Invariant: fetching a branch moves the stream onto it and
//! [`Dispatch::restore`] brings it back, to the same candidates under the
//! same assumptions; this only decides what runs early, and outcomes
//! still reach the search in order.

use std::collections::BTreeMap;
use std::time::Instant;

use super::left_behind::{MaskedTest, TestState};
use super::{known, Dispatch, DispatchHost, Workers};
use crate::oracle::check::{Done, Eval};
use crate::oracle::runner::Outcome;
use crate::oracle::tuning::{MIN_CHANCE, SPARE_CHANCE};
use crate::reduce::{Candidates, Step, Verdict};

/// A test of the other branch of a guess, and what that branch assumes
/// of its candidate.
pub(super) struct BranchTest {
    pub test: MaskedTest,
    pub assumed: bool,
    /// The chance that it turns out as assumed (1 once its answer is in).
    pub sure: f64,
    /// Whether it changes what follows if interesting.
    pub commit: bool,
}

/// The tests of the first candidates the stream would hand out if a
/// pending candidate turned out otherwise than assumed.
#[derive(Default)]
pub(super) struct BranchTests {
    pub tests: Vec<BranchTest>,
    /// The branch has no more to hand out (or only a merge that waits).
    pub ended: bool,
}

impl BranchTests {
    /// The chance that what the branch assumes of its candidates holds.
    fn holds(&self) -> f64 {
        self.tests.iter().filter(|r| r.commit).map(|r| r.sure).product()
    }

    /// Its tests, to keep or drop.
    pub(super) fn into_tests(self) -> impl Iterator<Item = MaskedTest> {
        self.tests.into_iter().map(|r| r.test)
    }
}

/// The other branches of the chain's pending guesses.
#[derive(Default)]
pub(super) struct Branches {
    /// By pending candidate: the tests of the first candidates the stream
    /// would hand out if it turned out otherwise than assumed. Matched
    /// when its answer goes against the guess, cancelled when it does not.
    pub by_pending: BTreeMap<usize, BranchTests>,
    /// The run has wasted fewer tests than it used, when last asked (see
    /// [`SPARE_CHANCE`]).
    pub spare: bool,
}

impl Branches {
    /// Their tests, all of them.
    pub(super) fn tests(&self) -> impl Iterator<Item = &BranchTest> {
        self.by_pending.values().flat_map(|b| &b.tests)
    }
}

impl Dispatch {
    /// Spends a free worker (or more) on the other branch of a guess of
    /// the chain, the one most likely to be needed, while it is likelier
    /// to be needed than the chain's next candidate. Whether it did.
    pub(super) fn feed_other(
        &mut self,
        host: &mut dyn DispatchHost,
        candidates: &mut dyn Candidates,
        workers: &dyn Workers,
    ) -> Result<bool, Verdict> {
        let room = host.jobs().saturating_sub(self.running());
        let Some((at, _, rival)) = self.likeliest_branch().filter(|_| room > 0) else {
            return Ok(false);
        };
        let chain = self.chain.chance();
        let wanted = !self.chain.exhausted && self.chain.held.is_none() && chain >= MIN_CHANCE;
        let rival = match wanted {
            true => rival.max(chain),
            false => rival,
        };
        let fetched = self.fetch_other(host, candidates, at, rival, room, workers);
        self.restore(host, candidates, at);
        fetched
    }

    /// The pending candidate whose other branch's next candidate is the
    /// likeliest to be needed, of those not answered (a probe's other
    /// branch is a failed hoist's next target); and the chance of the
    /// runner-up (or the floor).
    pub(super) fn likeliest_branch(&self) -> Option<(usize, f64, f64)> {
        let floor = if self.branches.spare { SPARE_CHANCE } else { MIN_CHANCE };
        let mut before = 1.0;
        let (mut best, mut rival): (Option<(usize, f64)>, f64) = (None, floor);
        for (&i, p) in &self.chain.pending {
            if self.chain.answers.contains_key(&i) {
                continue;
            }
            let branch = self.branches.by_pending.get(&i);
            let held = Some(i) == self.chain.held.map(|h| h.0);
            let open = !branch.is_some_and(|r| r.ended) && !held;
            let chance = before * (1.0 - p.sure) * branch.map_or(1.0, BranchTests::holds);
            if open && chance >= floor {
                match best {
                    Some((_, b)) if b >= chance => rival = rival.max(chance),
                    _ => {
                        rival = rival.max(best.map_or(floor, |b| b.1));
                        best = Some((i, chance));
                    }
                }
            }
            // a probe changes nothing the chain's candidates depend on:
            // only whether a failed hoist's next target comes first
            if p.commit {
                before *= p.sure;
            }
        }
        best.map(|(i, chance)| (i, chance, rival))
    }

    /// Hands out, beside the chain, up to `room` more candidates of the
    /// branch the stream would take if candidate `at` turned out otherwise
    /// than assumed, while they are needed with a chance of at least
    /// `rival`. Leaves the stream on that branch: [`Dispatch::restore`]
    /// undoes it.
    fn fetch_other(
        &mut self,
        host: &dyn DispatchHost,
        candidates: &mut dyn Candidates,
        at: usize,
        rival: f64,
        room: usize,
        workers: &dyn Workers,
    ) -> Result<bool, Verdict> {
        let p = &self.chain.pending[&at];
        let before = self
            .chain
            .pending
            .range(..at)
            .filter(|(i, p)| p.commit && !self.chain.answers.contains_key(i))
            .map(|(_, p)| p.sure)
            .product::<f64>();
        let mut chance = before * (1.0 - p.sure);
        candidates.assume(at, !p.assumed);
        let mut branch = self.branches.by_pending.remove(&at).unwrap_or_default();
        self.replay_branch(candidates, &mut branch);
        chance *= branch.holds();
        let (mut launched, was) = (0, (branch.tests.len(), branch.ended));
        let sent = loop {
            if launched == room || chance < rival || branch.ended {
                break Ok(());
            }
            if !self.window_open(host, branch.tests.len()) {
                break Ok(());
            }
            let test = match self.next_branch_test(host, candidates, &mut branch, workers) {
                Ok(Some(test)) => test,
                Ok(None) => break Ok(()),
                Err(verdict) => break Err(verdict),
            };
            if let TestState::Running(_) = test.test.state {
                launched += 1;
            }
            if test.commit {
                chance *= test.sure;
            }
            branch.tests.push(test);
        };
        let fetched = (branch.tests.len(), branch.ended) != was;
        self.branches.by_pending.insert(at, branch);
        sent.map(|()| fetched)
    }

    /// Takes the stream down the candidates `branch` holds already, under
    /// the same assumptions.
    fn replay_branch(&mut self, candidates: &mut dyn Candidates, branch: &mut BranchTests) {
        for (k, r) in branch.tests.iter().enumerate() {
            match candidates.next() {
                Some(c) if c.mask == r.test.mask => {
                    if c.expect != r.assumed {
                        candidates.assume(c.index, r.assumed);
                    }
                }
                _ => {
                    debug_assert!(false, "the stream changed under the same assumptions");
                    let dropped = branch.tests.split_off(k);
                    self.left_behind.extend(dropped.into_iter().map(|r| r.test));
                    branch.ended = true;
                    break;
                }
            }
        }
    }

    /// The test of the stream's next candidate on `branch`, taken from
    /// those left behind or sent to a worker; `None` when the branch ends
    /// there (the stream's end, a merge that waits for probes not answered
    /// yet, or a candidate the chain has already).
    fn next_branch_test(
        &mut self,
        host: &dyn DispatchHost,
        candidates: &mut dyn Candidates,
        branch: &mut BranchTests,
        workers: &dyn Workers,
    ) -> Result<Option<BranchTest>, Verdict> {
        let Some(c) = candidates.next() else {
            branch.ended = true;
            return Ok(None);
        };
        if c.context.step == Step::Merge {
            // it waits for probes not answered yet (see `Dispatch::hand_out`)
            branch.ended = true;
            return Ok(None);
        }
        if self.chain.pending.values().any(|p| p.mask == c.mask) {
            // the branch is back on the chain (after a failed hoist's next
            // target, the round's next hoists): those run already
            branch.ended = true;
            return Ok(None);
        }
        let odds = host.chance(c.context, c.expect);
        let mut assumed = odds > 0.5;
        let mut sure = odds.max(1.0 - odds);
        let test = match self.take_left_behind(&c.mask) {
            Some(kept) => kept,
            None => {
                let input = self.jobs.of_mask(c.mask.clone());
                let flight = self.jobs.send(workers, c.index, c.level, input)?;
                MaskedTest { mask: c.mask, state: TestState::Running(flight), other: true }
            }
        };
        if let TestState::Answered(done) = &test.state {
            if let Some(known) = known(done) {
                (assumed, sure) = (known, 1.0);
            }
        }
        if assumed != c.expect {
            candidates.assume(c.index, assumed);
        }
        Ok(Some(BranchTest { test, assumed, sure, commit: c.commit }))
    }

    /// Brings the stream back to the chain of guesses after
    /// [`Dispatch::fetch_other`] about candidate `at`: the same candidates
    /// again, under the same assumptions.
    fn restore(&mut self, host: &mut dyn DispatchHost, candidates: &mut dyn Candidates, at: usize) {
        candidates.assume(at, self.chain.pending[&at].assumed);
        let mut diverged = None;
        for (&i, p) in self.chain.pending.range(at + 1..) {
            match candidates.next() {
                Some(c) if c.index == i && c.mask == p.mask => {
                    if c.expect != p.assumed {
                        candidates.assume(i, p.assumed);
                    }
                }
                _ => {
                    diverged = Some(i - 1);
                    break;
                }
            }
        }
        // a search proposes the same under the same outcomes; were it not
        // so, the chain goes on from where it still agrees
        debug_assert_eq!(diverged, None, "the stream changed under the same assumptions");
        if let Some(i) = diverged {
            let assumed = self.chain.pending[&i].assumed;
            self.assume(host, candidates, i, assumed);
        }
    }

    /// Takes in the answer of a test not in the chain: one of another
    /// branch, or one cancelled since (a candidate no longer in the
    /// stream).
    pub(super) fn answer_branch(&mut self, host: &mut dyn DispatchHost, done: Done, now: Instant) {
        let ticket = done.ticket;
        let found = self.branches.by_pending.values_mut().find_map(|branch| {
            let k = branch.tests.iter().position(
                |r| matches!(&r.test.state, TestState::Running(f) if f.ticket == ticket),
            )?;
            Some((branch, k))
        });
        let Some((branch, k)) = found else {
            host.waste(&done);
            return;
        };
        if let TestState::Running(flight) = &branch.tests[k].test.state {
            if let Ok(Eval::Tested(outcome, _)) = &done.eval {
                if !matches!(outcome, Outcome::Timeout | Outcome::Cancelled) {
                    let took = now.saturating_duration_since(flight.sent);
                    host.timing().record(outcome.is_interesting(), took);
                }
            }
        }
        let Some(outcome) = known(&done) else {
            // cancelled or failed: the branch is cut here, to be run again
            let dropped: Vec<MaskedTest> = branch.tests.drain(k..).map(|r| r.test).collect();
            branch.ended = false;
            host.waste(&done);
            self.drop_tests(host, dropped);
            return;
        };
        let r = &mut branch.tests[k];
        r.test.state = TestState::Answered(done);
        r.sure = 1.0;
        if outcome != r.assumed {
            // what the branch handed out after it assumed otherwise
            r.assumed = outcome;
            let dropped: Vec<MaskedTest> = branch.tests.drain(k + 1..).map(|r| r.test).collect();
            branch.ended = false;
            self.drop_tests(host, dropped);
        }
    }
}
