//! The `-j` scheduler: keeps up to N candidates of the sequential order in
//! flight on worker threads and settles their answers in that order.
//!
//! [`Dispatch`] drives one pass: it hands candidates to the workers while
//! they are likely enough to be needed, takes in their answers, settles
//! them in order, and moves speculation when an answer (or a long-running
//! test) goes against what was assumed. Its parts, a file each:
//!
//! - [`chain`]: the chain of guesses, each candidate handed out on
//!   assumed outcomes of the ones before it, settled strictly in order;
//! - [`left_behind`]: the tests a change of assumption left behind, kept
//!   in case the stream hands the same candidates out again;
//! - [`branch`]: the other branch of a pending guess, on workers the chain
//!   leaves free;
//! - [`ahead`]: once the stream has no candidate left, tests ahead of the
//!   next passes and the final re-check, and what a pass hands the next;
//! - [`host`]: the evaluator and the workers, as traits, so that the
//!   scheduler runs alone in its tests.
//!
//! What runs when is a matter of chances against the floors of
//! [`tuning`](crate::oracle::tuning). Invariant: only settled outcomes
//! reach the search, in the sequential order, so the result is the same
//! for every N; speculation changes only which tests run, and when.

use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::Instant;

use crate::oracle::check::{Done, Eval, Input, Job};
use crate::oracle::runner::Outcome;
use crate::oracle::tuning::{MIN_WINDOW, STOP_POLL, WINDOW_PER_JOB};
use crate::os::stop::Cancel;
use crate::reduce::{Candidates, Verdict};
use crate::syntax::{Mask, Tree};

mod ahead;
mod branch;
mod chain;
mod host;
mod left_behind;
#[cfg(test)]
mod tests;

pub(super) use ahead::Handover;
pub(super) use host::{DispatchHost, Workers};

use ahead::AheadTests;
use branch::Branches;
use chain::Chain;
use left_behind::{MaskedTest, TestState};

/// The bookkeeping of one pass's parallel evaluation (see the module's
/// documentation).
pub(super) struct Dispatch {
    jobs: JobMaker,
    chain: Chain,
    /// What the last change of assumption left behind, until the next
    /// candidates are handed out.
    left_behind: Vec<MaskedTest>,
    branches: Branches,
    ahead: AheadTests,
}

/// A job handed to a worker and not answered yet.
struct Flight {
    ticket: u64,
    cancel: Arc<Cancel>,
    sent: Instant,
    /// Already guessed again as interesting because it ran long.
    guessed_again: bool,
}

/// Makes the workers' jobs: each with a ticket of its own, candidates
/// unparsed against the pass's tree.
struct JobMaker {
    tree: Arc<Tree>,
    /// The last ticket handed out.
    tickets: u64,
}

impl JobMaker {
    /// The input of a candidate of the pass.
    fn of_mask(&self, mask: Mask) -> Input {
        Input::Mask(self.tree.clone(), mask)
    }

    /// Sends `input` to the workers as candidate `index` (of HDD level
    /// `level`) under a new ticket; the test in flight.
    fn send(
        &mut self,
        workers: &dyn Workers,
        index: usize,
        level: Option<usize>,
        input: Input,
    ) -> Result<Flight, Verdict> {
        self.tickets += 1;
        let (ticket, cancel) = (self.tickets, Arc::new(Cancel::default()));
        let job = Job { ticket, index, level, input, cancel: cancel.clone() };
        let flight = Flight { ticket, cancel, sent: workers.now(), guessed_again: false };
        match workers.send(job) {
            true => Ok(flight),
            false => Err(Verdict::Stopped),
        }
    }
}

impl Dispatch {
    /// The scheduling of a pass over `tree`, after what the pass before it
    /// handed on.
    pub(super) fn new(tree: Arc<Tree>, handover: Handover) -> Dispatch {
        Dispatch {
            jobs: JobMaker { tree, tickets: handover.tickets },
            chain: Chain::default(),
            left_behind: Vec::new(),
            branches: Branches::default(),
            ahead: AheadTests::after(handover),
        }
    }

    /// What the next pass's scheduling takes on: the tickets, and the
    /// tests ahead of a pass that ended as assumed.
    pub(super) fn into_handover(self) -> Handover {
        self.ahead.into_handover(self.jobs.tickets)
    }

    /// Settles `candidates` in order on `workers`, for `host`.
    pub(super) fn run(
        &mut self,
        host: &mut dyn DispatchHost,
        candidates: &mut dyn Candidates,
        workers: &dyn Workers,
    ) -> Verdict {
        let verdict = loop {
            if host.must_stop() {
                break Verdict::Stopped;
            }
            if let Err(verdict) = self.feed(host, candidates, workers) {
                break verdict;
            }
            let settled = self.chain.settled;
            if let Err(verdict) = self.settle_answered(host, candidates) {
                break verdict;
            }
            if self.chain.exhausted && self.chain.pending.is_empty() {
                break Verdict::Finished;
            }
            if self.chain.settled != settled {
                // settling may have made room for what waited (the waste
                // bound counts a used test once it is settled): feed again
                // before waiting for the next answer
                continue;
            }
            if let Err(verdict) = self.wait(host, candidates, workers) {
                break verdict;
            }
        };
        self.finish(host, verdict);
        verdict
    }

