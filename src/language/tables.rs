//! One compiler from grammar data (`grammars/<lang>.toml`) to the per-kind
//! tables a front-end classifies nodes with, shared by every front-end.
//!
//! A front-end says how its kinds and fields are named (a [`Vocabulary`]);
//! [`Tables::compile`] resolves every name the data uses against it, so a
//! misspelt kind is an error when the front-end is built (and `cargo test`
//! builds every language), never a rule that silently does nothing.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use anyhow::{bail, Context, Result};

use super::grammar::{
    FunctionData, GlobalsData, GrammarData, LayoutData, OrderData, StatementData, SweepData,
};
use crate::syntax::policy::{
    Declare, FnPart, FnTexts, Global, KindPolicy, Policy, Rules, Shrink, SlotInfo, Stands, Swept,
};
use crate::syntax::tree::roles;

/// How a front-end names its node kinds and fields.
pub(crate) trait Vocabulary {
    /// Number of kind ids (kinds are `0..kind_count()`).
    fn kind_count(&self) -> usize;

    /// The name of every kind id.
    fn names(&self) -> Vec<Box<str>>;

    /// The concrete named kinds `name` stands for: the kind itself, or every
    /// kind under a supertype.
    fn named(&self, name: &str) -> Result<Vec<u16>>;

    /// Whether `name` is a supertype; an entry for a concrete kind wins over
    /// one for its supertype.
    fn is_supertype(&self, name: &str) -> bool;

    /// The anonymous token kinds spelled `text` (list separators).
    fn tokens(&self, text: &str) -> Result<Vec<u16>>;

    /// The id of a field (0 stands for "outside any field").
    fn field(&self, name: &str) -> Result<u16>;
}

/// One separated list: which tokens separate its elements, and the field
/// its elements are in (when not all named children are elements).
#[derive(Debug)]
pub(crate) struct ListRule {
    pub separators: Vec<u16>,
    pub field: Option<u16>,
}

/// A language's grammar data, resolved to kind and field ids: the
/// [`Policy`] its trees carry, and the tables only its front-end reads
/// while it builds them.
#[derive(Debug)]
pub(crate) struct Tables {
    /// The rules every tree of the language carries; its hoisting slots
    /// are the front-end's to give ([`Tables::set_slots`]).
    pub policy: Arc<Policy>,
    /// The language's default order of units (grammar data `order`).
    pub order: OrderData,
    /// Per replacement entry: the name it was given under (a kind or a
    /// supertype).
    pub entry_names: Vec<String>,
    /// Per entry: the concrete kinds it covers.
    pub entry_kinds: Vec<Vec<bool>>,
    /// Per entry: whether it is for coordinated deletion only (grammar data
    /// `group_replace`).
    pub entry_grouped: Vec<bool>,
    /// Per kind: its list rule, if it is a separated list.
    pub list: Vec<Option<usize>>,
    pub lists: Vec<ListRule>,
    /// Every separator token of any list: inside a syntax error node, whose
    /// shape the grammar does not give, these separate its children.
    pub separators: Vec<u16>,
    /// Children never switched off: (parent kind, field id or 0, child kind
    /// or `u16::MAX` for any).
    pub keep: HashSet<(u16, u16, u16)>,
    /// The roles of a child by its parent's kind and its field id: the
    /// place of a declared name (`roles::NAME_PLACE`), the text that may
    /// stand for it (`roles::INLINE`, grammar data `[[declare]] inline`),
    /// a splice's head and tail (`roles::HEAD`, `roles::TAIL`), a child
    /// that goes with the token before it (`roles::WITH_TOKEN_BEFORE`).
    pub child_roles: HashMap<(u16, u16), u8>,
    /// The fields of `inline` entries: in the node that holds a declared
    /// name, the child in one of them is that text too (the `value` of
    /// C's `int c = 7;`, inside the declaration's declarator).
    pub inline_fields: HashSet<u16>,
    /// Grammar data `[[chain]]`: (chain kind, field, link kind).
    pub chains: HashSet<(u16, u16, u16)>,
}

/// The replacement entries of grammar data `replace` and `group_replace`,
/// concrete kinds' entries first, then (of each) those for coordinated
/// deletion only.
struct Entries {
    texts: Vec<Box<[u8]>>,
    names: Vec<String>,
    kinds: Vec<Vec<bool>>,
    grouped: Vec<bool>,
}

