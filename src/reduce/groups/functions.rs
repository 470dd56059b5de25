//! Function rewrites (grammar data `[functions]`): a function whose value
//! no call uses made `void`, a definition made a declaration, and a C++
//! member defined out of its class defined in it.

use std::collections::{HashMap, HashSet};

use super::{shortens, Group};
use crate::syntax::policy::{FnPart, FnTexts, KindPolicy, Stands};
use crate::syntax::tree::{flags, roles, NodeId, Tree};
use crate::syntax::{Swap, Text};

/// How many of a function's last expression statements are each tried as
/// the call that does not return, when it is made `void` (see [`voided`]).
pub(super) const NORETURN_CANDIDATES: usize = 3;

/// Each function whose value no call uses, made `void` (grammar data
/// `[functions]`): its return type, and that of every declaration of its name,
/// written as the `void` text, and the values of its `return`s as nothing
/// (`int f(void) { g(); return 0; }` to `void f(void) { g(); return; }`).
/// Where no `return` has a value, one of its body's last expression
/// statements goes instead, each in a group of its own: a function that
/// must not fall off its end without a value calls a function that does
/// not return (`a (0, 0);`, there for `-Werror=return-type`), which no
/// removal alone may take. Either only when the text gets shorter.
pub(super) fn voided(tree: &Tree) -> Vec<Group> {
    let policy = tree.policy();
    if policy.kinds.iter().all(|k| k.function == FnPart::No) {
        return Vec::new();
    }
    let Functions { defined, declared, used } = functions(tree);
    let fixed = &policy.fixed_names;
    let mut out = Vec::new();
    for (f, name, texts) in defined {
        let text = texts.void;
        if used.contains(name) || fixed.iter().any(|x| **x == *name) {
            continue;
        }
        let decls = declared.get(name).map_or(&[][..], Vec::as_slice);
        let Some(types) = std::iter::once(f)
            .chain(decls.iter().copied())
            .map(|d| return_type(tree, d))
            .collect::<Option<Vec<NodeId>>>()
        else {
            continue;
        };
        out.extend(made_void(tree, f, text, &types));
    }
    out
}

/// The functions of a tree, by the name each declares (see [`fn_name`]).
struct Functions<'t> {
    /// Each definition, its name and the replacement texts of its rewrites.
    defined: Vec<(NodeId, &'t [u8], FnTexts)>,
    /// The declarations (prototypes) of each name.
    declared: HashMap<&'t [u8], Vec<NodeId>>,
    /// The names of the functions a call uses the value of (a call that is
    /// not a statement of its own).
    used: HashSet<&'t [u8]>,
}

/// The functions `tree` defines and declares, and those whose value a call
/// uses.
fn functions(tree: &Tree) -> Functions<'_> {
    let mut out = Functions { defined: Vec::new(), declared: HashMap::new(), used: HashSet::new() };
    for (i, n) in tree.nodes().iter().enumerate() {
        let id = NodeId(i as u32);
        match part(tree, id) {
            FnPart::Definition(texts) => {
                out.defined.extend(fn_name(tree, id).map(|f| (id, f, texts)))
            }
            FnPart::Declaration => {
                if let Some(f) = fn_name(tree, id) {
                    out.declared.entry(f).or_default().push(id);
                }
            }
            _ => {}
        }
        if tree.is_call(id.0) && !statement(tree, n.parent) {
            if let Some(callee) = tree.children(id).find(|&c| named(tree, c)) {
                out.used.insert(tree.text(NodeId(tree.node(callee).subtree_end - 1)));
            }
        }
    }
    out
}

/// Each function definition made a declaration (grammar data `[functions]
/// prototype`): its body, its last child, written as the prototype's text
/// (`int f(void) { return g(); }` to `int f(void);`), for a test that needs
/// the function declared (its type, a call of it that compiles) but not
/// what it does. `fixed_names` (`main`) keep their bodies; a body already
/// as short as the text is left alone.
pub(super) fn prototyped(tree: &Tree) -> Vec<Group> {
    let policy = tree.policy();
    let prototype =
        |k: &KindPolicy| matches!(k.function, FnPart::Definition(t) if t.prototype.is_some());
    if !policy.kinds.iter().any(prototype) {
        return Vec::new();
    }
    let fixed = &policy.fixed_names;
    let mut out = Vec::new();
    for (i, _) in tree.nodes().iter().enumerate() {
        let f = NodeId(i as u32);
        let FnPart::Definition(FnTexts { prototype: Some(text), .. }) = part(tree, f) else {
            continue;
        };
        let Some(name) = fn_name(tree, f) else { continue };
        let Some(body) = tree.children(f).last() else { continue };
        let n = tree.node(body);
        let short = (n.end - n.start) as usize <= tree.replacement(text).len();
        if short || !named(tree, body) || fixed.iter().any(|x| **x == *name) {
            continue;
        }
        let swaps = vec![Swap { node: body, with: Text::Replacement(text) }];
        out.push(Group { decls: vec![f], off: Vec::new(), swaps });
    }
    out
}

