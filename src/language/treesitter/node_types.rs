//! What a tree-sitter grammar says about itself: its kind and field names
//! (the [`Vocabulary`] grammar data is resolved against) and its
//! `node-types.json` (`NODE_TYPES` in each grammar crate), which tells for
//! each kind which children are required, optional or repeated, and which
//! kinds may stand in each place.

use std::collections::{BTreeMap, HashMap, HashSet};

use anyhow::{bail, Context, Result};
use serde::Deserialize;
use tree_sitter::Language;

use crate::language::tables::{Tables, Vocabulary};
use crate::syntax::policy::SlotInfo;

#[derive(Deserialize)]
struct NodeType {
    #[serde(rename = "type")]
    kind: String,
    named: bool,
    #[serde(default)]
    fields: BTreeMap<String, ChildSpec>,
    children: Option<ChildSpec>,
    #[serde(default)]
    subtypes: Vec<TypeRef>,
}

#[derive(Deserialize)]
struct ChildSpec {
    multiple: bool,
    required: bool,
    types: Vec<TypeRef>,
}

#[derive(Deserialize)]
struct TypeRef {
    #[serde(rename = "type")]
    kind: String,
    named: bool,
}

/// A grammar's kinds, fields and node types.
pub(super) struct Grammar<'l> {
    language: &'l Language,
    node_types: Vec<NodeType>,
    /// Kind ids by (name, named): one name can have several ids (aliases).
    ids: HashMap<(String, bool), Vec<u16>>,
    /// The name of every kind id.
    names: Vec<Box<str>>,
    /// Supertypes by name: their index in `node_types`.
    supertypes: HashMap<String, usize>,
}

impl<'l> Grammar<'l> {
    pub(super) fn new(language: &'l Language, node_types: &str) -> Result<Grammar<'l>> {
        let node_types: Vec<NodeType> =
            serde_json::from_str(node_types).context("cannot read the grammar's node types")?;
        let kind_count = language.node_kind_count();
        let mut ids: HashMap<(String, bool), Vec<u16>> = HashMap::new();
        let mut names = Vec::with_capacity(kind_count);
        for id in 0..kind_count as u16 {
            let name = language.node_kind_for_id(id).unwrap_or("");
            names.push(Box::from(name));
            if language.node_kind_is_visible(id) || language.node_kind_is_supertype(id) {
                let key = (name.to_string(), language.node_kind_is_named(id));
                ids.entry(key).or_default().push(id);
            }
        }
        let supertypes = node_types
            .iter()
            .enumerate()
            .filter(|(_, t)| !t.subtypes.is_empty())
            .map(|(i, t)| (t.kind.clone(), i))
            .collect();
        Ok(Grammar { language, node_types, ids, names, supertypes })
    }

    fn subtypes(&self, name: &str) -> Option<&[TypeRef]> {
        self.supertypes.get(name).map(|&i| self.node_types[i].subtypes.as_slice())
    }

    /// Every name a place accepts: its listed types and, through
    /// supertypes, theirs.
    fn accepted<'n>(&'n self, types: &'n [TypeRef]) -> HashSet<&'n str> {
        let mut seen = HashSet::new();
        let mut todo: Vec<&str> =
            types.iter().filter(|t| t.named).map(|t| t.kind.as_str()).collect();
        while let Some(n) = todo.pop() {
            if seen.insert(n) {
                if let Some(subs) = self.subtypes(n) {
                    todo.extend(subs.iter().filter(|s| s.named).map(|s| s.kind.as_str()));
                }
            }
        }
        seen
    }

    /// What the node types say about every place (a field of a kind, or its
    /// children outside fields), given the compiled grammar data.
    pub(super) fn places(&self, tables: &Tables) -> Result<Places> {
        let stride = self.language.field_count() + 1;
        let kinds = self.language.node_kind_count();
        let mut places = Places {
            stride,
            slots: vec![Slot::Fixed; kinds * stride],
            replacements: vec![Vec::new(); kinds * stride],
            slot_ids: vec![0; kinds * stride],
            slot_infos: vec![SlotInfo::default()],
        };
        for t in self.node_types.iter().filter(|t| t.subtypes.is_empty()) {
            let Some(kind_ids) = self.ids.get(&(t.kind.clone(), t.named)) else { continue };
            let mut specs: Vec<(usize, &ChildSpec)> = Vec::new();
            if let Some(c) = &t.children {
                specs.push((0, c));
            }
            for (name, spec) in &t.fields {
                specs.push((self.field(name)? as usize, spec));
            }
            for (slot_index, spec) in specs {
                let slot =
                    if spec.required && !spec.multiple { Slot::Required } else { Slot::Deletable };
                let names = self.accepted(&spec.types);
                let usable: Vec<u16> = (0..tables.entry_names.len() as u16)
                    .filter(|&e| names.contains(tables.entry_names[e as usize].as_str()))
                    .collect();
                // the kinds hoisting moves that may stand here
                let mut accepts: Vec<u16> = names
                    .iter()
                    .flat_map(|n| self.ids.get(&(n.to_string(), true)).into_iter().flatten())
                    .copied()
                    .filter(|&k| tables.kind(k).hoist)
                    .collect();
                accepts.sort_unstable();
                accepts.dedup();
                let slot_id = if accepts.is_empty() {
                    0
                } else {
                    let info = SlotInfo { repeated: spec.multiple, accepts: accepts.into() };
                    places.slot_infos.push(info);
                    u16::try_from(places.slot_infos.len() - 1).context("too many grammar slots")?
                };
                for &k in kind_ids {
                    let at = k as usize * stride + slot_index;
                    places.slots[at] = slot;
                    places.replacements[at] = usable.clone();
                    places.slot_ids[at] = slot_id;
                }
            }
        }
        Ok(places)
    }
}

impl Vocabulary for Grammar<'_> {
    fn kind_count(&self) -> usize {
        self.language.node_kind_count()
    }

