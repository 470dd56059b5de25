//! The command line: exit codes and messages for every kind of bad input, and
//! the promises about the user's files.

use std::fs;

use crate::{hdd, run, scratch, script, stderr};

const C_INPUT: &str = "#include <stdio.h>\n\nstatic int unused(int a) { return a; }\n\nint main(void) {\n    int x = 1;\n    puts(\"needle\");\n    return x;\n}\n";

/// A directory with `bug.c` and an executable test looking for `needle`.
fn setup() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = scratch();
    let input = dir.path().join("bug.c");
    fs::write(&input, C_INPUT).expect("write input");
    let test = script(&dir.path().join("t.sh"), "grep -q needle \"$1\"");
    (dir, input, test)
}

#[test]
fn a_reduction_writes_the_result_next_to_the_input_and_leaves_the_input_alone() {
    let (dir, input, test) = setup();
    let out = run(hdd().arg("-t").arg(&test).arg(&input).arg("-j2"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&input).expect("input"), C_INPUT);
    let result = fs::read_to_string(dir.path().join("bug.reduced.c")).expect("result");
    assert!(result.contains("needle"), "{result}");
    assert!(result.len() < C_INPUT.len() / 2, "{result:?}");
    let err = stderr(&out);
    assert!(err.contains("reduced") && err.contains("tests"), "{err}");
}

