//! The XML front-end on small documents: the tree's shape, what may be
//! deleted or replaced, the syntax errors of malformed input, and documents
//! with a byte order mark or in an encoding other than UTF-8.

use std::sync::Arc;

use crate::syntax::dump::shape;
use crate::syntax::tree::{Action, Tree};
use crate::syntax::{Mask, NodeId, Unparser};

fn parse(src: &str) -> Tree {
    parse_bytes(src.as_bytes())
}

fn parse_bytes(src: &[u8]) -> Tree {
    let xml = crate::language::by_name("xml").expect("xml").frontend().expect("front-end");
    xml.parse(Arc::from(src))
}

/// The tree unparsed with `off` switched off.
fn unparse(tree: &Tree, off: &[NodeId]) -> Vec<u8> {
    let mut mask = Mask::new(tree.len());
    for &id in off {
        mask.set_off(id);
    }
    let mut out = Vec::new();
    Unparser::new().unparse(tree, &mask, &mut out);
    out
}

/// The kinds of the nodes, in preorder.
fn kinds(tree: &Tree) -> Vec<&str> {
    tree.nodes().iter().map(|n| tree.kind_name(n.kind)).collect()
}

fn node(tree: &Tree, text: impl AsRef<[u8]>) -> (NodeId, &crate::syntax::tree::Node) {
    let i = (0..tree.len())
        .find(|&i| tree.text(NodeId(i as u32)) == text.as_ref())
        .unwrap_or_else(|| panic!("no node {:?}", String::from_utf8_lossy(text.as_ref())));
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
    // a raw `<` in an attribute's value (an XPath test written unescaped)
    assert_eq!(parse("<r><if test=\"$a <= 2\"/></r>").error_count(), 1);
    assert_eq!(parse("<r><if test=\"$a &lt;= 2\"/></r>").error_count(), 0);
}

#[test]
fn an_unclosed_element_ends_where_its_parent_does() {
    let tree = parse("<r><a>t</r>");
    let (_, a) = node(&tree, "<a>t");
    let (_, r) = node(&tree, "<r><a>t</r>");
    assert!(a.end <= r.end && tree.text(NodeId(0)) == b"<r><a>t</r>");
}

#[test]
fn the_external_identifier_of_a_doctype_may_go() {
    for (src, id) in [
        (
            "<!DOCTYPE spec SYSTEM \"spec.dtd\" [<!ENTITY e \"v\">]><spec/>",
            Some("SYSTEM \"spec.dtd\""),
        ),
        (
            "<!DOCTYPE html PUBLIC '-//W3C//DTD XHTML 1.0//EN' 'x.dtd'><html/>",
            Some("PUBLIC '-//W3C//DTD XHTML 1.0//EN' 'x.dtd'"),
        ),
        ("<!DOCTYPE r [<!ENTITY e \"SYSTEM\">]><r/>", None),
        ("<!DOCTYPE r SYSTEM><r/>", None),
    ] {
        let tree = parse(src);
        let ids: Vec<(String, Action)> = tree
            .nodes()
            .iter()
            .enumerate()
            .filter(|(_, n)| tree.kind_name(n.kind) == "external_id")
            .map(|(i, n)| {
                (String::from_utf8_lossy(tree.text(NodeId(i as u32))).into_owned(), n.action)
            })
            .collect();
        assert_eq!(
            ids,
            id.map(|t| (t.to_string(), Action::Delete)).into_iter().collect::<Vec<_>>(),
            "{src}"
        );
        assert_eq!(tree.error_count(), 0);
    }
}

/// `src` with the nodes that read `texts` switched off.
fn without(src: &str, texts: &[&str]) -> String {
    let tree = parse(src);
    let mut mask = Mask::new(tree.len());
    for t in texts {
        let (id, _) = node(&tree, t);
        assert_ne!(tree.node(id).action, Action::Keep, "{t} may go");
        mask.set_off(id);
    }
    let mut out = Vec::new();
    Unparser::new().unparse(&tree, &mask, &mut out);
    String::from_utf8(out).expect("utf-8")
}

#[test]
fn content_models_lose_particles_with_their_separators() {
    let src = "<!DOCTYPE r [<!ELEMENT r (a, (b | c)*, d?)>]><r/>";
    assert_eq!(without(src, &["d?"]), "<!DOCTYPE r [<!ELEMENT r (a, (b | c)*)>]><r/>");
    assert_eq!(without(src, &["a"]), "<!DOCTYPE r [<!ELEMENT r ((b | c)*, d?)>]><r/>");
    assert_eq!(without(src, &["(b | c)*", "d?"]), "<!DOCTYPE r [<!ELEMENT r (a)>]><r/>");
    assert_eq!(without(src, &["b"]), "<!DOCTYPE r [<!ELEMENT r (a, (c)*, d?)>]><r/>");
    let mixed = "<!DOCTYPE r [<!ELEMENT r (#PCDATA|em|b)*>]><r/>";
    assert_eq!(without(mixed, &["em"]), "<!DOCTYPE r [<!ELEMENT r (#PCDATA|b)*>]><r/>");
    assert_eq!(parse(src).error_count(), 0);
}

