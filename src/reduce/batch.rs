//! Batches: the forms of ddmin and of the 1-minimality phase that many
//! workers can run at once.
//!
//! A [`Batch`] works in rounds. A round probes each of its blocks of units
//! against the same mask ([`Proposal::Probe`]), so no candidate of a round
//! depends on another's outcome: with `-j N` a whole round is in flight at
//! once, and a wrong guess about one of its candidates costs nothing. Then
//! the blocks that passed alone are switched off together, as one candidate
//! (the merge; answered from the cache when only one passed). If the merge
//! is not interesting (the blocks interfere: two hold the same needed
//! thing, and either may go but not both), they are added one at a time
//! in the round's order (the fold), each kept if the mask with it is still
//! interesting, else treated as a block that failed. Each step of the fold
//! is likely to pass, so with `-j N` the scheduler runs the whole fold at
//! once on that guess, and every interference costs one test latency.
//! (Probing the first 2, 4, 8, ... together instead, committing the
//! longest that passed and probing the others again in the next round,
//! took two or three latencies per interference: see BENCHMARKS.md, "Many
//! workers".)
//!
//! Where the units know the words of their text ([`Units::with_words`]),
//! the fold leaves out the changes likely to interfere, for the next
//! round ([`Batch::suspect`]): those that would take the last occurrences
//! of a word still in the text when a change before them takes the
//! others (the second copy of a name the test looks for; not where that
//! would be more than a third of the fold, as with large blocks that
//! each hold the last copies of some word, and a change only once). The fold's
//! other steps then seldom fail, and the changes left out are probed
//! all at once, against the mask the fold made, beside the next round's
//! halves: the interferences of a fold cost one test latency between
//! them instead of one each (see BENCHMARKS.md, "Many workers"). The
//! result is then the fold's wherever a change left
//! out interferes with one before it, as the words say; where it would
//! have passed in the fold, a step after it may pass that would have
//! failed, and which of the two stays can differ (on every corpus case
//! measured, the results were byte-identical).
//!
//! A block that failed is halved for the next round ([`Batch::ddmin`],
//! down to single units; where the language has no names, a block of at
//! most 4 is cut into its units at once), whose probes are against the
//! mask after the merge: a unit that failed only because a block that
//! passed still used it (a type, a declaration) can go then. (Probing the
//! halves in the same round as their block, against the same mask, saved a
//! test latency per depth of the descent but kept every such unit, and took
//! about twice the tests; see BENCHMARKS.md, "Many workers".)
//!
//! Where the language has names ([`Batch::with_users`]), a block that
//! failed alone is also probed in the next round together with its users:
//! the units left that use a name it declares, and the units that use
//! theirs, and so on. In a C file most declarations are used further down,
//! so a block of them fails alone while its users are there, and halving
//! it only finds the few units nothing uses; one-at-a-time ddmin, going
//! from the end of the file, takes the users first and the declarations
//! after them. With its users, the block goes in one probe when nothing
//! the test needs is among them (a fraction of the tests of halving, on a
//! file of redundant declarations; see BENCHMARKS.md). A unit is needed when it failed alone while
//! nothing used it, or failed with its users; so is what a needed unit
//! uses, and a probe that would take a needed unit with another's users
//! is not made.
//!
//! At an HDD level with hoisting ([`Batch::hoisting`]), a unit that fails
//! alone is offered its hoists right after, in the same round and against
//! the same mask, and the hoists that pass are merged with the blocks that
//! passed: a level's deletions and its hoists take one round, not two one
//! after the other (each a test latency with many workers, and the second
//! could only start once the first's merge was known).
//!
//! In the 1-minimality phase ([`Batch::one_minimal`]) a failed unit is dropped:
//! each is tried once. On `n` units of which `k` are essential, ddmin's
//! rounds test at most `2k` blocks each, over about `log2(n / width)`
//! rounds: Lithium's `O(k log n)`.
//!
//! The outcomes, and so the result, depend on neither timing nor `-j`. They
//! differ from the one-at-a-time searches' ([`Adaptive`](super::ddmin)
//! commits each success before the next probe, a batch at the end of its
//! round), so a plan uses one kind or the other for a whole run.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use super::hoist::{applies, made_in_turn, next_hoist, open, EARLY_TARGETS};
use super::stage::Stage;
use super::{Order, Proposal, Search, Step, Units};
use crate::syntax::{Hoist, Mask, NodeId};