impl Entries {
    fn compile(data: &GrammarData, v: &dyn Vocabulary) -> Result<Entries> {
        let plain = data.replace.iter().map(|(name, text)| (name, text, false));
        let grouped = data.group_replace.iter().map(|(name, text)| (name, text, true));
        let mut entries: Vec<(&String, &String, bool)> = plain.chain(grouped).collect();
        entries.sort_by_key(|&(name, _, grouped)| (v.is_supertype(name), grouped));
        let mut out = Entries {
            texts: Vec::new(),
            names: Vec::new(),
            kinds: Vec::new(),
            grouped: Vec::new(),
        };
        for (name, text, grouped) in entries {
            let mut covers = vec![false; v.kind_count()];
            let table = if grouped { "group_replace" } else { "replace" };
            for k in v.named(name).with_context(|| format!("in {table}: {name:?}"))? {
                covers[k as usize] = true;
            }
            out.push(name, text, covers, grouped);
        }
        Ok(out)
    }

    fn push(&mut self, name: &str, text: &str, kinds: Vec<bool>, grouped: bool) {
        self.texts.push(Box::from(text.as_bytes()));
        self.names.push(name.to_string());
        self.kinds.push(kinds);
        self.grouped.push(grouped);
    }
}

impl Tables {
    /// Resolves `data` against `vocabulary`.
    pub(crate) fn compile(data: &GrammarData, vocabulary: &dyn Vocabulary) -> Result<Tables> {
        let v = vocabulary;
        let mut kinds: Vec<KindPolicy> = v.names().into_iter().map(KindPolicy::named).collect();
        let mut entries = Entries::compile(data, v)?;
        let mut set =
            |what: &str, names: &[String], apply: &dyn Fn(&mut KindPolicy)| -> Result<()> {
                for name in names {
                    for k in v.named(name).with_context(|| format!("in {what}: {name:?}"))? {
                        apply(&mut kinds[k as usize]);
                    }
                }
                Ok(())
            };
        set("hoist", &data.hoist, &|k| k.hoist = true)?;
        set("atomic", &data.atomic, &|k| k.atomic = true)?;
        set("reparse", &data.reparse, &|k| k.reparse = true)?;
        set("namespaces", &data.namespaces, &|k| k.namespace = true)?;
        set("with_next_token", &data.with_next_token, &|k| k.with_next_token = true)?;
        set("kept_ends", &data.kept_ends, &|k| k.kept_end = true)?;
        if let Some(layout) = &data.layout {
            set("layout items", &layout.items, &|k| k.items = true)?;
        }
        for (name, how) in &data.shrink {
            let how: Shrink = (*how).into();
            set("shrink", std::slice::from_ref(name), &|k| k.shrink = how)?;
        }
        let lists = compile_lists(data, v)?;
        let keep = compile_keep(data, v)?;

        let mut child_roles = HashMap::new();
        let mut role = |parent: u16, field: u16, r: u8| {
            *child_roles.entry((parent, field)).or_insert(0) |= r;
        };
        compile_splices(data, v, &mut role)?;
        for w in &data.with_token_before {
            let ctx = || format!("in with_token_before for {:?}", w.parent);
            let field = v.field(&w.field).with_context(ctx)?;
            for p in v.named(&w.parent).with_context(ctx)? {
                role(p, field, roles::WITH_TOKEN_BEFORE);
            }
        }
        compile_bindings(data, v, &mut kinds, &mut role)?;
        if let Some(d) = &data.functions {
            // the `void` text and the prototype's, entries of no kind: only
            // groups write them
            let mut text = |t: &str| {
                entries.push(t, t, vec![false; v.kind_count()], true);
                entries.texts.len() as u16 - 1
            };
            let texts =
                FnTexts { void: text(&d.text), prototype: d.prototype.as_deref().map(text) };
            compile_functions(d, v, &mut kinds, texts, &mut role)?;
        }
        let inline_fields = child_roles
            .iter()
            .filter(|(_, &r)| r & roles::INLINE != 0)
            .map(|(&(_, f), _)| f)
            .collect();
        if let Some(d) = &data.statement {
            compile_statement(d, v, &mut kinds)?;
        }
        if let Some(d) = &data.sweep {
            compile_sweep(d, v, &mut kinds)?;
        }
        if let Some(d) = &data.globals {
            compile_globals(d, v, &mut kinds)?;
        }
        let policy = Policy {
            kinds,
            replacements: entries.texts,
            slots: Vec::new(),
            squeeze: data.squeeze,
            token_pass: data.token_pass,
            operators_glue: data.operators_glue,
            tokens: true,
            fixed_names: data.fixed_names.iter().map(|n| Box::from(n.as_bytes())).collect(),
            layout: data.layout.as_ref().map(compile_layout).transpose()?.map(Arc::new),
        };
        Ok(Tables {
            policy: Arc::new(policy),
            order: data.order,
            entry_names: entries.names,
            entry_kinds: entries.kinds,
            entry_grouped: entries.grouped,
            list: lists.of_kind,
            lists: lists.rules,
            separators: lists.separators,
            keep,
            child_roles,
            inline_fields,
            chains: compile_chains(data, v)?,
        })
    }

