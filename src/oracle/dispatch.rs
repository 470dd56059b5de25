//! The `-j` scheduler: keeps up to N candidates of the sequential order in
//! flight on worker threads and settles their answers in that order.
//!
//! Each candidate handed out assumes a guess about the ones before it (see
//! [`predict`](super::predict)). An answer that comes back other than
//! assumed cancels the speculation after it, and the stream goes on from
//! there at once, without waiting for earlier tests; so does a test that
//! has run long enough to be guessed again as passing. Only settled
//! outcomes reach the search, so the result is the same for every N.

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::check::{Done, Eval, Job};
use super::predict::Timing;
use super::runner::Outcome;
use super::stop::Cancel;
use crate::reduce::{Candidates, Context, Verdict};

/// What the scheduler asks of, and reports to, the evaluator it works for.
pub(super) trait Ledger {
    /// Tests run at once.
    fn jobs(&self) -> usize;

    /// Whether the run must stop now.
    fn must_stop(&mut self) -> bool;

    /// When the run must end, if it must.
    fn deadline(&self) -> Option<Instant>;

    /// Whether to assume that a candidate handed out now turns out interesting.
    fn guess(&self, context: Context, expect: bool) -> bool;

    /// Accounts for the next candidate in order (guessed to turn out
    /// `guess`) and commits it if it is interesting. Its outcome, or `None`
    /// if the run must stop.
    fn settle(&mut self, guess: bool, context: Context, done: Done) -> Option<bool>;

    /// Accounts for an answer that was not needed after all.
    fn waste(&mut self, done: &Done);

    /// How long recent tests took, by outcome.
    fn timing(&mut self) -> &mut Timing;

    /// Counts a test guessed again as interesting while it ran.
    fn guessed_again(&mut self);
}

/// A candidate handed to a worker and not answered yet.
struct Flight {
    ticket: u64,
    cancel: Arc<Cancel>,
    sent: Instant,
    /// Already guessed again as interesting because it ran long.
    guessed_again: bool,
}

/// A candidate handed out and not settled yet.
struct Pending {
    context: Context,
    /// What it was guessed to turn out when handed out.
    guess: bool,
    /// What the stream now assumes.
    assumed: bool,
}

/// The bookkeeping of one parallel evaluation: feeds the workers, settles
/// their answers in sequential order, and moves speculation to the other
/// branch when an answer (or a long-running test) says so.
#[derive(Default)]
pub(super) struct Dispatch {
    /// Every candidate handed out and not settled, by index.
    pending: BTreeMap<usize, Pending>,
    flying: BTreeMap<usize, Flight>,
    /// Answers waiting for the candidates before them.
    answers: BTreeMap<usize, Done>,
    /// Every candidate before this one is settled.
    settled: usize,
    /// The stream has no candidate left under the current assumptions.
    exhausted: bool,
    tickets: u64,
}

