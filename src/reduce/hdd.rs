//! Hierarchical delta debugging (Misherghi & Su, seed 003) and the
//! 1-tree-minimality phase of HDD+.
//!
//! - [`Hdd`]: breadth first, one level at a time; at each level ddmin (classic
//!   or adaptive) over the units of that level that are still present, then on
//!   to the next level, so whole subtrees go before anyone looks inside them.
//!   With hoisting (HDD+'s default), each level's nodes with one or two
//!   [`Hoist`] targets are offered them after its ddmin, before the levels
//!   below look inside.
//! - HDD* repeats HDD until a pass removes nothing; the session does that,
//!   re-parsing the result between passes (see `session.rs`).
//! - [`OneMinimal`]: HDD+'s second phase. Tries switching off single units in
//!   BFS order, continuing after a success rather than restarting, and repeats
//!   while a pass removed anything. Its result is 1-tree-minimal: no single
//!   present unit can be switched off.

use std::collections::HashSet;
use std::sync::Arc;

use super::ddmin::{Ddmin, LevelSearch};
use super::{Proposal, Search, Target, Units};
use crate::mask::Mask;
use crate::tree::NodeId;

/// Which algorithm the session runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// One HDD pass.
    Hdd,
    /// HDD until a pass removes nothing.
    HddStar,
    /// HDD, then the 1-tree-minimality phase.
    HddPlus,
}

/// The order in which the units of a level are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Order {
    /// Source order.
    #[default]
    Forward,
    /// Last unit first: later code tends to depend on earlier code, so
    /// removing users before what they use can reach a fixed point in fewer
    /// passes (seed 002).
    Backward,
}

impl Order {
    /// The present units of `level`, in this order.
    fn units(self, units: &Units, level: usize, mask: &Mask) -> Vec<NodeId> {
        let mut items = units.present_at(level, mask);
        if self == Order::Backward {
            items.reverse();
        }
        items
    }
}

/// One HDD pass over all levels.
#[derive(Clone, Debug)]
pub struct Hdd {
    ddmin: Ddmin,
    order: Order,
    fixpoint: bool,
    /// Whether each level's nodes are offered their hoists after its ddmin.
    hoisting: bool,
    level: usize,
    current: Option<Step>,
    /// The hoists tried that were not interesting.
    failed: Vec<(NodeId, Target)>,
}

/// What HDD is doing at its level.
#[derive(Clone, Debug)]
enum Step {
    Ddmin(LevelSearch),
    Hoist(Hoist),
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
    /// targets (`EARLY_TARGETS`) after its ddmin (see [`Hoist`]) and before
    /// the levels below look inside them: what a hoist drops costs no test
    /// there.
    pub fn hoisting(self) -> Hdd {
        Hdd { hoisting: true, ..self }
    }

    /// The hoists tried that were not interesting, after a run (the last
    /// level's are still with its hoisting step: the run ends before the
    /// search moves past it).
    pub fn failed_hoists(&self) -> impl Iterator<Item = &(NodeId, Target)> {
        let current = match &self.current {
            Some(Step::Hoist(hoist)) => hoist.failed(),
            _ => &[],
        };
        self.failed.iter().chain(current)
    }
}

impl Search for Hdd {
    fn propose(&mut self, units: &Units, mask: &Mask) -> Option<Proposal> {
        loop {
            match &mut self.current {
                Some(Step::Ddmin(search)) => match search.propose() {
                    Some(off) => return Some(Proposal::Off(off)),
                    None if self.hoisting => {
                        self.current = Some(Step::Hoist(Hoist::at_level(self.level)));
                    }
                    None => {
                        self.current = None;
                        self.level += 1;
                    }
                },
                Some(Step::Hoist(hoist)) => match hoist.propose(units, mask) {
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
                    let mut items = self.order.units(units, self.level, mask);
                    // a hoisted node's target stands in the node's place,
                    // where switching it off may mean something else: the
                    // 1-minimal phase tries it on a fresh parse
                    let hoists = mask.hoists();
                    if !hoists.is_empty() {
                        items.retain(|&u| !hoists.iter().any(|h| h.first == u || h.last == u));
                    }
                    let search = LevelSearch::with_fixpoint(self.ddmin, items, self.fixpoint);
                    self.current = Some(Step::Ddmin(search));
                }
            }
        }
    }

