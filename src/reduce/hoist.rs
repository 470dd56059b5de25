//! Hoisting: replacing a node by a descendant that fits its place in the
//! grammar (a loop by its body, a call by one of its arguments, a block in
//! a block by its statements).
//!
//! - [`Hoisting`]: the search. Each hoistable node, outermost first, is
//!   replaced in turn by each of its targets (smallest first, see
//!   [`Units::hoistable`]) until one is interesting.
//! - [`HoistMemory`]: the hoists that failed, remembered across parses of a
//!   changing text by what they delete, so a plan does not test them again
//!   while that text reads the same.

use std::collections::HashSet;
use std::sync::Arc;

use super::{Proposal, Search, Step, Units};
use crate::syntax::{Hoist, Mask, Tree};

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
pub struct Hoisting {
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
    pub fn new() -> Hoisting {
        Hoisting::default()
    }

    /// Hoisting that does not try the hoists in `skip` (the caller knows
    /// they fail).
    pub fn skipping(skip: HashSet<Hoist>) -> Hoisting {
        Hoisting { skip: Arc::new(skip), ..Hoisting::default() }
    }

    /// Hoisting of the nodes of one HDD level only, and only of those with
    /// at most two targets (`EARLY_TARGETS`).
    pub fn at_level(level: usize) -> Hoisting {
        Hoisting { level: Some(level), ..Hoisting::default() }
    }

    /// The hoists tried that were not interesting, after a run (see
    /// [`drive`](crate::reduce::drive)).
    pub fn failed(&self) -> &[Hoist] {
        &self.failed
    }
}

impl Search for Hoisting {
    fn step(&self) -> Step {
        Step::Hoist
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

/// The hoists that failed so far, by what they delete (see [`hoist_key`]):
/// a hoist that failed is not tried again while that text reads the same.
#[derive(Debug, Default)]
pub struct HoistMemory {
    failed: HashSet<u128>,
}

impl HoistMemory {
    /// Remembers hoists of `tree` that were not interesting.
    pub fn remember<'h>(&mut self, tree: &Tree, failed: impl IntoIterator<Item = &'h Hoist>) {
        self.failed.extend(failed.into_iter().map(|&h| hoist_key(tree, h)));
    }

    /// The hoists of `tree` (with `units`) known to fail.
    pub fn known_failures(&self, tree: &Tree, units: &Units) -> HashSet<Hoist> {
        // nothing failed yet (`--algorithm hdd`, or HDD+ without early
        // hoists): nothing to skip, no need to hash every hoist
        if self.failed.is_empty() {
            return HashSet::new();
        }
        (0..units.hoistable_count())
            .filter_map(|i| units.hoistable(i))
            .flat_map(|(node, targets)| targets.iter().map(move |&to| Hoist { node, to }))
            .filter(|&h| self.failed.contains(&hoist_key(tree, h)))
            .collect()
    }
}

/// What tells a hoist apart across parses of changing text: the kinds of the
/// node and of its target, and what the hoist deletes (the node's text
/// before and after the target). Changes inside the target do not make a
/// failed hoist worth another test: it would delete the same text.
fn hoist_key(tree: &Tree, hoist: Hoist) -> u128 {
    let n = tree.node(hoist.node);
    let (first, last) = (tree.node(hoist.to.first), tree.node(hoist.to.last));
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(&n.kind.to_le_bytes());
    h.update(&first.kind.to_le_bytes());
    h.update(&last.kind.to_le_bytes());
    let src = tree.src();
    let before = &src[n.start as usize..first.start as usize];
    h.update(&(before.len() as u64).to_le_bytes());
    h.update(before);
    h.update(&src[last.end as usize..n.end as usize]);
    h.digest128()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::testing::{hoist_tree, TextOracle};
    use crate::reduce::{drive, run};
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
        let hoisted = run(Hoisting::new(), &units, &mut mask, &mut oracle);
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
        let mut hoist = Hoisting::new();
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

    /// The keys of every hoist of `text` parsed as JSON, by the hoisted text.
    fn hoists(text: &str) -> Vec<(String, u128)> {
        let json = crate::language::by_name("json").expect("json").frontend().expect("front-end");
        let tree = json.parse(Arc::from(text.as_bytes()));
        let units = Units::new(&tree);
        let node_text = |id: NodeId| {
            let n = tree.node(id);
            String::from_utf8_lossy(&tree.src()[n.start as usize..n.end as usize]).into_owned()
        };
        (0..units.hoistable_count())
            .filter_map(|i| units.hoistable(i))
            .flat_map(|(node, targets)| targets.iter().map(move |&to| Hoist { node, to }))
            .map(|h| (node_text(h.node), hoist_key(&tree, h)))
            .collect()
    }

    #[test]
    fn a_hoist_is_known_again_while_what_it_deletes_reads_the_same() {
        let key = |text: &str, node: &str| {
            hoists(text).into_iter().find(|(n, _)| n == node).map(|(_, k)| k).expect(node)
        };
        // the text around the node changed: the same hoist
        assert_eq!(key("[[1, 2], 3]", "[1, 2]"), key("[7, [1, 2], 3]", "[1, 2]"));
        // the target changed: it would delete the same text, the same hoist
        assert_eq!(key("[[1], 2]", "[1]"), key("[[5], 2]", "[5]"));
        // what it deletes changed: another one
        assert_ne!(key("[[1, 2], 3]", "[1, 2]"), key("[[1, 4], 3]", "[1, 4]"));
    }
}
