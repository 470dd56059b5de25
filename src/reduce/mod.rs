//! The reducer core: ddmin, adaptive ddmin, HDD, HDD* and HDD+.
//!
//! Invariant: nothing in here does I/O. The core sees a [`Tree`](crate::tree::Tree)
//! only through its [`Units`], the current [`Mask`], and an [`Oracle`] that says
//! which candidate masks are interesting; so every algorithm is unit-tested in
//! memory against synthetic predicates.
//!
//! Algorithms are written as [`Search`]es: state machines that propose the next
//! change and are told whether that was interesting. [`run`] drives one.
//! Because a search can be cloned and fed outcomes ahead of time, the oracle
//! sees a stream of [`Candidates`]: each one is what the search would try if
//! every earlier one turned out as assumed (at first: as the search expects,
//! usually "not interesting"). The oracle may test several at once, change
//! an assumption when a test comes back otherwise (or, with `-j`, when a
//! test has run long enough that it is likely to), and settles outcomes
//! strictly in order. The result is the same as testing one at a time,
//! whatever the parallelism; only the number of tests differs.

use crate::mask::{self, Mask};
use crate::tree::NodeId;

pub mod ddmin;
pub mod hdd;
pub mod units;

pub use ddmin::Ddmin;
pub use hdd::{Hdd, Hoist, OneMinimal, Order};
pub use units::{Target, Units};

/// One change to try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proposal {
    /// Switch these units off.
    Off(Vec<NodeId>),
    /// Replace `node` by the run of its descendants in `to`.
    Hoist { node: NodeId, to: units::Target },
}

impl Proposal {
    /// `mask` with this change made.
    pub fn apply(&self, mask: &Mask) -> Mask {
        match self {
            Proposal::Off(ids) => mask.with_off(ids),
            Proposal::Hoist { node, to } => {
                mask.with_hoist(mask::Hoist { node: *node, first: to.first, last: to.last })
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
    fn step(&self) -> u8 {
        0
    }

    /// Whether the last proposal was interesting; if it was, it is now part of the mask.
    fn feedback(&mut self, interesting: bool);

    /// The HDD level being reduced, for progress reports.
    fn level(&self) -> Option<usize> {
        None
    }
}

/// What a candidate is, for learning which candidates tend to be
/// interesting: the step of the search that proposed it and the kind of
/// node it changes (the first one, for a block). Deleting a declaration the
/// rest uses fails where deleting a statement passes, and a search's first
/// probe at an index fails where its later probes pass; a run learns these
/// odds as it goes (the oracle does, to guess better with `-j`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Context {
    /// Numbered by each search, unique across searches: ddmin 0-15,
    /// [`OneMinimal`] 16-17, [`Hoist`] 18.
    pub step: u8,
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

/// How a [`run`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Interesting candidates committed.
    pub successes: usize,
    /// Whether the oracle stopped the run before the search was done.
    pub stopped: bool,
}

/// Runs `search` to the end, committing every interesting candidate to `mask`.
pub fn run<S: Search>(
    mut search: S,
    units: &Units,
    mask: &mut Mask,
    oracle: &mut dyn Oracle,
) -> Outcome {
    drive(&mut search, units, mask, oracle)
}

/// [`run`], leaving `search` as it was after the last settled candidate
/// (with what it learnt, such as the hoists that failed).
pub fn drive<S: Search>(
    search: &mut S,
    units: &Units,
    mask: &mut Mask,
    oracle: &mut dyn Oracle,
) -> Outcome {
    let mut stream = Stream::new(search.clone(), units, mask.clone());
    let stopped = oracle.evaluate(&mut stream) == Verdict::Stopped;
    let successes = stream.successes;
    *mask = stream.settled.mask;
    *search = stream.settled.search;
    Outcome { successes, stopped }
}

/// A search and the mask it works on, at one point of the stream.
#[derive(Clone)]
struct State<S> {
    search: S,
    mask: Mask,
}

impl<S: Search> State<S> {
    /// Proposes the next candidate and goes on as if it turned out as the
    /// search expects.
    fn step(&mut self, units: &Units, index: usize) -> Option<Candidate> {
        let proposal = self.search.propose(units, &self.mask)?;
        let expect = self.search.expect();
        let level = self.search.level();
        let node = match &proposal {
            Proposal::Off(ids) => ids.first().copied(),
            Proposal::Hoist { node, .. } => Some(*node),
        };
        let kind = node.map_or(u16::MAX, |n| units.kind(n));
        let context = Context { step: self.search.step(), kind };
        let mask = proposal.apply(&self.mask);
        self.search.feedback(expect);
        if expect {
            self.mask = mask.clone();
        }
        Some(Candidate { index, mask, expect, level, context })
    }

    /// Goes past the next proposal (one the search made before) as if it
    /// turned out `interesting`; the mask changes only if it did.
    fn advance(&mut self, units: &Units, interesting: bool) {
        let proposal =
            self.search.propose(units, &self.mask).expect("the search proposed this before");
        self.search.feedback(interesting);
        if interesting {
            self.mask = proposal.apply(&self.mask);
        }
    }
}

/// The [`Candidates`] of a search: the state after the settled candidates,
/// the outcomes assumed for the ones after them, and the state those
/// assumptions lead to.
struct Stream<'u, S> {
    units: &'u Units,
    settled: State<S>,
    successes: usize,
    /// Index of the earliest candidate not settled.
    first: usize,
    /// Outcomes assumed for the candidates from `first` on, in order.
    assumed: std::collections::VecDeque<bool>,
    /// `settled` with the `assumed` outcomes.
    head: State<S>,
}

impl<'u, S: Search> Stream<'u, S> {
    fn new(search: S, units: &'u Units, mask: Mask) -> Self {
        let settled = State { search, mask };
        let head = settled.clone();
        Stream { units, settled, successes: 0, first: 0, assumed: Default::default(), head }
    }
}

impl<S: Search> Candidates for Stream<'_, S> {
    fn next(&mut self) -> Option<Candidate> {
        let candidate = self.head.step(self.units, self.first + self.assumed.len())?;
        self.assumed.push_back(candidate.expect);
        Some(candidate)
    }