    fn expect(&self) -> bool {
        match &self.current {
            Some(Step::Ddmin(search)) => search.expect(),
            Some(Step::Hoist(hoist)) => hoist.expect(),
            None => false,
        }
    }

    fn step(&self) -> u8 {
        match &self.current {
            Some(Step::Ddmin(search)) => search.step(),
            Some(Step::Hoist(hoist)) => hoist.step(),
            None => 0,
        }
    }

    fn feedback(&mut self, interesting: bool) {
        match &mut self.current {
            Some(Step::Ddmin(search)) => search.feedback(interesting),
            Some(Step::Hoist(hoist)) => hoist.feedback(interesting),
            None => {}
        }
    }

    fn level(&self) -> Option<usize> {
        Some(self.level)
    }
}

/// The 1-tree-minimality phase: one pass of single units in BFS order,
/// continuing after each success. The session repeats it (on a fresh parse)
/// until a pass removes nothing; the result is then 1-tree-minimal.
#[derive(Clone, Debug, Default)]
pub struct OneMinimal {
    order: Order,
    items: Option<Vec<NodeId>>,
    i: usize,
    /// Whether the last proposal was interesting: successes come in runs
    /// (the units of something that became unused), so it predicts the next.
    last: bool,
}

impl OneMinimal {
    pub fn new(order: Order) -> OneMinimal {
        OneMinimal { order, ..OneMinimal::default() }
    }
}

impl Search for OneMinimal {
    fn propose(&mut self, units: &Units, mask: &Mask) -> Option<Proposal> {
        let order = self.order;
        let items = self.items.get_or_insert_with(|| {
            (0..units.depth()).flat_map(|l| order.units(units, l, mask)).collect()
        });
        while self.i < items.len() {
            let unit = items[self.i];
            if units.is_present(unit, mask) {
                return Some(Proposal::Off(vec![unit]));
            }
            self.i += 1;
        }
        None
    }

    fn expect(&self) -> bool {
        self.last
    }

    /// 16 or 17: after a failed or a successful removal.
    fn step(&self) -> u8 {
        16 + u8::from(self.last)
    }

    fn feedback(&mut self, interesting: bool) {
        self.last = interesting;
        self.i += 1;
    }
}

/// The most targets a node may have to be offered its hoists at its own HDD
/// level. The common shapes have one or two (a binary expression, a call
/// with one argument, a loop, an `if` with an `else`): at most two tests that
/// can spare the levels below a whole subtree. A node with many (an XML
/// element with hundreds of children) is cheaper to leave to ddmin on its
/// children first; the hoisting round after HDD then hoists what is left.
const EARLY_TARGETS: usize = 2;

/// Hoisting: each hoistable node, outermost first, replaced in turn by each
/// of its targets until one is interesting.
#[derive(Clone, Debug, Default)]
pub struct Hoist {
    node: usize,
    target: usize,
    /// Hoists not to try.
    skip: Arc<HashSet<(NodeId, Target)>>,
    /// Only the nodes of this HDD level (see [`Units::level_of`]).
    level: Option<usize>,
    /// The hoist proposed last.
    last: Option<(NodeId, Target)>,
    /// The hoists tried that were not interesting.
    failed: Vec<(NodeId, Target)>,
}

impl Hoist {
    pub fn new() -> Hoist {
        Hoist::default()
    }

    /// Hoisting that does not try the hoists in `skip` (the caller knows
    /// they fail).
    pub fn skipping(skip: HashSet<(NodeId, Target)>) -> Hoist {
        Hoist { skip: Arc::new(skip), ..Hoist::default() }
    }

