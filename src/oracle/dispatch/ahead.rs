//! Tests ahead of the pass, the final re-check run ahead, and what one
//! pass's scheduling hands the next.
//!
//! Once the stream has handed out its last candidate, the workers it
//! leaves free test ahead: the texts the plan's next passes will test if
//! this pass ends as assumed (see [`crate::reduce::ahead`]). Their
//! outcomes go to the cache, where the next pass finds them. A change of
//! assumption cancels them; when the pass ends as assumed they run on (the
//! workers outlive a pass), handed to the next pass's scheduling
//! ([`Handover`]). When the forecast gets to the plan's end, one free
//! worker runs the final re-check of the result on the text the plan will
//! end on ([`Recheck`]).
//!
//! Invariant: a test ahead reaches the plan only through the cache of
//! texts, as the outcome of a test of the very text a candidate has; the
//! re-check's outcome counts only if the plan ends on its text.

use std::collections::HashMap;
use std::sync::Arc;

use super::{Dispatch, DispatchHost, Workers};
use crate::oracle::check::{Done, Input};
use crate::oracle::tuning::{AHEAD_BRANCH_CHANCE, AHEAD_CHANCE, MIN_CHANCE, REFORECAST_GAIN};
use crate::os::stop::Cancel;
use crate::reduce::ahead::Forecast;
use crate::reduce::Verdict;
use crate::syntax::TextKey;

/// What one pass's scheduling hands the next.
#[derive(Default)]
pub(in crate::oracle) struct Handover {
    /// The last ticket handed out: the answers of an earlier pass's tests
    /// may come in during the next, and are told apart by their tickets.
    pub(super) tickets: u64,
    /// Tests ahead still running (their cancels, by ticket), for the next
    /// passes: no change of assumption of theirs cancels them.
    pub ahead: HashMap<u64, Arc<Cancel>>,
    /// The last run of the final re-check started ahead, on the text the
    /// plan was forecast to end on (see [`Recheck`]).
    pub recheck: Option<Recheck>,
}

/// A run of the final re-check of the result, started ahead on the text
/// the plan was forecast to end on, while a worker was free: if the plan
/// does end on it, the session need not run the re-check after the plan,
/// a test latency later. One at a time; a forecast that ends elsewhere
/// cancels it for a run on its own last text.
pub(in crate::oracle) struct Recheck {
    ticket: u64,
    /// The hash of its text.
    pub key: TextKey,
    pub cancel: Arc<Cancel>,
    /// No answer came yet.
    running: bool,
}

/// The tests of the scheduling that are no candidates of the pass in
/// flight.
#[derive(Default)]
pub(super) struct AheadTests {
    /// The tests ahead this pass started: their cancels, by ticket.
    flights: HashMap<u64, Arc<Cancel>>,
    /// The chain's chance when the plan was last forecast under the
    /// current assumptions (none since they changed).
    asked: Option<f64>,
    /// Tests ahead an earlier pass started, still running.
    earlier: HashMap<u64, Arc<Cancel>>,
    recheck: Option<Recheck>,
}

impl AheadTests {
    /// What the pass before handed on.
    pub(super) fn after(handover: Handover) -> AheadTests {
        AheadTests { earlier: handover.ahead, recheck: handover.recheck, ..AheadTests::default() }
    }

    /// What to hand the next pass, after `tickets`.
    pub(super) fn into_handover(self, tickets: u64) -> Handover {
        Handover { tickets, ahead: self.earlier, recheck: self.recheck }
    }

    /// How many of them run.
    pub(super) fn running(&self) -> usize {
        let recheck = usize::from(self.recheck.as_ref().is_some_and(|r| r.running));
        self.flights.len() + self.earlier.len() + recheck
    }