    /// Gives the trees' policy the hoisting slots the front-end found in
    /// its grammar; before any tree shares the policy.
    pub(crate) fn set_slots(&mut self, slots: Vec<SlotInfo>) {
        Arc::get_mut(&mut self.policy).expect("slots are set before any tree is built").slots =
            slots;
    }

    /// The record of `kind`.
    pub(crate) fn kind(&self, kind: u16) -> &KindPolicy {
        self.policy.kind(kind)
    }

    /// The roles (`roles::*`) of a child in `field` of a node of kind
    /// `parent` and roles `parent_role` (see `child_roles`).
    pub(crate) fn child_role(&self, parent: u16, parent_role: u8, field: u16) -> u8 {
        if field == 0 {
            return 0;
        }
        let role = self.child_roles.get(&(parent, field)).copied().unwrap_or(0);
        match parent_role & roles::NAME_PLACE != 0 && self.inline_fields.contains(&field) {
            true => role | roles::INLINE,
            false => role,
        }
    }

    /// The first replacement entry that covers `kind` (for front-ends
    /// without slots, where every entry applies wherever its kind stands),
    /// leaving out those for coordinated deletion only.
    pub(crate) fn replacement_of(&self, kind: u16) -> Option<u16> {
        let covers = |e: usize| self.entry_kinds[e][kind as usize] && !self.entry_grouped[e];
        let e = (0..self.entry_kinds.len()).find(|&e| covers(e))?;
        Some(e as u16)
    }

    /// Whether replacement entry `e`, for a node `len` bytes long, is for
    /// coordinated deletion only: an entry of `group_replace`, or one as
    /// long as the node (`x` by `0`), which alone would not shorten the
    /// text.
    pub(crate) fn only_in_groups(&self, e: u16, len: usize) -> bool {
        self.entry_grouped[e as usize] || self.policy.replacements[e as usize].len() == len
    }

    /// Whether a child of kind `kind` in `field` of a `parent` is kept by a rule.
    pub(crate) fn is_kept(&self, parent: u16, field: u16, kind: u16) -> bool {
        self.keep.contains(&(parent, field, u16::MAX)) || self.keep.contains(&(parent, field, kind))
    }
}

/// The separated lists of grammar data `list`.
struct Lists {
    /// Per kind, its rule's index.
    of_kind: Vec<Option<usize>>,
    rules: Vec<ListRule>,
    /// Every separator token of any list, sorted.
    separators: Vec<u16>,
}

fn compile_lists(data: &GrammarData, v: &dyn Vocabulary) -> Result<Lists> {
    let mut list = vec![None; v.kind_count()];
    let mut lists = Vec::new();
    for l in &data.list {
        let ctx = || format!("in list for {:?}", l.parent);
        let mut separators = Vec::new();
        for s in &l.separators {
            separators.extend(v.tokens(s).with_context(ctx)?);
        }
        let field = l.field.as_deref().map(|f| v.field(f)).transpose().with_context(ctx)?;
        for k in v.named(&l.parent).with_context(ctx)? {
            list[k as usize] = Some(lists.len());
        }
        lists.push(ListRule { separators, field });
    }
    let mut separators: Vec<u16> =
        lists.iter().flat_map(|l| l.separators.iter().copied()).collect();
    separators.sort_unstable();
    separators.dedup();
    Ok(Lists { of_kind: list, rules: lists, separators })
}

