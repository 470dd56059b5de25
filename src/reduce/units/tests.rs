//! Tests of the units: words, users and hoist targets.

use super::*;
use crate::syntax::Hoist;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The words of the leaves (not numbers, a comment's too), the same
/// spelling the same number, each with the unit it is in.
#[test]
fn words_are_the_leaves_names_and_know_their_holder() {
    let src = "int x1 = 0x1f + x1; /* ONE two */\nint y;\n";
    let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
    let tree = fe.parse(Arc::from(src.as_bytes()));
    let units = Units::new(&tree).with_words(&tree);
    let &[first, comment, second] = units.level(0) else { panic!("{:?}", units.level(0)) };
    let mask = Mask::new(tree.len());
    let holders = HashMap::from([(first, 0), (second, 1)]);
    let words = units.words_in(&mask, &holders);
    // int x1 x1 | ONE two | int y
    let ids: Vec<u32> = words.iter().map(|&(w, _)| w).collect();
    assert_eq!(ids.len(), 7, "{words:?}");
    assert_eq!((ids[0], ids[1]), (ids[5], ids[2]), "int and x1 twice: {words:?}");
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 5, "{words:?}");
    let held: Vec<Option<usize>> = words.iter().map(|&(_, h)| h).collect();
    assert_eq!(held, [Some(0), Some(0), Some(0), None, None, Some(1), Some(1)]);
    // what a mask switches off is not counted
    let fewer = units.words_in(&mask.with_off(&[comment, second]), &holders);
    assert_eq!(fewer, words[..3]);
}

/// The hoist targets of every hoistable node of a snippet, as texts.
fn targets(lang: &str, src: &str) -> Vec<(String, Vec<String>)> {
    let fe = crate::language::by_name(lang).expect("lang").frontend().expect("front-end");
    let tree = fe.parse(Arc::from(src.as_bytes()));
    let units = Units::new(&tree);
    let text = |a: NodeId, b: NodeId| {
        let (a, b) = (tree.node(a), tree.node(b));
        String::from_utf8_lossy(&src.as_bytes()[a.start as usize..b.end as usize]).into_owned()
    };
    (0..units.hoistable_count())
        .map(|i| {
            let (n, ts) = units.hoistable(i).expect("hoistable");
            let target = |t: &Target| {
                let head = t.head.map(|h| text(n, h) + " ").unwrap_or_default();
                head + &text(t.first, t.last)
            };
            (text(n, n), ts.iter().map(target).collect())
        })
        .collect()
}

#[test]
fn hoist_targets_fit_the_place_of_the_node() {
    let t = targets("c", "void f(void) { if (x) { a(); b(); } g(h(1), 2); }");
    let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    // a statement by the statement inside it; never by its condition
    assert_eq!(of("if (x) { a(); b(); }"), Some(vec!["{ a(); b(); }".to_string()]));
    // the block of an `if` by one statement (its place holds only one)
    assert_eq!(of("{ a(); b(); }"), Some(vec!["a();".into(), "b();".into()]));
    // a call by its arguments, not by the called function (kept by a rule)
    assert_eq!(of("h(1)"), Some(vec!["1".to_string()]));
    // smallest first
    assert_eq!(of("g(h(1), 2)"), Some(vec!["2".to_string(), "h(1)".into()]));
    // the function body only by the block inside it: none here
    assert!(of("{ if (x) { a(); b(); } g(h(1), 2); }").is_none());
    // a name kept in its place by a rule may take the place around it
    let t = targets("c", "int f(struct s *p) { return p->n + a[1]; }");
    let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    assert_eq!(of("p->n"), Some(vec!["p".to_string()]));
    assert_eq!(of("a[1]"), Some(vec!["a".to_string(), "1".into()]));
}

#[test]
fn a_declaration_or_statement_may_become_an_expression_inside_it() {
    let t = targets(
        "c",
        "int f(int *d) { int *ay = x + *d, b = 1; int *ay = x + *d; return g(ay); { h(1); } }",
    );
    let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    // with its own `;`; never a leaf (`ay;`), nor one with more after it
    assert_eq!(of("int *ay = x + *d, b = 1;"), None);
    assert_eq!(of("int *ay = x + *d;"), Some(vec!["x + *d;".to_string()]));
    assert_eq!(of("return g(ay);"), Some(vec!["g(ay);".to_string()]));
    // an expression statement is one already; a block ends in no `;`
    assert_eq!(of("h(1);"), None);
    assert_eq!(of("{ h(1); }"), Some(vec!["h(1);".to_string()]));
}

#[test]
fn an_if_with_an_else_may_keep_its_condition_and_take_the_else() {
    for lang in ["c", "cpp", "js"] {
        let t = targets(lang, "void f() { if (c) ; else for (;;) { g(); } }");
        let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        let want = [";", "for (;;) { g(); }", "if (c) for (;;) { g(); }"];
        assert_eq!(
            of("if (c) ; else for (;;) { g(); }"),
            Some(want.map(String::from).to_vec()),
            "{lang}"
        );
    }
    // and the unparser keeps the beginning and the target
    let src = "void f() {\n  if (c) ;\n  else for (;;) { g(); }\n}\n";
    let fe = crate::language::by_name("c").expect("lang").frontend().expect("front-end");
    let tree = fe.parse(Arc::from(src.as_bytes()));
    let units = Units::new(&tree);
    let (node, to) = (0..units.hoistable_count())
        .filter_map(|i| units.hoistable(i))
        .find_map(|(n, ts)| ts.iter().find(|t| t.head.is_some()).map(|&t| (n, t)))
        .expect("a splice");
    let mut out = Vec::new();
    crate::syntax::Unparser::new().unparse(
        &tree,
        &Mask::new(tree.len()).with_hoist(Hoist { node, to }),
        &mut out,
    );
    assert_eq!(String::from_utf8_lossy(&out), "void f() {\n  if (c) for (;;) { g(); }\n}\n");
}

