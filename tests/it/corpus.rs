//! The real corpus cases, reduced by the real binary with their real
//! oracles: every result must still be interesting (checked again here, by
//! the oracle itself), no bigger than its case's `max_bytes`, pass its
//! case's `result=` checks, and be still shaped like its language (no new
//! syntax errors, in each file of a directory input); and hdd run again on
//! the result changes nothing. The cases are
//! whatever `corpora/*/*/case.env` describes; `corpora/README.md` documents
//! the keys.

use std::fs;
use std::path::{Path, PathBuf};

use crate::{
    copy_dir, files_under, hdd, in_parallel, parse, root, run, scratch, stderr, Case, ResultCheck,
};

/// Set to run the `ci=skip` cases too.
const RUN_ALL: &str = "HDD_CORPUS_ALL";

#[test]
fn every_corpus_case_reduces_to_a_small_interesting_result() {
    let run_all = std::env::var_os(RUN_ALL).is_some();
    let (cases, skipped): (Vec<Case>, Vec<Case>) =
        Case::all().into_iter().partition(|c| c.skip.is_none() || run_all);
    for case in &skipped {
        let why = case.skip.as_deref().unwrap_or_default();
        eprintln!("corpus: skipped {} (ci=skip: {why}); {RUN_ALL}=1 runs it", case.name);
    }
    assert!(!cases.is_empty(), "every corpus case is skipped");
    // each hdd runs two tests at once (-j 2): two cases at a time
    let results = in_parallel(&cases, 2, check);
    let mut failures = Vec::new();
    let mut failed = 0;
    for (case, result) in cases.iter().zip(results) {
        let problems = result.unwrap_or_else(|panic| vec![format!("panicked: {panic}")]);
        failed += usize::from(!problems.is_empty());
        failures.extend(problems.into_iter().map(|p| format!("{}: {p}", case.name)));
    }
    assert!(
        failures.is_empty(),
        "{failed} of {} corpus cases went wrong:\n\n{}",
        cases.len(),
        failures.join("\n\n")
    );
}

/// Reduces a corpus case and checks the result; returns what is wrong.
fn check(case: &Case) -> Vec<String> {
    let work = scratch();
    let path = work.path().join(&case.input);
    if case.is_dir() {
        copy_dir(&case.input_path(), &path);
    } else {
        fs::copy(case.input_path(), &path).expect("copy");
    }
    let original = contents(&path);
    let mut cmd = hdd();
    cmd.arg("-t").arg(case.test()).arg(&path).args(["-j", "2", "-q"]);
    if !case.is_dir() {
        cmd.args(["--lang", &case.lang]);
    }
    let out = run(&mut cmd);
    if !out.status.success() {
        return vec![format!("hdd failed ({}): {}", out.status, stderr(&out))];
    }
    let mut problems = Vec::new();
    if contents(&path) != original {
        problems.push("the input changed".to_string());
    }
    let result_path = work.path().join(reduced_name(&case.input, case.is_dir()));
    if !result_path.exists() {
        problems.push("no result".to_string());
        return problems;
    }
    let result = contents(&result_path);
    let bytes: usize = result.iter().map(|(_, b)| b.len()).sum();
    let shown: String = result
        .iter()
        .map(|(name, b)| format!("--- {}\n{}", name.display(), String::from_utf8_lossy(b)))
        .collect();
    if bytes > case.max_bytes {
        problems.push(format!("{bytes} bytes, more than {}:\n{shown}", case.max_bytes));
    }
    let interesting = if case.is_dir() {
        case.interesting_dir(&result_path)
    } else {
        case.interesting(&result[0].1)
    };
    if !interesting {
        problems.push(format!("the result is not interesting:\n{shown}"));
    }
    for (name, before) in &original {
        let Some((_, after)) = result.iter().find(|(n, _)| n == name) else { continue };
        let lang = if case.is_dir() {
            hdd::language::by_path(name).map_or("text", |l| l.name)
        } else {
            &case.lang
        };
        let (before, after) = (parse(lang, before).error_count(), parse(lang, after).error_count());
        if after > before {
            problems
                .push(format!("{}: {after} syntax errors, the input had {before}", name.display()));
        }
    }
    for check in &case.result {
        if !result.iter().all(|(_, b)| check.holds(b)) {
            problems.push(format!("result={} does not hold:\n{shown}", check.word()));
        }
    }
    if problems.is_empty() {
        problems.extend(second_run(case, &result_path, &result, &shown));
    }
    problems
}

