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
//! costs nothing. Only settled outcomes reach the search, so the result is
//! the same for every N.

use std::collections::{BTreeMap, HashMap};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::check::{Done, Eval, Job};
use super::predict::Timing;
use super::runner::Outcome;
use super::stop::Cancel;
use crate::reduce::{Candidates, Context, Step, Verdict};
use crate::syntax::Mask;

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

    /// How long recent tests took, by outcome.
    fn timing(&mut self) -> &mut Timing;

    /// Counts a test guessed again as interesting while it ran.
    fn guessed_again(&mut self);
}

/// The least chance that a candidate handed out will be needed. With many
/// workers, speculating deeper on a chain of guesses mostly starts tests
/// that are cancelled (and on few cores, starting and killing them takes
/// time from the rest); with two, the window never reaches this deep.
const MIN_CHANCE: f64 = 0.2;

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
    mask: Mask,
    context: Context,
    /// Whether it becomes the best if interesting.
    commit: bool,
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

/// The bookkeeping of one parallel evaluation: feeds the workers, settles
/// their answers in sequential order, and moves speculation to the other
/// branch when an answer (or a long-running test) says so.
#[derive(Default)]
pub(super) struct Dispatch {
    /// Every candidate handed out and not settled, by index.
    pending: BTreeMap<usize, Pending>,
    flying: BTreeMap<usize, Flight>,
    /// Which candidate each ticket in flight is for now.
    tickets_at: HashMap<u64, usize>,
    /// Answers waiting for the candidates before them.
    answers: BTreeMap<usize, Done>,
    /// What the last change of assumption left behind, until the next
    /// candidates are handed out.
    orphans: Vec<(Mask, Orphan)>,
    /// A merge handed out but not sent to a worker until every candidate
    /// before it has its answer: its index and HDD level.
    held: Option<(usize, Option<usize>)>,
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
        let fed = self.feed_jobs(ledger, candidates, job_tx);
        // what the new assumptions did not hand out again is not needed
        self.drop_orphans(ledger);
        fed
    }

    /// Cancels the orphaned tests still running and accounts for the
    /// orphaned answers as waste.
    fn drop_orphans(&mut self, ledger: &mut dyn Ledger) {
        for (_, orphan) in std::mem::take(&mut self.orphans) {
            match orphan {
                Orphan::Flying(flight) => {
                    self.tickets_at.remove(&flight.ticket);
                    flight.cancel.set();
                }
                Orphan::Answered(done) => ledger.waste(&done),
            }
        }
    }

    fn feed_jobs(
        &mut self,
        ledger: &dyn Ledger,
        candidates: &mut dyn Candidates,
        job_tx: &mpsc::Sender<Job>,
    ) -> Result<(), Verdict> {
        if let Some((index, level)) = self.held {
            if !self.answered_before(index) {
                return Ok(());
            }
            self.held = None;
            let mask = self.pending[&index].mask.clone();
            self.launch(index, level, mask, job_tx)?;
        }
        while self.flying.len() < ledger.jobs() && !self.exhausted && self.likely() {
            let Some(c) = candidates.next() else {
                self.exhausted = true;
                break;
            };
            let chance = ledger.chance(c.context, c.expect);
            let guess = chance > 0.5;
            let mut sure = chance.max(1.0 - chance);
            let mut assumed = guess;
            let orphan = self.orphans.iter().position(|(mask, _)| *mask == c.mask);
            let orphan = orphan.map(|k| self.orphans.swap_remove(k).1);
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
                mask: c.mask,
                context: c.context,
                commit: c.commit,
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
                    break;
                }
                None => self.launch(index, level, mask, job_tx)?,
            }
        }
        Ok(())
    }

    /// Whether the next candidate is likely enough to be needed: the
    /// outcomes assumed for the changes before it that are not answered
    /// yet all hold with a chance of at least [`MIN_CHANCE`]. (A probe
    /// changes nothing the candidates after it depend on, but its merge,
    /// which is held until the probes are answered.)
    fn likely(&self) -> bool {
        let pending =
            self.pending.iter().filter(|(i, p)| p.commit && !self.answers.contains_key(i));
        pending.map(|(_, p)| p.sure).product::<f64>() >= MIN_CHANCE
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
        let job = Job { ticket: self.tickets, index, level, mask, cancel: cancel.clone() };
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
            candidates.settle(self.settled, interesting);
            self.settled += 1;
        }
        Ok(())
    }

    /// Takes in a worker's answer.
    fn answer(&mut self, ledger: &mut dyn Ledger, candidates: &mut dyn Candidates, mut done: Done) {
        let Some(index) = self.tickets_at.remove(&done.ticket) else {
            // cancelled since: a candidate no longer in the stream
            ledger.waste(&done);
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
        // what followed is left behind: cancelled at the next hand-out,
        // unless the stream hands the same candidate out again
        let mut left = self.pending.split_off(&(index + 1));
        self.held = self.held.filter(|&(i, _)| i <= index);
        for (i, flight) in self.flying.split_off(&(index + 1)) {
            let mask = left.remove(&i).expect("candidates in flight are pending").mask;
            self.orphans.push((mask, Orphan::Flying(flight)));
        }
        for (i, done) in self.answers.split_off(&(index + 1)) {
            match left.remove(&i) {
                Some(p) if known(&done).is_some() => {
                    self.orphans.push((p.mask, Orphan::Answered(done)));
                }
                _ => ledger.waste(&done),
            }
        }
        self.pending.get_mut(&index).expect("assumptions are about pending candidates").assumed =
            interesting;
        candidates.assume(index, interesting);
        self.exhausted = false;
    }
}