#[test]
fn a_chain_of_single_targets_offers_its_end_first() {
    let t = targets("json", "[[[[1]]], 2]");
    let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    // the chain [[[1]]] -> [[1]] -> [1] -> 1: its end first, then the
    // direct target
    assert_eq!(of("[[[1]]]"), Some(vec!["1".to_string(), "[[1]]".into()]));
    assert_eq!(of("[1]"), Some(vec!["1".to_string()]));
}

#[test]
fn a_block_in_a_block_unwraps_into_its_statements() {
    let t = targets("c", "void f(void) { { a(); int i; l: b(); } }");
    let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    assert_eq!(
        of("{ a(); int i; l: b(); }"),
        Some(vec!["a();".into(), "int i;".into(), "l: b();".into(), "a(); int i; l: b();".into()])
    );
}

#[test]
fn a_leaf_target_stands_where_its_node_could_stand() {
    // not a parameter's name, an object's key or an assignment's target:
    // they are names there, not values, though a value is their kind
    let t = targets("js", "x = {k: function(p) { return y; }, 'q': a.b};");
    let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    assert_eq!(
        of("{k: function(p) { return y; }, 'q': a.b}"),
        Some(vec!["a.b".to_string(), "function(p) { return y; }".into()])
    );
    assert_eq!(of("function(p) { return y; }"), None);
    assert_eq!(
        of("x = {k: function(p) { return y; }, 'q': a.b}"),
        Some(vec!["{k: function(p) { return y; }, 'q': a.b}".to_string()])
    );
    assert_eq!(of("a.b"), Some(vec!["a".to_string()]));
    // a target with more inside may stand in a place of its own: a class
    // by the body of its method
    let t = targets("js", "class A { m() { s(); } }");
    let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    assert_eq!(of("class A { m() { s(); } }"), Some(vec!["{ s(); }".to_string()]));
}

#[test]
fn a_run_of_targets_needs_them_to_be_siblings() {
    // an object in an array: its values are values, but they are not
    // siblings, so the object never unwraps into 1, 2
    let t = targets("json", r#"[{"a": 1, "b": 2}, [3, 4]]"#);
    let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    assert_eq!(of(r#"{"a": 1, "b": 2}"#), Some(vec!["1".to_string(), "2".into()]));
    // an array in an array does unwrap
    assert_eq!(of("[3, 4]"), Some(vec!["3".to_string(), "4".into(), "3, 4".into()]));
}
#[test]
fn cpp_namespaces_and_linkages_unwrap_into_their_declarations() {
    let src = "namespace n { struct S { void h() {} }; int a; }\n\
               extern \"C\" { int b; }\n\
               template <class T> T g(T x) { return x; }";
    let t = targets("cpp", src);
    let of = |n: &str| t.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    // a namespace by one of its declarations, or by all of them; never by
    // a member of a class inside it
    let ns = of("namespace n { struct S { void h() {} }; int a; }").expect("namespace");
    assert_eq!(ns[0], "int a;");
    assert_eq!(ns.last().map(String::as_str), Some("struct S { void h() {} }; int a;"));
    assert!(!ns.iter().any(|t| t == "void h() {}"), "{ns:?}");
    // a class at namespace level by a member function (its `;` stays)
    assert_eq!(of("struct S { void h() {} }"), Some(vec!["void h() {}".to_string()]));
    assert_eq!(of("extern \"C\" { int b; }"), Some(vec!["int b;".to_string()]));
    // what a template declares is kept: the template is never replaced by it
    assert_eq!(of("template <class T> T g(T x) { return x; }"), None);
}

/// The units of a small C file at level 0: a typedef, two functions
/// (the second calls the first) and one that uses nothing.
fn chain() -> (Tree, Units) {
    let src = "typedef int T;\nT f(void) { return 1; }\nT g(void) { return f(); }\n\
               int keep(void) { return 0; }\n";
    let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
    let tree = fe.parse(Arc::from(src.as_bytes()));
    let units = Units::new(&tree).with_uses(&tree);
    (tree, units)
}

#[test]
fn users_are_the_units_that_use_a_name_a_unit_declares() {
    let (tree, units) = chain();
    let mask = Mask::new(tree.len());
    let items = units.ordered(0, &mask, Order::Backward);
    let text = |u: NodeId| String::from_utf8_lossy(tree.text(u)).into_owned();
    let names: Vec<String> = items.iter().map(|&u| text(u)).collect();
    assert!(names[0].starts_with("int keep") && names[3].starts_with("typedef"), "{names:?}");
    // keep and g are used by nothing; g uses f; f and g use T
    let users = units.users(0, &items, &mask);
    assert_eq!(users, [Some(vec![]), Some(vec![]), Some(vec![1]), Some(vec![1, 2])]);
    // without g among the units, nothing at this level takes g's uses
    // with f or T
    let some = [items[0], items[2], items[3]];
    assert_eq!(units.users(0, &some, &mask), [Some(vec![]), None, None]);
    // a view without uses knows no users
    assert!(Units::new(&tree).users(0, &items, &mask).is_empty());
}
