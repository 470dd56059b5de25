//! What a language says about names, per node kind: which nodes declare a
//! name, which open a scope, which call a function. The reduce layer reads
//! these tables to delete a declaration together with its uses, without
//! knowing the language (grammar data `declare`, `scopes`, `calls`).

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

/// Per-kind name tables of one language, indexed by kind (empty for
/// languages without them).
#[derive(Clone, Debug, Default)]
pub struct Bindings {
    pub declare: Vec<Option<Declare>>,
    /// Whether a node of this kind opens a scope: a name declared directly
    /// inside it is visible only inside it.
    pub scope: Vec<bool>,
    /// Whether a node of this kind is a call: its first named child names
    /// the function, and its child that is a separated list holds the
    /// arguments.
    pub call: Vec<bool>,
    /// Per kind: the kind a name token of it counts as (a grammar may spell
    /// one name kind with several ids, through aliases); itself otherwise.
    pub same: Vec<u16>,
    /// Names the renaming pass leaves as they are (grammar data
    /// `fixed_names`).
    pub fixed: Vec<Box<[u8]>>,
}

impl Bindings {
    pub fn declare(&self, kind: u16) -> Option<Declare> {
        self.declare.get(kind as usize).copied().flatten()
    }

    pub fn is_scope(&self, kind: u16) -> bool {
        self.scope.get(kind as usize).copied().unwrap_or(false)
    }

    pub fn is_call(&self, kind: u16) -> bool {
        self.call.get(kind as usize).copied().unwrap_or(false)
    }

    /// The kind name tokens of `kind` count as (see [`Bindings::same`]).
    pub fn name_kind(&self, kind: u16) -> u16 {
        self.same.get(kind as usize).copied().unwrap_or(kind)
    }

    /// Whether the language declares any name at all.
    pub fn is_empty(&self) -> bool {
        self.declare.iter().all(Option::is_none)
    }
}