    fn assume(&mut self, index: usize, interesting: bool) {
        let k = index.checked_sub(self.first).expect("assumption about a settled candidate");
        assert!(k < self.assumed.len(), "assumption about a candidate not proposed yet");
        self.assumed.truncate(k);
        self.assumed.push_back(interesting);
        // replay from the settled state: a search cannot be rewound
        self.head = self.settled.clone();
        for &outcome in &self.assumed {
            self.head.advance(self.units, outcome);
        }
    }

    fn settle(&mut self, index: usize, interesting: bool) {
        assert_eq!(index, self.first, "candidates are settled in order");
        if self.assumed.front() != Some(&interesting) {
            self.assume(index, interesting);
        }
        self.assumed.pop_front();
        self.settled.advance(self.units, interesting);
        self.successes += usize::from(interesting);
        self.first += 1;
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! In-memory oracles and trees for the algorithm tests.

    use super::*;
    use crate::tree::{flags, Action, Tree, TreeBuilder, TreeInfo};
    use std::collections::HashMap;
    use std::sync::Arc;

    /// An oracle over a predicate on the set of present units; counts calls
    /// and, like the real oracle, answers a candidate seen before from a cache.
    pub(crate) struct FnOracle<'u, F> {
        pub units: &'u Units,
        pub predicate: F,
        pub calls: usize,
        pub cache_hits: usize,
        seen: HashMap<Vec<NodeId>, bool>,
    }

    impl<'u, F: FnMut(&[NodeId]) -> bool> FnOracle<'u, F> {
        pub(crate) fn new(units: &'u Units, predicate: F) -> Self {
            FnOracle { units, predicate, calls: 0, cache_hits: 0, seen: HashMap::new() }
        }

        pub(crate) fn test(&mut self, mask: &Mask) -> bool {
            let present = self.units.present_bfs(mask);
            if let Some(&known) = self.seen.get(&present) {
                self.cache_hits += 1;
                return known;
            }
            self.calls += 1;
            let answer = (self.predicate)(&present);
            self.seen.insert(present, answer);
            answer
        }
    }

    impl<F: FnMut(&[NodeId]) -> bool> Oracle for FnOracle<'_, F> {
        fn evaluate(&mut self, candidates: &mut dyn Candidates) -> Verdict {
            while let Some(c) = candidates.next() {
                let interesting = self.test(&c.mask);
                candidates.settle(c.index, interesting);
            }
            Verdict::Finished
        }
    }

    /// A tree whose units are `n` deletable leaves under one root: a flat sequence.
    pub(crate) fn flat(n: usize) -> Tree {
        let src = vec![b'x'; n];
        let mut b = TreeBuilder::new(Arc::from(src));
        b.open(0, flags::NAMED, 0, n);
        for i in 0..n {
            let id = b.open(1, flags::NAMED, i, i + 1);
            b.node_mut(id).action = Action::Delete;
            b.close();
        }
        b.finish(Arc::new(TreeInfo::default()))
    }

    /// A random tree of deletable nodes; `shape` draws the number of children
    /// of a node at a depth (0 makes it a leaf).
    pub(crate) fn random_tree(rng: &mut Rng, max_nodes: usize) -> Tree {
        // lay out nested spans over a byte string: each node is "(" children ")"
        fn grow(
            rng: &mut Rng,
            depth: usize,
            budget: &mut usize,
            out: &mut Vec<(usize, usize)>,
            pos: &mut usize,
        ) {
            let start = *pos;
            *pos += 1;
            let idx = out.len();
            out.push((start, 0));
            *budget = budget.saturating_sub(1);
            let kids = if depth >= 5 || *budget == 0 { 0 } else { rng.below(4) };
            for _ in 0..kids {
                if *budget == 0 {
                    break;
                }
                grow(rng, depth + 1, budget, out, pos);
            }
            *pos += 1;
            out[idx].1 = *pos;
        }
        let mut spans = Vec::new();
        let mut pos = 0;
        let mut budget = max_nodes;
        grow(rng, 0, &mut budget, &mut spans, &mut pos);
        let src = vec![b'.'; pos];
        let mut b = TreeBuilder::new(Arc::from(src));
        let mut open: Vec<usize> = Vec::new();
        for (i, &(s, e)) in spans.iter().enumerate() {
            while open.last().is_some_and(|&o| spans[o].1 <= s) {
                open.pop();
                b.close();
            }
            let id = b.open(0, flags::NAMED, s, e);
            if i > 0 {
                b.node_mut(id).action = Action::Delete;
            }
            open.push(i);
        }
        b.finish(Arc::new(TreeInfo::default()))
    }

    /// A small deterministic random number generator (xorshift64*).
    pub(crate) struct Rng(u64);

    impl Rng {
        pub(crate) fn new(seed: u64) -> Rng {
            Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
        }

        pub(crate) fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        pub(crate) fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        pub(crate) fn chance(&mut self, p: f64) -> bool {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
        }
    }
}
