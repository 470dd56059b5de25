//! Tests of the groups: bindings, swaps, errors, sweeps, merges, functions
//! and globals.

use super::*;
use std::sync::Arc;

/// The groups of `text` in `lang` that switch nodes off, each as the texts
/// it switches off.
fn texts(lang: &str, text: &str) -> Vec<Vec<String>> {
    let fe = crate::language::by_name(lang).expect(lang).frontend().expect("front-end");
    let tree = fe.parse(Arc::from(text.as_bytes()));
    let s = |id: NodeId| String::from_utf8_lossy(tree.text(id)).into_owned();
    let off = groups(&tree).into_iter().filter(|g| !g.off.is_empty());
    off.map(|g| g.off.iter().map(|&id| s(id)).collect()).collect()
}

#[test]
fn a_variable_goes_with_the_statements_that_use_it() {
    let g = texts(
        "c",
        "int f(void) {\n  int x = 1;\n  int y = 2;\n  x = y;\n  g(x);\n  return y;\n}\n",
    );
    // y first (declared last); its uses in `x = y` (an lvalue is kept, so
    // the statement) and `return y` (the returned value goes)
    assert_eq!(g[0], ["int y = 2;", "x = y;", "y"]);
    // then with its uses as values replaced by `0` (`x = 0;`)
    assert_eq!(g[1], ["int y = 2;", "y", "y"]);
    // a use as an argument takes the call with it (an argument is
    // deleted from its list, never replaced), and x has no other
    // then with its value at its uses (`x = 2;`, `return 2;`; see below)
    assert_eq!(g[2], ["int y = 2;"]);
    assert_eq!(g[3], ["int x = 1;", "x = y;", "g(x);"]);
    assert_eq!(g[4], ["int x = 1;"]);
    // and `void`, which no declaration of the file names, made `int`
    // (one test: the oracle decides, see the undeclared names below)
    assert_eq!(g[5], ["void"]);
    assert_eq!(g.len(), 6, "{g:?}");
}

#[test]
fn a_use_as_long_as_its_minimal_form_is_replaced_only_in_a_group() {
    let src = "int f(int *p) {\n  int i = 1;\n  return p[i];\n}\n";
    let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
    let tree = fe.parse(Arc::from(src.as_bytes()));
    let use_of_i = (0..tree.len() as u32)
        .rev()
        .map(NodeId)
        .find(|&id| tree.text(id) == b"i")
        .expect("a use of i");
    // `i` to `0` alone is no shorter: not a unit of the searches
    assert_eq!(tree.node(use_of_i).role & roles::GROUPED, roles::GROUPED);
    let units = crate::reduce::Units::new(&tree);
    assert!(!units.is_unit(use_of_i));
    // but with its declaration, `p[0]` is what is left of the statement
    assert!(texts("c", src).contains(&vec!["int i = 1;".to_string(), "i".to_string()]));
}

#[test]
fn a_syntax_error_goes_with_the_node_its_recovery_split_off() {
    // tree-sitter-cpp cannot read the attribute of libstdc++'s namespaces
    let g = texts(
        "cpp",
        "namespace std __attribute__ ((__visibility__ (\"default\")))\n{\n}\nint y;\n",
    );
    let error = r#"namespace std __attribute__ ((__visibility__ ("default")))"#;
    assert!(g.contains(&vec![error.to_string(), "{\n}".to_string()]), "{g:?}");
    // without its name, the recovery splits it in three
    let ns = "namespace __attribute__ ((__visibility__ ()))\n{\n}\n";
    let g = texts("cpp", &format!("typedef unsigned size_t;\n{ns}{ns}int y;\n"));
    let three = ["namespace __attribute__", "((__visibility__ ()))", "{\n}"];
    assert!(g.contains(&three.map(String::from).to_vec()), "{g:?}");
    // inside the error, the attribute's name with its parentheses; and
    // a statement the recovery ended with a missing `;`, with its block
    let ns = "namespace std __attribute__ ((__visibility__ ())) {\n  template<typename T> class v {\n  };\n}\n";
    let src = format!("((__visibility__ ()))\n{{\n}}\n{ns}");
    let g = texts("cpp", &src);
    let attribute = ["__attribute__", "((__visibility__ ()))"];
    assert!(g.contains(&attribute.map(String::from).to_vec()), "{g:?}");
    let statement = ["((__visibility__ ()))", "{\n}"];
    assert!(g.contains(&statement.map(String::from).to_vec()), "{g:?}");
    // no error, no such group
    assert!(texts("cpp", "namespace std {\n}\nint y;\n")
        .iter()
        .all(|o| o.len() != 2 || o[1] != "{\n}"));
}

