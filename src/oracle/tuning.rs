//! Every tuning constant of the `-j` scheduler, its guesses and the syntax
//! guard's workers, each with what it trades off.
//!
//! None of them changes a result: they decide what runs when, how much
//! memory the workers hold at once and how often a waiting thread looks
//! up, so they move test counts and times only (invariant 6 of
//! ARCHITECTURE.md). What each choice measured is in BENCHMARKS.md,
//! "Parallel tests (`-j`)", under the heading named in its comment.

use std::time::Duration;

// How deep speculation goes (see `dispatch`).

/// The least chance that a candidate handed out will be needed. With many
/// workers, speculating deeper on a chain of guesses mostly starts tests
/// that are cancelled (and on few cores, starting and killing them takes
/// time from the rest); with two, the window never reaches this deep.
/// The same floor holds for the other branch of a guess (the chance that
/// the guess is wrong and the branch's own guesses before the candidate
/// hold), but see [`SPARE_CHANCE`].
pub(super) const MIN_CHANCE: f64 = 0.2;

/// The least chance for the other branch of a guess while the tests
/// wasted so far are fewer than those used: a lower floor than
/// [`MIN_CHANCE`] where a failed probe brings a hoist in the same round
/// (see [`Batch::hoisting`](crate::reduce::Batch::hoisting)), so the
/// hoist is often running when the probe fails, but bounded, so that a
/// run never starts many more than twice the tests it uses ("A level's
/// hoists in the round of its deletions, and the other branch down to
/// 0.1").
pub(super) const SPARE_CHANCE: f64 = 0.1;

/// How many candidates, per worker, may be handed out and not settled (of
/// the chain and of other branches, answered or not). Answers that wait
/// for a slow test before them do not make the chain less likely, so
/// without a bound a slow test lets the chain run on, each of its
/// candidates holding a mask, and each change of assumption replaying
/// them all ("The budget's line, and a window").
pub(super) const WINDOW_PER_JOB: usize = 8;

/// The least window, for few workers, whose [`WINDOW_PER_JOB`] each would
/// otherwise stop a long chain of likely candidates (a fold, a round of
/// probes) before its chance does; a window this size is still cheap to
/// replay after a change of assumption.
pub(super) const MIN_WINDOW: usize = 64;

/// The longest the scheduler waits for an answer before it looks again
/// whether the run must stop: short enough that a signal or a failure
/// stops the run promptly, long enough that an idle scheduler costs
/// nothing.
pub(super) const STOP_POLL: Duration = Duration::from_millis(200);

// Tests ahead of a pass (see `dispatch::ahead` and `crate::reduce::ahead`).

/// The least chance for a test ahead of the pass: higher than
/// [`MIN_CHANCE`], since a wrong guess about a pass of one candidate
/// (renaming, a coordinated group) leaves every text after it unused
/// ("The next pass's tests ahead, on workers that outlive a pass").
pub(super) const AHEAD_CHANCE: f64 = 0.7;

/// The least chance for a test ahead on the other branch of the
/// forecast's first guess about a later pass (see
/// [`Branch`](crate::reduce::ahead::Branch)): a pass of one candidate is
/// guessed from its search's prior, [`EXPECTED_CHANCE`] at best, so its
/// other branch is likelier than most of the chain's deep speculation
/// ("The other branch of a later pass's first guess, and the curve now").
pub(super) const AHEAD_BRANCH_CHANCE: f64 = 0.15;

/// At most this many texts of the other branch of a forecast's first
/// guess are tested ahead: enough for the next pass of one candidate and
/// the first of the one after, where a wrong guess costs a test latency;
/// a whole round behind an unlikely branch is mostly waste ("The other
/// branch of a later pass's first guess, and the curve now").
pub(super) const BRANCH_TEXTS: usize = 2;

/// How much likelier the chain must have got since the plan was last
/// forecast under the same assumptions before it is forecast again: a
/// forecast runs the plan from the start, so asking at every answer
/// would cost more processor time than the few texts it adds.
pub(super) const REFORECAST_GAIN: f64 = 0.25;

// Guessing outcomes (see `predict`).

/// The chance a candidate starts from when its search expects it to be
/// interesting, before the run has seen outcomes of its step: likely, but
/// not so sure that the first outcomes seen cannot turn it.
pub(super) const EXPECTED_CHANCE: f64 = 0.8;

