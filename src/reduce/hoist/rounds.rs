//! [`HoistBatch`]: hoisting in rounds of hoists probed against the same
//! mask, the successes merged, for many workers (`--batch`).

use std::collections::HashSet;
use std::sync::Arc;

use super::{applies, made_in_turn, next_hoist, open};
use crate::reduce::stage::Stage;
use crate::reduce::{Proposal, Search, Step, Units};
use crate::syntax::{Hoist, Mask};

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
/// committed when interesting, as [`Hoisting`](super::Hoisting) would: nothing to merge, and
/// what follows may be guessed on it.
///
/// The outcomes, and so the result, depend on neither timing nor `-j`. They
/// may differ from [`Hoisting`](super::Hoisting)'s, which makes each hoist before trying
/// the next node's (a hoist of an inner node may take away a target the
/// outer node's later round would have used).
///
/// [`Batch`]: crate::reduce::batch::Batch
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
