//! What the units know of names and words: the units that use a name a
//! unit declares (for `Batch`'s users), and the words of the leaves' texts
//! (for the order of `Batch`'s fold).

use std::collections::HashMap;

use super::{Units, NONE};
use crate::reduce::groups::name_uses;
use crate::syntax::tree::{NodeId, Tree};
use crate::syntax::Mask;

impl Units {
    /// This view, knowing which name tokens use which declaration (for
    /// [`Units::users`]; nothing for a language without names).
    pub fn with_uses(self, tree: &Tree) -> Units {
        Units { uses: name_uses(tree), ..self }
    }

    /// This view, knowing the words of its leaves (see
    /// [`Units::words_in`]).
    pub fn with_words(self, tree: &Tree) -> Units {
        let mut ids: HashMap<&[u8], u32> = HashMap::new();
        let mut words = Vec::new();
        for (i, n) in tree.nodes().iter().enumerate() {
            if n.subtree_end != i as u32 + 1 {
                continue;
            }
            let text = tree.text(NodeId(i as u32));
            let word = |b: &u8| crate::syntax::is_word_byte(*b);
            let mut at = 0;
            while at < text.len() {
                let start = at;
                if !word(&text[at]) {
                    at += 1;
                    continue;
                }
                at += text[at..].iter().take_while(|b| word(b)).count();
                if text[start].is_ascii_digit() {
                    // a number, `0x1f` too
                    continue;
                }
                let next = ids.len() as u32;
                let id = *ids.entry(&text[start..at]).or_insert(next);
                words.push((NodeId(i as u32), id));
            }
        }
        Units { words, ..self }
    }

    /// The words of the leaves present under `mask`, each with the
    /// nearest of `holders` at or above its leaf, if any; `holders` maps
    /// a node to its holder's number.
    pub fn words_in(
        &self,
        mask: &Mask,
        holders: &HashMap<NodeId, usize>,
    ) -> Vec<(u32, Option<usize>)> {
        let mut out = Vec::new();
        for &(leaf, word) in &self.words {
            if !self.is_present(leaf, mask) {
                continue;
            }
            let mut at = leaf.0;
            let holder = loop {
                if let Some(&h) = holders.get(&NodeId(at)) {
                    break Some(h);
                }
                at = self.up[at as usize];
                if at == NONE {
                    break None;
                }
            };
            out.push((word, holder));
        }
        out
    }

    /// For each of `items` (units of `level`): the positions in `items` of
    /// the others that use a name it declares, or `None` when a use still
    /// present lies outside all of `items` (no deletion at this level
    /// takes that use with the declaration). Empty without
    /// [`Units::with_uses`].
    pub fn users(&self, level: usize, items: &[NodeId], mask: &Mask) -> Vec<Option<Vec<usize>>> {
        if self.uses.is_empty() {
            return Vec::new();
        }
        let position: HashMap<NodeId, usize> =
            items.iter().enumerate().map(|(p, &u)| (u, p)).collect();
        let mut users = vec![Some(Vec::new()); items.len()];
        for &(decl, token) in &self.uses {
            let Some(&d) = self.unit_at(decl, level).and_then(|u| position.get(&u)) else {
                continue;
            };
            match self.unit_at(token, level).and_then(|u| position.get(&u)) {
                Some(&u) if u == d => {}
                Some(&u) => {
                    if let Some(list) = &mut users[d] {
                        list.push(u);
                    }
                }
                None if self.is_present(token, mask) => users[d] = None,
                None => {}
            }
        }
        for list in users.iter_mut().flatten() {
            list.sort_unstable();
            list.dedup();
        }
        users
    }

    /// The unit of `level` at or above node `id`, if any.
    pub(super) fn unit_at(&self, id: NodeId, level: usize) -> Option<NodeId> {
        let mut at = if self.unit[id.index()] { id.0 } else { self.up[id.index()] };
        while at != NONE && self.level_of[at as usize] as usize > level {
            at = self.up[at as usize];
        }
        (at != NONE && self.level_of[at as usize] as usize == level).then_some(NodeId(at))
    }
}
