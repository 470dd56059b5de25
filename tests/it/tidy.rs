//! Tidy checks: the rules of the codebase that no compiler enforces.
//!
//! - No module imports from a layer above its own (ARCHITECTURE.md,
//!   "Layers"); test code (`#[cfg(test)]`) may use any layer.
//! - (The registry's rows are checked in `languages.rs`.)
//! - Every field of the grammar data format is documented in
//!   `grammars/README.md`.
//! - No source file or benchmark script cites a file outside the repository.
//! - ARCHITECTURE.md's code map names every source file, and only files
//!   that exist.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::root;

/// The layers, bottom first, with the layers each may use besides itself.
const LAYERS: &[(&str, &[&str])] = &[
    ("syntax", &[]),
    ("language", &["syntax"]),
    ("reduce", &["syntax"]),
    ("oracle", &["syntax", "language", "reduce"]),
    ("app", &["syntax", "language", "reduce", "oracle"]),
];

/// Every `.rs` file under `src/`, relative to the repository root.
fn sources() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).expect("read_dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join("src"), &mut out);
    out.sort();
    out.into_iter().map(|p| p.strip_prefix(root()).expect("in root").to_path_buf()).collect()
}

/// The modules a file declares only for tests (`#[cfg(test)] mod x;`).
fn test_only_modules(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[0].trim() == "#[cfg(test)]")
        .filter_map(|w| {
            let decl = w[1].trim().trim_start_matches("pub(crate) ");
            decl.strip_prefix("mod ")?.strip_suffix(';').map(str::to_string)
        })
        .collect()
}

/// The text of a file that is not test code: up to its `mod tests`.
fn non_test_code(text: &str) -> &str {
    match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    }
}

/// The top-level modules of the crate a piece of code names (`crate::x`).
fn crate_modules(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for item in group.split(',') {
                let name = item.trim().split("::").next().unwrap_or("");
                if !name.is_empty() {
                    out.insert(name.to_string());
                }
            }
        } else {
            let name: String =
                rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            out.insert(name);
        }
    }
    out
}

#[test]
fn no_module_imports_from_a_layer_above_its_own() {
    let files = sources();
    // files that are test code as a whole
    let mut test_files = BTreeSet::new();
    for file in &files {
        let text = fs::read_to_string(root().join(file)).expect("read");
        let dir = file.parent().expect("dir");
        for m in test_only_modules(&text) {
            test_files.insert(dir.join(format!("{m}.rs")));
        }
    }
    let mut wrong = Vec::new();
    for file in &files {
        let mut parts = file.components().skip(1);
        let top = parts.next().expect("under src").as_os_str().to_string_lossy().into_owned();
        let top = top.trim_end_matches(".rs");
        if test_files.contains(file) || top == "lib" || top == "main" {
            continue;
        }
        let Some((layer, allowed)) = LAYERS.iter().find(|(l, _)| *l == top) else {
            wrong.push(format!("{}: not in any layer", file.display()));
            continue;
        };
        let text = fs::read_to_string(root().join(file)).expect("read");
        for used in crate_modules(non_test_code(&text)) {
            if used != *layer && !allowed.contains(&used.as_str()) {
                wrong.push(format!("{} ({layer}) uses crate::{used}", file.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "layering broken:\n{}", wrong.join("\n"));
}

#[test]
fn every_grammar_data_field_is_documented() {
    let code = fs::read_to_string(root().join("src/language/grammar.rs")).expect("grammar.rs");
    let doc = fs::read_to_string(root().join("grammars/README.md")).expect("grammars/README.md");
    let start = code.find("pub struct GrammarData {").expect("GrammarData");
    let body = &code[start..start + code[start..].find("\n}").expect("end of struct")];
    let fields: Vec<&str> = body
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub ")?.split(':').next())
        .filter(|f| !f.starts_with("struct"))
        .collect();
    assert!(fields.len() >= 8, "fields not found: {fields:?}");
    let undocumented: Vec<&&str> = fields
        .iter()
        .filter(|f| !doc.contains(&format!("`{f}")) && !doc.contains(&format!("[{f}]")))
        .collect();
    assert!(undocumented.is_empty(), "not in grammars/README.md: {undocumented:?}");
}

#[test]
fn no_source_file_cites_a_file_outside_the_repository() {
    let mut files = sources();
    for dir in ["bench", "grammars", "tests/it", "tests/data"] {
        for entry in fs::read_dir(root().join(dir)).expect("dir") {
            let path = entry.expect("entry").path();
            if path.is_file() && path.file_name().is_some_and(|n| n != "tidy.rs") {
                files.push(path.strip_prefix(root()).expect("in root").to_path_buf());
            }
        }
    }
    let outside = ["../shared", "shared/seeds", "seed 00", "seeds/00"];
    let mut found = Vec::new();
    for file in files {
        let Ok(text) = fs::read_to_string(root().join(&file)) else { continue };
        for needle in outside {
            if text.contains(needle) {
                found.push(format!("{}: {needle:?}", file.display()));
            }
        }
    }
    assert!(found.is_empty(), "citations of files outside the repository:\n{}", found.join("\n"));
}

#[test]
fn the_code_map_names_every_source_file_and_only_those() {
    let arch = fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let start = arch.find("## Code map").expect("a code map section");
    let map =
        &arch[start..start + arch[start + 1..].find("\n## ").map_or(arch.len() - start, |i| i + 1)];
    let named: BTreeSet<String> = map
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| s.starts_with("src/") && s.ends_with(".rs"))
        .map(str::to_string)
        .collect();
    let actual: BTreeSet<String> =
        sources().iter().map(|p| p.to_string_lossy().replace('\\', "/")).collect();
    let stale: Vec<&String> = named.difference(&actual).collect();
    let unnamed: Vec<&String> = actual.difference(&named).collect();
    assert!(stale.is_empty(), "ARCHITECTURE.md names files that do not exist: {stale:?}");
    assert!(unnamed.is_empty(), "ARCHITECTURE.md's code map misses: {unnamed:?}");
}
