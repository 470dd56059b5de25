//! A language's rules for reduction, as every tree carries them: one
//! [`KindPolicy`] per node kind, and the language-wide [`Policy`] around
//! them.
//!
//! The language layer compiles them once from grammar data
//! (`grammars/<lang>.toml`, `language::tables`); every tree of the language
//! shares them through an `Arc`, and the passes read them without knowing
//! the language. A rule about one kind of node is one field of
//! [`KindPolicy`], documented there; a forest of several languages is the
//! languages' records one after the other, renumbered
//! ([`KindPolicy::renumbered`]).

use std::sync::{Arc, LazyLock};

/// The kind every front-end uses for syntax error nodes.
pub(crate) const ERROR_KIND: u16 = u16::MAX;

/// Everything a language says about one kind of node.
///
/// Every field has its default where the grammar data says nothing of the
/// kind, so a record of a kind the data never names is `Default`.
#[derive(Clone, Debug, Default)]
pub struct KindPolicy {
    /// The kind's name in the grammar (`function_definition`).
    pub name: Box<str>,
    /// Never descended into: the node is one unit (grammar data `atomic`).
    pub atomic: bool,
    /// Hoisting moves nodes of this kind (grammar data `hoist`).
    pub hoist: bool,
    /// A token of it is parsed again as the language (a C macro's body,
    /// grammar data `reparse`).
    pub reparse: bool,
    /// Which characters of such nodes the shrinking pass may delete
    /// (grammar data `shrink`).
    pub shrink: Shrink,
    /// Its part in an expression standing as a statement (grammar data
    /// `[statement]`).
    pub stands: Stands,
    /// Its part in a sweep (grammar data `[sweep]`).
    pub swept: Swept,
    /// A block whose body holds declarations as the file does (grammar
    /// data `namespaces`): two side by side, alike up to their bodies, may
    /// become one, and the dependency-aware cuts look inside.
    pub namespace: bool,
    /// Its nodes go with the token right after them (`public` and its
    /// `:`; grammar data `with_next_token`).
    pub with_next_token: bool,
    /// The token that ends its nodes stays in the token pass (grammar data
    /// `kept_ends`; see [`super::ends`]).
    pub kept_end: bool,
    /// Its children are items, as a block's are: the layout pass keeps
    /// each on a line of its own (grammar data `[layout] items`).
    pub items: bool,
    /// Its part in the functions' rewrites (grammar data `[functions]`).
    pub function: FnPart,
    /// Its part in making a local variable global (grammar data
    /// `[globals]`).
    pub global: Global,
    /// A type that names a tag (a struct's): a typedef of it may go for
    /// the tag, its uses written as the type up to the tag (grammar data
    /// `[[declare]] tags`).
    pub tag: bool,
    /// How its nodes declare names (grammar data `[[declare]]`).
    pub declare: Option<Declare>,
    /// A name declared directly inside it is visible only inside it
    /// (grammar data `scopes`).
    pub scope: bool,
    /// A call: its first named child names the function, its child that
    /// is a separated list holds the arguments (grammar data `calls`).
    pub call: bool,
    /// The kind its name tokens count as, when a grammar spells one name
    /// kind with several ids (aliases); `None`: its own.
    pub name_kind: Option<u16>,
}

impl KindPolicy {
    /// A record with nothing but its name.
    pub fn named(name: impl Into<Box<str>>) -> KindPolicy {
        KindPolicy { name: name.into(), ..KindPolicy::default() }
    }

    /// The record in a forest where this language's kinds start at
    /// `kind` and its replacement texts at `replacement`.
    pub fn renumbered(&self, kind: u16, replacement: u16) -> KindPolicy {
        let function = match self.function {
            FnPart::Definition(texts) => FnPart::Definition(FnTexts {
                void: texts.void + replacement,
                prototype: texts.prototype.map(|p| p + replacement),
            }),
            part => part,
        };
        KindPolicy {
            function,
            declare: self.declare.map(|d| Declare { name: d.name + kind, ..d }),
            name_kind: self.name_kind.map(|k| k + kind),
            ..self.clone()
        }
    }
}

