//! The tree as text, one node per line, for `--dump-tree`: each node's kind,
//! span, action, flags, and whether it is a unit of the reduction.

use std::fmt;

use super::tree::{flags, Action, NodeId, Tree};

/// Writes the tree, one node per line, for `--dump-tree`.
pub fn dump(
    tree: &Tree,
    out: &mut dyn fmt::Write,
    is_unit: &dyn Fn(NodeId) -> bool,
) -> fmt::Result {
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
        if n.member != 0 && n.slot != 0 {
            marks.push_str(" hoistable");
        }
        let unit = if is_unit(id) { " UNIT" } else { "" };
        let name = tree.kind_name(n.kind);
        let name = if n.has(flags::NAMED) { name.to_string() } else { format!("{name:?}") };
        write!(
            out,
            "{:indent$}{name} {}..{}{action}{marks}{unit}",
            "",
            n.start,
            n.end,
            indent = 2 * depth.len()
        )?;
        if n.subtree_end == id.0 + 1 && n.len() <= 40 {
            write!(out, " {:?}", String::from_utf8_lossy(tree.text(id)))?;
        }
        writeln!(out)?;
        depth.push(n.subtree_end);
    }
    Ok(())
}