#[test]
fn missing_input_is_a_usage_error() {
    let (dir, _, test) = setup();
    let out = run(hdd().arg("-t").arg(&test).arg(dir.path().join("nope.c")));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.starts_with("hdd: error: cannot read") && err.contains("nope.c"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn unknown_language_is_a_usage_error_naming_the_known_ones() {
    let (dir, _, test) = setup();
    let input = dir.path().join("notes.md");
    fs::write(&input, "hello").expect("write");
    let out = run(hdd().arg("-t").arg(&test).arg(&input));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("--lang") && err.contains(&hdd::language::names()), "{err}");
    let out = run(hdd().arg("-t").arg(&test).arg(&input).args(["--lang", "cobol"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown language \"cobol\""), "{}", stderr(&out));
}

#[test]
fn a_missing_or_non_executable_test_is_a_usage_error() {
    let (dir, input, _) = setup();
    let out = run(hdd().arg("-t").arg(dir.path().join("missing.sh")).arg(&input));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
    let plain = dir.path().join("plain.sh");
    fs::write(&plain, "exit 0\n").expect("write");
    let out = run(hdd().arg("-t").arg(&plain).arg(&input));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not executable (chmod +x"), "{}", stderr(&out));
}

#[test]
fn empty_and_binary_inputs_are_usage_errors() {
    let (dir, _, test) = setup();
    let empty = dir.path().join("empty.c");
    fs::write(&empty, "").expect("write");
    let out = run(hdd().arg("-t").arg(&test).arg(&empty));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is empty"), "{}", stderr(&out));
    let binary = dir.path().join("blob.c");
    fs::write(&binary, b"int x;\0\x01\x02").expect("write");
    let out = run(hdd().arg("-t").arg(&test).arg(&binary));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("looks binary"), "{}", stderr(&out));
}

#[test]
fn an_uninteresting_original_stops_with_exit_3_and_a_way_to_check_by_hand() {
    // with more workers than one the first tests run beside the check of
    // the original: the run still stops with it, and writes nothing
    for (jobs, in_place) in [(1, false), (4, false), (4, true)] {
        let (dir, input, _) = setup();
        let runs = dir.path().join("runs");
        let body = format!(
            "echo run >> '{}'\nsleep 0.2\necho 'compiler said no' >&2\nexit 7",
            runs.display()
        );
        let test = script(&dir.path().join("t.sh"), &body);
        let mut cmd = hdd();
        cmd.arg("-t").arg(&test).arg(&input).args(["-j", &jobs.to_string()]);
        if in_place {
            cmd.arg("--in-place");
        }
        let out = run(&mut cmd);
        assert_eq!(out.status.code(), Some(3), "-j {jobs}");
        let err = stderr(&out);
        assert!(err.contains("does not find the original input interesting"), "{err}");
        assert!(err.contains("exit code 7"), "{err}");
        assert!(err.contains("check it by hand: (d=$(mktemp -d)"), "{err}");
        assert!(err.contains("| compiler said no"), "{err}");
        assert!(!dir.path().join("bug.reduced.c").exists(), "-j {jobs}");
        assert!(!dir.path().join("bug.c.orig").exists(), "-j {jobs}");
        assert_eq!(fs::read_to_string(&input).expect("input"), C_INPUT);
        // the check, the first tests beside it and at most one more each
        // before the stop, then the check alone: not a reduction on a test
        // that passes nothing
        let runs = fs::read_to_string(&runs).expect("runs").lines().count();
        let most = if jobs == 1 { 1 } else { 2 + 2 * jobs };
        assert!(runs <= most, "-j {jobs}: {runs} tests ran");
    }
}

#[test]
fn a_test_that_fails_beside_others_is_checked_again_alone_on_the_original() {
    // the check of the original fails once, as one with a timeout inside
    // may while other tests load the machine: beside the first tests it
    // fails, checked again alone it passes, and the run goes on
    let (dir, input, _) = setup();
    let failed = dir.path().join("failed-once");
    let body = format!(
        "if cmp -s \"$1\" '{input}' && [ ! -e '{failed}' ]; then touch '{failed}'; exit 1; fi\n\
         grep -q needle \"$1\"",
        input = input.display(),
        failed = failed.display()
    );
    let test = script(&dir.path().join("t.sh"), &body);
    let out = run(hdd().arg("-t").arg(&test).arg(&input).args(["-j", "4"]));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("checking it again, alone"), "{}", stderr(&out));
    let result = fs::read_to_string(dir.path().join("bug.reduced.c")).expect("result");
    assert!(result.contains("needle") && result.len() < C_INPUT.len(), "{result}");
}

#[test]
fn the_output_may_not_be_the_input_unless_in_place() {
    let (_dir, input, test) = setup();
    let out = run(hdd().arg("-t").arg(&test).arg(&input).arg("-o").arg(&input));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--in-place"), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&input).expect("input"), C_INPUT);
}

#[test]
fn in_place_keeps_the_original_as_orig() {
    let (dir, input, test) = setup();
    let out = run(hdd().arg("-t").arg(&test).arg(&input).arg("--in-place"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(dir.path().join("bug.c.orig")).expect("backup"), C_INPUT);
    let result = fs::read_to_string(&input).expect("result");
    assert!(result.contains("needle") && result.len() < C_INPUT.len(), "{result}");
    // a second run would overwrite the backup: refused
    let out = run(hdd().arg("-t").arg(&test).arg(&input).arg("--in-place"));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(fs::read_to_string(dir.path().join("bug.c.orig")).expect("backup"), C_INPUT);
}

#[test]
fn stats_json_has_the_figures() {
    let (dir, input, test) = setup();
    let stats = dir.path().join("stats.json");
    let out = run(hdd().arg("-t").arg(&test).arg(&input).arg("--stats-json").arg(&stats).arg("-q"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "-q printed: {}", stderr(&out));
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&stats).expect("stats")).expect("json");
    assert_eq!(json["original_bytes"], C_INPUT.len());
    let final_bytes = json["final_bytes"].as_u64().expect("final_bytes");
    let result = fs::read(dir.path().join("bug.reduced.c")).expect("result");
    assert_eq!(final_bytes, result.len() as u64);
    assert!(json["tests"].as_u64().expect("tests") > 0);
    for key in ["cache_hits", "guard_skips", "wall_time", "test_time", "overhead_time", "phases"] {
        assert!(json.get(key).is_some(), "no {key} in {json}");
    }
}

#[test]
fn trace_has_a_line_per_answer_that_adds_up_to_the_figures() {
    let (dir, input, test) = setup();
    let (stats, trace) = (dir.path().join("stats.json"), dir.path().join("trace.jsonl"));
    let out = run(hdd()
        .args(["-q", "-j", "3", "-t"])
        .arg(&test)
        .arg(&input)
        .arg("--stats-json")
        .arg(&stats)
        .arg("--trace")
        .arg(&trace));
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&stats).expect("stats")).expect("json");
    let lines: Vec<serde_json::Value> = fs::read_to_string(&trace)
        .expect("trace")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let count = |how: &str, used: Option<bool>| {
        let of = |l: &&serde_json::Value| l["how"] == how && used.is_none_or(|u| l["used"] == u);
        lines.iter().filter(of).count() as u64
    };
    let figure = |key: &str| json[key].as_u64().expect(key);
    // a test ahead of its pass is written when it ends, as not used, and
    // again as `ahead` when a later candidate takes its outcome
    assert_eq!(count("ahead", Some(true)), figure("ahead_used"));
    assert_eq!(count("ahead", Some(false)), 0);
    let useful = count("test", Some(true)) + count("ahead", Some(true));
    assert_eq!(useful, figure("useful_tests"));
    assert_eq!(count("test", Some(false)), figure("wasted") + figure("ahead_used"));
    assert_eq!(count("cancelled", None), figure("cancelled"));
    assert_eq!(count("cache", None), figure("cache_hits"));
    assert_eq!(count("guard", None), figure("guard_skips"));
    // in time order, each with its phase, and a step where it was used
    let at: Vec<f64> = lines.iter().map(|l| l["at"].as_f64().expect("at")).collect();
    assert!(at.windows(2).all(|w| w[0] <= w[1]), "{at:?}");
    for l in &lines {
        assert!(l["phase"].as_str().is_some_and(|p| !p.is_empty()), "{l}");
        assert_eq!(l["used"] == true, l["step"].is_string(), "{l}");
        assert_eq!(l["used"] == true, l["guess"].is_boolean(), "{l}");
    }
    // the guesses that went wrong are the figure's
    let wrong = lines.iter().filter(|l| l["guess"].is_boolean() && l["guess"] != l["interesting"]);
    assert_eq!(wrong.count() as u64, figure("mispredicted"));
}