/// The heads and tails of grammar data `[[splice]]`, as roles of children
/// (parent kind, field id, role) given to `role`.
fn compile_splices(
    data: &GrammarData,
    v: &dyn Vocabulary,
    role: &mut dyn FnMut(u16, u16, u8),
) -> Result<()> {
    for s in &data.splice {
        let ctx = || format!("in splice for {:?}", s.parent);
        let (head, tail) =
            (v.field(&s.head).with_context(ctx)?, v.field(&s.tail).with_context(ctx)?);
        for p in v.named(&s.parent).with_context(ctx)? {
            role(p, head, roles::HEAD);
            role(p, tail, roles::TAIL);
        }
    }
    Ok(())
}

/// Grammar data `[[chain]]`: (chain kind, field, link kind) for every kind
/// the names cover.
fn compile_chains(data: &GrammarData, v: &dyn Vocabulary) -> Result<HashSet<(u16, u16, u16)>> {
    let mut chains = HashSet::new();
    for c in &data.chain {
        let ctx = || format!("in chain for {:?}", c.kind);
        let field = v.field(&c.field).with_context(ctx)?;
        let links = v.named(&c.via).with_context(ctx)?;
        for kind in v.named(&c.kind).with_context(ctx)? {
            chains.extend(links.iter().map(|&via| (kind, field, via)));
        }
    }
    Ok(chains)
}

/// The children grammar data `keep` never switches off: (parent kind,
/// field id or 0, child kind or `u16::MAX` for any).
fn compile_keep(data: &GrammarData, v: &dyn Vocabulary) -> Result<HashSet<(u16, u16, u16)>> {
    let mut keep = HashSet::new();
    for k in &data.keep {
        let ctx = || format!("in keep for {:?}", k.parent);
        let field = k.field.as_deref().map(|f| v.field(f)).transpose().with_context(ctx)?;
        let children = match &k.kind {
            Some(name) => v.named(name).with_context(ctx)?,
            None => vec![u16::MAX],
        };
        for p in v.named(&k.parent).with_context(ctx)? {
            for &c in &children {
                keep.insert((p, field.unwrap_or(0), c));
            }
        }
    }
    Ok(keep)
}

/// Each kind's part in an expression standing as a statement (grammar data
/// `[statement]`): the statement's kind, the expressions, the end token.
fn compile_statement(
    data: &StatementData,
    v: &dyn Vocabulary,
    kinds: &mut [KindPolicy],
) -> Result<()> {
    for name in &data.expressions {
        for k in v.named(name).with_context(|| format!("in statement: {name:?}"))? {
            kinds[k as usize].stands = Stands::Expression;
        }
    }
    for k in v.named(&data.kind).context("in statement")? {
        kinds[k as usize].stands = Stands::Statement;
    }
    for k in v.tokens(&data.end).context("in statement")? {
        kinds[k as usize].stands = Stands::End;
    }
    Ok(())
}

/// Each kind's part in the functions' rewrites (grammar data `[functions]`),
/// `texts` the indices of its texts among the replacements; marks
/// the return types (`roles::TYPE`) through `role`.
fn compile_functions(
    data: &FunctionData,
    v: &dyn Vocabulary,
    kinds: &mut [KindPolicy],
    texts: FnTexts,
    role: &mut dyn FnMut(u16, u16, u8),
) -> Result<()> {
    let mut set = |names: &[String], part: FnPart| -> Result<Vec<u16>> {
        let mut ks = Vec::new();
        for name in names {
            for k in v.named(name).with_context(|| format!("in void: {name:?}"))? {
                kinds[k as usize].function = part;
                ks.push(k);
            }
        }
        Ok(ks)
    };
    let mut typed = set(&data.definitions, FnPart::Definition(texts))?;
    typed.extend(set(&data.declarations, FnPart::Declaration)?);
    set(std::slice::from_ref(&data.declarator), FnPart::Declarator)?;
    set(std::slice::from_ref(&data.returns), FnPart::Return)?;
    set(&data.nested, FnPart::Nested)?;
    set(&data.classes, FnPart::Class)?;
    let field = v.field(&data.type_field).context("in void")?;
    for k in typed {
        role(k, field, roles::TYPE);
    }
    Ok(())
}

