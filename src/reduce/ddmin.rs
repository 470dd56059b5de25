//! ddmin over one list of units: the classic block-size form and adaptive ddmin.
//!
//! Both keep a list of the units still in the candidate, propose deleting a
//! contiguous block of it, and on success delete that block and carry on at the
//! same index: never restarting from 0 after a success (the "accidentally
//! quadratic" greedy loop), so on `n` units of which `k` are essential the
//! single-unit form makes `n + k` tests.
//!
//! - [`Classic`]: blocks of size n/2, n/4, ... 1 (the block-size form of
//!   Zeller and Hildebrandt's ddmin); at each size, passes repeat until one
//!   removes nothing; the last size is 1, so the result is 1-minimal. With a
//!   first block size of 1 it is the linear-time greedy search (MacIver,
//!   "Linear time (ish) test case reduction").
//! - [`Adaptive`]: at each index, find the largest deletable block starting
//!   there with `find_change_point` (MacIver, "Adaptive delta debugging"):
//!   single deletions for the first five sizes, then steps of 1, 2, 4, ...
//!   more, then binary search. Repeats passes until one removes nothing.

use super::Step;
use crate::syntax::NodeId;

/// Which ddmin runs at each HDD level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ddmin {
    Classic,
    Adaptive,
}

/// A ddmin search over one list of units.
#[derive(Clone, Debug)]
pub(crate) enum LevelSearch {
    Classic(Classic),
    Adaptive(Adaptive),
}

impl LevelSearch {
    /// A search to a fixed point: its result is 1-minimal.
    #[cfg(test)]
    pub(crate) fn new(kind: Ddmin, items: Vec<NodeId>) -> LevelSearch {
        LevelSearch::with_fixpoint(kind, items, true)
    }

    /// With `fixpoint` false, a pass that removed something is not repeated
    /// (for HDD+, whose second phase makes the result 1-tree-minimal anyway:
    /// the repeated passes would test the same units twice).
    pub(crate) fn with_fixpoint(kind: Ddmin, items: Vec<NodeId>, fixpoint: bool) -> LevelSearch {
        match kind {
            Ddmin::Classic => LevelSearch::Classic(Classic { fixpoint, ..Classic::new(items) }),
            Ddmin::Adaptive => LevelSearch::Adaptive(Adaptive { fixpoint, ..Adaptive::new(items) }),
        }
    }

    pub(crate) fn propose(&mut self) -> Option<Vec<NodeId>> {
        match self {
            LevelSearch::Classic(s) => s.propose(),
            LevelSearch::Adaptive(s) => s.propose(),
        }
    }

    pub(crate) fn feedback(&mut self, interesting: bool) {
        match self {
            LevelSearch::Classic(s) => s.feedback(interesting),
            LevelSearch::Adaptive(s) => s.feedback(interesting),
        }
    }

    /// Whether the last proposal is likely to be interesting.
    pub(crate) fn expect(&self) -> bool {
        match self {
            LevelSearch::Classic(_) => false,
            LevelSearch::Adaptive(s) => s.expect(),
        }
    }

    /// Which step made the last proposal.
    pub(crate) fn step(&self) -> Step {
        match self {
            LevelSearch::Classic(s) if s.block == 1 => Step::Single,
            LevelSearch::Classic(_) => Step::Block,
            LevelSearch::Adaptive(s) => s.step(),
        }
    }

    /// The units still in the candidate.
    #[cfg(test)]
    pub(crate) fn items(&self) -> &[NodeId] {
        match self {
            LevelSearch::Classic(s) => &s.items,
            LevelSearch::Adaptive(s) => &s.items,
        }
    }
}

/// Block-size ddmin (and, from block size 1, linear-time greedy).
#[derive(Clone, Debug)]
pub(crate) struct Classic {
    items: Vec<NodeId>,
    block: usize,
    /// Start of the block proposed last (or to propose next).
    i: usize,
    /// End of the block proposed last.
    end: usize,
    /// Whether the current pass removed anything.
    changed: bool,
    /// Repeat a pass that removed something.
    fixpoint: bool,
}

impl Classic {
    /// ddmin starting with blocks of half the list.
    pub(crate) fn new(items: Vec<NodeId>) -> Classic {
        let block = (items.len() / 2).max(1);
        Classic { items, block, i: 0, end: 0, changed: false, fixpoint: true }
    }

