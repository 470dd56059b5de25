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

use std::ops::Range;

use super::stage::Stage;
use super::{Order, Proposal, Search, Step, Units};
use crate::syntax::{Hoist, Mask, NodeId};

mod fold;
mod hoists;
mod rounds;
#[cfg(test)]
mod tests;
mod users;

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
