//! Hierarchical delta debugging (Misherghi & Su, 2006).
//!
//! [`Hdd`] goes breadth first, one level at a time; at each level ddmin
//! (classic or adaptive) over the units of that level that are still
//! present, then on to the next level, so whole subtrees go before anyone
//! looks inside them. With hoisting (HDD+'s default), each level's nodes
//! with one or two hoist targets are offered them after its ddmin, before
//! the levels below look inside (see [`Hoisting`]); batched, in the rounds
//! of its ddmin, as soon as their unit fails alone (see [`Batch::hoisting`]). HDD* (HDD again until a
//! pass removes nothing) and HDD+ are plans of these searches (see
//! [`plan`](super::plan)).

use super::batch::Batch;
use super::ddmin::{Ddmin, LevelSearch};
use super::hoist::Hoisting;
use super::{Order, Proposal, Search, Step, Units};
use crate::syntax::{Hoist, Mask};

/// One HDD pass over all levels.
#[derive(Clone, Debug)]
pub struct Hdd {
    ddmin: Ddmin,
    order: Order,
    fixpoint: bool,
    /// Whether each level's nodes are offered their hoists after its ddmin.
    hoisting: bool,
    /// Each level's ddmin as a [`Batch`] whose first round has this many blocks.
    batch: Option<usize>,
    level: usize,
    current: Option<Doing>,
    /// The hoists tried that were not interesting.
    failed: Vec<Hoist>,
}

/// What HDD is doing at its level.
#[derive(Clone, Debug)]
enum Doing {
    Ddmin(LevelSearch),
    // (boxed: a batch is much larger than the other searches)
    Batch(Box<Batch>),
    Hoisting(Hoisting),
}

impl Hdd {
    /// HDD with ddmin to a fixed point at each level (each level's result is
    /// 1-minimal, as in the paper).
    pub fn new(ddmin: Ddmin, order: Order) -> Hdd {
        Hdd {
            ddmin,
            order,
            fixpoint: true,
            hoisting: false,
            batch: None,
            level: 0,
            current: None,
            failed: Vec::new(),
        }
    }

    /// HDD with one ddmin pass per level: for HDD+, whose second phase
    /// re-checks every unit anyway.
    pub fn single_pass(ddmin: Ddmin, order: Order) -> Hdd {
        Hdd { fixpoint: false, ..Hdd::new(ddmin, order) }
    }

    /// This HDD, hoisting the nodes of each level that have at most two
    /// targets after its ddmin (see `Hoisting::at_level`) and before
    /// the levels below look inside them: what a hoist drops costs no test
    /// there.
    pub fn hoisting(self) -> Hdd {
        Hdd { hoisting: true, ..self }
    }

    /// This HDD, with each level's ddmin a `Batch` whose first round cuts
    /// the level into `width` blocks, and its hoists (with [`Hdd::hoisting`])
    /// in the same rounds (`Batch::hoisting`): for many workers.
    pub fn batched(self, width: usize) -> Hdd {
        Hdd { batch: Some(width), ..self }
    }

    /// The hoists tried that were not interesting, after a run (the last
    /// level's are still with its hoisting step: the run ends before the
    /// search moves past it).
    pub fn failed_hoists(&self) -> impl Iterator<Item = &Hoist> {
        let current = match &self.current {
            Some(Doing::Hoisting(hoist)) => hoist.failed(),
            Some(Doing::Batch(batch)) => batch.failed_hoists(),
            _ => &[],
        };
        self.failed.iter().chain(current)
    }
}

impl Hdd {
    /// The level's ddmin is done: on to its hoists, or to the next level.
    fn level_done(&mut self) {
        if let Some(Doing::Batch(batch)) = &self.current {
            // its hoists were in its rounds
            self.failed.extend_from_slice(batch.failed_hoists());
            self.current = None;
            self.level += 1;
        } else if self.hoisting {
            self.current = Some(Doing::Hoisting(Hoisting::at_level(self.level)));
        } else {
            self.current = None;
            self.level += 1;
        }
    }
}