/// Each kind's part in making a local variable global (grammar data
/// `[globals]`).
fn compile_globals(data: &GlobalsData, v: &dyn Vocabulary, kinds: &mut [KindPolicy]) -> Result<()> {
    let parts =
        [(&data.declarations, Global::Declaration), (&data.assignments, Global::Assignment)];
    for (names, part) in parts {
        for name in names {
            for k in v.named(name).with_context(|| format!("in globals: {name:?}"))? {
                kinds[k as usize].global = part;
            }
        }
    }
    Ok(())
}

/// Each kind's part in a sweep (grammar data `[sweep]`).
fn compile_sweep(data: &SweepData, v: &dyn Vocabulary, kinds: &mut [KindPolicy]) -> Result<()> {
    for name in &data.parents {
        for k in v.named(name).with_context(|| format!("in sweep: {name:?}"))? {
            kinds[k as usize].swept = Swept::Ends;
        }
    }
    for token in &data.tokens {
        for k in v.tokens(token).with_context(|| format!("in sweep: {token:?}"))? {
            kinds[k as usize].swept = Swept::Token;
        }
    }
    Ok(())
}

/// The layout rules of `data`, as bytes.
fn compile_layout(data: &LayoutData) -> Result<Rules> {
    let bytes = |s: &String| Box::from(s.as_bytes());
    let pairs = |p: &[[String; 2]]| -> Result<Vec<_>> {
        p.iter()
            .map(|[o, c]| {
                anyhow::ensure!(!o.is_empty() && !c.is_empty(), "in layout: an empty bracket");
                Ok((bytes(o), bytes(c)))
            })
            .collect()
    };
    anyhow::ensure!(
        data.indent.bytes().all(|c| c == b' ' || c == b'\t'),
        "in layout: indent {:?} is not spaces or tabs",
        data.indent
    );
    Ok(Rules {
        indent: bytes(&data.indent),
        blocks: pairs(&data.blocks)?,
        joined: pairs(&data.joined)?,
        tight: data.tight.iter().map(bytes).collect(),
        flush: data.flush.as_ref().map(bytes),
    })
}

/// The bindings of `data` (which kinds declare names, open scopes, call)
/// into `kinds`; the roles of the children that hold a declared name and
/// its text go to `role` (parent kind, field id, role).
fn compile_bindings(
    data: &GrammarData,
    v: &dyn Vocabulary,
    kinds: &mut [KindPolicy],
    role: &mut dyn FnMut(u16, u16, u8),
) -> Result<()> {
    for d in &data.declare {
        let ctx = || format!("in declare for {:?}", d.kind);
        let spellings = v.named(&d.name).with_context(ctx)?;
        let name = spellings.iter().copied().min().context("a name kind with no ids")?;
        for k in spellings {
            kinds[k as usize].name_kind = Some(name);
        }
        for other in &d.spelled {
            for k in v.named(other).with_context(ctx)? {
                kinds[k as usize].name_kind = Some(name);
            }
        }
        for tag in &d.tags {
            for k in v.named(tag).with_context(ctx)? {
                kinds[k as usize].tag = true;
            }
        }
        if d.implicit && (d.each || d.field.is_none()) {
            bail!("{}: an implicit declaration needs a field and no each", ctx());
        }
        let field = d.field.as_deref().map(|f| v.field(f)).transpose().with_context(ctx)?;
        let value = d.inline.as_deref().map(|f| v.field(f)).transpose().with_context(ctx)?;
        for k in v.named(&d.kind).with_context(ctx)? {
            kinds[k as usize].declare = Some(Declare {
                name,
                each: d.each,
                implicit: d.implicit,
                inline_first: d.inline_first,
            });
            if let Some(f) = field {
                role(k, f, roles::NAME_PLACE);
            }
            if let Some(f) = value {
                role(k, f, roles::INLINE);
            }
        }
    }
    for name in &data.scopes {
        for k in v.named(name).with_context(|| format!("in scopes: {name:?}"))? {
            kinds[k as usize].scope = true;
        }
    }
    for name in &data.calls {
        for k in v.named(name).with_context(|| format!("in calls: {name:?}"))? {
            kinds[k as usize].call = true;
        }
    }
    Ok(())
}

