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

#[cfg(test)]
mod tests {
    //! The scheduler against a scripted test: each candidate's outcome and
    //! latency are chosen by the test, and every result must be the one a
    //! one-at-a-time run settles.

    use std::sync::Mutex;

    use super::*;
    use crate::reduce::testing::{flat, FnOracle};
    use crate::reduce::{run, Ddmin, Hdd, OneMinimal, Oracle, Order, Units};
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

        fn guess(&self, _context: Context, expect: bool) -> bool {
            expect
        }

        fn settle(&mut self, _guess: bool, _context: Context, done: Done) -> Option<bool> {
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
}