/// Rounds of blocks probed against the same mask, the successes merged.
#[derive(Clone, Debug)]
pub(crate) struct Batch {
    /// The units, in the search's order; blocks are ranges of it.
    items: Vec<NodeId>,
    /// Switched off by this batch (or found absent), by position in `items`.
    gone: Vec<bool>,
    /// How many blocks the first round cuts the units into.
    width: usize,
    /// Halve failed blocks (ddmin) rather than drop them.
    split: bool,
    /// After a round of single units that committed something, try every
    /// unit left once more (the result is then 1-minimal).
    fixpoint: bool,
    /// The 1-minimality phase's units, gathered at the first proposal.
    levels: Option<Order>,
    /// Per unit, the positions of the units that use a name it declares
    /// (`None`: a use no deletion of this batch takes); empty when the
    /// language has no names (see [`Batch::with_users`]).
    users: Vec<Option<Vec<usize>>>,
    /// Per unit (with `users`): the positions of the units whose names it
    /// uses.
    uses: Vec<Vec<usize>>,
    /// Per unit (with `users`): it is needed (see [`Batch::mark_needed`]),
    /// so a probe with it among the users of another would fail.
    needed: Vec<bool>,
    /// Whether a unit that failed alone is offered its hoists in the same
    /// round (see [`Batch::hoisting`]).
    hoisting: bool,
    /// Per unit (with `hoisting`): its hoists were offered.
    offered: Vec<bool>,
    /// Hoists to offer in this round right after the last change (with
    /// `hoisting`).
    again: Vec<Again>,
    /// The hoists tried that were not interesting.
    failed_hoists: Vec<Hoist>,
    /// This round's changes, sorted by position.
    round: Vec<Change>,
    next: usize,
    /// Blocks of the round (by index in `round`) that passed, and failed.
    passed: Vec<usize>,
    failed: Vec<usize>,
    /// Changes that passed alone and that the fold left for the next
    /// round (see [`Batch::suspect`]).
    suspects: Vec<Change>,
    stage: Stage,
    /// Something was committed since the units left were last tried alone.
    changed: bool,
    started: bool,
    /// The round was built and none of its changes proposed yet.
    opening: bool,
    /// The last proposal opened its round (see [`Search::opens_round`]).
    opens: bool,
}

/// A change of a round: a block of units, switched off alone or together
/// with the units that use what it declares; or a hoist.
#[derive(Clone, Debug)]
struct Change {
    block: Range<usize>,
    users: bool,
    /// A hoist instead (`block` is then empty): its node's index in the
    /// units' hoistable nodes, its target's index, the hoist.
    hoist: Option<(usize, usize, Hoist)>,
    /// A fold left it out once (see [`Batch::suspect`]): never again.
    left_out: bool,
}

/// Hoists to offer in the round, right after the change that failed.
#[derive(Clone, Copy, Debug)]
enum Again {
    /// Those of the unit at this position, which failed alone.
    Unit(usize),
    /// A hoistable node (its index in the units) from this target on.
    Node(usize, usize),
}

impl Change {
    fn block(block: Range<usize>, users: bool) -> Change {
        Change { block, users, hoist: None, left_out: false }
    }
}

impl Batch {
    /// ddmin over `items`: a first round of `width` blocks (at most one per
    /// unit), each failed block halved for the next round, down to single
    /// units. With `fixpoint`, rounds of single units repeat while one
    /// commits something.
    pub(crate) fn ddmin(items: Vec<NodeId>, width: usize, fixpoint: bool) -> Batch {
        let n = items.len();
        Batch {
            items,
            gone: vec![false; n],
            width: width.max(1),
            split: true,
            fixpoint,
            levels: None,
            users: Vec::new(),
            uses: Vec::new(),
            needed: Vec::new(),
            hoisting: false,
            offered: Vec::new(),
            again: Vec::new(),
            failed_hoists: Vec::new(),
            round: Vec::new(),
            next: 0,
            passed: Vec::new(),
            failed: Vec::new(),
            suspects: Vec::new(),
            stage: Stage::Probing,
            changed: false,
            started: false,
            opening: false,
            opens: false,
        }
    }

    /// HDD+'s 1-minimality phase as one batch: every present unit, level
    /// by level in `order`, probed once on its own.
    pub(crate) fn one_minimal(order: Order) -> Batch {
        Batch { levels: Some(order), split: false, ..Batch::ddmin(Vec::new(), usize::MAX, false) }
    }

    /// This batch, knowing for each unit (by position in `items`) the
    /// units that use a name it declares (see [`Units::users`]): a block
    /// that failed alone is probed once more with its users in the next
    /// round, beside its halves, so that a declaration goes with the code
    /// that uses it, as one-at-a-time ddmin takes the users first and then
    /// the declaration.
    pub(crate) fn with_users(self, users: Vec<Option<Vec<usize>>>) -> Batch {
        debug_assert!(users.is_empty() || users.len() == self.items.len());
        let mut uses = vec![Vec::new(); users.len()];
        for (p, list) in users.iter().enumerate() {
            list.iter().flatten().for_each(|&u| uses[u].push(p));
        }
        let needed = vec![false; users.len()];
        Batch { users, uses, needed, ..self }
    }

    /// This batch, offering each unit that fails alone its hoists (those
    /// of the hoistable nodes it is the nearest unit of, with at most two
    /// targets that move a part of them, as
    /// [`Hoisting::at_level`](super::Hoisting::at_level)) in the same round, against the same mask, each failed hoist its
    /// node's next target after it; the hoists that pass are merged with
    /// the blocks. A level then takes one round where its deletions and
    /// its hoists took two, one after the other.
    pub(crate) fn hoisting(self) -> Batch {
        let offered = vec![false; self.items.len()];
        Batch { hoisting: true, offered, ..self }
    }