#[test]
fn dump_tree_shows_kinds_and_what_may_go() {
    let (_dir, input, _) = setup();
    let out = run(hdd().arg("--dump-tree").arg(&input));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("translation_unit 0.."), "{text}");
    assert!(
        text.contains("function_definition") && text.contains("delete") && text.contains("UNIT"),
        "{text}"
    );
    assert!(text.contains("replace=\"{}\""), "{text}");
    assert!(text.lines().last().is_some_and(|l| l.contains("units on")), "{text}");
}

#[test]
fn regression_an_empty_result_exits_6_unless_allow_empty() {
    // a test that passes on anything reduced to an empty file and exited 0
    // with a warning, which a script calling hdd never saw
    let (dir, input, _) = setup();
    let test = script(&dir.path().join("always.sh"), "exit 0");
    let result = dir.path().join("bug.reduced.c");
    let out = run(hdd().arg("-q").arg("-t").arg(&test).arg(&input));
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("the result is empty") && err.contains("accepts too much"), "{err}");
    assert!(err.contains("--allow-empty"), "{err}");
    // written all the same
    assert_eq!(fs::read(&result).expect("result"), b"");
    let out = run(hdd().arg("-t").arg(&test).arg(&input).arg("--allow-empty"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("error"), "{}", stderr(&out));
}

