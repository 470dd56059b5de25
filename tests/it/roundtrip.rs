//! Every corpus file (each file of a directory input too) parses into a
//! well-formed tree that unparses to itself, and candidates of a valid JSON
//! document are always valid JSON; the syntax guard's re-parsing from the
//! best (one file's, and a set's) counts as a parse from scratch.

use std::fs;
use std::sync::Arc;

use hdd::language::Frontend;
use hdd::reduce::{Proposal, Units};
use hdd::syntax::{Hoist, Mask, NodeId, Tree, Unparser};

use crate::rng::Rng;
use crate::{frontend, parse, Case};

fn unparse(tree: &Tree, mask: &Mask) -> Vec<u8> {
    let mut out = Vec::new();
    Unparser::new().unparse(tree, mask, &mut out);
    out
}

/// Spans nest, leading whitespace stays inside the parent, ids are preorder.
/// `mask` with one more hoist, of a random hoistable node to one of its
/// targets, if the node and the target are still present.
pub(crate) fn random_hoist(units: &Units, mask: &Mask, rng: &mut Rng) -> Option<Mask> {
    if units.hoistable_count() == 0 {
        return None;
    }
    let (node, targets) = units.hoistable(rng.below(units.hoistable_count())).expect("hoistable");
    let to = targets[rng.below(targets.len())];
    let present = |id| units.is_present(id, mask);
    (present(node) && present(to.first) && present(to.last))
        .then(|| Proposal::Hoist(Hoist { node, to }).apply(mask))
}

pub(crate) fn check_tree(tree: &Tree, what: &str) {
    let nodes = tree.nodes();
    for (i, n) in nodes.iter().enumerate() {
        assert!(
            n.lead <= n.start && n.start <= n.end,
            "{what}: node {i} spans {}..{}..{}",
            n.lead,
            n.start,
            n.end
        );
        assert!(n.end as usize <= tree.src().len(), "{what}: node {i} past the end");
        assert!(
            n.subtree_end as usize <= nodes.len() && n.subtree_end > i as u32,
            "{what}: node {i}"
        );
        if n.parent != u32::MAX {
            let p = &nodes[n.parent as usize];
            assert!(
                n.parent < i as u32 && n.subtree_end <= p.subtree_end,
                "{what}: node {i} outside its parent"
            );
            assert!(
                p.start <= n.lead && n.end <= p.end,
                "{what}: node {i} spans outside its parent"
            );
        }
    }
}

#[test]
fn every_corpus_file_round_trips_byte_for_byte() {
    for (path, lang) in Case::all().iter().flat_map(Case::files) {
        let bytes = fs::read(&path).expect("input");
        let tree = parse(lang, &bytes);
        check_tree(&tree, &path.display().to_string());
        assert!(tree.len() > 10, "{}: {} nodes", path.display(), tree.len());
        let out = unparse(&tree, &Mask::new(tree.len()));
        assert!(out == bytes, "{} does not round-trip", path.display());
    }
}

#[test]
fn malformed_and_odd_inputs_round_trip() {
    let cases: &[(&str, &str)] = &[
        ("json", "{\"a\": [1, 2,, 3], \"b\": "),
        ("json", "[1, 2, 3,]"),
        ("json", "\u{feff}{\"bom\": true}\r\n"),
        ("c", "int main( { return 0;\n"),
        ("c", "#define X(a, b) a ## b\n#if X\nint x = ;\n#endif\n"),
        ("js", "function f( { return a?.b ?? c; }\n`unterminated"),
        ("python", "def f(a,:\n    if x:\n  return\n\tpass\nclass C:\n"),
        ("rust", "fn f( -> u8 { let x: = ; }\nimpl S {\n    fn g(&self) -> { 'a' }\n"),
        ("go", "package p\nfunc f(a int, { x := ; if y { }\nvar v int =\n"),
        (
            "glsl",
            "#version 120\nlayout(location = , binding 1) in vec4 p;\nvoid main( { gl_FragColor = ; }\n",
        ),
        (
            "llvm",
            "define i32 @f(i32 %x {\nentry:\n  %y = add nsw i32 %x,\n  br label\n!0 = !{!\"s\", \n",
        ),
        ("solidity", "contract C is A, { function f(uint a, ) { if (a) else { uint x = ; }\n  assembly { let p := add(1, }\n"),
        ("java", "class A { void f(int a, { if (a) else { int x = ; }\n  String s = \"open\n"),
        ("ts", "interface I { a: ; b?: number | }\nfunction f<T>(x: T = ): { return <T>x }\n"),
        (
            "tsx",
            "const e = <div a={1}>{x as number</div>;\nfunction g<T,>(y: T) { return <T>y; }\n",
        ),
        ("xml", "<a><b></a></c><d x='1' y=2 z>text &undefined; <![CDATA[ x ]]>"),
        (
            "xml",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE r [ <!ENTITY e \"v\"> <!-- c --> ]>\n<r>&e;</r>\n",
        ),
        ("xml", "<a attr=\"unterminated></a>"),
        ("xml", "just text, no markup"),
        ("xml", "\u{feff}<?xml version=\"1.0\"?>\n<a><b/>caf\u{e9}</a>\n"),
        ("smt2", "(assert (and a b)) ) (declare-fun |f x| ((Int) Bool\n; c\n\"s\"\"t"),
        ("smt2", "(set-info :source |multi\nline|)\r\n(check-sat))(("),
        ("wat", "(module (; open (; nested ;)\n(func $f \"s\\\" ;; x\n"),
        ("wat", "(func (block (br 0)) ;) ;; c\n)) (;(;;);)"),
    ];
    for (lang, src) in cases {
        let tree = parse(lang, src.as_bytes());
        check_tree(&tree, src);
        assert_eq!(unparse(&tree, &Mask::new(tree.len())), src.as_bytes(), "{lang}: {src:?}");
    }
}

#[test]
fn every_candidate_of_a_valid_json_document_is_valid_json() {
    // deletions of members and elements, replacements by minimal values and
    // hoists, in any combination: never a dangling comma, never broken JSON
    let doc = r#"{"a": [1, 2, {"x": null, "y": [true, false]}, "s"], "b": {"c": -1.5e3, "d": "e\"f"},
  "empty": [], "o": {}, "n": [[[]]], "last": "z"}"#;
    let tree = parse("json", doc.as_bytes());
    assert_eq!(tree.error_count(), 0);
    let units = Units::new(&tree);
    let all: Vec<NodeId> = units.present_bfs(&Mask::new(tree.len()));
    let mut rng = Rng::new(0x1234_5678);
    for round in 0..3000 {
        let mut mask = Mask::new(tree.len());
        for _ in 0..1 + rng.below(6) {
            let u = all[rng.below(all.len())];
            mask = Proposal::Off(vec![u]).apply(&mask);
        }
        // hoists come after deletions, as in the hoisting pass
        if round % 2 == 0 {
            mask = random_hoist(&units, &mask, &mut rng).unwrap_or(mask);
        }
        let text = unparse(&tree, &mask);
        if text.iter().all(u8::is_ascii_whitespace) {
            continue; // the whole document deleted
        }
        if let Err(e) = serde_json::from_slice::<serde_json::Value>(&text) {
            panic!("round {round}: {e} in {:?} ({mask:?})", String::from_utf8_lossy(&text));
        }
    }
}