#[test]
fn an_access_specifier_goes_with_its_colon() {
    let g = swapped("cpp", "class A {\n  public:\n  int x;\n  private :\n};\n");
    assert_eq!(
        g,
        ["class A {\n  public:\n  int x;\n};\n", "class A {\n  int x;\n  private :\n};\n"]
    );
}

#[test]
fn a_local_is_made_global_and_its_assignments_go() {
    let src = "int g(void);\nint f(void) {\n  int *p;\n  p = g();\n  return *p;\n}\n";
    assert_eq!(moved("c", src), ["int g(void);\nint *p;\nint f(void) {\n  return *p;\n}\n"]);
    // a C++ member function's local goes before its class
    let src = "struct S {\n  int f() {\n    int n;\n    n = 2;\n    return n;\n  }\n};\n";
    assert_eq!(moved("cpp", src), ["int n;\nstruct S {\n  int f() {\n    return n;\n  }\n};\n"]);
    // in a forest, before its function in its own file
    let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
    let files = ["int a;\n", "int g;\nint f(void) {\n  int *p;\n  p = 0;\n  return *p;\n}\n"];
    let trees: Vec<Tree> = files.iter().map(|f| fe.parse(Arc::from(f.as_bytes()))).collect();
    let tree = forest::splice(&trees);
    let [g] = &globals(&tree)[..] else { panic!("one local made global") };
    let text = rewritten(&tree, g);
    let want = "int a;\n\0int g;\nint *p;\nint f(void) {\n  return *p;\n}\n";
    assert_eq!(text, want);
    // not one with a value, nor one whose name a global has
    let src =
        "int *p;\nint f(void) {\n  int *p;\n  int q = 1;\n  p = &q;\n  q = 2;\n  return *p;\n}\n";
    assert_eq!(moved("c", src), Vec::<String>::new());
    // nor one that an assignment which cannot go sets (a loop's counter)
    let src = "int f(void) {\n  int i;\n  i = 4;\n  for (i = 0; i < 3; i++) ;\n  return i;\n}\n";
    assert_eq!(moved("c", src), Vec::<String>::new());
}

#[test]
fn an_assignment_right_after_a_declaration_becomes_its_value() {
    let src = "int g(void);\nint f(void) {\n  int *p;\n  p = g();\n  return *p;\n}\n";
    let g = swapped("c", src);
    let want = "int g(void);\nint f(void) {\n  int *p = g();\n  return *p;\n}\n";
    assert!(g.contains(&want.to_string()), "{g:?}");
    // not where another statement comes first, the name is in the
    // value, or the assignment is not `=`
    // (and `f`'s value is used, so that it is not made `void`)
    let src = "int f(void) {\n  int a;\n  int i;\n  i = i + 1;\n  a = 2;\n  int j;\n  j += 3;\n  return a + i + j;\n}\nint main(void) { return f(); }\n";
    assert_eq!(swapped("c", src), Vec::<String>::new());
}

#[test]
fn an_inner_declaration_hides_an_outer_one() {
    let g = texts("c", "int x;\nvoid f(void) { int x; x = 1; }\nvoid h(void) { x = 2; }\n");
    assert!(g.contains(&vec!["int x;".to_string(), "x = 1;".to_string()]), "{g:?}");
    let outer = g.iter().find(|o| o[0] == "int x;" && o.len() == 2 && o[1] == "x = 2;");
    assert!(outer.is_some(), "{g:?}");
}

#[test]
fn a_parameter_goes_with_its_arguments_in_every_declaration() {
    let g = texts(
        "c",
        "int f(int a, int b);\nint f(int a, int b) { return b; }\nint main(void) { return f(1, 2); }\n",
    );
    let b = g.iter().find(|o| o.iter().any(|t| t == "2")).expect("b's group");
    assert_eq!(b, &["int b", "int b", "b", "2"]);
    // a is not used: its declarations and its argument
    let a = g.iter().find(|o| o.iter().any(|t| t == "1")).expect("a's group");
    assert_eq!(a, &["int a", "int a", "1"]);
}

