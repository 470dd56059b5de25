//! Coordinated deletion: a declaration and every use of its name switched
//! off in one candidate (see [`groups`](super::groups)), which no single
//! removal can do: neither a used variable nor its last use alone may go,
//! both together may.
//!
//! - [`Coordinated`]: the search, trying each group once, the latest
//!   declaration first.
//! - [`GroupMemory`]: the groups that failed, remembered across parses by
//!   what they switch off, so a plan does not test them again while that
//!   text reads the same.

use std::sync::Arc;

use super::groups::{globals, groups, swept, undeclared, Group};
use super::memory::{FailureMemory, Remembered, Renamed};
use super::{Proposal, Search, Step, Units};
use crate::syntax::tree::NO_PARENT;
use crate::syntax::{Mask, NodeId, Text, Tree};

/// Tries each group of a tree in turn, switching off what is still present
/// of it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Coordinated {
    groups: Arc<Vec<Group>>,
    i: usize,
    /// The groups tried that were not interesting (indices into `groups`).
    failed: Vec<usize>,
}

impl Coordinated {
    /// The search over `tree`'s groups, but those `memory` knows to fail.
    pub(crate) fn new(tree: &Tree, memory: &GroupMemory) -> Coordinated {
        Coordinated::of(groups(tree), tree, memory)
    }

    /// The search over the groups that change a whole text at once, tried
    /// once after the HDD pass: the swept tokens (see [`swept`]) and the
    /// names `tree` uses but does not declare (see [`undeclared`]); but
    /// those `memory` knows to fail.
    pub(crate) fn sweeping(tree: &Tree, memory: &GroupMemory) -> Coordinated {
        let mut groups = swept(tree);
        groups.extend(undeclared(tree));
        Coordinated::of(groups, tree, memory)
    }

    /// The search over the groups of locals made global (see [`globals`]),
    /// but those `memory` knows to fail.
    pub(crate) fn globals(tree: &Tree, memory: &GroupMemory) -> Coordinated {
        Coordinated::of(globals(tree), tree, memory)
    }

    fn of(groups: Vec<Group>, tree: &Tree, memory: &GroupMemory) -> Coordinated {
        let groups = groups.into_iter().filter(|g| !memory.knows(tree, g)).collect();
        Coordinated { groups: Arc::new(groups), ..Coordinated::default() }
    }

    /// The groups tried that were not interesting, after a run.
    pub(crate) fn failed(&self) -> impl Iterator<Item = &Group> {
        self.failed.iter().map(|&i| &self.groups[i])
    }
}

impl Search for Coordinated {
    fn propose(&mut self, units: &Units, mask: &Mask) -> Option<Proposal> {
        while let Some(g) = self.groups.get(self.i) {
            if g.decls.iter().all(|&d| units.is_present(d, mask)) {
                let off = g.off.iter().copied().filter(|&n| units.is_present(n, mask)).collect();
                if g.swaps.is_empty() {
                    return Some(Proposal::Off(off));
                }
                let swaps = g.swaps.iter().copied().filter(|s| units.is_present(s.node, mask));
                return Some(Proposal::Swap(off, swaps.collect()));
            }
            self.i += 1;
        }
        None
    }

    fn step(&self) -> Step {
        Step::Coordinated
    }

    fn feedback(&mut self, interesting: bool) {
        if !interesting {
            self.failed.push(self.i);
        }
        // the groups after a swap were found on text it changed (a copy of
        // a typedef's type uses names they do not see): the plan's next
        // parse finds them again
        let swapped = interesting && !self.groups[self.i].swaps.is_empty();
        self.i = if swapped { self.groups.len() } else { self.i + 1 };
    }
}

/// The groups that failed so far, by the kinds and texts of what they
/// switch off (see [`Group`]'s [`Remembered`] key).
pub(crate) type GroupMemory = FailureMemory<Group>;

impl Remembered for Group {
    /// The key reads the texts as they are, not as they were before the
    /// renaming pass: a group that failed before the renaming is tried
    /// again after it, as the plans always did (see `group_key`).
    fn key(&self, tree: &Tree, _renamed: &Renamed) -> u128 {
        group_key(tree, self)
    }
}

/// What tells a group apart across parses of changing text: the kinds and
/// texts of its declarations (and of the parent of one that goes with the
/// token after it), the kinds of the other nodes it switches off
/// or writes anew (a use removed changes it; a use whose text changed, by a
/// name inlined into it, does not), and the texts it writes.
fn group_key(tree: &Tree, group: &Group) -> u128 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    let node = |h: &mut xxhash_rust::xxh3::Xxh3, id: NodeId| {
        let text = tree.text(id);
        h.update(&tree.node(id).kind.to_le_bytes());
        h.update(&(text.len() as u64).to_le_bytes());
        h.update(text);
    };
    let kind = |h: &mut xxhash_rust::xxh3::Xxh3, id: NodeId| {
        h.update(&tree.node(id).kind.to_le_bytes());
    };
    for &id in &group.decls {
        node(&mut h, id);
        // a node that goes with the token after it (`private:`) reads the
        // same wherever it stands: what it may go from is its parent (the
        // members after it)
        let n = tree.node(id);
        if tree.policy().kind(n.kind).with_next_token && n.parent != NO_PARENT {
            node(&mut h, NodeId(n.parent));
        }
    }
    for &id in &group.off {
        kind(&mut h, id);
    }
    for s in &group.swaps {
        kind(&mut h, s.node);
        match s.with {
            Text::Copy(c) => node(&mut h, c),
            Text::Span(a, b) => {
                node(&mut h, a);
                node(&mut h, b);
            }
            Text::Replacement(r) => h.update(&r.to_le_bytes()),
            Text::Nothing => h.update(b"-"),
            // where it moves: before the function around it, whatever it reads
            Text::MovedBefore(to) => kind(&mut h, to),
        }
    }
    h.digest128()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The group of `tree` whose nodes read `texts`.
    fn group_of(tree: &Tree, texts: &[&str]) -> Group {
        let reads = |g: &Group| {
            g.off.iter().map(|&id| tree.text(id)).eq(texts.iter().map(|t| t.as_bytes()))
        };
        groups(tree).into_iter().find(reads).expect("the group")
    }

    #[test]
    fn an_access_specifier_that_failed_is_tried_again_once_its_class_changed() {
        let fe = crate::language::by_name("cpp").expect("cpp").frontend().expect("front-end");
        let parse = |text: &str| fe.parse(Arc::from(text.as_bytes()));
        let mut memory = GroupMemory::default();
        let before = parse("class A {\n  int x;\n  private:\n  int y;\n};\nint a;\n");
        memory.remember(&before, [&group_of(&before, &["private"])]);
        let same = parse("class A {\n  int x;\n  private:\n  int y;\n};\n");
        assert!(memory.knows(&same, &group_of(&same, &["private"])));
        let after = parse("class A {\n  private:\n  int y;\n};\n");
        assert!(!memory.knows(&after, &group_of(&after, &["private"])));
    }
}
