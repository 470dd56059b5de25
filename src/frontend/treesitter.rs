//! The generic tree-sitter front-end: C, JavaScript and JSON are rows of it.
//!
//! What may be deleted comes from the grammar's own `node-types.json`
//! (`NODE_TYPES` in each grammar crate): a child that the parent's node type
//! lists as optional, or as one of a repeated list, may be deleted; a required
//! child may only be replaced by the minimal form its kind has in the grammar
//! data (`grammars/<lang>.toml`), or kept. Comments and other extras may always
//! be deleted, and so may anything inside a syntax error node, whose shape the
//! grammar says nothing about. Nothing here is specific to one language.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use serde::Deserialize;
use tree_sitter::{InputEdit, Language, Parser, Point};

use super::{Frontend, GuardBase, LangInfo};
use crate::grammar::GrammarData;
use crate::tree::{
    flags, Action, KindNames, Shrink, SlotInfo, Tree, TreeBuilder, TreeInfo, ERROR_KIND,
};

/// Builds the front-end of one registry row.
pub(crate) fn build(
    info: &LangInfo,
    language: Language,
    node_types: &str,
) -> Result<Box<dyn Frontend>> {
    let (file, text) = info.grammar;
    let data = GrammarData::parse(file, text)?;
    let frontend = TreeSitterFrontend::new(language, node_types, &data)
        .with_context(|| format!("cannot build the {} front-end from {file}", info.name))?;
    Ok(Box::new(frontend))
}

/// What the grammar says about a child in one slot (a field, or the unnamed children).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// Not described by the node types (anonymous tokens, mostly).
    Fixed,
    /// Must be present: can only be replaced.
    Required,
    /// Optional, or one of several: can be deleted.
    Deletable,
}

#[derive(Debug)]
struct ListRule {
    separators: Vec<u16>,
    field: Option<u16>,
}

/// The grammar data and node types resolved to kind and field ids.
#[derive(Debug)]
struct Rules {
    /// Slots per kind: `field_count + 1` (slot 0: children outside any field).
    stride: usize,
    slots: Vec<Slot>,
    atomic: Vec<bool>,
    /// Per slot: the replacement entries whose name the slot accepts (the
    /// kind itself or a supertype it lists), most specific first.
    slot_replacements: Vec<Vec<u16>>,
    /// Per replacement entry: the concrete kinds it covers.
    entry_kinds: Vec<Vec<bool>>,
    /// Per kind: 1 if hoisting may move it.
    member: Vec<u8>,
    /// Per slot: its index in [`TreeInfo::slots`] (0: accepts nothing hoisting moves).
    slot_ids: Vec<u16>,
    list: Vec<Option<usize>>,
    lists: Vec<ListRule>,
    /// Every separator token of any list: inside a syntax error node, whose
    /// shape the grammar does not give, these separate its children.
    separators: Vec<u16>,
    /// (parent kind, field id or 0, child kind or `u16::MAX` for any).
    keep: HashSet<(u16, u16, u16)>,
}

#[derive(Debug)]
struct TreeSitterFrontend {
    language: Language,
    rules: Rules,
    info: Arc<TreeInfo>,
}

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