/// What every tree of one language shares: a [`KindPolicy`] per kind, the
/// replacement texts, the hoisting slots and the rules of its text.
#[derive(Debug)]
pub struct Policy {
    /// Indexed by kind.
    pub kinds: Vec<KindPolicy>,
    /// The texts a node with `Action::Replace(i)` may become.
    pub replacements: Vec<Box<[u8]>>,
    /// The places of the grammar (slot 0 is "unknown" and accepts nothing).
    pub slots: Vec<SlotInfo>,
    /// The shrinking pass may also squeeze the whitespace between tokens
    /// (grammar data `squeeze`).
    pub squeeze: bool,
    /// The token pass runs on well-formed input too (grammar data
    /// `token_pass`); it always runs on malformed input.
    pub token_pass: bool,
    /// Two operator characters brought together by a cut can read as one
    /// token (`- -` as `--` in C; grammar data `operators_glue`).
    pub operators_glue: bool,
    /// Cuts are tokens of a language, so the unparser must not glue words
    /// together and may tidy the whitespace around them. False for views
    /// whose units are characters or exact bytes.
    pub tokens: bool,
    /// Names the renaming pass leaves as they are (grammar data
    /// `fixed_names`).
    pub fixed_names: Vec<Box<[u8]>>,
    /// How results are laid out (grammar data `layout`); `None`: as the
    /// deletions left them.
    pub layout: Option<Arc<Rules>>,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            kinds: Vec::new(),
            replacements: Vec::new(),
            slots: Vec::new(),
            squeeze: false,
            token_pass: false,
            operators_glue: true,
            tokens: true,
            fixed_names: Vec::new(),
            layout: None,
        }
    }
}

/// The record of kinds the policy does not know (the error kind, the
/// kinds of test trees).
static UNKNOWN: LazyLock<KindPolicy> = LazyLock::new(KindPolicy::default);

impl Policy {
    /// The record of `kind` (an empty one for a kind it does not know).
    pub fn kind(&self, kind: u16) -> &KindPolicy {
        self.kinds.get(kind as usize).unwrap_or(&UNKNOWN)
    }

    /// The name of `kind` (`ERROR` for the error kind, `?` for one it
    /// does not know).
    pub fn kind_name(&self, kind: u16) -> &str {
        match (kind, self.kinds.get(kind as usize)) {
            (ERROR_KIND, _) => "ERROR",
            (_, Some(k)) => &k.name,
            (_, None) => "?",
        }
    }

    /// The kind name tokens of `kind` count as (see
    /// [`KindPolicy::name_kind`]).
    pub fn name_kind(&self, kind: u16) -> u16 {
        self.kind(kind).name_kind.unwrap_or(kind)
    }

    /// Whether the language declares names at all.
    pub fn declares_names(&self) -> bool {
        self.kinds.iter().any(|k| k.declare.is_some())
    }

    /// Whether the token pass keeps the ending tokens of any kind.
    pub fn has_kept_ends(&self) -> bool {
        self.kinds.iter().any(|k| k.kept_end)
    }

    /// Whether any kind goes with the token after it.
    pub fn has_next_token_kinds(&self) -> bool {
        self.kinds.iter().any(|k| k.with_next_token)
    }
}

/// A place in the grammar (a field, or a parent's unnamed children): what may
/// stand there. Hoisting uses it to replace a node only by something that
/// fits its place.
#[derive(Clone, Debug, Default)]
pub struct SlotInfo {
    /// Whether the place holds a list (so a node there may be unwrapped into
    /// several).
    pub repeated: bool,
    /// The kinds hoisting moves that may stand there, sorted.
    pub accepts: Box<[u16]>,
}

impl SlotInfo {
    pub fn accepts(&self, kind: u16) -> bool {
        self.accepts.binary_search(&kind).is_ok()
    }
}

/// How a node of one kind declares names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declare {
    /// The kind of the token that spells the name (C's `identifier`,
    /// `type_identifier`, `field_identifier`); a use is a token of the same
    /// kind and text.
    pub name: u16,
    /// Every element of this list declares a name of its own, and is a
    /// parameter of the nearest declaration above the list: deleting it
    /// deletes the matching argument of every call.
    pub each: bool,
    /// The node declares its name only where no other declaration
    /// resolves it (an assignment to an undeclared name: JavaScript's
    /// implicit global); such declarations are visible in the whole file.
    pub implicit: bool,
    /// Coordinated deletion tries the declaration's uses written as its
    /// value before it deletes them.
    pub inline_first: bool,
}