#[test]
fn fields_typedefs_macros_and_functions_have_groups() {
    let g = texts(
        "c",
        "#define N 3\ntypedef int T;\nstruct s { int a; int b; };\nT f(struct s *p) { p->a = N; return p->b; }\nvoid h(void) { f(0); }\n",
    );
    let has = |want: &[&str]| g.iter().any(|o| o == want);
    assert!(has(&["#define N 3\n", "p->a = N;"]), "{g:?}");
    assert!(has(&["int a;", "p->a = N;"]), "{g:?}");
    assert!(has(&["int b;", "p->b"]), "{g:?}");
    assert!(has(&["T f(struct s *p) { p->a = N; return p->b; }", "f(0);"]), "{g:?}");
}

#[test]
fn a_typedef_goes_with_its_uses_made_int() {
    let src = "typedef unsigned short u16;\nu16 f(u16 x);\nu16 f(u16 x) { return x; }\n";
    let g = texts("c", src);
    // without its uses, the typedef alone is the 1-minimal phase's
    assert!(g.contains(&vec![
        "typedef unsigned short u16;".to_string(),
        "u16".into(),
        "u16".into(),
        "u16".into(),
        "u16".into()
    ]));
    // a one-letter typedef used twice: still shorter as a whole
    let made_int = |o: &Vec<String>| o[0] == "typedef long T;" && o[1] == "T";
    assert!(texts("c", "typedef long T;\nT a;\nT b;\n").iter().any(made_int));
    // used so often that `int` everywhere would be longer: no such group
    // (only the one with the declarations that use it)
    let many = format!("typedef long T;\n{}", "T a;\n".repeat(9));
    assert!(!texts("c", &many).iter().any(made_int), "{many}");
}

/// The texts of `src` with each group of `lang` that swaps a use made (not
/// a definition made a declaration, see [`a_definition_is_made_a_declaration`]).
fn swapped(lang: &str, src: &str) -> Vec<String> {
    let all = groups_of(lang, src, groups).into_iter();
    let swaps = all.filter(|(t, g)| !g.swaps.is_empty() && !prototyped(t).contains(g));
    swaps.map(|(tree, g)| rewritten(&tree, &g)).collect()
}

/// The texts of `src` with each local of `lang` made global.
fn moved(lang: &str, src: &str) -> Vec<String> {
    groups_of(lang, src, globals).into_iter().map(|(tree, g)| rewritten(&tree, &g)).collect()
}

/// The groups `find` finds in `src`, each with the tree.
fn groups_of(lang: &str, src: &str, find: fn(&Tree) -> Vec<Group>) -> Vec<(Arc<Tree>, Group)> {
    let fe = crate::language::by_name(lang).expect(lang).frontend().expect("front-end");
    let tree = Arc::new(fe.parse(Arc::from(src.as_bytes())));
    find(&tree).into_iter().map(|g| (Arc::clone(&tree), g)).collect()
}

/// The text of `tree` with `g`'s nodes switched off and swaps made.
fn rewritten(tree: &Tree, g: &Group) -> String {
    let mask = crate::syntax::Mask::new(tree.len()).with_off(&g.off).with_swaps(&g.swaps);
    let mut text = Vec::new();
    crate::syntax::Unparser::new().unparse(tree, &mask, &mut text);
    String::from_utf8_lossy(&text).into_owned()
}

#[test]
fn a_typedef_or_a_macro_goes_with_its_uses_made_its_text() {
    let src = "typedef unsigned i;\ntypedef i o;\n#define N 3\nstruct S { o a[N]; };\n";
    let g = swapped("c", src);
    // `o` by `i` (one more byte at one use, for a typedef of 13)
    assert!(
        g.contains(&"typedef unsigned i;\n#define N 3\nstruct S { i a[N]; };\n".into()),
        "{g:?}"
    );
    assert!(
        g.contains(&"typedef unsigned o;\n#define N 3\nstruct S { o a[N]; };\n".into()),
        "{g:?}"
    );
    // (a directive ends with its line: the layout pass breaks it again)
    assert!(
        g.contains(&"typedef unsigned i;\ntypedef i o;struct S { o a[3]; };\n".into()),
        "{g:?}"
    );
    assert_eq!(g.len(), 3, "{g:?}");
    // not a typedef of more than the bare name, nor one whose uses
    // would grow the text
    assert!(swapped("c", "typedef int *P;\nP a;\n").is_empty());
    // a variable with its value at its one use
    let g = swapped("c", "void b(void) {\n  int c = 0xC407A97B;\n  f(0, c);\n}\n");
    assert_eq!(g, ["void b(void) {\n  f(0, 0xC407A97B);\n}\n"]);
    assert!(swapped("c", "void b(void) {\n  int *p = q;\n  f(p);\n}\n").is_empty());
    let many = format!("typedef unsigned long T;\n{}", "T a;\n".repeat(9));
    assert!(swapped("c", &many).is_empty(), "{many}");
}

