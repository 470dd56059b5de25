//! The reduce layer: ddmin, adaptive ddmin, HDD, HDD*, HDD+, hoisting,
//! coordinated deletion, dependency-aware cuts and the layout pass, and the plans that run them
//! in turn.
//!
//! Invariant: nothing in here does I/O or knows a language, a process or a
//! file. The core sees a [`Tree`](crate::syntax::Tree) only through its
//! [`Units`], the current [`Mask`], and an [`Oracle`] that says which
//! candidate masks are interesting; a `Plan` gets fresh parses of the
//! current best from a `Host`. So every algorithm, and every plan, is
//! tested in memory against synthetic predicates.
//!
//! Algorithms are written as [`Search`]es: state machines that propose the
//! next change and are told whether that was interesting. [`drive`] runs
//! one. Because a search can be cloned and fed outcomes ahead of time, the
//! oracle sees a stream of [`Candidates`]: each one is what the search would
//! try if every earlier one turned out as assumed (at first: as the search
//! expects, usually "not interesting"). The oracle may test several at
//! once, change an assumption when a test comes back otherwise (or, with
//! `-j`, when a test has run long enough that it is likely to), and settles
//! outcomes strictly in order. The result is the same as testing one at a
//! time, whatever the parallelism; only the number of tests differs.

use crate::syntax::{Hoist, Mask, NodeId, Swap};

pub(crate) mod ahead;
pub(crate) mod batch;
pub(crate) mod closures;
pub(crate) mod coordinated;
pub(crate) mod ddmin;
pub(crate) mod groups;
pub(crate) mod hdd;
pub(crate) mod hoist;
pub(crate) mod memory;
pub(crate) mod one_minimal;
pub(crate) mod phase;
pub(crate) mod plan;
pub(crate) mod rename;
pub(crate) mod seams;
mod stage;
mod stream;
pub(crate) mod units;
pub(crate) mod whole;

#[cfg(test)]
pub(crate) mod rng;
#[cfg(test)]
pub(crate) mod testing;

pub(crate) use batch::Batch;
pub(crate) use closures::Closures;
pub(crate) use coordinated::{Coordinated, GroupMemory};
pub use ddmin::Ddmin;
pub use hdd::Hdd;
pub(crate) use hoist::{HoistBatch, Hoisting};
pub(crate) use one_minimal::OneMinimal;
pub(crate) use plan::{Algorithm, Host, Phase, Plan, View};
pub(crate) use rename::Renaming;
pub(crate) use seams::Seams;
pub use units::{Order, Units};
pub(crate) use whole::Whole;

/// One change to try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proposal {
    /// Switch these units off.
    Off(Vec<NodeId>),
    /// Replace a node by a run of its descendants.
    Hoist(Hoist),
    /// Switch these units off in the candidate only: if it is interesting,
    /// the mask stays as it is and the search keeps the outcome, to commit
    /// later (a batch probes each of its changes against the same mask,
    /// then commits the ones that passed together; see `batch`).
    Probe(Vec<NodeId>),
    /// Replace each of these nodes by a run of its descendants, at once (a
    /// batch of hoists committing the ones that passed alone, see
    /// `HoistBatch`).
    Hoists(Vec<Hoist>),
    /// These hoists in the candidate only, like [`Proposal::Probe`].
    ProbeHoists(Vec<Hoist>),
    /// Switch these units off and replace these nodes by runs of their
    /// descendants, at once (a batch committing the blocks and the hoists
    /// of its round that passed alone, see `Batch::hoisting`).
    OffHoists(Vec<NodeId>, Vec<Hoist>),
    /// Switch these units off and write these nodes as other texts, at
    /// once (coordinated deletion: a typedef with its uses made its type).
    Swap(Vec<NodeId>, Vec<Swap>),
}

impl Proposal {
    /// `mask` with this change made.
    pub fn apply(&self, mask: &Mask) -> Mask {
        match self {
            Proposal::Off(ids) | Proposal::Probe(ids) => mask.with_off(ids),
            Proposal::Hoist(hoist) => mask.with_hoist(*hoist),
            Proposal::Hoists(hoists) | Proposal::ProbeHoists(hoists) => {
                hoists.iter().fold(mask.clone(), |m, &h| m.with_hoist(h))
            }
            Proposal::Swap(ids, swaps) => mask.with_off(ids).with_swaps(swaps),
            Proposal::OffHoists(ids, hoists) => {
                hoists.iter().fold(mask.with_off(ids), |m, &h| m.with_hoist(h))
            }
        }
    }

    /// Whether the change becomes part of the mask when interesting.
    pub fn commits(&self) -> bool {
        !matches!(self, Proposal::Probe(_) | Proposal::ProbeHoists(_))
    }

    /// The node it changes first, for learning which candidates pass.
    fn first_node(&self) -> Option<NodeId> {
        match self {
            Proposal::Off(ids) | Proposal::Probe(ids) => ids.first().copied(),
            Proposal::OffHoists(ids, hoists) => {
                ids.first().or(hoists.first().map(|h| &h.node)).copied()
            }
            Proposal::Swap(ids, swaps) => ids.first().or(swaps.first().map(|s| &s.node)).copied(),
            Proposal::Hoist(hoist) => Some(hoist.node),
            Proposal::Hoists(hoists) | Proposal::ProbeHoists(hoists) => {
                hoists.first().map(|h| h.node)
            }
        }
    }
}

/// A reduction algorithm as a state machine.
pub trait Search: Clone {
    /// The change to try next, or `None` when the search is done. Only
    /// present units are proposed.
    fn propose(&mut self, units: &Units, mask: &Mask) -> Option<Proposal>;

    /// Whether the last proposal is likely to be interesting. Only used to
    /// decide what to test ahead of time with `-j`; a wrong guess costs
    /// wasted tests, never a different result.
    fn expect(&self) -> bool {
        false
    }

