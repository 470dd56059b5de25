//! The groups of coordinated deletion: a declaration together with every
//! use of its name, found from the tree alone (the `declare`, `scope` and
//! `call` rules of its [`Policy`](crate::syntax::policy::Policy), from
//! grammar data).
//!
//! A use is a token of the name's kind and text that resolves to the
//! declaration: the innermost scope around it that declares that name. Each
//! use goes with the innermost node around it that may be switched off (the
//! statement that uses a variable, or an expression that has a minimal
//! form), but never an argument alone: the call goes with it. A use with no
//! such node makes the group impossible. A parameter's
//! group also holds the matching argument of every call of its function,
//! and the same parameter of every declaration of that function.
//!
//! Other groups of a declaration replace its uses rather than delete them:
//! by a form only groups use (`x` by `0`, a typedef's uses by `int`), or by
//! the declaration's own text for the name (a typedef's type, a macro's or
//! a variable's value: [`Swap`]s). A name no declaration resolves has a
//! group of its uses alone, replaced by such a form (a header's `size_t`
//! by `int`). A local variable may also move to file scope, its
//! assignments gone (see [`globals`]).

use std::collections::{HashMap, HashSet};

use crate::syntax::policy::{Declare, FnPart, Global, Stands, Swept};
use crate::syntax::tree::{flags, roles, Action, NodeId, Tree, NO_PARENT};
use crate::syntax::{forest, Swap, Text};

const FILE: u32 = NO_PARENT;

/// What one candidate of coordinated deletion switches off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Group {
    /// The declaring nodes (a prototype and a definition, say), in preorder.
    pub decls: Vec<NodeId>,
    /// Everything switched off: the declarations, the node around each use,
    /// the arguments; in preorder, none inside another.
    pub off: Vec<NodeId>,
    /// The uses written as another text (a typedef's uses as its type).
    pub swaps: Vec<Swap>,
}

/// One declared name.
#[derive(Debug)]
struct Decl {
    /// What goes with the name: the declaring node, or the statement
    /// around an implicit declaration.
    node: NodeId,
    /// The declaring node, whose fields hold the name and its text.
    at: NodeId,
    name: NodeId,
    /// The node the name is visible in (`FILE` for the whole file).
    scope: u32,
    /// For a parameter: its function's name token and its position.
    param: Option<(NodeId, usize)>,
    /// Its uses written as its value are tried before they are deleted
    /// (grammar data `inline_first`).
    inline_first: bool,
}

/// The groups of `tree`, the latest declaration first (so that the users of
/// a name are tried before the name they use), leaving out those that
/// switch off a single node and change nothing else (the 1-minimal phase
/// tries those); each declaration with its uses written as its text (see
/// [`inlined`]); each name the file does not declare (see
/// [`undeclared`]); each syntax error with the node after it (see
/// [`error_groups`]); each pair of blocks that may merge (see [`merges`]);
/// each node with the token after it (see [`with_next_token`]); each function that may be made `void` (see [`voided`]); and each member
/// function that may be defined in its class (see [`defined_in_class`]).
pub(crate) fn groups(tree: &Tree) -> Vec<Group> {
    let (bound, undeclared, _) = binding_groups(tree);
    let mut out = error_groups(tree);
    out.extend(bound);
    out.extend(undeclared);
    out.extend(merges(tree));
    out.extend(with_next_token(tree));
    out.extend(voided(tree));
    out.extend(defined_in_class(tree));
    out.sort_by_key(|g| std::cmp::Reverse(g.decls[0]));
    out
}

/// The groups of names the file uses but does not declare (a header's
/// `size_t`): every use replaced at once where only groups replace it
/// (`size_t` by `int`), when that is shorter. One use alone could make
/// `int *` and `size_t *` meet.
pub(crate) fn undeclared(tree: &Tree) -> Vec<Group> {
    binding_groups(tree).1
}

/// The groups of locals made global (see [`globalized`]), the latest
/// declaration first: a last resort, which the plan tries when nothing
/// else shortens the text.
pub(crate) fn globals(tree: &Tree) -> Vec<Group> {
    let mut out = binding_groups(tree).2;
    out.sort_by_key(|g| std::cmp::Reverse(g.decls[0]));
    out
}

/// One group per swept token kind (grammar data `[sweep]`): every token of
/// it that ends a node of a kind it may end (JavaScript's `;` of each
/// statement), when there are two or more.
pub(crate) fn swept(tree: &Tree) -> Vec<Group> {
    let policy = tree.policy();
    if policy.kinds.iter().all(|k| k.swept == Swept::No) {
        return Vec::new();
    }
    let part = |kind: u16| policy.kind(kind).swept;
    let mut by_kind: Vec<(u16, Vec<NodeId>)> = Vec::new();
    for (i, n) in tree.nodes().iter().enumerate() {
        let id = NodeId(i as u32);
        if part(n.kind) != Swept::Token || n.parent == FILE {
            continue;
        }
        let parent = NodeId(n.parent);
        if part(tree.node(parent).kind) != Swept::Ends || tree.children(parent).last() != Some(id) {
            continue;
        }
        match by_kind.iter_mut().find(|(k, _)| *k == n.kind) {
            Some((_, ids)) => ids.push(id),
            None => by_kind.push((n.kind, vec![id])),
        }
    }
    // the tokens are kept nodes, which only a swap to nothing takes away
    let group = |ids: Vec<NodeId>| Group {
        decls: vec![ids[0]],
        off: Vec::new(),
        swaps: ids.into_iter().map(|node| Swap { node, with: Text::Nothing }).collect(),
    };
    by_kind.into_iter().filter(|(_, ids)| ids.len() > 1).map(|(_, ids)| group(ids)).collect()
}

/// Each two nodes side by side of a kind that may merge (grammar data
/// `merge`) and alike up to their bodies, made one: the first's closing
/// bracket and the second's beginning up to its opening bracket written as
/// nothing (`namespace n { A }\nnamespace n { B }` to
/// `namespace n { A \n B }`).
fn merges(tree: &Tree) -> Vec<Group> {
    let policy = tree.policy();
    if !policy.kinds.iter().any(|k| k.merge) {
        return Vec::new();
    }
    let mergeable = |id: NodeId| policy.kind(tree.node(id).kind).merge;
    // the children before the body, and the body's brackets
    let parts = |id: NodeId| {
        let children: Vec<NodeId> = tree.children(id).collect();
        let (&body, head) = children.split_last()?;
        let open = tree.children(body).next()?;
        let close = tree.children(body).last()?;
        let leaf = |t: NodeId| tree.node(t).subtree_end == t.0 + 1;
        (leaf(open) && leaf(close) && open != close).then(|| (head.to_vec(), open, close))
    };
    let mut out = Vec::new();
    for (i, n) in tree.nodes().iter().enumerate() {
        if n.subtree_end == i as u32 + 1 {
            continue;
        }
        let children: Vec<NodeId> = tree.children(NodeId(i as u32)).collect();
        for pair in children.windows(2) {
            let [a, b] = [pair[0], pair[1]];
            if !mergeable(a) || tree.node(a).kind != tree.node(b).kind {
                continue;
            }
            let (Some((head_a, _, close)), Some((head_b, open, _))) = (parts(a), parts(b)) else {
                continue;
            };
            let texts = |h: &[NodeId]| h.iter().map(|&t| tree.text(t)).collect::<Vec<_>>();
            if texts(&head_a) != texts(&head_b) {
                continue;
            }
            let nothing = |node| Swap { node, with: Text::Nothing };
            let swaps = std::iter::once(close).chain(head_b).chain([open]).map(nothing).collect();
            out.push(Group { decls: vec![a, b], off: Vec::new(), swaps });
        }
    }
    out
}

