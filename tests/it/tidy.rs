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

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use crate::root;

/// The layers, bottom first, with the layers each may use besides itself.
const LAYERS: &[(&str, &[&str])] = &[
    ("os", &[]),
    ("syntax", &[]),
    ("language", &["syntax"]),
    ("reduce", &["syntax"]),
    ("oracle", &["os", "syntax", "language", "reduce"]),
    ("app", &["os", "syntax", "language", "reduce", "oracle"]),
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
    let start = code.find("struct GrammarData {").expect("GrammarData");
    let body = &code[start..start + code[start..].find("\n}").expect("end of struct")];
    let fields: Vec<&str> = body
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            l.strip_prefix("pub(crate) ").or_else(|| l.strip_prefix("pub "))?.split(':').next()
        })
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

/// The module path of a source file (`src/reduce/groups/mod.rs` is
/// `reduce::groups`, `src/syntax/tree.rs` is `syntax::tree`).
fn module_of(file: &Path) -> String {
    let mut parts: Vec<String> = file
        .components()
        .skip(1)
        .map(|c| c.as_os_str().to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts.join("::")
}

/// Code without its `//` comments (doc links name modules they do not use).
fn without_comments(code: &str) -> String {
    code.lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a use tree starting at `s` names (`a::{b, c::d}` is `a::b`
/// and `a::c::d`), each as its segments; reads as far as the tree goes.
fn use_paths(s: &str) -> Vec<Vec<String>> {
    fn tree(s: &[u8], at: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let mut path = prefix.to_vec();
        loop {
            while *at < s.len() && s[*at].is_ascii_whitespace() {
                *at += 1;
            }
            if s.get(*at) == Some(&b'{') {
                *at += 1;
                loop {
                    tree(s, at, &path, out);
                    while *at < s.len() && s[*at].is_ascii_whitespace() {
                        *at += 1;
                    }
                    match s.get(*at) {
                        Some(b',') => *at += 1,
                        Some(b'}') => {
                            *at += 1;
                            return;
                        }
                        _ => return,
                    }
                    while *at < s.len() && s[*at].is_ascii_whitespace() {
                        *at += 1;
                    }
                    if s.get(*at) == Some(&b'}') {
                        *at += 1;
                        return;
                    }
                }
            }
            let start = *at;
            while *at < s.len() && (s[*at].is_ascii_alphanumeric() || s[*at] == b'_') {
                *at += 1;
            }
            if *at == start {
                break;
            }
            path.push(String::from_utf8_lossy(&s[start..*at]).into_owned());
            if s[*at..].starts_with(b"::") {
                *at += 2;
            } else {
                break;
            }
        }
        if path.len() > prefix.len() {
            out.push(path);
        }
    }
    let mut out = Vec::new();
    tree(s.as_bytes(), &mut 0, &[], &mut out);
    out
}

/// The modules of the crate a file's non-test code refers to, by
/// `crate::`, `super::` and (in a `mod.rs`) `self::` paths, resolved to
/// the deepest module that exists.
fn module_refs(file: &Path, code: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let me: Vec<String> = module_of(file).split("::").map(str::to_string).collect();
    let mut out = BTreeSet::new();
    let code = without_comments(code);
    for (prefix, base) in
        [("crate::", &me[..0]), ("super::", &me[..me.len() - 1]), ("self::", &me[..])]
    {
        for (i, _) in code.match_indices(prefix) {
            let before = code[..i].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            for path in use_paths(&code[i + prefix.len()..]) {
                let full: Vec<String> = base.iter().cloned().chain(path).collect();
                let deepest = (1..=full.len())
                    .rev()
                    .map(|n| full[..n].join("::"))
                    .find(|m| modules.contains(m));
                if let Some(m) = deepest {
                    out.insert(m);
                }
            }
        }
    }
    out
}

#[test]
fn no_module_cycle_inside_a_layer() {
    let files: Vec<PathBuf> = sources()
        .into_iter()
        .filter(|f| !f.ends_with("main.rs") && !f.ends_with("lib.rs"))
        .collect();
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(f)).collect();
    let mut test_files = BTreeSet::new();
    for file in &files {
        let text = fs::read_to_string(root().join(file)).expect("read");
        let dir = file.parent().expect("dir");
        for m in test_only_modules(&text) {
            test_files.insert(dir.join(format!("{m}.rs")));
            test_files.insert(dir.join(m).join("mod.rs"));
        }
    }
    // edges between modules of one layer, neither inside the other (a
    // parent re-exports its children, and children use its items)
    let nested =
        |a: &str, b: &str| a.starts_with(&format!("{b}::")) || b.starts_with(&format!("{a}::"));
    let layer = |m: &str| m.split("::").next().unwrap_or("").to_string();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files.iter().filter(|f| !test_files.contains(*f)) {
        let me = module_of(file);
        let text = fs::read_to_string(root().join(file)).expect("read");
        for used in module_refs(file, non_test_code(&text), &modules) {
            if used != me && layer(&used) == layer(&me) && !nested(&used, &me) {
                edges.entry(me.clone()).or_default().insert(used);
            }
        }
    }
    // a cycle: a module that reaches itself
    let mut cycles = Vec::new();
    for start in edges.keys() {
        let mut path = vec![start.clone()];
        let mut seen = BTreeSet::new();
        if reaches(&edges, start, start, &mut path, &mut seen) {
            cycles.push(path.join(" -> "));
        }
    }
    assert!(cycles.is_empty(), "module cycles inside a layer:\n{}", cycles.join("\n"));
}

/// Whether `from` reaches `to` along `edges`; `path` ends with the way.
fn reaches(
    edges: &BTreeMap<String, BTreeSet<String>>,
    from: &str,
    to: &str,
    path: &mut Vec<String>,
    seen: &mut BTreeSet<String>,
) -> bool {
    for next in edges.get(from).into_iter().flatten() {
        if next == to {
            path.push(next.clone());
            return true;
        }
        if seen.insert(next.clone()) {
            path.push(next.clone());
            if reaches(edges, next, to, path, seen) {
                return true;
            }
            path.pop();
        }
    }
    false
}

#[test]
fn the_module_graph_reader_finds_uses_through_groups_and_parents() {
    let modules: BTreeSet<String> =
        ["reduce", "reduce::hoist", "reduce::batch", "reduce::groups", "reduce::groups::names"]
            .into_iter()
            .map(str::to_string)
            .collect();
    let code = "use super::{hoist::Hoist, Proposal};\nuse crate::reduce::groups::{names::resolve, Group};\n// super::batch is only named here\nfn f() { super::groups::names::x(); }";
    let refs = module_refs(Path::new("src/reduce/units.rs"), code, &modules);
    let want = ["reduce", "reduce::groups", "reduce::groups::names", "reduce::hoist"];
    assert_eq!(refs.into_iter().collect::<Vec<_>>(), want);
}

#[test]
fn code_map_rows_are_a_sentence_or_two() {
    let arch = fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let start = arch.find("## Code map").expect("a code map section");
    let long: Vec<String> = arch[start..]
        .lines()
        .take_while(|l| !l.starts_with("## ") || l.starts_with("## Code map"))
        .filter(|l| l.starts_with("| `"))
        .filter_map(|row| {
            let owns = row.split('|').nth(2)?;
            let words = owns.split_whitespace().count();
            (words > 40).then(|| format!("{words} words: {}", &row[..row.len().min(80)]))
        })
        .collect();
    assert!(long.is_empty(), "code map rows over 40 words:\n{}", long.join("\n"));
}

#[test]
fn no_comment_under_src_cites_a_corpus_case_or_a_test_count() {
    // the corpus cases' names, and the benchmark cases' short names
    let mut names = Vec::new();
    for lang in fs::read_dir(root().join("corpora")).expect("corpora") {
        let lang = lang.expect("entry").path();
        if !lang.is_dir() {
            continue;
        }
        for case in fs::read_dir(&lang).expect("lang") {
            let case = case.expect("entry").path();
            if case.join("case.env").is_file() {
                names.push(case.file_name().expect("name").to_string_lossy().into_owned());
            }
        }
    }
    assert!(names.len() >= 10, "corpus cases not found: {names:?}");
    let scale = fs::read_to_string(root().join("bench/bench-scale.sh")).expect("bench-scale.sh");
    for line in scale.lines() {
        // the script's cases: `  c-names)` and the like
        let case = line.trim().trim_end_matches(')');
        if line.trim().ends_with(')') && !case.contains(' ') && case.contains('-') {
            names.push(case.to_string());
        }
    }
    let count = |comment: &str| {
        let words: Vec<&str> = comment.split_whitespace().collect();
        words.windows(2).any(|w| {
            w[0].trim_start_matches('(').chars().all(|c| c.is_ascii_digit() || c == ',')
                && !w[0].trim_start_matches('(').is_empty()
                && w[1].trim_end_matches(|c: char| !c.is_alphabetic()) == "tests"
        })
    };
    let mut found = Vec::new();
    for file in sources() {
        let text = fs::read_to_string(root().join(&file)).expect("read");
        for (n, line) in text.lines().enumerate() {
            let Some(i) = line.find("//") else { continue };
            let comment = &line[i..];
            let at = || format!("{}:{}: {}", file.display(), n + 1, comment.trim());
            if let Some(name) = names.iter().find(|name| comment.contains(name.as_str())) {
                found.push(format!("{} (case {name})", at()));
            } else if count(comment) {
                found.push(format!("{} (a test count)", at()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "comments that cite a corpus case or a run's test count (measured claims go to \
         BENCHMARKS.md):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_script_of_the_repository_reaches_outside_it() {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).expect("read_dir") {
            let path = entry.expect("entry").path();
            let name = path.file_name().expect("name").to_string_lossy().into_owned();
            if path.is_dir() {
                if !matches!(name.as_str(), ".git" | "target" | "node_modules") {
                    walk(&path, out);
                }
            } else if name.ends_with(".sh") || name.ends_with(".py") || name == "run" {
                out.push(path);
            }
        }
    }
    let mut scripts = Vec::new();
    walk(&root(), &mut scripts);
    assert!(scripts.len() > 20, "scripts not found: {}", scripts.len());
    let outside: Vec<String> = scripts
        .iter()
        .filter(|p| fs::read_to_string(p).is_ok_and(|t| t.contains("../shared")))
        .map(|p| p.strip_prefix(root()).unwrap_or(p).display().to_string())
        .collect();
    assert!(outside.is_empty(), "scripts that use ../shared: {outside:?}");
}
