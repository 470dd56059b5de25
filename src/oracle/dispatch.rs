//! The `-j` scheduler: keeps up to N candidates of the sequential order in
//! flight on worker threads and settles their answers in that order.
//!
//! Each candidate handed out assumes a guess about the ones before it (see
//! [`predict`](super::predict)). An answer that comes back other than
//! assumed cancels the speculation after it, and the stream goes on from
//! there at once, without waiting for earlier tests; so does a test that
//! has run long enough to be guessed again as passing. A test (or answer)
//! of the cancelled speculation whose candidate the stream hands out again
//! under the new assumptions is kept, not run again: the probes of a batch
//! do not depend on each other's outcomes, so a wrong guess about one
//! costs nothing. A round's first probe, though, depends on all the
//! probes of the round before it (a failed block's halves come from its
//! failure), so its chance of being needed counts those probes too
//! ([`Search::opens_round`](crate::reduce::Search::opens_round)). Only
//! settled outcomes reach the search, so the result is the same for
//! every N.
//!
//! A wrong guess costs a full test latency however many workers there
//! are, and the chain of guesses soon gets too unlikely to go deeper; so
//! free workers also take the other branch of the chain's guesses: the
//! candidates the stream would hand out if a pending candidate turned out
//! the other way. A free worker goes to whichever candidate, of the chain
//! or of such a branch, is likeliest to be needed, none below
//! [`MIN_CHANCE`] (a branch's down to [`SPARE_CHANCE`] while fewer tests
//! were wasted than used). A branch's tests are kept in reserve: when the answer
//! does go against the guess, the stream hands the same candidates out
//! again and they are matched like a left-behind test, so the branch
//! starts with its tests done or running rather than a latency late; a
//! confirmed guess cancels them. A probe's other branch is what follows
//! its failure in the same round: a failed hoist's next target. This only
//! decides what runs early: outcomes still reach the search in order.
//!
//! Once the stream has handed out its last candidate, the workers it
//! leaves free test ahead: the texts the plan's next passes will test if
//! this pass ends as assumed (see [`crate::reduce::ahead`]). Their
//! outcomes go to the cache, where the next pass finds them. A change of
//! assumption cancels them; when the pass ends as assumed they run on
//! (the workers outlive a pass), handed to the next pass's scheduling
//! ([`Carry`]).

use std::collections::{BTreeMap, HashMap};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Instant;

use super::check::{Done, Eval, Input, Job};
use super::predict::Timing;
use super::runner::Outcome;
use super::stop::Cancel;
use super::tuning::{
    AHEAD_BRANCH_CHANCE, AHEAD_CHANCE, MIN_CHANCE, MIN_WINDOW, REFORECAST_GAIN, SPARE_CHANCE,
    STOP_POLL, WINDOW_PER_JOB,
};
use crate::reduce::ahead::Forecast;
use crate::reduce::{Candidates, Context, Step, Verdict};
use crate::syntax::{Mask, TextKey, Tree};

/// What the scheduler asks of, and reports to, the evaluator it works for.
pub(super) trait Ledger {
    /// Tests run at once.
    fn jobs(&self) -> usize;

    /// Whether the run must stop now.
    fn must_stop(&mut self) -> bool;

    /// When the run must end, if it must.
    fn deadline(&self) -> Option<Instant>;

    /// The chance that a candidate handed out now turns out interesting;
    /// it is assumed to be if the chance is over one half.
    fn chance(&self, context: Context, expect: bool) -> f64;

    /// Accounts for the next candidate in order (guessed to turn out
    /// `guess`) and, if it is interesting and `commit`, makes it the best.
    /// Its outcome, or `None` if the run must stop.
    /// `mask`: the candidate's.
    fn settle(
        &mut self,
        guess: bool,
        context: Context,
        commit: bool,
        mask: &Mask,
        done: Done,
    ) -> Option<bool>;

    /// Accounts for an answer that was not needed after all.
    fn waste(&mut self, done: &Done);

    /// Whether the run so far has wasted fewer tests than it used (see
    /// [`SPARE_CHANCE`]).
    fn spare(&self) -> bool;

    /// How long recent tests took, by outcome.
    fn timing(&mut self) -> &mut Timing;

    /// Counts a test guessed again as interesting while it ran.
    fn guessed_again(&mut self);

    /// Counts a settled answer that came from a test of the other branch
    /// of a guess, started on a free worker before the guess went wrong.
    fn other_branch_used(&mut self);

    /// Up to `want` texts the plan will test after the pending candidates
    /// if they turn out as `assumed` (in order), while the chance that
    /// they are needed is at least `floor`; `sure`: the chance that the
    /// assumptions hold; and the text the plan ends on, if the forecast
    /// gets there. Past `floors.0`, the texts of the other branch of the
    /// forecast's first guess, while their chance is at least `floors.1`.
    /// Nothing where the plan cannot be forecast.
    fn ahead(&mut self, assumed: &[bool], want: usize, sure: f64, floors: (f64, f64)) -> Forecast;
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
    /// Its test was one of the other branch of a guess.
    other: bool,
    mask: Mask,
    context: Context,
    /// Whether it becomes the best if interesting.
    commit: bool,
    /// It opens a round of probes: it depends on the outcomes of the
    /// probes before it, as the other probes of its round do not.
    opens_round: bool,
    /// What it was guessed to turn out when handed out.
    guess: bool,
    /// What the stream now assumes.
    assumed: bool,
    /// The chance that it turns out as assumed (1 once its answer is in).
    sure: f64,
}

/// A test of a candidate that assumptions have left behind, or its answer:
/// kept in case the stream hands out the same candidate again.
enum Orphan {
    Flying(Flight),
    Answered(Done),
}

/// An [`Orphan`] with its candidate's mask, by which the stream's next
/// candidates are matched.
struct Kept {
    mask: Mask,
    orphan: Orphan,
    /// A test of the other branch of a guess (see [`Dispatch::reserves`]).
    other: bool,
}

/// A test of the other branch of a guess, and what that branch assumes
/// of its candidate.
struct Reserved {
    kept: Kept,
    assumed: bool,
    /// The chance that it turns out as assumed (1 once its answer is in).
    sure: f64,
    /// Whether it changes what follows if interesting.
    commit: bool,
}

