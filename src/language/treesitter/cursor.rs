//! What building hdd's tree reads of a parse: a cursor over its nodes in
//! preorder and, of each node, its kind, span and what the parser says of
//! it. A tree-sitter parse is one; the JSON reader ([`super::json`]) is
//! another, which walks the text itself and so builds the same tree without
//! tree-sitter's tree in memory.

/// A node under a [`Cursor`].
pub(super) trait SourceNode {
    /// The grammar's symbol id of the node's kind.
    fn kind_id(&self) -> u16;
    fn is_named(&self) -> bool;
    fn is_extra(&self) -> bool;
    fn is_error(&self) -> bool;
    fn is_missing(&self) -> bool;
    fn start_byte(&self) -> usize;
    fn end_byte(&self) -> usize;
    /// Whether the node has no children.
    fn is_leaf(&self) -> bool;
    /// An id no other node of the same parse has.
    fn id(&self) -> usize;
}

/// A cursor over a parse, moved in preorder as tree-sitter's `TreeCursor` is.
pub(super) trait Cursor {
    type Node: SourceNode;
    fn node(&self) -> Self::Node;
    /// The grammar's field id of the current node in its parent (0: none).
    fn field_id(&self) -> u16;
    /// How far below the root the current node is (the root: 0).
    fn depth(&self) -> u32;
    fn goto_first_child(&mut self) -> bool;
    fn goto_next_sibling(&mut self) -> bool;
    fn goto_parent(&mut self) -> bool;
}

impl SourceNode for tree_sitter::Node<'_> {
    fn kind_id(&self) -> u16 {
        tree_sitter::Node::kind_id(self)
    }
    fn is_named(&self) -> bool {
        tree_sitter::Node::is_named(self)
    }
    fn is_extra(&self) -> bool {
        tree_sitter::Node::is_extra(self)
    }
    fn is_error(&self) -> bool {
        tree_sitter::Node::is_error(self)
    }
    fn is_missing(&self) -> bool {
        tree_sitter::Node::is_missing(self)
    }
    fn start_byte(&self) -> usize {
        tree_sitter::Node::start_byte(self)
    }
    fn end_byte(&self) -> usize {
        tree_sitter::Node::end_byte(self)
    }
    fn is_leaf(&self) -> bool {
        self.child_count() == 0
    }
    fn id(&self) -> usize {
        tree_sitter::Node::id(self)
    }
}

impl<'t> Cursor for tree_sitter::TreeCursor<'t> {
    type Node = tree_sitter::Node<'t>;
    fn node(&self) -> Self::Node {
        tree_sitter::TreeCursor::node(self)
    }
    fn field_id(&self) -> u16 {
        tree_sitter::TreeCursor::field_id(self).map_or(0, |f| f.get())
    }
    fn depth(&self) -> u32 {
        tree_sitter::TreeCursor::depth(self)
    }
    fn goto_first_child(&mut self) -> bool {
        tree_sitter::TreeCursor::goto_first_child(self)
    }
    fn goto_next_sibling(&mut self) -> bool {
        tree_sitter::TreeCursor::goto_next_sibling(self)
    }
    fn goto_parent(&mut self) -> bool {
        tree_sitter::TreeCursor::goto_parent(self)
    }
}