#[test]
fn a_type_the_file_does_not_declare_is_made_int_at_every_use_at_once() {
    // `size_t` comes from a header: both uses at once (one alone could
    // make `int *` and `size_t *` meet), but not a shorter name (`T`)
    let g = texts("c", "#include <stddef.h>\nsize_t f(size_t *d, T *e) { return *d; }\n");
    assert!(g.contains(&vec!["size_t".to_string(), "size_t".into()]), "{g:?}");
    assert!(!g.iter().any(|o| o == &["T"]), "{g:?}");
    // a declared one is its declaration's group
    let g = texts("c", "typedef unsigned long size_t;\nsize_t a;\n");
    assert!(!g.iter().any(|o| o == &["size_t"]), "{g:?}");
}

#[test]
fn a_cpp_typedef_goes_with_its_uses_made_int_also_where_types_are_kept() {
    // a function's type is kept by a rule in C++ (it is optional in
    // the node types), but not from a typedef's group
    let g = texts("cpp", "typedef short T;\nT f();\nstruct S { T g(); };\n");
    let want = ["typedef short T;", "T", "T"].map(String::from).to_vec();
    assert!(g.contains(&want), "{g:?}");
    // tree-sitter reads libc's type names as primitive types
    let g = texts("cpp", "typedef short uint16_t;\nuint16_t f();\nuint16_t f() { return 0; }\n");
    let want = ["typedef short uint16_t;", "uint16_t", "uint16_t"].map(String::from).to_vec();
    assert!(g.contains(&want), "{g:?}");
}

#[test]
fn javascript_declarations_go_with_their_uses() {
    // x's only use is a required initial value, which has a minimal form
    let g = texts("js", "let x = 1;\nlet y = x;\nconsole.log(y);\n");
    // a JavaScript expression statement may lose its expression: `0;`
    assert!(g.iter().any(|o| o == &["let y = x;", "console.log(y)"]), "{g:?}");
    assert!(g.iter().any(|o| o == &["let x = 1;", "x"]), "{g:?}");
}

#[test]
fn a_javascript_assignment_to_an_undeclared_name_declares_it() {
    // `k = module` without `var`: the statement goes with every use, or
    // its value stands for k (tried first: the test runs the code)
    let src = "k = module;\nhe = {};\nk.exports = he;\n";
    let g = swapped("js", src);
    assert!(g.contains(&"he = {};\nmodule.exports = he;\n".into()), "{g:?}");
    assert!(g.contains(&"k = module;\nk.exports = {};\n".into()), "{g:?}");
    let g = texts("js", src);
    let k = g.iter().position(|o| o == &["k = module;"]).expect("k written as module");
    // (the use's expression by `0`, then the 1-minimal phase's)
    let gone = g.iter().position(|o| o == &["k = module;", "k.exports = he"]);
    assert!(gone.is_some_and(|gone| gone > k), "{g:?}");
    // every assignment to it is the one declaration
    let g = texts("js", "e = 1;\nfunction f() { e = 2; }\ng(e);\n");
    assert!(g.iter().any(|o| o == &["e = 1;", "e = 2;", "g(e)"]), "{g:?}");
    // not a declared name, a parameter, or a property
    let g = texts("js", "var v;\nv = 1;\nfunction f(p) { p = 2; }\no.q = 3;\n");
    assert!(!g.iter().any(|o| o[0] == "v = 1;" || o[0] == "p = 2;"), "{g:?}");
    assert!(!g.iter().any(|o| o.iter().any(|t| t.starts_with("o.q"))), "{g:?}");
}

#[test]
fn statement_semicolons_are_swept_at_once() {
    let fe = crate::language::by_name("js").expect("js").frontend().expect("front-end");
    let src = "var a = 1;\nb = a + 2;\nfor (;;) { foo(b); }\n";
    let tree = fe.parse(Arc::from(src.as_bytes()));
    let g = swept(&tree);
    assert_eq!(g.len(), 1, "{g:?}");
    let mask = crate::syntax::Mask::new(tree.len()).with_swaps(&g[0].swaps);
    let mut text = Vec::new();
    crate::syntax::Unparser::new().unparse(&tree, &mask, &mut text);
    // the `for`'s own semicolons stay
    let want = "var a = 1\nb = a + 2\nfor (;;) { foo(b) }\n";
    assert_eq!(String::from_utf8_lossy(&text), want);
    // C has no sweep; a single semicolon is the token pass's
    assert!(swept(&c_tree("int a;\nint b;\n")).is_empty());
    assert!(swept(&fe.parse(Arc::from(&b"f();\n"[..]))).is_empty());
}

