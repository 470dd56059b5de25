//! The fault table: what a run does when something goes wrong around it (a
//! run killed with `kill -9`, two runs on one output, the user editing an
//! `--in-place` file, a deadline in the middle of a long test). Each case
//! checks its exact exit code and that nothing is left behind: no
//! temporary file or lock beside the output, no test process.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::{hdd, run, scratch, script, stderr, wait_for};

/// A C input of many lines; only the line with `needle` matters.
fn many_lines() -> String {
    let mut text: String = (0..40).map(|i| format!("int v{i} = {i};\n")).collect();
    text.push_str("int needle;\n");
    text
}

/// Whether the process `pid` exists.
fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    unsafe { libc::kill(pid, 0) == 0 }
}

/// The names in `dir` that hdd writes beside an output while it runs
/// (temporary files and directories, locks).
fn leftovers(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("ls")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".hdd-"))
        .collect();
    names.sort();
    names
}

/// The test processes whose pids a test script wrote to `pids` that are
/// still alive.
fn survivors(pids: &Path) -> Vec<i32> {
    let text = fs::read_to_string(pids).unwrap_or_default();
    text.lines().filter_map(|l| l.trim().parse().ok()).filter(|&p| alive(p)).collect()
}

#[test]
fn regression_a_killed_run_leaves_no_temp_file_for_the_next() {
    let dir = scratch();
    let input = dir.path().join("bug.c");
    fs::write(&input, many_lines()).expect("write");
    let test = script(&dir.path().join("t.sh"), "sleep 0.05\ngrep -q needle \"$1\"");
    let pid =
        killed_run_of(&[test.as_os_str(), input.as_os_str()], &dir.path().join("bug.reduced.c"));
    // what it would have left, had the kill come in the middle of a write;
    // beside them a live run's and another output's, which must stay
    let stale = dir.path().join(format!(".bug.reduced.c.{pid}.AbC123.hdd-tmp"));
    fs::write(&stale, "half a result").expect("write");
    let live = dir.path().join(format!(".bug.reduced.c.{}.AbC123.hdd-tmp", std::process::id()));
    fs::write(&live, "someone's result").expect("write");
    let other = dir.path().join(format!(".other.c.{pid}.AbC123.hdd-tmp"));
    fs::write(&other, "another output's").expect("write");

    let out = run(hdd().arg("-t").arg(&test).arg(&input).arg("-q"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stale.exists(), "the killed run's temp file is still there");
    assert!(live.exists() && other.exists(), "removed a temp file not its own");
    fs::remove_file(&live).expect("rm");
    fs::remove_file(&other).expect("rm");
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

/// A set of two files in `dir/src`, and a test that wants one of them:
/// the set and the test.
fn a_set(dir: &Path) -> (PathBuf, PathBuf) {
    let src = dir.join("src");
    fs::create_dir(&src).expect("mkdir");
    fs::write(src.join("a.c"), many_lines()).expect("write");
    fs::write(src.join("b.c"), "int b;\n").expect("write");
    let test = script(&dir.join("t.sh"), "grep -q needle \"$1\"/a.c");
    (src, test)
}

#[test]
fn regression_a_killed_run_leaves_no_temp_directory_for_the_next() {
    let dir = scratch();
    let (src, test) = a_set(dir.path());
    let pid = killed_run_of(&[test.as_os_str(), src.as_os_str()], &dir.path().join("src.reduced"));
    let stale = dir.path().join(format!(".src.reduced.{pid}.XyZ789.hdd-tmp"));
    fs::create_dir_all(stale.join("sub")).expect("mkdir");
    fs::write(stale.join("sub/a.c"), "half").expect("write");
    let old = dir.path().join(format!(".src.reduced.{pid}.XyZ790.hdd-old"));
    fs::create_dir(&old).expect("mkdir");
    let out = run(hdd().arg("-t").arg(&test).arg(&src).arg("-q"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

#[test]
fn regression_a_killed_runs_only_copy_goes_once_a_new_result_is_in_place() {
    // a run killed between a directory write's two renames leaves no
    // output, only the previous result beside it: the next run keeps that
    // copy while the output is missing, and removes it once its own result
    // is in place (it stayed: a CI run failed the test above when its kill
    // came between the renames)
    let dir = scratch();
    let (src, test) = a_set(dir.path());
    let mut gone = std::process::Command::new("true").spawn().expect("spawn true");
    gone.wait().expect("wait");
    let old = dir.path().join(format!(".src.reduced.{}.XyZ790.hdd-old", gone.id()));
    fs::create_dir(&old).expect("mkdir");
    fs::write(old.join("a.c"), "the killed run's last result").expect("write");
    let out = run(hdd().arg("-t").arg(&test).arg(&src).arg("-q"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(dir.path().join("src.reduced/a.c").exists(), "no result");
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

/// Runs hdd (`-t` and the rest of `args`) until `out` exists, then kills
/// it with `kill -9`; its pid.
fn killed_run_of(args: &[&std::ffi::OsStr], out: &Path) -> i32 {
    let mut child = hdd().arg("-t").args(args).arg("-q").spawn().expect("spawn");
    wait_for("the first result", Duration::from_secs(20), || out.exists());
    child.kill().expect("kill -9");
    child.wait().expect("wait");
    child.id() as i32
}

#[test]
fn regression_a_second_run_on_the_same_output_is_refused() {
    let dir = scratch();
    let input = dir.path().join("bug.c");
    fs::write(&input, many_lines()).expect("write");
    let other = dir.path().join("other.c");
    fs::write(&other, many_lines()).expect("write");
    let pids = dir.path().join("pids");
    let test = script(
        &dir.path().join("t.sh"),
        &format!("echo $$ >> {}\nsleep 0.2\ngrep -q needle \"$1\"", pids.display()),
    );
    let output = dir.path().join("bug.reduced.c");
    let mut first = hdd().arg("-t").arg(&test).arg(&input).arg("-q").spawn().expect("spawn");
    wait_for("the first result", Duration::from_secs(20), || output.exists());

    // another input, the same output: refused before any test
    let out = run(hdd().arg("-t").arg(&test).arg(&other).arg("-o").arg(&output));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("another hdd run") && err.contains("bug.reduced.c"), "{err}");
    // the first run goes on: its own tests only
    assert!(first.try_wait().expect("wait").is_none(), "the first run ended");

    // once the first is killed with kill -9, its lock is gone with it
    first.kill().expect("kill -9");
    first.wait().expect("wait");
    let out = run(hdd().arg("-t").arg(&test).arg(&other).arg("-o").arg(&output).arg("-q"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    wait_for("no test process", Duration::from_secs(5), || survivors(&pids).is_empty());
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

#[test]
fn regression_in_place_never_overwrites_an_edit_made_during_the_run() {
    let dir = scratch();
    let input = dir.path().join("bug.c");
    let original = many_lines();
    fs::write(&input, &original).expect("write");
    // readable by others: the result saved beside the file must be too
    fs::set_permissions(&input, fs::Permissions::from_mode(0o644)).expect("chmod");
    let test = script(&dir.path().join("t.sh"), "sleep 0.1\ngrep -q needle \"$1\"");
    let child = hdd()
        .arg("-t")
        .arg(&test)
        .arg(&input)
        .args(["--in-place", "-j1"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    // hdd wrote a result into the file; then the user edits it
    wait_for("a first result", Duration::from_secs(20), || {
        fs::read_to_string(&input).is_ok_and(|t| t != original)
    });
    let edit = "int needle; /* the user's edit */\n";
    fs::write(&input, edit).expect("edit");
    let out = child.wait_with_output().expect("wait");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert_eq!(fs::read_to_string(&input).expect("input"), edit, "the edit was overwritten");
    let side = dir.path().join("bug.reduced.c");
    let best = fs::read_to_string(&side).expect("the side file");
    assert!(best.contains("needle") && best.len() < original.len(), "{best}");
    let mode = fs::metadata(&side).expect("stat").permissions().mode() & 0o7777;
    assert_eq!(mode, 0o644, "the side file's mode is {mode:o}, the input's was 644");
    let line = err.lines().find(|l| l.starts_with("hdd: error:")).expect("an error line");
    assert!(line.contains("bug.c changed") && line.contains("bug.reduced.c"), "{err}");
    assert_eq!(fs::read_to_string(dir.path().join("bug.c.orig")).expect("orig"), original);
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

#[test]
fn regression_in_place_never_overwrites_a_directory_edited_during_the_run() {
    let dir = scratch();
    let src = dir.path().join("src");
    fs::create_dir(&src).expect("mkdir");
    let original = many_lines();
    fs::write(src.join("a.c"), &original).expect("write");
    fs::write(src.join("b.c"), "int b;\n").expect("write");
    let test = script(&dir.path().join("t.sh"), "sleep 0.1\ngrep -q needle \"$1\"/a.c");
    let child = hdd()
        .arg("-t")
        .arg(&test)
        .arg(&src)
        .args(["--in-place", "-j1"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    wait_for("a first result", Duration::from_secs(20), || {
        fs::read_to_string(src.join("a.c")).is_ok_and(|t| t != original)
    });
    // the user adds a file
    fs::write(src.join("mine.c"), "int mine;\n").expect("edit");
    let out = child.wait_with_output().expect("wait");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert_eq!(fs::read_to_string(src.join("mine.c")).expect("the edit"), "int mine;\n");
    let best = fs::read_to_string(dir.path().join("src.reduced/a.c")).expect("the side result");
    assert!(best.contains("needle") && best.len() < original.len(), "{best}");
    let line = err.lines().find(|l| l.starts_with("hdd: error:")).expect("an error line");
    assert!(line.contains("src changed") && line.contains("src.reduced"), "{err}");
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

/// A test that is quick on the original (after `first` seconds) and sleeps
/// 30 s on every other candidate; each test's pid goes to `pids`.
fn slow_after_the_original(dir: &Path, first: &str) -> (PathBuf, PathBuf, PathBuf) {
    let input = dir.join("bug.c");
    let text = many_lines();
    fs::write(&input, &text).expect("write");
    let pids = dir.join("pids");
    let test = script(
        &dir.join("t.sh"),
        &format!(
            "echo $$ >> {pids}\nif [ \"$(wc -c < \"$1\")\" -eq {len} ]; then sleep {first}; grep -q needle \"$1\"; exit; fi\nexec sleep 30",
            pids = pids.display(),
            len = text.len()
        ),
    );
    (input, test, pids)
}

/// The duration in the summary line (`in 2.3s`).
fn summary_time(err: &str) -> f64 {
    let line = err.lines().find(|l| l.contains("stopped by --max-time")).expect("summary");
    let time = line.rsplit(" in ").next().expect("a time").trim_end_matches('s');
    time.parse().unwrap_or_else(|_| panic!("no time in {line:?}"))
}

#[test]
fn regression_max_time_stops_a_long_test_at_the_deadline_with_any_jobs() {
    for jobs in ["-j1", "-j2"] {
        let dir = scratch();
        let (input, test, pids) = slow_after_the_original(dir.path(), "1");
        let started = Instant::now();
        let out = run(hdd().arg("-t").arg(&test).arg(&input).args([jobs, "--max-time", "2s"]));
        let took = started.elapsed();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{jobs}: {err}");
        // the deadline, plus --kill-grace at most for the tests it stops,
        // plus slack for a busy machine (the test sleeps 30 s)
        assert!(took < Duration::from_secs(6), "{jobs}: took {took:?}: {err}");
        // the summary's time counts the check of the original and parsing
        let time = summary_time(&err);
        assert!(time >= 1.95 && time <= took.as_secs_f64() + 0.05, "{jobs}: {time} s, {err}");
        let result = fs::read_to_string(dir.path().join("bug.reduced.c")).expect("result");
        assert_eq!(result, many_lines(), "{jobs}");
        assert_eq!(survivors(&pids), Vec::<i32>::new(), "{jobs}");
        assert_eq!(leftovers(dir.path()), Vec::<String>::new(), "{jobs}");
    }
}

#[test]
fn regression_max_time_shorter_than_the_check_of_the_original_lets_it_finish() {
    // with more workers the first tests run beside the check: the deadline
    // stops them, not the check, which always completes (docs/safety.md)
    for jobs in ["-j1", "-j4"] {
        let dir = scratch();
        let (input, test, pids) = slow_after_the_original(dir.path(), "2");
        let started = Instant::now();
        let out = run(hdd().arg("-t").arg(&test).arg(&input).args([jobs, "--max-time", "1s"]));
        let took = started.elapsed();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{jobs}: {err}");
        assert!(took >= Duration::from_secs(2), "{jobs}: took {took:?}: {err}");
        assert!(took < Duration::from_secs(6), "{jobs}: took {took:?}: {err}");
        let result = fs::read_to_string(dir.path().join("bug.reduced.c")).expect("result");
        assert_eq!(result, many_lines(), "{jobs}");
        assert_eq!(survivors(&pids), Vec::<i32>::new(), "{jobs}");
        assert_eq!(leftovers(dir.path()), Vec::<String>::new(), "{jobs}");
    }
}

#[test]
fn regression_max_time_stops_the_final_re_check() {
    let dir = scratch();
    let input = dir.path().join("bug.c");
    fs::write(&input, "int needle;\n").expect("write");
    let pids = dir.path().join("pids");
    let seen = dir.path().join("seen");
    // a text tested a second time (only the final re-check does that)
    // takes 30 s
    let test = script(
        &dir.path().join("t.sh"),
        &format!(
            "echo $$ >> {pids}\nh=$(cksum < \"$1\")\nif grep -qxF \"$h\" {seen}; then exec sleep 30; fi\necho \"$h\" >> {seen}\ngrep -q needle \"$1\"",
            pids = pids.display(),
            seen = seen.display()
        ),
    );
    let started = Instant::now();
    let out = run(hdd().arg("-t").arg(&test).arg(&input).args(["-j1", "--max-time", "2s"]));
    let took = started.elapsed();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(took < Duration::from_secs(6), "took {took:?}: {err}");
    assert!(err.contains("stopped by --max-time"), "{err}");
    assert_eq!(survivors(&pids), Vec::<i32>::new());
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

/// Sends `sig` to the process `pid`.
fn send(pid: u32, sig: i32) {
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(pid as i32, sig) };
}

/// The entries of the directory `dir` (a `TMPDIR`).
fn entries(dir: &Path) -> Vec<PathBuf> {
    fs::read_dir(dir).map(|d| d.map(|e| e.expect("entry").path()).collect()).unwrap_or_default()
}

#[test]
fn regression_a_second_signal_still_cleans_up() {
    // tests that ignore SIGTERM and a long --kill-grace: the first Ctrl-C
    // waits for the grace, a second one must kill them at once, remove
    // the session directory and keep the result (it used to exit on the
    // spot and leave both behind)
    for (first, second, code) in
        [(libc::SIGINT, libc::SIGINT, 130), (libc::SIGTERM, libc::SIGTERM, 143)]
    {
        let dir = scratch();
        let tmp = dir.path().join("tmp");
        fs::create_dir(&tmp).expect("mkdir");
        let input = dir.path().join("bug.c");
        let text = many_lines();
        fs::write(&input, &text).expect("write");
        let pids = dir.path().join("pids");
        let test = script(
            &dir.path().join("t.sh"),
            &format!(
                "if [ \"$(wc -c < \"$1\")\" -eq {len} ]; then grep -q needle \"$1\"; exit; fi\ntrap '' TERM INT\necho $$ >> {pids}\nexec sleep 30",
                pids = pids.display(),
                len = text.len()
            ),
        );
        let child = hdd()
            .arg("-t")
            .arg(&test)
            .arg(&input)
            .args(["-j2", "--kill-grace", "60s"])
            .env("TMPDIR", &tmp)
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        // (with -j the first tests run beside the check of the original:
        // the output exists once that has passed)
        let output = dir.path().join("bug.reduced.c");
        wait_for("tests in flight", Duration::from_secs(30), || {
            fs::read_to_string(&pids).is_ok_and(|p| p.lines().count() >= 2) && output.exists()
        });
        send(child.id(), first);
        std::thread::sleep(Duration::from_millis(300));
        send(child.id(), second);
        let stopped = Instant::now();
        let out = child.wait_with_output().expect("wait");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(code), "{err}");
        assert!(stopped.elapsed() < Duration::from_secs(10), "took {:?}", stopped.elapsed());
        assert_eq!(fs::read_to_string(dir.path().join("bug.reduced.c")).expect("result"), text);
        assert_eq!(entries(&tmp), Vec::<PathBuf>::new(), "{err}");
        assert_eq!(survivors(&pids), Vec::<i32>::new(), "{err}");
        assert_eq!(leftovers(dir.path()), Vec::<String>::new(), "{err}");
    }
}

/// A JSON array of `n` small objects (15 MB for 100 000) with a needle at
/// its end: seconds to parse.
fn big_json(n: usize) -> String {
    let mut text = String::from("[\n");
    for i in 0..n {
        text.push_str(&format!(
            " {{\"id\": {i}, \"name\": \"item{i}\", \"tags\": [\"a\", \"b\", \"c\"], \"nested\": {{\"x\": {i}, \"y\": [1, 2, 3]}}}},\n"
        ));
    }
    text.push_str(" \"needle\"\n]\n");
    text
}

#[test]
fn regression_max_time_stops_a_parse_in_progress() {
    // the parse of the input (and the guard's) used to complete first:
    // 8 s on 15 MB for a 1 s deadline
    let dir = scratch();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).expect("mkdir");
    let input = dir.path().join("big.json");
    let text = big_json(100_000);
    fs::write(&input, &text).expect("write");
    let test = script(&dir.path().join("t.sh"), "grep -q needle \"$1\"");
    let started = Instant::now();
    let out = run(hdd()
        .arg("-t")
        .arg(&test)
        .arg(&input)
        .args(["-j1", "--max-time", "1s"])
        .env("TMPDIR", &tmp));
    let took = started.elapsed();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(took < Duration::from_secs(5), "took {took:?}: {err}");
    assert!(fs::read_to_string(dir.path().join("big.reduced.json")).expect("result") == text);
    assert_eq!(entries(&tmp), Vec::<PathBuf>::new(), "{err}");
    assert_eq!(leftovers(dir.path()), Vec::<String>::new(), "{err}");
}

#[test]
fn regression_a_signal_stops_a_parse_in_progress() {
    // a signal right after the check of the original, while the input is
    // parsed: it used to wait for the parses (8 s on 15 MB)
    let dir = scratch();
    let input = dir.path().join("big.json");
    let text = big_json(100_000);
    fs::write(&input, &text).expect("write");
    for (sig, code) in [(libc::SIGINT, 130), (libc::SIGHUP, 129)] {
        let tmp = dir.path().join("tmp");
        fs::create_dir(&tmp).expect("mkdir");
        let checked = dir.path().join("checked");
        let test = script(
            &dir.path().join("t.sh"),
            &format!("grep -q needle \"$1\" && touch {}", checked.display()),
        );
        let child = hdd()
            .arg("-t")
            .arg(&test)
            .arg(&input)
            .args(["-j1"])
            .env("TMPDIR", &tmp)
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        wait_for("the check of the original", Duration::from_secs(30), || checked.exists());
        std::thread::sleep(Duration::from_millis(200));
        send(child.id(), sig);
        let stopped = Instant::now();
        let out = child.wait_with_output().expect("wait");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(code), "{err}");
        assert!(stopped.elapsed() < Duration::from_secs(5), "took {:?}", stopped.elapsed());
        assert!(fs::read_to_string(dir.path().join("big.reduced.json")).expect("result") == text);
        assert_eq!(entries(&tmp), Vec::<PathBuf>::new(), "{err}");
        assert_eq!(leftovers(dir.path()), Vec::<String>::new(), "{err}");
        fs::remove_dir(&tmp).expect("rmdir");
        fs::remove_file(&checked).expect("rm");
    }
}

#[test]
fn regression_a_directory_deeper_than_path_max_gets_its_result() {
    // input, test and output 22 directories of 200 characters deep, run
    // with relative paths from there: the test's absolute path and the
    // temp file's were longer than PATH_MAX (exit 1, "File name too long")
    let dir = scratch();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).expect("mkdir");
    let sh =         "c=$(printf 'd%.0s' $(seq 200))\nfor i in $(seq 22); do mkdir $c && cd -P $c || exit 99; done\n\
         printf 'int a;\\nint needle;\\n' > bug.c\nprintf '#!/bin/sh\\ngrep -q needle \"$1\"\\n' > t.sh\nchmod +x t.sh\n\
         \"$HDD\" -q -t ./t.sh bug.c --stats-json s.json; echo \"exit $?\"\n\
         \"$HDD\" -q -t ./t.sh bug.c --in-place; echo \"exit $?\"\nls -A; cat bug.c bug.reduced.c";
    let out = run(std::process::Command::new("/bin/sh")
        .args(["-c", sh])
        .current_dir(dir.path())
        .env("HDD", env!("CARGO_BIN_EXE_hdd"))
        .env("TMPDIR", &tmp));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text,
        "exit 0\nexit 0\nbug.c\nbug.c.orig\nbug.reduced.c\ns.json\nt.sh\nneedle;\nneedle;\n",
        "{}",
        stderr(&out).replace(&"d".repeat(200), "D")
    );
    assert_eq!(entries(&tmp), Vec::<PathBuf>::new());
}

/// Runs the shell script `body` in a directory 22 directories of 200
/// characters below a scratch directory (an absolute path longer than
/// PATH_MAX), with `$HDD` the binary, `$C` the 200 characters, `$BASE`
/// the scratch directory and `$TMPDIR` the empty `$BASE/tmp`; returns its
/// stdout, and its stderr with `$C` shortened to `D`. Fails if `$BASE/tmp`
/// is not empty at the end.
fn deep_shell(body: &str) -> (String, String) {
    let dir = scratch();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).expect("mkdir");
    let c = "d".repeat(200);
    let sh = format!("for i in $(seq 22); do mkdir $C && cd -P $C || exit 99; done\n{body}");
    let out = run(std::process::Command::new("/bin/sh")
        .args(["-c", &sh])
        .current_dir(dir.path())
        .env("HDD", env!("CARGO_BIN_EXE_hdd"))
        .env("C", &c)
        .env("BASE", dir.path())
        .env("TMPDIR", &tmp));
    let err = stderr(&out).replace(&c, "D");
    assert_eq!(entries(&tmp), Vec::<PathBuf>::new(), "{err}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), err)
}

#[test]
fn regression_a_set_deeper_than_path_max_gets_its_result_directory() {
    // a directory (its file b.c 21 directories deeper still) and two files,
    // given by relative paths from a directory deeper than PATH_MAX: the
    // result directory's temp directory had an absolute path too long
    // (exit 1, "File name too long") and so had the files' (exit 2)
    let (out, err) = deep_shell(
        "mkdir src && printf 'int a;\\nint needle;\\n' > src/a.c\n\
         mkdir two && cp src/a.c two/ && printf 'int o;\\n' > two/o.c\n\
         (cd -P src && for i in $(seq 21); do mkdir $C && cd -P $C || exit 99; done && printf 'int b;\\nint keep;\\n' > b.c)\n\
         printf '#!/bin/sh\\ngrep -q needle \"$1\"/a.c && cd -P \"$1\" || exit 1\\nfor i in $(seq 21); do cd -P %s || exit 1; done\\ngrep -q keep b.c\\n' $C > t.sh\n\
         printf '#!/bin/sh\\ncat \"$@\" | grep -q needle\\n' > f.sh\nchmod +x t.sh f.sh\n\
         b() { (cd -P $1 && for i in $(seq 21); do cd -P $C; done && cat b.c); }\n\
         \"$HDD\" -q -t ./t.sh src; echo \"exit $?\"\n\
         \"$HDD\" -q -t ./t.sh src --in-place; echo \"exit $?\"\n\
         \"$HDD\" -q -t ./f.sh two/a.c two/o.c -o files; echo \"exit $?\"\n\
         ls -A . files; cat src.reduced/a.c src/a.c src.orig/a.c files/a.c; b src.reduced; b src; b src.orig",
    );
    assert_eq!(
        out,
        "exit 0\nexit 0\nexit 0\n.:\nf.sh\nfiles\nsrc\nsrc.orig\nsrc.reduced\nt.sh\ntwo\n\nfiles:\na.c\n\
         needle;\nneedle;\nint a;\nint needle;\nneedle;\nkeep;\nkeep;\nint b;\nint keep;\n",
        "{err}"
    );
}

#[test]
fn regression_a_work_dir_deeper_than_path_max_holds_the_runs() {
    // --work-dir and $TMPDIR deeper than PATH_MAX: the session directory
    // could not be made (exit 1, "File name too long"). The test still
    // gets an absolute path of its candidate, in its working directory,
    // and a TMPDIR it can write; a Ctrl-C leaves nothing in the work dir
    let (out, err) = deep_shell(
        "printf 'int a;\\nint needle;\\n' > bug.c && mkdir wd tmp\n\
         printf '#!/bin/sh\\ncase \"$1\" in /*/bug.c) ;; *) exit 11;; esac\\n[ \"$1\" -ef bug.c ] || exit 12\\n\
         t=$(mktemp) && [ \"${t%%/*}\" -ef ../tmp ] && rm \"$t\" || exit 13\\ngrep -q needle \"$1\"\\n' > t.sh\n\
         printf '#!/bin/sh\\ngrep -q needle \"$1\" || exit 1\\n[ -e \"$BASE/go\" ] && sleep 30\\ntouch \"$BASE/go\"\\n' > slow.sh\n\
         chmod +x t.sh slow.sh\n\
         \"$HDD\" -q -t ./t.sh bug.c --work-dir wd; echo \"exit $?\"; ls -A wd\n\
         TMPDIR=$PWD/tmp \"$HDD\" -q -t ./t.sh bug.c -o two.c; echo \"exit $?\"; ls -A tmp\n\
         \"$HDD\" -q -t ./slow.sh bug.c --work-dir wd -o three.c -j1 & pid=$!\n\
         for i in $(seq 300); do [ -e \"$BASE/go\" ] && break; sleep 0.1; done; sleep 1; kill -INT $pid; wait $pid; echo \"exit $?\"\n\
         ls -A wd; cat bug.reduced.c two.c three.c",
    );
    assert_eq!(out, "exit 0\nexit 0\nexit 130\nneedle;\nneedle;\nint a;\nint needle;\n", "{err}");
}

#[test]
fn regression_deeper_than_path_max_the_input_and_the_test_are_not_outputs() {
    // realpath fails that deep, and hdd took `-o bug.c` and `-o t.sh` for
    // other files than the input and the test: it overwrote both (exit 0);
    // nor did it refuse a result directory inside its input
    let (out, err) = deep_shell(
        "printf 'int a;\\nint needle;\\n' > bug.c && mkdir src && cp bug.c src/\n\
         printf '#!/bin/sh\\ngrep -q needle \"$1\" || grep -q needle \"$1\"/bug.c\\n' > t.sh\n\
         chmod +x t.sh && cp t.sh t.orig\n\
         \"$HDD\" -q -t ./t.sh bug.c -o bug.c; echo \"exit $?\"\n\
         \"$HDD\" -q -t ./t.sh bug.c -o t.sh; echo \"exit $?\"\n\
         \"$HDD\" -q -t ./t.sh src -o src/out; echo \"exit $?\"\n\
         ls -A . src; cat bug.c; cmp t.sh t.orig && echo same",
    );
    assert_eq!(
        out,
        "exit 2\nexit 2\nexit 2\n.:\nbug.c\nsrc\nt.orig\nt.sh\n\nsrc:\nbug.c\nint a;\nint needle;\nsame\n",
        "{err}"
    );
    for refusal in ["is the input", "is the test script", "is inside the input"] {
        assert!(err.contains(refusal), "{err}");
    }
}

#[test]
fn regression_a_run_killed_with_kill_9_leaves_no_test_process_behind() {
    // hdd ends its tests' whole trees when it stops, but a run killed with
    // kill -9 runs no code of its own: only its watchdog ends the script and
    // the program the script waited for (a compiler; here sleep), which ran
    // on to its end before the watchdog came (a parent-death signal reached
    // the script alone)
    let dir = scratch();
    let input = dir.path().join("bug.c");
    fs::write(&input, many_lines()).expect("write");
    let pids = dir.path().join("pids");
    let test = script(
        &dir.path().join("t.sh"),
        &format!("echo $$ >> {p}\nsleep 60 &\necho $! >> {p}\nwait", p = pids.display()),
    );
    let mut child = hdd().arg("-t").arg(&test).arg(&input).arg("-q").spawn().expect("spawn");
    wait_for("a test and its program", Duration::from_secs(20), || {
        fs::read_to_string(&pids).is_ok_and(|t| t.lines().count() >= 2)
    });
    child.kill().expect("kill -9");
    child.wait().expect("wait");
    wait_for("no test process", Duration::from_secs(10), || survivors(&pids).is_empty());
}
