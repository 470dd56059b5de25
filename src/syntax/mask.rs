//! The inclusion mask: one bit per node, set when the node is switched off,
//! and the hoists.
//!
//! A candidate is the current mask with some more units switched off (or one
//! more hoist). What "off" means for a node (deleted, or replaced by a minimal
//! form) is the node's [`Action`](super::tree::Action); the mask only says
//! which nodes are off. A node under an off ancestor is gone whatever its own
//! bit says. A [`Hoist`] replaces a node by a run of its descendants (its
//! [`Target`]): all of the node but that run (and a splice's head) is gone.
//! A [`Swap`] writes a node as another text: a replacement of the grammar
//! data, or the original text of another node (coordinated deletion's
//! typedef made its type at every use), or nothing, its text moved before
//! another node (a local made global).

use super::tree::NodeId;

/// What stays of a hoisted node: a run of nodes in source order, from
/// `first` to `last` (siblings or nested alike; one node when they are the
/// same), and for a splice also the node's own beginning up to the end of
/// its child `head` (`if (c)` of `if (c) ; else B`, which becomes
/// `if (c) B`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Target {
    pub first: NodeId,
    pub last: NodeId,
    pub head: Option<NodeId>,
}

impl Target {
    /// The run from `first` to `last`.
    pub fn run(first: NodeId, last: NodeId) -> Target {
        Target { first, last, head: None }
    }

    /// One node.
    pub fn node(id: NodeId) -> Target {
        Target::run(id, id)
    }
}

/// `node` is replaced by the run `to` of its descendants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hoist {
    pub node: NodeId,
    pub to: Target,
}

/// `node` written as another text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swap {
    pub node: NodeId,
    pub with: Text,
}

/// What a swapped node is written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Text {
    /// One of the tree's replacement texts, by index.
    Replacement(u16),
    /// The original text of another node.
    Copy(NodeId),
    /// The original text from the start of one node to the end of another
    /// after it (a struct's head, `struct s`, up to its tag).
    Span(NodeId, NodeId),
    /// No text: a token no removal takes alone, gone with all others of
    /// its kind (a sweep's `;`).
    Nothing,
    /// No text here: the node's own text moves to just before another
    /// node, on a line of its own (a local declaration made global, before
    /// its function).
    MovedBefore(NodeId),
}

/// A fixed-size bitset over the node ids of one tree.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Mask {
    words: Vec<u64>,
    len: usize,
    /// Sorted by node, one per node.
    hoists: Vec<Hoist>,
    /// Sorted by node, one per node.
    swaps: Vec<Swap>,
}

impl Mask {
    /// A mask over `len` nodes with every node kept.
    pub fn new(len: usize) -> Mask {
        Mask { words: vec![0; len.div_ceil(64)], len, hoists: Vec::new(), swaps: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn is_off(&self, id: NodeId) -> bool {
        let i = id.index();
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    pub fn set_off(&mut self, id: NodeId) {
        let i = id.index();
        debug_assert!(i < self.len);
        self.words[i / 64] |= 1 << (i % 64);
    }

    /// This mask with every node of `ids` switched off as well.
    pub fn with_off(&self, ids: &[NodeId]) -> Mask {
        let mut m = self.clone();
        for &id in ids {
            m.set_off(id);
        }
        m
    }

    /// This mask with one more hoist (replacing any earlier one of the same node).
    pub fn with_hoist(&self, hoist: Hoist) -> Mask {
        let mut m = self.clone();
        match m.hoists.binary_search_by_key(&hoist.node, |h| h.node) {
            Ok(i) => m.hoists[i] = hoist,
            Err(i) => m.hoists.insert(i, hoist),
        }
        m
    }

    /// The hoists, sorted by the replaced node.
    pub fn hoists(&self) -> &[Hoist] {
        &self.hoists
    }

    /// This mask with these swaps as well (each replacing any earlier one
    /// of the same node).
    pub fn with_swaps(&self, swaps: &[Swap]) -> Mask {
        let mut m = self.clone();
        for &swap in swaps {
            match m.swaps.binary_search_by_key(&swap.node, |s| s.node) {
                Ok(i) => m.swaps[i] = swap,
                Err(i) => m.swaps.insert(i, swap),
            }
        }
        m
    }

    /// The swaps, sorted by node.
    pub fn swaps(&self) -> &[Swap] {
        &self.swaps
    }

    /// The first switched-off node with an id at or after `from`.
    pub fn next_off(&self, from: u32) -> Option<NodeId> {
        let from = from as usize;
        if from >= self.len {
            return None;
        }
        let mut w = from / 64;
        let mut bits = self.words[w] & (u64::MAX << (from % 64));
        loop {
            if bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                return (i < self.len).then_some(NodeId(i as u32));
            }
            w += 1;
            if w == self.words.len() {
                return None;
            }
            bits = self.words[w];
        }
    }

    /// Number of switched-off nodes.
    pub fn count_off(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
}

impl std::fmt::Debug for Mask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut off = Vec::new();
        let mut next = self.next_off(0);
        while let Some(id) = next {
            off.push(id.0);
            next = self.next_off(id.0 + 1);
        }
        f.debug_struct("Mask")
            .field("off", &off)
            .field("hoists", &self.hoists)
            .field("swaps", &self.swaps)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_off_matches_a_linear_scan() {
        let mut m = Mask::new(200);
        for i in [0u32, 5, 63, 64, 65, 127, 128, 199] {
            m.set_off(NodeId(i));
        }
        for from in 0..=201 {
            let naive = (from..200).find(|&i| m.is_off(NodeId(i))).map(NodeId);
            assert_eq!(m.next_off(from), naive, "from {from}");
        }
        assert_eq!(m.count_off(), 8);
    }

    #[test]
    fn empty_mask_has_nothing_off() {
        let m = Mask::new(0);
        assert_eq!(m.next_off(0), None);
        let m = Mask::new(70);
        assert_eq!(m.next_off(0), None);
        assert_eq!(m.count_off(), 0);
    }
}
