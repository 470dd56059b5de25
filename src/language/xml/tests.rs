//! The XML front-end on small documents: the tree's shape, what may be
//! deleted or replaced, and the syntax errors of malformed input.

use std::sync::Arc;

use crate::syntax::tree::{Action, Tree};
use crate::syntax::{Mask, NodeId, Unparser};

fn parse(src: &str) -> Tree {
    let xml = crate::language::by_name("xml").expect("xml").frontend().expect("front-end");
    xml.parse(Arc::from(src.as_bytes()))
}

/// Every node as `kind text`, indented by depth.
fn shape(tree: &Tree) -> Vec<String> {
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

fn node<'t>(tree: &'t Tree, text: &str) -> (NodeId, &'t crate::syntax::tree::Node) {
    let i = (0..tree.len())
        .find(|&i| tree.text(NodeId(i as u32)) == text.as_bytes())
        .unwrap_or_else(|| panic!("no node {text:?}"));
    (NodeId(i as u32), tree.node(NodeId(i as u32)))
}

#[test]
fn elements_attributes_content_and_text() {
    let tree = parse("<a x=\"1\"><b>t</b><c/></a>");
    assert_eq!(
        shape(&tree),
        [
            "document <a x=\"1\"><b>t</b><c/></a>",
            "  element <a x=\"1\"><b>t</b><c/></a>",
            "    attribute x=\"1\"",
            "    content ><b>t</b><c/></a>",
            "      element <b>t</b>",
            "        content >t</b>",
            "          text t",
            "          end_tag </b>",
            "      element <c/>",
            "      end_tag </a>",
        ]
    );
    assert_eq!(tree.error_count(), 0);
}

#[test]
fn content_is_replaced_by_an_empty_tag_and_the_rest_deleted() {
    let tree = parse("<a x=\"1\"><b>t</b></a>");
    let (content, n) = node(&tree, "><b>t</b></a>");
    assert!(matches!(n.action, Action::Replace(_)));
    assert!(matches!(node(&tree, "x=\"1\"").1.action, Action::Delete));
    assert!(matches!(node(&tree, "<b>t</b>").1.action, Action::Delete));
    assert!(matches!(node(&tree, "</a>").1.action, Action::Keep));
    let mut mask = Mask::new(tree.len());
    mask.set_off(content);
    let mut out = Vec::new();
    Unparser::new().unparse(&tree, &mask, &mut out);
    assert_eq!(out, b"<a x=\"1\"/>");
}

#[test]
fn malformed_documents_parse_with_their_errors_counted() {
    // well-formed: no error
    assert_eq!(parse("<?xml version=\"1.0\"?>\n<r><!-- c --><![CDATA[x]]></r>\n").error_count(), 0);
    // an element never closed
    assert_eq!(parse("<r><a></r>").error_count(), 1);
    // an end tag that closes nothing
    assert_eq!(parse("<r></x></r>").error_count(), 1);
    // no root, and two roots
    assert_eq!(parse("text only").error_count(), 2);
    assert_eq!(parse("<a/><b/>").error_count(), 1);
    // an attribute without a quoted value
    assert!(parse("<r a=1/>").error_count() >= 1);
}

#[test]
fn an_unclosed_element_ends_where_its_parent_does() {
    let tree = parse("<r><a>t</r>");
    let (_, a) = node(&tree, "<a>t");
    let (_, r) = node(&tree, "<r><a>t</r>");
    assert!(a.end <= r.end && tree.text(NodeId(0)) == b"<r><a>t</r>");
}

#[test]
fn the_internal_subset_of_a_doctype_is_its_declarations() {
    let src = "<!DOCTYPE r [\n<!ENTITY e \"v\">\n<!-- c -->\n<!ELEMENT r ANY>\n]>\n<r>&e;</r>";
    let tree = parse(src);
    let (doctype, _) = node(&tree, &src[..src.find("]>").expect("end") + 2]);
    let children: Vec<(&str, String)> = tree
        .children(doctype)
        .map(|c| {
            let kind = tree.kind_name(tree.node(c).kind);
            (kind, String::from_utf8_lossy(tree.text(c)).into_owned())
        })
        .collect();
    assert_eq!(
        children,
        [
            ("markup_declaration", "<!ENTITY e \"v\">".to_string()),
            ("comment", "<!-- c -->".to_string()),
            ("markup_declaration", "<!ELEMENT r ANY>".to_string()),
        ]
    );
    assert_eq!(tree.error_count(), 0);
}