/// Each function whose value no call uses, made `void` (grammar data
/// `[functions]`): its return type, and that of every declaration of its name,
/// written as the `void` text, and the values of its `return`s as nothing
/// (`int f(void) { g(); return 0; }` to `void f(void) { g(); return; }`).
/// Where no `return` has a value, one of its body's last expression
/// statements goes instead, each in a group of its own: a function that
/// must not fall off its end without a value calls a function that does
/// not return (`a (0, 0);`, there for `-Werror=return-type`), which no
/// removal alone may take. Either only when the text gets shorter.
fn voided(tree: &Tree) -> Vec<Group> {
    let policy = tree.policy();
    if policy.kinds.iter().all(|k| k.function == FnPart::No) {
        return Vec::new();
    }
    let part = |id: NodeId| policy.kind(tree.node(id).kind).function;
    let named = |id: NodeId| {
        let n = tree.node(id);
        n.has(flags::NAMED) && !n.has(flags::EXTRA)
    };
    // the name a function's definition or declaration declares: the last
    // token of its function declarator's own declarator (`f`,
    // `Bignum::Divide`); `None` for a pointer's declarator (`int *f()`)
    let name = |decl: NodeId| {
        let d = tree.children(decl).find(|&c| part(c) == FnPart::Declarator)?;
        let inner = tree.children(d).find(|&c| named(c))?;
        Some(tree.text(NodeId(tree.node(inner).subtree_end - 1)))
    };
    let return_type =
        |decl: NodeId| tree.children(decl).find(|&c| tree.node(c).role & roles::TYPE != 0);
    let statement = |id: u32| policy.kind(tree.node(NodeId(id)).kind).stands == Stands::Statement;
    let mut functions = Vec::new();
    let mut declared: HashMap<&[u8], Vec<NodeId>> = HashMap::new();
    let mut used: HashSet<&[u8]> = HashSet::new();
    for (i, n) in tree.nodes().iter().enumerate() {
        let id = NodeId(i as u32);
        match part(id) {
            FnPart::Definition(text) => functions.extend(name(id).map(|f| (id, f, text))),
            FnPart::Declaration => {
                if let Some(f) = name(id) {
                    declared.entry(f).or_default().push(id);
                }
            }
            _ => {}
        }
        if tree.is_call(id.0) && !statement(n.parent) {
            if let Some(callee) = tree.children(id).find(|&c| named(c)) {
                used.insert(tree.text(NodeId(tree.node(callee).subtree_end - 1)));
            }
        }
    }
    let fixed = &policy.fixed_names;
    let mut out = Vec::new();
    for (f, name, text) in functions {
        let void = tree.replacement(text);
        if used.contains(name) || fixed.iter().any(|x| **x == *name) {
            continue;
        }
        let decls = declared.get(name).map_or(&[][..], Vec::as_slice);
        let Some(types) = std::iter::once(f)
            .chain(decls.iter().copied())
            .map(return_type)
            .collect::<Option<Vec<NodeId>>>()
        else {
            continue;
        };
        if tree.text(types[0]) == void {
            continue;
        }
        // the values of the function's own `return`s
        let mut values = Vec::new();
        let mut i = f.0 + 1;
        while i < tree.node(f).subtree_end {
            let id = NodeId(i);
            match part(id) {
                FnPart::Definition(_) | FnPart::Nested => {
                    i = tree.node(id).subtree_end;
                    continue;
                }
                FnPart::Return => values.extend(tree.children(id).find(|&c| named(c))),
                _ => {}
            }
            i += 1;
        }
        let len = |id: NodeId| i64::from(tree.node(id).end - tree.node(id).start);
        let longer: i64 = types.iter().map(|&t| void.len() as i64 - len(t)).sum();
        let swap = |node, with| Swap { node, with };
        let mut swaps: Vec<Swap> =
            types.iter().map(|&t| swap(t, Text::Replacement(text))).collect();
        if values.is_empty() {
            // the call that does not return: one of the body's last few
            // expression statements, the last first
            let body = tree.children(f).last().into_iter();
            let calls = body.flat_map(|b| tree.children(b)).filter(|&c| statement(c.0));
            let calls: Vec<NodeId> = calls.filter(|&c| shortens(tree, c)).collect();
            for &call in calls.iter().rev().take(NORETURN_CANDIDATES) {
                if len(call) > longer {
                    out.push(Group { decls: vec![f], off: vec![call], swaps: swaps.clone() });
                }
            }
            continue;
        }
        if values.iter().map(|&v| len(v)).sum::<i64>() <= longer {
            continue;
        }
        swaps.extend(values.into_iter().map(|v| swap(v, Text::Nothing)));
        swaps.sort_by_key(|s| s.node);
        out.push(Group { decls: vec![f], off: Vec::new(), swaps });
    }
    out
}

/// Each member function defined out of its class (`int B::f(int x) {
/// ... }`) defined in it instead (grammar data `[functions] classes`): its
/// one declaration in the class takes the definition's parameters, with
/// their names, and its body in the place of its `;`, and the definition
/// goes: `struct B { int f(int); }; int B::f(int x) { return x; }` to
/// `struct B { int f(int x){ return x; } };` (the layout pass spaces it).
fn defined_in_class(tree: &Tree) -> Vec<Group> {
    let policy = tree.policy();
    if !policy.kinds.iter().any(|k| k.function == FnPart::Class) {
        return Vec::new();
    }
    let part = |id: NodeId| policy.kind(tree.node(id).kind).function;
    let named = |id: NodeId| {
        let n = tree.node(id);
        n.has(flags::NAMED) && !n.has(flags::EXTRA)
    };
    let first_named = |id: NodeId| tree.children(id).find(|&c| named(c));
    let declarator = |id: NodeId| tree.children(id).find(|&c| part(c) == FnPart::Declarator);
    let parameters = |d: NodeId| tree.children(d).find(|&c| tree.node(c).has(flags::LIST));
    let leaf = |id: NodeId| tree.node(id).subtree_end == id.0 + 1;
    // the functions declared in each class, by class and member name
    let mut members: HashMap<(&[u8], &[u8]), Vec<NodeId>> = HashMap::new();
    for (i, _) in tree.nodes().iter().enumerate() {
        let class = NodeId(i as u32);
        if part(class) != FnPart::Class {
            continue;
        }
        let (Some(name), Some(body)) = (first_named(class), tree.children(class).last()) else {
            continue;
        };
        for m in tree.children(body).filter(|&m| part(m) == FnPart::Declaration) {
            if let Some(member) = declarator(m).and_then(first_named).filter(|&n| leaf(n)) {
                members.entry((tree.text(name), tree.text(member))).or_default().push(m);
            }
        }
    }
    let mut out = Vec::new();
    for (i, _) in tree.nodes().iter().enumerate() {
        let def = NodeId(i as u32);
        if !matches!(part(def), FnPart::Definition(_)) || !shortens(tree, def) {
            continue;
        }
        // `B::f`: the class, and the member's name, its last token
        let Some(d) = declarator(def) else { continue };
        let Some(qualified) = first_named(d).filter(|&q| !leaf(q)) else { continue };
        let Some(class) = first_named(qualified) else { continue };
        let name = tree.text(NodeId(tree.node(qualified).subtree_end - 1));
        let Some([m]) = members.get(&(tree.text(class), name)).map(Vec::as_slice) else {
            continue; // none, or overloads
        };
        let (Some(from), Some(to)) = (parameters(d), declarator(*m).and_then(parameters)) else {
            continue;
        };
        let (Some(body), Some(end)) = (tree.children(def).last(), tree.children(*m).last()) else {
            continue;
        };
        if !leaf(end) || named(end) {
            continue;
        }
        let swaps = vec![
            Swap { node: to, with: Text::Copy(from) },
            Swap { node: end, with: Text::Copy(body) },
        ];
        out.push(Group { decls: vec![*m, def], off: vec![def], swaps });
    }
    out
}

/// Each node of a kind that goes with the token right after it (grammar
/// data `with_next_token`), with that token: tree-sitter-cpp's `public`
/// and its `:` are siblings, and neither may go alone.
fn with_next_token(tree: &Tree) -> Vec<Group> {
    if !tree.policy().has_next_token_kinds() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, n) in tree.nodes().iter().enumerate() {
        let id = NodeId(i as u32);
        if !tree.policy().kind(n.kind).with_next_token || n.parent == FILE {
            continue;
        }
        let Some(token) = siblings_after(tree, id).next() else { continue };
        let t = tree.node(token);
        if t.has(flags::NAMED) || t.is_empty() || !shortens(tree, id) {
            continue;
        }
        // the token is the syntax itself, never switched off: written as nothing
        let swaps = vec![Swap { node: token, with: Text::Nothing }];
        out.push(Group { decls: vec![id], off: vec![id], swaps });
    }
    out
}

