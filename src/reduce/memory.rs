//! The failure memory of a plan: changes that were not interesting, known
//! again across parses of a changing text by a key of what they change, so
//! a plan does not test them again while that text reads the same. One
//! type for hoists and coordinated deletion's groups, which both learn the
//! names the renaming pass changed.

use std::collections::{HashMap, HashSet};
use std::marker::PhantomData;

use crate::syntax::Tree;

/// A change a [`FailureMemory`] remembers: how it is told apart across
/// parses of changing text.
pub(crate) trait Remembered {
    /// The key of `self` in `tree`; `renamed` reads a name token's text as
    /// it was before the renaming pass.
    fn key(&self, tree: &Tree, renamed: &Renamed) -> u128;
}

/// The changes of kind `T` that failed so far, by their keys, and the
/// names the renaming pass changed.
#[derive(Debug)]
pub(crate) struct FailureMemory<T> {
    failed: HashSet<u128>,
    renamed: Renamed,
    of: PhantomData<fn(&T)>,
}

impl<T> Default for FailureMemory<T> {
    fn default() -> FailureMemory<T> {
        FailureMemory { failed: HashSet::new(), renamed: Renamed::default(), of: PhantomData }
    }
}

impl<T: Remembered> FailureMemory<T> {
    /// Remembers changes of `tree` that were not interesting.
    pub(crate) fn remember<'t>(&mut self, tree: &Tree, failed: impl IntoIterator<Item = &'t T>)
    where
        T: 't,
    {
        self.failed.extend(failed.into_iter().map(|c| c.key(tree, &self.renamed)));
    }

    /// Whether `change` of `tree` is known to fail.
    pub(crate) fn knows(&self, tree: &Tree, change: &T) -> bool {
        !self.failed.is_empty() && self.failed.contains(&change.key(tree, &self.renamed))
    }

    /// Whether nothing failed yet (so nothing needs a key).
    pub(crate) fn is_empty(&self) -> bool {
        self.failed.is_empty()
    }

    /// Learns the names the renaming pass changed from the text before it
    /// and after it (see [`Renamed::learn`]).
    pub(crate) fn renamed(&mut self, before: &Tree, after: &Tree) {
        self.renamed.learn(before, after);
    }
}

/// The names the renaming pass gave, each with the name it replaced.
#[derive(Debug, Default)]
pub(crate) struct Renamed(HashMap<Box<[u8]>, Box<[u8]>>);

impl Renamed {
    /// Learns the names the renaming pass changed from the text before it
    /// and after it, so that what failed before it is still known after it
    /// (it changes nothing else: the two parses have the same nodes, whose
    /// name tokens differ where a name was renamed).
    pub(crate) fn learn(&mut self, before: &Tree, after: &Tree) {
        if before.len() != after.len() {
            return;
        }
        for (i, (b, a)) in before.nodes().iter().zip(after.nodes()).enumerate() {
            let id = crate::syntax::NodeId(i as u32);
            let (old, new) = (before.text(id), after.text(id));
            if b.kind != a.kind || a.subtree_end != i as u32 + 1 || old == new {
                continue;
            }
            let first = self.0.get(old).cloned().unwrap_or_else(|| old.into());
            self.0.insert(new.into(), first);
        }
    }

    /// A token's `text` as it read before the renaming pass.
    pub(crate) fn read<'t>(&'t self, text: &'t [u8]) -> &'t [u8] {
        self.0.get(text).map_or(text, |old| old)
    }
}
