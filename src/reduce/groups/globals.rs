//! Locals made global (grammar data `[globals]`): a local declared
//! without a value moved before its function, its assignments gone, or
//! given the value the statement after it assigns.

use std::collections::HashSet;

use super::names::{inside, kind_of};
use super::{shortens, siblings_after, top_level, Decl, Group, FILE};
use crate::syntax::policy::{Global, Stands};
use crate::syntax::tree::{flags, roles, NodeId, Tree};
use crate::syntax::{Swap, Text};

/// The node of declaration `d` that holds its name (the declaration's
/// name field, or the element of a list that is the declaration: `b = 2`
/// of `int a, b = 2;`), and the text there that may stand for the name
/// (grammar data `[[declare]] inline`: the `2`), if any.
pub(super) fn place_and_value(tree: &Tree, d: &Decl) -> Option<(NodeId, Option<NodeId>)> {
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
pub(super) fn globalized(
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
pub(super) fn initialized(
    tree: &Tree,
    decls: &[Decl],
    ds: &[usize],
    us: &[NodeId],
) -> Option<Group> {
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
pub(super) fn bare_local<'d>(tree: &Tree, decls: &'d [Decl], ds: &[usize]) -> Option<&'d Decl> {
    let [d] = ds else { return None };
    let d = &decls[*d];
    let kind = tree.node(d.node).kind;
    if tree.policy().kind(kind).global != Global::Declaration || !shortens(tree, d.node) {
        return None;
    }
    place_and_value(tree, d)?.1.is_none().then_some(d)
}