/// The groups that make function `f` `void` (the replacement `text`), its
/// return type and its declarations' (`types`) written as that: with its
/// `return`s' values gone, or where it has none, with one of its last calls
/// gone; none where the text would not get shorter.
fn made_void(tree: &Tree, f: NodeId, text: u16, types: &[NodeId]) -> Vec<Group> {
    let void = tree.replacement(text);
    if tree.text(types[0]) == void {
        return Vec::new();
    }
    let values = return_values(tree, f);
    let len = |id: NodeId| i64::from(tree.node(id).end - tree.node(id).start);
    let longer: i64 = types.iter().map(|&t| void.len() as i64 - len(t)).sum();
    let swap = |node, with| Swap { node, with };
    let mut swaps: Vec<Swap> = types.iter().map(|&t| swap(t, Text::Replacement(text))).collect();
    if values.is_empty() {
        // the call that does not return: one of the body's last few
        // expression statements, the last first
        let body = tree.children(f).last().into_iter();
        let calls = body.flat_map(|b| tree.children(b)).filter(|&c| statement(tree, c.0));
        let calls: Vec<NodeId> = calls.filter(|&c| shortens(tree, c)).collect();
        let mut out = Vec::new();
        for &call in calls.iter().rev().take(NORETURN_CANDIDATES) {
            if len(call) > longer {
                out.push(Group { decls: vec![f], off: vec![call], swaps: swaps.clone() });
            }
        }
        return out;
    }
    if values.iter().map(|&v| len(v)).sum::<i64>() <= longer {
        return Vec::new();
    }
    swaps.extend(values.into_iter().map(|v| swap(v, Text::Nothing)));
    swaps.sort_by_key(|s| s.node);
    vec![Group { decls: vec![f], off: Vec::new(), swaps }]
}

/// The values of function `f`'s own `return`s (not those of a function
/// inside it).
fn return_values(tree: &Tree, f: NodeId) -> Vec<NodeId> {
    let mut values = Vec::new();
    let mut i = f.0 + 1;
    while i < tree.node(f).subtree_end {
        let id = NodeId(i);
        match part(tree, id) {
            FnPart::Definition(_) | FnPart::Nested => {
                i = tree.node(id).subtree_end;
                continue;
            }
            FnPart::Return => values.extend(tree.children(id).find(|&c| named(tree, c))),
            _ => {}
        }
        i += 1;
    }
    values
}

/// What part of a function node `id` is (grammar data `[functions]`).
fn part(tree: &Tree, id: NodeId) -> FnPart {
    tree.policy().kind(tree.node(id).kind).function
}

/// Whether `id` is a named node of the grammar, not an extra (a comment).
fn named(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    n.has(flags::NAMED) && !n.has(flags::EXTRA)
}

/// The name a function's definition or declaration declares: the last
/// token of its function declarator's own declarator (`f`,
/// `Bignum::Divide`); `None` for a pointer's declarator (`int *f()`).
fn fn_name(tree: &Tree, decl: NodeId) -> Option<&[u8]> {
    let d = tree.children(decl).find(|&c| part(tree, c) == FnPart::Declarator)?;
    let inner = tree.children(d).find(|&c| named(tree, c))?;
    Some(tree.text(NodeId(tree.node(inner).subtree_end - 1)))
}

/// The return type of a function's definition or declaration.
fn return_type(tree: &Tree, decl: NodeId) -> Option<NodeId> {
    tree.children(decl).find(|&c| tree.node(c).role & roles::TYPE != 0)
}

/// Whether node `id` stands as a statement.
fn statement(tree: &Tree, id: u32) -> bool {
    tree.policy().kind(tree.node(NodeId(id)).kind).stands == Stands::Statement
}

/// Each member function defined out of its class (`int B::f(int x) {
/// ... }`) defined in it instead (grammar data `[functions] classes`): its
/// one declaration in the class takes the definition's parameters, with
/// their names, and its body in the place of its `;`, and the definition
/// goes: `struct B { int f(int); }; int B::f(int x) { return x; }` to
/// `struct B { int f(int x){ return x; } };` (the layout pass spaces it).
pub(super) fn defined_in_class(tree: &Tree) -> Vec<Group> {
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