/// hdd run again on its own result: a run ends at a fixpoint, so the
/// second changes nothing.
fn second_run(
    case: &Case,
    first: &Path,
    result: &[(PathBuf, Vec<u8>)],
    shown: &str,
) -> Option<String> {
    let again = first.with_file_name("again");
    let mut cmd = hdd();
    cmd.arg("-t").arg(case.test()).arg(first).arg("-o").arg(&again).args(["-j", "2", "-q"]);
    if !case.is_dir() {
        cmd.args(["--lang", &case.lang]);
    }
    let out = run(&mut cmd);
    if !out.status.success() {
        return Some(format!("hdd on its result failed ({}): {}", out.status, stderr(&out)));
    }
    let second = contents(&again);
    // (a file's result is compared by its bytes alone: its name differs)
    let sorted = |files: &[(PathBuf, Vec<u8>)]| {
        let mut files = files.to_vec();
        if !case.is_dir() {
            files.iter_mut().for_each(|(name, _)| *name = PathBuf::new());
        }
        files.sort();
        files
    };
    let same = sorted(&second) == sorted(result);
    (!same).then(|| {
        let shown_again: String = second
            .iter()
            .map(|(name, b)| format!("--- {}\n{}", name.display(), String::from_utf8_lossy(b)))
            .collect();
        format!("hdd on its result changed it:\n{shown}\nbecame\n{shown_again}")
    })
}

/// A file's bytes under its name, or every file of a directory under its
/// path relative to the directory.
fn contents(path: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    if !path.is_dir() {
        let name = PathBuf::from(path.file_name().expect("a file name"));
        return vec![(name, fs::read(path).expect("read"))];
    }
    files_under(path)
        .into_iter()
        .map(|f| (f.strip_prefix(path).expect("under").to_path_buf(), fs::read(&f).expect("read")))
        .collect()
}

/// Where hdd writes the result when not told: `a.reduced.c` for `a.c`,
/// `d.reduced/` for a directory `d`.
fn reduced_name(input: &str, dir: bool) -> String {
    let p = Path::new(input);
    match (p.file_stem(), p.extension()) {
        _ if dir => format!("{input}.reduced"),
        (Some(s), Some(e)) => format!("{}.reduced.{}", s.to_string_lossy(), e.to_string_lossy()),
        _ => format!("{input}.reduced"),
    }
}

#[test]
fn the_corpus_readme_lists_every_case() {
    // the table's first column names the case: | `c/bzip2-conversion` | ...
    let readme = fs::read_to_string(root().join("corpora/README.md")).expect("README");
    let mut listed: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.strip_prefix("| `")?.split_once('`'))
        .map(|(name, _)| name)
        .filter(|name| name.contains('/'))
        .collect();
    assert!(!listed.is_empty(), "no case table in corpora/README.md");
    listed.sort();
    let found: Vec<String> = Case::all().into_iter().map(|c| c.name).collect();
    assert_eq!(listed, found, "corpora/README.md's table and corpora/*/*/case.env differ");
}

#[test]
fn case_env_says_what_a_case_is_and_nothing_else() {
    let parse = |text: &str| Case::parse("json/x", Path::new("corpora/json/x"), text);
    let case = parse(
        "input=db.json\nmax_bytes=8\n\nresult=invalid-json ends-with-quote\n# slow\n# very\nci=skip\n",
    )
    .expect("a good case.env");
    assert_eq!((case.lang.as_str(), case.input.as_str(), case.max_bytes), ("json", "db.json", 8));
    assert_eq!(case.result, [ResultCheck::InvalidJson, ResultCheck::EndsWithQuote]);
    assert_eq!(case.skip.as_deref(), Some("slow very"));
    let case = parse("# a comment\ninput=a.json\nmax_bytes=40\nci=run\n").expect("ci=run");
    assert!(case.result.is_empty() && case.skip.is_none());

    let wrong = [
        ("input=a.json\n", "no max_bytes="),
        ("max_bytes=3\n", "no input="),
        ("input=a.json\nmax_bytes=lots\n", "max_bytes=lots"),
        ("input=a.json\nmax_bytes=3\nmax_bytes=4\n", "given twice"),
        ("input=a.json\nmax_bytes=3\nsize=3\n", "unknown key \"size\""),
        ("input=a.json\nmax_bytes=3\nresult=valid-jsn\n", "unknown check \"valid-jsn\""),
        ("input=a.json\nmax_bytes=3\nci=skip\n", "needs its reason"),
        ("input=a.json\nmax_bytes=3\n# slow\n\nci=skip\n", "needs its reason"),
        ("input=a.json\nmax_bytes=3\nci=never\n", "not run or skip"),
        ("input=a.json \nmax_bytes=3\n", "blanks around the value"),
        ("input a.json\nmax_bytes=3\n", "not key=value"),
    ];
    for (text, error) in wrong {
        match parse(text) {
            Ok(case) => panic!("{text:?} was read as {case:?}"),
            Err(e) => assert!(e.contains(error), "{text:?}: {e:?}, expected {error:?}"),
        }
    }
}