impl Search for Hdd {
    fn propose(&mut self, units: &Units, mask: &Mask) -> Option<Proposal> {
        loop {
            match &mut self.current {
                Some(Doing::Ddmin(search)) => match search.propose() {
                    Some(off) => return Some(Proposal::Off(off)),
                    None => self.level_done(),
                },
                Some(Doing::Batch(batch)) => match batch.propose(units, mask) {
                    Some(proposal) => return Some(proposal),
                    None => self.level_done(),
                },
                Some(Doing::Hoisting(hoist)) => match hoist.propose(units, mask) {
                    Some(proposal) => return Some(proposal),
                    None => {
                        self.failed.extend_from_slice(hoist.failed());
                        self.current = None;
                        self.level += 1;
                    }
                },
                None => {
                    if self.level >= units.depth() {
                        return None;
                    }
                    let mut items = units.ordered(self.level, mask, self.order);
                    // a hoisted node's target stands in the node's place,
                    // where switching it off may mean something else: the
                    // 1-minimal phase tries it on a fresh parse
                    let hoists = mask.hoists();
                    if !hoists.is_empty() {
                        items
                            .retain(|&u| !hoists.iter().any(|h| h.to.first == u || h.to.last == u));
                    }
                    self.current = Some(match self.batch {
                        Some(width) => {
                            let users = units.users(self.level, &items, mask);
                            let batch = Batch::ddmin(items, width, self.fixpoint).with_users(users);
                            let batch = if self.hoisting { batch.hoisting() } else { batch };
                            Doing::Batch(Box::new(batch))
                        }
                        None => Doing::Ddmin(LevelSearch::with_fixpoint(
                            self.ddmin,
                            items,
                            self.fixpoint,
                        )),
                    });
                }
            }
        }
    }

    fn expect(&self) -> bool {
        match &self.current {
            Some(Doing::Ddmin(search)) => search.expect(),
            Some(Doing::Batch(batch)) => batch.expect(),
            Some(Doing::Hoisting(hoist)) => hoist.expect(),
            None => false,
        }
    }

    fn step(&self) -> Step {
        match &self.current {
            Some(Doing::Ddmin(search)) => search.step(),
            Some(Doing::Batch(batch)) => batch.step(),
            Some(Doing::Hoisting(hoist)) => hoist.step(),
            // nothing is proposed between levels
            None => Step::Block,
        }
    }

    fn opens_round(&self) -> bool {
        match &self.current {
            Some(Doing::Batch(batch)) => batch.opens_round(),
            _ => false,
        }
    }

    fn feedback(&mut self, interesting: bool) {
        match &mut self.current {
            Some(Doing::Ddmin(search)) => search.feedback(interesting),
            Some(Doing::Batch(batch)) => batch.feedback(interesting),
            Some(Doing::Hoisting(hoist)) => hoist.feedback(interesting),
            None => {}
        }
    }

