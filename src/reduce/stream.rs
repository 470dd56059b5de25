//! The stream of candidates of one search: the [`Candidates`] an
//! [`Oracle`](super::Oracle) settles.
//!
//! It keeps the search's state after the settled candidates, the outcomes
//! assumed for the ones handed out after them, and the state those
//! assumptions lead to. A search cannot be rewound, so a changed assumption
//! replays the search from the settled state.

use std::collections::VecDeque;

use super::{Candidate, Candidates, Context, Search, Units};
use crate::syntax::Mask;

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
        let kind = proposal.first_node().map_or(u16::MAX, |n| units.kind(n));
        let context = Context { step: self.search.step(), kind };
        let mask = proposal.apply(&self.mask);
        let commit = proposal.commits();
        let opens_round = self.search.opens_round();
        self.search.feedback(expect);
        if expect && commit {
            self.mask = mask.clone();
        }
        Some(Candidate { index, mask, expect, commit, opens_round, level, context })
    }

    /// Goes past the next proposal (one the search made before) as if it
    /// turned out `interesting`; the mask changes only if it did and the
    /// proposal commits. Whether it changed.
    fn advance(&mut self, units: &Units, interesting: bool) -> bool {
        let proposal =
            self.search.propose(units, &self.mask).expect("the search proposed this before");
        self.search.feedback(interesting);
        let committed = interesting && proposal.commits();
        if committed {
            self.mask = proposal.apply(&self.mask);
        }
        committed
    }
}

/// The [`Candidates`] of a search: the state after the settled candidates,
/// the outcomes assumed for the ones after them, and the state those
/// assumptions lead to.
pub(super) struct Stream<'u, S> {
    units: &'u Units,
    settled: State<S>,
    successes: usize,
    /// Index of the earliest candidate not settled.
    first: usize,
    /// Outcomes assumed for the candidates from `first` on, in order.
    assumed: VecDeque<bool>,
    /// `settled` with the `assumed` outcomes.
    head: State<S>,
}

impl<'u, S: Search> Stream<'u, S> {
    pub(super) fn new(search: S, units: &'u Units, mask: Mask) -> Self {
        let settled = State { search, mask };
        let head = settled.clone();
        Stream { units, settled, successes: 0, first: 0, assumed: Default::default(), head }
    }

    /// The search and mask after the settled candidates, and how many of
    /// them were interesting.
    pub(super) fn into_settled(self) -> (S, Mask, usize) {
        (self.settled.search, self.settled.mask, self.successes)
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
        let committed = self.settled.advance(self.units, interesting);
        self.successes += usize::from(committed);
        self.first += 1;
    }
}