    /// The linear-time greedy search: single units only.
    #[cfg(test)]
    pub(crate) fn greedy(items: Vec<NodeId>) -> Classic {
        Classic { items, block: 1, i: 0, end: 0, changed: false, fixpoint: true }
    }

    pub(crate) fn propose(&mut self) -> Option<Vec<NodeId>> {
        loop {
            if self.items.is_empty() {
                return None;
            }
            if self.i >= self.items.len() {
                self.i = 0;
                if self.changed && self.fixpoint {
                    self.changed = false;
                    self.block = self.block.min(self.items.len());
                } else if self.block > 1 {
                    self.changed = false;
                    self.block /= 2;
                } else {
                    return None;
                }
                continue;
            }
            self.end = (self.i + self.block).min(self.items.len());
            return Some(self.items[self.i..self.end].to_vec());
        }
    }

    pub(crate) fn feedback(&mut self, interesting: bool) {
        if interesting {
            self.items.drain(self.i..self.end);
            self.changed = true;
        } else {
            self.i = self.end;
        }
    }
}

/// The largest block found with single deletions before doubling starts.
const LINEAR_PROBES: usize = 5;

#[derive(Clone, Copy, Debug)]
enum Probe {
    /// Deleting one more unit at a time.
    Linear,
    /// Deleting `step` more, doubling the step after each success.
    Doubling { step: usize },
    /// Between `deleted` (deletable) and `bad` (not).
    Bisect { bad: usize },
}

/// Adaptive ddmin: at each index, the largest deletable block, found by probing.
#[derive(Clone, Debug)]
pub(crate) struct Adaptive {
    items: Vec<NodeId>,
    i: usize,
    /// Units deleted at index `i` so far.
    deleted: usize,
    probe: Probe,
    /// Size of the block proposed last.
    pending: usize,
    changed: bool,
    /// Repeat a pass that removed something.
    fixpoint: bool,
    /// Whether the first probe at the last index succeeded (a predictor).
    first_ok: bool,
}

impl Adaptive {
    pub(crate) fn new(items: Vec<NodeId>) -> Adaptive {
        Adaptive {
            items,
            i: 0,
            deleted: 0,
            probe: Probe::Linear,
            pending: 0,
            changed: false,
            fixpoint: true,
            first_ok: false,
        }
    }

    /// Moves on to the next index: the unit now at `i` is known to stay.
    fn next_index(&mut self) {
        self.i += 1;
        self.deleted = 0;
        self.probe = Probe::Linear;
    }

    pub(crate) fn propose(&mut self) -> Option<Vec<NodeId>> {
        loop {
            if self.i >= self.items.len() {
                if !(self.changed && self.fixpoint) {
                    return None;
                }
                self.changed = false;
                self.i = 0;
                self.deleted = 0;
                self.probe = Probe::Linear;
                continue;
            }
            let remaining = self.items.len() - self.i;
            let size = match self.probe {
                Probe::Linear if self.deleted < LINEAR_PROBES => 1,
                Probe::Linear => {
                    self.probe = Probe::Doubling { step: 1 };
                    continue;
                }
                Probe::Doubling { step } => step.min(remaining),
                Probe::Bisect { bad } => {
                    if bad - self.deleted <= 1 {
                        self.next_index();
                        continue;
                    }
                    (bad - self.deleted) / 2
                }
            };
            self.pending = size;
            return Some(self.items[self.i..self.i + size].to_vec());
        }
    }

    /// The likely outcome of the last proposal: probing goes on while it
    /// succeeds, and a first probe tends to do what the previous one did.
    pub(crate) fn expect(&self) -> bool {
        match self.probe {
            Probe::Linear if self.deleted == 0 => self.first_ok,
            Probe::Linear | Probe::Doubling { .. } => true,
            Probe::Bisect { .. } => false,
        }
    }

    /// Which step made the last proposal: the first probe at an index
    /// (after one whose first probe failed or passed), the 2nd to 5th single
    /// deletion, doubling or bisecting.
    pub(crate) fn step(&self) -> Step {
        match self.probe {
            Probe::Linear if self.deleted == 0 => Step::FirstProbe { after_success: self.first_ok },
            Probe::Linear => Step::Linear { nth: 1 + self.deleted.min(4) as u8 },
            Probe::Doubling { .. } => Step::Doubling,
            Probe::Bisect { .. } => Step::Bisect,
        }
    }