#[test]
fn a_namespace_reopened_right_after_it_closes_merges_with_it() {
    let src = "namespace n {\nint a;\n}\nnamespace n {\nint b;\n}\nnamespace m {\n}\n";
    let g = swapped("cpp", src);
    assert_eq!(g, ["namespace n {\nint a;\nint b;\n}\nnamespace m {\n}\n"], "{g:?}");
    // not two namespaces of different names, nor in C
    assert!(swapped("cpp", "namespace n { int a; }\nnamespace m { int b; }\n").is_empty());
    assert!(merges(&c_tree("int a;\nint b;\n")).is_empty());
}

/// The texts of `src` with each `void` group of it applied.
fn voided_texts(lang: &str, src: &str) -> Vec<String> {
    each_applied(lang, src, voided)
}

/// The texts of the groups `of` finds in `src`, each applied alone.
fn each_applied(lang: &str, src: &str, of: fn(&Tree) -> Vec<Group>) -> Vec<String> {
    groups_of(lang, src, of).into_iter().map(|(tree, g)| rewritten(&tree, &g)).collect()
}

#[test]
fn a_function_whose_value_no_call_uses_is_made_void_with_its_prototype() {
    let src =
        "int step(int x);\nint step(int x) {\n  if (x) return x + 1;\n  g(x);\n  return 0;\n}\n\
               int used(void) { return 1; }\nint main(void) { step(2); return used(); }\n";
    let g = voided_texts("c", src);
    // not `used`, whose value `main` returns, nor `main`; the space
    // before a `;` is the layout pass's to take
    assert_eq!(
        g,
        ["void step(int x);\nvoid step(int x) {\n  if (x) return ;\n  g(x);\n  return ;\n}\n\
          int used(void) { return 1; }\nint main(void) { step(2); return used(); }\n"]
    );
    // a pointer's function keeps its type: `void *` would keep the values
    assert!(voided_texts("c", "int *p(void) { return 0; }\n").is_empty());
    // not longer: `int f(void) { return; }` has nothing to drop
    assert!(voided_texts("c", "int f(void) { return; }\n").is_empty());
}

#[test]
fn a_definition_is_made_a_declaration() {
    let src =
        "int f(int x) {\n  return x + 1;\n}\nvoid g(void) {}\nint main(void) { return f(1); }\n";
    // `f` and `g` (`{}` to `;` is still a byte), not `main`; the space
    // before the `;` is the layout pass's to take
    assert_eq!(
        each_applied("c", src, prototyped),
        [
            "int f(int x) ;\nvoid g(void) {}\nint main(void) { return f(1); }\n",
            "int f(int x) {\n  return x + 1;\n}\nvoid g(void) ;\nint main(void) { return f(1); }\n",
        ]
    );
    // a member defined in its class becomes a member declaration
    assert_eq!(
        each_applied("cpp", "struct A {\n  int f() { return 1; }\n};\n", prototyped),
        ["struct A {\n  int f() ;\n};\n"]
    );
}

/// The texts of the binding groups of `src` that write a use as a span of
/// the original (a typedef gone for its tag).
fn untagged_texts(src: &str) -> Vec<String> {
    let of = |tree: &Tree| {
        let spans =
            |g: &Group| g.swaps.iter().any(|s| matches!(s.with, crate::syntax::Text::Span(..)));
        let mut out: Vec<Group> = groups(tree).into_iter().filter(spans).collect();
        // a typedef nothing uses writes no span: its group has only nothings
        let nothing = |g: &Group| {
            !g.swaps.is_empty() && g.swaps.iter().all(|s| s.with == crate::syntax::Text::Nothing)
        };
        out.extend(groups(tree).into_iter().filter(|g| nothing(g) && g.swaps.len() == 2));
        out
    };
    each_applied("c", src, of)
}