    fn level(&self) -> Option<usize> {
        Some(self.level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::testing::{
        flat, hoist_tree, hoisting_info, random_hoist_tree, random_tree, FnOracle, Rng, TextOracle,
    };
    use crate::reduce::{
        drive, run, Batch, Candidate, Candidates, HoistBatch, OneMinimal, Oracle, Verdict,
    };
    use crate::syntax::tree::{flags, Action, TreeBuilder};
    use crate::syntax::{NodeId, Tree, Unparser};
    use std::collections::HashSet;
    use std::sync::Arc;

    /// Runs HDD (or HDD+ when `plus`) in memory; returns the present units.
    fn reduce(
        tree: &Tree,
        ddmin: Ddmin,
        plus: bool,
        pred: impl FnMut(&[NodeId]) -> bool,
    ) -> (Vec<NodeId>, usize) {
        let units = Units::new(tree);
        let mut mask = Mask::new(tree.len());
        let mut oracle = FnOracle::new(&units, pred);
        run(Hdd::new(ddmin, Order::Forward), &units, &mut mask, &mut oracle).expect("finished");
        while plus
            && run(OneMinimal::new(Order::Forward), &units, &mut mask, &mut oracle)
                .is_ok_and(|n| n > 0)
        {}
        let calls = oracle.calls;
        (units.present_bfs(&mask), calls)
    }

    fn one_tree_minimal(
        tree: &Tree,
        present: &[NodeId],
        pred: &mut impl FnMut(&[NodeId]) -> bool,
    ) -> bool {
        let units = Units::new(tree);
        let mut mask = Mask::new(tree.len());
        for id in 0..tree.len() as u32 {
            let id = NodeId(id);
            if units.is_unit(id) && !present.contains(&id) {
                mask.set_off(id);
            }
        }
        present.iter().all(|&u| !pred(&units.present_bfs(&mask.with_off(&[u]))))
    }

    #[test]
    fn hdd_on_a_flat_tree_is_ddmin() {
        let tree = flat(50);
        let need: HashSet<NodeId> = [3u32, 17, 18, 40].map(|i| NodeId(i + 1)).into();
        for ddmin in [Ddmin::Classic, Ddmin::Adaptive] {
            let (present, _) = reduce(&tree, ddmin, false, |p| need.iter().all(|n| p.contains(n)));
            let present: HashSet<NodeId> = present.into_iter().collect();
            assert_eq!(present, need);
        }
    }

    #[test]
    fn hdd_plus_results_are_interesting_and_one_tree_minimal() {
        // interesting iff some chosen nodes are all present (which needs their
        // ancestors), plus a non-monotone twist on the number of present units
        let mut rng = Rng::new(11);
        for round in 0..60 {
            let tree = random_tree(&mut rng, 60);
            let units = Units::new(&tree);
            let all = units.present_bfs(&Mask::new(tree.len()));
            let need: Vec<NodeId> = all.iter().copied().filter(|_| rng.chance(0.15)).collect();
            let twist = round % 3 == 0;
            let mut pred =
                |p: &[NodeId]| need.iter().all(|n| p.contains(n)) && (!twist || p.len() % 5 != 2);
            if !pred(&all) {
                continue;
            }
            for ddmin in [Ddmin::Classic, Ddmin::Adaptive] {
                let (present, _) = reduce(&tree, ddmin, true, &mut pred);
                assert!(pred(&present), "round {round}: result not interesting");
                assert!(
                    one_tree_minimal(&tree, &present, &mut pred),
                    "round {round} {ddmin:?}: not 1-tree-minimal"
                );
            }
        }
    }

    /// An oracle that, like `-j N`, keeps `ahead` candidates pulled before
    /// it settles any, tests them out of order, and changes its assumption
    /// about one now and then (as a late guess about a long test does); what
    /// it settles are the real outcomes, in order.
    struct Speculating<'u, F> {
        inner: FnOracle<'u, F>,
        ahead: usize,
        rng: Rng,
    }

    impl<F: FnMut(&[NodeId]) -> bool> Oracle for Speculating<'_, F> {
        fn evaluate(&mut self, candidates: &mut dyn Candidates) -> Verdict {
            // pulled candidates and the outcome assumed for each
            let mut window: std::collections::VecDeque<(Candidate, bool)> = Default::default();
            loop {
                while window.len() < self.ahead {
                    match candidates.next() {
                        Some(c) => {
                            let expect = c.expect;
                            window.push_back((c, expect));
                        }
                        None => break,
                    }
                }
                if window.is_empty() {
                    return Verdict::Finished;
                }
                let k = self.rng.below(window.len());
                let changed = if self.rng.chance(0.3) {
                    // a guess changed in flight
                    Some(!window[k].1)
                } else {
                    // a later candidate came back first
                    let interesting = self.inner.test(&window[k].0.mask);
                    (interesting != window[k].1).then_some(interesting)
                };
                if let Some(interesting) = changed {
                    window.truncate(k + 1);
                    window[k].1 = interesting;
                    candidates.assume(window[k].0.index, interesting);
                    continue;
                }
                if k == 0 {
                    let (c, assumed) = window.pop_front().expect("not empty");
                    let interesting = self.inner.test(&c.mask);
                    if interesting != assumed {
                        window.clear();
                    }
                    candidates.settle(c.index, interesting);
                }
            }
        }
    }

