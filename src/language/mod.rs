//! The language layer: bytes in, one arena [`Tree`] out, for every
//! supported language.
//!
//! [`LANGUAGES`] is the registry: one row per language with its name, file
//! extensions, grammar data (`grammars/<lang>.toml`, format in `grammar`)
//! and how to build its front-end. Every front-end compiles its grammar data
//! with the one compiler in `tables`. C, C++, GLSL, Go, Java, JavaScript,
//! JSON, LLVM IR, Python, Rust, Solidity and TypeScript are rows of the one generic tree-sitter
//! front-end (`treesitter`); XML has its own on quick-xml (`xml`);
//! SMT-LIB and other S-expression formats have our own reader (`sexp`); and plain
//! text, lines then tokens (`text`), is the fallback for anything else. A
//! set of files has its own front-end,
//! `forest`, made of its files' front-ends.
//!
//! Invariants: parsing never fails (malformed input gives a tree with error
//! nodes, and unparsing that tree with everything kept gives the input
//! back); this layer knows nothing of the reducer core, the oracle or the
//! application.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use anyhow::Result;

use crate::syntax::tree::Tree;

pub(crate) mod forest;
pub(crate) mod grammar;
pub(crate) mod sexp;
pub(crate) mod tables;
pub(crate) mod text;
pub(crate) mod treesitter;
pub(crate) mod xml;

pub use forest::Forest;
pub use grammar::OrderData;

/// A parser for one language.
pub trait Frontend: Send + Sync + fmt::Debug {
    /// Parses `src` into a tree; never fails (see the module invariant).
    fn parse(&self, src: Arc<[u8]>) -> Tree;

    /// The order in which the language's units are best tried (grammar
    /// data `order`), unless the user says otherwise.
    fn order(&self) -> OrderData;

    /// Counts the syntax errors in `src`, as [`Tree::error_count`] would after
    /// [`Frontend::parse`], but possibly faster. The syntax guard uses it.
    fn syntax_errors(&self, src: &[u8]) -> usize;

    /// A parse of `src` kept so that texts close to it can be counted faster
    /// by [`Frontend::syntax_errors_from`]; `None` if the front-end cannot.
    fn guard_base(&self, _src: &[u8]) -> Option<GuardBase> {
        None
    }

    /// The syntax errors in `text`, found by re-parsing only where it
    /// differs from the text of `base` (the same count as
    /// [`Frontend::syntax_errors`]); also the parse of `text`, to be the base
    /// of later calls.
    fn syntax_errors_from(&self, _base: &GuardBase, text: &[u8]) -> (usize, Option<GuardBase>) {
        (self.syntax_errors(text), None)
    }

    /// Makes every later parse give up once `interrupt` is set (a signal,
    /// `--max-time`); the default front-end, quick on any input, ignores it.
    fn set_interrupt(&mut self, _interrupt: Interrupt) {}
}

/// Whether a parse in progress should give up: parsing and building the
/// tree of a file of megabytes takes seconds, and a signal must not wait
/// for them. A parse that gives up returns a single node, as a parser that
/// returns nothing does (parsing never fails), and counts
/// [`usize::MAX`] syntax errors; whoever set the interrupt knows to throw
/// those away.
#[derive(Clone, Default)]
pub struct Interrupt(Option<Arc<dyn Fn() -> bool + Send + Sync>>);

impl Interrupt {
    /// Parses give up once `is_set` holds.
    pub fn new(is_set: impl Fn() -> bool + Send + Sync + 'static) -> Interrupt {
        Interrupt(Some(Arc::new(is_set)))
    }

    /// Whether the parse in progress should give up.
    pub fn is_set(&self) -> bool {
        self.0.as_ref().is_some_and(|f| f())
    }
}

impl fmt::Debug for Interrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() { "Interrupt(set)" } else { "Interrupt(none)" })
    }
}

/// How often (in nodes or events) a tree builder asks its [`Interrupt`].
pub(crate) const INTERRUPT_EVERY: usize = 1 << 14;

/// The tree of a parse that gave up or had nothing: one node over `src`.
pub(crate) fn whole(src: Arc<[u8]>, kind: u16, policy: Arc<crate::syntax::policy::Policy>) -> Tree {
    let mut b = crate::syntax::tree::TreeBuilder::new(src.clone());
    b.open(kind, crate::syntax::tree::flags::NAMED, 0, src.len());
    b.finish(policy)
}

/// What a front-end keeps of a parse for [`Frontend::syntax_errors_from`].
pub type GuardBase = Box<dyn std::any::Any + Send + Sync>;

