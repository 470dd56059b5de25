//! The scheduler against a scripted test on a simulated clock: each
//! candidate's outcome and latency are chosen by the test, and every result
//! must be the one a one-at-a-time run settles.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::chain::Pending;
use super::*;
use crate::oracle::predict::Timing;
use crate::reduce::ahead::Forecast;
use crate::reduce::testing::{flat, FnOracle};
use crate::reduce::{
    run, Batch, Context, Ddmin, Hdd, HoistBatch, OneMinimal, Oracle, Order, Step, Units,
};
use crate::syntax::{Mask, NodeId};

/// The scripted test: outcome and latency for the present units.
type Script<'s> = &'s (dyn Fn(&[NodeId]) -> (Outcome, Duration) + Sync);

/// A scheduler's host over a scripted test, counting what became of the
/// answers.
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
    /// The highest candidate whose test started while candidate 0's ran.
    highest_beside_first: usize,
    /// The simulated time the evaluations took, their workers' last
    /// answers included.
    clock: Duration,
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
            highest_beside_first: 0,
            clock: Duration::ZERO,
        }
    }
}

/// The workers of one evaluation with the fake, on a simulated clock: each
/// job's test takes its scripted latency of simulated time, or ends as
/// soon as the scheduler cancelled it and waits. Nothing sleeps, and the
/// same script gives the same run.
struct SimWorkers<'s> {
    units: &'s Units,
    script: Script<'s>,
    /// How many tests run at once.
    workers: usize,
    /// The clock's zero, and the simulated time since.
    zero: Instant,
    now: Cell<Duration>,
    /// Jobs sent and not started, in order.
    queue: RefCell<VecDeque<Job>>,
    /// Jobs started and not answered.
    running: RefCell<Vec<SimTest>>,
    /// The highest candidate whose test started while candidate 0's ran.
    highest_beside_first: Cell<usize>,
}

/// A test running on a [`SimWorkers`]: its job, when it started, and its
/// scripted outcome and latency.
struct SimTest {
    job: Job,
    started: Duration,
    outcome: Outcome,
    latency: Duration,
}

impl<'s> SimWorkers<'s> {
    fn new(units: &'s Units, script: Script<'s>, workers: usize) -> SimWorkers<'s> {
        SimWorkers {
            units,
            script,
            workers,
            zero: Instant::now(),
            now: Cell::new(Duration::ZERO),
            queue: RefCell::default(),
            running: RefCell::default(),
            highest_beside_first: Cell::new(0),
        }
    }

    /// Starts the queued jobs while a worker is free.
    fn start_queued(&self) {
        let mut running = self.running.borrow_mut();
        while running.len() < self.workers {
            let Some(job) = self.queue.borrow_mut().pop_front() else { return };
            let Input::Mask(_, mask) = &job.input else { panic!("no tests ahead here") };
            let (outcome, latency) = (self.script)(&self.units.present_bfs(mask));
            if job.index != 0 && running.iter().any(|t| t.job.index == 0) {
                let highest = self.highest_beside_first.get().max(job.index);
                self.highest_beside_first.set(highest);
            }
            running.push(SimTest { job, started: self.now.get(), outcome, latency });
        }
    }

    /// The running test that ends first (a cancelled one now, the first
    /// started first), and when.
    fn next_end(&self) -> Option<(usize, Duration)> {
        let now = self.now.get();
        let running = self.running.borrow();
        let ends = running.iter().enumerate().map(|(k, t)| match t.job.cancel.is_set() {
            true => (now, k),
            false => (t.started + t.latency, k),
        });
        ends.min().map(|(end, k)| (k, end))
    }

    /// Ends running test `k` at `end`: its answer.
    fn end(&self, k: usize, end: Duration) -> Done {
        self.now.set(self.now.get().max(end));
        let test = self.running.borrow_mut().remove(k);
        let outcome = if test.job.cancel.is_set() { Outcome::Cancelled } else { test.outcome };
        let eval = Ok(Eval::Tested(outcome, self.now.get() - test.started));
        let (ticket, index) = (test.job.ticket, test.job.index);
        self.start_queued();
        Done { ticket, index, level: None, eval, found: None, ahead: false, recheck: None }
    }

    /// Every answer still to come, in the order they come.
    fn drain(&self) -> Vec<Done> {
        let mut answers = Vec::new();
        while let Some((k, end)) = self.next_end() {
            answers.push(self.end(k, end));
        }
        answers
    }
}

impl Workers for SimWorkers<'_> {
    fn send(&self, job: Job) -> bool {
        self.queue.borrow_mut().push_back(job);
        self.start_queued();
        true
    }

    fn recv_timeout(&self, wait: Duration) -> Result<Done, RecvTimeoutError> {
        let until = self.now.get() + wait;
        match self.next_end() {
            Some((k, end)) if end <= until => Ok(self.end(k, end)),
            _ => {
                self.now.set(until);
                Err(RecvTimeoutError::Timeout)
            }
        }
    }

    fn now(&self) -> Instant {
        self.zero + self.now.get()
    }
}

impl DispatchHost for Fake<'_> {
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
        if let (Step::Probe { .. } | Step::Hoist, Some(pass)) = (context.step, self.probes_pass) {
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

    fn forecast(&mut self, _: &[bool], _: usize, _: f64, _: (f64, f64)) -> Forecast {
        Forecast::default()
    }

    fn other_branch_used(&mut self) {
        self.other_branch_used += 1;
    }
}

impl Oracle for Fake<'_> {
    fn evaluate(&mut self, candidates: &mut dyn Candidates) -> Verdict {
        let workers = SimWorkers::new(self.units, self.script, self.jobs);
        let mut dispatch = Dispatch::new(Arc::new(flat(1)), Handover::default());
        let verdict = dispatch.run(self, candidates, &workers);
        for done in workers.drain() {
            self.waste(&done);
        }
        self.highest_beside_first =
            self.highest_beside_first.max(workers.highest_beside_first.get());
        self.clock += workers.now.get();
        verdict
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
        while run(OneMinimal::new(Order::Forward), &units, &mut mask, oracle).expect("finished") > 0
        {
        }
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
    let needed = |p: &[NodeId]| (0..36).filter(|u| u % 3 != 2).all(|u| p.contains(&NodeId(u + 1)));
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
    let highest = fake.highest_beside_first;
    assert!(highest > 0, "nothing ran beside the slow test");
    assert!(highest < MIN_WINDOW, "candidate {highest} was handed out beside the slow test");
}

/// A probe guessed to pass with a chance of 0.85: its other branch
/// (what its failure brings in its round) is worth a free worker only
/// while the run has wasted fewer tests than it used (the host's
/// `spare`, read at each hand-out).
#[test]
fn a_less_likely_branch_runs_only_while_fewer_tests_were_wasted_than_used() {
    let mut dispatch = Dispatch::new(Arc::new(flat(1)), Handover::default());
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
    dispatch.chain.pending.insert(0, probe);
    let branch = |d: &Dispatch| d.likeliest_branch().map(|(i, chance, _)| (i, chance));
    // more wasted than used: the usual floor
    assert_eq!(branch(&dispatch), None);
    dispatch.branches.spare = true;
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
    let needed = |p: &[NodeId]| (0..45).filter(|u| u % 3 != 1).all(|u| p.contains(&NodeId(u + 1)));
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
    let verdict = run(Hdd::new(Ddmin::Adaptive, Order::Forward), &units, &mut mask, &mut fake);
    assert!(verdict.is_err(), "the run went on");
    // (on the simulated clock, the workers' last answers included)
    assert!(fake.clock < ms(150), "stopping waited for the tests in flight");
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