    fn names(&self) -> Vec<Box<str>> {
        self.names.clone()
    }

    fn named(&self, name: &str) -> Result<Vec<u16>> {
        let mut out = Vec::new();
        let mut todo = vec![name];
        while let Some(n) = todo.pop() {
            if let Some(subs) = self.subtypes(n) {
                todo.extend(subs.iter().filter(|s| s.named).map(|s| s.kind.as_str()));
            } else if let Some(v) = self.ids.get(&(n.to_string(), true)) {
                out.extend(v);
            } else {
                bail!("unknown node kind {n:?}");
            }
        }
        Ok(out)
    }

    fn is_supertype(&self, name: &str) -> bool {
        self.subtypes(name).is_some()
    }

    fn tokens(&self, text: &str) -> Result<Vec<u16>> {
        match self.ids.get(&(text.to_string(), false)) {
            Some(v) => Ok(v.clone()),
            None => bail!("unknown separator token {text:?}"),
        }
    }

    fn field(&self, name: &str) -> Result<u16> {
        match self.language.field_id_for_name(name) {
            Some(f) => Ok(f.get()),
            None => bail!("unknown field {name:?}"),
        }
    }
}

/// What the grammar says about a child in one place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    /// Not described by the node types (anonymous tokens, mostly).
    Fixed,
    /// Must be present: can only be replaced.
    Required,
    /// Optional, or one of several: can be deleted.
    Deletable,
}

/// Per place (`kind * stride + field`, field 0 for children outside any
/// field): what a child there may become.
#[derive(Debug)]
pub(super) struct Places {
    pub stride: usize,
    pub slots: Vec<Slot>,
    /// The replacement entries whose name the place accepts (the kind
    /// itself or a supertype it lists), most specific first.
    pub replacements: Vec<Vec<u16>>,
    /// The place's index in `slot_infos` (0: accepts nothing hoisting moves).
    pub slot_ids: Vec<u16>,
    /// The hoisting slots, for [`Policy::slots`](crate::syntax::policy::Policy::slots).
    pub slot_infos: Vec<SlotInfo>,
}

impl Places {
    pub(super) fn index(&self, parent_kind: u16, field: u16) -> usize {
        parent_kind as usize * self.stride + field as usize
    }
}
