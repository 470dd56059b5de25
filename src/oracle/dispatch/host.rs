//! What the scheduler works with: the evaluator it settles answers for
//! ([`DispatchHost`]) and the workers it hands jobs to ([`Workers`]).
//!
//! Both are traits so that the scheduler, the hardest code of the crate,
//! runs alone in its tests: a scripted host and workers on a simulated
//! clock stand in for the evaluator and the test processes.

use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use crate::oracle::check::{Done, Job};
use crate::oracle::predict::Timing;
use crate::reduce::ahead::Forecast;
use crate::reduce::Context;
use crate::syntax::Mask;

/// What the scheduler asks of, and reports to, the evaluator it works for.
pub(in crate::oracle) trait DispatchHost {
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
    /// [`SPARE_CHANCE`](crate::oracle::tuning::SPARE_CHANCE)).
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
    /// they are needed is at least `floors.0`; `sure`: the chance that the
    /// assumptions hold; and the text the plan ends on, if the forecast
    /// gets there. Past those, the texts of the other branch of the
    /// forecast's first guess, while their chance is at least `floors.1`.
    /// Nothing where the plan cannot be forecast.
    fn forecast(
        &mut self,
        assumed: &[bool],
        want: usize,
        sure: f64,
        floors: (f64, f64),
    ) -> Forecast;
}

/// The workers the scheduler hands jobs to, and the clock their tests'
/// times are measured by.
pub(in crate::oracle) trait Workers {
    /// Queues `job` for the next free worker; false once the workers are
    /// gone.
    fn send(&self, job: Job) -> bool;

    /// The next answer, waiting at most `wait` for it.
    fn recv_timeout(&self, wait: Duration) -> Result<Done, RecvTimeoutError>;

    /// The time now.
    fn now(&self) -> Instant;
}