/// One row of the language registry.
#[derive(Debug)]
pub struct LangInfo {
    /// The name `--lang` takes.
    pub name: &'static str,
    /// File extensions that select the language when `--lang` is not given.
    pub extensions: &'static [&'static str],
    /// The grammar data file's name and contents.
    pub grammar: (&'static str, &'static str),
    build: fn(&LangInfo) -> Result<Box<dyn Frontend>>,
}

impl LangInfo {
    /// Builds the front-end, resolving the grammar data against the grammar.
    pub fn frontend(&self) -> Result<Box<dyn Frontend>> {
        (self.build)(self)
    }

    /// The formatter `--format` runs (grammar data `format`), with `{name}`
    /// standing for the input's file name; empty when there is none.
    pub fn formatter(&self) -> Result<Vec<String>> {
        Ok(grammar::GrammarData::parse(self.grammar.0, self.grammar.1)?.format)
    }
}

/// The registry. Adding a tree-sitter language is one row here, one grammar
/// crate in `Cargo.toml`, one `grammars/<lang>.toml` and one corpus case
/// under `corpora/<lang>/`, with their README rows (`grammars/README.md`
/// says how; `tests/it/languages.rs` checks that none is missing).
pub static LANGUAGES: &[LangInfo] = &[
    LangInfo {
        name: "c",
        // .i: preprocessed C (gcc -E, and what C-Reduce users hand over)
        extensions: &["c", "h", "i"],
        grammar: ("grammars/c.toml", include_str!("../../grammars/c.toml")),
        build: |info| {
            treesitter::build(info, tree_sitter_c::LANGUAGE.into(), tree_sitter_c::NODE_TYPES)
        },
    },
    LangInfo {
        name: "cpp",
        // `.ii`: C++ after the preprocessor (`g++ -E`); `.h` stays C
        extensions: &["cpp", "cc", "cxx", "hpp", "hh", "hxx", "ii"],
        grammar: ("grammars/cpp.toml", include_str!("../../grammars/cpp.toml")),
        build: |info| {
            treesitter::build(info, tree_sitter_cpp::LANGUAGE.into(), tree_sitter_cpp::NODE_TYPES)
        },
    },
    LangInfo {
        name: "glsl",
        // a shader stage's extensions, as glslangValidator reads them
        extensions: &["glsl", "vert", "frag", "comp", "geom", "tesc", "tese"],
        grammar: ("grammars/glsl.toml", include_str!("../../grammars/glsl.toml")),
        build: |info| {
            treesitter::build(
                info,
                tree_sitter_glsl::LANGUAGE_GLSL.into(),
                tree_sitter_glsl::NODE_TYPES,
            )
        },
    },
    LangInfo {
        name: "go",
        extensions: &["go"],
        grammar: ("grammars/go.toml", include_str!("../../grammars/go.toml")),
        build: |info| {
            treesitter::build(info, tree_sitter_go::LANGUAGE.into(), tree_sitter_go::NODE_TYPES)
        },
    },
    LangInfo {
        name: "java",
        extensions: &["java"],
        grammar: ("grammars/java.toml", include_str!("../../grammars/java.toml")),
        build: |info| {
            treesitter::build(info, tree_sitter_java::LANGUAGE.into(), tree_sitter_java::NODE_TYPES)
        },
    },
    LangInfo {
        name: "js",
        extensions: &["js", "mjs", "cjs", "jsx"],
        grammar: ("grammars/js.toml", include_str!("../../grammars/js.toml")),
        build: |info| {
            treesitter::build(
                info,
                tree_sitter_javascript::LANGUAGE.into(),
                tree_sitter_javascript::NODE_TYPES,
            )
        },
    },
    LangInfo {
        name: "json",
        extensions: &["json"],
        grammar: ("grammars/json.toml", include_str!("../../grammars/json.toml")),
        build: |info| treesitter::build_json(info),
    },
    LangInfo {
        name: "llvm",
        // LLVM IR in its textual form (`llvm-dis`, `clang -S -emit-llvm`)
        extensions: &["ll"],
        grammar: ("grammars/llvm.toml", include_str!("../../grammars/llvm.toml")),
        build: |info| {
            treesitter::build(info, tree_sitter_llvm::LANGUAGE.into(), tree_sitter_llvm::NODE_TYPES)
        },
    },
    LangInfo {
        name: "python",
        // .pyi: type stubs, the same syntax
        extensions: &["py", "pyi"],
        grammar: ("grammars/python.toml", include_str!("../../grammars/python.toml")),
        build: |info| {
            treesitter::build(
                info,
                tree_sitter_python::LANGUAGE.into(),
                tree_sitter_python::NODE_TYPES,
            )
        },
    },
    LangInfo {
        name: "rust",
        extensions: &["rs"],
        grammar: ("grammars/rust.toml", include_str!("../../grammars/rust.toml")),
        build: |info| {
            treesitter::build(info, tree_sitter_rust::LANGUAGE.into(), tree_sitter_rust::NODE_TYPES)
        },
    },
    LangInfo {
        name: "smt2",
        extensions: &["smt2"],
        grammar: ("grammars/smt2.toml", include_str!("../../grammars/smt2.toml")),
        build: sexp::build,
    },
    LangInfo {
        name: "wat",
        // .wast: the spec tests' scripts, modules and assertions in the same syntax
        extensions: &["wat", "wast"],
        grammar: ("grammars/wat.toml", include_str!("../../grammars/wat.toml")),
        build: sexp::build,
    },
    LangInfo {
        name: "sexp",
        // only its own extension: `.lisp`, `.scm`, `.el` and `.clj` are
        // dialects with reader syntax of their own (`#\(`, `?\(`, `[ ]`)
        // that their own tools read better; `--lang sexp` takes them
        extensions: &["sexp"],
        grammar: ("grammars/sexp.toml", include_str!("../../grammars/sexp.toml")),
        build: sexp::build,
    },
    LangInfo {
        name: "solidity",
        extensions: &["sol"],
        grammar: ("grammars/solidity.toml", include_str!("../../grammars/solidity.toml")),
        build: |info| {
            treesitter::build(
                info,
                tree_sitter_solidity::LANGUAGE.into(),
                tree_sitter_solidity::NODE_TYPES,
            )
        },
    },
    LangInfo {
        name: "ts",
        // .mts and .cts: ES and CommonJS modules
        extensions: &["ts", "mts", "cts"],
        grammar: ("grammars/ts.toml", include_str!("../../grammars/ts.toml")),
        build: |info| {
            treesitter::build(
                info,
                tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
                tree_sitter_typescript::TYPESCRIPT_NODE_TYPES,
            )
        },
    },
    LangInfo {
        name: "tsx",
        // TypeScript with JSX: its own grammar (`<T>x` is an element there,
        // not a cast), the same data as `ts`
        extensions: &["tsx"],
        grammar: ("grammars/ts.toml", include_str!("../../grammars/ts.toml")),
        build: |info| {
            treesitter::build(
                info,
                tree_sitter_typescript::LANGUAGE_TSX.into(),
                tree_sitter_typescript::TSX_NODE_TYPES,
            )
        },
    },
    LangInfo {
        name: "xml",
        extensions: &["xml", "svg", "xhtml", "xsl", "xslt", "gir", "plist", "rss", "atom", "xsd"],
        grammar: ("grammars/xml.toml", include_str!("../../grammars/xml.toml")),
        build: xml::build,
    },
    LangInfo {
        name: "text",
        extensions: &["txt"],
        grammar: ("grammars/text.toml", include_str!("../../grammars/text.toml")),
        build: text::build,
    },
];