#[test]
fn a_bad_launcher_or_work_dir_is_one_usage_error_line() {
    let (dir, input, test) = setup();
    let file = dir.path().join("plain");
    fs::write(&file, "x").expect("write");
    let cases: &[(&[&str], &str)] = &[
        (&["--launcher", "no-such-launcher-hdd -n1"], "no-such-launcher-hdd is not on PATH"),
        (&["--launcher", "srun 'unclosed"], "a quote is not closed"),
        (&["--launcher", "  "], "no command given"),
        (&["--launcher", "/nonexistent/srun"], "/nonexistent/srun does not exist"),
        (&["--work-dir", "/nonexistent/hdd-work"], "--work-dir /nonexistent/hdd-work"),
        (&["--work-dir", file.to_str().expect("utf-8")], "not a directory"),
    ];
    for (args, says) in cases {
        let out = run(hdd().arg("-t").arg(&test).arg(&input).args(*args));
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("hdd: error: ") && err.contains(says), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn format_without_a_formatter_is_one_usage_error_line() {
    let (dir, _, test) = setup();
    let json = dir.path().join("d.json");
    fs::write(&json, "[\"needle\", 2]\n").expect("write");
    let out = run(hdd().arg("-t").arg(&test).arg(&json).arg("--format"));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--format: hdd knows no formatter for json"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // C has one, clang-format, which must be on the PATH
    let (_dir, input, test) = setup();
    let out =
        run(hdd().arg("-t").arg(&test).arg(&input).arg("--format").env("PATH", "/nonexistent"));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--format: clang-format is not on PATH"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Runs hdd on `setup()`'s input with `-o out` and extra arguments; returns
/// the output, after checking it is a one-line usage error.
fn refused(args: &[&std::ffi::OsStr]) -> String {
    let (dir, input, test) = setup();
    let out = run(hdd().arg("-t").arg(&test).arg(&input).args(args).current_dir(dir.path()));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(fs::read_to_string(&input).expect("input"), C_INPUT);
    err
}

#[test]
fn regression_output_over_dev_null_or_a_fifo_is_refused_before_any_test() {
    let err = refused(&["-o".as_ref(), "/dev/null".as_ref()]);
    assert!(err.contains("not a regular file"), "{err}");
    use std::os::unix::fs::FileTypeExt;
    assert!(fs::metadata("/dev/null").expect("/dev/null").file_type().is_char_device());
    let dir = scratch();
    let fifo = dir.path().join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let err = refused(&["-o".as_ref(), fifo.as_os_str()]);
    assert!(err.contains("not a regular file"), "{err}");
    let err = refused(&["--stats-json".as_ref(), "/dev/null".as_ref()]);
    assert!(err.contains("--stats-json"), "{err}");
    let err = refused(&["--trace".as_ref(), "/dev/null".as_ref()]);
    assert!(err.contains("--trace"), "{err}");
    let err = refused(&["-o", "r.c", "--trace", "r.c"].map(std::ffi::OsStr::new));
    assert!(err.contains("--trace"), "{err}");
}

#[test]
fn regression_output_over_the_test_script_or_a_protected_file_is_refused() {
    // `-o t.sh` names the test (the runs below are in its directory)
    let err = refused(&["-o".as_ref(), "t.sh".as_ref()]);
    assert!(err.contains("is the test script"), "{err}");
    let dir = scratch();
    let protected = dir.path().join("kept.c");
    fs::write(&protected, "keep me").expect("write");
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&protected, fs::Permissions::from_mode(0o444)).expect("chmod");
    let err = refused(&["-o".as_ref(), protected.as_os_str()]);
    assert!(err.contains("write-protected"), "{err}");
    assert_eq!(fs::read_to_string(&protected).expect("kept"), "keep me");
    let missing = dir.path().join("no/such/dir/out.c");
    let err = refused(&["-o".as_ref(), missing.as_os_str()]);
    assert!(err.contains("no directory"), "{err}");
}

#[test]
fn regression_an_output_name_of_the_longest_length_can_be_written() {
    let (dir, input, test) = setup();
    let long = dir.path().join(format!("{}.c", "a".repeat(250)));
    let out = run(hdd().arg("-t").arg(&test).arg(&input).arg("-o").arg(&long).arg("-q"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::read_to_string(&long).expect("result").contains("needle"));
}

#[test]
fn regression_absurd_jobs_are_refused() {
    for jobs in ["18446744073709551615", "257"] {
        let err = refused(&["-j".as_ref(), jobs.as_ref()]);
        assert!(err.contains("--jobs") && err.contains("256"), "{jobs}: {err}");
    }
}

#[test]
fn regression_the_check_by_hand_line_quotes_the_input_name() {
    let dir = scratch();
    let input = dir.path().join("q$(touch pwned).c");
    fs::write(&input, C_INPUT).expect("write");
    let test = script(&dir.path().join("t.sh"), "exit 7");
    let out = run(hdd().arg("-t").arg(&test).arg(&input));
    assert_eq!(out.status.code(), Some(3));
    let err = stderr(&out);
    let line = err.lines().find(|l| l.contains("check it by hand: ")).expect("the line");
    let command = line.split("check it by hand: ").nth(1).expect("the command");
    // pasted into a shell in a scratch directory, it runs the test (exit 7)
    // and nothing else (its mktemp directory in the scratch one too, so
    // that no test run leaves one in /tmp)
    let paste = scratch();
    let ran = run(std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(paste.path())
        .env("TMPDIR", paste.path()));
    assert!(String::from_utf8_lossy(&ran.stdout).contains("exit code 7"), "{command}");
    assert!(!paste.path().join("pwned").exists() && !dir.path().join("pwned").exists());
}

#[test]
fn regression_dump_tree_of_a_deep_nest_does_not_panic() {
    let dir = scratch();
    let input = dir.path().join("deep.json");
    fs::write(&input, format!("{}{}", "[".repeat(40_000), "]".repeat(40_000))).expect("write");
    let out = run(hdd().arg("--dump-tree").arg(&input));
    assert!(out.status.success(), "{}", stderr(&out));
    // three nodes a level (the array and its brackets), each line at most
    // the capped indentation and a few dozen bytes: linear in the depth
    let lines = out.stdout.iter().filter(|&&c| c == b'\n').count();
    assert!(lines > 120_000 && out.stdout.len() < lines * 200, "{} bytes", out.stdout.len());
}

#[test]
fn regression_a_fifo_input_is_not_reported_as_missing() {
    let (dir, _, test) = setup();
    let fifo = dir.path().join("in.c");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let out = run(hdd().arg("-t").arg(&test).arg(&fifo));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a regular file"), "{}", stderr(&out));
}

#[test]
fn regression_a_deep_nest_goes_in_a_few_tests_not_one_per_level() {
    // a thousand arrays around the value that matters took 1002 tests, one
    // hoist per level; the end of a chain of single hoist targets is tried
    // first
    let dir = scratch();
    let input = dir.path().join("deep.json");
    fs::write(&input, format!("{}7{}\n", "[".repeat(1000), "]".repeat(1000))).expect("write");
    let test = script(&dir.path().join("t.sh"), "grep -q 7 \"$1\"");
    let stats = dir.path().join("stats.json");
    let out = run(hdd().arg("-t").arg(&test).arg(&input).arg("--stats-json").arg(&stats).arg("-q"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(dir.path().join("deep.reduced.json")).expect("result"), "7");
    let stats: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&stats).expect("stats")).expect("json");
    let tests = stats["tests"].as_u64().expect("tests");
    assert!(tests <= 10, "{tests} tests");
}

#[test]
fn completions_and_a_manual_page_come_from_the_command_line_definition() {
    for shell in ["bash", "zsh", "fish"] {
        let out = run(hdd().args(["--completions", shell]));
        assert!(out.status.success(), "{}", stderr(&out));
        let script = String::from_utf8_lossy(&out.stdout);
        assert!(script.contains("max-time") && script.contains("command"), "{shell}");
    }
    let out = run(hdd().arg("--man"));
    assert!(out.status.success(), "{}", stderr(&out));
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(page.contains(".TH hdd 1") && page.contains("max\\-time"), "{page}");
}

#[test]
fn the_version_names_the_commit_it_was_built_from() {
    let out = run(hdd().arg("--version"));
    let version = String::from_utf8_lossy(&out.stdout);
    let git = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(crate::root())
        .output();
    if let Some(commit) = git.ok().filter(|g| g.status.success()) {
        let commit = String::from_utf8_lossy(&commit.stdout).trim().to_string();
        assert!(version.contains(&commit), "{version} lacks {commit}");
    }
    assert!(version.starts_with(&format!("hdd {}", env!("CARGO_PKG_VERSION"))), "{version}");
}

#[test]
fn durations_take_compound_forms_and_refuse_absurd_ones_without_a_panic() {
    let (dir, input, test) = setup();
    let out = run(hdd().arg("-t").arg(&test).arg(&input).args(["--max-time", "1h30m", "-q"]));
    assert!(out.status.success(), "{}", stderr(&out));
    for absurd in ["99999999999999999999", "400days", "0", "5x"] {
        let out = run(hdd().arg("-t").arg(&test).arg(&input).args(["--timeout", absurd]));
        assert_eq!(out.status.code(), Some(2), "{absurd}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
    drop(dir);
}

#[test]
fn a_test_with_crlf_line_endings_is_named_as_such() {
    let (dir, input, _) = setup();
    let test = dir.path().join("crlf.sh");
    fs::write(&test, "#!/bin/sh\r\ngrep -q needle \"$1\"\r\n").expect("write");
    crate::make_executable(&test);
    let out = run(hdd().arg("-t").arg(&test).arg(&input));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("CRLF"), "{}", stderr(&out));
}

#[test]
fn the_help_lists_every_exit_code() {
    let out = run(hdd().arg("-h"));
    let help = String::from_utf8_lossy(&out.stdout).replace('\n', " ");
    let code = std::fs::read_to_string(crate::root().join("src/app/error.rs")).expect("error.rs");
    for line in code.lines().filter(|l| l.trim_start().starts_with("pub const")) {
        let n = line.rsplit('=').next().expect("value").trim().trim_end_matches(';');
        assert!(help.contains(&format!(" {n} ")), "-h lacks exit code {n}: {help}");
    }
}

/// The summary's line of tests: its total and its named parts.
fn tests_of(err: &str) -> (u64, Vec<(u64, String)>) {
    let digits =
        |l: &&str| l.strip_prefix("hdd: ").is_some_and(|l| l.starts_with(char::is_numeric));
    let line = err.lines().find(digits).expect(err);
    let line = line.strip_prefix("hdd: ").expect(err);
    let (head, _) = line.split_once(';').expect(line);
    let total = head.split(' ').next().and_then(|n| n.parse().ok()).expect(line);
    let parts = match head.split_once(" (") {
        None => vec![(total, "useful".to_string())],
        Some((_, parts)) => parts
            .trim_end_matches(')')
            .split(" + ")
            .map(|p| {
                let (n, name) = p.split_once(' ').expect(p);
                (n.parse().expect(p), name.to_string())
            })
            .collect(),
    };
    (total, parts)
}

#[test]
fn regression_the_summary_tests_add_up_with_j() {
    // with -j, the tests were "31 (25 useful, 5 not needed, ...)": the
    // final re-check run ahead, and a set's tests without its emptied
    // files, were in the total but in no part
    let (dir, input, test) = setup();
    let header = dir.path().join("set/x.h");
    fs::create_dir_all(header.parent().expect("parent")).expect("mkdir");
    fs::write(&header, "int unused_decl;\n").expect("header");
    fs::copy(&input, dir.path().join("set/bug.c")).expect("copy");
    let set_test = script(&dir.path().join("set.sh"), "grep -q needle bug.c");
    for (jobs, input, test) in
        [("1", &input, &test), ("3", &input, &test), ("2", &dir.path().join("set"), &set_test)]
    {
        let stats = dir.path().join("stats.json");
        let out = run(hdd()
            .args(["-j", jobs, "-t"])
            .arg(test)
            .arg(input)
            .arg("--stats-json")
            .arg(&stats));
        assert!(out.status.success(), "{}", stderr(&out));
        let err = stderr(&out);
        let (total, parts) = tests_of(&err);
        assert_eq!(parts.iter().map(|p| p.0).sum::<u64>(), total, "-j {jobs}: {err}");
        let json: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&stats).expect("stats")).expect("json");
        let figure = |key: &str| json[key].as_u64().expect(key);
        assert_eq!(figure("tests"), total, "-j {jobs}: {err}");
        let files = json["phases"]["files"]["tests"].as_u64().unwrap_or(0);
        let sum = figure("useful_tests") + figure("wasted") + figure("rechecks") + files;
        assert_eq!(sum, total, "-j {jobs}: {json}");
        if input.is_dir() {
            assert!(parts.iter().any(|p| p.1 == "to leave out emptied files"), "{err}");
        }
    }
}

#[test]
fn regression_a_tiny_result_is_not_reduced_by_100_percent() {
    // 7 bytes left of about 60 KB were "(-100.0%)"
    let dir = scratch();
    let input = dir.path().join("big.txt");
    let mut text: String = (0..6000).map(|i| format!("line {i}\n")).collect();
    text.insert_str(text.len() / 2, "needle\n");
    fs::write(&input, &text).expect("write");
    let test = script(&dir.path().join("t.sh"), "grep -q needle \"$1\"");
    let out = run(hdd().arg("-t").arg(&test).arg(&input));
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains(" to 7 bytes (-99.98%)"), "{err}");
}

