//! The S-expression front-end on small inputs: the tree's shape, heads and
//! the kinds they name, attributes, what may be deleted or hoisted, each dialect's
//! comments and strings, and the syntax errors of malformed input.

use std::sync::Arc;

use super::SexpFrontend;
use crate::language::grammar::GrammarData;
use crate::language::Frontend;
use crate::syntax::dump::shape;
use crate::syntax::tree::{flags, roles, Action, Tree};
use crate::syntax::{Mask, NodeId, Unparser};

/// A dialect like SMT-LIB's, with a declaring kind and a kept command.
const SMT: &str = r#"
hoist = ["list", "symbol"]
[sexp]
line_comment = ";"
escape = "double"
quoted_symbols = true
[sexp.heads]
declaration = ["declare-fun"]
command = ["assert"]
[[declare]]
kind = "declaration"
name = "symbol"
spelled = ["head"]
field = "first"
[[keep]]
parent = "command"
field = "first"
"#;

/// A dialect like WebAssembly text's: nested block comments, `;;` lines,
/// backslash escapes.
const WAT: &str = r#"
[sexp]
line_comment = ";;"
block_comment = ["(;", ";)"]
"#;

fn frontend(toml: &str) -> SexpFrontend {
    SexpFrontend::new(&GrammarData::parse("test.toml", toml).expect("grammar data"))
        .expect("front-end")
}

fn parse(toml: &str, src: &str) -> Tree {
    frontend(toml).parse(Arc::from(src.as_bytes()))
}

/// The first node whose text is `text`.
fn node(tree: &Tree, text: &str) -> NodeId {
    (0..tree.len() as u32)
        .map(NodeId)
        .find(|&i| tree.text(i) == text.as_bytes())
        .unwrap_or_else(|| panic!("no node {text:?}"))
}

fn unparse(tree: &Tree, off: &[NodeId]) -> String {
    let mut mask = Mask::new(tree.len());
    for &id in off {
        mask.set_off(id);
    }
    let mut out = Vec::new();
    Unparser::new().unparse(tree, &mask, &mut out);
    String::from_utf8(out).expect("utf-8")
}

#[test]
fn lists_heads_and_atoms() {
    let tree = parse(SMT, "(assert (and a (or |b c| 1)))\n(f :k \"s\" $x)");
    assert_eq!(
        shape(&tree),
        [
            "source_file (assert (and a (or |b c| 1)))\n(f :k \"s\" $x)",
            "  command (assert (and a (or |b c| 1)))",
            "    ( (",
            "    head assert",
            "    list (and a (or |b c| 1))",
            "      ( (",
            "      head and",
            "      symbol a",
            "      list (or |b c| 1)",
            "        ( (",
            "        head or",
            "        quoted_symbol |b c|",
            "        number 1",
            "        ) )",
            "      ) )",
            "    ) )",
            "  list (f :k \"s\" $x)",
            "    ( (",
            "    head f",
            "    attribute :k \"s\"",
            "      keyword :k",
            "      string \"s\"",
            "    identifier $x",
            "    ) )",
        ]
    );
    assert_eq!(tree.error_count(), 0);
}

#[test]
fn heads_stay_elements_go_and_only_nested_ones_are_hoisted() {
    let tree = parse(SMT, "(assert (and a (or b c)))");
    let and = tree.node(node(&tree, "(and a (or b c))"));
    // the command's argument is kept, but may become what is inside it
    assert_eq!(and.action, Action::Keep);
    assert!(and.has(flags::KEPT) && and.slot == 1 && and.member == 1);
    let or = node(&tree, "(or b c)");
    assert_eq!(tree.node(or).action, Action::Delete);
    assert_eq!(unparse(&tree, &[or]), "(assert (and a))");
    let head = tree.node(node(&tree, "and"));
    assert_eq!((head.action, head.slot, head.member), (Action::Keep, 0, 0));
    // a top-level form is never replaced by what is inside it
    let top = tree.node(tree.children(NodeId(0)).next().expect("a form"));
    assert_eq!((top.action, top.slot), (Action::Delete, 0));
}

