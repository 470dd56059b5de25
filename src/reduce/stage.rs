//! Where a search in rounds is in its round: probing, merging or folding.
//! Both searches in rounds ([`Batch`](super::Batch) over blocks,
//! [`HoistBatch`](super::HoistBatch) over hoists) walk the same stages.

/// Where a batch is in its round (of blocks in [`Batch`](super::Batch), of
/// hoists in [`HoistBatch`](super::HoistBatch)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    /// Probing change `next` of the round.
    Probing,
    /// Committing every block that passed.
    Merging,
    /// The merge failed: adding the blocks that passed one at a time, in
    /// the round's order, each kept if the mask with it is still
    /// interesting; the `k`-th that passed is next.
    Fold { k: usize },
}
