//! Per-language knowledge that the grammar itself cannot give, as data.
//!
//! Each language has one file `grammars/<lang>.toml`, compiled into the binary
//! and loaded through this one code path. The format is documented field by
//! field on [`GrammarData`] and, for users, in `grammars/README.md`. Every kind
//! name in a file is resolved against the real grammar when the front-end is
//! built; an unknown name is an error, and a test builds every language, so a
//! typo fails `cargo test` rather than silently doing nothing.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use serde::Deserialize;

/// The contents of one `grammars/<lang>.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GrammarData {
    /// The order in which a level's units are tried unless `--order` says
    /// otherwise: `"backward"` for code, where later parts use earlier ones,
    /// so removing the users first frees what they use in the same pass
    /// (BENCHMARKS.md, "What each part saves", has the figures);
    /// `"forward"` (the default) for data.
    #[serde(default)]
    pub order: OrderData,

    /// Kinds reduced as a whole, never descended into: string and number
    /// literals, whose inner tokens are not worth a test each. Without this,
    /// HDD spends a level of tests on escape sequences and string fragments.
    #[serde(default)]
    pub atomic: Vec<String>,

    /// Token kinds whose text is parsed again as the language and spliced
    /// into the tree under the token: C's and C++'s `preproc_arg`, the body
    /// of a `#define`, which tree-sitter keeps as one opaque token. Without
    /// it a macro is kept or dropped whole, and a result keeps every line
    /// of a long macro body of which one statement matters. A text whose
    /// parse has syntax errors is parsed once more with a `;` after it (an
    /// expression); if it still has errors (`##`, half a statement), it
    /// stays opaque.
    #[serde(default)]
    pub reparse: Vec<String>,

    /// Minimal forms for children the grammar requires: `kind = "text"`. A
    /// required child (one the grammar does not allow to be absent, such as a
    /// function body) cannot be deleted, only replaced, and only by a text that
    /// is strictly shorter than its own. A name may be a supertype (such as C's
    /// `expression`); it then applies to every kind under it, and an entry for a
    /// concrete kind wins over one for its supertype. Without an entry a
    /// required child is kept as it is.
    #[serde(default)]
    pub replace: BTreeMap<String, String>,

    /// Minimal forms used only by coordinated deletion, for the uses of a
    /// name whose declaration goes in the same candidate: `kind = "text"`,
    /// as in `replace`, but never tried alone and allowed to be longer than
    /// what they replace (the group as a whole must be shorter). C's
    /// `type_identifier = "int"` lets a typedef go with its uses turned into
    /// `int`; alone, `T x;` to `int x;` would cost a test for every type
    /// name, and mostly leave a typedef nothing uses. (A `replace` entry as
    /// long as what it replaces, `x` by `0`, is used the same way.)
    #[serde(default)]
    pub group_replace: BTreeMap<String, String>,

    /// What hoisting moves, as kind or supertype names: a node of one of
    /// these kinds may be replaced by its nearest descendants of these kinds
    /// that fit its place in the grammar (`if (c) { s; }` by `{ s; }`,
    /// `f(g(x))` by `g(x)`, a block in a block by its statements). Without
    /// them, a reduction keeps every wrapper around the part that matters.
    #[serde(default)]
    pub hoist: Vec<String>,

    /// Nodes whose characters the shrinking pass may delete one by one:
    /// `kind = "quoted"` (those between the first and the last quote: string
    /// literals) or `kind = "whole"` (XML text). Without it, a long string
    /// that matters for one character stays whole.
    #[serde(default)]
    pub shrink: BTreeMap<String, ShrinkData>,

    /// Whether the shrinking pass may also squeeze the whitespace between
    /// tokens: `true` for data formats, whose layout means nothing (a JSON
    /// result of 22 bytes, 14 of them indentation, becomes 8); off for code,
    /// whose layout helps a person read the result.
    #[serde(default)]
    pub squeeze: bool,

    /// Whether the token pass (lines, then words, under the syntax guard)
    /// runs on well-formed input too, not only on malformed input: `true`
    /// for code, where deleting tokens of different nodes at once (an
    /// `else` with the statement after it, a `var`, a `;` that ASI makes
    /// up for) reaches past what any tree deletion does; off for data
    /// formats, where it found nothing on the corpus and cost tests
    /// (BENCHMARKS.md, "Past 1-tree-minimal").
    #[serde(default)]
    pub token_pass: bool,

    /// Kinds whose ending token the token pass keeps (see `kept_ends`
    /// below): C's struct members and specifiers, whose `;` gcc lets go
    /// with a warning. Without it, the token pass deletes such a token
    /// whenever the syntax guard allows it, which an input with syntax
    /// errors to spare does.
    #[serde(default)]
    pub kept_ends: Vec<String>,

    /// Whether two operator characters that a cut brings together can read
    /// as one token (`a - -b` must not become `a --b`): true (the default)
    /// for C and JavaScript, false for JSON and XML, where `> <` may well
    /// become `><`.
    #[serde(default = "yes")]
    pub operators_glue: bool,

    /// Separated lists, such as argument lists and JSON arrays: deleting an
    /// element deletes one adjacent separator with it. Without an entry,
    /// deleting list elements leaves dangling separators (`[1,,3]`).
    #[serde(default)]
    pub list: Vec<ListData>,

    /// Children never switched off, neither deleted nor replaced, because that
    /// never helps and costs a test: a child the grammar calls optional
    /// although the language needs it (`sizeof` without its operand), or one
    /// whose minimal form is never valid there (a called function replaced by
    /// `0`). `parent` and `field` (or, outside fields, `kind`) name them.
    #[serde(default)]
    pub keep: Vec<KeepData>,

    /// Optional children that go with the token right before them, the
    /// parent's own punctuation: Rust's return type and its `->`, a `let`'s
    /// type and its `:`, its value and its `=`. `parent` and `field` name
    /// them. Without it, deleting such a child leaves its token dangling
    /// (`fn f() -> {`), which the syntax guard refuses, so the child stays.
    #[serde(default)]
    pub with_token_before: Vec<FieldData>,

    /// Nodes that hoisting may splice: keep their beginning up to the
    /// child in field `head` and take, for the rest, a statement inside the
    /// child in field `tail` (`if (c) ; else B` to `if (c) B`). Without it,
    /// an `if` whose test matters and whose `else` holds the bug keeps its
    /// other branch.
    #[serde(default)]
    pub splice: Vec<SpliceData>,

    /// Chains: a node whose `field` child, through a node of kind `via`,
    /// is a node of its own kind (C's `else if`), presented to the searches
    /// as one list of links under the chain's first node, so that a chain
    /// of any length is one HDD level. Without it, each link is a level or
    /// two deeper than the one before, and HDD walks them one at a time.
    #[serde(default)]
    pub chain: Vec<ChainData>,

    /// Nodes that declare a name, for the coordinated deletion pass, which
    /// deletes a declaration together with every use of its name in one
    /// test (a variable and the statements that use it, a parameter and
    /// the matching argument of every call). Without entries that pass
    /// does nothing for the language.
    #[serde(default)]
    pub declare: Vec<DeclareData>,

    /// Kinds that open a scope: a name declared directly inside one is used
    /// only inside it (C's blocks and function definitions). Names declared
    /// outside every scope are visible in the whole file.
    #[serde(default)]
    pub scopes: Vec<String>,

    /// Kinds of function calls: the first named child names the function
    /// and the child that is a `[[list]]` holds the arguments, which match
    /// the parameters of a `declare` entry with `each = true` by position.
    #[serde(default)]
    pub calls: Vec<String>,

    /// Names the renaming pass never renames, although the text declares
    /// them: C's `main`, without which a program does not link, so that
    /// renaming it would only cost a test of every run.
    #[serde(default)]
    pub fixed_names: Vec<String>,

    /// The formatter that `--format` runs on a result, as a command and its
    /// arguments, `{name}` standing for the input's file name: it reads the
    /// text on its standard input and writes it formatted
    /// (`["clang-format", "--assume-filename={name}"]`). Without it
    /// `--format` is refused for the language.
    #[serde(default)]
    pub format: Vec<String>,

    /// How the layout pass lays out a result (see `[layout]` below).
    /// Without it the language gets no layout pass: its results keep the
    /// indentation and blank lines that deletions left.
    #[serde(default)]
    pub layout: Option<LayoutData>,

    /// How an expression stands as a statement (see `[statement]` below).
    /// Without it, hoisting never makes a declaration or statement into an
    /// expression statement.
    #[serde(default)]
    pub statement: Option<StatementData>,

    /// Tokens that all go at once (see `[sweep]` below): JavaScript's
    /// statement-ending semicolons, which automatic semicolon insertion
    /// makes optional. Without it, the token pass takes each alone, a test
    /// each.
    #[serde(default)]
    pub sweep: Option<SweepData>,

    /// Kinds of blocks whose body holds declarations as the file does:
    /// C++'s namespaces and `extern "C" { }`. Two side by side, alike up
    /// to their body (the last child, a bracketed block), may become one
    /// (`namespace n { A } namespace n { B }` to `namespace n { A B }`, by
    /// coordinated deletion), and the dependency-aware cuts take the
    /// declarations inside as items of their own. Without it, such a pair
    /// stays two, and a cut keeps or drops a namespace whole.
    #[serde(default)]
    pub namespaces: Vec<String>,

    /// Kinds whose nodes go only with the token right after them, a
    /// sibling the grammar leaves outside: tree-sitter-cpp's `public` and
    /// its `:`. Neither may go alone, so coordinated deletion switches off
    /// both in one candidate. Without it, such a pair stays.
    #[serde(default)]
    pub with_next_token: Vec<String>,

    /// What functions are made of, for the rewrites of functions (see
    /// `[functions]` below). Without it, functions keep their return types
    /// and their places.
    #[serde(default)]
    pub functions: Option<FunctionData>,

    /// What a local variable made global is made of (see `[globals]`
    /// below). Without it, locals stay where they are.
    #[serde(default)]
    pub globals: Option<GlobalsData>,

    /// How an S-expression language is read (see `[sexp]` below): its
    /// comments, strings and quoted symbols, and the list kinds named by
    /// their head symbol. Only the S-expression front-end reads it.
    #[serde(default)]
    pub sexp: Option<SexpData>,
}