#[test]
fn a_declaring_head_names_its_kind_only_before_a_name() {
    let tree = parse(SMT, "(declare-fun f () Int)(declare-fun (g) Int)(declare-fun)");
    let kinds: Vec<&str> =
        tree.children(NodeId(0)).map(|c| tree.kind_name(tree.node(c).kind)).collect();
    assert_eq!(kinds, ["declaration", "list", "list"]);
    let name = tree.node(node(&tree, "f"));
    assert!(name.role & roles::NAME_PLACE != 0, "the declared name's place");
}

#[test]
fn a_keyword_and_its_value_are_one_attribute_that_goes_whole() {
    let tree = parse(SMT, "(! t :pattern ; c\n (f x) :weight 0 :named :k)");
    let lines = shape(&tree);
    assert_eq!(lines[5], "    attribute :pattern ; c\n (f x)");
    assert_eq!(lines[7], "      comment ; c");
    assert_eq!(lines[13], "    attribute :weight 0");
    assert_eq!(lines[16], "    attribute :named");
    assert_eq!(lines[18], "    attribute :k");
    let weight = node(&tree, ":weight 0");
    assert_eq!(tree.node(weight).action, Action::Delete);
    assert_eq!(unparse(&tree, &[weight]), "(! t :pattern ; c\n (f x) :named :k)");
    let zero = tree.node(node(&tree, "0"));
    assert!(zero.action == Action::Keep && zero.has(flags::KEPT));
    // an attribute still open at the end of the input ends there
    let open = parse(SMT, "(a :k (b");
    assert_eq!(open.error_count(), 2);
    assert_eq!(unparse(&open, &[]), "(a :k (b");
}

#[test]
fn comments_and_strings_of_each_dialect() {
    let smt = parse(SMT, "(echo \"a\"\"b;\") ; c\n");
    assert_eq!(shape(&smt)[4], "    string \"a\"\"b;\"");
    assert_eq!(shape(&smt)[6], "  comment ; c");
    let wat = parse(WAT, "(module (; a (; nested ;) b ;) \"q\\\"\" ;; line\n)");
    let lines = shape(&wat);
    assert_eq!(lines[4], "    comment (; a (; nested ;) b ;)");
    assert_eq!(lines[5], "    string \"q\\\"\"");
    assert_eq!(lines[6], "    comment ;; line");
    assert_eq!(wat.error_count(), 0);
    // without quoted symbols, `|` is an atom's character
    assert_eq!(shape(&parse(WAT, "(x a|b)"))[4], "    symbol a|b");
}

#[test]
fn malformed_input_gives_error_nodes_and_round_trips() {
    let cases = [
        ("(a b", 1),
        ("a) b", 1),
        ("((a) \"open", 2),
        ("(x |open", 2),
        ("))(", 3),
        ("", 0),
        ("  \n", 0),
    ];
    for (src, errors) in cases {
        let fe = frontend(SMT);
        let tree = fe.parse(Arc::from(src.as_bytes()));
        assert_eq!(tree.error_count(), errors, "{src:?}");
        assert_eq!(fe.syntax_errors(src.as_bytes()), errors, "{src:?}");
        assert_eq!(unparse(&tree, &[]), src, "{src:?}");
    }
    let stray = parse(SMT, "a) b");
    assert_eq!(tree_kind(&stray, ")"), "ERROR");
    let fe = frontend(WAT);
    assert_eq!(fe.syntax_errors(b"(; (; ;)"), 1);
}

fn tree_kind<'t>(tree: &'t Tree, text: &str) -> &'t str {
    tree.kind_name(tree.node(node(tree, text)).kind)
}

#[test]
fn bad_grammar_data_is_refused() {
    let err = |toml: &str| {
        let data = GrammarData::parse("t.toml", toml).expect("toml");
        format!("{:#}", SexpFrontend::new(&data).map(|_| ()).unwrap_err())
    };
    assert!(err("").contains("[sexp]"));
    assert!(err("[sexp.heads]\nlist = [\"a\"]\n").contains("every S-expression"));
    assert!(err("[sexp.heads]\nx = [\"a\"]\ny = [\"a\"]\n").contains("two kinds"));
    assert!(err("[sexp.heads]\nx = [\":k\"]\n").contains("not a symbol"));
    assert!(err("[sexp]\nline_comment = \"\"\n").contains("non-empty"));
    assert!(
        err("[sexp]\n[[keep]]\nparent = \"list\"\nfield = \"name\"\n").contains("unknown field")
    );
}