    /// At the end of a pass: the tests ahead of a pass that ended as
    /// assumed are the next pass's; a run that stops cancels them all.
    pub(super) fn end(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Finished => self.earlier.extend(self.flights.drain()),
            Verdict::Stopped => {
                self.cancel();
                if let Some(recheck) = &self.recheck {
                    recheck.cancel.set();
                }
                for (_, cancel) in self.earlier.drain() {
                    cancel.set();
                }
            }
        }
    }

    /// Cancels the tests ahead of this pass: the assumptions they were
    /// chosen on changed.
    pub(super) fn cancel(&mut self) {
        for (_, cancel) in self.flights.drain() {
            cancel.set();
        }
        self.asked = None;
    }

    /// Takes in `done` if it is the answer of one of them (its outcome is
    /// in the cache, or kept by the evaluator for the re-check); gives it
    /// back if not.
    pub(super) fn answer(&mut self, host: &mut dyn DispatchHost, done: Done) -> Option<Done> {
        let ticket = done.ticket;
        if let Some(recheck) = self.recheck.as_mut().filter(|r| r.ticket == ticket) {
            // the evaluator keeps its outcome for the end of the run
            recheck.running = false;
            host.waste(&done);
            return None;
        }
        if self.flights.remove(&ticket).is_some() || self.earlier.remove(&ticket).is_some() {
            // its outcome is in the cache, for the pass that needs it
            host.waste(&done);
            return None;
        }
        Some(done)
    }
}

impl Dispatch {
    /// Once the stream has handed out its last candidate, tests ahead on
    /// the workers left free: the texts the plan will test next if the
    /// pending candidates turn out as assumed (asked again when that got
    /// much likelier).
    pub(super) fn feed_ahead(
        &mut self,
        host: &mut dyn DispatchHost,
        workers: &dyn Workers,
    ) -> Result<(), Verdict> {
        let room = host.jobs().saturating_sub(self.running());
        let chance = self.chain.chance();
        let stale = self
            .ahead
            .asked
            .is_none_or(|asked| chance > asked && chance >= (asked + REFORECAST_GAIN).min(1.0));
        let busy = !self.chain.exhausted || self.chain.held.is_some();
        if busy || room == 0 || chance < MIN_CHANCE || !stale {
            return Ok(());
        }
        self.ahead.asked = Some(chance);
        let assumed: Vec<bool> = self.chain.pending.values().map(|p| p.assumed).collect();
        let floors = (AHEAD_CHANCE, AHEAD_BRANCH_CHANCE);
        let Forecast { texts, last, .. } = host.forecast(&assumed, room, chance, floors);
        let room = room - texts.len();
        for text in texts {
            let (ticket, cancel) = self.send_ahead(Input::Ahead(text), workers)?;
            self.ahead.flights.insert(ticket, cancel);
        }
        match last {
            Some(last) if room > 0 => self.recheck_ahead(last, workers),
            _ => Ok(()),
        }
    }

    /// Starts the final re-check on `last`, the text the plan was forecast
    /// to end on, unless it runs (or ran) on that text already.
    fn recheck_ahead(&mut self, last: Arc<[u8]>, workers: &dyn Workers) -> Result<(), Verdict> {
        let key = TextKey::of(&last);
        if self.ahead.recheck.as_ref().is_some_and(|r| r.key == key) {
            return Ok(());
        }
        if let Some(old) = self.ahead.recheck.take() {
            old.cancel.set();
        }
        let (ticket, cancel) = self.send_ahead(Input::Recheck(last), workers)?;
        self.ahead.recheck = Some(Recheck { ticket, key, cancel, running: true });
        Ok(())
    }

    /// Sends a job that is no candidate of the pass in flight; its ticket
    /// and cancel.
    fn send_ahead(
        &mut self,
        input: Input,
        workers: &dyn Workers,
    ) -> Result<(u64, Arc<Cancel>), Verdict> {
        // (the last place in the queues of the budget and the parse slots)
        let flight = self.jobs.send(workers, usize::MAX, None, input)?;
        Ok((flight.ticket, flight.cancel))
    }

    /// Cancels the tests ahead: the assumptions they were chosen on changed.
    pub(super) fn cancel_ahead(&mut self) {
        self.ahead.cancel();
    }
}