/// What one pass's scheduling hands the next.
#[derive(Default)]
pub(super) struct Carry {
    /// The last ticket handed out: the answers of an earlier pass's tests
    /// may come in during the next, and are told apart by their tickets.
    tickets: u64,
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
pub(super) struct Recheck {
    ticket: u64,
    /// The hash of its text.
    pub key: TextKey,
    pub cancel: Arc<Cancel>,
    /// No answer came yet.
    running: bool,
}

/// Tests ahead of the pass (see the module's documentation).
#[derive(Default)]
struct Ahead {
    /// Their cancels, by ticket.
    flights: HashMap<u64, Arc<Cancel>>,
    /// The chain's chance when the plan was last forecast under the
    /// current assumptions (none since they changed).
    asked: Option<f64>,
}

/// The tests of the first candidates the stream would hand out if a
/// pending candidate turned out otherwise than assumed.
#[derive(Default)]
struct Reserve {
    tests: Vec<Reserved>,
    /// The branch has no more to hand out (or only a merge that waits).
    ended: bool,
}

impl Reserve {
    /// The chance that what the branch assumes of its candidates holds.
    fn holds(&self) -> f64 {
        self.tests.iter().filter(|r| r.commit).map(|r| r.sure).product()
    }

    /// Its tests, to keep or drop.
    fn into_kept(self) -> impl Iterator<Item = Kept> {
        self.tests.into_iter().map(|r| r.kept)
    }
}

/// The bookkeeping of one parallel evaluation: feeds the workers, settles
/// their answers in sequential order, and moves speculation to the other
/// branch when an answer (or a long-running test) says so.
pub(super) struct Dispatch {
    /// The tree the candidates are unparsed against.
    tree: Arc<Tree>,
    /// Every candidate handed out and not settled, by index.
    pending: BTreeMap<usize, Pending>,
    flying: BTreeMap<usize, Flight>,
    /// Which candidate each ticket in flight is for now.
    tickets_at: HashMap<u64, usize>,
    /// Answers waiting for the candidates before them.
    answers: BTreeMap<usize, Done>,
    /// What the last change of assumption left behind, until the next
    /// candidates are handed out.
    orphans: Vec<Kept>,
    /// By pending candidate: the tests of the first candidates the stream
    /// would hand out if it turned out otherwise than assumed, run on
    /// workers the chain of guesses left free. Matched when its answer
    /// goes against the guess, cancelled when it does not.
    reserves: BTreeMap<usize, Reserve>,
    /// A merge handed out but not sent to a worker until every candidate
    /// before it has its answer: its index and HDD level.
    held: Option<(usize, Option<usize>)>,
    /// Every candidate before this one is settled.
    settled: usize,
    /// The run has wasted fewer tests than it used, when last asked (see
    /// [`SPARE_CHANCE`]).
    spare: bool,
    /// The stream has no candidate left under the current assumptions.
    exhausted: bool,
    ahead: Ahead,
    /// Tests ahead of an earlier pass still running (see [`Carry`]).
    carried: HashMap<u64, Arc<Cancel>>,
    recheck: Option<Recheck>,
    tickets: u64,
}

impl Dispatch {
    /// The scheduling of a pass over `tree`, after what the pass before it
    /// handed on.
    pub(super) fn new(tree: Arc<Tree>, carry: Carry) -> Dispatch {
        Dispatch {
            tree,
            pending: BTreeMap::new(),
            flying: BTreeMap::new(),
            tickets_at: HashMap::new(),
            answers: BTreeMap::new(),
            orphans: Vec::new(),
            reserves: BTreeMap::new(),
            held: None,
            settled: 0,
            spare: false,
            exhausted: false,
            ahead: Ahead::default(),
            carried: carry.ahead,
            recheck: carry.recheck,
            tickets: carry.tickets,
        }
    }

    /// What the next pass's scheduling takes on: the tickets, and the
    /// tests ahead of a pass that ended as assumed.
    pub(super) fn into_carry(self) -> Carry {
        Carry { tickets: self.tickets, ahead: self.carried, recheck: self.recheck }
    }

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
            let settled = self.settled;
            if let Err(verdict) = self.settle_answered(ledger, candidates) {
                break verdict;
            }
            if self.exhausted && self.pending.is_empty() {
                break Verdict::Finished;
            }
            if self.settled != settled {
                // settling may have made room for what waited (the waste
                // bound counts a used test once it is settled): feed again
                // before waiting for the next answer
                continue;
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
            let mut wait = STOP_POLL;
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
        // tests ahead of a pass that ended as assumed are the next pass's
        match verdict {
            Verdict::Finished => self.carried.extend(self.ahead.flights.drain()),
            Verdict::Stopped => {
                self.cancel_ahead();
                if let Some(recheck) = &self.recheck {
                    recheck.cancel.set();
                }
                for (_, cancel) in self.carried.drain() {
                    cancel.set();
                }
            }
        }
        let reserves = std::mem::take(&mut self.reserves).into_values();
        self.orphans.extend(reserves.flat_map(Reserve::into_kept));
        self.drop_orphans(ledger);
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
        ledger: &mut dyn Ledger,
        candidates: &mut dyn Candidates,
        job_tx: &mpsc::Sender<Job>,
    ) -> Result<(), Verdict> {
        let mut fed = Ok(());
        self.spare = ledger.spare();
        if let Some((index, level)) = self.held.filter(|&(i, _)| self.answered_before(i)) {
            self.held = None;
            let mask = self.pending[&index].mask.clone();
            fed = self.launch(index, level, mask, job_tx);
        }
        // the chain and the other branches of its guesses, the likeliest
        // to be needed first, until neither hands out more
        while fed.is_ok() {
            let chain = self.feed_jobs(ledger, candidates, job_tx);
            let other =
                chain.and_then(|chain| Ok(chain | self.feed_other(ledger, candidates, job_tx)?));
            fed = match other {
                Ok(true) => Ok(()),
                Ok(false) => break,
                Err(verdict) => Err(verdict),
            };
        }
        // what the new assumptions did not hand out again is not needed
        self.drop_orphans(ledger);
        fed.and_then(|()| self.feed_ahead(ledger, job_tx))
    }