/// A run of `./t.sh` on `inputs` in `dir`, as a user types it there,
/// stopped by `--max-time`: its stderr, and the command it says goes on.
fn stopped_run(dir: &std::path::Path, inputs: &[&str], extra: &[&str]) -> (String, String) {
    let out = run(hdd()
        .current_dir(dir)
        .args(["-j1", "--max-time", "1500ms", "-t", "./t.sh"])
        .args(inputs)
        .args(extra));
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    // (in the HDD pass, at a level once a candidate is answered)
    let line = err.lines().find(|l| l.starts_with("hdd: stopped in hdd")).expect(&err);
    let command = line.split_once("; to go on: ").expect(line).1.to_string();
    (err, command)
}

#[test]
fn regression_a_stopped_run_says_where_and_how_to_go_on() {
    // after --max-time, nothing said where the run stopped or how to go
    // on from its result (as the test expects its file name)
    let (dir, input, _) = setup();
    let body = "sleep 0.5\n[ \"$(basename \"$1\")\" = bug.c ] && grep -q needle \"$1\"";
    script(&dir.path().join("t.sh"), body);
    let hdd_path = env!("CARGO_BIN_EXE_hdd");
    // the result beside the input: a run on it tests it as bug.c
    let (_, command) = stopped_run(dir.path(), &["bug.c"], &[]);
    assert_eq!(command, format!("{hdd_path} -j1 --max-time 1500ms -t ./t.sh bug.reduced.c"));
    let out = run(std::process::Command::new("sh").arg("-c").arg(&command).current_dir(dir.path()));
    assert!(out.status.success(), "{command}: {}", stderr(&out));
    // one of another name: --name gives the input's
    let (_, command) = stopped_run(dir.path(), &["bug.c"], &["-o", "r.c"]);
    assert_eq!(command, format!("{hdd_path} -j1 --max-time 1500ms -t ./t.sh --name bug.c r.c"));
    // one of the same name: the command runs, and reduces further
    fs::create_dir(dir.path().join("out")).expect("mkdir");
    let (err, command) = stopped_run(dir.path(), &["bug.c"], &["-o", "out/bug.c"]);
    assert_eq!(command, format!("{hdd_path} -j1 --max-time 1500ms -t ./t.sh out/bug.c"));
    // a short result is printed under the summary
    let result = fs::read_to_string(dir.path().join("out/bug.c")).expect("result");
    assert!(
        err.contains(&format!(
            "line{}):\n{result}",
            if result.lines().count() == 1 { "" } else { "s" }
        )),
        "{err}"
    );
    let out = run(std::process::Command::new("sh").arg("-c").arg(&command).current_dir(dir.path()));
    assert!(out.status.success(), "{}", stderr(&out));
    let further = fs::read_to_string(dir.path().join("out/bug.reduced.c")).expect("result");
    assert!(further.contains("needle") && further.len() <= result.len(), "{further}");
    assert_eq!(fs::read_to_string(&input).expect("input"), C_INPUT);
}

