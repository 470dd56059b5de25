//! The tree as text, one node per line, for `--dump-tree`: each node's kind,
//! span, action, flags, and whether it is a unit of the reduction.
//!
//! A node is indented two spaces per ancestor, up to [`MAX_INDENT`]
//! ancestors; deeper nodes say their depth instead (`[40000] array ...`),
//! so the output of a deeply nested input grows with its size, not with the
//! square of its depth. Lines are written as they are made, never gathered
//! in one string: the dump of a large input costs no memory of its own.

use std::io;

use super::tree::{flags, roles, Action, NodeId, Tree};

/// The deepest nesting shown by indentation.
pub(crate) const MAX_INDENT: usize = 64;

/// Writes the tree, one node per line, for `--dump-tree`.
pub(crate) fn dump(
    tree: &Tree,
    out: &mut dyn io::Write,
    is_unit: &dyn Fn(NodeId) -> bool,
) -> io::Result<()> {
    let mut depth = Vec::<u32>::new(); // subtree ends of the open ancestors
    for (i, n) in tree.nodes().iter().enumerate() {
        while depth.last().is_some_and(|&e| e <= i as u32) {
            depth.pop();
        }
        let id = NodeId(i as u32);
        let action = match n.action {
            Action::Keep => String::new(),
            Action::Delete => " delete".to_string(),
            Action::Replace(r) => {
                format!(" replace={:?}", String::from_utf8_lossy(tree.replacement(r)))
            }
        };
        let mut marks = String::new();
        for (flag, name) in [
            (flags::EXTRA, " extra"),
            (flags::ERROR, " error"),
            (flags::MISSING, " missing"),
            (flags::LIST, " list"),
            (flags::ELEMENT, " element"),
            (flags::SEPARATOR, " separator"),
            (flags::KEPT, " kept"),
        ] {
            if n.has(flag) {
                marks.push_str(name);
            }
        }
        if n.role & roles::GROUPED != 0 {
            marks.push_str(" in-groups");
        }
        if n.member != 0 && n.slot != 0 {
            marks.push_str(" hoistable");
        }
        let unit = if is_unit(id) { " UNIT" } else { "" };
        let name = tree.kind_name(n.kind);
        let name = if n.has(flags::NAMED) { name.to_string() } else { format!("{name:?}") };
        let indent = 2 * depth.len().min(MAX_INDENT);
        write!(out, "{:indent$}", "")?;
        if depth.len() > MAX_INDENT {
            write!(out, "[{}] ", depth.len())?;
        }
        write!(out, "{name} {}..{}{action}{marks}{unit}", n.start, n.end)?;
        if n.subtree_end == id.0 + 1 && n.len() <= 40 {
            write!(out, " {:?}", String::from_utf8_lossy(tree.text(id)))?;
        }
        writeln!(out)?;
        depth.push(n.subtree_end);
    }
    Ok(())
}

/// Every node as `kind text`, indented by depth: a tree's shape, for the
/// front-ends' tests.
#[cfg(test)]
pub(crate) fn shape(tree: &Tree) -> Vec<String> {
    let mut depth = Vec::<u32>::new();
    let mut out = Vec::new();
    for (i, n) in tree.nodes().iter().enumerate() {
        while depth.last().is_some_and(|&e| e <= i as u32) {
            depth.pop();
        }
        let text = String::from_utf8_lossy(tree.text(NodeId(i as u32)));
        out.push(format!("{}{} {text}", "  ".repeat(depth.len()), tree.kind_name(n.kind)));
        depth.push(n.subtree_end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::tree::TreeBuilder;
    use std::sync::Arc;

    /// Nodes nested `depth` deep, as `[[[...]]]`.
    fn nested(depth: usize) -> Tree {
        let src: Vec<u8> = [b"[".repeat(depth), b"]".repeat(depth)].concat();
        let mut b = TreeBuilder::new(Arc::from(src));
        for d in 0..depth {
            b.open(0, flags::NAMED, d, 2 * depth - d);
        }
        b.finish(Default::default())
    }

    #[test]
    fn deep_nesting_is_numbered_not_indented_without_end() {
        let mut out = Vec::new();
        dump(&nested(40_000), &mut out, &|_| false).expect("formats");
        let out = String::from_utf8(out).expect("utf-8");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 40_000);
        assert!(lines[3].starts_with("      ?"), "{}", lines[3]);
        let last = lines[39_999];
        assert!(last.starts_with(&format!("{}[39999] ", " ".repeat(2 * MAX_INDENT))), "{last}");
        // linear in the depth: at most the indentation cap and the numbers
        assert!(out.len() < 40_000 * (2 * MAX_INDENT + 40), "{} bytes", out.len());
    }
}