    /// Once the stream has handed out its last candidate, tests ahead on
    /// the workers left free: the texts the plan will test next if the
    /// pending candidates turn out as assumed (asked again when that got
    /// much likelier).
    fn feed_ahead(
        &mut self,
        ledger: &mut dyn Ledger,
        job_tx: &mpsc::Sender<Job>,
    ) -> Result<(), Verdict> {
        let room = ledger.jobs().saturating_sub(self.running());
        let chance = self.chain_chance();
        let stale = self
            .ahead
            .asked
            .is_none_or(|asked| chance > asked && chance >= (asked + REFORECAST_GAIN).min(1.0));
        if !self.exhausted || self.held.is_some() || room == 0 || chance < MIN_CHANCE || !stale {
            return Ok(());
        }
        self.ahead.asked = Some(chance);
        let assumed: Vec<bool> = self.pending.values().map(|p| p.assumed).collect();
        let floors = (AHEAD_CHANCE, AHEAD_BRANCH_CHANCE);
        let Forecast { texts, last, .. } = ledger.ahead(&assumed, room, chance, floors);
        let room = room - texts.len();
        for text in texts {
            let cancel = Arc::new(Cancel::default());
            let ticket = self.send_ahead(Input::Ahead(text), cancel.clone(), job_tx)?;
            self.ahead.flights.insert(ticket, cancel);
        }
        match last {
            Some(last) if room > 0 => self.recheck_ahead(last, job_tx),
            _ => Ok(()),
        }
    }

    /// Starts the final re-check on `last`, the text the plan was forecast
    /// to end on, unless it runs (or ran) on that text already.
    fn recheck_ahead(
        &mut self,
        last: Arc<[u8]>,
        job_tx: &mpsc::Sender<Job>,
    ) -> Result<(), Verdict> {
        let key = TextKey::of(&last);
        if self.recheck.as_ref().is_some_and(|r| r.key == key) {
            return Ok(());
        }
        if let Some(old) = self.recheck.take() {
            old.cancel.set();
        }
        let cancel = Arc::new(Cancel::default());
        let ticket = self.send_ahead(Input::Recheck(last), cancel.clone(), job_tx)?;
        self.recheck = Some(Recheck { ticket, key, cancel, running: true });
        Ok(())
    }

    /// Sends a job that is no candidate of the pass in flight; its ticket.
    fn send_ahead(
        &mut self,
        input: Input,
        cancel: Arc<Cancel>,
        job_tx: &mpsc::Sender<Job>,
    ) -> Result<u64, Verdict> {
        self.tickets += 1;
        // (the last place in the queues of the budget and the parse slots)
        let (ticket, index) = (self.tickets, usize::MAX);
        let job = Job { ticket, index, level: None, input, cancel };
        job_tx.send(job).map_err(|_| Verdict::Stopped)?;
        Ok(ticket)
    }

    /// Cancels the tests ahead: the assumptions they were chosen on changed.
    fn cancel_ahead(&mut self) {
        for (_, cancel) in self.ahead.flights.drain() {
            cancel.set();
        }
        self.ahead.asked = None;
    }

    /// Cancels the orphaned tests still running and accounts for the
    /// orphaned answers as waste.
    fn drop_orphans(&mut self, ledger: &mut dyn Ledger) {
        let orphans = std::mem::take(&mut self.orphans);
        self.drop_kept(ledger, orphans);
    }

    /// Cancels kept tests still running and accounts for kept answers as
    /// waste.
    fn drop_kept(&mut self, ledger: &mut dyn Ledger, kept: Vec<Kept>) {
        for k in kept {
            match k.orphan {
                Orphan::Flying(flight) => {
                    self.tickets_at.remove(&flight.ticket);
                    flight.cancel.set();
                }
                Orphan::Answered(done) => ledger.waste(&done),
            }
        }
    }

    /// Candidates handed out and not settled, of the chain and in reserve
    /// (but a reserve [`Dispatch::fetch_other`] has taken out).
    fn speculated(&self) -> usize {
        self.pending.len() + self.reserves.values().map(|r| r.tests.len()).sum::<usize>()
    }

    /// Whether the window has room for one more candidate, with `more`
    /// besides those [`Dispatch::speculated`] counts.
    fn window_open(&self, ledger: &dyn Ledger, more: usize) -> bool {
        let window = (ledger.jobs() * WINDOW_PER_JOB).max(MIN_WINDOW);
        self.speculated() + more < window
    }

    /// Tests running, of the chain, in reserve and ahead.
    fn running(&self) -> usize {
        let reserve = self.reserves.values().flat_map(|r| &r.tests);
        let reserve = reserve.filter(|r| matches!(r.kept.orphan, Orphan::Flying(_))).count();
        let recheck = usize::from(self.recheck.as_ref().is_some_and(|r| r.running));
        self.flying.len() + reserve + self.ahead.flights.len() + self.carried.len() + recheck
    }