    /// Waits for an answer and takes it in, or, if none comes first,
    /// guesses again a test in flight that is due to be (see
    /// [`Timing`](crate::oracle::predict::Timing)).
    fn wait(
        &mut self,
        host: &mut dyn DispatchHost,
        candidates: &mut dyn Candidates,
        workers: &dyn Workers,
    ) -> Result<(), Verdict> {
        let now = workers.now();
        let due = host.timing().likely_interesting_after().and_then(|after| {
            self.chain
                .flying
                .iter()
                .filter(|(i, f)| !f.guessed_again && !self.chain.pending[i].assumed)
                .map(|(&i, f)| (f.sent + after, i))
                .min()
        });
        let mut wait = STOP_POLL;
        if let Some(d) = host.deadline() {
            wait = wait.min(d.saturating_duration_since(now));
        }
        if let Some((at, _)) = due {
            wait = wait.min(at.saturating_duration_since(now));
        }
        match workers.recv_timeout(wait) {
            Ok(done) => self.answer(host, candidates, done, workers.now()),
            Err(RecvTimeoutError::Timeout) => {
                if let Some((at, index)) = due.filter(|&(at, _)| workers.now() >= at) {
                    debug_assert!(at <= workers.now());
                    let flight =
                        self.chain.flying.get_mut(&index).expect("due tests are in flight");
                    flight.guessed_again = true;
                    host.guessed_again();
                    self.assume(host, candidates, index, true);
                }
            }
            Err(RecvTimeoutError::Disconnected) => return Err(Verdict::Stopped),
        }
        Ok(())
    }

    /// Ends the pass with `verdict`: cancels the chain's tests in flight
    /// and what waits beside it, hands on the tests ahead of a pass that
    /// ended as assumed, and accounts for unsettled answers as waste.
    fn finish(&mut self, host: &mut dyn DispatchHost, verdict: Verdict) {
        for flight in self.chain.flying.values() {
            flight.cancel.set();
        }
        self.ahead.end(verdict);
        let branches = std::mem::take(&mut self.branches.by_pending).into_values();
        self.left_behind.extend(branches.flat_map(|b| b.into_tests()));
        self.drop_left_behind(host);
        // answers that arrived but were not settled were speculation
        for done in std::mem::take(&mut self.chain.answers).into_values() {
            host.waste(&done);
        }
    }

    /// Hands out candidates while a worker is free, each assuming what the
    /// ones before it were guessed to turn out.
    fn feed(
        &mut self,
        host: &mut dyn DispatchHost,
        candidates: &mut dyn Candidates,
        workers: &dyn Workers,
    ) -> Result<(), Verdict> {
        let mut fed = Ok(());
        self.branches.spare = host.spare();
        let held = self.chain.held.filter(|&(i, _)| self.chain.answered_before(i));
        if let Some((index, level)) = held {
            self.chain.held = None;
            let mask = self.chain.pending[&index].mask.clone();
            fed = self.launch(index, level, mask, workers);
        }
        // the chain and the other branches of its guesses, the likeliest
        // to be needed first, until neither hands out more
        while fed.is_ok() {
            let chain = self.feed_chain(host, candidates, workers);
            let other =
                chain.and_then(|chain| Ok(chain | self.feed_other(host, candidates, workers)?));
            fed = match other {
                Ok(true) => Ok(()),
                Ok(false) => break,
                Err(verdict) => Err(verdict),
            };
        }
        // what the new assumptions did not hand out again is not needed
        self.drop_left_behind(host);
        fed.and_then(|()| self.feed_ahead(host, workers))
    }

    /// Takes in a worker's answer, arrived at `now`.
    fn answer(
        &mut self,
        host: &mut dyn DispatchHost,
        candidates: &mut dyn Candidates,
        done: Done,
        now: Instant,
    ) {
        let Some(done) = self.ahead.answer(host, done) else { return };
        match self.chain.tickets_at.remove(&done.ticket) {
            Some(index) => self.answer_chain(host, candidates, index, done, now),
            None => self.answer_branch(host, done, now),
        }
    }

    /// Candidates handed out and not settled, of the chain and of other
    /// branches (but a branch [`Dispatch::feed_other`] has taken out).
    fn speculated(&self) -> usize {
        self.chain.pending.len() + self.branches.tests().count()
    }

    /// Whether the window has room for one more candidate, with `more`
    /// besides those [`Dispatch::speculated`] counts.
    fn window_open(&self, host: &dyn DispatchHost, more: usize) -> bool {
        let window = (host.jobs() * WINDOW_PER_JOB).max(MIN_WINDOW);
        self.speculated() + more < window
    }

    /// Tests running, of the chain, of other branches and ahead.
    fn running(&self) -> usize {
        let branches = self.branches.tests();
        let branches = branches.filter(|r| matches!(r.test.state, TestState::Running(_)));
        self.chain.flying.len() + branches.count() + self.ahead.running()
    }
}

/// The outcome an answer gives, if it gives one (a cancelled test or a
/// failure does not).
fn known(done: &Done) -> Option<bool> {
    match &done.eval {
        Ok(Eval::Tested(Outcome::Cancelled, _) | Eval::Dropped) | Err(_) => None,
        Ok(eval) => Some(eval.interesting()),
    }
}
