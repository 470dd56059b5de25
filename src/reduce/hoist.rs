//! Hoisting: replacing a node by a descendant that fits its place in the
//! grammar (a loop by its body, a call by one of its arguments, a block in
//! a block by its statements).
//!
//! - [`Hoisting`]: the search. Each hoistable node, outermost first, is
//!   replaced in turn by each of its targets (smallest first, see
//!   [`Units::hoistable`]) until one is interesting.
//! - [`HoistBatch`]: the same in rounds, for many workers (`--batch`).
//! - [`HoistMemory`]: the hoists that failed, remembered across parses of a
//!   changing text by what they delete, so a plan does not test them again
//!   while that text reads the same.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::batch::Stage;
use super::{Proposal, Search, Step, Units};
use crate::syntax::{Hoist, Mask, NodeId, Target, Tree};

/// The most targets a node may have to be offered its hoists at its own HDD
/// level. The common shapes have one or two (a binary expression, a call
/// with one argument, a loop, an `if` with an `else`): at most two tests that
/// can spare the levels below a whole subtree. A node with many (an XML
/// element with hundreds of children) is cheaper to leave to ddmin on its
/// children first; the hoisting round after HDD then hoists what is left.
pub(super) const EARLY_TARGETS: usize = 2;

/// Hoisting: each hoistable node, outermost first, replaced in turn by each
/// of its targets until one is interesting.
#[derive(Clone, Debug, Default)]
pub(crate) struct Hoisting {
    node: usize,
    target: usize,
    /// Hoists not to try.
    skip: Arc<HashSet<Hoist>>,
    /// Only the nodes of this HDD level (see [`Units::level_of`]).
    level: Option<usize>,
    /// The hoist proposed last.
    last: Option<Hoist>,
    /// The hoists tried that were not interesting.
    failed: Vec<Hoist>,
}

impl Hoisting {
    /// Hoisting that does not try the hoists in `skip` (the caller knows
    /// they fail).
    pub(crate) fn skipping(skip: HashSet<Hoist>) -> Hoisting {
        Hoisting { skip: Arc::new(skip), ..Hoisting::default() }
    }

    /// Hoisting of the nodes of one HDD level only, and only of those with
    /// at most two targets (`EARLY_TARGETS`).
    pub(crate) fn at_level(level: usize) -> Hoisting {
        Hoisting { level: Some(level), ..Hoisting::default() }
    }

    /// The hoists tried that were not interesting, after a run (see
    /// [`drive`](crate::reduce::drive)).
    pub(crate) fn failed(&self) -> &[Hoist] {
        &self.failed
    }
}

impl Search for Hoisting {
    fn step(&self) -> Step {
        Step::Hoist
    }