    /// Hands out the chain's next candidates while they are likelier to be
    /// needed than those of another branch, and while the stream hands out
    /// again what a change of assumption left behind. Whether it handed
    /// out any.
    fn feed_jobs(
        &mut self,
        ledger: &dyn Ledger,
        candidates: &mut dyn Candidates,
        job_tx: &mpsc::Sender<Job>,
    ) -> Result<bool, Verdict> {
        let mut fed = false;
        while !self.exhausted && self.held.is_none() {
            let chain = self.chain_chance();
            let wanted = self.running() < ledger.jobs()
                && self.window_open(ledger, 0)
                && chain >= MIN_CHANCE
                && self.likeliest_branch().is_none_or(|(_, other, _)| chain >= other);
            if !wanted && self.orphans.is_empty() {
                break;
            }
            let Some(c) = candidates.next() else {
                self.exhausted = true;
                break;
            };
            // a round's first probe is needed only if the probes of the
            // round before it all fail, as assumed
            let wanted = wanted && (!c.opens_round || self.round_wanted());
            let kept = self.take_orphan(&c.mask);
            if kept.is_none() && !wanted {
                // not needed yet, and not run before: the stream takes it
                // back (with nothing pending it is needed for sure)
                if let Some((&last, p)) = self.pending.last_key_value() {
                    candidates.assume(last, p.assumed);
                    break;
                }
            }
            fed = true;
            let chance = ledger.chance(c.context, c.expect);
            let guess = chance > 0.5;
            let mut sure = chance.max(1.0 - chance);
            let mut assumed = guess;
            let other = kept.as_ref().is_some_and(|k| k.other);
            let orphan = kept.map(|k| k.orphan);
            if let Some(Orphan::Answered(done)) = &orphan {
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
            self.pending.insert(index, pending);
            match orphan {
                Some(Orphan::Flying(flight)) => {
                    self.tickets_at.insert(flight.ticket, index);
                    self.flying.insert(index, flight);
                }
                Some(Orphan::Answered(mut done)) => {
                    done.index = index;
                    self.answers.insert(index, done);
                }
                None if c.context.step == Step::Merge && !self.answered_before(index) => {
                    // a merge depends on every probe of its round: testing
                    // it (and what follows) on guessed probes is mostly waste
                    self.held = Some((index, level));
                }
                None => self.launch(index, level, mask, job_tx)?,
            }
        }
        Ok(fed)
    }

    /// The orphan of candidate `mask`, if one is kept.
    fn take_orphan(&mut self, mask: &Mask) -> Option<Kept> {
        let k = self.orphans.iter().position(|k| k.mask == *mask)?;
        let kept = self.orphans.swap_remove(k);
        // a test left behind by the chain still has its ticket at its old
        // index: whoever takes it maps it again (the chain) or not at all
        // (a reserve, whose answers are found by ticket), never leaving
        // an answer to reach another candidate at that index
        if let Orphan::Flying(flight) = &kept.orphan {
            self.tickets_at.remove(&flight.ticket);
        }
        Some(kept)
    }

    /// Spends a free worker (or more) on the other branch of a guess of
    /// the chain, the one most likely to be needed, while it is likelier
    /// to be needed than the chain's next candidate. Whether it did.
    fn feed_other(
        &mut self,
        ledger: &mut dyn Ledger,
        candidates: &mut dyn Candidates,
        job_tx: &mpsc::Sender<Job>,
    ) -> Result<bool, Verdict> {
        let room = ledger.jobs().saturating_sub(self.running());
        let Some((at, _, rival)) = self.likeliest_branch().filter(|_| room > 0) else {
            return Ok(false);
        };
        let chain = self.chain_chance();
        let rival = match !self.exhausted && self.held.is_none() && chain >= MIN_CHANCE {
            true => rival.max(chain),
            false => rival,
        };
        let fetched = self.fetch_other(ledger, candidates, at, rival, room, job_tx);
        self.restore(ledger, candidates, at);
        fetched
    }

    /// The pending candidate whose other branch's next candidate is the
    /// likeliest to be needed, of those not answered (a probe's other
    /// branch is a failed hoist's next target); and the chance of the
    /// runner-up (or the floor).
    fn likeliest_branch(&self) -> Option<(usize, f64, f64)> {
        let floor = if self.spare { SPARE_CHANCE } else { MIN_CHANCE };
        let mut before = 1.0;
        let (mut best, mut rival): (Option<(usize, f64)>, f64) = (None, floor);
        for (&i, p) in &self.pending {
            if self.answers.contains_key(&i) {
                continue;
            }
            let reserve = self.reserves.get(&i);
            let open = !reserve.is_some_and(|r| r.ended) && Some(i) != self.held.map(|h| h.0);
            let chance = before * (1.0 - p.sure) * reserve.map_or(1.0, Reserve::holds);
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

    /// Hands out, in reserve, up to `room` more candidates of the branch
    /// the stream would take if candidate `at` turned out otherwise than
    /// assumed, while they are needed with a chance of at least `rival`.
    /// Leaves the stream on that branch: [`Dispatch::restore`] undoes it.
    fn fetch_other(
        &mut self,
        ledger: &dyn Ledger,
        candidates: &mut dyn Candidates,
        at: usize,
        rival: f64,
        room: usize,
        job_tx: &mpsc::Sender<Job>,
    ) -> Result<bool, Verdict> {
        let p = &self.pending[&at];
        let before = self
            .pending
            .range(..at)
            .filter(|(i, p)| p.commit && !self.answers.contains_key(i))
            .map(|(_, p)| p.sure)
            .product::<f64>();
        let mut chance = before * (1.0 - p.sure);
        candidates.assume(at, !p.assumed);
        let mut reserve = self.reserves.remove(&at).unwrap_or_default();
        // the candidates already in reserve, under the same assumptions
        for (k, r) in reserve.tests.iter().enumerate() {
            match candidates.next() {
                Some(c) if c.mask == r.kept.mask => {
                    if c.expect != r.assumed {
                        candidates.assume(c.index, r.assumed);
                    }
                }
                _ => {
                    debug_assert!(false, "the stream changed under the same assumptions");
                    let dropped = reserve.tests.split_off(k);
                    self.orphans.extend(dropped.into_iter().map(|r| r.kept));
                    reserve.ended = true;
                    break;
                }
            }
        }
        chance *= reserve.holds();
        let (mut launched, was) = (0, (reserve.tests.len(), reserve.ended));
        let sent = loop {
            if launched == room || chance < rival || reserve.ended {
                break Ok(());
            }
            if !self.window_open(ledger, reserve.tests.len()) {
                break Ok(());
            }
            let Some(c) = candidates.next() else {
                reserve.ended = true;
                break Ok(());
            };
            if c.context.step == Step::Merge {
                // it waits for probes not answered yet (see `feed_jobs`)
                reserve.ended = true;
                break Ok(());
            }
            if self.pending.values().any(|p| p.mask == c.mask) {
                // the branch is back on the chain (after a failed hoist's
                // next target, the round's next hoists): those run already
                reserve.ended = true;
                break Ok(());
            }
            let odds = ledger.chance(c.context, c.expect);
            let mut assumed = odds > 0.5;
            let mut sure = odds.max(1.0 - odds);
            let kept = match self.take_orphan(&c.mask) {
                Some(kept) => kept,
                None => {
                    self.tickets += 1;
                    let cancel = Arc::new(Cancel::default());
                    let job = Job {
                        ticket: self.tickets,
                        index: c.index,
                        level: c.level,
                        input: Input::Mask(self.tree.clone(), c.mask.clone()),
                        cancel: cancel.clone(),
                    };
                    if job_tx.send(job).is_err() {
                        break Err(Verdict::Stopped);
                    }
                    let flight = Flight {
                        ticket: self.tickets,
                        cancel,
                        sent: Instant::now(),
                        guessed_again: false,
                    };
                    Kept { mask: c.mask, orphan: Orphan::Flying(flight), other: true }
                }
            };
            match &kept.orphan {
                Orphan::Flying(_) => launched += 1,
                Orphan::Answered(done) => {
                    if let Some(known) = known(done) {
                        (assumed, sure) = (known, 1.0);
                    }
                }
            }
            if assumed != c.expect {
                candidates.assume(c.index, assumed);
            }
            if c.commit {
                chance *= sure;
            }
            reserve.tests.push(Reserved { kept, assumed, sure, commit: c.commit });
        };
        let fetched = (reserve.tests.len(), reserve.ended) != was;
        self.reserves.insert(at, reserve);
        sent.map(|()| fetched)
    }

    /// Brings the stream back to the chain of guesses after
    /// [`Dispatch::fetch_other`] about candidate `at`: the same candidates
    /// again, under the same assumptions.
    fn restore(&mut self, ledger: &mut dyn Ledger, candidates: &mut dyn Candidates, at: usize) {
        candidates.assume(at, self.pending[&at].assumed);
        let mut diverged = None;
        for (&i, p) in self.pending.range(at + 1..) {
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
            let assumed = self.pending[&i].assumed;
            self.assume(ledger, candidates, i, assumed);
        }
    }

    /// The chance that the chain's next candidate will be needed: that the
    /// outcomes assumed for the changes before it that are not answered
    /// yet all hold. It is handed out only if at least [`MIN_CHANCE`]. (A
    /// probe changes nothing the candidates after it depend on, but its
    /// merge, which is held until the probes are answered.)
    fn chain_chance(&self) -> f64 {
        self.chain_odds().0
    }

    /// The chance that the chain's next candidate will be needed if it is
    /// of the round of the last one handed out (see
    /// [`Dispatch::chain_chance`]), and the factor by which it is smaller
    /// if it opens a round: the chance that the probes of the last round
    /// not answered yet turn out as assumed (all fail, or the round would
    /// end in a merge).
    fn chain_odds(&self) -> (f64, f64) {
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

    /// Whether a candidate that opens a round is to be handed out now: it
    /// is likely enough to be needed, and likelier than the other branch
    /// of a guess.
    fn round_wanted(&self) -> bool {
        let (chance, round) = self.chain_odds();
        let chance = chance * round;
        chance >= MIN_CHANCE && self.likeliest_branch().is_none_or(|(_, other, _)| chance >= other)
    }

    /// Whether every candidate before `index` has its answer.
    fn answered_before(&self, index: usize) -> bool {
        self.pending.range(..index).all(|(i, _)| self.answers.contains_key(i))
    }

    /// Sends candidate `index` to a worker.
    fn launch(
        &mut self,
        index: usize,
        level: Option<usize>,
        mask: Mask,
        job_tx: &mpsc::Sender<Job>,
    ) -> Result<(), Verdict> {
        self.tickets += 1;
        let cancel = Arc::new(Cancel::default());
        let input = Input::Mask(self.tree.clone(), mask);
        let job = Job { ticket: self.tickets, index, level, input, cancel: cancel.clone() };
        let flight =
            Flight { ticket: self.tickets, cancel, sent: Instant::now(), guessed_again: false };
        self.tickets_at.insert(self.tickets, index);
        self.flying.insert(index, flight);
        job_tx.send(job).map_err(|_| Verdict::Stopped)
    }

    /// Settles the answers that are next in order.
    fn settle_answered(
        &mut self,
        ledger: &mut dyn Ledger,
        candidates: &mut dyn Candidates,
    ) -> Result<(), Verdict> {
        while let Some(done) = self.answers.remove(&self.settled) {
            let p = self.pending.remove(&self.settled).expect("answered candidates are pending");
            let interesting = ledger
                .settle(p.guess, p.context, p.commit, &p.mask, done)
                .ok_or(Verdict::Stopped)?;
            debug_assert_eq!(interesting, p.assumed, "a divergence was assumed when it arrived");
            if p.other {
                ledger.other_branch_used();
            }
            candidates.settle(self.settled, interesting);
            if let Some(reserve) = self.reserves.remove(&self.settled) {
                self.drop_kept(ledger, reserve.into_kept().collect());
            }
            self.settled += 1;
        }
        Ok(())
    }

    /// Takes in a worker's answer.
    fn answer(&mut self, ledger: &mut dyn Ledger, candidates: &mut dyn Candidates, mut done: Done) {
        let ticket = done.ticket;
        if let Some(recheck) = self.recheck.as_mut().filter(|r| r.ticket == ticket) {
            // the evaluator keeps its outcome for the end of the run
            recheck.running = false;
            ledger.waste(&done);
            return;
        }
        if self.ahead.flights.remove(&ticket).is_some() || self.carried.remove(&ticket).is_some() {
            // its outcome is in the cache, for the pass that needs it
            ledger.waste(&done);
            return;
        }
        let Some(index) = self.tickets_at.remove(&done.ticket) else {
            self.answer_reserve(ledger, done);
            return;
        };
        done.index = index;
        let flight = self.flying.remove(&index).expect("tickets are of tests in flight");
        if let Ok(Eval::Tested(outcome, _)) = &done.eval {
            if !matches!(outcome, Outcome::Timeout | Outcome::Cancelled) {
                ledger.timing().record(outcome.is_interesting(), flight.sent.elapsed());
            }
        }
        let outcome = known(&done);
        self.answers.insert(index, done);
        match outcome {
            Some(interesting) if interesting != self.pending[&index].assumed => {
                self.assume(ledger, candidates, index, interesting);
            }
            _ => {
                // the guess holds: its other branch is not needed
                if let Some(reserve) = self.reserves.remove(&index) {
                    self.drop_kept(ledger, reserve.into_kept().collect());
                }
            }
        }
    }

    /// Takes in the answer of a test not in the chain: one in reserve, or
    /// one cancelled since (a candidate no longer in the stream).
    fn answer_reserve(&mut self, ledger: &mut dyn Ledger, done: Done) {
        let ticket = done.ticket;
        let found = self.reserves.values_mut().find_map(|reserve| {
            let k = reserve
                .tests
                .iter()
                .position(|r| matches!(&r.kept.orphan, Orphan::Flying(f) if f.ticket == ticket))?;
            Some((reserve, k))
        });
        let Some((reserve, k)) = found else {
            ledger.waste(&done);
            return;
        };
        if let Orphan::Flying(flight) = &reserve.tests[k].kept.orphan {
            if let Ok(Eval::Tested(outcome, _)) = &done.eval {
                if !matches!(outcome, Outcome::Timeout | Outcome::Cancelled) {
                    ledger.timing().record(outcome.is_interesting(), flight.sent.elapsed());
                }
            }
        }
        let Some(outcome) = known(&done) else {
            // cancelled or failed: the branch is cut here, to be run again
            let dropped: Vec<Kept> = reserve.tests.drain(k..).map(|r| r.kept).collect();
            reserve.ended = false;
            ledger.waste(&done);
            self.drop_kept(ledger, dropped);
            return;
        };
        let r = &mut reserve.tests[k];
        r.kept.orphan = Orphan::Answered(done);
        r.sure = 1.0;
        if outcome != r.assumed {
            // what the branch handed out after it assumed otherwise
            r.assumed = outcome;
            let dropped: Vec<Kept> = reserve.tests.drain(k + 1..).map(|r| r.kept).collect();
            reserve.ended = false;
            self.drop_kept(ledger, dropped);
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
        // what followed is left behind: cancelled at the next hand-out,
        // unless the stream hands the same candidate out again
        let mut left = self.pending.split_off(&(index + 1));
        self.held = self.held.filter(|&(i, _)| i <= index);
        for (i, flight) in self.flying.split_off(&(index + 1)) {
            let p = left.remove(&i).expect("candidates in flight are pending");
            let orphan = Orphan::Flying(flight);
            self.orphans.push(Kept { mask: p.mask, orphan, other: p.other });
        }
        for (i, done) in self.answers.split_off(&(index + 1)) {
            match left.remove(&i) {
                Some(p) if known(&done).is_some() => {
                    let orphan = Orphan::Answered(done);
                    self.orphans.push(Kept { mask: p.mask, orphan, other: p.other });
                }
                _ => ledger.waste(&done),
            }
        }
        // the reserve of `index` is the branch now taken; those after it
        // were fetched under assumptions that no longer hold, and are kept
        // only if the stream hands the same candidates out again
        let reserves = self.reserves.split_off(&index).into_values();
        self.orphans.extend(reserves.flat_map(Reserve::into_kept));
        self.pending.get_mut(&index).expect("assumptions are about pending candidates").assumed =
            interesting;
        candidates.assume(index, interesting);
        self.exhausted = false;
        self.cancel_ahead();
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

#[cfg(test)]
mod tests {
    //! The scheduler against a scripted test: each candidate's outcome and
    //! latency are chosen by the test, and every result must be the one a
    //! one-at-a-time run settles.

    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Mutex;
    use std::time::Duration;

    use super::*;
    use crate::reduce::testing::{flat, FnOracle};
    use crate::reduce::{run, Batch, Ddmin, Hdd, HoistBatch, OneMinimal, Oracle, Order, Units};
    use crate::syntax::{Mask, NodeId};

    /// The scripted test: outcome and latency for the present units.
    type Script<'s> = &'s (dyn Fn(&[NodeId]) -> (Outcome, Duration) + Sync);

    /// A ledger and worker pool over a scripted test.
    struct Fake<'s> {
        units: &'s Units,
        script: Script<'s>,
        jobs: usize,
        timing: Timing,
        /// Settled outcomes, in order.
        settled: Vec<bool>,
        /// Answers not needed (finished or cancelled).
        wasted: usize,
        /// Answers that came back cancelled.
        cancelled: usize,
        guessed_again: usize,
        /// Settled answers of tests of the other branch of a guess.
        other_branch_used: usize,
        /// Stop the run once this many candidates are settled.
        stop_after: Option<usize>,
        /// How sure every guess is (0.5 to 1): a candidate is guessed to
        /// turn out as its search expects with this chance.
        sure: f64,
        /// If set, the chance that a probe (of a block or a hoist) passes,
        /// whatever its search expects.
        probes_pass: Option<f64>,
        /// Whether candidate 0's test is running (on the pool's fake).
        first_running: AtomicBool,
        /// The highest candidate whose test started while candidate 0's ran.
        highest_beside_first: AtomicUsize,
    }

    impl<'s> Fake<'s> {
        fn new(units: &'s Units, script: Script<'s>, jobs: usize) -> Fake<'s> {
            Fake {
                units,
                script,
                jobs,
                timing: Timing::default(),
                settled: Vec::new(),
                wasted: 0,
                cancelled: 0,
                guessed_again: 0,
                other_branch_used: 0,
                stop_after: None,
                sure: 1.0,
                probes_pass: None,
                first_running: AtomicBool::new(false),
                highest_beside_first: AtomicUsize::new(0),
            }
        }

        /// A worker: answers each job after its scripted latency, or as
        /// soon as it is cancelled.
        fn work(&self, jobs: &Mutex<mpsc::Receiver<Job>>, done: mpsc::Sender<Done>) {
            loop {
                // not `while let`: its lock would be held while the job runs
                let Ok(job) = jobs.lock().expect("jobs").recv() else { return };
                let Input::Mask(_, mask) = &job.input else { panic!("no tests ahead here") };
                let (outcome, latency) = (self.script)(&self.units.present_bfs(mask));
                if job.index == 0 {
                    self.first_running.store(true, Ordering::SeqCst);
                } else if self.first_running.load(Ordering::SeqCst) {
                    self.highest_beside_first.fetch_max(job.index, Ordering::SeqCst);
                }
                let started = Instant::now();
                let mut outcome = outcome;
                while started.elapsed() < latency {
                    if job.cancel.is_set() {
                        outcome = Outcome::Cancelled;
                        break;
                    }
                    std::thread::sleep(Duration::from_micros(200));
                }
                if job.index == 0 {
                    self.first_running.store(false, Ordering::SeqCst);
                }
                let eval = Ok(Eval::Tested(outcome, started.elapsed()));
                let (ticket, index) = (job.ticket, job.index);
                let answer = Done {
                    ticket,
                    index,
                    level: None,
                    eval,
                    found: None,
                    ahead: false,
                    recheck: None,
                };
                if done.send(answer).is_err() {
                    return;
                }
            }
        }
    }

    impl Ledger for Fake<'_> {
        fn jobs(&self) -> usize {
            self.jobs
        }

        fn must_stop(&mut self) -> bool {
            self.stop_after.is_some_and(|n| self.settled.len() >= n)
        }

        fn deadline(&self) -> Option<Instant> {
            None
        }

        fn chance(&self, context: Context, expect: bool) -> f64 {
            if let (Step::Probe { .. } | Step::Hoist, Some(pass)) = (context.step, self.probes_pass)
            {
                return pass;
            }
            if expect {
                self.sure
            } else {
                1.0 - self.sure
            }
        }

        fn settle(&mut self, _: bool, _: Context, _: bool, _: &Mask, done: Done) -> Option<bool> {
            let eval = done.eval.expect("the fake never fails");
            if eval.cancelled() {
                return None;
            }
            self.settled.push(eval.interesting());
            Some(eval.interesting())
        }

        fn waste(&mut self, done: &Done) {
            self.wasted += 1;
            self.cancelled += usize::from(done.eval.as_ref().is_ok_and(Eval::cancelled));
        }

        fn spare(&self) -> bool {
            self.wasted < self.settled.len()
        }

        fn timing(&mut self) -> &mut Timing {
            &mut self.timing
        }

        fn guessed_again(&mut self) {
            self.guessed_again += 1;
        }

        fn ahead(&mut self, _: &[bool], _: usize, _: f64, _: (f64, f64)) -> Forecast {
            Forecast::default()
        }

        fn other_branch_used(&mut self) {
            self.other_branch_used += 1;
        }
    }

    impl Oracle for Fake<'_> {
        fn evaluate(&mut self, candidates: &mut dyn Candidates) -> Verdict {
            let (job_tx, job_rx) = mpsc::channel::<Job>();
            let job_rx = Mutex::new(job_rx);
            let (done_tx, done_rx) = mpsc::channel::<Done>();
            let (units, script) = (self.units, self.script);
            let pool = Fake::new(units, script, 0);
            std::thread::scope(|scope| {
                for _ in 0..self.jobs {
                    let (pool, job_rx, done_tx) = (&pool, &job_rx, done_tx.clone());
                    scope.spawn(move || pool.work(job_rx, done_tx));
                }
                drop(done_tx);
                let mut dispatch = Dispatch::new(Arc::new(flat(1)), Carry::default());
                let verdict = dispatch.run(self, candidates, &job_tx, &done_rx);
                drop(job_tx);
                for done in done_rx.iter() {
                    self.waste(&done);
                }
                let highest = pool.highest_beside_first.load(Ordering::SeqCst);
                self.highest_beside_first.fetch_max(highest, Ordering::SeqCst);
                verdict
            })
        }
    }

    /// What happened to the tests of a run with the fake.
    struct Counts {
        wasted: usize,
        cancelled: usize,
        guessed_again: usize,
        other_branch_used: usize,
    }

    /// HDD+ over `n` flat units, with the fake at `jobs` and with a plain
    /// one-at-a-time oracle: both masks, and the fake.
    fn both(n: usize, jobs: usize, script: Script<'_>) -> (Mask, Mask, usize, usize, usize) {
        let (sequential, parallel, c) = both_sure(n, jobs, 1.0, script);
        (sequential, parallel, c.wasted, c.cancelled, c.guessed_again)
    }

    /// [`both`], with every guess only `sure` to hold.
    fn both_sure(n: usize, jobs: usize, sure: f64, script: Script<'_>) -> (Mask, Mask, Counts) {
        let tree = flat(n);
        let units = Units::new(&tree);
        let reduce = |oracle: &mut dyn Oracle| {
            let mut mask = Mask::new(tree.len());
            run(Hdd::new(Ddmin::Adaptive, Order::Forward), &units, &mut mask, oracle)
                .expect("finished");
            while run(OneMinimal::new(Order::Forward), &units, &mut mask, oracle).expect("finished")
                > 0
            {}
            mask
        };
        let mut plain = FnOracle::new(&units, |p: &[NodeId]| script(p).0.is_interesting());
        let sequential = reduce(&mut plain);
        let mut fake = Fake::new(&units, script, jobs);
        fake.sure = sure;
        let parallel = reduce(&mut fake);
        let counts = Counts {
            wasted: fake.wasted,
            cancelled: fake.cancelled,
            guessed_again: fake.guessed_again,
            other_branch_used: fake.other_branch_used,
        };
        (sequential, parallel, counts)
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Interesting iff units 3, 10 and 11 (ids 4, 11, 12) are all present.
    fn needs(p: &[NodeId]) -> bool {
        [4, 11, 12].iter().all(|&i| p.contains(&NodeId(i)))
    }

    #[test]
    fn wrong_guesses_cancel_what_followed_and_the_result_is_the_sequential_one() {
        // later candidates answer first (the latency falls with the index),
        // so answers arrive out of order and many guesses turn out wrong
        let script = |p: &[NodeId]| {
            let outcome = if needs(p) { Outcome::Interesting } else { Outcome::Exit(1) };
            (outcome, ms(1 + p.len() as u64 / 4))
        };
        for jobs in [2, 4, 8] {
            let (sequential, parallel, wasted, cancelled, _) = both(30, jobs, &script);
            assert_eq!(parallel, sequential, "-j {jobs}");
            assert!(wasted > 0 && cancelled > 0, "-j {jobs}: no speculation went wrong");
        }
    }

    #[test]
    fn idle_workers_take_the_other_branch_of_unsure_guesses_and_the_result_stands() {
        // every guess holds with a chance of only 0.6, so the chain of
        // guesses stops a few candidates deep and idle workers take the
        // other branches; a third of the units can go, so many guesses are
        // wrong; latencies vary from candidate to candidate, so answers
        // arrive out of order
        let needed =
            |p: &[NodeId]| (0..36).filter(|u| u % 3 != 2).all(|u| p.contains(&NodeId(u + 1)));
        let script = |p: &[NodeId]| {
            let outcome = if needed(p) { Outcome::Interesting } else { Outcome::Exit(1) };
            let spread = p.iter().map(|id| id.0 as u64).sum::<u64>() % 7;
            (outcome, ms(1 + spread))
        };
        for jobs in [2, 4, 8, 16, 32] {
            let (sequential, parallel, counts) = both_sure(36, jobs, 0.6, &script);
            assert_eq!(parallel, sequential, "-j {jobs}");
            // with two workers the chain is always the likelier
            let used = counts.other_branch_used > 0;
            assert!(used || jobs == 2, "-j {jobs}: no test of another branch was used");
        }
    }

    #[test]
    fn a_slow_test_holds_the_chain_to_its_window() {
        // every unit is needed, and the first candidate's test is slow:
        // the others answer at once, as guessed, and would let the chain
        // run on without bound while it waits for the first to settle
        let script = |p: &[NodeId]| {
            let outcome = if p.len() == 400 { Outcome::Interesting } else { Outcome::Exit(1) };
            (outcome, ms(if p.contains(&NodeId(1)) { 1 } else { 300 }))
        };
        let tree = flat(400);
        let units = Units::new(&tree);
        let reduce = |oracle: &mut dyn Oracle| {
            let mut mask = Mask::new(tree.len());
            run(OneMinimal::new(Order::Forward), &units, &mut mask, oracle).expect("finished");
            mask
        };
        let mut plain = FnOracle::new(&units, |p: &[NodeId]| script(p).0.is_interesting());
        let sequential = reduce(&mut plain);
        let mut fake = Fake::new(&units, &script, 2);
        assert_eq!(reduce(&mut fake), sequential);
        let highest = fake.highest_beside_first.load(Ordering::SeqCst);
        assert!(highest > 0, "nothing ran beside the slow test");
        assert!(highest < MIN_WINDOW, "candidate {highest} was handed out beside the slow test");
    }

    /// A probe guessed to pass with a chance of 0.85: its other branch
    /// (what its failure brings in its round) is worth a free worker only
    /// while the run has wasted fewer tests than it used (the ledger's
    /// `spare`, read at each hand-out).
    #[test]
    fn a_less_likely_branch_runs_only_while_fewer_tests_were_wasted_than_used() {
        let mut dispatch = Dispatch::new(Arc::new(flat(1)), Carry::default());
        let probe = Pending {
            other: false,
            mask: Mask::new(4),
            context: Context { step: Step::Probe { single: true }, kind: 1 },
            commit: false,
            opens_round: false,
            guess: true,
            assumed: true,
            sure: 0.85,
        };
        dispatch.pending.insert(0, probe);
        let branch = |d: &Dispatch| d.likeliest_branch().map(|(i, chance, _)| (i, chance));
        // more wasted than used: the usual floor
        assert_eq!(branch(&dispatch), None);
        dispatch.spare = true;
        let (i, chance) = branch(&dispatch).expect("a branch over the spare floor");
        assert_eq!(i, 0);
        assert!((chance - 0.15).abs() < 1e-9, "{chance}");
    }

    #[test]
    fn a_timed_out_test_is_not_interesting() {
        // candidates without unit 0 (id 1) hang until the runner's timeout
        let script = |p: &[NodeId]| {
            if !p.contains(&NodeId(1)) {
                (Outcome::Timeout, ms(3))
            } else if needs(p) {
                (Outcome::Interesting, ms(1))
            } else {
                (Outcome::Exit(1), ms(1))
            }
        };
        let (sequential, parallel, ..) = both(20, 4, &script);
        assert_eq!(parallel, sequential);
        assert!(!sequential.is_off(NodeId(1)), "a timeout removed unit 0");
    }

    #[test]
    fn a_long_test_is_guessed_again_and_the_result_stands() {
        // failures are quick and passes slow, as when a script compiles
        // first: a test that outlasts the failures is guessed to pass. Two
        // units in three are needed, so a first probe is guessed like the
        // one before it, and each deletable unit's is guessed wrong
        let needed =
            |p: &[NodeId]| (0..45).filter(|u| u % 3 != 1).all(|u| p.contains(&NodeId(u + 1)));
        let script = |p: &[NodeId]| match needed(p) {
            true => (Outcome::Interesting, ms(25)),
            false => (Outcome::Exit(1), ms(2)),
        };
        let (sequential, parallel, _, _, guessed_again) = both(45, 3, &script);
        assert_eq!(parallel, sequential);
        assert!(guessed_again > 0, "no test was guessed again");
    }

    #[test]
    fn stopping_cancels_every_test_in_flight_and_keeps_what_was_settled() {
        let script = |p: &[NodeId]| (Outcome::Exit(1), ms(if needs(p) { 2 } else { 200 }));
        let tree = flat(30);
        let units = Units::new(&tree);
        let mut fake = Fake::new(&units, &script, 4);
        fake.stop_after = Some(0);
        let mut mask = Mask::new(tree.len());
        let started = Instant::now();
        let verdict = run(Hdd::new(Ddmin::Adaptive, Order::Forward), &units, &mut mask, &mut fake);
        assert!(verdict.is_err(), "the run went on");
        assert!(started.elapsed() < ms(150), "stopping waited for the tests in flight");
        assert!(fake.settled.is_empty());
        assert_eq!(mask, Mask::new(tree.len()), "an unsettled candidate reached the mask");
    }

    /// A batch's probes do not depend on each other: when one turns out
    /// otherwise than guessed, the others in flight are kept, not run
    /// again; and the result is the one-at-a-time one.
    #[test]
    fn a_batch_keeps_its_probes_in_flight_when_a_guess_is_wrong() {
        // later candidates answer first, so wrong guesses arrive while
        // the rest of the round is still running
        let script = |p: &[NodeId]| {
            let outcome = if needs(p) { Outcome::Interesting } else { Outcome::Exit(1) };
            (outcome, ms(1 + p.len() as u64 / 4))
        };
        let tree = flat(40);
        let units = Units::new(&tree);
        let reduce = |oracle: &mut dyn Oracle| {
            let mut mask = Mask::new(tree.len());
            // one round: every unit probed alone, then the merge
            run(Batch::one_minimal(Order::Forward), &units, &mut mask, oracle).expect("finished");
            mask
        };
        let mut plain = FnOracle::new(&units, |p: &[NodeId]| script(p).0.is_interesting());
        let sequential = reduce(&mut plain);
        for jobs in [4, 16] {
            let mut fake = Fake::new(&units, &script, jobs);
            assert_eq!(reduce(&mut fake), sequential, "-j {jobs}");
            // a monotone test: merges never fail, so nothing is cancelled
            assert_eq!(fake.cancelled, 0, "-j {jobs}: probes were cancelled");
            assert_eq!(fake.settled.len(), plain.calls + plain.cache_hits, "-j {jobs}");
        }
    }

    #[test]
    fn a_hoist_guessed_to_pass_has_its_next_target_run_beside_it() {
        // hoists are guessed to pass (with a chance of 0.7), so a failed
        // hoist's next target, which its round offers right after it, is
        // the other branch of its guess: free workers run it while the
        // hoist's test runs, and it is used when the hoist fails
        let mut rng = crate::reduce::testing::Rng::new(3);
        let mut used = 0;
        for _ in 0..20 {
            let tree = crate::reduce::testing::random_hoist_tree(&mut rng, 40);
            let units = Units::new(&tree);
            let all = units.present_bfs(&Mask::new(tree.len()));
            let need: Vec<NodeId> = all.iter().copied().filter(|_| rng.chance(0.15)).collect();
            let script = |p: &[NodeId]| {
                let pass = need.iter().all(|n| p.contains(n));
                (if pass { Outcome::Interesting } else { Outcome::Exit(1) }, ms(2))
            };
            let reduce = |oracle: &mut dyn Oracle| {
                let mut mask = Mask::new(tree.len());
                run(HoistBatch::default(), &units, &mut mask, oracle).expect("finished");
                mask
            };
            let mut plain = FnOracle::new(&units, |p: &[NodeId]| script(p).0.is_interesting());
            let sequential = reduce(&mut plain);
            let mut fake = Fake::new(&units, &script, 16);
            fake.probes_pass = Some(0.7);
            assert_eq!(reduce(&mut fake), sequential);
            used += fake.other_branch_used;
        }
        assert!(used > 0, "no next target ran beside its hoist");
    }
}