impl TreeSitterFrontend {
    fn new(language: Language, node_types: &str, data: &GrammarData) -> Result<Self> {
        let mut parser = Parser::new();
        parser.set_language(&language).context("the grammar's ABI version is not supported")?;
        let node_types: Vec<NodeType> =
            serde_json::from_str(node_types).context("cannot read the grammar's node types")?;

        let kind_count = language.node_kind_count();
        let stride = language.field_count() + 1;
        let mut ids: HashMap<(&str, bool), Vec<u16>> = HashMap::new();
        let mut names = Vec::with_capacity(kind_count);
        for id in 0..kind_count as u16 {
            let name = language.node_kind_for_id(id).unwrap_or("");
            names.push(Box::from(name));
            if language.node_kind_is_visible(id) || language.node_kind_is_supertype(id) {
                ids.entry((name, language.node_kind_is_named(id))).or_default().push(id);
            }
        }
        let subtypes: HashMap<&str, &[TypeRef]> = node_types
            .iter()
            .filter(|t| !t.subtypes.is_empty())
            .map(|t| (t.kind.as_str(), t.subtypes.as_slice()))
            .collect();
        let field_id = |name: &str| -> Result<u16> {
            match language.field_id_for_name(name) {
                Some(f) => Ok(f.get()),
                None => bail!("unknown field {name:?}"),
            }
        };
        // concrete named kinds a name stands for (a supertype stands for its subtypes)
        let named_kinds = |name: &str| -> Result<Vec<u16>> {
            let mut out = Vec::new();
            let mut todo = vec![name];
            while let Some(n) = todo.pop() {
                if let Some(subs) = subtypes.get(n) {
                    todo.extend(subs.iter().filter(|s| s.named).map(|s| s.kind.as_str()));
                } else if let Some(v) = ids.get(&(n, true)) {
                    out.extend(v);
                } else {
                    bail!("unknown node kind {n:?}");
                }
            }
            Ok(out)
        };

        // replacement entries: text and covered kinds; concrete kinds first
        let mut texts: Vec<Box<[u8]>> = Vec::new();
        let mut entry_kinds: Vec<Vec<bool>> = Vec::new();
        let mut entry_names: Vec<&str> = Vec::new();
        let mut entries: Vec<(&String, &String)> = data.replace.iter().collect();
        entries.sort_by_key(|(name, _)| subtypes.contains_key(name.as_str()));
        for (name, text) in entries {
            let mut covers = vec![false; kind_count];
            for k in named_kinds(name).with_context(|| format!("in replace: {name:?}"))? {
                covers[k as usize] = true;
            }
            texts.push(Box::from(text.as_bytes()));
            entry_kinds.push(covers);
            entry_names.push(name.as_str());
        }
        // every name a slot accepts: its listed types and, through supertypes, theirs
        fn accepted<'n>(
            types: &'n [TypeRef],
            subtypes: &HashMap<&'n str, &'n [TypeRef]>,
        ) -> HashSet<&'n str> {
            let mut seen = HashSet::new();
            let mut todo: Vec<&str> =
                types.iter().filter(|t| t.named).map(|t| t.kind.as_str()).collect();
            while let Some(n) = todo.pop() {
                if seen.insert(n) {
                    if let Some(subs) = subtypes.get(n) {
                        todo.extend(subs.iter().filter(|s| s.named).map(|s| s.kind.as_str()));
                    }
                }
            }
            seen
        }

        let mut member = vec![0u8; kind_count];
        for name in &data.hoist {
            for k in named_kinds(name).with_context(|| format!("in hoist: {name:?}"))? {
                member[k as usize] = 1;
            }
        }

        let mut slots = vec![Slot::Fixed; kind_count * stride];
        let mut slot_replacements = vec![Vec::new(); kind_count * stride];
        let mut slot_ids = vec![0u16; kind_count * stride];
        let mut slot_infos = vec![SlotInfo::default()];
        for t in node_types.iter().filter(|t| t.subtypes.is_empty()) {
            let Some(kind_ids) = ids.get(&(t.kind.as_str(), t.named)) else { continue };
            let mut specs: Vec<(usize, &ChildSpec)> = Vec::new();
            if let Some(c) = &t.children {
                specs.push((0, c));
            }
            for (name, spec) in &t.fields {
                specs.push((field_id(name)? as usize, spec));
            }
            for (slot_index, spec) in specs {
                let slot =
                    if spec.required && !spec.multiple { Slot::Required } else { Slot::Deletable };
                let names = accepted(&spec.types, &subtypes);
                let usable: Vec<u16> = (0..entry_names.len() as u16)
                    .filter(|&e| names.contains(entry_names[e as usize]))
                    .collect();
                // the kinds hoisting moves that may stand here
                let mut accepts: Vec<u16> = names
                    .iter()
                    .flat_map(|n| ids.get(&(*n, true)).into_iter().flatten().copied())
                    .filter(|&k| member[k as usize] != 0)
                    .collect();
                accepts.sort_unstable();
                accepts.dedup();
                let slot_id = if accepts.is_empty() {
                    0
                } else {
                    slot_infos.push(SlotInfo { repeated: spec.multiple, accepts: accepts.into() });
                    u16::try_from(slot_infos.len() - 1).context("too many grammar slots")?
                };
                for &k in kind_ids {
                    slots[k as usize * stride + slot_index] = slot;
                    slot_replacements[k as usize * stride + slot_index] = usable.clone();
                    slot_ids[k as usize * stride + slot_index] = slot_id;
                }
            }
        }

        let mut atomic = vec![false; kind_count];
        for name in &data.atomic {
            for k in named_kinds(name).with_context(|| format!("in atomic: {name:?}"))? {
                atomic[k as usize] = true;
            }
        }

        let mut list = vec![None; kind_count];
        let mut lists = Vec::new();
        for l in &data.list {
            let ctx = || format!("in list for {:?}", l.parent);
            let mut separators = Vec::new();
            for s in &l.separators {
                match ids.get(&(s.as_str(), false)) {
                    Some(v) => separators.extend(v),
                    None => bail!("unknown separator token {s:?} ({})", ctx()),
                }
            }
            let field = l.field.as_deref().map(field_id).transpose().with_context(ctx)?;
            for k in named_kinds(&l.parent).with_context(ctx)? {
                list[k as usize] = Some(lists.len());
            }
            lists.push(ListRule { separators, field });
        }

        let mut shrink = vec![Shrink::No; kind_count];
        for (name, how) in &data.shrink {
            for k in named_kinds(name).with_context(|| format!("in shrink: {name:?}"))? {
                shrink[k as usize] = (*how).into();
            }
        }

        let mut all_separators: Vec<u16> =
            lists.iter().flat_map(|l| l.separators.iter().copied()).collect();
        all_separators.sort_unstable();
        all_separators.dedup();

        let mut keep = HashSet::new();
        for k in &data.keep {
            let ctx = || format!("in keep for {:?}", k.parent);
            let field =
                k.field.as_deref().map(field_id).transpose().with_context(ctx)?.unwrap_or(0);
            let kinds = match &k.kind {
                Some(name) => named_kinds(name).with_context(ctx)?,
                None => vec![u16::MAX],
            };
            for p in named_kinds(&k.parent).with_context(ctx)? {
                for &c in &kinds {
                    keep.insert((p, field, c));
                }
            }
        }

        Ok(TreeSitterFrontend {
            language,
            rules: Rules {
                stride,
                slots,
                atomic,
                slot_replacements,
                entry_kinds,
                member,
                slot_ids,
                list,
                lists,
                separators: all_separators,
                keep,
            },
            info: Arc::new(TreeInfo {
                kinds: KindNames::new(names),
                replacements: texts,
                slots: slot_infos,
                shrink,
                squeeze: data.squeeze,
                order: data.order.into(),
                operators_glue: data.operators_glue,
                tokens: true,
            }),
        })
    }

    fn parser(&self) -> Option<Parser> {
        let mut parser = Parser::new();
        parser.set_language(&self.language).ok()?;
        Some(parser)
    }

    /// Flags, slot and action of a node, given its parent and field.
    fn classify(
        &self,
        parent: Option<&crate::tree::Node>,
        node: &tree_sitter::Node<'_>,
        field: u16,
    ) -> (u8, u16, Action) {
        let (flags, action) = self.classify_action(parent, node, field);
        let r = &self.rules;
        let slot = match parent {
            Some(p) if !node.is_error() && p.kind != ERROR_KIND => {
                r.slot_ids[p.kind as usize * r.stride + field as usize]
            }
            _ => 0,
        };
        (flags, slot, action)
    }

    fn classify_action(
        &self,
        parent: Option<&crate::tree::Node>,
        node: &tree_sitter::Node<'_>,
        field: u16,
    ) -> (u8, Action) {
        let r = &self.rules;
        let kind = if node.is_error() { ERROR_KIND } else { node.kind_id() };
        let mut f = 0;
        if node.is_named() {
            f |= flags::NAMED;
        }
        if node.is_extra() {
            f |= flags::EXTRA;
        }
        if node.is_error() {
            f |= flags::ERROR;
        }
        if node.is_missing() {
            f |= flags::MISSING;
        }
        if kind == ERROR_KIND || r.list.get(kind as usize).is_some_and(Option::is_some) {
            f |= flags::LIST;
        }
        let Some(parent) = parent else { return (f, Action::Keep) };
        if parent.has(flags::LIST) && !node.is_extra() {
            let (separators, element_field) =
                match r.list.get(parent.kind as usize).copied().flatten() {
                    Some(l) => (&r.lists[l].separators, r.lists[l].field),
                    None => (&r.separators, None), // a syntax error node
                };
            if separators.contains(&kind) {
                f |= flags::SEPARATOR;
            } else if node.is_named() && element_field.is_none_or(|fl| fl == field) {
                f |= flags::ELEMENT;
            }
        }
        if node.is_missing() || node.start_byte() == node.end_byte() {
            return (f, Action::Keep);
        }
        if f & flags::SEPARATOR != 0 {
            return (f, Action::Keep); // goes with its elements
        }
        if node.is_extra() || node.is_error() || parent.kind == ERROR_KIND {
            return (f, Action::Delete);
        }
        let index = parent.kind as usize * r.stride + field as usize;
        if field == 0 && !node.is_named() {
            // punctuation and keywords outside fields are the syntax itself
            return (f, Action::Keep);
        }
        if r.keep.contains(&(parent.kind, field, u16::MAX))
            || r.keep.contains(&(parent.kind, field, kind))
        {
            return (f | flags::KEPT, Action::Keep);
        }
        if r.slots[index] == Slot::Deletable {
            return (f, Action::Delete);
        }
        if node.is_named() {
            let len = node.end_byte() - node.start_byte();
            for &e in &r.slot_replacements[index] {
                if r.entry_kinds[e as usize][kind as usize] {
                    if self.info.replacements[e as usize].len() < len {
                        return (f, Action::Replace(e));
                    }
                    break;
                }
            }
        }
        (f, Action::Keep)
    }
}