/// How many of a function's last expression statements are each tried as
/// the call that does not return, when it is made `void` (see [`voided`]).
const NORETURN_CANDIDATES: usize = 3;

/// Each syntax error node with the sibling right after it, and with the
/// two after it; each node the parser completed with a missing token, the
/// same way; and each two adjacent children of an error node. A parser's
/// error recovery often splits one construct it does not know into an
/// error and a well-formed rest: tree-sitter-cpp reads libstdc++'s
/// `namespace std __attribute__ ((...)) { ... }` as an error node and a
/// block, and without the name (`namespace __attribute__ ((...)) { }`) as
/// an error, a parenthesized expression statement and a block. None may go
/// alone (the block alone is not C++ at file scope, the error alone
/// swallows what follows), so once the block is emptied they must go
/// together. Inside the error, the attribute's name and its parentheses go
/// together or not at all; and where the recovery ended a statement with a
/// missing `;` (`((__visibility__ ()))` before a block, which g++ reads as
/// a function in a system header), that statement and the block go
/// together.
fn error_groups(tree: &Tree) -> Vec<Group> {
    if tree.error_count() == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, n) in tree.nodes().iter().enumerate() {
        let id = NodeId(i as u32);
        if n.parent == FILE || !shortens(tree, id) {
            continue;
        }
        if n.has(flags::ERROR) {
            let inside: Vec<NodeId> = tree.children(id).filter(|&c| shortens(tree, c)).collect();
            for pair in inside.windows(2) {
                out.push(Group { decls: vec![pair[0]], off: pair.to_vec(), swaps: Vec::new() });
            }
        } else if !tree.children(id).any(|c| tree.node(c).has(flags::MISSING)) {
            continue;
        }
        let mut off = vec![id];
        for next in siblings_after(tree, id).take(2) {
            if !shortens(tree, next) {
                break;
            }
            off.push(next);
            out.push(Group { decls: vec![id], off: off.clone(), swaps: Vec::new() });
        }
    }
    out
}

/// The groups of declarations with the uses of their names, those of the
/// names no declaration of the file resolves (see [`undeclared`]), and
/// those of locals made global (see [`globals`]).
fn binding_groups(tree: &Tree) -> (Vec<Group>, Vec<Group>, Vec<Group>) {
    let Some(Resolved { decls, members, uses, calls, undeclared }) = resolved(tree) else {
        return (Vec::new(), Vec::new(), Vec::new());
    };
    let file_names: HashSet<(u16, &[u8])> = decls
        .iter()
        .filter(|d| d.scope == FILE)
        .map(|d| (kind_of(tree, d.name), tree.text(d.name)))
        .collect();
    let mut out = Vec::new();
    let mut globals = Vec::new();
    for (ds, us) in members.iter().zip(&uses) {
        let plain = group(tree, &decls, ds, us, &calls, false);
        let zeros = group(tree, &decls, ds, us, &calls, true).filter(|z| Some(z) != plain.as_ref());
        let inline = inlined(tree, &decls, ds, us);
        let first = decls[ds[0]].inline_first;
        if first {
            out.extend(inline.clone());
        }
        out.extend(plain.into_iter().chain(zeros).filter(|g| g.off.len() > 1));
        if !first {
            out.extend(inline);
        }
        out.extend(initialized(tree, &decls, ds, us));
        globals.extend(globalized(tree, &decls, ds, us, &file_names));
    }
    let undeclared = undeclared
        .into_iter()
        .filter(|us| saved(tree, us) > 0 && us.iter().all(|&u| switchable(tree, u)))
        .map(|us| Group { decls: vec![us[0]], off: us, swaps: Vec::new() })
        .collect();
    (out, undeclared, globals)
}

/// The names of a tree resolved: its declarations, grouped by the name
/// they declare, with the name tokens that use each group.
struct Resolved<'t> {
    decls: Vec<Decl>,
    /// Per group: its declarations (indexes into `decls`).
    members: Vec<Vec<usize>>,
    /// Per group: the name tokens that resolve to it.
    uses: Vec<Vec<NodeId>>,
    /// The calls of each function name.
    calls: HashMap<(u16, &'t [u8]), Vec<NodeId>>,
    /// The uses of each name the file does not declare, in the order of
    /// their first use.
    undeclared: Vec<Vec<NodeId>>,
}

/// Resolves every name token of `tree` to its group of declarations (none
/// for a language without names).
fn resolved(tree: &Tree) -> Option<Resolved<'_>> {
    let policy = tree.policy();
    if !policy.declares_names() {
        return None;
    }
    let decls = declarations(tree);
    // resolution: (name kind, text, scope) -> group; groups by that key, or
    // by (function, position) for parameters
    let mut by_key: HashMap<(u16, &[u8], u32), usize> = HashMap::new();
    let mut by_param: HashMap<(u16, &[u8], usize), usize> = HashMap::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    for (d, decl) in decls.iter().enumerate() {
        let key = (kind_of(tree, decl.name), tree.text(decl.name), decl.scope);
        let g = match decl.param {
            Some((f, i)) => {
                let pkey = (kind_of(tree, f), tree.text(f), i);
                *by_param.entry(pkey).or_insert_with(|| new_group(&mut members))
            }
            None => *by_key.entry(key).or_insert_with(|| new_group(&mut members)),
        };
        by_key.entry(key).or_insert(g);
        members[g].push(d);
    }
    let names: HashSet<u16> = decls.iter().map(|d| kind_of(tree, d.name)).collect();
    let declared: HashSet<NodeId> = decls.iter().map(|d| d.name).collect();
    let mut uses: Vec<Vec<NodeId>> = vec![Vec::new(); members.len()];
    let mut calls: HashMap<(u16, &[u8]), Vec<NodeId>> = HashMap::new();
    let mut undeclared: Vec<Vec<NodeId>> = Vec::new();
    let mut by_name: HashMap<(u16, &[u8]), usize> = HashMap::new();
    for (i, n) in tree.nodes().iter().enumerate() {
        let id = NodeId(i as u32);
        if policy.kind(n.kind).call {
            if let Some(callee) = tree.children(id).find(|&c| tree.node(c).has(flags::NAMED)) {
                let key = (kind_of(tree, callee), tree.text(callee));
                calls.entry(key).or_default().push(id);
            }
        }
        let kind = policy.name_kind(n.kind);
        if declared.contains(&id) {
            continue;
        }
        let text = tree.text(id);
        let resolved = match names.contains(&kind) {
            true => resolve(tree, &by_key, kind, text, n.parent),
            false => None,
        };
        match resolved {
            Some(g) => uses[g].push(id),
            None if grouped(tree, id) => {
                let u = *by_name.entry((kind, text)).or_insert_with(|| new_group(&mut undeclared));
                undeclared[u].push(id);
            }
            None => {}
        }
    }
    Some(Resolved { decls, members, uses, calls, undeclared })
}

/// Each name token of `tree` that resolves to a declaration, with the
/// node that declares it (for a batch's probes: what goes with a
/// declaration, see [`Units::with_uses`](super::Units::with_uses)).
pub(crate) fn name_uses(tree: &Tree) -> Vec<(NodeId, NodeId)> {
    let Some(r) = resolved(tree) else { return Vec::new() };
    let mut out = Vec::new();
    for (ds, us) in r.members.iter().zip(&r.uses) {
        for &d in ds {
            out.extend(us.iter().map(|&u| (r.decls[d].node, u)));
        }
    }
    out
}

/// The group of the declaration that a name token of `kind` and `text`,
/// whose parent is `at`, resolves to: the innermost scope around it that
/// declares that name.
fn resolve(
    tree: &Tree,
    by_key: &HashMap<(u16, &[u8], u32), usize>,
    kind: u16,
    text: &[u8],
    mut at: u32,
) -> Option<usize> {
    let policy = tree.policy();
    loop {
        if at == FILE || policy.kind(tree.node(NodeId(at)).kind).scope {
            if let Some(&g) = by_key.get(&(kind, text, at)) {
                return Some(g);
            }
        }
        if at == FILE {
            return None;
        }
        at = tree.node(NodeId(at)).parent;
    }
}