#[test]
fn a_typedef_of_a_struct_goes_for_its_tag() {
    let src = "typedef struct s {\n  int a;\n} S;\nint f(struct s *p) { return p->a; }\nS x;\n";
    // (the space before `;` is the layout pass's to take)
    assert_eq!(
        untagged_texts(src),
        ["struct s {\n  int a;\n} ;\nint f(struct s *p) { return p->a; }\nstruct s x;\n"]
    );
    // unused: only the typedef's tokens go
    assert_eq!(untagged_texts("typedef union u { int a; } U;\n"), ["union u { int a; } ;\n"]);
    // no tag, more than the bare name, or more uses than it saves: none
    assert!(untagged_texts("typedef struct { int a; } S;\nS x;\n").is_empty());
    assert!(untagged_texts("typedef struct s { int a; } *P;\nP x;\n").is_empty());
    assert!(untagged_texts("typedef struct s { int a; } S;\nS x;\nS y;\nS z;\n").is_empty());
}

#[test]
fn a_member_that_calls_a_function_that_does_not_return_is_made_void_without_it() {
    let src = "void a(int) __attribute__((noreturn));\n\
               struct B {\n  int f(const B&);\n  int g(int);\n};\n\
               int B::f(const B& k) {\n  auto l = [](int v) { return v; };\n  a(0);\n  g(l(1));\n}\n";
    let g = voided_texts("cpp", src);
    // the declaration in the class changes with the definition, the
    // lambda's `return` is its own, and `g`, declared only, has no
    // group; the last expression statement first
    let head = "void a(int) __attribute__((noreturn));\n\
                struct B {\n  void f(const B&);\n  int g(int);\n};\n\
                void B::f(const B& k) {\n  auto l = [](int v) { return v; };\n";
    assert_eq!(g, [format!("{head}  a(0);\n}}\n"), format!("{head}  g(l(1));\n}}\n")]);
}

#[test]
fn a_member_defined_out_of_its_class_is_defined_in_it() {
    let fe = crate::language::by_name("cpp").expect("cpp").frontend().expect("front-end");
    let src = "struct B {\n  int f(int);\n  int g(int);\n  int g(long);\n};\n\
               int B::f(int x) { return x; }\nint B::g(int y) { return y; }\nint h(int z) { return z; }\n";
    let tree = fe.parse(Arc::from(src.as_bytes()));
    let mut out = Vec::new();
    for g in defined_in_class(&tree) {
        let mask = crate::syntax::Mask::new(tree.len()).with_off(&g.off).with_swaps(&g.swaps);
        let mut text = Vec::new();
        crate::syntax::Unparser::new().unparse(&tree, &mask, &mut text);
        out.push(String::from_utf8_lossy(&text).into_owned());
    }
    // not `g`, declared twice (which one?), nor `h`, of no class
    assert_eq!(
        out,
        ["struct B {\n  int f(int x){ return x; }\n  int g(int);\n  int g(long);\n};\n\
          int B::g(int y) { return y; }\nint h(int z) { return z; }\n"]
    );
}

fn c_tree(src: &str) -> Tree {
    let fe = crate::language::by_name("c").expect("c").frontend().expect("front-end");
    fe.parse(Arc::from(src.as_bytes()))
}

#[test]
fn javascript_parameters_go_with_their_arguments() {
    let g = texts("js", "function f(a, b) { return b; }\nf(1, 2);\n");
    assert!(g.iter().any(|o| o == &["a", "1"]), "{g:?}");
    assert!(g.iter().any(|o| o == &["b", "b", "2"]), "{g:?}");
}

#[test]
fn an_smt_declaration_goes_with_every_command_that_uses_its_name() {
    let g = texts(
        "smt2",
        "(declare-fun f (Int) Int)\n(declare-const x Int)\n(assert (> (f x) 0))\n(assert (= x 1))\n(check-sat)\n",
    );
    // x first (declared last): its uses take the commands around them, as
    // every list is a call; then f, used as a head
    assert_eq!(g[0], ["(declare-const x Int)", "(assert (> (f x) 0))", "(assert (= x 1))"]);
    assert_eq!(g[1], ["(declare-fun f (Int) Int)", "(assert (> (f x) 0))"]);
    assert_eq!(g.len(), 2, "{g:?}");
}

#[test]
fn a_wasm_function_goes_with_the_top_level_forms_that_call_it_but_not_a_local() {
    let g = texts(
        "wat",
        "(func $f (param $p i32) (local.get $p) (drop))\n(func $g (call $f (i32.const 1)))\n",
    );
    // the parameter's use is inside its own function: no group for it
    assert_eq!(
        g,
        [["(func $f (param $p i32) (local.get $p) (drop))", "(func $g (call $f (i32.const 1)))"]]
    );
}