    /// Which step of the search made the last proposal (see [`Context`]).
    fn step(&self) -> Step;

    /// Whether the last proposal opens a round of probes (see
    /// [`Proposal::Probe`]): it depends on the outcomes of the probes of
    /// the rounds before it, as the other probes of its round do not. Only
    /// used to decide what to test ahead of time with `-j`.
    fn opens_round(&self) -> bool {
        false
    }

    /// Whether the last proposal was interesting; if it was, it is now part of the mask.
    fn feedback(&mut self, interesting: bool);

    /// The HDD level being reduced, for progress reports.
    fn level(&self) -> Option<usize> {
        None
    }
}

/// Which step of a search made a proposal. Candidates of one step tend to
/// turn out alike (a first probe fails where a later probe passes), which
/// the oracle learns to guess better with `-j` (see [`Context`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Adaptive ddmin's first probe at an index, after an index whose first
    /// probe failed or passed.
    FirstProbe { after_success: bool },
    /// Adaptive ddmin's further single deletions at an index: the 2nd to
    /// the 5th unit deleted there.
    Linear { nth: u8 },
    /// Adaptive ddmin deleting twice as many more.
    Doubling,
    /// Adaptive ddmin bisecting between a deletable and a too large block.
    Bisect,
    /// Classic ddmin with blocks of more than one unit.
    Block,
    /// Classic ddmin deleting single units.
    Single,
    /// The 1-minimality phase, after a failed or a successful removal.
    Removal { after_success: bool },
    /// Replacing a node by one of its hoist targets.
    Hoist,
    /// Switching off a declaration with its uses.
    Coordinated,
    /// Keeping the closure of some top-level items, the rest off (see
    /// `closures`).
    Closure,
    /// A batch probing a block of more units, or a single one, against
    /// the mask its whole round shares.
    Probe { single: bool },
    /// A batch committing the changes of its round that passed alone.
    Merge,
    /// A batch whose merge failed adding the changes that passed alone one
    /// at a time.
    Fold,
    /// Every unit of a view at once (the layout pass).
    Whole,
    /// Renaming one name at every token that spells it.
    Rename,
    /// The seam between two bracketed groups, deleted at once (see
    /// `seams`).
    Seam,
}

/// What a candidate is, for learning which candidates tend to be
/// interesting: the step of the search that proposed it and the kind of
/// node it changes (the first one, for a block). Deleting a declaration the
/// rest uses fails where deleting a statement passes, and a search's first
/// probe at an index fails where its later probes pass; a run learns these
/// odds as it goes (the oracle does, to guess better with `-j`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Context {
    pub step: Step,
    pub kind: u16,
}

/// A candidate, and what is assumed about it: the next candidate assumes
/// this one turns out as `expect`.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Position in the stream (0 for a search's first candidate).
    pub index: usize,
    pub mask: Mask,
    /// The outcome the search expects; the stream goes on as if it were so
    /// until told otherwise.
    pub expect: bool,
    /// Whether it becomes the new best if interesting (a probe does not:
    /// see [`Proposal::Probe`]).
    pub commit: bool,
    /// It opens a round of probes (see [`Search::opens_round`]).
    pub opens_round: bool,
    /// The HDD level it belongs to, for progress reports.
    pub level: Option<usize>,
    pub context: Context,
}

/// The candidates of one search, in the order a one-at-a-time evaluation
/// tests them.
pub trait Candidates {
    /// The next candidate, assuming every earlier one turns out as assumed;
    /// `None` when the search would be done.
    fn next(&mut self) -> Option<Candidate>;

    /// From now on assume that candidate `index` (not settled yet) turns out
    /// `interesting`: the candidates after it are forgotten, and `next`
    /// goes on with `index + 1`.
    fn assume(&mut self, index: usize, interesting: bool);

    /// Candidate `index`, the earliest not settled, turned out
    /// `interesting`: this is final (and implies [`Candidates::assume`] if
    /// it was assumed otherwise).
    fn settle(&mut self, index: usize, interesting: bool);
}

/// How an [`Oracle`] ended an evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every candidate is settled and the search is done.
    Finished,
    /// The run must end now (interrupted, out of time, an I/O error); what
    /// was settled stands.
    Stopped,
}

/// Says which candidates are interesting.
pub trait Oracle {
    /// Settles `candidates` in order, one by one, until there are none left.
    /// May test later candidates speculatively and change assumptions, but
    /// every outcome it settles must be the real one.
    fn evaluate(&mut self, candidates: &mut dyn Candidates) -> Verdict;
}

/// The oracle stopped the run before the search was done; what was
/// settled stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// Runs `search` to the end, committing every interesting candidate to
/// `mask`; returns how many it committed. `search` is left as it was after
/// the last settled candidate (with what it learnt, such as the hoists that
/// failed).
pub fn drive<S: Search>(
    search: &mut S,
    units: &Units,
    mask: &mut Mask,
    oracle: &mut dyn Oracle,
) -> Result<usize, Stopped> {
    let mut stream = stream::Stream::new(search.clone(), units, mask.clone());
    let verdict = oracle.evaluate(&mut stream);
    let (settled_search, settled_mask, successes) = stream.into_settled();
    *mask = settled_mask;
    *search = settled_search;
    match verdict {
        Verdict::Finished => Ok(successes),
        Verdict::Stopped => Err(Stopped),
    }
}

/// [`drive`], for a search whose state after the run does not matter.
pub fn run<S: Search>(
    mut search: S,
    units: &Units,
    mask: &mut Mask,
    oracle: &mut dyn Oracle,
) -> Result<usize, Stopped> {
    drive(&mut search, units, mask, oracle)
}
