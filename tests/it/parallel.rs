//! `-j1` and `-j4` give byte-identical results: speculation only changes how
//! many tests run, never which candidate wins. Also when speculation moves
//! to the other branch while a test runs (a test that fails fast and passes
//! slowly), with `--batch` (the same result for every `-j`, and on C at
//! most twice the tests of the default mode; without it, rounds as wide as
//! `-j`'s band), and when the next pass's
//! candidates are tested ahead while a pass ends.

use std::fs;
use std::path::Path;

use crate::{hdd, run, scratch, script, stderr, Case};

/// Reduces a corpus case with `jobs` and returns the result and the tests run.
fn reduce_case(case: &Case, jobs: &str) -> (Vec<u8>, u64) {
    reduce_case_with(case, jobs, &[])
}

/// [`reduce_case`] with `extra` arguments.
fn reduce_case_with(case: &Case, jobs: &str, extra: &[&str]) -> (Vec<u8>, u64) {
    let (result, stats) = reduce_with_test(case, &case.test(), jobs, extra);
    (result, stats["tests"].as_u64().expect("tests"))
}

/// Reduces a corpus case with `test` as its oracle; the result and the
/// run's `--stats-json`.
fn reduce_with_test(
    case: &Case,
    test: &Path,
    jobs: &str,
    extra: &[&str],
) -> (Vec<u8>, serde_json::Value) {
    let work = scratch();
    let path = work.path().join(&case.input);
    fs::copy(case.input_path(), &path).expect("copy");
    let stats = work.path().join("stats.json");
    let out = run(hdd()
        .arg("-t")
        .arg(test)
        .arg(&path)
        .arg("-o")
        .arg(work.path().join("out"))
        .args(extra)
        .args(["-j", jobs, "-q", "--stats-json"])
        .arg(&stats));
    assert!(out.status.success(), "{} -j{jobs}: {}", case.name, stderr(&out));
    let stats = serde_json::from_str(&fs::read_to_string(&stats).expect("stats")).expect("json");
    (fs::read(work.path().join("out")).expect("result"), stats)
}

fn same_result(name: &str) {
    let case = Case::load(name);
    let (one, _) = reduce_case(&case, "1");
    let (four, _) = reduce_case(&case, "4");
    assert!(
        one == four,
        "{name}: -j1 gave {:?}, -j4 gave {:?}",
        String::from_utf8_lossy(&one),
        String::from_utf8_lossy(&four)
    );
}

#[test]
fn json_results_do_not_depend_on_jobs() {
    same_result("json/twitter-bigint-precision");
}

#[test]
fn xml_results_do_not_depend_on_jobs() {
    same_result("xml/svg-htop-gradient-href");
}

#[test]
fn c_results_do_not_depend_on_jobs() {
    same_result("c/bzip2-conversion");
}

/// Batches of blocks and of hoists, and their folds when a merge fails,
/// on XML and on C (whose hoists are many).
#[test]
fn batches_give_the_same_result_for_every_jobs() {
    for name in ["xml/svg-htop-gradient-href", "c/bzip2-conversion"] {
        let case = Case::load(name);
        let (one, _) = reduce_case_with(&case, "1", &["--batch", "4"]);
        let (eight, _) = reduce_case_with(&case, "8", &["--batch", "4"]);
        assert!(
            one == eight,
            "{name} --batch 4: -j1 gave {:?}, -j8 gave {:?}",
            String::from_utf8_lossy(&one),
            String::from_utf8_lossy(&eight)
        );
        assert!(one.len() <= case.max_bytes, "{name} --batch 4 left {} bytes", one.len());
    }
}

/// Without `--batch`, the width of the rounds follows `-j` in bands: one
/// change at a time below 8 workers, rounds of 16 from 8 and of 64 from
/// 16, so a result is that of `-j 1` with the band's `--batch`; and
/// `--batch 0` keeps many workers to one change at a time.
#[test]
fn many_workers_alone_test_in_rounds_of_their_band() {
    let case = Case::load("xml/svg-htop-gradient-href");
    let (eight, _) = reduce_case(&case, "8");
    let (sixteen, _) = reduce_case_with(&case, "1", &["--batch", "16"]);
    assert!(
        eight == sixteen,
        "-j8 gave {:?}, -j1 --batch 16 gave {:?}",
        String::from_utf8_lossy(&eight),
        String::from_utf8_lossy(&sixteen)
    );
    let (wide, _) = reduce_case(&case, "16");
    let (sixty_four, _) = reduce_case_with(&case, "1", &["--batch", "64"]);
    assert!(wide == sixty_four, "-j16 and -j1 --batch 64 differ");
    let (one, _) = reduce_case(&case, "1");
    let (unbatched, _) = reduce_case_with(&case, "8", &["--batch", "0"]);
    assert!(one == unbatched, "-j8 --batch 0 and -j1 differ");
    // the bands differ somewhere, or the test could not tell them apart
    assert!(one != sixteen || sixteen != sixty_four, "every band gave the same result");
}

