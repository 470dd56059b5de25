//! Name resolution: every name token resolved to its declarations, the
//! innermost scope around it that declares that name (`name_uses`, for
//! `Batch`'s users and the renaming view).

use std::collections::{HashMap, HashSet};

use super::{grouped, Decl, FILE};
use crate::syntax::policy::Declare;
use crate::syntax::tree::{flags, roles, NodeId, Tree};

/// The names of a tree resolved: its declarations, grouped by the name
/// they declare, with the name tokens that use each group.
pub(super) struct Resolved<'t> {
    pub(super) decls: Vec<Decl>,
    /// Per group: its declarations (indexes into `decls`).
    pub(super) members: Vec<Vec<usize>>,
    /// Per group: the name tokens that resolve to it.
    pub(super) uses: Vec<Vec<NodeId>>,
    /// The calls of each function name.
    pub(super) calls: HashMap<(u16, &'t [u8]), Vec<NodeId>>,
    /// The uses of each name the file does not declare, in the order of
    /// their first use.
    pub(super) undeclared: Vec<Vec<NodeId>>,
}

/// Resolves every name token of `tree` to its group of declarations (none
/// for a language without names).
pub(super) fn resolved(tree: &Tree) -> Option<Resolved<'_>> {
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
/// declaration, see [`Units::with_uses`](crate::reduce::Units::with_uses)).
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
pub(super) fn resolve(
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

pub(super) fn new_group<T>(members: &mut Vec<Vec<T>>) -> usize {
    members.push(Vec::new());
    members.len() - 1
}

/// Every declared name of `tree`, in preorder, then the implicit ones (see
/// [`implicit`]); a name claimed by an outer declaration (a C declaration
/// and its declarator) is declared once.
pub(super) fn declarations(tree: &Tree) -> Vec<Decl> {
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
pub(super) fn implicit(tree: &Tree, decls: &[Decl], assignments: &[NodeId]) -> Vec<Decl> {
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
pub(super) fn name_of(tree: &Tree, id: NodeId, rule: Declare) -> Option<NodeId> {
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
pub(super) fn first_name(tree: &Tree, id: NodeId, name: u16, below: bool) -> Option<NodeId> {
    let n = tree.node(id);
    let from = if below { id.0 + 1 } else { id.0 };
    (from..n.subtree_end).map(NodeId).find(|&c| kind_of(tree, c) == name)
}

/// The kind a name token counts as.
pub(super) fn kind_of(tree: &Tree, id: NodeId) -> u16 {
    tree.policy().name_kind(tree.node(id).kind)
}

/// The nearest scope strictly above `id`.
pub(super) fn scope_of(tree: &Tree, id: NodeId) -> u32 {
    let mut at = tree.node(id).parent;
    while at != FILE && !tree.policy().kind(tree.node(NodeId(at)).kind).scope {
        at = tree.node(NodeId(at)).parent;
    }
    at
}

/// The nearest declaring node above the parameter list `list`.
pub(super) fn function_node(
    tree: &Tree,
    list: NodeId,
    named: &HashMap<u32, NodeId>,
) -> Option<NodeId> {
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
pub(super) fn owner(tree: &Tree, list: NodeId, named: &HashMap<u32, NodeId>) -> Option<NodeId> {
    function_node(tree, list, named).and_then(|f| named.get(&f.0).copied())
}

/// Whether node `at` (or the file) lies inside `outer`.
pub(super) fn inside(tree: &Tree, at: u32, outer: NodeId) -> bool {
    at != FILE && outer.0 <= at && at < tree.node(outer).subtree_end
}
