//! Coordinated deletion's binding groups: each declaration with the node
//! around every use of its name (a parameter with its arguments), or with
//! its uses replaced or written as its text; the names the file does not
//! declare, every use at once.

use std::collections::{HashMap, HashSet};

use super::globals::{globalized, initialized, place_and_value};
use super::names::{inside, kind_of, resolved, Resolved};
use super::{grouped, in_call, saved, shortens, switchable, Decl, Group, FILE};
use crate::syntax::tree::{flags, NodeId, Tree};
use crate::syntax::{Swap, Text};

/// The groups of declarations with the uses of their names, those of the
/// names no declaration of the file resolves (see [`undeclared`](super::undeclared)), and
/// those of locals made global (see [`globals`](super::globals())).
pub(super) fn binding_groups(tree: &Tree) -> (Vec<Group>, Vec<Group>, Vec<Group>) {
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
        out.extend(untagged(tree, &decls, ds, us));
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

/// The group of the declarations `ds` with the uses `us`, or `None` when
/// some part of it cannot be switched off. With `zeros`, a use that is
/// replaced only in groups (`x` by `0`, a type name by `int`, see
/// [`roles::GROUPED`](crate::syntax::tree::roles::GROUPED)) is replaced so, also inside a call's argument, rather
/// than taking the statement around it: the group for a variable whose
/// value the test needs somewhere, but not where it comes from, or for a
/// typedef whose uses may all be `int`; kept only when the whole is shorter.
pub(super) fn group(
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
pub(super) fn inlined(tree: &Tree, decls: &[Decl], ds: &[usize], us: &[NodeId]) -> Option<Group> {
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

/// The group of the one typedef `ds` of a type that names a tag (grammar
/// data `[[declare]] tags`) gone for the tag: its tokens before the type
/// (`typedef`) and its name written as nothing, each of its uses `us`
/// written as the type up to its tag (`typedef struct s {int a;} S; S x;`
/// to `struct s {int a;}; struct s x;`), when that is shorter; `None` for
/// a typedef of anything else, of more than its bare name, or of a type
/// with no tag (`typedef struct {int a;} S;`).
pub(super) fn untagged(tree: &Tree, decls: &[Decl], ds: &[usize], us: &[NodeId]) -> Option<Group> {
    let [d] = ds else { return None };
    let d = &decls[*d];
    let (place, value) = place_and_value(tree, d)?;
    let value = value?;
    let at = tree.node(value).parent;
    if !tree.policy().kind(tree.node(value).kind).tag || place != d.name || at != d.node.0 {
        return None;
    }
    let leaf = |id: NodeId| tree.node(id).subtree_end == id.0 + 1;
    let tag =
        tree.children(value).find(|&c| leaf(c) && kind_of(tree, c) == kind_of(tree, d.name))?;
    let token = |id: NodeId| leaf(id) && !tree.node(id).has(flags::NAMED);
    let mut gone = Vec::new();
    let mut after = false;
    for c in tree.children(d.node) {
        if tree.node(c).has(flags::EXTRA) {
            continue;
        }
        match (c == value, c == place) {
            (true, _) => after = true,
            (_, true) => gone.push(c),
            // `typedef`; after the name, its `;`
            _ if token(c) => {
                if !after {
                    gone.push(c);
                }
            }
            _ => return None,
        }
    }
    let len = |a: NodeId, b: NodeId| i64::from(tree.node(b).end - tree.node(a).start);
    let uses: Vec<NodeId> = us.iter().copied().filter(|&u| !inside(tree, u.0, d.node)).collect();
    // the name takes the whitespace before it (`} S;` to `};`)
    let space = i64::from(tree.node(place).start - tree.node(place).lead);
    let removed: i64 = space + gone.iter().map(|&g| len(g, g)).sum::<i64>();
    let added: i64 = uses.iter().map(|&u| len(value, tag) - len(u, u)).sum();
    if removed <= added {
        return None;
    }
    let mut swaps: Vec<Swap> =
        gone.into_iter().map(|node| Swap { node, with: Text::Nothing }).collect();
    swaps.extend(uses.into_iter().map(|node| Swap { node, with: Text::Span(value, tag) }));
    swaps.sort_by_key(|s| s.node);
    Some(Group { decls: vec![d.node], off: Vec::new(), swaps })
}
