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
//! assignments gone (see [`globals`](mod@globals)).

mod bindings;
mod dependencies;
mod errors;
mod functions;
mod globals;
mod names;
mod sweeps;
#[cfg(test)]
mod tests;

pub(crate) use dependencies::dependencies;
pub(crate) use names::{declared_names, name_uses};
pub(crate) use sweeps::swept;

use crate::syntax::tree::{flags, roles, Action, NodeId, Tree, NO_PARENT};
use crate::syntax::{forest, Swap};
use bindings::binding_groups;
use errors::{error_groups, with_next_token};
use functions::{defined_in_class, prototyped, voided};
use sweeps::merges;

pub(super) const FILE: u32 = NO_PARENT;

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
pub(super) struct Decl {
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
/// [`inlined`](bindings::inlined)); each name the file does not declare (see
/// [`undeclared`]); each syntax error with the node after it (see
/// [`error_groups`]); each pair of blocks that may merge (see [`merges`]);
/// each node with the token after it (see [`with_next_token`]); each
/// function definition made a declaration (see [`prototyped`]); each
/// function that may be made `void` (see [`voided`]); and each member
/// function that may be defined in its class (see [`defined_in_class`]).
pub(crate) fn groups(tree: &Tree) -> Vec<Group> {
    let (bound, undeclared, _) = binding_groups(tree);
    let mut out = error_groups(tree);
    out.extend(bound);
    out.extend(undeclared);
    out.extend(merges(tree));
    out.extend(with_next_token(tree));
    out.extend(prototyped(tree));
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

/// The groups of locals made global (see [`globalized`](globals::globalized)), the latest
/// declaration first: a last resort, which the plan tries when nothing
/// else shortens the text.
pub(crate) fn globals(tree: &Tree) -> Vec<Group> {
    let mut out = binding_groups(tree).2;
    out.sort_by_key(|g| std::cmp::Reverse(g.decls[0]));
    out
}

/// The siblings after `id`, in order (none for the root).
pub(super) fn siblings_after(tree: &Tree, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    let parent = tree.node(id).parent;
    let siblings = (parent != FILE).then(|| tree.children(NodeId(parent)));
    siblings.into_iter().flatten().skip_while(move |&c| c != id).skip(1)
}

/// The outermost node around `id` below its file's root (the function
/// around a local), if `id` is not that root.
pub(super) fn top_level(tree: &Tree, id: NodeId) -> Option<NodeId> {
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
pub(super) fn saved(tree: &Tree, off: &[NodeId]) -> i64 {
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
pub(super) fn in_call(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    tree.is_call(n.parent)
        || (n.has(flags::ELEMENT) && tree.is_call(tree.node(NodeId(n.parent)).parent))
}

/// Whether switching `id` off changes the text as its action says.
pub(super) fn switchable(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    n.action != Action::Keep && !n.has(flags::KEPT) && !n.is_empty()
}

/// Whether switching `id` off makes the text shorter.
pub(super) fn shortens(tree: &Tree, id: NodeId) -> bool {
    switchable(tree, id) && !grouped(tree, id)
}

/// Whether `id` is replaced only as a use in a group (see [`roles::GROUPED`]).
pub(super) fn grouped(tree: &Tree, id: NodeId) -> bool {
    tree.node(id).role & roles::GROUPED != 0
}
