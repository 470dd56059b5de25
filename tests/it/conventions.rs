//! The test conventions of the other reducers: Shrink Ray's tests read the
//! candidate on stdin, an inline command instead of a script (`--command`),
//! a test that needs files beside itself or beside the input, and a second
//! run on a result, whose test knows the original's name.

use std::fs;

use crate::{hdd, run, scratch, script, stderr};

const INPUT: &str = "int helper(int a) { return a + 1; }\n\nint main(void) {\n    int needle = 2;\n    return helper(needle);\n}\n";

/// A directory with `bug.c`.
fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = scratch();
    let input = dir.path().join("bug.c");
    fs::write(&input, INPUT).expect("write input");
    (dir, input)
}

#[test]
fn a_test_that_reads_the_candidate_on_stdin_works() {
    let (dir, input) = setup();
    let test = script(&dir.path().join("t.sh"), "grep -q needle");
    let out = run(hdd().arg("-t").arg(&test).arg(&input).arg("-j2"));
    assert!(out.status.success(), "{}", stderr(&out));
    let result = fs::read_to_string(dir.path().join("bug.reduced.c")).expect("result");
    assert!(result.contains("needle") && result.len() < INPUT.len() / 2, "{result:?}");
}

#[test]
fn an_inline_command_is_the_test_with_the_candidate_as_its_first_argument() {
    let (dir, input) = setup();
    let output = dir.path().join("out.c");
    let out = run(hdd()
        .args(["--command", "grep -q needle \"$1\" && test \"$(basename \"$1\")\" = bug.c"])
        .arg(&input)
        .arg("-o")
        .arg(&output));
    assert!(out.status.success(), "{}", stderr(&out));
    let result = fs::read_to_string(&output).expect("result");
    assert!(result.contains("needle") && result.len() < INPUT.len() / 2, "{result:?}");
    // a script and a command at once is a usage error
    let test = script(&dir.path().join("t.sh"), "exit 0");
    let out = run(hdd().arg("-t").arg(&test).args(["--command", "true"]).arg(&input));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn the_test_finds_its_own_files_and_the_inputs_through_the_environment() {
    let (dir, _) = setup();
    let tests = dir.path().join("tests");
    let data = dir.path().join("data");
    fs::create_dir_all(&tests).expect("mkdir");
    fs::create_dir_all(&data).expect("mkdir");
    let input = data.join("bug.c");
    fs::write(&input, INPUT).expect("write input");
    fs::write(tests.join("word"), "needle\n").expect("write helper");
    fs::write(data.join("expected"), "ok\n").expect("write helper");
    let test = script(
        &tests.join("t.sh"),
        "grep -q \"$(cat \"$HDD_TEST_DIR/word\")\" \"$1\" && test -f \"$HDD_INPUT_DIR/expected\"",
    );
    let out = run(hdd().arg("-t").arg(&test).arg(&input).arg("-j1"));
    assert!(out.status.success(), "{}", stderr(&out));
    let result = fs::read_to_string(data.join("bug.reduced.c")).expect("result");
    assert!(result.contains("needle"), "{result:?}");
}

#[test]
fn a_failing_check_names_what_a_test_may_miss_in_the_private_directory() {
    let (dir, input) = setup();
    // works by hand next to its helper file, not in hdd's directory
    fs::write(dir.path().join("word"), "needle\n").expect("write helper");
    let test = script(&dir.path().join("t.sh"), "test -f word && grep -q needle \"$1\"");
    let out = run(hdd().arg("-t").arg(&test).arg(&input));
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("$HDD_TEST_DIR") && err.contains("$HDD_INPUT_DIR"), "{err}");
    assert!(err.contains("stdin") && err.contains("--name"), "{err}");
}

#[test]
fn a_second_run_on_the_result_tests_it_under_the_original_name() {
    let (dir, input) = setup();
    let test = script(&dir.path().join("t.sh"), "grep -q needle bug.c");
    let out = run(hdd().arg("-t").arg(&test).arg(&input).arg("-j1"));
    assert!(out.status.success(), "{}", stderr(&out));
    let first = dir.path().join("bug.reduced.c");
    let out = run(hdd().arg("-t").arg(&test).arg(&first).arg("-j1"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.path().join("bug.reduced.reduced.c").is_file());
    // --name sets the name outright
    let renamed = dir.path().join("other.c");
    fs::write(&renamed, INPUT).expect("write");
    let out = run(hdd().arg("-t").arg(&test).arg(&renamed).args(["--name", "bug.c", "-j1"]));
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(hdd().arg("-t").arg(&test).arg(&renamed).args(["--name", "a/bug.c"]));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