    pub(crate) fn feedback(&mut self, interesting: bool) {
        let size = self.pending;
        if matches!(self.probe, Probe::Linear) && self.deleted == 0 {
            self.first_ok = interesting;
        }
        if interesting {
            self.items.drain(self.i..self.i + size);
            self.deleted += size;
            self.changed = true;
            if let Probe::Doubling { step } = &mut self.probe {
                *step *= 2;
            }
            return;
        }
        match self.probe {
            Probe::Linear => self.next_index(),
            Probe::Doubling { .. } | Probe::Bisect { .. } => {
                self.probe = Probe::Bisect { bad: self.deleted + size };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::testing::Rng;
    use std::collections::HashSet;

    /// Runs a level search on `0..n` against a predicate on the kept indices;
    /// returns the kept indices and the number of tests (a candidate seen
    /// before is answered from a cache, as in the real oracle).
    fn run(s: LevelSearch, n: usize, interesting: impl FnMut(&[u32]) -> bool) -> (Vec<u32>, usize) {
        let (kept, calls, _) = run_counting(s, n, interesting);
        (kept, calls)
    }

    /// [`run`], also returning the number of proposals (tests without the cache).
    fn run_counting(
        mut s: LevelSearch,
        n: usize,
        mut interesting: impl FnMut(&[u32]) -> bool,
    ) -> (Vec<u32>, usize, usize) {
        let mut kept: Vec<u32> = (0..n as u32).collect();
        let mut calls = 0;
        let mut proposals = 0;
        let mut cache = std::collections::HashMap::new();
        while let Some(off) = s.propose() {
            proposals += 1;
            let off: HashSet<u32> = off.iter().map(|id| id.0).collect();
            let candidate: Vec<u32> = kept.iter().copied().filter(|i| !off.contains(i)).collect();
            let ok = *cache.entry(candidate.clone()).or_insert_with(|| {
                calls += 1;
                interesting(&candidate)
            });
            if ok {
                kept = candidate;
            }
            s.feedback(ok);
            assert_eq!(s.items().iter().map(|id| id.0).collect::<Vec<_>>(), kept);
        }
        (kept, calls, proposals)
    }

    fn ids(n: usize) -> Vec<NodeId> {
        (0..n as u32).map(NodeId).collect()
    }

    /// Interesting iff every index of `need` is kept: the subset model of the
    /// adaptive delta debugging article.
    fn contains_all(need: &[u32]) -> impl FnMut(&[u32]) -> bool + '_ {
        move |kept| need.iter().all(|x| kept.contains(x))
    }

    fn random_subset(rng: &mut Rng, n: usize, p: f64) -> Vec<u32> {
        (0..n as u32).filter(|_| rng.chance(p)).collect()
    }

    #[test]
    fn greedy_makes_n_plus_k_calls_on_the_k_essential_model() {
        let mut rng = Rng::new(1);
        for n in [1usize, 2, 7, 40, 200] {
            for _ in 0..20 {
                let need = random_subset(&mut rng, n, 0.2);
                let greedy = LevelSearch::Classic(Classic::greedy(ids(n)));
                let (kept, calls, proposals) = run_counting(greedy, n, contains_all(&need));
                assert_eq!(kept, need);
                let k = need.len();
                // one pass over everything, then one more over the k that stay
                // (a pass that removed nothing ends the search); the cache can
                // only save some of the second pass
                let expected = if k == n { n } else { n + k };
                assert_eq!(proposals, expected, "n={n} k={k}");
                assert!(calls <= proposals && calls >= n, "n={n} k={k}: {calls} calls");
            }
        }
    }

    #[test]
    fn every_search_finds_the_one_minimal_subset_of_a_monotone_predicate() {
        let mut rng = Rng::new(2);
        for n in [0usize, 1, 2, 3, 10, 64, 100] {
            for _ in 0..30 {
                let need = random_subset(&mut rng, n, 0.15);
                for kind in [Ddmin::Classic, Ddmin::Adaptive] {
                    let (kept, _) = run(LevelSearch::new(kind, ids(n)), n, contains_all(&need));
                    assert_eq!(kept, need, "{kind:?} n={n}");
                }
            }
        }
    }

    /// Brute force: is `kept` 1-minimal (no single index can go)?
    fn one_minimal(kept: &[u32], interesting: &mut impl FnMut(&[u32]) -> bool) -> bool {
        (0..kept.len()).all(|i| {
            let mut c = kept.to_vec();
            c.remove(i);
            !interesting(&c)
        })
    }

    #[test]
    fn results_are_interesting_and_one_minimal_for_non_monotone_predicates() {
        // interesting iff the kept set has an even sum and contains 3 (or n is
        // small enough that 3 is missing): not monotone
        let mut rng = Rng::new(3);
        for n in [4usize, 9, 17, 33] {
            for round in 0..20 {
                let salt = rng.next();
                let mut pred = move |kept: &[u32]| {
                    kept.contains(&3)
                        && kept.iter().fold(0u64, |a, &x| a.wrapping_add(u64::from(x) ^ salt)) % 3
                            != 1
                };
                for kind in [Ddmin::Classic, Ddmin::Adaptive] {
                    let all: Vec<u32> = (0..n as u32).collect();
                    if !pred(&all) {
                        continue;
                    }
                    let (kept, _) = run(LevelSearch::new(kind, ids(n)), n, &mut pred);
                    assert!(pred(&kept), "{kind:?} n={n} round={round}");
                    assert!(one_minimal(&kept, &mut pred), "{kind:?} n={n} {kept:?}");
                }
            }
        }
    }

    #[test]
    fn adaptive_needs_fewer_calls_than_classic_on_the_subset_model() {
        // the adaptive delta debugging article's simulation: interesting iff a random subset of indices,
        // drawn at a fixed expected fraction, is kept. Adaptive wins overall
        // and at every fraction from 5% up; on very sparse subsets (1-2%)
        // classic's halving is about as cheap or cheaper (measured: 1412 vs
        // 1073 calls at 1%), because adaptive spends five single deletions
        // before it starts doubling.
        let mut rng = Rng::new(4);
        let (mut all_classic, mut all_adaptive) = (0usize, 0usize);
        for p in [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.9, 0.99] {
            let (mut classic, mut adaptive) = (0usize, 0usize);
            for _ in 0..40 {
                let n = 50 + rng.below(300);
                let need = random_subset(&mut rng, n, p);
                classic += run(LevelSearch::new(Ddmin::Classic, ids(n)), n, contains_all(&need)).1;
                adaptive +=
                    run(LevelSearch::new(Ddmin::Adaptive, ids(n)), n, contains_all(&need)).1;
            }
            if p >= 0.05 {
                assert!(adaptive < classic, "p={p}: adaptive {adaptive} vs classic {classic}");
            }
            all_classic += classic;
            all_adaptive += adaptive;
        }
        // the article reports about 75%
        assert!(
            (all_adaptive as f64) < 0.8 * all_classic as f64,
            "adaptive {all_adaptive} vs classic {all_classic}"
        );
    }

    #[test]
    fn adaptive_is_within_fifteen_percent_of_greedy_on_blocks() {
        // the article's worst case table: one deletable block of size b before an
        // essential unit, repeated; adaptive makes at most ~15% more calls
        for b in 1..=12usize {
            let pattern: Vec<bool> =
                (0..20).flat_map(|_| std::iter::repeat_n(false, b).chain([true])).collect();
            let n = pattern.len();
            let need: Vec<u32> = (0..n as u32).filter(|&i| pattern[i as usize]).collect();
            let greedy =
                run(LevelSearch::Classic(Classic::greedy(ids(n))), n, contains_all(&need)).1;
            let adaptive = run(LevelSearch::new(Ddmin::Adaptive, ids(n)), n, contains_all(&need)).1;
            assert!(
                adaptive as f64 <= greedy as f64 * 1.15 + 1.0,
                "b={b}: adaptive {adaptive} greedy {greedy}"
            );
        }
    }

    #[test]
    fn k_clustered_results_need_few_tests() {
        // Lithium's bound: a monotone predicate whose answer is k clusters
        // needs O(k log n) tests, far fewer than n
        let n = 4096usize;
        for k in [1usize, 2, 4] {
            let need: Vec<u32> =
                (0..k as u32).map(|c| 100 + c * 900).flat_map(|s| s..s + 3).collect();
            for kind in [Ddmin::Classic, Ddmin::Adaptive] {
                let (kept, calls) = run(LevelSearch::new(kind, ids(n)), n, contains_all(&need));
                assert_eq!(kept, need);
                let bound =
                    3 * k * 3 * (usize::BITS - n.leading_zeros()) as usize + 3 * need.len() + 30;
                assert!(calls <= bound, "{kind:?} k={k}: {calls} calls > {bound}");
            }
        }
    }
}