    /// The predicate of the speculation tests: `need` kept, and not
    /// monotone (a count of 3 modulo 7 fails).
    fn keeps(need: &[NodeId], p: &[NodeId]) -> bool {
        need.iter().all(|n| p.contains(n)) && p.len() % 7 != 3
    }

    /// A random fifth of `tree`'s units, to be kept; `None` when the whole
    /// tree fails [`keeps`] with it.
    fn random_need(rng: &mut Rng, units: &Units, tree: &Tree) -> Option<Vec<NodeId>> {
        let all = units.present_bfs(&Mask::new(tree.len()));
        let need: Vec<NodeId> = all.iter().copied().filter(|_| rng.chance(0.2)).collect();
        keeps(&need, &all).then_some(need)
    }

    #[test]
    fn speculation_never_changes_the_result() {
        let mut rng = Rng::new(21);
        for round in 0..40 {
            let tree = random_tree(&mut rng, 80);
            let units = Units::new(&tree);
            let Some(need) = random_need(&mut rng, &units, &tree) else { continue };
            let pred = |p: &[NodeId]| keeps(&need, p);
            let (sequential, _) = reduce(&tree, Ddmin::Adaptive, true, pred);
            for ahead in [2, 3, 8] {
                let mut mask = Mask::new(tree.len());
                let mut oracle =
                    Speculating { inner: FnOracle::new(&units, pred), ahead, rng: Rng::new(round) };
                run(Hdd::new(Ddmin::Adaptive, Order::Forward), &units, &mut mask, &mut oracle)
                    .expect("finished");
                while run(OneMinimal::new(Order::Forward), &units, &mut mask, &mut oracle)
                    .is_ok_and(|n| n > 0)
                {}
                assert_eq!(units.present_bfs(&mask), sequential, "round {round}, {ahead} ahead");
            }
        }
    }

    /// The batched HDD+ with hoisting (each level's ddmin and hoists in
    /// rounds, then the hoisting round and the 1-minimal phase in rounds):
    /// the same mask, hoists included, whatever the speculation.
    #[test]
    fn speculation_never_changes_the_result_of_batches_with_hoists() {
        let mut rng = Rng::new(23);
        for round in 0..40 {
            let tree = random_hoist_tree(&mut rng, 80);
            let units = Units::new(&tree);
            let Some(need) = random_need(&mut rng, &units, &tree) else { continue };
            let pred = |p: &[NodeId]| keeps(&need, p);
            let reduce = |oracle: &mut dyn Oracle| {
                let mut mask = Mask::new(tree.len());
                let hdd = Hdd::single_pass(Ddmin::Adaptive, Order::Forward).hoisting().batched(4);
                run(hdd, &units, &mut mask, oracle).expect("finished");
                run(HoistBatch::default(), &units, &mut mask, oracle).expect("finished");
                while run(Batch::one_minimal(Order::Forward), &units, &mut mask, oracle)
                    .is_ok_and(|n| n > 0)
                {}
                mask
            };
            let sequential = reduce(&mut FnOracle::new(&units, pred));
            assert!(pred(&units.present_bfs(&sequential)), "round {round}: not interesting");
            for ahead in [2, 3, 8] {
                let mut oracle =
                    Speculating { inner: FnOracle::new(&units, pred), ahead, rng: Rng::new(round) };
                assert_eq!(reduce(&mut oracle), sequential, "round {round}, {ahead} ahead");
            }
        }
    }