/// A [`Vocabulary`] of a fixed list of kind names, with no fields, supertypes
/// or tokens (the XML and plain-text front-ends').
#[derive(Debug)]
pub(crate) struct FixedKinds {
    /// What the front-end is called in error messages.
    pub language: &'static str,
    pub names: &'static [&'static str],
}

impl Vocabulary for FixedKinds {
    fn kind_count(&self) -> usize {
        self.names.len()
    }

    fn names(&self) -> Vec<Box<str>> {
        self.names.iter().map(|&n| Box::from(n)).collect()
    }

    fn named(&self, name: &str) -> Result<Vec<u16>> {
        match self.names.iter().position(|k| *k == name) {
            Some(i) => Ok(vec![i as u16]),
            None => bail!(
                "unknown node kind {name:?} ({} kinds: {})",
                self.language,
                self.names.join(", ")
            ),
        }
    }

    fn is_supertype(&self, _name: &str) -> bool {
        false
    }

    fn tokens(&self, text: &str) -> Result<Vec<u16>> {
        bail!("{} has no separator tokens such as {text:?}", self.language)
    }

    fn field(&self, name: &str) -> Result<u16> {
        bail!("{} has no fields such as {name:?}", self.language)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KINDS: FixedKinds = FixedKinds { language: "test", names: &["doc", "item", "text"] };

    fn compile(toml: &str) -> Result<Tables> {
        Tables::compile(&GrammarData::parse("test.toml", toml)?, &KINDS)
    }

    #[test]
    fn names_resolve_to_kind_ids() {
        let t = compile(
            "atomic = [\"text\"]\nhoist = [\"item\"]\nreparse = [\"text\"]\n[replace]\nitem = \"x\"\n[[keep]]\nparent = \"doc\"\nkind = \"text\"\n",
        )
        .expect("compiles");
        let kinds = |f: fn(&KindPolicy) -> bool| (0..3).map(|k| f(t.kind(k))).collect::<Vec<_>>();
        assert_eq!(kinds(|k| k.atomic), [false, false, true]);
        assert_eq!(kinds(|k| k.hoist), [false, true, false]);
        assert_eq!(kinds(|k| k.reparse), [false, false, true]);
        assert_eq!(t.replacement_of(1), Some(0));
        assert_eq!(t.replacement_of(2), None);
        assert!(t.is_kept(0, 0, 2) && !t.is_kept(0, 0, 1));
    }

    #[test]
    fn declarations_scopes_and_calls_resolve_to_kind_ids() {
        let t = compile(
            "scopes = [\"doc\"]\ncalls = [\"item\"]\n[[declare]]\nkind = \"item\"\nname = \"text\"\neach = true\n",
        )
        .expect("compiles");
        assert_eq!(
            t.kind(1).declare,
            Some(Declare { name: 2, each: true, implicit: false, inline_first: false })
        );
        assert_eq!(t.kind(0).declare, None);
        assert!(t.kind(0).scope && !t.kind(1).scope);
        assert!(t.kind(1).call && !t.kind(0).call);
        let err =
            compile("[[declare]]\nkind = \"item\"\nname = \"txet\"\n").map(|_| ()).unwrap_err();
        assert!(format!("{err:#}").contains("in declare"), "{err:#}");
        // an implicit declaration names the field that holds the bare name
        let err = compile("[[declare]]\nkind = \"item\"\nname = \"text\"\nimplicit = true\n")
            .map(|_| ())
            .unwrap_err();
        assert!(format!("{err:#}").contains("implicit"), "{err:#}");
    }

    #[test]
    fn an_unknown_name_is_an_error_that_says_where() {
        let err = compile("hoist = [\"itme\"]\n").map(|_| ()).unwrap_err();
        let msg = format!("{err:#}");
        assert!(msg.contains("in hoist") && msg.contains("\"itme\""), "{msg}");
        let err = compile("reparse = [\"txt\"]\n").map(|_| ()).unwrap_err();
        assert!(format!("{err:#}").contains("in reparse"), "{err:#}");
        let err = compile("[[keep]]\nparent = \"doc\"\nfield = \"f\"\n").map(|_| ()).unwrap_err();
        assert!(format!("{err:#}").contains("no fields"), "{err:#}");
    }
}