/// A kind's part in a sweep (grammar data `[sweep]`): every token of a
/// swept kind that ends a node of an ending kind goes in one candidate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Swept {
    #[default]
    No,
    /// A token that may go (JavaScript's `;`).
    Token,
    /// A node whose last child, such a token, may go.
    Ends,
}

/// A kind's part in the rewrites of functions (grammar data `[functions]`):
/// made `void`, or defined in their class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FnPart {
    #[default]
    No,
    /// A function's definition, with the texts its rewrites write.
    Definition(FnTexts),
    /// A declaration, maybe of a function (a prototype, a member in its
    /// class), whose type changes along.
    Declaration,
    /// The declarator that makes a definition or declaration a function's.
    Declarator,
    /// A statement that returns, maybe a value.
    Return,
    /// A function inside a function, whose `return`s are its own.
    Nested,
    /// A class, whose members' definitions may move into it.
    Class,
}

/// The texts a function definition's rewrites write, as indices among the
/// policy's replacements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FnTexts {
    /// The type that returns nothing (`void`).
    pub void: u16,
    /// What takes the body's place to make the definition a declaration
    /// (`;`); `None`: definitions keep their bodies.
    pub prototype: Option<u16>,
}

/// A kind's part in making a local variable global (grammar data
/// `[globals]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Global {
    #[default]
    No,
    /// A declaration that may move to file scope.
    Declaration,
    /// An assignment, which goes when its left side is the moved name.
    Assignment,
}

/// A kind's part in an expression standing as a statement: `x + *d` and
/// the `;` of `int *p = x + *d;` make the statement `x + *d;`, which
/// hoisting may put in the declaration's place (grammar data `[statement]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stands {
    #[default]
    No,
    /// It may stand as a statement, with the end token after it.
    Expression,
    /// The statement an expression and the end token make.
    Statement,
    /// The token that ends a statement.
    End,
}

/// Which characters of a node the shrinking pass may delete.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shrink {
    #[default]
    No,
    /// Those between its first and last quote (`"`, `'` or a backtick).
    Quoted,
    /// All of them.
    Whole,
}

/// An opening and a closing bracket, as token texts.
pub(crate) type Pair = (Box<[u8]>, Box<[u8]>);

/// How a language's results are laid out (grammar data `layout`; the
/// layout view applies them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// One level of indentation.
    pub indent: Box<[u8]>,
    /// Brackets whose contents are indented one level more.
    pub blocks: Vec<Pair>,
    /// Brackets inside which line breaks are joined.
    pub joined: Vec<Pair>,
    /// Tokens with no space before them.
    pub tight: Vec<Box<[u8]>>,
    /// Lines that start with this stay at column 0.
    pub flush: Option<Box<[u8]>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_the_policy_does_not_know_has_the_empty_record() {
        let policy = Policy {
            kinds: vec![KindPolicy { namespace: true, ..KindPolicy::named("a") }],
            ..Policy::default()
        };
        assert!(policy.kind(0).namespace);
        assert!(!policy.kind(1).namespace && policy.kind(1).declare.is_none());
        assert_eq!(policy.kind_name(0), "a");
        assert_eq!(policy.kind_name(7), "?");
        assert_eq!(policy.kind_name(ERROR_KIND), "ERROR");
        assert_eq!(policy.name_kind(3), 3);
    }

    #[test]
    fn renumbering_moves_every_kind_and_text_the_record_names() {
        let declare = Declare { name: 2, each: false, implicit: false, inline_first: false };
        let k = KindPolicy {
            function: FnPart::Definition(FnTexts { void: 1, prototype: Some(2) }),
            declare: Some(declare),
            name_kind: Some(4),
            ..KindPolicy::named("f")
        };
        let r = k.renumbered(10, 5);
        assert_eq!(r.function, FnPart::Definition(FnTexts { void: 6, prototype: Some(7) }));
        assert_eq!(r.declare.map(|d| d.name), Some(12));
        assert_eq!(r.name_kind, Some(14));
        assert_eq!(&*r.name, "f");
    }
}