/// `[sexp]`: the reader of an S-expression language (SMT-LIB, WebAssembly
/// text, Lisp-shaped data): lists, atoms, strings and comments, with the
/// few lexical choices where the dialects differ.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SexpData {
    /// What starts a comment to the end of the line (`;` in SMT-LIB, `;;`
    /// in WebAssembly text). Without it, a `;` is part of an atom.
    #[serde(default)]
    pub line_comment: Option<String>,
    /// The brackets of a block comment, which nest (`(;` and `;)` in
    /// WebAssembly text, `#|` and `|#` in Common Lisp).
    #[serde(default)]
    pub block_comment: Option<[String; 2]>,
    /// How a `"` stands inside a string: doubled (`""`, SMT-LIB), or after
    /// a backslash (`\"`, the default), which escapes any character.
    #[serde(default)]
    pub escape: EscapeData,
    /// Whether `|...|` is one atom, a quoted symbol that may hold spaces
    /// and parentheses (SMT-LIB, Common Lisp). Without it, `|` is an atom's
    /// character like any other.
    #[serde(default)]
    pub quoted_symbols: bool,
    /// List kinds named after their head symbol: `kind = ["symbol", ...]`
    /// makes a list whose first element is one of those symbols a node of
    /// `kind` (SMT-LIB's `declaration` for `declare-fun`, `define-fun`),
    /// which the other tables (`declare`, `keep`, `hoist`) may name. Other
    /// lists are `list`s.
    #[serde(default)]
    pub heads: BTreeMap<String, Vec<String>>,
}