impl Frontend for TreeSitterFrontend {
    fn parse(&self, src: Arc<[u8]>) -> Tree {
        let mut b = TreeBuilder::new(src.clone());
        let parsed = self.parser().and_then(|mut p| p.parse(&src, None));
        let Some(ts) = parsed else {
            // only a cancelled or misconfigured parser returns nothing; keep the
            // input whole rather than fail
            b.open(0, flags::NAMED, 0, src.len());
            return b.finish(self.info.clone());
        };
        let mut cursor = ts.walk();
        loop {
            let node = cursor.node();
            let field = cursor.field_id().map_or(0, |f| f.get());
            let parent = b.current().map(|p| b.node(p).clone());
            let (f, slot, action) = self.classify(parent.as_ref(), &node, field);
            let kind = if node.is_error() { ERROR_KIND } else { node.kind_id() };
            let id = b.open(kind, f, node.start_byte(), node.end_byte());
            let n = b.node_mut(id);
            n.action = action;
            n.slot = slot;
            n.member = if node.is_error() {
                0
            } else {
                self.rules.member.get(kind as usize).copied().unwrap_or(0)
            };
            let atomic = self.rules.atomic.get(kind as usize).copied().unwrap_or(false);
            if !atomic && cursor.goto_first_child() {
                continue;
            }
            b.close();
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    b.set_error_count(count_errors(&ts));
                    return b.finish(self.info.clone());
                }
                b.close();
            }
        }
    }

    fn syntax_errors(&self, src: &[u8]) -> usize {
        match self.parser().and_then(|mut p| p.parse(src, None)) {
            Some(ts) => count_errors(&ts),
            None => usize::MAX,
        }
    }

    fn guard_base(&self, src: &[u8]) -> Option<GuardBase> {
        let tree = self.parser()?.parse(src, None)?;
        Some(Box::new(Base { tree, src: src.to_vec() }))
    }

    fn syntax_errors_from(&self, base: &GuardBase, text: &[u8]) -> (usize, Option<GuardBase>) {
        let Some(base) = base.downcast_ref::<Base>() else {
            return (self.syntax_errors(text), None);
        };
        let old = &base.src;
        // one edit covering where the texts differ
        let prefix = old.iter().zip(text).take_while(|(a, b)| a == b).count();
        let room = old.len().min(text.len()) - prefix;
        let suffix =
            old.iter().rev().zip(text.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
        let (old_end, new_end) = (old.len() - suffix, text.len() - suffix);
        let start = advance(text, (0, Point::new(0, 0)), prefix);
        let mut tree = base.tree.clone();
        tree.edit(&InputEdit {
            start_byte: prefix,
            old_end_byte: old_end,
            new_end_byte: new_end,
            start_position: start.1,
            old_end_position: advance(old, start, old_end).1,
            new_end_position: advance(text, start, new_end).1,
        });
        match self.parser().and_then(|mut p| p.parse(text, Some(&tree))) {
            Some(ts) => {
                let errors = count_errors(&ts);
                (errors, Some(Box::new(Base { tree: ts, src: text.to_vec() })))
            }
            None => (usize::MAX, None),
        }
    }
}

/// A parse kept for the syntax guard: the tree and the text it is of.
struct Base {
    tree: tree_sitter::Tree,
    src: Vec<u8>,
}

/// The position of byte `to` of `text`, counting on from a known one.
fn advance(text: &[u8], from: (usize, Point), to: usize) -> (usize, Point) {
    let (mut row, mut column) = (from.1.row, from.1.column);
    for (i, &c) in text[from.0..to].iter().enumerate() {
        if c == b'\n' {
            row += 1;
            column = to - (from.0 + i + 1);
        }
    }
    if row == from.1.row {
        column += to - from.0;
    }
    (to, Point::new(row, column))
}

/// Error and missing nodes in a tree-sitter tree, visiting only subtrees that have any.
fn count_errors(tree: &tree_sitter::Tree) -> usize {
    let root = tree.root_node();
    if !root.has_error() {
        return 0;
    }
    let mut count = 0;
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            count += 1;
        }
        if node.has_error() && !node.is_missing() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return count;
            }
        }
    }
}