#[test]
fn regression_a_deeply_nested_content_model_does_not_overflow_the_stack() {
    // found by the fuzzer: groups were parsed by recursion, one call per
    // `(`, so `hdd --dump-tree` aborted with a stack overflow
    let depth = 200_000;
    let src =
        format!("<!DOCTYPE r [<!ELEMENT r {}a{}>]><r/>", "(".repeat(depth), ")".repeat(depth));
    let tree = parse(&src);
    assert_eq!(kinds(&tree).iter().filter(|k| **k == "content_model").count(), depth);
    assert_eq!(unparse(&tree, &[]), src.as_bytes());
    assert_eq!(tree.error_count(), 0);
    // the innermost group but one, deleted with its particle and separators
    let inner = format!("{}a{}", "(".repeat(2), ")".repeat(2));
    assert_eq!(without(&src, &[&inner]), src.replace(&inner, ""));
    // unclosed, every group ends with the declaration
    let open = format!("<!DOCTYPE r [<!ELEMENT r {}a>]><r/>", "(".repeat(depth));
    assert_eq!(unparse(&parse(&open), &[]), open.as_bytes());
}

#[test]
fn attribute_lists_lose_definitions_one_by_one() {
    let src = "<!DOCTYPE r [<!ATTLIST r id ID #REQUIRED kind (x|y) \"x\" v CDATA #FIXED '1' n NOTATION (p) #IMPLIED>]><r/>";
    assert_eq!(
        without(src, &["kind (x|y) \"x\"", "v CDATA #FIXED '1'"]),
        "<!DOCTYPE r [<!ATTLIST r id ID #REQUIRED n NOTATION (p) #IMPLIED>]><r/>"
    );
    assert_eq!(
        without(src, &["id ID #REQUIRED", "n NOTATION (p) #IMPLIED"]),
        "<!DOCTYPE r [<!ATTLIST r kind (x|y) \"x\" v CDATA #FIXED '1'>]><r/>"
    );
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

#[test]
fn a_utf8_byte_order_mark_stays_in_front_and_moves_no_span() {
    let src = b"\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<a><b/><c>t</c></a>\n";
    let tree = parse_bytes(src);
    assert_eq!(tree.error_count(), 0);
    assert_eq!(
        kinds(&tree),
        ["document", "declaration", "element", "content", "element", "element", "content", "text"]
            .into_iter()
            .chain(["end_tag", "end_tag"])
            .collect::<Vec<_>>()
    );
    node(&tree, "<?xml version=\"1.0\"?>");
    node(&tree, "<a><b/><c>t</c></a>");
    let (b, _) = node(&tree, "<b/>");
    assert_eq!(unparse(&tree, &[]), src);
    // the mark is part of no node: whatever goes, it stays
    let everything: Vec<NodeId> = tree.children(NodeId(0)).collect();
    assert_eq!(unparse(&tree, &everything), b"\xEF\xBB\xBF\n");
    assert_eq!(unparse(&tree, &[b]), b"\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<a><c>t</c></a>\n");
}

#[test]
fn an_iso_8859_1_document_is_read_past_its_first_accented_byte() {
    let src = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n\
        <r a=\"caf\xE9\">\n  <p>d\xE9j\xE0 vu</p>\n  <q x=\"1\"/>\n  <s>t</s>\n</r>\n";
    let tree = parse_bytes(src);
    assert_eq!(tree.error_count(), 0);
    node(&tree, b"a=\"caf\xE9\"");
    node(&tree, b"d\xE9j\xE0 vu");
    let (q, n) = node(&tree, "<q x=\"1\"/>");
    assert!(matches!(n.action, Action::Delete));
    node(&tree, "x=\"1\"");
    node(&tree, "<s>t</s>");
    node(&tree, "</r>");
    assert_eq!(unparse(&tree, &[]), src);
    let (p, _) = node(&tree, b"<p>d\xE9j\xE0 vu</p>");
    assert_eq!(
        unparse(&tree, &[p, q]),
        b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<r a=\"caf\xE9\">\n  <s>t</s>\n</r>\n"
    );
    // the encoding's name is not case-sensitive, and single quotes do too
    let src = b"<?xml version='1.0' encoding='iso-8859-1'?><r>\xE9<s/></r>";
    let tree = parse_bytes(src);
    assert_eq!((tree.error_count(), kinds(&tree).last().copied()), (0, Some("end_tag")));
    node(&tree, "<s/>");
}

#[test]
fn bytes_that_are_not_utf8_in_a_utf8_document_are_errors_around_which_parsing_goes_on() {
    for src in [
        &b"<r><p>caf\xE9</p><q/></r>"[..],
        b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><r><p>caf\xE9</p><q/></r>",
        b"\xEF\xBB\xBF<r><p>caf\xE9</p><q/></r>",
    ] {
        let tree = parse_bytes(src);
        assert_eq!(tree.error_count(), 1, "{}", String::from_utf8_lossy(src));
        node(&tree, "<q/>");
        assert_eq!(unparse(&tree, &[]), src);
    }
    // valid UTF-8, non-ASCII names included, is no error
    let tree = parse("<caf\u{e9}><\u{e9}t\u{e9} l\u{e0}=\"\u{fc}\"/></caf\u{e9}>");
    assert_eq!(tree.error_count(), 0);
    node(&tree, "<\u{e9}t\u{e9} l\u{e0}=\"\u{fc}\"/>");
    // names that differ only in non-ASCII characters are different names
    assert_eq!(parse("<caf\u{e9}></caf\u{e8}>").error_count(), 2);
}

#[test]
fn a_utf16_document_is_the_document_node_alone() {
    let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<a>\u{e9}</a>\n";
    let le: Vec<u8> =
        [0xFF, 0xFE].into_iter().chain(text.encode_utf16().flat_map(u16::to_le_bytes)).collect();
    let be: Vec<u8> =
        [0xFE, 0xFF].into_iter().chain(text.encode_utf16().flat_map(u16::to_be_bytes)).collect();
    for src in [le, be, vec![0xFF, 0xFE, b'<']] {
        let tree = parse_bytes(&src);
        assert_eq!((kinds(&tree), tree.error_count()), (vec!["document"], 0));
        assert_eq!(unparse(&tree, &[]), src);
    }
}