#[test]
fn incremental_reparsing_counts_the_same_syntax_errors_as_a_full_parse() {
    // the syntax guard re-parses a candidate from the parse of the current
    // best; it must agree with a parse from scratch, also after the base has
    // moved on to an earlier candidate's parse
    let mut rng = Rng::new(0x9e37_79b9);
    for (path, lang) in Case::all().iter().flat_map(Case::files) {
        let bytes = fs::read(&path).expect("input");
        let fe = frontend(lang);
        let Some(mut base) = fe.guard_base(&bytes) else {
            let own = ["xml", "text", "smt2", "wat", "sexp"];
            assert!(own.contains(&lang), "{lang}: tree-sitter keeps a base");
            continue; // no incremental re-parsing for our own front-ends
        };
        let tree = fe.parse(Arc::from(bytes.as_slice()));
        let units = Units::new(&tree);
        let all = units.present_bfs(&Mask::new(tree.len()));
        let mut unparser = Unparser::new();
        let mut text = Vec::new();
        let mut mask = Mask::new(tree.len());
        for round in 0..40 {
            let mut candidate = mask.clone();
            for _ in 0..1 + rng.below(4) {
                candidate = Proposal::Off(vec![all[rng.below(all.len())]]).apply(&candidate);
            }
            unparser.unparse(&tree, &candidate, &mut text);
            let (incremental, parse) = fe.syntax_errors_from(&base, &text);
            let full = fe.syntax_errors(&text);
            assert_eq!(incremental, full, "{} round {round}", path.display());
            if round % 3 == 0 {
                // as if this candidate became the best
                base = parse.expect("a parse");
                mask = candidate;
            }
        }
    }
}

#[test]
fn the_guard_of_a_set_reusing_unchanged_files_counts_as_a_full_parse() {
    // a set's guard re-parses only the files a candidate changed, from
    // their parse in the best, and reuses the others' counts; it must agree
    // with parsing every file from scratch
    let mut rng = Rng::new(0x51_7e5);
    for case in Case::all().iter().filter(|c| c.is_dir()) {
        let (_, original, fe) = case.forest();
        let tree = fe.parse(Arc::from(original.as_slice()));
        let units = Units::new(&tree);
        // per file, its units: a candidate mostly changes one file
        let files: Vec<NodeId> = tree.children(NodeId(0)).collect();
        let per_file: Vec<Vec<NodeId>> = files
            .iter()
            .map(|&f| {
                let end = tree.node(f).subtree_end;
                let all = units.present_bfs(&Mask::new(tree.len()));
                all.into_iter().filter(|u| f.0 < u.0 && u.0 < end).collect()
            })
            .collect();
        let mut base = fe.guard_base(&original).expect("a set keeps a base");
        let (mut unparser, mut text, mut mask) =
            (Unparser::new(), Vec::new(), Mask::new(tree.len()));
        for round in 0..60 {
            let mut candidate = mask.clone();
            let units = &per_file[rng.below(per_file.len())];
            for _ in 0..1 + rng.below(4) {
                let u = match units.is_empty() || rng.below(10) == 0 {
                    true => files[rng.below(files.len())],
                    false => units[rng.below(units.len())],
                };
                candidate = Proposal::Off(vec![u]).apply(&candidate);
            }
            unparser.unparse(&tree, &candidate, &mut text);
            let (reusing, parse) = fe.syntax_errors_from(&base, &text);
            assert_eq!(reusing, fe.syntax_errors(&text), "{} round {round}", case.name);
            if round % 3 == 0 {
                // as if this candidate became the best
                base = parse.expect("a base");
                mask = candidate;
            }
        }
    }
}