/// The chance a candidate starts from when its search expects it not to
/// be interesting (the mirror of [`EXPECTED_CHANCE`]).
pub(super) const UNEXPECTED_CHANCE: f64 = 0.2;

/// How many outcomes a coarser estimate weighs as, against a finer one
/// (a step's odds against a step and node kind's, the search's prior
/// against the step's): a couple, so that a kind seen twice already
/// leans its own way.
pub(super) const PRIOR_WEIGHT: f64 = 2.0;

/// What an outcome is worth after each later one of the same context (or
/// step): the last half dozen or so decide, since what can go changes as
/// the input shrinks ("Parallel tests (`-j`)" measures it against counting
/// every outcome alike).
pub(super) const ODDS_DECAY: f64 = 0.85;

/// The chance that a fold step passes. It adds a change that passed alone
/// to those before it, so it fails only where two changes interfere,
/// rarely. The learnt odds weigh the last half dozen outcomes and stay
/// well below this, which holds a fold's chain short; at this chance the
/// whole fold goes out, and each interference costs one test latency
/// ("The budget's line, and a window").
pub(super) const FOLD_CHANCE: f64 = 0.99;

/// Recent tests remembered per outcome by `Timing`: tests get quicker as
/// the input shrinks, so old ones say little.
pub(super) const TIMING_WINDOW: usize = 24;

/// The fewest failures `Timing` must have seen before it tells outcomes
/// apart by time: fewer say nothing about how long failures take.
pub(super) const TIMING_MIN_FAILS: usize = 4;

/// The fewest passes `Timing` must have seen before it tells outcomes
/// apart by time (their median decides, see [`PASS_SEPARATION`]).
pub(super) const TIMING_MIN_PASSES: usize = 2;

/// The quantile of recent failures' times that counts as a slow failure:
/// nearly all, not the slowest, so that one outlier does not stop the
/// guess.
pub(super) const SLOW_FAIL_QUANTILE: f64 = 0.9;

/// A test that has run this many times as long as a slow failure, and
/// [`SLOW_FAIL_SLACK`] more, is guessed to pass: a margin against tests
/// that take a little longer than the failures seen.
pub(super) const SLOW_FAIL_MARGIN: f64 = 1.1;

/// What a test must run past [`SLOW_FAIL_MARGIN`] times a slow failure
/// to be guessed to pass: a margin against the jitter of process starts,
/// which a ratio misses when tests take a few milliseconds.
pub(super) const SLOW_FAIL_SLACK: Duration = Duration::from_millis(2);

/// How much longer than that the median pass must take for the time to
/// tell the outcomes apart at all: where passes and failures take about
/// as long, guessing again by time would only be wrong.
pub(super) const PASS_SEPARATION: f64 = 1.5;

// The workers' memory and the syntax guard (see `budget` and `guard`).

/// Candidates up to this long are made and checked without asking the
/// budget: what they cost is small whatever `-j` is. The guard keeps its
/// parses of them for the next candidates (`Recent`).
pub(super) const SMALL: usize = 64 << 10;

/// How many of the guard's recent parses of small candidates are kept: a
/// round's probes each differ little from the one before, so a few
/// suffice, and each kept parse holds its tree ("The check of the
/// original and the final re-check, beside the plan").
pub(super) const RECENT: usize = 8;

/// The least the budget of candidate text allows, so that inputs of a few
/// hundred kilobytes never wait.
pub(super) const MIN_BUDGET: usize = 1 << 20;

/// A worker's text buffer larger than this is given back after each
/// candidate: workers waiting for work then hold nothing, whatever `-j`
/// is, while small buffers are reused without reallocating.
pub(super) const LARGE_BUFFER: usize = 1 << 20;

// How often a waiting worker looks whether its candidate was cancelled.

/// In the budget's or the parse slots' queue: short, since the candidate
/// behind it may be the one every answer waits for.
pub(super) const CANCEL_POLL: Duration = Duration::from_millis(10);

/// While it waits for another worker's test of the same text: that test
/// takes a test's time, so looking less often costs nothing.
pub(super) const WAIT_POLL: Duration = Duration::from_millis(20);