/// The name token of every declaration of `tree`, in preorder.
pub(crate) fn declared_names(tree: &Tree) -> Vec<NodeId> {
    if !tree.policy().declares_names() {
        return Vec::new();
    }
    declarations(tree).into_iter().map(|d| d.name).collect()
}

fn new_group<T>(members: &mut Vec<Vec<T>>) -> usize {
    members.push(Vec::new());
    members.len() - 1
}

/// Every declared name of `tree`, in preorder, then the implicit ones (see
/// [`implicit`]); a name claimed by an outer declaration (a C declaration
/// and its declarator) is declared once.
fn declarations(tree: &Tree) -> Vec<Decl> {
    let policy = tree.policy();
    let mut out = Vec::new();
    let mut claimed: HashSet<NodeId> = HashSet::new();
    // declaring nodes (and the single elements they stand for) -> name
    let mut named: HashMap<u32, NodeId> = HashMap::new();
    let mut assignments = Vec::new();
    for (i, n) in tree.nodes().iter().enumerate() {
        let Some(rule) = policy.kind(n.kind).declare else { continue };
        let id = NodeId(i as u32);
        if rule.implicit {
            assignments.push(id);
            continue;
        }
        let elements: Vec<NodeId> = if n.has(flags::LIST) {
            tree.children(id).filter(|&c| tree.node(c).has(flags::ELEMENT)).collect()
        } else {
            Vec::new()
        };
        // (the declaring node, the name, the position of a parameter,
        // inline first)
        let mut found: Vec<(NodeId, NodeId, Option<usize>, bool)> = Vec::new();
        if rule.each {
            for (index, &e) in elements.iter().enumerate() {
                if let Some(name) = first_name(tree, e, rule.name, false) {
                    found.push((e, name, Some(index), rule.inline_first));
                }
            }
        } else if elements.is_empty() {
            found.extend(name_of(tree, id, rule).map(|name| (id, name, None, rule.inline_first)));
        } else {
            for &e in &elements {
                let own = policy.kind(tree.node(e).kind).declare.filter(|d| !d.each);
                let name = match own {
                    Some(own) => name_of(tree, e, own),
                    None => first_name(tree, e, rule.name, false),
                };
                let Some(name) = name else { continue };
                named.insert(e.0, name);
                let node = if elements.len() == 1 { id } else { e };
                found.push((node, name, None, own.unwrap_or(rule).inline_first));
            }
        }
        for (node, name, index, inline_first) in found {
            if !claimed.insert(name) {
                continue;
            }
            named.insert(node.0, name);
            let owner = index.and_then(|i| owner(tree, id, &named).map(|f| (f, i)));
            let mut scope = scope_of(tree, node);
            if let Some((_, _)) = owner {
                // a parameter of a prototype is visible in the prototype only
                let function = function_node(tree, id, &named);
                if !function.is_some_and(|f| inside(tree, scope, f)) {
                    scope = function.map_or(scope, |f| f.0);
                }
            }
            out.push(Decl { node, at: node, name, scope, param: owner, inline_first });
        }
    }
    let implicit = implicit(tree, &out, &assignments);
    out.extend(implicit);
    out
}

/// The implicit declarations among `assignments` (grammar data
/// `[[declare]] implicit`): each assignment to a bare name that none of
/// `decls` resolves (`k = module` without `var`), visible in the whole
/// file, going with the statement around it.
fn implicit(tree: &Tree, decls: &[Decl], assignments: &[NodeId]) -> Vec<Decl> {
    let keys: HashMap<(u16, &[u8], u32), usize> =
        decls.iter().map(|d| ((kind_of(tree, d.name), tree.text(d.name), d.scope), 0)).collect();
    let mut out = Vec::new();
    for &at in assignments {
        let Some(rule) = tree.policy().kind(tree.node(at).kind).declare else { continue };
        let place = tree.children(at).find(|&c| tree.node(c).role & roles::NAME_PLACE != 0);
        let Some(name) = place.filter(|&p| kind_of(tree, p) == rule.name) else { continue };
        let kind = kind_of(tree, name);
        if resolve(tree, &keys, kind, tree.text(name), tree.node(at).parent).is_some() {
            continue;
        }
        // the statement around it: up through parents that hold nothing else
        let mut node = at;
        loop {
            let parent = tree.node(node).parent;
            if parent == FILE || tree.policy().kind(tree.node(NodeId(parent)).kind).scope {
                break;
            }
            let mut named =
                tree.children(NodeId(parent)).filter(|&c| tree.node(c).has(flags::NAMED));
            if named.next() != Some(node) || named.next().is_some() {
                break;
            }
            node = NodeId(parent);
        }
        let inline_first = rule.inline_first;
        out.push(Decl { node, at, name, scope: FILE, param: None, inline_first });
    }
    out
}

/// The name a node declares by `rule`: the first name token inside the
/// children that hold it, or else inside the node.
fn name_of(tree: &Tree, id: NodeId, rule: Declare) -> Option<NodeId> {
    let mut places = tree.children(id).filter(|&c| tree.node(c).role & roles::NAME_PLACE != 0);
    let first = places.next();
    match first {
        Some(p) => {
            std::iter::once(p).chain(places).find_map(|p| first_name(tree, p, rule.name, false))
        }
        None => first_name(tree, id, rule.name, true),
    }
}

/// The first token of kind `name` at or inside `id` (below it only when
/// `below`), in preorder.
fn first_name(tree: &Tree, id: NodeId, name: u16, below: bool) -> Option<NodeId> {
    let n = tree.node(id);
    let from = if below { id.0 + 1 } else { id.0 };
    (from..n.subtree_end).map(NodeId).find(|&c| kind_of(tree, c) == name)
}

/// The kind a name token counts as.
fn kind_of(tree: &Tree, id: NodeId) -> u16 {
    tree.policy().name_kind(tree.node(id).kind)
}

/// The nearest scope strictly above `id`.
fn scope_of(tree: &Tree, id: NodeId) -> u32 {
    let mut at = tree.node(id).parent;
    while at != FILE && !tree.policy().kind(tree.node(NodeId(at)).kind).scope {
        at = tree.node(NodeId(at)).parent;
    }
    at
}

/// The nearest declaring node above the parameter list `list`.
fn function_node(tree: &Tree, list: NodeId, named: &HashMap<u32, NodeId>) -> Option<NodeId> {
    let mut at = tree.node(list).parent;
    while at != FILE {
        if named.contains_key(&at) {
            return Some(NodeId(at));
        }
        at = tree.node(NodeId(at)).parent;
    }
    None
}

/// The name token of the function the parameter list `list` belongs to.
fn owner(tree: &Tree, list: NodeId, named: &HashMap<u32, NodeId>) -> Option<NodeId> {
    function_node(tree, list, named).and_then(|f| named.get(&f.0).copied())
}

/// Whether node `at` (or the file) lies inside `outer`.
fn inside(tree: &Tree, at: u32, outer: NodeId) -> bool {
    at != FILE && outer.0 <= at && at < tree.node(outer).subtree_end
}

