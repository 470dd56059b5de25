//! The oracle layer: from a candidate mask to "interesting or not", by
//! running the user's test as few times as possible.
//!
//! - `Evaluator` implements the reducer core's
//!   [`Oracle`](crate::reduce::Oracle) over all of it; each interesting
//!   candidate becomes the new best and is handed to the `Sink` (which
//!   saves it) at once.
//! - `check`: one candidate, cheapest way first (same text as the best,
//!   the cache, the syntax guard of `guard`, then the test);
//!   `budget` and `queue`: how much candidate text the workers hold at
//!   once, handed out in the order candidates are needed.
//! - `dispatch`: with `-j N`, N candidates of the sequential order in
//!   flight at once on the workers of `pool`, settled in that order;
//!   `predict` guesses what speculation should assume, `forecast` what
//!   the next passes will test; `tuning` holds every threshold they use.
//! - `runner`: the only place that spawns processes (the test, the
//!   formatter of `--format`, the watchdog), on the OS plumbing of
//!   [`crate::os`].
//! - `stats`: the run's counters.
//!
//! Invariants: the settled outcomes, and so the result, are the same for
//! every N; this layer knows nothing of the application above it (the
//! command line, files the user named, exit codes).

mod budget;
mod check;
mod dispatch;
mod evaluator;
mod forecast;
pub(crate) mod guard;
mod pool;
mod predict;
mod queue;
mod sink;
pub(crate) mod stats;
mod tuning;

pub(crate) mod runner;

pub(crate) use evaluator::{Evaluator, Settings, StopReason};
pub(crate) use forecast::Forecaster;
pub(crate) use sink::{Answer, Sink};
