//! A language is data: every row of the registry (`LANGUAGES` in
//! `src/language/mod.rs`) has its grammar data file, a corpus case and a
//! row in the README's languages table, and that table says what the
//! registry says. Adding a language and forgetting one of these fails here;
//! `grammars/README.md` lists the steps.

use std::collections::BTreeMap;
use std::fs;

use hdd::language::LANGUAGES;

use crate::{root, Case};

/// Languages without a corpus case, each with the reason.
const NO_CORPUS_CASE: &[(&str, &str)] = &[
    (
        "sexp",
        "the generic S-expression row has no tool of its own to check; its reader is \
         the one the smt2 and wat cases run through, and it reduces end to end in \
         tests/data/reduce/sexp-a-query-pattern-keeps-its-capture",
    ),
    (
        "text",
        "plain text is the fallback for files no other row claims and has no grammar \
         whose data real inputs could check; it runs on every malformed corpus input \
         (the token pass) and end to end in tests/data/reduce/plain-text-goes-by-lines-then-words",
    ),
    (
        "tsx",
        "TypeScript with JSX is a dialect of ts with the same data (SHARED_DATA), \
         whose case corpora/ts/ checks it; its own grammar's kinds are resolved against \
         that data when the row is built, and a TSX file round-trips in tests/it/roundtrip.rs",
    ),
];

/// Rows that read another row's grammar data file, each with that row: a
/// dialect whose grammar crate has a second grammar of the same kinds.
const SHARED_DATA: &[(&str, &str)] = &[("tsx", "ts")];

/// The README's languages table: `--lang` name to (extensions, parser).
fn readme_languages() -> BTreeMap<String, (Vec<String>, String)> {
    let readme = fs::read_to_string(root().join("README.md")).expect("README.md");
    let section = readme.split("\n## Languages\n").nth(1).expect("a ## Languages section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut rows = BTreeMap::new();
    // after the header and the rule under it, one row per language
    for line in section.lines().filter(|l| l.starts_with('|')).skip(2) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let [_, name, extensions, parser] = cells[..] else {
            panic!("README.md: a languages row without 4 cells: {line}")
        };
        let name = name.strip_prefix('`').and_then(|n| n.strip_suffix('`'));
        let name = name.unwrap_or_else(|| panic!("README.md: no `name` in {line}"));
        // the extensions are the backticked `.ext` words of the cell
        let extensions = extensions
            .split('`')
            .skip(1)
            .step_by(2)
            .filter_map(|e| e.strip_prefix('.'))
            .map(str::to_string)
            .collect();
        let old = rows.insert(name.to_string(), (extensions, parser.to_string()));
        assert!(old.is_none(), "README.md: two rows for {name}");
    }
    rows
}

#[test]
fn the_readme_languages_table_says_what_the_registry_says() {
    let mut table = readme_languages();
    let cargo = fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    for info in LANGUAGES {
        let (extensions, parser) = table
            .remove(info.name)
            .unwrap_or_else(|| panic!("README.md: no row for {}", info.name));
        let registry: Vec<&str> = info.extensions.to_vec();
        assert_eq!(extensions, registry, "README.md: the extensions of {}", info.name);
        if parser.starts_with("tree-sitter-") {
            assert!(
                cargo.contains(&format!("\n{parser} = ")),
                "README.md says {} is parsed by {parser}, which is not in Cargo.toml",
                info.name
            );
        }
    }
    assert!(table.is_empty(), "README.md lists languages the registry has not: {table:?}");
}

#[test]
fn every_language_has_its_grammar_data_and_a_corpus_case() {
    let cases = Case::all();
    for info in LANGUAGES {
        let owner = SHARED_DATA.iter().find(|(n, _)| *n == info.name).map_or(info.name, |r| r.1);
        let expected = format!("grammars/{owner}.toml");
        assert_eq!(info.grammar.0, expected, "{}: grammar data file name", info.name);
        let on_disk = fs::read_to_string(root().join(&expected))
            .unwrap_or_else(|e| panic!("{}: cannot read {expected}: {e}", info.name));
        assert_eq!(
            on_disk, info.grammar.1,
            "{}: {expected} is not the data compiled in",
            info.name
        );
        let has_case = cases.iter().any(|c| c.lang == info.name);
        match NO_CORPUS_CASE.iter().find(|(n, _)| *n == info.name) {
            Some((_, why)) => {
                assert!(!has_case, "{}: has a corpus case now; drop its exemption", info.name);
                assert!(!why.is_empty());
            }
            None => assert!(has_case, "{}: no corpus case under corpora/{}/", info.name, info.name),
        }
    }
    // and every corpus directory is a language (or holds directory inputs)
    for case in &cases {
        assert!(
            case.is_dir() || hdd::language::by_name(&case.lang).is_some(),
            "{}: corpora/{}/ is not a language of the registry",
            case.name,
            case.lang
        );
    }
}