/// The group of the declarations `ds` with the uses `us`, or `None` when
/// some part of it cannot be switched off. With `zeros`, a use that is
/// replaced only in groups (`x` by `0`, a type name by `int`, see
/// [`roles::GROUPED`]) is replaced so, also inside a call's argument, rather
/// than taking the statement around it: the group for a variable whose
/// value the test needs somewhere, but not where it comes from, or for a
/// typedef whose uses may all be `int`; kept only when the whole is shorter.
fn group(
    tree: &Tree,
    decls: &[Decl],
    ds: &[usize],
    us: &[NodeId],
    calls: &HashMap<(u16, &[u8]), Vec<NodeId>>,
    zeros: bool,
) -> Option<Group> {
    let nodes: Vec<NodeId> = ds.iter().map(|&d| decls[d].node).collect();
    let within = |id: NodeId| nodes.iter().any(|&d| inside(tree, id.0, d));
    let mut off = nodes.clone();
    if !nodes.iter().all(|&d| shortens(tree, d)) {
        return None;
    }
    let stands = |at: NodeId| match zeros {
        true => switchable(tree, at) && (grouped(tree, at) || !in_call(tree, at)),
        false => shortens(tree, at) && !in_call(tree, at),
    };
    for &u in us {
        if within(u) {
            continue;
        }
        let mut at = u;
        while !stands(at) {
            at = NodeId(tree.node(at).parent);
            if at.0 == FILE {
                return None;
            }
        }
        if nodes.iter().any(|&d| inside(tree, d.0, at)) {
            return None;
        }
        off.push(at);
    }
    if let Some((f, index)) = decls[ds[0]].param {
        let key = (kind_of(tree, f), tree.text(f));
        for &call in calls.get(&key).into_iter().flatten() {
            let args = tree.children(call).find(|&c| tree.node(c).has(flags::LIST))?;
            let arg =
                tree.children(args).filter(|&c| tree.node(c).has(flags::ELEMENT)).nth(index)?;
            if !within(arg) {
                off.push(arg);
            }
        }
    }
    off.sort_unstable();
    off.dedup();
    let mut outer: Vec<NodeId> = Vec::with_capacity(off.len());
    for id in off {
        if !outer.last().is_some_and(|&o| inside(tree, id.0, o)) {
            outer.push(id);
        }
    }
    if zeros && saved(tree, &outer) <= 0 {
        return None; // uses made longer than the declaration was
    }
    let mut decls: Vec<NodeId> = nodes;
    decls.sort_unstable();
    Some(Group { decls, off: outer, swaps: Vec::new() })
}

/// The group of the one declaration `ds` with each of its uses `us` written
/// as the text that may stand for its name (grammar data `[[declare]]
/// inline`: `typedef unsigned i; typedef i o;` to `typedef unsigned o;`,
/// `int c = 7; f(c);` to `f(7);`), when that is shorter; `None` where the
/// declaration declares more than the bare name (`typedef int *P;`,
/// `int *p = q;`), or has no such text or no use.
fn inlined(tree: &Tree, decls: &[Decl], ds: &[usize], us: &[NodeId]) -> Option<Group> {
    let [d] = ds else { return None };
    let d = &decls[*d];
    let (place, value) = place_and_value(tree, d)?;
    let value = value?;
    let in_place = tree.node(value).parent == place.0;
    let bare = place == d.name || (in_place && tree.node(d.name).parent == place.0);
    let uses: Vec<NodeId> = us.iter().copied().filter(|&u| !inside(tree, u.0, d.node)).collect();
    if !bare || uses.is_empty() || !shortens(tree, d.node) {
        return None;
    }
    let len = |id: NodeId| i64::from(tree.node(id).end - tree.node(id).start);
    let longer: i64 = uses.iter().map(|&u| len(value) - len(u)).sum();
    if saved(tree, &[d.node]) <= longer {
        return None;
    }
    let swaps = uses.iter().map(|&node| Swap { node, with: Text::Copy(value) }).collect();
    Some(Group { decls: vec![d.node], off: vec![d.node], swaps })
}

/// The node of declaration `d` that holds its name (the declaration's
/// name field, or the element of a list that is the declaration: `b = 2`
/// of `int a, b = 2;`), and the text there that may stand for the name
/// (grammar data `[[declare]] inline`: the `2`), if any.
fn place_and_value(tree: &Tree, d: &Decl) -> Option<(NodeId, Option<NodeId>)> {
    let child = |of: NodeId, r: u8| tree.children(of).find(|&c| tree.node(c).role & r != 0);
    let place = match tree.node(d.at).role & roles::NAME_PLACE {
        0 => child(d.at, roles::NAME_PLACE)?,
        _ => d.at,
    };
    Some((place, child(d.at, roles::INLINE).or_else(|| child(place, roles::INLINE))))
}

/// The group of the one local declaration `ds` made global (grammar data
/// `[globals]`): its text moved to just before the outermost node around
/// it (its function), and each statement that assigns its name switched
/// off (`p = g();`): `int f(void) { int *p; p = g(); return *p; }` to
/// `int *p;\nint f(void) { return *p; }`. `None` unless the declaration
/// is of a kind that may move, stands in a block, declares its name alone
/// and without a value, no declaration at file scope has that name, and
/// every assignment to it is a statement of its own (grammar data
/// `[statement]`; not a `for`'s `i = 0`) that may go, one at least.
fn globalized(
    tree: &Tree,
    decls: &[Decl],
    ds: &[usize],
    us: &[NodeId],
    file_names: &HashSet<(u16, &[u8])>,
) -> Option<Group> {
    let d = bare_local(tree, decls, ds)?;
    if d.scope == FILE || d.param.is_some() || tree.node(d.node).parent != d.scope {
        return None; // not in a block
    }
    if file_names.contains(&(kind_of(tree, d.name), tree.text(d.name))) {
        return None; // the global would be defined twice
    }
    let part = |id: NodeId| tree.policy().kind(tree.node(id).kind).global;
    // every assignment to it is a statement of its own, which goes
    let stands =
        |id: u32| tree.policy().kind(tree.node(NodeId(id)).kind).stands == Stands::Statement;
    let mut off = Vec::new();
    for &u in us {
        let a = tree.node(u).parent;
        if a == FILE || part(NodeId(a)) != Global::Assignment || inside(tree, a, d.node) {
            continue;
        }
        let a = NodeId(a);
        if tree.children(a).find(|&c| tree.node(c).has(flags::NAMED)) != Some(u) {
            continue; // a use on the right
        }
        let statement = tree.node(a).parent;
        if statement == FILE || !stands(statement) || !shortens(tree, NodeId(statement)) {
            return None; // `for (i = 0; ...)`: it would be set all the same
        }
        off.push(NodeId(statement));
    }
    if off.is_empty() {
        return None;
    }
    off.sort_unstable();
    off.dedup();
    let top = top_level(tree, d.node)?;
    let swaps = vec![Swap { node: d.node, with: Text::MovedBefore(top) }];
    Some(Group { decls: vec![d.node], off, swaps })
}

/// The group of the one local declaration `ds` whose next statement
/// assigns it (grammar data `[globals]` and `[statement]`), made one
/// declaration with that value: the name written as the assignment, and
/// the statement gone (`int *p;\n  p = g();` to `int *p = g();`). `None`
/// unless the declaration is of a kind that may move, declares its name
/// alone and without a value, and the statement right after it is `name =
/// value;` with no other use of the name.
fn initialized(tree: &Tree, decls: &[Decl], ds: &[usize], us: &[NodeId]) -> Option<Group> {
    let d = bare_local(tree, decls, ds)?;
    if tree.node(d.node).parent == FILE {
        return None;
    }
    let named = |id: NodeId| {
        let n = tree.node(id);
        n.has(flags::NAMED) && !n.has(flags::EXTRA)
    };
    let statement = siblings_after(tree, d.node).find(|&c| named(c))?;
    let stands = tree.policy().kind(tree.node(statement).kind).stands;
    if stands != Stands::Statement || !shortens(tree, statement) {
        return None;
    }
    let a = tree.children(statement).find(|&c| named(c))?;
    let mut parts = tree.children(a);
    let (left, operator) = (parts.next()?, parts.next()?);
    let assignment = tree.policy().kind(tree.node(a).kind).global == Global::Assignment;
    if !assignment || !us.contains(&left) || tree.text(operator) != b"=" {
        return None;
    }
    if us.iter().any(|&u| u != left && inside(tree, u.0, a)) {
        return None; // `x = x + 1`: the name in its own value
    }
    let swaps = vec![Swap { node: d.name, with: Text::Copy(a) }];
    Some(Group { decls: vec![d.node], off: vec![statement], swaps })
}

/// The one declaration `ds`, if it is of a kind that may be made global
/// (grammar data `[globals]`), may go, and declares its name alone and
/// without a value (a global's must be a constant).
fn bare_local<'d>(tree: &Tree, decls: &'d [Decl], ds: &[usize]) -> Option<&'d Decl> {
    let [d] = ds else { return None };
    let d = &decls[*d];
    let kind = tree.node(d.node).kind;
    if tree.policy().kind(kind).global != Global::Declaration || !shortens(tree, d.node) {
        return None;
    }
    place_and_value(tree, d)?.1.is_none().then_some(d)
}

/// The siblings after `id`, in order (none for the root).
fn siblings_after(tree: &Tree, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    let parent = tree.node(id).parent;
    let siblings = (parent != FILE).then(|| tree.children(NodeId(parent)));
    siblings.into_iter().flatten().skip_while(move |&c| c != id).skip(1)
}