    #[test]
    fn hdd_with_hoisting_hoists_each_level_before_the_next() {
        let tree = hoist_tree();
        let units = Units::new(&tree);
        assert_eq!(units.depth(), 3);
        let mut unparser = Unparser::new();
        let mut oracle =
            TextOracle { tree: &tree, unparser: &mut unparser, needle: b'c', calls: 0 };
        let mut hdd = Hdd::single_pass(Ddmin::Adaptive, Order::Forward).hoisting();
        let mut mask = Mask::new(tree.len());
        drive(&mut hdd, &units, &mut mask, &mut oracle).expect("finished");
        let mut text = Vec::new();
        Unparser::new().unparse(&tree, &mask, &mut text);
        assert_eq!(text, b"x c y");
        // level 0: delete a(b(c)) (no), hoist it to the end of its chain of
        // single targets, c (yes); c is a hoist's target: nothing is left
        assert_eq!(oracle.calls, 2);
        assert_eq!(hdd.failed_hoists().count(), 0);
    }

    /// Batched with hoisting, a unit that fails alone is offered its hoist
    /// in the same round, against the same mask, and the merge makes the
    /// deletions and the hoists that passed at once: no round of hoists
    /// after the level's.
    #[test]
    fn batched_hdd_hoists_a_failed_unit_in_the_round_of_its_deletion() {
        // "x a(b(c)) d(e) y": a, b, c and d, e are hoistable calls
        let src = b"x a(b(c)) d(e) y";
        let mut b = TreeBuilder::new(Arc::from(&src[..]));
        b.open(0, flags::NAMED, 0, src.len());
        for (start, end, closes) in [(2, 9, 0), (4, 8, 0), (6, 7, 3), (10, 14, 0), (12, 13, 2)] {
            let id = b.open(1, flags::NAMED, start, end);
            let n = b.node_mut(id);
            (n.member, n.slot, n.action) = (1, 1, Action::Delete);
            (0..closes).for_each(|_| b.close());
        }
        b.close();
        let tree = b.finish(hoisting_info());
        let units = Units::new(&tree);
        assert_eq!(units.level(0).len(), 2);

        /// Interesting while the text has a `c`; records each candidate's
        /// step and text.
        struct Steps<'t>(&'t Tree, Vec<(Step, String)>);
        impl Oracle for Steps<'_> {
            fn evaluate(&mut self, candidates: &mut dyn Candidates) -> Verdict {
                while let Some(c) = candidates.next() {
                    let mut text = Vec::new();
                    Unparser::new().unparse(self.0, &c.mask, &mut text);
                    let text = String::from_utf8(text).expect("utf-8");
                    let interesting = text.contains('c');
                    self.1.push((c.context.step, text));
                    candidates.settle(c.index, interesting);
                }
                Verdict::Finished
            }
        }
        let mut oracle = Steps(&tree, Vec::new());
        let mut hdd = Hdd::single_pass(Ddmin::Adaptive, Order::Forward).hoisting().batched(4);
        let mut mask = Mask::new(tree.len());
        drive(&mut hdd, &units, &mut mask, &mut oracle).expect("finished");
        let probe = Step::Probe { single: true };
        let want = [
            (probe, "x d(e) y"),
            (Step::Hoist, "x c d(e) y"),
            (probe, "x a(b(c)) y"),
            (Step::Merge, "x c y"),
        ];
        let seen: Vec<(Step, &str)> = oracle.1.iter().map(|(s, t)| (*s, t.as_str())).collect();
        assert_eq!(seen, want);
        assert_eq!(hdd.failed_hoists().count(), 0);
    }

    #[test]
    fn hdd_removes_whole_subtrees_before_looking_inside() {
        // a tree whose essential node is deep: HDD never tests anything inside
        // a subtree it removed, so calls stay far below the unit count squared
        let mut rng = Rng::new(12);
        for _ in 0..20 {
            let tree = random_tree(&mut rng, 200);
            let units = Units::new(&tree);
            if units.depth() == 0 {
                continue;
            }
            let all = units.present_bfs(&Mask::new(tree.len()));
            let deepest = units.level(units.depth() - 1)[0];
            let (present, calls) = reduce(&tree, Ddmin::Adaptive, false, |p| p.contains(&deepest));
            // only the path to the deepest node stays
            assert_eq!(present.len(), units.depth(), "{present:?}");
            assert!(
                calls <= all.len() + 4 * units.depth(),
                "{calls} calls for {} units",
                all.len()
            );
        }
    }
}