/// The outcome an answer gives, if it gives one (a cancelled test or a
/// failure does not).
fn known(done: &Done) -> Option<bool> {
    match &done.eval {
        Ok(Eval::Tested(Outcome::Cancelled, _)) | Err(_) => None,
        Ok(eval) => Some(eval.interesting()),
    }
}

#[cfg(test)]
mod tests {
    //! The scheduler against a scripted test: each candidate's outcome and
    //! latency are chosen by the test, and every result must be the one a
    //! one-at-a-time run settles.

    use std::sync::Mutex;

    use super::*;
    use crate::reduce::testing::{flat, FnOracle};
    use crate::reduce::{run, Batch, Ddmin, Hdd, OneMinimal, Oracle, Order, Units};
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
        /// Stop the run once this many candidates are settled.
        stop_after: Option<usize>,
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
                stop_after: None,
            }
        }

        /// A worker: answers each job after its scripted latency, or as
        /// soon as it is cancelled.
        fn work(&self, jobs: &Mutex<mpsc::Receiver<Job>>, done: mpsc::Sender<Done>) {
            while let Ok(job) = jobs.lock().expect("jobs").recv() {
                let (outcome, latency) = (self.script)(&self.units.present_bfs(&job.mask));
                let started = Instant::now();
                let mut outcome = outcome;
                while started.elapsed() < latency {
                    if job.cancel.is_set() {
                        outcome = Outcome::Cancelled;
                        break;
                    }
                    std::thread::sleep(Duration::from_micros(200));
                }
                let eval = Ok(Eval::Tested(outcome, started.elapsed()));
                let answer =
                    Done { ticket: job.ticket, index: job.index, level: None, eval, found: None };
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

        fn chance(&self, _context: Context, expect: bool) -> f64 {
            f64::from(u8::from(expect))
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

        fn timing(&mut self) -> &mut Timing {
            &mut self.timing
        }

        fn guessed_again(&mut self) {
            self.guessed_again += 1;
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
                let verdict = Dispatch::default().run(self, candidates, &job_tx, &done_rx);
                drop(job_tx);
                for done in done_rx.iter() {
                    self.waste(&done);
                }
                verdict
            })
        }
    }

    /// HDD+ over `n` flat units, with the fake at `jobs` and with a plain
    /// one-at-a-time oracle: both masks, and the fake.
    fn both(n: usize, jobs: usize, script: Script<'_>) -> (Mask, Mask, usize, usize, usize) {
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
        let parallel = reduce(&mut fake);
        (sequential, parallel, fake.wasted, fake.cancelled, fake.guessed_again)
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
}