/// The registry row for a `--lang` name.
pub fn by_name(name: &str) -> Option<&'static LangInfo> {
    LANGUAGES.iter().find(|l| l.name.eq_ignore_ascii_case(name))
}

/// The registry row for a file, by its extension.
pub fn by_path(path: &Path) -> Option<&'static LangInfo> {
    let ext = path.extension()?.to_str()?;
    LANGUAGES.iter().find(|l| l.extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)))
}

/// "c, cpp, js, json, xml, text": for error messages and help.
pub fn names() -> String {
    LANGUAGES.iter().map(|l| l.name).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_builds_from_its_grammar_data() {
        for info in LANGUAGES {
            info.frontend().unwrap_or_else(|e| panic!("{}: {e:#}", info.name));
        }
    }

    #[test]
    fn languages_are_found_by_name_and_extension() {
        assert_eq!(by_name("JSON").map(|l| l.name), Some("json"));
        assert_eq!(by_path(Path::new("a/b.h")).map(|l| l.name), Some("c"));
        assert_eq!(by_path(Path::new("bug.i")).map(|l| l.name), Some("c"));
        assert_eq!(by_path(Path::new("x.mjs")).map(|l| l.name), Some("js"));
        assert!(by_path(Path::new("Makefile")).is_none());
        assert!(by_name("cobol").is_none());
    }

    #[test]
    fn no_extension_belongs_to_two_languages() {
        let mut seen = std::collections::HashSet::new();
        for info in LANGUAGES {
            for e in info.extensions {
                assert!(seen.insert(*e), "extension {e} listed twice");
            }
        }
    }
}