/// The outermost node around `id` below its file's root (the function
/// around a local), if `id` is not that root.
fn top_level(tree: &Tree, id: NodeId) -> Option<NodeId> {
    let mut path = vec![id];
    while tree.node(path[path.len() - 1]).parent != FILE {
        path.push(NodeId(tree.node(path[path.len() - 1]).parent));
    }
    // the path ends at the file's root, or at the forest's
    let below_root = path.len().checked_sub(2 + forest::file_root_depth(tree))?;
    path.get(below_root).copied()
}

/// At least how many bytes switching off `off` (none inside another)
/// removes: a deleted node its own text (and maybe whitespace and a
/// separator), a replaced one the difference to its minimal form.
fn saved(tree: &Tree, off: &[NodeId]) -> i64 {
    let len = |id: NodeId| i64::from(tree.node(id).end - tree.node(id).start);
    off.iter()
        .map(|&id| match tree.node(id).action {
            Action::Replace(r) => len(id) - tree.replacement(r).len() as i64,
            _ => len(id),
        })
        .sum()
}

/// Whether `id` is a call's argument list or one of its arguments: a use
/// there takes the call with it (`g(x);` goes whole rather than become
/// `g();`, which a prototype or a macro would reject).
fn in_call(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    tree.is_call(n.parent)
        || (n.has(flags::ELEMENT) && tree.is_call(tree.node(NodeId(n.parent)).parent))
}

/// Whether switching `id` off changes the text as its action says.
fn switchable(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    n.action != Action::Keep && !n.has(flags::KEPT) && !n.is_empty()
}

/// Whether switching `id` off makes the text shorter.
fn shortens(tree: &Tree, id: NodeId) -> bool {
    switchable(tree, id) && !grouped(tree, id)
}