/// How a quote stands inside a string of an S-expression language.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum EscapeData {
    /// `\"`; a backslash escapes the character after it.
    #[default]
    Backslash,
    /// `""`; a backslash is a character like any other.
    Double,
}

/// `[globals]`: a local variable made global, by coordinated deletion: its
/// declaration moved to just before the outermost node around it (its
/// function), and every assignment to it switched off (`int f(void) {
/// int *p; p = g(); return *p; }` to `int *p;\nint f(void) { return *p;
/// }`). A global starts as zero, which is often as good to the test as
/// the value the function gave it; the code that computed that value goes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GlobalsData {
    /// The kinds of declarations that may move (C's `declaration`): only
    /// one that declares one name, has no initial value and stands in a
    /// block (a scope), not in a `for`.
    pub declarations: Vec<String>,
    /// The kinds of assignments (C's `assignment_expression`) whose left
    /// side is the name: each goes with its statement (`[statement]`);
    /// where one is not a statement of its own, the local stays.
    pub assignments: Vec<String>,
}

/// `[functions]`: what functions are made of, for two rewrites by
/// coordinated deletion. A function whose value no call uses made `void`:
/// its return type and that of every declaration of its name written as
/// the `void` text, its `return` statements' values written as nothing
/// (`int f(void) { g(); return 0; }` to `void f(void) { g(); return; }`);
/// or, where no `return` has a value, one of its body's last expression
/// statements switched off with it (the call of a `noreturn` function that
/// only kept `-Werror=return-type` quiet). And a member function defined
/// out of its class (`int B::f(int x) { ... }`) defined in it instead, in
/// the place of its declaration there.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FunctionData {
    /// The kinds that define a function (C's `function_definition`).
    pub definitions: Vec<String>,
    /// The kinds that declare one without defining it (C's `declaration`,
    /// C++'s `field_declaration`): their return type changes along.
    pub declarations: Vec<String>,
    /// The field of the return type in both (`type`).
    #[serde(rename = "type")]
    pub type_field: String,
    /// The declarator that makes either a function's (`function_declarator`):
    /// a child of that kind, not one under a pointer's declarator.
    pub declarator: String,
    /// The text of the type that returns nothing (`void`).
    pub text: String,
    /// The text that takes a definition's body's place to make it a
    /// declaration (`;`: `int f(void) { ... }` to `int f(void);`). Without
    /// it, a definition keeps its body (at least `{}`).
    #[serde(default)]
    pub prototype: Option<String>,
    /// The statement that returns (`return_statement`).
    pub returns: String,
    /// Kinds inside a function whose `return`s are their own (C++'s
    /// `lambda_expression`).
    #[serde(default)]
    pub nested: Vec<String>,
    /// The kinds of classes, whose members defined outside them may be
    /// defined inside (C++'s `class_specifier`, `struct_specifier`).
    #[serde(default)]
    pub classes: Vec<String>,
}