/// `--batch` on C whose declarations are used further down the file, with
/// gcc as the test: a block of them that fails alone goes with the code
/// that uses it, so the rounds cost at most twice the tests of the default
/// mode (545 against 111 before they did).
#[test]
fn batches_on_c_cost_at_most_twice_the_tests_of_the_default() {
    let case = Case::load("c/pyrsistent-redundant-decls");
    let (_, default) = reduce_case(&case, "1");
    let (batched, tests) = reduce_case_with(&case, "1", &["--batch", "16"]);
    assert!(tests <= 2 * default, "--batch 16 took {tests} tests, the default {default}");
    assert!(batched.len() <= case.max_bytes, "--batch 16 left {} bytes", batched.len());
}

/// With workers to spare at the end of a pass, the texts the next passes
/// will test are tested ahead, on the pass's assumed outcome: later passes
/// take those tests' outcomes, and the result is still that of `-j1`.
#[test]
fn tests_ahead_of_a_pass_are_used_and_change_nothing() {
    let case = Case::load("c/bzip2-conversion");
    let work = scratch();
    // the case's own test after a pause, so that passes end while tests run
    let body = format!("sleep 0.1\nexec '{}' \"$@\"", case.test().display());
    let slow = script(&work.path().join("slow.sh"), &body);
    let (one, _) = reduce_with_test(&case, &case.test(), "1", &[]);
    let (eight, stats) = reduce_with_test(&case, &slow, "8", &["--batch", "0"]);
    assert!(
        one == eight,
        "-j1 gave {:?}, -j8 gave {:?}",
        String::from_utf8_lossy(&one),
        String::from_utf8_lossy(&eight)
    );
    let used = stats["ahead_used"].as_u64().expect("ahead_used");
    assert!(used > 0, "no test ahead was used: {stats}");
    assert!(used <= stats["ahead"].as_u64().expect("ahead"));
    // the final re-check too ran ahead, on the text foreseen as the result
    assert_eq!(stats["recheck_ahead"], true, "{stats}");
}

#[test]
fn guessing_a_slow_test_will_pass_does_not_change_the_result() {
    // a JSON array where two elements in three are needed; the test rejects
    // a candidate at once and accepts one after a pause, as a script that
    // compiles first and runs a slow check only then does
    let elements: Vec<String> = (0..24)
        .map(|i| if i % 3 == 0 { format!("{{\"d\": {i}}}") } else { format!("{{\"k\": {i}}}") })
        .collect();
    let input = format!("[{}]\n", elements.join(", "));
    let reduce = |jobs: &str| {
        let work = scratch();
        let path = work.path().join("a.json");
        fs::write(&path, &input).expect("input");
        let test = script(
            &work.path().join("t.sh"),
            "[ \"$(grep -o '\"k\"' \"$1\" | wc -l)\" -eq 16 ] || exit 1\nsleep 0.3\n",
        );
        let stats = work.path().join("stats.json");
        let out = run(hdd()
            .arg("-t")
            .arg(&test)
            .arg(&path)
            .args(["-o", "out.json", "-j", jobs, "-q", "--stats-json"])
            .arg(&stats)
            .current_dir(work.path()));
        assert!(out.status.success(), "-j{jobs}: {}", stderr(&out));
        let stats: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&stats).expect("stats")).expect("json");
        let result = fs::read_to_string(work.path().join("out.json")).expect("result");
        (result, stats["guessed_again"].as_u64().expect("guessed_again"))
    };
    let (one, _) = reduce("1");
    let (two, guessed_again) = reduce("2");
    assert_eq!(one, two);
    assert!(one.matches("\"k\"").count() == 16 && !one.contains("\"d\""), "{one}");
    // most removals fail, so removals are guessed to fail; the ones that pass
    // outlast every failure and are guessed again while they run
    assert!(guessed_again > 0, "no test was guessed to pass while it ran");
}

#[test]
fn a_text_is_never_tested_twice_at_once() {
    // twelve identical lines: a batch's blocks of three of them give the
    // same text, probed at once; the second waits for the first's test
    // rather than run it too. The test marks its text as running with a
    // directory only one process can make.
    let input = format!("{}keep\n", "x\n".repeat(12));
    let reduce = |jobs: &str| {
        let work = scratch();
        let path = work.path().join("a.txt");
        fs::write(&path, &input).expect("input");
        let (locks, log) = (work.path().join("running"), work.path().join("overlaps"));
        fs::create_dir(&locks).expect("mkdir");
        let body = format!(
            "d='{}'/$(cksum < \"$1\" | cut -d' ' -f1)\n\
             mkdir \"$d\" 2>/dev/null || echo \"$d\" >> '{}'\n\
             trap 'rmdir \"$d\"; exit 1' TERM INT\n\
             sleep 0.3\n\
             rmdir \"$d\"\n\
             grep -q keep \"$1\"",
            locks.display(),
            log.display()
        );
        let test = script(&work.path().join("t.sh"), &body);
        let out = run(hdd()
            .arg("-t")
            .arg(&test)
            .arg(&path)
            .args(["--lang", "text", "--batch", "4", "-o", "out.txt", "-j", jobs, "-q"])
            .current_dir(work.path()));
        assert!(out.status.success(), "-j{jobs}: {}", stderr(&out));
        let overlaps = fs::read_to_string(&log).unwrap_or_default();
        (fs::read_to_string(work.path().join("out.txt")).expect("result"), overlaps)
    };
    let (one, _) = reduce("1");
    let (eight, overlaps) = reduce("8");
    assert_eq!(one, eight);
    assert_eq!(eight, "keep\n");
    assert_eq!(overlaps, "", "texts tested twice at once");
}