#[test]
fn a_stopped_run_of_a_directory_or_of_files_says_how_to_go_on() {
    // only a run of one file said how to go on; a run on `proj.reduced`
    // showed the test a directory of that name
    let dir = scratch();
    fs::create_dir_all(dir.path().join("proj/inc")).expect("mkdir");
    fs::write(dir.path().join("proj/bug.c"), C_INPUT).expect("write");
    fs::write(dir.path().join("proj/inc/u.h"), "int u(void);\nint needle2;\n").expect("write");
    // (the working directory is the set's copy, both for a directory and files)
    let body =
        "sleep 0.5\n[ \"$(basename \"$(pwd)\")\" = proj ] && grep -rq needle2 . && grep -rq puts .";
    script(&dir.path().join("t.sh"), body);
    let hdd_path = env!("CARGO_BIN_EXE_hdd");
    let go_on = |command: &str| {
        let out =
            run(std::process::Command::new("sh").arg("-c").arg(command).current_dir(dir.path()));
        assert!(out.status.success(), "{command}: {}", stderr(&out));
    };
    // a directory, with the trailing slash of a shell's completion
    let (_, command) = stopped_run(dir.path(), &["proj/"], &[]);
    assert_eq!(command, format!("{hdd_path} -j1 --max-time 1500ms -t ./t.sh proj.reduced"));
    go_on(&command);
    assert!(dir.path().join("proj.reduced.reduced/bug.c").is_file());
    // files: each becomes its result; the test still sees them in `proj`
    let (_, command) = stopped_run(dir.path(), &["proj/bug.c", "proj/inc/u.h"], &["-o", "out"]);
    assert_eq!(
        command,
        format!("{hdd_path} -j1 --max-time 1500ms -t ./t.sh --name proj out/bug.c out/inc/u.h")
    );
    go_on(&command);
}

#[test]
fn a_file_read_in_the_wrong_language_gets_a_warning_and_no_corpus_input_does() {
    let (dir, input, _) = setup();
    let refuse = script(&dir.path().join("no.sh"), "exit 1");
    let says = |lang: &str, file: &std::path::Path| {
        let out = run(hdd().arg("-t").arg(&refuse).arg(file).args(["--lang", lang, "-j2"]));
        assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
        stderr(&out).contains("is --lang right?")
    };
    // a real C file read as JSON
    assert!(says("json", &crate::root().join("corpora/c/bzip2-conversion/bzip2.c")));
    // nor one whose extension says plain text, which has no syntax errors
    let c = fs::read(crate::root().join("corpora/c/bzip2-conversion/bzip2.c")).expect("read");
    fs::write(dir.path().join("bzip2.txt"), c).expect("write");
    assert!(!says("json", &dir.path().join("bzip2.txt")));
    assert!(!says("c", &input));
    // malformed inputs in their own language are no such case
    for case in crate::Case::all().iter().filter(|c| !c.is_dir()) {
        assert!(!says(&case.lang, &case.input_path()), "{}", case.name);
    }
}
