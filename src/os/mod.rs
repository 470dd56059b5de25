//! The OS layer: plumbing that knows nothing of reduction.
//!
//! - `dir`: directories by descriptor, for paths of `PATH_MAX` bytes or
//!   more.
//! - `stop`: telling running work to stop (signals, `--max-time`, a
//!   cancelled test), over a wake pipe.
//! - `reaper`: finding and ending every process a test started, and
//!   reaping the orphans hdd adopts.
//! - `scratch`: the session directory that holds every run's private
//!   directory, and the removal of those killed runs left.
//!
//! Invariant: this layer uses no other layer of the crate. It spawns
//! nothing (only `oracle::runner` does); it signals and reaps what the
//! runner spawned.

pub(crate) mod dir;
pub(crate) mod reaper;
pub(crate) mod scratch;
pub(crate) mod stop;

pub use reaper::adopt_orphans;
pub use stop::Stop;