    /// Hoisting of the nodes of one HDD level only.
    pub fn at_level(level: usize) -> Hoist {
        Hoist { level: Some(level), ..Hoist::default() }
    }

    /// The hoists tried that were not interesting, after a run (see
    /// [`drive`](crate::reduce::drive)).
    pub fn failed(&self) -> &[(NodeId, Target)] {
        &self.failed
    }
}

impl Search for Hoist {
    fn step(&self) -> u8 {
        18
    }

    fn propose(&mut self, units: &Units, mask: &Mask) -> Option<Proposal> {
        loop {
            let (node, targets) = units.hoistable(self.node)?;
            let done = self.target >= targets.len()
                || self.level.is_some_and(|l| {
                    units.level_of(node) != Some(l) || targets.len() > EARLY_TARGETS
                })
                || !units.is_present(node, mask)
                || mask.hoists().iter().any(|h| h.node == node);
            if done {
                self.node += 1;
                self.target = 0;
                continue;
            }
            let to = targets[self.target];
            let present = units.is_present(to.first, mask) && units.is_present(to.last, mask);
            if present && !self.skip.contains(&(node, to)) {
                self.last = Some((node, to));
                return Some(Proposal::Hoist { node, to });
            }
            self.target += 1;
        }
    }

    fn feedback(&mut self, interesting: bool) {
        if interesting {
            self.node += 1;
            self.target = 0;
        } else {
            self.failed.extend(self.last);
            self.target += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::testing::{flat, random_tree, FnOracle, Rng};
    use crate::reduce::{run, Candidate, Candidates, Oracle, Units, Verdict};
    use crate::tree::Tree;
    use std::collections::HashSet;

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
        run(Hdd::new(ddmin, Order::Forward), &units, &mut mask, &mut oracle);
        while plus
            && run(OneMinimal::new(Order::Forward), &units, &mut mask, &mut oracle).successes > 0
        {
        }
        let calls = oracle.calls;
        (units.present_bfs(&mask), calls)
    }

    /// "x a(b(c)) y": `a` and `b` are hoistable calls of class 1 whose
    /// targets are the nearest class-1 descendants.
    fn hoist_tree() -> Tree {
        use crate::tree::{flags, SlotInfo, TreeBuilder, TreeInfo};
        use std::sync::Arc;
        let src = b"x a(b(c)) y";
        let mut b = TreeBuilder::new(Arc::from(&src[..]));
        b.open(0, flags::NAMED, 0, src.len());
        for (start, end) in [(2, 9), (4, 8), (6, 7)] {
            let id = b.open(1, flags::NAMED, start, end);
            let n = b.node_mut(id);
            n.member = 1;
            n.slot = 1;
            n.action = crate::tree::Action::Delete;
        }
        b.close();
        b.close();
        b.close();
        let info = TreeInfo {
            slots: vec![SlotInfo::default(), SlotInfo { repeated: false, accepts: Box::new([1]) }],
            ..TreeInfo::default()
        };
        b.finish(Arc::new(info))
    }

    /// Interesting iff the text still has `needle` and is shorter than "x a(b(c)) y".
    struct TextOracle<'t, 'u> {
        tree: &'t Tree,
        unparser: &'u mut crate::unparse::Unparser,
        needle: u8,
        calls: usize,
    }

    impl Oracle for TextOracle<'_, '_> {
        fn evaluate(&mut self, candidates: &mut dyn Candidates) -> Verdict {
            while let Some(c) = candidates.next() {
                self.calls += 1;
                let mut text = Vec::new();
                self.unparser.unparse(self.tree, &c.mask, &mut text);
                let interesting = text.contains(&self.needle) && text.len() < 11;
                candidates.settle(c.index, interesting);
            }
            Verdict::Finished
        }
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

    #[test]
    fn speculation_never_changes_the_result() {
        let mut rng = Rng::new(21);
        for round in 0..40 {
            let tree = random_tree(&mut rng, 80);
            let units = Units::new(&tree);
            let all = units.present_bfs(&Mask::new(tree.len()));
            let need: Vec<NodeId> = all.iter().copied().filter(|_| rng.chance(0.2)).collect();
            let pred = |p: &[NodeId]| need.iter().all(|n| p.contains(n)) && p.len() % 7 != 3;
            if !pred(&all) {
                continue;
            }
            let (sequential, _) = reduce(&tree, Ddmin::Adaptive, true, pred);
            for ahead in [2, 3, 8] {
                let mut mask = Mask::new(tree.len());
                let mut oracle =
                    Speculating { inner: FnOracle::new(&units, pred), ahead, rng: Rng::new(round) };
                run(Hdd::new(Ddmin::Adaptive, Order::Forward), &units, &mut mask, &mut oracle);
                while run(OneMinimal::new(Order::Forward), &units, &mut mask, &mut oracle).successes
                    > 0
                {}
                assert_eq!(units.present_bfs(&mask), sequential, "round {round}, {ahead} ahead");
            }
        }
    }

    #[test]
    fn hoisting_replaces_a_node_by_a_descendant_of_its_class() {
        let tree = hoist_tree();
        let units = Units::new(&tree);
        // interesting iff the text has the innermost leaf "c": the chain
        // a(b(c)) hoists down to c
        let mut mask = Mask::new(tree.len());
        let mut unparser = crate::unparse::Unparser::new();
        let mut oracle =
            TextOracle { tree: &tree, unparser: &mut unparser, needle: b'c', calls: 0 };
        let outcome = run(Hoist::new(), &units, &mut mask, &mut oracle);
        // a by b, then b (now in a's place) by c
        assert_eq!(outcome.successes, 2);
        assert_eq!(oracle.calls, 2);
        let mut text = Vec::new();
        crate::unparse::Unparser::new().unparse(&tree, &mask, &mut text);
        assert_eq!(text, b"x c y");
    }

    #[test]
    fn hoisting_reports_what_failed_and_skips_what_it_is_told() {
        let tree = hoist_tree();
        let units = Units::new(&tree);
        let mut unparser = crate::unparse::Unparser::new();
        // nothing is interesting: every hoist is tried once and fails
        let mut oracle =
            TextOracle { tree: &tree, unparser: &mut unparser, needle: b'z', calls: 0 };
        let mut hoist = Hoist::new();
        let mut mask = Mask::new(tree.len());
        let outcome = crate::reduce::drive(&mut hoist, &units, &mut mask, &mut oracle);
        assert_eq!(outcome.successes, 0);
        let failed: HashSet<_> = hoist.failed().iter().copied().collect();
        assert_eq!(failed.len(), oracle.calls);
        assert!(oracle.calls >= 2, "a(b(c)) has at least two hoists");
        // told to skip them, hoisting tests nothing
        oracle.calls = 0;
        run(Hoist::skipping(failed), &units, &mut mask, &mut oracle);
        assert_eq!(oracle.calls, 0);
    }

    #[test]
    fn hdd_with_hoisting_hoists_each_level_before_the_next() {
        let tree = hoist_tree();
        let units = Units::new(&tree);
        assert_eq!(units.depth(), 3);
        let mut unparser = crate::unparse::Unparser::new();
        let mut oracle =
            TextOracle { tree: &tree, unparser: &mut unparser, needle: b'c', calls: 0 };
        let mut hdd = Hdd::single_pass(Ddmin::Adaptive, Order::Forward).hoisting();
        let mut mask = Mask::new(tree.len());
        crate::reduce::drive(&mut hdd, &units, &mut mask, &mut oracle);
        let mut text = Vec::new();
        crate::unparse::Unparser::new().unparse(&tree, &mask, &mut text);
        assert_eq!(text, b"x c y");
        // level 0: delete a(b(c)) (no), hoist it to b(c) (yes); level 1: b(c)
        // stands in a's place, so it is not deleted but hoisted to c (yes);
        // level 2: c is a hoist's target too: nothing is left to try
        assert_eq!(oracle.calls, 3);
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
