//! Small end-to-end reductions whose results are known exactly: lists lose
//! elements with their separators, required parts get their minimal forms,
//! wrappers are hoisted away, and the formatting of what stays is kept.
//!
//! Every case is a directory of data, `tests/data/reduce/<name>/`: the input
//! under its own file name, `test.sh`, optional `args` and the `expected`
//! result (format: `tests/data/README.md`). `UPDATE_EXPECT=1` rewrites the
//! `expected` files with what hdd gives now, for a change made on purpose.

use std::fs;
use std::path::{Path, PathBuf};

use crate::{hdd, in_parallel, make_executable, root, run, scratch, stderr};

/// Files of a case directory that are not its input.
const RESERVED: &[&str] = &["test.sh", "args", "expected"];

/// Set to write `expected` files instead of failing on them.
const UPDATE: &str = "UPDATE_EXPECT";

#[test]
fn reduce_cases() {
    let update = std::env::var_os(UPDATE).is_some();
    let data = root().join("tests/data/reduce");
    let mut dirs: Vec<PathBuf> =
        fs::read_dir(&data).expect("tests/data/reduce").map(|e| e.expect("entry").path()).collect();
    dirs.sort();
    let strays: Vec<&PathBuf> = dirs.iter().filter(|p| !p.is_dir()).collect();
    assert!(strays.is_empty(), "not case directories: {strays:?}");
    assert!(!dirs.is_empty(), "no cases in {}", data.display());
    let results = in_parallel(&dirs, 2, |dir| check(dir, update));
    let mut failures = Vec::new();
    for (dir, result) in dirs.iter().zip(results) {
        let name = dir.file_name().expect("name").to_string_lossy();
        match result {
            Ok(Outcome::Same) => {}
            Ok(Outcome::Written) => eprintln!("reduce: wrote {name}/expected"),
            Ok(Outcome::Wrong(why)) => failures.push(format!("{name}: {why}")),
            Err(panic) => failures.push(format!("{name}: panicked: {panic}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} reduce cases went wrong ({UPDATE}=1 rewrites the expected files):\n\n{}",
        failures.len(),
        dirs.len(),
        failures.iter().map(|f| f.trim_end()).collect::<Vec<_>>().join("\n\n")
    );
}

/// What became of one case.
enum Outcome {
    /// The result is the expected one.
    Same,
    /// The result differed or had no `expected`, and was written there.
    Written,
    /// Something went wrong: why.
    Wrong(String),
}

/// Reduces one case and compares its result with `expected`.
fn check(dir: &Path, update: bool) -> Outcome {
    let input = match input_name(dir) {
        Ok(input) => input,
        Err(why) => return Outcome::Wrong(why),
    };
    let args = match fs::read_to_string(dir.join("args")) {
        Ok(args) => args.split_whitespace().map(str::to_string).collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Outcome::Wrong(format!("cannot read args: {e}")),
    };
    let work = scratch();
    let path = work.path().join(&input);
    fs::copy(dir.join(&input), &path).expect("copy the input");
    // a copy, so that a checkout without modes still runs it
    let test = work.path().join("test.sh");
    if let Err(e) = fs::copy(dir.join("test.sh"), &test) {
        return Outcome::Wrong(format!("cannot copy test.sh: {e}"));
    }
    make_executable(&test);
    let result = work.path().join("result");
    let out = run(hdd().arg("-t").arg(&test).arg(&path).arg("-o").arg(&result).args(&args));
    if !out.status.success() {
        return Outcome::Wrong(format!(
            "hdd {} failed ({}): {}",
            args.join(" "),
            out.status,
            stderr(&out)
        ));
    }
    let actual = fs::read(&result).expect("result");
    let expected_path = dir.join("expected");
    let expected = match fs::read(&expected_path) {
        Ok(expected) if expected == actual => return Outcome::Same,
        Ok(expected) => Some(expected),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Outcome::Wrong(format!("cannot read expected: {e}")),
    };
    if update {
        fs::write(&expected_path, &actual).expect("write expected");
        return Outcome::Written;
    }
    match expected {
        Some(expected) => Outcome::Wrong(format!("result differs:\n{}", diff(&expected, &actual))),
        None => Outcome::Wrong(format!("no expected file; the result is:\n{}", diff(b"", &actual))),
    }
}

/// The one file of a case directory that is not reserved.
fn input_name(dir: &Path) -> Result<String, String> {
    let mut inputs = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| format!("cannot list: {e}"))? {
        let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
        if !RESERVED.contains(&name.as_str()) {
            inputs.push(name);
        }
    }
    inputs.sort();
    match <[String; 1]>::try_from(inputs) {
        Ok([input]) => Ok(input),
        Err(inputs) => {
            Err(format!("one input file expected besides {RESERVED:?}, found {inputs:?}"))
        }
    }
}

/// A line diff of `expected` and `actual`: ` ` both, `-` expected only, `+`
/// actual only; a line without a final newline is followed by a
/// `\ no newline at end` line, as in `diff -u`.
fn diff(expected: &[u8], actual: &[u8]) -> String {
    let expected = String::from_utf8_lossy(expected);
    let actual = String::from_utf8_lossy(actual);
    let a: Vec<&str> = expected.split_inclusive('\n').collect();
    let b: Vec<&str> = actual.split_inclusive('\n').collect();
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..]
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] =
                if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let mut out = String::from("--- expected\n+++ actual\n");
    let mut line = |mark: char, text: &str| {
        out.push(mark);
        out.push_str(text);
        if !text.ends_with('\n') {
            out.push_str("\n\\ no newline at end\n");
        }
    };
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            line(' ', a[i]);
            (i, j) = (i + 1, j + 1);
        } else if j == b.len() || (i < a.len() && lcs[i + 1][j] >= lcs[i][j + 1]) {
            line('-', a[i]);
            i += 1;
        } else {
            line('+', b[j]);
            j += 1;
        }
    }
    out
}

#[test]
fn diff_marks_lines_and_missing_newlines() {
    assert_eq!(diff(b"a\nb\nc\n", b"a\nc\n"), "--- expected\n+++ actual\n a\n-b\n c\n");
    assert_eq!(diff(b"x\n", b"x"), "--- expected\n+++ actual\n-x\n+x\n\\ no newline at end\n");
    assert_eq!(diff(b"", b"new\n"), "--- expected\n+++ actual\n+new\n");
}