/// `[sweep]`: tokens that may all go in one candidate.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SweepData {
    /// The tokens (`;`).
    pub tokens: Vec<String>,
    /// The kinds (or supertypes) whose nodes such a token ends; only a
    /// token that is the last child of one goes.
    pub parents: Vec<String>,
}

/// `[statement]`: an expression followed by the token that ends a
/// declaration or statement is a statement of its own. Hoisting may then
/// replace a declaration or statement that ends in that token by one
/// expression inside it with the token (`int *p = x + *d;` by `x + *d;`,
/// `return f(x);` by `f(x);`), where its place takes such a statement.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StatementData {
    /// The kind of such a statement (C's `expression_statement`).
    pub kind: String,
    /// What may stand so, as kind or supertype names (C's `expression`).
    pub expressions: Vec<String>,
    /// The token that ends it (`;`).
    pub end: String,
}

/// `[layout]`: how a result is laid out by the layout pass, as token texts
/// (not kinds: a bracket is a bracket wherever the grammar puts it).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LayoutData {
    /// One level of indentation (e.g. two spaces).
    pub indent: String,
    /// Brackets whose contents are indented one level more: `[["{", "}"]]`.
    pub blocks: Vec<[String; 2]>,
    /// Brackets inside which line breaks are joined into one space, and
    /// which hold no space just inside them: `[["(", ")"], ["[", "]"]]`.
    #[serde(default)]
    pub joined: Vec<[String; 2]>,
    /// Tokens with no space before them (`,`, `;`).
    #[serde(default)]
    pub tight: Vec<String>,
    /// Lines that start with this start at column 0 (C's `#`); their line
    /// breaks stay.
    #[serde(default)]
    pub flush: Option<String>,
    /// Kinds whose children are items, as a block's and the file's are
    /// (C's `preproc_if`): a line break stays after each, and comes between
    /// two that deletions left on one line. Kinds, unlike the fields above:
    /// nothing in the text around such a node says it holds items.
    #[serde(default)]
    pub items: Vec<String>,
}