    /// The hoists tried that were not interesting, after a run.
    pub(crate) fn failed_hoists(&self) -> &[Hoist] {
        &self.failed_hoists
    }

    /// Change `i` of the round failed: with `hoisting`, its unit is
    /// offered its hoists in the same round if it was one unit alone,
    /// not offered them before; a hoist's node its next target.
    fn offer_hoists(&mut self, i: usize) {
        if !self.hoisting {
            return;
        }
        let Change { block, users, hoist, .. } = self.round[i].clone();
        if let Some((h, t, _)) = hoist {
            self.again.push(Again::Node(h, t + 1));
            return;
        }
        let left: Vec<usize> = self.left(block).collect();
        if let &[p] = &left[..] {
            if !users && !std::mem::replace(&mut self.offered[p], true) {
                self.again.push(Again::Unit(p));
            }
        }
    }

    /// Puts the hoists waiting to be offered into the round, right after
    /// the last change proposed: each hoistable node's next target that
    /// can be made under `mask`.
    fn insert_hoists(&mut self, units: &Units, mask: &Mask) {
        let early = |h: &usize| {
            units
                .hoistable_early(*h)
                .is_some_and(|(_, t)| !t.is_empty() && t.len() <= EARLY_TARGETS)
        };
        let mut nodes = Vec::new();
        for again in std::mem::take(&mut self.again) {
            match again {
                Again::Unit(p) => {
                    nodes.extend(units.hoistable_in(self.items[p]).filter(early).map(|h| (h, 0)))
                }
                Again::Node(h, t) => nodes.push((h, t)),
            }
        }
        let mut at = self.next;
        for (h, first) in nodes {
            let (node, targets) = units.hoistable_early(h).expect("a hoistable node");
            let next = open(units, mask, node)
                .then(|| next_hoist(units, mask, node, targets, first, |_| true))
                .flatten();
            if let Some((t, hoist)) = next {
                self.round.insert(
                    at,
                    Change { hoist: Some((h, t, hoist)), ..Change::block(0..0, false) },
                );
                at += 1;
            }
        }
    }

    /// The present units of change `i` of the round (marking the absent
    /// ones gone): its block's, and with its users those of its closure
    /// (see [`Batch::closure`]).
    fn members(&mut self, i: usize, units: &Units, mask: &Mask) -> Vec<NodeId> {
        let Change { block, users, .. } = self.round[i].clone();
        // (its users may be gone by now, in the fold)
        match users.then(|| self.closure(block.clone())).flatten() {
            Some(inside) => self.present(inside, units, mask),
            None => self.present(block, units, mask),
        }
    }

    /// The positions of block `r`'s units left, with those of the units
    /// left that use a name one of them declares, and so on; `None` when
    /// that adds nothing, or meets a use no deletion here takes.
    fn closure(&self, r: Range<usize>) -> Option<Vec<usize>> {
        let mut inside: Vec<usize> = self.left(r.clone()).collect();
        let alone = inside.len();
        let mut seen: HashSet<usize> = inside.iter().copied().collect();
        let mut k = 0;
        while k < inside.len() {
            for &u in self.users.get(inside[k])?.as_deref()? {
                if !self.gone[u] && seen.insert(u) {
                    inside.push(u);
                }
            }
            k += 1;
        }
        inside.sort_unstable();
        (inside.len() > alone).then_some(inside)
    }

    /// Learns from change `i`, which failed, when it was one unit: the
    /// unit is needed if nothing left uses it, or if it went with its
    /// users (one of them is needed then, and it uses this one). So is
    /// every unit a needed one uses.
    fn mark_needed(&mut self, i: usize) {
        let Change { block, users, hoist: None, .. } = self.round[i].clone() else { return };
        let left: Vec<usize> = self.left(block).collect();
        let &[p] = &left[..] else { return };
        let unused = self.users[p].as_ref().is_some_and(|list| list.iter().all(|&u| self.gone[u]));
        if !users && !unused {
            return;
        }
        let mut stack = vec![p];
        while let Some(q) = stack.pop() {
            if !std::mem::replace(&mut self.needed[q], true) {
                stack.extend(self.uses[q].iter().copied());
            }
        }
    }

    /// The present units at `positions` (marking the absent ones gone).
    fn present(
        &mut self,
        positions: impl IntoIterator<Item = usize>,
        units: &Units,
        mask: &Mask,
    ) -> Vec<NodeId> {
        let mut ids = Vec::new();
        for p in positions {
            if self.gone[p] {
                continue;
            }
            if units.is_present(self.items[p], mask) {
                ids.push(self.items[p]);
            } else {
                self.gone[p] = true;
            }
        }
        ids
    }