/// Whether `id` is replaced only as a use in a group (see [`roles::GROUPED`]).
fn grouped(tree: &Tree, id: NodeId) -> bool {
    tree.node(id).role & roles::GROUPED != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// The groups of `text` in `lang`, each as the texts it switches off.
    fn texts(lang: &str, text: &str) -> Vec<Vec<String>> {
        let fe = crate::language::by_name(lang).expect(lang).frontend().expect("front-end");
        let tree = fe.parse(Arc::from(text.as_bytes()));
        let s = |id: NodeId| String::from_utf8_lossy(tree.text(id)).into_owned();
        groups(&tree).iter().map(|g| g.off.iter().map(|&id| s(id)).collect()).collect()
    }

    #[test]
    fn a_variable_goes_with_the_statements_that_use_it() {
        let g = texts(
            "c",
            "int f(void) {\n  int x = 1;\n  int y = 2;\n  x = y;\n  g(x);\n  return y;\n}\n",
        );
        // y first (declared last); its uses in `x = y` (an lvalue is kept, so
        // the statement) and `return y` (the returned value goes)
        assert_eq!(g[0], ["int y = 2;", "x = y;", "y"]);
        // then with its uses as values replaced by `0` (`x = 0;`)
        assert_eq!(g[1], ["int y = 2;", "y", "y"]);
        // a use as an argument takes the call with it (an argument is
        // deleted from its list, never replaced), and x has no other
        // then with its value at its uses (`x = 2;`, `return 2;`; see below)
        assert_eq!(g[2], ["int y = 2;"]);
        assert_eq!(g[3], ["int x = 1;", "x = y;", "g(x);"]);
        assert_eq!(g[4], ["int x = 1;"]);
        // and `void`, which no declaration of the file names, made `int`
        // (one test: the oracle decides, see the undeclared names below)
        assert_eq!(g[5], ["void"]);
        assert_eq!(g.len(), 6, "{g:?}");
    }

    #[test]
    fn a_use_as_long_as_its_minimal_form_is_replaced_only_in_a_group() {
        let src = "int f(int *p) {\n  int i = 1;\n  return p[i];\n}\n";
        let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
        let tree = fe.parse(Arc::from(src.as_bytes()));
        let use_of_i = (0..tree.len() as u32)
            .rev()
            .map(NodeId)
            .find(|&id| tree.text(id) == b"i")
            .expect("a use of i");
        // `i` to `0` alone is no shorter: not a unit of the searches
        assert_eq!(tree.node(use_of_i).role & roles::GROUPED, roles::GROUPED);
        let units = crate::reduce::Units::new(&tree);
        assert!(!units.is_unit(use_of_i));
        // but with its declaration, `p[0]` is what is left of the statement
        assert!(texts("c", src).contains(&vec!["int i = 1;".to_string(), "i".to_string()]));
    }

    #[test]
    fn a_syntax_error_goes_with_the_node_its_recovery_split_off() {
        // tree-sitter-cpp cannot read the attribute of libstdc++'s namespaces
        let g = texts(
            "cpp",
            "namespace std __attribute__ ((__visibility__ (\"default\")))\n{\n}\nint y;\n",
        );
        let error = r#"namespace std __attribute__ ((__visibility__ ("default")))"#;
        assert!(g.contains(&vec![error.to_string(), "{\n}".to_string()]), "{g:?}");
        // without its name, the recovery splits it in three
        let ns = "namespace __attribute__ ((__visibility__ ()))\n{\n}\n";
        let g = texts("cpp", &format!("typedef unsigned size_t;\n{ns}{ns}int y;\n"));
        let three = ["namespace __attribute__", "((__visibility__ ()))", "{\n}"];
        assert!(g.contains(&three.map(String::from).to_vec()), "{g:?}");
        // inside the error, the attribute's name with its parentheses; and
        // a statement the recovery ended with a missing `;`, with its block
        let ns = "namespace std __attribute__ ((__visibility__ ())) {\n  template<typename T> class v {\n  };\n}\n";
        let src = format!("((__visibility__ ()))\n{{\n}}\n{ns}");
        let g = texts("cpp", &src);
        let attribute = ["__attribute__", "((__visibility__ ()))"];
        assert!(g.contains(&attribute.map(String::from).to_vec()), "{g:?}");
        let statement = ["((__visibility__ ()))", "{\n}"];
        assert!(g.contains(&statement.map(String::from).to_vec()), "{g:?}");
        // no error, no such group
        assert!(texts("cpp", "namespace std {\n}\nint y;\n")
            .iter()
            .all(|o| o.len() != 2 || o[1] != "{\n}"));
    }

    #[test]
    fn an_access_specifier_goes_with_its_colon() {
        let g = swapped("cpp", "class A {\n  public:\n  int x;\n  private :\n};\n");
        assert_eq!(
            g,
            ["class A {\n  public:\n  int x;\n};\n", "class A {\n  int x;\n  private :\n};\n"]
        );
    }

    #[test]
    fn a_local_is_made_global_and_its_assignments_go() {
        let src = "int g(void);\nint f(void) {\n  int *p;\n  p = g();\n  return *p;\n}\n";
        assert_eq!(moved("c", src), ["int g(void);\nint *p;\nint f(void) {\n  return *p;\n}\n"]);
        // a C++ member function's local goes before its class
        let src = "struct S {\n  int f() {\n    int n;\n    n = 2;\n    return n;\n  }\n};\n";
        assert_eq!(
            moved("cpp", src),
            ["int n;\nstruct S {\n  int f() {\n    return n;\n  }\n};\n"]
        );
        // in a forest, before its function in its own file
        let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
        let files = ["int a;\n", "int g;\nint f(void) {\n  int *p;\n  p = 0;\n  return *p;\n}\n"];
        let trees: Vec<Tree> = files.iter().map(|f| fe.parse(Arc::from(f.as_bytes()))).collect();
        let tree = forest::splice(&trees);
        let [g] = &globals(&tree)[..] else { panic!("one local made global") };
        let text = rewritten(&tree, g);
        let want = "int a;\n\0int g;\nint *p;\nint f(void) {\n  return *p;\n}\n";
        assert_eq!(text, want);
        // not one with a value, nor one whose name a global has
        let src = "int *p;\nint f(void) {\n  int *p;\n  int q = 1;\n  p = &q;\n  q = 2;\n  return *p;\n}\n";
        assert_eq!(moved("c", src), Vec::<String>::new());
        // nor one that an assignment which cannot go sets (a loop's counter)
        let src =
            "int f(void) {\n  int i;\n  i = 4;\n  for (i = 0; i < 3; i++) ;\n  return i;\n}\n";
        assert_eq!(moved("c", src), Vec::<String>::new());
    }

    #[test]
    fn an_assignment_right_after_a_declaration_becomes_its_value() {
        let src = "int g(void);\nint f(void) {\n  int *p;\n  p = g();\n  return *p;\n}\n";
        let g = swapped("c", src);
        let want = "int g(void);\nint f(void) {\n  int *p = g();\n  return *p;\n}\n";
        assert!(g.contains(&want.to_string()), "{g:?}");
        // not where another statement comes first, the name is in the
        // value, or the assignment is not `=`
        // (and `f`'s value is used, so that it is not made `void`)
        let src = "int f(void) {\n  int a;\n  int i;\n  i = i + 1;\n  a = 2;\n  int j;\n  j += 3;\n  return a + i + j;\n}\nint main(void) { return f(); }\n";
        assert_eq!(swapped("c", src), Vec::<String>::new());
    }

    #[test]
    fn an_inner_declaration_hides_an_outer_one() {
        let g = texts("c", "int x;\nvoid f(void) { int x; x = 1; }\nvoid h(void) { x = 2; }\n");
        assert!(g.contains(&vec!["int x;".to_string(), "x = 1;".to_string()]), "{g:?}");
        let outer = g.iter().find(|o| o[0] == "int x;" && o.len() == 2 && o[1] == "x = 2;");
        assert!(outer.is_some(), "{g:?}");
    }

    #[test]
    fn a_parameter_goes_with_its_arguments_in_every_declaration() {
        let g = texts(
            "c",
            "int f(int a, int b);\nint f(int a, int b) { return b; }\nint main(void) { return f(1, 2); }\n",
        );
        let b = g.iter().find(|o| o.iter().any(|t| t == "2")).expect("b's group");
        assert_eq!(b, &["int b", "int b", "b", "2"]);
        // a is not used: its declarations and its argument
        let a = g.iter().find(|o| o.iter().any(|t| t == "1")).expect("a's group");
        assert_eq!(a, &["int a", "int a", "1"]);
    }

    #[test]
    fn fields_typedefs_macros_and_functions_have_groups() {
        let g = texts(
            "c",
            "#define N 3\ntypedef int T;\nstruct s { int a; int b; };\nT f(struct s *p) { p->a = N; return p->b; }\nvoid h(void) { f(0); }\n",
        );
        let has = |want: &[&str]| g.iter().any(|o| o == want);
        assert!(has(&["#define N 3\n", "p->a = N;"]), "{g:?}");
        assert!(has(&["int a;", "p->a = N;"]), "{g:?}");
        assert!(has(&["int b;", "p->b"]), "{g:?}");
        assert!(has(&["T f(struct s *p) { p->a = N; return p->b; }", "f(0);"]), "{g:?}");
    }

    #[test]
    fn a_typedef_goes_with_its_uses_made_int() {
        let src = "typedef unsigned short u16;\nu16 f(u16 x);\nu16 f(u16 x) { return x; }\n";
        let g = texts("c", src);
        // without its uses, the typedef alone is the 1-minimal phase's
        assert!(g.contains(&vec![
            "typedef unsigned short u16;".to_string(),
            "u16".into(),
            "u16".into(),
            "u16".into(),
            "u16".into()
        ]));
        // a one-letter typedef used twice: still shorter as a whole
        let made_int = |o: &Vec<String>| o[0] == "typedef long T;" && o[1] == "T";
        assert!(texts("c", "typedef long T;\nT a;\nT b;\n").iter().any(made_int));
        // used so often that `int` everywhere would be longer: no such group
        // (only the one with the declarations that use it)
        let many = format!("typedef long T;\n{}", "T a;\n".repeat(9));
        assert!(!texts("c", &many).iter().any(made_int), "{many}");
    }

    /// The texts of `src` with each group of `lang` that swaps a use made.
    fn swapped(lang: &str, src: &str) -> Vec<String> {
        let swaps = groups_of(lang, src, groups).into_iter().filter(|g| !g.1.swaps.is_empty());
        swaps.map(|(tree, g)| rewritten(&tree, &g)).collect()
    }

    /// The texts of `src` with each local of `lang` made global.
    fn moved(lang: &str, src: &str) -> Vec<String> {
        groups_of(lang, src, globals).into_iter().map(|(tree, g)| rewritten(&tree, &g)).collect()
    }

    /// The groups `find` finds in `src`, each with the tree.
    fn groups_of(lang: &str, src: &str, find: fn(&Tree) -> Vec<Group>) -> Vec<(Arc<Tree>, Group)> {
        let fe = crate::language::by_name(lang).expect(lang).frontend().expect("front-end");
        let tree = Arc::new(fe.parse(Arc::from(src.as_bytes())));
        find(&tree).into_iter().map(|g| (Arc::clone(&tree), g)).collect()
    }

    /// The text of `tree` with `g`'s nodes switched off and swaps made.
    fn rewritten(tree: &Tree, g: &Group) -> String {
        let mask = crate::syntax::Mask::new(tree.len()).with_off(&g.off).with_swaps(&g.swaps);
        let mut text = Vec::new();
        crate::syntax::Unparser::new().unparse(tree, &mask, &mut text);
        String::from_utf8_lossy(&text).into_owned()
    }

    #[test]
    fn a_typedef_or_a_macro_goes_with_its_uses_made_its_text() {
        let src = "typedef unsigned i;\ntypedef i o;\n#define N 3\nstruct S { o a[N]; };\n";
        let g = swapped("c", src);
        // `o` by `i` (one more byte at one use, for a typedef of 13)
        assert!(
            g.contains(&"typedef unsigned i;\n#define N 3\nstruct S { i a[N]; };\n".into()),
            "{g:?}"
        );
        assert!(
            g.contains(&"typedef unsigned o;\n#define N 3\nstruct S { o a[N]; };\n".into()),
            "{g:?}"
        );
        // (a directive ends with its line: the layout pass breaks it again)
        assert!(
            g.contains(&"typedef unsigned i;\ntypedef i o;struct S { o a[3]; };\n".into()),
            "{g:?}"
        );
        assert_eq!(g.len(), 3, "{g:?}");
        // not a typedef of more than the bare name, nor one whose uses
        // would grow the text
        assert!(swapped("c", "typedef int *P;\nP a;\n").is_empty());
        // a variable with its value at its one use
        let g = swapped("c", "void b(void) {\n  int c = 0xC407A97B;\n  f(0, c);\n}\n");
        assert_eq!(g, ["void b(void) {\n  f(0, 0xC407A97B);\n}\n"]);
        assert!(swapped("c", "void b(void) {\n  int *p = q;\n  f(p);\n}\n").is_empty());
        let many = format!("typedef unsigned long T;\n{}", "T a;\n".repeat(9));
        assert!(swapped("c", &many).is_empty(), "{many}");
    }

    #[test]
    fn a_type_the_file_does_not_declare_is_made_int_at_every_use_at_once() {
        // `size_t` comes from a header: both uses at once (one alone could
        // make `int *` and `size_t *` meet), but not a shorter name (`T`)
        let g = texts("c", "#include <stddef.h>\nsize_t f(size_t *d, T *e) { return *d; }\n");
        assert!(g.contains(&vec!["size_t".to_string(), "size_t".into()]), "{g:?}");
        assert!(!g.iter().any(|o| o == &["T"]), "{g:?}");
        // a declared one is its declaration's group
        let g = texts("c", "typedef unsigned long size_t;\nsize_t a;\n");
        assert!(!g.iter().any(|o| o == &["size_t"]), "{g:?}");
    }

    #[test]
    fn a_cpp_typedef_goes_with_its_uses_made_int_also_where_types_are_kept() {
        // a function's type is kept by a rule in C++ (it is optional in
        // the node types), but not from a typedef's group
        let g = texts("cpp", "typedef short T;\nT f();\nstruct S { T g(); };\n");
        let want = ["typedef short T;", "T", "T"].map(String::from).to_vec();
        assert!(g.contains(&want), "{g:?}");
        // tree-sitter reads libc's type names as primitive types
        let g =
            texts("cpp", "typedef short uint16_t;\nuint16_t f();\nuint16_t f() { return 0; }\n");
        let want = ["typedef short uint16_t;", "uint16_t", "uint16_t"].map(String::from).to_vec();
        assert!(g.contains(&want), "{g:?}");
    }

    #[test]
    fn javascript_declarations_go_with_their_uses() {
        // x's only use is a required initial value, which has a minimal form
        let g = texts("js", "let x = 1;\nlet y = x;\nconsole.log(y);\n");
        // a JavaScript expression statement may lose its expression: `0;`
        assert!(g.iter().any(|o| o == &["let y = x;", "console.log(y)"]), "{g:?}");
        assert!(g.iter().any(|o| o == &["let x = 1;", "x"]), "{g:?}");
    }

    #[test]
    fn a_javascript_assignment_to_an_undeclared_name_declares_it() {
        // `k = module` without `var`: the statement goes with every use, or
        // its value stands for k (tried first: the test runs the code)
        let src = "k = module;\nhe = {};\nk.exports = he;\n";
        let g = swapped("js", src);
        assert!(g.contains(&"he = {};\nmodule.exports = he;\n".into()), "{g:?}");
        assert!(g.contains(&"k = module;\nk.exports = {};\n".into()), "{g:?}");
        let g = texts("js", src);
        let k = g.iter().position(|o| o == &["k = module;"]).expect("k written as module");
        // (the use's expression by `0`, then the 1-minimal phase's)
        let gone = g.iter().position(|o| o == &["k = module;", "k.exports = he"]);
        assert!(gone.is_some_and(|gone| gone > k), "{g:?}");
        // every assignment to it is the one declaration
        let g = texts("js", "e = 1;\nfunction f() { e = 2; }\ng(e);\n");
        assert!(g.iter().any(|o| o == &["e = 1;", "e = 2;", "g(e)"]), "{g:?}");
        // not a declared name, a parameter, or a property
        let g = texts("js", "var v;\nv = 1;\nfunction f(p) { p = 2; }\no.q = 3;\n");
        assert!(!g.iter().any(|o| o[0] == "v = 1;" || o[0] == "p = 2;"), "{g:?}");
        assert!(!g.iter().any(|o| o.iter().any(|t| t.starts_with("o.q"))), "{g:?}");
    }

    #[test]
    fn statement_semicolons_are_swept_at_once() {
        let fe = crate::language::by_name("js").expect("js").frontend().expect("front-end");
        let src = "var a = 1;\nb = a + 2;\nfor (;;) { foo(b); }\n";
        let tree = fe.parse(Arc::from(src.as_bytes()));
        let g = swept(&tree);
        assert_eq!(g.len(), 1, "{g:?}");
        let mask = crate::syntax::Mask::new(tree.len()).with_swaps(&g[0].swaps);
        let mut text = Vec::new();
        crate::syntax::Unparser::new().unparse(&tree, &mask, &mut text);
        // the `for`'s own semicolons stay
        let want = "var a = 1\nb = a + 2\nfor (;;) { foo(b) }\n";
        assert_eq!(String::from_utf8_lossy(&text), want);
        // C has no sweep; a single semicolon is the token pass's
        assert!(swept(&c_tree("int a;\nint b;\n")).is_empty());
        assert!(swept(&fe.parse(Arc::from(&b"f();\n"[..]))).is_empty());
    }

    #[test]
    fn a_namespace_reopened_right_after_it_closes_merges_with_it() {
        let src = "namespace n {\nint a;\n}\nnamespace n {\nint b;\n}\nnamespace m {\n}\n";
        let g = swapped("cpp", src);
        assert_eq!(g, ["namespace n {\nint a;\nint b;\n}\nnamespace m {\n}\n"], "{g:?}");
        // not two namespaces of different names, nor in C
        assert!(swapped("cpp", "namespace n { int a; }\nnamespace m { int b; }\n").is_empty());
        assert!(merges(&c_tree("int a;\nint b;\n")).is_empty());
    }

    /// The texts of `src` with each `void` group of it applied.
    fn voided_texts(lang: &str, src: &str) -> Vec<String> {
        let fe = crate::language::by_name(lang).expect(lang).frontend().expect("front-end");
        let tree = fe.parse(Arc::from(src.as_bytes()));
        let mut out = Vec::new();
        for g in voided(&tree) {
            let mask = crate::syntax::Mask::new(tree.len()).with_off(&g.off).with_swaps(&g.swaps);
            let mut text = Vec::new();
            crate::syntax::Unparser::new().unparse(&tree, &mask, &mut text);
            out.push(String::from_utf8_lossy(&text).into_owned());
        }
        out
    }

    #[test]
    fn a_function_whose_value_no_call_uses_is_made_void_with_its_prototype() {
        let src = "int step(int x);\nint step(int x) {\n  if (x) return x + 1;\n  g(x);\n  return 0;\n}\n\
                   int used(void) { return 1; }\nint main(void) { step(2); return used(); }\n";
        let g = voided_texts("c", src);
        // not `used`, whose value `main` returns, nor `main`; the space
        // before a `;` is the layout pass's to take
        assert_eq!(
            g,
            ["void step(int x);\nvoid step(int x) {\n  if (x) return ;\n  g(x);\n  return ;\n}\n\
              int used(void) { return 1; }\nint main(void) { step(2); return used(); }\n"]
        );
        // a pointer's function keeps its type: `void *` would keep the values
        assert!(voided_texts("c", "int *p(void) { return 0; }\n").is_empty());
        // not longer: `int f(void) { return; }` has nothing to drop
        assert!(voided_texts("c", "int f(void) { return; }\n").is_empty());
    }

    #[test]
    fn a_member_that_calls_a_function_that_does_not_return_is_made_void_without_it() {
        let src = "void a(int) __attribute__((noreturn));\n\
                   struct B {\n  int f(const B&);\n  int g(int);\n};\n\
                   int B::f(const B& k) {\n  auto l = [](int v) { return v; };\n  a(0);\n  g(l(1));\n}\n";
        let g = voided_texts("cpp", src);
        // the declaration in the class changes with the definition, the
        // lambda's `return` is its own, and `g`, declared only, has no
        // group; the last expression statement first
        let head = "void a(int) __attribute__((noreturn));\n\
                    struct B {\n  void f(const B&);\n  int g(int);\n};\n\
                    void B::f(const B& k) {\n  auto l = [](int v) { return v; };\n";
        assert_eq!(g, [format!("{head}  a(0);\n}}\n"), format!("{head}  g(l(1));\n}}\n")]);
    }

    #[test]
    fn a_member_defined_out_of_its_class_is_defined_in_it() {
        let fe = crate::language::by_name("cpp").expect("cpp").frontend().expect("front-end");
        let src = "struct B {\n  int f(int);\n  int g(int);\n  int g(long);\n};\n\
                   int B::f(int x) { return x; }\nint B::g(int y) { return y; }\nint h(int z) { return z; }\n";
        let tree = fe.parse(Arc::from(src.as_bytes()));
        let mut out = Vec::new();
        for g in defined_in_class(&tree) {
            let mask = crate::syntax::Mask::new(tree.len()).with_off(&g.off).with_swaps(&g.swaps);
            let mut text = Vec::new();
            crate::syntax::Unparser::new().unparse(&tree, &mask, &mut text);
            out.push(String::from_utf8_lossy(&text).into_owned());
        }
        // not `g`, declared twice (which one?), nor `h`, of no class
        assert_eq!(
            out,
            ["struct B {\n  int f(int x){ return x; }\n  int g(int);\n  int g(long);\n};\n\
              int B::g(int y) { return y; }\nint h(int z) { return z; }\n"]
        );
    }

    fn c_tree(src: &str) -> Tree {
        let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
        fe.parse(Arc::from(src.as_bytes()))
    }

    #[test]
    fn javascript_parameters_go_with_their_arguments() {
        let g = texts("js", "function f(a, b) { return b; }\nf(1, 2);\n");
        assert!(g.iter().any(|o| o == &["a", "1"]), "{g:?}");
        assert!(g.iter().any(|o| o == &["b", "b", "2"]), "{g:?}");
    }
}