impl Dispatch {
    pub(super) fn run(
        &mut self,
        ledger: &mut dyn Ledger,
        candidates: &mut dyn Candidates,
        job_tx: &mpsc::Sender<Job>,
        done_rx: &mpsc::Receiver<Done>,
    ) -> Verdict {
        let verdict = loop {
            if ledger.must_stop() {
                break Verdict::Stopped;
            }
            if let Err(verdict) = self.feed(ledger, candidates, job_tx) {
                break verdict;
            }
            if let Err(verdict) = self.settle_answered(ledger, candidates) {
                break verdict;
            }
            if self.exhausted && self.pending.is_empty() {
                break Verdict::Finished;
            }
            // wait for an answer, or until a test in flight is due to be
            // guessed again
            let now = Instant::now();
            let due = ledger.timing().likely_interesting_after().and_then(|after| {
                self.flying
                    .iter()
                    .filter(|(i, f)| !f.guessed_again && !self.pending[i].assumed)
                    .map(|(&i, f)| (f.sent + after, i))
                    .min()
            });
            let mut wait = Duration::from_millis(200);
            if let Some(d) = ledger.deadline() {
                wait = wait.min(d.saturating_duration_since(now));
            }
            if let Some((at, _)) = due {
                wait = wait.min(at.saturating_duration_since(now));
            }
            match done_rx.recv_timeout(wait) {
                Ok(done) => self.answer(ledger, candidates, done),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Some((at, index)) = due.filter(|&(at, _)| Instant::now() >= at) {
                        debug_assert!(at <= Instant::now());
                        let flight = self.flying.get_mut(&index).expect("due tests are in flight");
                        flight.guessed_again = true;
                        ledger.guessed_again();
                        self.assume(ledger, candidates, index, true);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break Verdict::Stopped,
            }
        };
        for flight in self.flying.values() {
            flight.cancel.set();
        }
        // answers that arrived but were not settled were speculation
        for done in std::mem::take(&mut self.answers).into_values() {
            ledger.waste(&done);
        }
        verdict
    }

    /// Hands out candidates while a worker is free, each assuming what the
    /// ones before it were guessed to turn out.
    fn feed(
        &mut self,
        ledger: &dyn Ledger,
        candidates: &mut dyn Candidates,
        job_tx: &mpsc::Sender<Job>,
    ) -> Result<(), Verdict> {
        while self.flying.len() < ledger.jobs() && !self.exhausted {
            let Some(c) = candidates.next() else {
                self.exhausted = true;
                break;
            };
            let guess = ledger.guess(c.context, c.expect);
            if guess != c.expect {
                candidates.assume(c.index, guess);
            }
            self.tickets += 1;
            let cancel = Arc::new(Cancel::default());
            let pending = Pending { context: c.context, guess, assumed: guess };
            self.pending.insert(c.index, pending);
            let flight = Flight {
                ticket: self.tickets,
                cancel: cancel.clone(),
                sent: Instant::now(),
                guessed_again: false,
            };
            self.flying.insert(c.index, flight);
            let job =
                Job { ticket: self.tickets, index: c.index, level: c.level, mask: c.mask, cancel };
            job_tx.send(job).map_err(|_| Verdict::Stopped)?;
        }
        Ok(())
    }

    /// Settles the answers that are next in order.
    fn settle_answered(
        &mut self,
        ledger: &mut dyn Ledger,
        candidates: &mut dyn Candidates,
    ) -> Result<(), Verdict> {
        while let Some(done) = self.answers.remove(&self.settled) {
            let p = self.pending.remove(&self.settled).expect("answered candidates are pending");
            let interesting = ledger.settle(p.guess, p.context, done).ok_or(Verdict::Stopped)?;
            debug_assert_eq!(interesting, p.assumed, "a divergence was assumed when it arrived");
            candidates.settle(self.settled, interesting);
            self.settled += 1;
        }
        Ok(())
    }

    /// Takes in a worker's answer.
    fn answer(&mut self, ledger: &mut dyn Ledger, candidates: &mut dyn Candidates, done: Done) {
        let current = self.flying.get(&done.index).is_some_and(|f| f.ticket == done.ticket);
        if !current {
            // cancelled since: a candidate no longer in the stream
            ledger.waste(&done);
            return;
        }
        let flight = self.flying.remove(&done.index).expect("checked above");
        if let Ok(Eval::Tested(outcome, _)) = &done.eval {
            if !matches!(outcome, Outcome::Timeout | Outcome::Cancelled) {
                ledger.timing().record(outcome.is_interesting(), flight.sent.elapsed());
            }
        }
        let outcome = match &done.eval {
            Ok(Eval::Tested(Outcome::Cancelled, _)) | Err(_) => None,
            Ok(eval) => Some(eval.interesting()),
        };
        let index = done.index;
        self.answers.insert(index, done);
        if let Some(interesting) = outcome.filter(|&i| i != self.pending[&index].assumed) {
            self.assume(ledger, candidates, index, interesting);
        }
    }

    /// Assumes candidate `index` turns out `interesting`: everything after it
    /// assumed otherwise, so it is cancelled and the stream goes on from there.
    fn assume(
        &mut self,
        ledger: &mut dyn Ledger,
        candidates: &mut dyn Candidates,
        index: usize,
        interesting: bool,
    ) {
        for (_, flight) in self.flying.split_off(&(index + 1)) {
            flight.cancel.set();
        }
        for (_, done) in self.answers.split_off(&(index + 1)) {
            ledger.waste(&done);
        }
        self.pending.split_off(&(index + 1));
        self.pending.get_mut(&index).expect("assumptions are about pending candidates").assumed =
            interesting;
        candidates.assume(index, interesting);
        self.exhausted = false;
    }
}