    /// The positions of `r` still there.
    fn left(&self, r: Range<usize>) -> impl Iterator<Item = usize> + '_ {
        r.filter(|&p| !self.gone[p])
    }

    /// The first round: the units cut into `width` blocks of about the same size.
    fn first_round(&mut self, units: &Units, mask: &Mask) {
        if let Some(order) = self.levels {
            self.items = (0..units.depth()).flat_map(|l| units.ordered(l, mask, order)).collect();
            self.gone = vec![false; self.items.len()];
        }
        let blocks = cut(0..self.items.len(), self.width.min(self.items.len()));
        self.round = blocks.into_iter().map(|block| Change::block(block, false)).collect();
        self.opening = true;
    }

    /// Builds the next round from this one's failed blocks (halved, or
    /// dropped); false when there is nothing left to try.
    fn next_round(&mut self) -> bool {
        let mut round = Vec::new();
        let alone = |block| Change::block(block, false);
        for &i in &self.failed {
            let Change { block: r, users, hoist, .. } = self.round[i].clone();
            if users || hoist.is_some() {
                // its halves are in the same round; a hoist is tried once
                continue;
            }
            let left: Vec<usize> = self.left(r.clone()).collect();
            if self.split && left.len() > 1 {
                if left.len() <= SMALL_BLOCK && self.users.is_empty() {
                    round.extend(left.iter().map(|&p| alone(p..p + 1)));
                } else {
                    let mid = left[left.len() / 2];
                    round.push(alone(r.start..mid));
                    round.push(alone(mid..r.end));
                }
            }
            // (not when that would take a unit known to be needed)
            let closure = self.closure(r.clone());
            if self.split && closure.is_some_and(|c| !c.iter().any(|&p| self.needed[p])) {
                round.push(Change::block(r, true));
            }
        }
        if round.is_empty() && self.fixpoint && self.changed {
            // something went since the units left were last tried alone:
            // try each of them again
            let left = (0..self.items.len()).filter(|&p| !self.gone[p]);
            round = left.map(|p| alone(p..p + 1)).collect();
            self.changed = false;
        }
        round.append(&mut self.suspects);
        round.sort_by_key(|c| (c.block.start, c.users));
        self.round = round;
        self.next = 0;
        self.passed.clear();
        self.failed.clear();
        self.stage = Stage::Probing;
        self.opening = true;
        !self.round.is_empty()
    }

    /// Marks the units of the round's blocks `blocks` as switched off.
    fn commit(&mut self, blocks: &[usize]) {
        // (a change's users are found gone when next met)
        for &i in blocks {
            for p in self.round[i].block.clone() {
                self.gone[p] = true;
            }
        }
        self.changed = true;
    }

    /// The merge: the present units of the blocks that passed, switched
    /// off, then the hoists that passed that can still be made.
    fn merged(&mut self, units: &Units, mask: &Mask) -> Proposal {
        let mut ids = Vec::new();
        let mut hoists = Vec::new();
        for k in 0..self.passed.len() {
            match self.round[self.passed[k]].hoist {
                Some((_, _, hoist)) => hoists.push(hoist),
                None => ids.extend(self.members(self.passed[k], units, mask)),
            }
        }
        if !self.users.is_empty() {
            // two changes' users may be the same units
            let mut seen = HashSet::new();
            ids.retain(|&id| seen.insert(id));
        }
        if hoists.is_empty() {
            return Proposal::Off(ids);
        }
        let hoists = made_in_turn(units, mask.with_off(&ids), hoists);
        Proposal::OffHoists(ids, hoists)
    }

    /// The proposal of change `i`, a fold step, if there is anything left
    /// of it to make.
    fn fold_step(&mut self, i: usize, units: &Units, mask: &Mask) -> Option<Proposal> {
        match self.round[i].hoist {
            Some((_, _, hoist)) => applies(units, mask, hoist).then_some(Proposal::Hoist(hoist)),
            None => {
                Some(self.members(i, units, mask)).filter(|ids| !ids.is_empty()).map(Proposal::Off)
            }
        }
    }

    /// Before a fold: leaves out of it, for the next round, each change
    /// that would take the last occurrences of a word still in the text
    /// when a change before it in the fold takes others. Two changes that
    /// passed alone interfere where each holds a copy of what the test
    /// needs; every interference in a fold costs a test latency (and the
    /// steps after it a second test), whereas the next round probes its
    /// changes all at once, against the mask the fold made. Where more
    /// than a third of the fold would be left out (large blocks, each
    /// with the last copies of some word), the words tell nothing, and
    /// none is; nor is a change left out before.
    fn suspect(&mut self, units: &Units, mask: &Mask) {
        let mut holders = HashMap::new();
        for (k, i) in self.passed.clone().into_iter().enumerate() {
            if self.round[i].hoist.is_none() {
                holders.extend(self.members(i, units, mask).into_iter().map(|id| (id, k)));
            }
        }
        let mut left: HashMap<u32, usize> = HashMap::new();
        let mut held: Vec<HashMap<u32, usize>> = vec![HashMap::new(); self.passed.len()];
        for (word, holder) in units.words_in(mask, &holders) {
            *left.entry(word).or_default() += 1;
            if let Some(k) = holder {
                *held[k].entry(word).or_default() += 1;
            }
        }
        // occurrences the fold's steps so far take, if they pass
        let mut taken: HashMap<u32, usize> = HashMap::new();
        let (mut first, mut last) = (Vec::new(), Vec::new());
        for (k, &i) in self.passed.iter().enumerate() {
            let ends = !self.round[i].left_out
                && held[k].iter().any(|(w, &n)| {
                    let before = taken.get(w).copied().unwrap_or(0);
                    before > 0 && before + n == left[w]
                });
            if ends {
                last.push(i);
            } else {
                for (&w, &n) in &held[k] {
                    *taken.entry(w).or_default() += n;
                }
                first.push(i);
            }
        }
        if last.is_empty() || 3 * last.len() > self.passed.len() {
            return;
        }
        self.passed = first;
        for i in last {
            let block = self.round[i].block.clone();
            if self.hoisting {
                // (as a change that fails in the fold, it is not offered
                // its hoists when it fails then)
                block.clone().for_each(|p| self.offered[p] = true);
            }
            let users = self.round[i].users;
            self.suspects.push(Change { left_out: true, ..Change::block(block, users) });
        }
    }

    /// Remembers change `i` of the round as a failed hoist if it is one.
    fn hoist_failed(&mut self, i: usize) {
        if let Some((_, _, hoist)) = self.round[i].hoist {
            self.failed_hoists.push(hoist);
        }
    }
}