    fn propose(&mut self, units: &Units, mask: &Mask) -> Option<Proposal> {
        loop {
            let (node, targets) = offered(units, self.node, self.level)?;
            let done = self.target >= targets.len()
                || self.level.is_some_and(|l| {
                    units.level_of(node) != Some(l) || targets.len() > EARLY_TARGETS
                })
                || !open(units, mask, node);
            if done {
                self.node += 1;
                self.target = 0;
                continue;
            }
            let to = targets[self.target];
            let present = units.is_present(to.first, mask) && units.is_present(to.last, mask);
            let hoist = Hoist { node, to };
            if present && !self.skip.contains(&hoist) {
                self.last = Some(hoist);
                return Some(Proposal::Hoist(hoist));
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

/// Hoisting in rounds, for many workers (`--batch`, like [`Batch`] for
/// ddmin's blocks). A round offers each open node (present, not hoisted)
/// its next target, every one probed against the same mask
/// ([`Proposal::ProbeHoists`]): no candidate of a round depends on another's
/// outcome, so with `-j N` a whole round is in flight at once. The hoists
/// that passed alone are then made together, outermost node first, as one
/// candidate (the merge), leaving out a hoist whose node or target an
/// earlier one dropped. If the merge is not interesting, they are made one
/// at a time in that order (the fold), each kept if still interesting. A
/// node whose hoist failed alone is offered its next target right after,
/// in the same round and against the same mask (so with `-j N` a node's
/// targets are in flight together, as far as the guesses go; in the next
/// round, after the merge, each target cost a test latency more); one
/// whose hoist failed in the fold, in the next round. A node is done once
/// hoisted or out of targets. A round of one hoist is that hoist itself,
/// committed when interesting, as [`Hoisting`] would: nothing to merge, and
/// what follows may be guessed on it.
///
/// The outcomes, and so the result, depend on neither timing nor `-j`. They
/// may differ from [`Hoisting`]'s, which makes each hoist before trying
/// the next node's (a hoist of an inner node may take away a target the
/// outer node's later round would have used).
///
/// [`Batch`]: super::Batch
#[derive(Clone, Debug)]
pub(crate) struct HoistBatch {
    /// Hoists not to try.
    skip: Arc<HashSet<Hoist>>,
    /// The next target to offer each hoistable node (by its index in
    /// [`Units::hoistable`]); [`DONE`] once it needs none.
    next_target: Vec<usize>,
    /// The round is to be built at the next proposal (from the mask then).
    fresh: bool,
    /// The round was built and none of its hoists proposed yet.
    opening: bool,
    /// The last proposal opened its round (see [`Search::opens_round`]).
    opens: bool,
    /// This round's hoists, outermost node first, each with its node's index.
    round: Vec<(usize, Hoist)>,
    next: usize,
    /// The hoists of the round (by position in `round`) that passed alone.
    passed: Vec<usize>,
    /// A node whose hoist failed in this round, to be offered its next
    /// target in the same round (right after, against the same mask).
    again: Option<usize>,
    stage: Stage,
    /// The hoists tried that were not interesting.
    failed: Vec<Hoist>,
}

/// A node of a [`HoistBatch`] that needs no more targets.
const DONE: usize = usize::MAX;

impl Default for HoistBatch {
    fn default() -> HoistBatch {
        HoistBatch {
            skip: Arc::default(),
            next_target: Vec::new(),
            fresh: true,
            opening: false,
            opens: false,
            round: Vec::new(),
            next: 0,
            passed: Vec::new(),
            again: None,
            stage: Stage::Probing,
            failed: Vec::new(),
        }
    }
}

impl HoistBatch {
    /// Every hoistable node, but not the hoists in `skip` (the caller knows
    /// they fail).
    pub(crate) fn skipping(skip: HashSet<Hoist>) -> HoistBatch {
        HoistBatch { skip: Arc::new(skip), ..HoistBatch::default() }
    }

    /// The hoists tried that were not interesting, after a run.
    pub(crate) fn failed(&self) -> &[Hoist] {
        &self.failed
    }

    /// Builds the next round from `mask`: each open node with its next
    /// target still there. A node gone, hoisted or out of targets is done
    /// (what a round commits only ever drops nodes).
    fn build_round(&mut self, units: &Units, mask: &Mask) {
        if self.next_target.is_empty() {
            self.next_target = vec![0; units.hoistable_count()];
        }
        self.round.clear();
        for i in 0..units.hoistable_count() {
            let (node, _) = units.hoistable(i).expect("a hoistable node");
            if self.next_target[i] == DONE {
                continue;
            }
            let hoist = open(units, mask, node).then(|| self.next_hoist(units, mask, i));
            if let Some(hoist) = hoist.flatten() {
                self.round.push((i, hoist));
            } else {
                self.next_target[i] = DONE;
            }
        }
        self.fresh = false;
        self.opening = true;
        self.next = 0;
        self.passed.clear();
        self.stage = Stage::Probing;
    }

    /// Node `i`'s hoist to its next target from `next_target[i]` on that
    /// can be made under `mask` and is not to be skipped, if any (and
    /// `next_target[i]` set to it).
    fn next_hoist(&mut self, units: &Units, mask: &Mask, i: usize) -> Option<Hoist> {
        let (node, targets) = units.hoistable(i).expect("a hoistable node");
        let skip = &self.skip;
        let (t, hoist) =
            next_hoist(units, mask, node, targets, self.next_target[i], |h| !skip.contains(h))?;
        self.next_target[i] = t;
        Some(hoist)
    }

    /// The hoists that passed, made one after the other from `mask`,
    /// leaving out those an earlier one dropped.
    fn merged(&self, units: &Units, mask: &Mask) -> Vec<Hoist> {
        made_in_turn(units, mask.clone(), self.passed.iter().map(|&k| self.round[k].1))
    }

    /// The nodes of the round's hoists `ks` need no more targets (committed).
    fn commit(&mut self, ks: &[usize]) {
        for &k in ks {
            self.next_target[self.round[k].0] = DONE;
        }
    }

    /// The round's hoists `ks` failed: their nodes go on to their next target.
    fn fail(&mut self, ks: &[usize]) {
        for &k in ks {
            let (i, hoist) = self.round[k];
            self.failed.push(hoist);
            self.next_target[i] += 1;
        }
    }
}

/// Whether `hoist` can be made under `mask`: its node and both ends of its
/// target are still there.
pub(super) fn applies(units: &Units, mask: &Mask, hoist: Hoist) -> bool {
    units.is_present(hoist.node, mask)
        && units.is_present(hoist.to.first, mask)
        && units.is_present(hoist.to.last, mask)
}

/// Whether `node` may be offered a hoist under `mask`: it is there and
/// not hoisted already.
pub(super) fn open(units: &Units, mask: &Mask, node: NodeId) -> bool {
    units.is_present(node, mask) && !mask.hoists().iter().any(|h| h.node == node)
}

/// The first hoist of `node` to one of `targets`, from index `from` on,
/// that can be made under `mask` and that `wanted` takes, with its
/// target's index.
pub(super) fn next_hoist(
    units: &Units,
    mask: &Mask,
    node: NodeId,
    targets: &[Target],
    from: usize,
    wanted: impl Fn(&Hoist) -> bool,
) -> Option<(usize, Hoist)> {
    let mut hoists = targets.iter().enumerate().skip(from).map(|(t, &to)| (t, Hoist { node, to }));
    hoists.find(|(_, h)| applies(units, mask, *h) && wanted(h))
}

/// `hoists` made one after the other from `mask`, leaving out those an
/// earlier one dropped (their node or target), or that `mask` does.
pub(super) fn made_in_turn(
    units: &Units,
    mut mask: Mask,
    hoists: impl IntoIterator<Item = Hoist>,
) -> Vec<Hoist> {
    let mut made = Vec::new();
    for hoist in hoists {
        if applies(units, &mask, hoist) {
            mask = mask.with_hoist(hoist);
            made.push(hoist);
        }
    }
    made
}

impl Search for HoistBatch {
    fn propose(&mut self, units: &Units, mask: &Mask) -> Option<Proposal> {
        self.opens = false;
        loop {
            if self.fresh {
                self.build_round(units, mask);
                if self.round.is_empty() {
                    return None;
                }
            }
            match self.stage {
                Stage::Probing if self.round.len() == 1 => {
                    self.opens = std::mem::take(&mut self.opening);
                    return Some(Proposal::Hoist(self.round[0].1));
                }
                Stage::Probing if self.again.is_some() => {
                    // a failed hoist's node, offered its next target in
                    // this round, against the same mask: a round's probes
                    // are in flight at once, the next round's only after
                    // its merge
                    let i = self.again.take().expect("checked");
                    match self.next_hoist(units, mask, i) {
                        Some(hoist) => self.round.insert(self.next, (i, hoist)),
                        None => self.next_target[i] = DONE,
                    }
                }
                Stage::Probing if self.next < self.round.len() => {
                    self.opens = std::mem::take(&mut self.opening);
                    return Some(Proposal::ProbeHoists(vec![self.round[self.next].1]));
                }
                Stage::Probing if self.passed.is_empty() => self.fresh = true,
                Stage::Probing => self.stage = Stage::Merging,
                Stage::Merging => {
                    return Some(Proposal::Hoists(self.merged(units, mask)));
                }
                Stage::Fold { k } if k < self.passed.len() => {
                    let hoist = self.round[self.passed[k]].1;
                    if applies(units, mask, hoist) {
                        return Some(Proposal::Hoist(hoist));
                    }
                    // an earlier hoist dropped its node or target
                    self.stage = Stage::Fold { k: k + 1 };
                }
                Stage::Fold { .. } => self.fresh = true,
            }
        }
    }

    fn opens_round(&self) -> bool {
        self.opens
    }

    fn expect(&self) -> bool {
        matches!(self.stage, Stage::Merging | Stage::Fold { .. })
    }

    fn step(&self) -> Step {
        match self.stage {
            Stage::Probing => Step::Hoist,
            Stage::Fold { .. } => Step::Fold,
            Stage::Merging => Step::Merge,
        }
    }

    fn feedback(&mut self, interesting: bool) {
        match self.stage {
            Stage::Probing if self.round.len() == 1 => {
                if interesting {
                    self.commit(&[0]);
                } else {
                    self.fail(&[0]);
                }
                self.fresh = true;
            }
            Stage::Probing => {
                if interesting {
                    self.passed.push(self.next);
                } else {
                    self.fail(&[self.next]);
                    self.again = Some(self.round[self.next].0);
                }
                self.next += 1;
            }
            Stage::Merging if interesting || self.passed.len() == 1 => {
                let passed = std::mem::take(&mut self.passed);
                if interesting {
                    self.commit(&passed);
                } else {
                    self.fail(&passed);
                }
                self.fresh = true;
            }
            Stage::Merging => self.stage = Stage::Fold { k: 0 },
            Stage::Fold { k } => {
                let hoist = self.passed[k];
                if interesting {
                    self.commit(&[hoist]);
                } else {
                    self.fail(&[hoist]);
                }
                self.stage = Stage::Fold { k: k + 1 };
            }
        }
    }
}

/// The hoists that failed so far, by what they delete (see [`hoist_key`]):
/// a hoist that failed is not tried again while that text reads the same,
/// with the names the renaming pass changed read as they were before it.
#[derive(Debug, Default)]
pub(crate) struct HoistMemory {
    failed: HashSet<u128>,
    /// The names the renaming pass gave, each with the name it replaced.
    renamed: HashMap<Box<[u8]>, Box<[u8]>>,
}

impl HoistMemory {
    /// Remembers hoists of `tree` that were not interesting.
    pub(crate) fn remember<'h>(
        &mut self,
        tree: &Tree,
        failed: impl IntoIterator<Item = &'h Hoist>,
    ) {
        self.failed.extend(failed.into_iter().map(|&h| hoist_key(tree, h, &self.renamed)));
    }

    /// The hoists of `tree` (with `units`) known to fail.
    pub(crate) fn known_failures(&self, tree: &Tree, units: &Units) -> HashSet<Hoist> {
        // nothing failed yet (`--algorithm hdd`, or HDD+ without early
        // hoists): nothing to skip, no need to hash every hoist
        if self.failed.is_empty() {
            return HashSet::new();
        }
        (0..units.hoistable_count())
            .filter_map(|i| units.hoistable(i))
            .flat_map(|(node, targets)| targets.iter().map(move |&to| Hoist { node, to }))
            .filter(|&h| self.failed.contains(&hoist_key(tree, h, &self.renamed)))
            .collect()
    }

    /// Learns the names the renaming pass changed from the text before it
    /// and after it, so that the hoists that failed before it are still
    /// known after it (it changes nothing else: the two parses have the
    /// same nodes, whose name tokens differ where a name was renamed).
    pub(crate) fn renamed(&mut self, before: &Tree, after: &Tree) {
        if before.len() != after.len() {
            return;
        }
        for (i, (b, a)) in before.nodes().iter().zip(after.nodes()).enumerate() {
            let id = NodeId(i as u32);
            let (old, new) = (before.text(id), after.text(id));
            if b.kind != a.kind || a.subtree_end != i as u32 + 1 || old == new {
                continue;
            }
            let first = self.renamed.get(old).cloned().unwrap_or_else(|| old.into());
            self.renamed.insert(new.into(), first);
        }
    }
}

/// The `i`-th hoistable node and the targets a search offers it: at an HDD
/// `level`, those that move a part of it (see [`Units::hoistable_early`]);
/// after the HDD pass, all.
fn offered(units: &Units, i: usize, level: Option<usize>) -> Option<(NodeId, &[Target])> {
    match level {
        Some(_) => units.hoistable_early(i),
        None => units.hoistable(i),
    }
}

/// What tells a hoist apart across parses of changing text: the kinds of the
/// node and of its target, and what the hoist deletes (the tokens of the
/// node before and after the target, each name read as it was before the
/// renaming pass, by `renamed`). Changes inside the target do not make a
/// failed hoist worth another test: it would delete the same text; nor
/// does the renaming pass, which only changes names.
fn hoist_key(tree: &Tree, hoist: Hoist, renamed: &HashMap<Box<[u8]>, Box<[u8]>>) -> u128 {
    let n = tree.node(hoist.node);
    let (first, last) = (tree.node(hoist.to.first), tree.node(hoist.to.last));
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(&n.kind.to_le_bytes());
    h.update(&first.kind.to_le_bytes());
    h.update(&last.kind.to_le_bytes());
    let start = hoist.to.head.map_or(n.start, |head| tree.node(head).end);
    h.update(&[u8::from(hoist.to.head.is_some())]);
    // the nodes before the run and after it: the run's own are kept
    let outside = (hoist.node.0 + 1..hoist.to.first.0).chain(last.subtree_end..n.subtree_end);
    for id in outside {
        let t = tree.node(NodeId(id));
        let before = start <= t.start && t.end <= first.start;
        let after = last.end <= t.start && t.end <= n.end;
        if t.subtree_end != id + 1 || t.is_empty() || !(before || after) {
            continue;
        }
        let text = tree.text(NodeId(id));
        let text = renamed.get(text).map_or(text, |old| old);
        h.update(&[u8::from(before)]);
        h.update(&t.kind.to_le_bytes());
        h.update(&(text.len() as u64).to_le_bytes());
        h.update(text);
    }
    h.digest128()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::testing::{
        hoist_tree, hoisting_info, random_hoist_tree, FnOracle, Rng, TextOracle,
    };
    use crate::reduce::{drive, run};
    use crate::syntax::tree::{flags, Action, TreeBuilder};
    use crate::syntax::{NodeId, Unparser};

    #[test]
    fn hoisting_replaces_a_node_by_a_descendant_of_its_class() {
        let tree = hoist_tree();
        let units = Units::new(&tree);
        // interesting iff the text has the innermost leaf "c": the chain
        // a(b(c)) hoists down to c
        let mut mask = Mask::new(tree.len());
        let mut unparser = Unparser::new();
        let mut oracle =
            TextOracle { tree: &tree, unparser: &mut unparser, needle: b'c', calls: 0 };
        let hoisted = run(Hoisting::default(), &units, &mut mask, &mut oracle);
        // a straight to c, the end of its chain of single targets
        assert_eq!(hoisted, Ok(1));
        assert_eq!(oracle.calls, 1);
        let mut text = Vec::new();
        Unparser::new().unparse(&tree, &mask, &mut text);
        assert_eq!(text, b"x c y");
    }

    #[test]
    fn hoisting_reports_what_failed_and_skips_what_it_is_told() {
        let tree = hoist_tree();
        let units = Units::new(&tree);
        let mut unparser = Unparser::new();
        // nothing is interesting: every hoist is tried once and fails
        let mut oracle =
            TextOracle { tree: &tree, unparser: &mut unparser, needle: b'z', calls: 0 };
        let mut hoist = Hoisting::default();
        let mut mask = Mask::new(tree.len());
        let hoisted = drive(&mut hoist, &units, &mut mask, &mut oracle);
        assert_eq!(hoisted, Ok(0));
        let failed: HashSet<_> = hoist.failed().iter().copied().collect();
        assert_eq!(failed.len(), oracle.calls);
        assert!(oracle.calls >= 2, "a(b(c)) has at least two hoists");
        // told to skip them, hoisting tests nothing
        oracle.calls = 0;
        run(Hoisting::skipping(failed), &units, &mut mask, &mut oracle).expect("finished");
        assert_eq!(oracle.calls, 0);
    }

    /// Runs `search` on `tree` against "interesting iff every node of
    /// `need` is present"; the mask and the tests run.
    fn hoist_with<S: Search>(
        tree: &Tree,
        search: S,
        pred: impl FnMut(&[NodeId]) -> bool,
    ) -> (Mask, usize) {
        let units = Units::new(tree);
        let mut mask = Mask::new(tree.len());
        let mut oracle = FnOracle::new(&units, pred);
        run(search, &units, &mut mask, &mut oracle).expect("finished");
        (mask, oracle.calls)
    }

    /// When no hoist changes whether another passes (the test needs some
    /// nodes present, and a hoist passes iff it drops none of them), rounds
    /// keep what one hoist at a time keeps, on random trees where every
    /// node with children may be replaced by any of them.
    #[test]
    fn hoist_batch_hoists_what_hoisting_does_when_hoists_do_not_interact() {
        let mut rng = Rng::new(5);
        let mut hoisted = 0;
        for round in 0..200 {
            let tree = random_hoist_tree(&mut rng, 50);
            let units = Units::new(&tree);
            let all = units.present_bfs(&Mask::new(tree.len()));
            let need: Vec<NodeId> = all.iter().copied().filter(|_| rng.chance(0.1)).collect();
            let pred = |p: &[NodeId]| need.iter().all(|n| p.contains(n));
            let (one, _) = hoist_with(&tree, Hoisting::default(), pred);
            let (batch, _) = hoist_with(&tree, HoistBatch::default(), pred);
            assert_eq!(units.present_bfs(&batch), units.present_bfs(&one), "round {round}");
            hoisted += batch.hoists().len();
        }
        assert!(hoisted >= 100, "only {hoisted} hoists");
    }

    /// "root(h1(x1, yy1), h2(x2, yy2))", every node hoistable, each h by
    /// its x (the smaller) first; ids in preorder: 0 root, 1 h1, 2 x1,
    /// 3 y1, 4 h2, 5 x2, 6 y2.
    fn two_pairs() -> Tree {
        let src = b"((x)(yy))((x)(yy))";
        let mut b = TreeBuilder::new(Arc::from(&src[..]));
        b.open(1, flags::NAMED, 0, src.len());
        for h in [0, 9] {
            for (start, end) in [(h, h + 9), (h + 1, h + 4), (h + 4, h + 8)] {
                let id = b.open(1, flags::NAMED, start, end);
                let n = b.node_mut(id);
                (n.member, n.slot, n.action) = (1, 1, Action::Delete);
                if start != h {
                    b.close();
                }
            }
            b.close();
        }
        b.close();
        b.finish(hoisting_info())
    }

    /// [`two_pairs`]. Interesting while a `y` is left: each h
    /// may go to its x alone but not both. The merge fails; in the fold the
    /// first is kept and the second fails after it, so it is offered its y
    /// in the next round.
    #[test]
    fn interfering_hoists_keep_the_first_and_offer_the_rest_their_next_target() {
        let tree = two_pairs();
        let units = Units::new(&tree);
        let pred = |p: &[NodeId]| p.contains(&NodeId(3)) || p.contains(&NodeId(6));
        let (batch, calls) = hoist_with(&tree, HoistBatch::default(), pred);
        let (one, _) = hoist_with(&tree, Hoisting::default(), pred);
        assert_eq!(units.present_bfs(&batch), units.present_bfs(&one));
        let hoisted: Vec<(u32, u32)> =
            batch.hoists().iter().map(|h| (h.node.0, h.to.first.0)).collect();
        assert_eq!(hoisted, [(1, 2), (4, 6)]);
        // two probes, the merge, h2 to y2; in the fold, h1 to x1 is the
        // first probe again and h2 to x2 after it the merge, both cached
        assert_eq!(calls, 4);
    }

    /// [`two_pairs`], interesting while both `y`s are left: each h to its x
    /// fails, and its node is offered its y right after, in the same round,
    /// before the next node's hoist.
    #[test]
    fn a_failed_hoist_offers_its_node_the_next_target_in_the_same_round() {
        let tree = two_pairs();
        let mut tried = Vec::new();
        let pred = |p: &[NodeId]| {
            // which x each candidate has lost
            tried.push([2, 5].map(|x| !p.contains(&NodeId(x))));
            p.contains(&NodeId(3)) && p.contains(&NodeId(6))
        };
        let (batch, calls) = hoist_with(&tree, HoistBatch::default(), pred);
        let hoisted: Vec<(u32, u32)> =
            batch.hoists().iter().map(|h| (h.node.0, h.to.first.0)).collect();
        assert_eq!(hoisted, [(1, 3), (4, 6)]);
        // h1 to x1, h1 to y1 (x1 gone), h2 to x2, h2 to y2 (x2 gone),
        // then the merge (both gone)
        assert_eq!(calls, 5);
        assert_eq!(
            tried,
            [[false, false], [true, false], [false, false], [false, true], [true, true]]
        );
    }

    /// The key of the first hoist of node `node` (by its text) of `text`
    /// parsed as `lang`.
    fn key(lang: &str, text: &str, node: &str) -> u128 {
        let fe = crate::language::by_name(lang).expect(lang).frontend().expect("front-end");
        let tree = fe.parse(Arc::from(text.as_bytes()));
        let units = Units::new(&tree);
        (0..units.hoistable_count())
            .filter_map(|i| units.hoistable(i))
            .find(|&(id, _)| tree.text(id) == node.as_bytes())
            .map(|(id, targets)| {
                hoist_key(&tree, Hoist { node: id, to: targets[0] }, &HashMap::new())
            })
            .expect(node)
    }

    #[test]
    fn a_hoist_is_known_again_while_what_it_deletes_reads_the_same() {
        let key = |text: &str, node: &str| key("json", text, node);
        // the text around the node changed: the same hoist
        assert_eq!(key("[[1, 2], 3]", "[1, 2]"), key("[7, [1, 2], 3]", "[1, 2]"));
        // the target changed: it would delete the same text, the same hoist
        assert_eq!(key("[[1], 2]", "[1]"), key("[[5], 2]", "[5]"));
        // what it deletes changed: another one
        assert_ne!(key("[[1, 2], 3]", "[1, 2]"), key("[[1, 4], 3]", "[1, 4]"));
    }

    #[test]
    fn a_hoist_is_known_again_after_its_names_were_renamed() {
        let js = crate::language::by_name("js").expect("js").frontend().expect("front-end");
        let parse = |text: &str| js.parse(Arc::from(text.as_bytes()));
        // the known failures of `tree`, as (node, target) texts
        let known = |memory: &HoistMemory, tree: &Tree| {
            let units = Units::new(tree);
            let text = |id: NodeId| String::from_utf8_lossy(tree.text(id)).into_owned();
            let mut known: Vec<(String, String)> = memory
                .known_failures(tree, &units)
                .iter()
                .map(|h| (text(h.node), text(h.to.first)))
                .collect();
            known.sort();
            known
        };
        let pair = |node: &str, to: &str| (node.to_string(), to.to_string());
        let before = parse("let yy = 2\ng(x, yy)\ng(x, zz)\n");
        let units = Units::new(&before);
        let all: Vec<Hoist> = (0..units.hoistable_count())
            .filter_map(|i| units.hoistable(i))
            .flat_map(|(node, targets)| targets.iter().map(move |&to| Hoist { node, to }))
            .collect();
        let mut memory = HoistMemory::default();
        memory.remember(&before, &all);
        assert!(known(&memory, &before).contains(&pair("g(x, yy)", "x")));
        // the renaming pass made `yy` into `a`: what the hoist to `x`
        // deletes reads `a`, known once the memory learns the renaming
        let after = parse("let a = 2\ng(x, a)\ng(x, zz)\n");
        assert!(!known(&memory, &after).contains(&pair("g(x, a)", "x")));
        memory.renamed(&before, &after);
        assert!(known(&memory, &after).contains(&pair("g(x, a)", "x")));
        assert_eq!(known(&memory, &after).len(), known(&memory, &before).len());
        // but not as another name
        let other = parse("let a = 2\ng(x, b)\ng(x, zz)\n");
        assert!(!known(&memory, &other).contains(&pair("g(x, b)", "x")));
    }
}