/// One kind of declaration: `[[declare]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DeclareData {
    /// The declaring node's kind (e.g. `declaration`, `parameter_list`).
    pub kind: String,
    /// The kind of the token that spells the name (e.g. `identifier`); a
    /// use of the name is a token of this kind with the same text. The
    /// name is the first such token inside the declaration (inside `field`,
    /// when given).
    pub name: String,
    /// Other token kinds that spell names of the same kind: tree-sitter-c
    /// reads `uint16_t` as a `primitive_type`, so a preprocessed file's
    /// `typedef unsigned short uint16_t;` declares a name that its uses
    /// spell as one. Without it, such a typedef has no uses (and no group).
    #[serde(default)]
    pub spelled: Vec<String>,
    /// The field of the declaring node that holds the name (e.g. C's
    /// `declarator`, so that a `typedef struct { T x; } U;` declares `U`).
    #[serde(default)]
    pub field: Option<String>,
    /// The node is a list (a `[[list]]` entry) of which every element
    /// declares a name of its own: parameters, whose arguments go with
    /// them. Without it, a list with several elements (`int a, b;`) also
    /// declares one name per element, and one with a single element
    /// declares that name as a whole.
    #[serde(default)]
    pub each: bool,
    /// The field of the declaring node whose text may stand for the name
    /// at every use: C's typedef `type`, a macro's `value`. The
    /// declaration then also goes with each use written as that text
    /// (`typedef unsigned i; typedef i o;` to `typedef unsigned o;`,
    /// `#define N 3` and `a[N]` to `a[3]`), when that is shorter, and only
    /// where the name field holds the bare name (not `typedef int *P;`).
    #[serde(default)]
    pub inline: Option<String>,
    /// The node declares its name only where no other declaration
    /// resolves it: an assignment to a name nothing declares (JavaScript's
    /// implicit global, `k = module` without `var`). Every such assignment
    /// to a name is one declaration visible in the whole file; what goes
    /// is the statement around it. Needs `field`, which must hold the bare
    /// name (`k.exports = he` declares nothing).
    #[serde(default)]
    pub implicit: bool,
    /// Try the uses written as the `inline` text before the declaration
    /// goes with its uses: JavaScript's tests run the code, which reads the
    /// values it declares, so deleting them first mostly costs a test.
    #[serde(default)]
    pub inline_first: bool,
    /// Kinds of the `inline` field's node that name a tag, a name of their
    /// own spelled by a child of the name's kind (C's `struct_specifier`,
    /// `union_specifier`, `enum_specifier`): a typedef of one may go for
    /// the tag, its tokens before the type and its name gone and each use
    /// written as the type up to its tag (`typedef struct s {int a;} S; S
    /// x;` to `struct s {int a;}; struct s x;`), when that is shorter.
    /// Without it, such a typedef stays while its name is used.
    #[serde(default)]
    pub tags: Vec<String>,
}

/// The default order of a language: `order = "forward"` or `"backward"`.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum OrderData {
    #[default]
    Forward,
    Backward,
}

/// Which characters of a node the shrinking pass may delete.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ShrinkData {
    Quoted,
    Whole,
}

impl From<ShrinkData> for crate::syntax::policy::Shrink {
    fn from(s: ShrinkData) -> Self {
        match s {
            ShrinkData::Quoted => crate::syntax::policy::Shrink::Quoted,
            ShrinkData::Whole => crate::syntax::policy::Shrink::Whole,
        }
    }
}

/// One separated list: `[[list]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListData {
    /// The kind of the list node (e.g. `argument_list`).
    pub parent: String,
    /// The separator tokens (e.g. `[","]`).
    pub separators: Vec<String>,
    /// When set, only children in this field are elements (e.g. the
    /// `declarator`s of a C declaration, not its type).
    #[serde(default)]
    pub field: Option<String>,
}

/// One child that is never deleted: `[[keep]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct KeepData {
    /// The parent's kind.
    pub parent: String,
    /// The child's field name, if it is in a field.
    #[serde(default)]
    pub field: Option<String>,
    /// The child's kind, if it is not in a field.
    #[serde(default)]
    pub kind: Option<String>,
}

/// A child in a field of a parent kind: `[[with_token_before]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FieldData {
    /// The parent's kind.
    pub parent: String,
    /// The child's field name.
    pub field: String,
}

/// A chain of nodes of one kind: `[[chain]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChainData {
    /// The kind of the chain's nodes (`if_statement`).
    pub kind: String,
    /// The field that continues the chain (`alternative`).
    pub field: String,
    /// The kind of the link between two of them (`else_clause`).
    pub via: String,
}

/// A node hoisting may splice: `[[splice]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SpliceData {
    /// The node's kind.
    pub parent: String,
    /// The field of the child up to which the node's beginning stays.
    pub head: String,
    /// The field of the child whose statements may take the rest's place.
    pub tail: String,
}

fn yes() -> bool {
    true
}

impl GrammarData {
    /// Parses one grammar file; `name` is used in error messages.
    pub(crate) fn parse(name: &str, text: &str) -> Result<GrammarData> {
        let data: GrammarData =
            toml::from_str(text).with_context(|| format!("cannot read grammar data {name}"))?;
        for k in &data.keep {
            anyhow::ensure!(
                k.field.is_some() != k.kind.is_some(),
                "grammar data {name}: a [[keep]] entry for parent {:?} needs exactly one of field and kind",
                k.parent
            );
        }
        Ok(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_fields_are_rejected() {
        let err = GrammarData::parse("x", "atomc = [\"a\"]\n").unwrap_err();
        assert!(format!("{err:#}").contains("unknown field"), "{err:#}");
    }

    #[test]
    fn keep_needs_field_or_kind() {
        let err = GrammarData::parse("x", "[[keep]]\nparent = \"a\"\n").unwrap_err();
        assert!(format!("{err:#}").contains("exactly one"), "{err:#}");
    }
}