/// A failed block of at most this many units is cut into its single units
/// for the next round rather than halved. It holds at least one unit the
/// test needs (or one that interferes), and for 4 units halving takes at
/// least as many tests as the singles (2 halves, then the 2 units of the
/// one that failed) and a round more; for 3 it takes 10/3 on average with one
/// needed unit, against 3. From 5 units on, halving is cheaper while
/// needed units are rare. Only without users (XML, JSON, the token
/// passes): a block with users also goes with them, and cutting it into
/// units at once changed which closures were probed, for better and worse
/// (BENCHMARKS.md, "A failed block of four cut into its units").
const SMALL_BLOCK: usize = 4;

/// `r` cut into `n` ranges of about the same size.
fn cut(r: Range<usize>, n: usize) -> Vec<Range<usize>> {
    let len = r.len();
    (0..n).map(|k| r.start + k * len / n..r.start + (k + 1) * len / n).collect()
}

impl Search for Batch {
    fn propose(&mut self, units: &Units, mask: &Mask) -> Option<Proposal> {
        self.opens = false;
        if !self.started {
            self.started = true;
            self.first_round(units, mask);
        }
        loop {
            match self.stage {
                Stage::Probing if !self.again.is_empty() => self.insert_hoists(units, mask),
                Stage::Probing if self.next < self.round.len() => {
                    if let Some((_, _, hoist)) = self.round[self.next].hoist {
                        // (made under the round's mask when inserted)
                        return Some(Proposal::ProbeHoists(vec![hoist]));
                    }
                    let ids = self.members(self.next, units, mask);
                    if !ids.is_empty() {
                        self.opens = std::mem::take(&mut self.opening);
                        return Some(Proposal::Probe(ids));
                    }
                    // nothing left of it: neither passed nor failed
                    self.next += 1;
                }
                Stage::Probing if self.passed.is_empty() => {
                    if !self.next_round() {
                        return None;
                    }
                }
                Stage::Probing => {
                    self.stage = Stage::Merging;
                }
                Stage::Merging => return Some(self.merged(units, mask)),
                Stage::Fold { k } if k < self.passed.len() => {
                    if k == 0 && self.suspects.is_empty() {
                        // the fold's order, against the mask it starts
                        // from (again, it finds the same)
                        self.suspect(units, mask);
                    }
                    if let Some(proposal) = self.fold_step(self.passed[k], units, mask) {
                        return Some(proposal);
                    }
                    // gone with an earlier block: nothing to add
                    self.stage = Stage::Fold { k: k + 1 };
                }
                Stage::Fold { .. } => {
                    self.passed.clear();
                    self.next_round();
                }
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
            Stage::Probing => {
                let Change { block, users, hoist, .. } = self.round[self.next].clone();
                if hoist.is_some() {
                    return Step::Hoist;
                }
                let single = !users && self.left(block).nth(1).is_none();
                Step::Probe { single }
            }
            Stage::Fold { .. } => Step::Fold,
            Stage::Merging => Step::Merge,
        }
    }

    fn feedback(&mut self, interesting: bool) {
        match self.stage {
            Stage::Probing => {
                if !interesting && !self.users.is_empty() {
                    self.mark_needed(self.next);
                }
                if !interesting {
                    self.hoist_failed(self.next);
                    self.offer_hoists(self.next);
                }
                let list = if interesting { &mut self.passed } else { &mut self.failed };
                list.push(self.next);
                self.next += 1;
            }
            Stage::Merging if interesting || self.passed.len() == 1 => {
                let passed = std::mem::take(&mut self.passed);
                if interesting {
                    self.commit(&passed);
                }
                self.next_round();
            }
            Stage::Merging => self.stage = Stage::Fold { k: 0 },
            Stage::Fold { k } => {
                let block = self.passed[k];
                if interesting {
                    self.commit(&[block]);
                } else {
                    // it interferes with those before it: like a failed
                    // block, halved (or dropped) for the next round
                    self.hoist_failed(block);
                    self.failed.push(block);
                }
                self.stage = Stage::Fold { k: k + 1 };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::testing::{flat, random_tree, FnOracle, Rng};
    use crate::reduce::{run, Ddmin, Hdd, OneMinimal};
    use std::collections::HashSet;

    /// Runs a batch over a flat tree of `n` units; the kept units and the
    /// tests run (a candidate seen before is answered from the cache).
    fn reduce(
        batch: Batch,
        n: usize,
        pred: impl FnMut(&[NodeId]) -> bool,
    ) -> (HashSet<NodeId>, usize) {
        let tree = flat(n);
        let units = Units::new(&tree);
        let mut mask = Mask::new(tree.len());
        let mut oracle = FnOracle::new(&units, pred);
        run(batch, &units, &mut mask, &mut oracle).expect("finished");
        (units.present_bfs(&mask).into_iter().collect(), oracle.calls)
    }

    fn all(n: usize) -> Vec<NodeId> {
        (1..=n as u32).map(NodeId).collect()
    }

    /// C source parsed, and its units knowing their uses.
    fn c_units(src: &str) -> (crate::syntax::Tree, Units) {
        let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
        let tree = fe.parse(std::sync::Arc::from(src.as_bytes()));
        let units = Units::new(&tree).with_uses(&tree);
        (tree, units)
    }

    /// A declaration that failed alone because code using it was still
    /// there goes, in the round after, together with the code using it
    /// that is left; alone it would never be tried again.
    #[test]
    fn a_declaration_goes_with_its_users_in_the_round_after_it_failed_alone() {
        let src = "typedef int T;\nT f(void) { return 1; }\nT g(void) { return f(); }\n\
                   int keep(void) { return 0; }\n";
        let (tree, units) = c_units(src);
        let &[t, f, g, keep] = units.level(0) else { panic!("{:?}", units.level(0)) };
        // as a compiler sees it: every name used must be declared
        let compiles = |p: &[NodeId]| {
            let has = |u| p.contains(&u);
            has(keep) && (!has(g) || has(f)) && (!(has(f) || has(g)) || has(t))
        };
        for (users, kept, tests) in [(false, vec![t, f, keep], 4), (true, vec![keep], 5)] {
            let mut mask = Mask::new(tree.len());
            let items = units.ordered(0, &mask, Order::Backward);
            let mut batch = Batch::ddmin(items.clone(), 4, false);
            if users {
                batch = batch.with_users(units.users(0, &items, &mask));
            }
            let mut oracle = FnOracle::new(&units, compiles);
            run(batch, &units, &mut mask, &mut oracle).expect("finished");
            assert_eq!(units.present_at(0, &mask), kept, "with users: {users}");
            assert_eq!(oracle.calls, tests, "with users: {users}");
        }
    }

    /// A unit that failed alone while nothing used it is needed, and so is
    /// what it uses: no probe takes them with another's users.
    #[test]
    fn no_probe_takes_a_needed_unit_with_the_users_of_another() {
        let src = "typedef int T;\nT need(void) { return 0; }\nT f(void) { return 1; }\n\
                   T g(void) { return f(); }\n";
        let (tree, units) = c_units(src);
        let &[t, need, f, g] = units.level(0) else { panic!("{:?}", units.level(0)) };
        let compiles = |p: &[NodeId]| {
            let has = |u| p.contains(&u);
            has(need) && (!has(g) || has(f)) && has(t)
        };
        let mut mask = Mask::new(tree.len());
        let items = units.ordered(0, &mask, Order::Backward);
        let batch = Batch::ddmin(items.clone(), 4, false).with_users(units.users(0, &items, &mask));
        let mut oracle = FnOracle::new(&units, compiles);
        run(batch, &units, &mut mask, &mut oracle).expect("finished");
        // g goes; f failed alone beside g and is kept (nothing uses it
        // now, but a failed unit is not tried alone again); T with its
        // users would take `need`, which failed alone while nothing used
        // it: that probe is not made
        assert_eq!(units.present_at(0, &mask), [t, need, f]);
        assert_eq!(oracle.calls, 4);
    }

    /// A failed block of 4 units is tried unit by unit in the next round:
    /// halving it would take as many tests for its units, two more for its
    /// halves and a round more.
    #[test]
    fn a_failed_block_of_four_is_tried_unit_by_unit() {
        let need: HashSet<NodeId> = [2u32, 7].map(NodeId).into();
        let (kept, calls) =
            reduce(Batch::ddmin(all(8), 2, false), 8, |p| need.iter().all(|n| p.contains(n)));
        assert_eq!(kept, need);
        // the 2 blocks, the 8 units, the merge of the 6 that passed
        assert_eq!(calls, 2 + 8 + 1);
    }

    #[test]
    fn ddmin_keeps_exactly_the_essential_units() {
        let need: HashSet<NodeId> = [3u32, 17, 18, 40].map(NodeId).into();
        for width in [1, 2, 8, 64] {
            let (kept, _) = reduce(Batch::ddmin(all(50), width, false), 50, |p| {
                need.iter().all(|n| p.contains(n))
            });
            assert_eq!(kept, need, "width {width}");
        }
    }

    /// Lithium's bound: k essential units among n cost O(k log n) tests.
    #[test]
    fn ddmin_tests_grow_with_k_log_n() {
        for (n, k) in [(1000usize, 1usize), (1000, 4), (1000, 16), (200, 8)] {
            let need: HashSet<NodeId> = (0..k).map(|i| NodeId((1 + i * n / k) as u32)).collect();
            let (kept, calls) =
                reduce(Batch::ddmin(all(n), 2, false), n, |p| need.iter().all(|x| p.contains(x)));
            assert_eq!(kept, need);
            let bound = 2 * k * ((n as f64).log2().ceil() as usize + 1) + 8;
            assert!(calls <= bound, "n {n} k {k}: {calls} tests > {bound}");
        }
    }

    /// Interfering blocks (each redundant with the other): the merge fails,
    /// the fold keeps the first and the second fails after it.
    #[test]
    fn interfering_successes_keep_the_first_in_the_fold() {
        // interesting while unit 1 or unit 2 is kept, and unit 4 always
        let pred = |p: &[NodeId]| {
            (p.contains(&NodeId(1)) || p.contains(&NodeId(2))) && p.contains(&NodeId(4))
        };
        let (kept, calls) = reduce(Batch::ddmin(all(4), 4, false), 4, pred);
        assert_eq!(kept, [NodeId(2), NodeId(4)].into());
        // four probes, the merge, then the fold: 1 (its probe, cached), 1
        // and 2 (fails), 1 and 3
        assert_eq!(calls, 7);
    }

    /// A change that takes the last copies of a word when a change before
    /// it in the fold takes the others (two copies of what the test
    /// needs) is left out of the fold and probed in the next round,
    /// beside any other such change: the fold's steps all pass, the
    /// interferences fail as probes of one round, and the result is here
    /// the one the fold alone gives. Not where more than a third of the
    /// fold would be left out.
    #[test]
    fn changes_taking_the_last_copies_of_a_word_are_probed_after_the_fold() {
        let src = "int f(void) { return ONE; }\nint g(void) { return TWO; }\n\
                   int h(void) { return 0; }\nint i(void) { return 0; }\n\
                   int j(void) { return 0; }\nint k(void) { return ONE; }\n\
                   int m(void) { return TWO; }\n";
        let (tree, plain) = c_units(src);
        let &[f, g, .., k, m] = plain.level(0) else { panic!("{:?}", plain.level(0)) };
        // the test needs a ONE and a TWO
        let pred =
            |p: &[NodeId]| (p.contains(&f) || p.contains(&k)) && (p.contains(&g) || p.contains(&m));
        let words = Units::new(&tree).with_uses(&tree).with_words(&tree);
        let (kept, log, calls) = logged_ddmin(&tree, &plain, pred);
        assert_eq!(kept, [k, m]);
        let single = Step::Probe { single: true };
        // seven probes, the merge, then the fold: f (cached), g, h, i, j,
        // k and m, which fail
        assert_eq!(failed(&log), [Step::Merge, Step::Fold, Step::Fold]);
        let (kept_words, log, calls_words) = logged_ddmin(&tree, &words, pred);
        assert_eq!(kept_words, kept);
        assert_eq!(calls_words, calls, "as many tests");
        // the fold adds f to j; then k and m are probed, and fail
        assert_eq!(failed(&log), [Step::Merge, single, single]);
        assert!(log.iter().all(|&(step, ok)| ok || step != Step::Fold));

        // one of two changes is more than a third: the plain fold
        let src = "int f(void) { return ONE; }\nint k(void) { return ONE; }\n";
        let (tree, plain) = c_units(src);
        let &[f, k] = plain.level(0) else { panic!("{:?}", plain.level(0)) };
        let words = Units::new(&tree).with_uses(&tree).with_words(&tree);
        let pred = |p: &[NodeId]| p.contains(&f) || p.contains(&k);
        let (kept, log, _) = logged_ddmin(&tree, &words, pred);
        assert_eq!(kept, [k]);
        assert_eq!(failed(&log), [Step::Merge, Step::Fold]);
    }

    /// A batch over level 0 of `units` in source order, logged: the units
    /// kept, each candidate's step and outcome, and the tests.
    fn logged_ddmin(
        tree: &crate::syntax::Tree,
        units: &Units,
        pred: impl FnMut(&[NodeId]) -> bool,
    ) -> (Vec<NodeId>, Vec<(Step, bool)>, usize) {
        let mut mask = Mask::new(tree.len());
        let items = units.ordered(0, &mask, Order::Forward);
        let mut oracle = Logged { inner: FnOracle::new(units, pred), log: Vec::new() };
        run(Batch::ddmin(items, 8, false), units, &mut mask, &mut oracle).expect("finished");
        (units.present_at(0, &mask), oracle.log, oracle.inner.calls)
    }

    /// The steps of the candidates that were not interesting, in order.
    fn failed(log: &[(Step, bool)]) -> Vec<Step> {
        log.iter().filter(|(_, ok)| !ok).map(|&(step, _)| step).collect()
    }

    /// An oracle that logs each candidate's step and outcome.
    struct Logged<'u, F> {
        inner: FnOracle<'u, F>,
        log: Vec<(Step, bool)>,
    }

    impl<F: FnMut(&[NodeId]) -> bool> crate::reduce::Oracle for Logged<'_, F> {
        fn evaluate(
            &mut self,
            candidates: &mut dyn crate::reduce::Candidates,
        ) -> crate::reduce::Verdict {
            while let Some(c) = candidates.next() {
                let interesting = self.inner.test(&c.mask);
                self.log.push((c.context.step, interesting));
                candidates.settle(c.index, interesting);
            }
            crate::reduce::Verdict::Finished
        }
    }

    /// On a monotone test (removing more never makes it pass again), a
    /// unit that failed alone fails after any other removal too, and the
    /// fold adds the ones that passed in the sequential order: one round of
    /// the batched 1-minimal phase keeps exactly what one pass of
    /// [`OneMinimal`] keeps, also when removals interfere (the test wants
    /// any one of a few sets of units).
    #[test]
    fn one_minimal_batch_is_one_minimal_pass_on_monotone_tests() {
        let mut rng = Rng::new(13);
        let mut folds = 0;
        for round in 0..100 {
            let tree = random_tree(&mut rng, 40);
            let units = Units::new(&tree);
            let all = units.present_bfs(&Mask::new(tree.len()));
            let sets: Vec<Vec<NodeId>> = (0..1 + rng.below(3))
                .map(|_| all.iter().copied().filter(|_| rng.chance(0.15)).collect())
                .collect();
            let pred = |p: &[NodeId]| sets.iter().any(|s| s.iter().all(|n| p.contains(n)));
            // the units that may go alone, and whether they interfere
            let none = Mask::new(tree.len());
            let alone: Vec<NodeId> = all
                .iter()
                .copied()
                .filter(|&u| pred(&units.present_bfs(&none.with_off(&[u]))))
                .collect();
            folds +=
                usize::from(alone.len() > 1 && !pred(&units.present_bfs(&none.with_off(&alone))));
            let mut oracle = FnOracle::new(&units, pred);
            let mut batched = Mask::new(tree.len());
            run(Batch::one_minimal(Order::Forward), &units, &mut batched, &mut oracle)
                .expect("finished");
            let mut sequential = Mask::new(tree.len());
            run(OneMinimal::new(Order::Forward), &units, &mut sequential, &mut oracle)
                .expect("finished");
            assert_eq!(
                units.present_bfs(&batched),
                units.present_bfs(&sequential),
                "round {round}"
            );
        }
        assert!(folds >= 10, "only {folds} rounds had interfering removals");
    }

    /// With fixpoint the result is 1-minimal even when a removal makes
    /// another possible (non-monotonic predicates).
    #[test]
    fn ddmin_to_a_fixpoint_is_one_minimal_on_random_predicates() {
        let mut rng = Rng::new(7);
        for _ in 0..200 {
            let n = 1 + rng.below(24);
            let seed = rng.next();
            // a random, deterministic, non-monotonic predicate over the
            // kept set, true of the whole set
            let pred = |p: &[NodeId]| {
                let mut h = seed;
                for id in p {
                    h = (h ^ u64::from(id.0)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                }
                p.len() == n || (p.contains(&NodeId(1)) && !(h >> 32).is_multiple_of(3))
            };
            let width = 1 + rng.below(8);
            let (kept, _) = reduce(Batch::ddmin(all(n), width, true), n, pred);
            let mut kept: Vec<NodeId> = kept.into_iter().collect();
            kept.sort();
            assert!(pred(&kept));
            for u in &kept {
                let without: Vec<NodeId> = kept.iter().copied().filter(|x| x != u).collect();
                assert!(!pred(&without), "removing {u:?} from {kept:?} still passes");
            }
        }
    }

    /// The 1-minimal phase as a batch: the same result as one unit at a
    /// time when removals do not interact, on random trees.
    #[test]
    fn one_minimal_batch_is_one_tree_minimal() {
        let mut rng = Rng::new(11);
        for _ in 0..50 {
            let tree = random_tree(&mut rng, 40);
            let units = Units::new(&tree);
            let ids: Vec<NodeId> = (1..tree.len() as u32).map(NodeId).collect();
            let need: HashSet<NodeId> = ids.iter().copied().filter(|_| rng.below(5) == 0).collect();
            let pred = |p: &[NodeId]| need.iter().all(|n| p.contains(n) || !units.is_unit(*n));
            let mut mask = Mask::new(tree.len());
            let mut oracle = FnOracle::new(&units, pred);
            run(Hdd::single_pass(Ddmin::Adaptive, Order::Forward), &units, &mut mask, &mut oracle)
                .expect("finished");
            let mut batched = mask.clone();
            while run(Batch::one_minimal(Order::Forward), &units, &mut batched, &mut oracle)
                .is_ok_and(|n| n > 0)
            {}
            while run(OneMinimal::new(Order::Forward), &units, &mut mask, &mut oracle)
                .is_ok_and(|n| n > 0)
            {}
            assert_eq!(units.present_bfs(&batched), units.present_bfs(&mask));
        }
    }
}
