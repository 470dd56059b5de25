//! The reducer core: ddmin, adaptive ddmin, HDD, HDD* and HDD+.
//!
//! Invariant: nothing in here does I/O. The core sees a [`Tree`](crate::tree::Tree)
//! only through its [`Units`], the current [`Mask`], and an [`Oracle`] that says
//! which candidate masks are interesting; so every algorithm is unit-tested in
//! memory against synthetic predicates.
//!
//! Algorithms are written as [`Search`]es: state machines that propose the next
//! change and are told whether that was interesting. [`run`] drives one.
//! Because a search can be cloned and fed outcomes ahead of time, the driver
//! hands the oracle the whole sequence of candidates the search would try if
//! each turned out as the search expects (usually: not interesting); the oracle
//! may test several at once and reports the first one that did not turn out as
//! expected. The result is the same as testing one at a time, whatever the
//! parallelism; only the number of tests differs.

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

    /// Whether the last proposal was interesting; if it was, it is now part of the mask.
    fn feedback(&mut self, interesting: bool);

    /// The HDD level being reduced, for progress reports.
    fn level(&self) -> Option<usize> {
        None
    }
}

/// A candidate, and whether the search expects it to be interesting. The
/// next candidate assumes this one turned out as expected.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub mask: Mask,
    pub expect: bool,
}

/// What an [`Oracle`] found in a sequence of candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every candidate turned out as expected; there were this many.
    AsExpected(usize),
    /// The candidate at `index` is the first that did not turn out as
    /// expected (all before it did).
    Diverged { index: usize, interesting: bool },
    /// The run must end now (interrupted, out of time); nothing more was decided.
    Stopped,
}

/// Says which candidates are interesting.
pub trait Oracle {
    /// Tests `candidates` in order until the first one whose outcome is not
    /// its `expect`. May test later candidates speculatively, but the verdict
    /// must be the one a one-at-a-time evaluation in order would give.
    fn evaluate(&mut self, candidates: &mut dyn Iterator<Item = Candidate>) -> Verdict;

    /// Told before each batch which HDD level the search is at (for progress reports).
    fn progress(&mut self, _level: Option<usize>) {}
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
    let mut successes = 0;
    loop {
        let verdict = {
            // the sequence the search would try if every candidate turned
            // out as it expects
            let mut ahead = search.clone();
            let mut assumed = mask.clone();
            let mut candidates = std::iter::from_fn(|| {
                let proposal = ahead.propose(units, &assumed)?;
                let expect = ahead.expect();
                let candidate = proposal.apply(&assumed);
                ahead.feedback(expect);
                if expect {
                    assumed = candidate.clone();
                }
                Some(Candidate { mask: candidate, expect })
            });
            oracle.progress(search.level());
            oracle.evaluate(&mut candidates)
        };
        let (matched, diverged) = match verdict {
            Verdict::AsExpected(n) => (n, None),
            Verdict::Diverged { index, interesting } => (index, Some(interesting)),
            Verdict::Stopped => return Outcome { successes, stopped: true },
        };
        // replay what the oracle confirmed, then the divergence
        let outcomes = (0..matched).map(|_| None).chain(diverged.map(Some));
        for actual in outcomes {
            let proposal = search.propose(units, mask).expect("the search proposed this before");
            let interesting = actual.unwrap_or_else(|| search.expect());
            if interesting {
                *mask = proposal.apply(mask);
                successes += 1;
            }
            search.feedback(interesting);
        }
        if diverged.is_none() {
            return Outcome { successes, stopped: false };
        }
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
        fn evaluate(&mut self, candidates: &mut dyn Iterator<Item = Candidate>) -> Verdict {
            let mut n = 0;
            for (index, c) in candidates.enumerate() {
                let interesting = self.test(&c.mask);
                if interesting != c.expect {
                    return Verdict::Diverged { index, interesting };
                }
                n += 1;
            }
            Verdict::AsExpected(n)
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
