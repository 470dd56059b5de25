//! Running the user's test: the contract a script relies on, timeouts that
//! kill whole process groups, chatty tests, and Ctrl-C.

use std::fs;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::{hdd, run, scratch, script, stderr};

/// A test body that needs "needle" and every tenth item: a long reduction.
const NEEDS_EVERY_TENTH: &str = "grep -q needle \"$1\" || exit 1\nfor i in 0 10 20 30 40 50 60 70 80 90 100 110 120 130 140 150 160 170 180 190; do grep -q \"\\\"item$i\\\"\" \"$1\" || exit 1; done";

const JSON: &str = "[\"needle\", \"hay\", {\"a\": [1, 2, 3]}, \"hang\", \"more hay\"]\n";

fn alive(pid: i32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
        && fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
}

#[test]
fn the_test_runs_in_a_private_directory_with_the_candidate_under_the_input_name() {
    let dir = scratch();
    let input = dir.path().join("data.json");
    fs::write(&input, JSON).expect("write");
    let log = dir.path().join("log");
    let test = script(
        &dir.path().join("t.sh"),
        &format!(
            "{{ echo \"arg=$1\"; echo \"pwd=$(pwd)\"; echo \"tmp=$TMPDIR\"; ls; [ -d \"$TMPDIR\" ] && echo tmp-exists; }} >> {}\ngrep -q needle data.json",
            log.display()
        ),
    );
    let out = run(hdd().arg("-t").arg(&test).arg(&input).arg("-j1"));
    assert!(out.status.success(), "{}", stderr(&out));
    let log = fs::read_to_string(&log).expect("log");
    let first: Vec<&str> = log.lines().take(5).collect();
    let arg = first[0].strip_prefix("arg=").expect("arg");
    let pwd = first[1].strip_prefix("pwd=").expect("pwd");
    let tmp = first[2].strip_prefix("tmp=").expect("tmp");
    assert!(arg.starts_with('/'), "{arg}");
    assert_eq!(arg, format!("{pwd}/data.json"));
    assert_eq!(first[3], "data.json", "the directory holds only the candidate: {log}");
    assert_eq!(first[4], "tmp-exists");
    assert!(
        !tmp.starts_with(pwd) && !pwd.starts_with(dir.path().to_str().expect("utf-8")),
        "{log}"
    );
    // every run got its own directory, and none is left behind
    assert!(!Path::new(pwd).exists());
    assert!(!Path::new(tmp).exists());
}

#[test]
fn a_test_that_hangs_is_killed_with_its_whole_process_group() {
    let dir = scratch();
    let input = dir.path().join("data.json");
    fs::write(&input, JSON).expect("write");
    let pids = dir.path().join("pids");
    let test = script(
        &dir.path().join("t.sh"),
        &format!(
            "if grep -q needle \"$1\"; then exit 0; fi\nif grep -q hang \"$1\"; then sleep 60 & echo $! >> {}; sleep 60; fi\nexit 1",
            pids.display()
        ),
    );
    let started = Instant::now();
    let out = run(hdd().arg("-t").arg(&test).arg(&input).args(["--timeout", "300ms", "-j2"]));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(started.elapsed() < Duration::from_secs(30), "timeouts were not enforced");
    let pids = fs::read_to_string(&pids).unwrap_or_default();
    for pid in pids.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
        assert!(!alive(pid), "background process {pid} of a timed-out test survived");
    }
    let result = fs::read_to_string(dir.path().join("data.reduced.json")).expect("result");
    assert!(result.contains("needle"), "{result}");
}

#[test]
fn a_chatty_test_does_not_block() {
    let dir = scratch();
    let input = dir.path().join("data.json");
    fs::write(&input, JSON).expect("write");
    let test = script(
        &dir.path().join("t.sh"),
        "head -c 3000000 /dev/zero | tr '\\0' x\nhead -c 3000000 /dev/zero | tr '\\0' y >&2\ngrep -q needle \"$1\"",
    );
    let out = run(hdd().arg("-t").arg(&test).arg(&input).args(["--timeout", "20s"]));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(dir.path().join("data.reduced.json")).expect("result"),
        "\"needle\""
    );
}

#[test]
fn ctrl_c_keeps_the_best_result_cleans_up_and_exits_130() {
    let dir = scratch();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).expect("mkdir");
    let input = dir.path().join("data.json");
    let items: Vec<String> = (0..200).map(|i| format!("\"item{i}\"")).collect();
    fs::write(&input, format!("[{}, \"needle\"]\n", items.join(", "))).expect("write");
    let pids = dir.path().join("pids");
    // slow enough that the reduction is still running when Ctrl-C comes
    let test = script(
        &dir.path().join("t.sh"),
        &format!("echo $$ >> {}\nsleep 0.2\n{NEEDS_EVERY_TENTH}", pids.display()),
    );
    let mut child = hdd()
        .arg("-t")
        .arg(&test)
        .arg(&input)
        .args(["-j2"])
        .env("TMPDIR", &tmp)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    // Ctrl-C once a first result is saved, while tests are in flight (on a
    // loaded machine that can take a while: wait for it, not a fixed time)
    let output = dir.path().join("data.reduced.json");
    let input_len = fs::metadata(&input).expect("input").len();
    let waiting = Instant::now();
    while !fs::metadata(&output).is_ok_and(|m| m.len() < input_len) {
        assert!(waiting.elapsed() < Duration::from_secs(60), "no result saved in 60 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let stopped = Instant::now();
    let status = child.wait().expect("wait");
    assert!(stopped.elapsed() < Duration::from_secs(3), "took {:?} to stop", stopped.elapsed());
    assert_eq!(status.code(), Some(130));
    let result = fs::read_to_string(dir.path().join("data.reduced.json")).expect("result");
    assert!(result.contains("needle"), "{result}");
    assert!((result.len() as u64) < input_len);
    let left: Vec<_> = fs::read_dir(&tmp).expect("tmp").collect();
    assert!(left.is_empty(), "temporary files left behind: {left:?}");
    std::thread::sleep(Duration::from_millis(100));
    for pid in fs::read_to_string(&pids)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse::<i32>().ok())
    {
        assert!(!alive(pid), "test process {pid} outlived hdd");
    }
}

#[test]
fn max_time_ends_the_run_with_the_best_so_far_and_exit_0() {
    let dir = scratch();
    let input = dir.path().join("data.json");
    let items: Vec<String> = (0..200).map(|i| format!("\"item{i}\"")).collect();
    fs::write(&input, format!("[{}, \"needle\"]\n", items.join(", "))).expect("write");
    let test = script(&dir.path().join("t.sh"), &format!("sleep 0.2\n{NEEDS_EVERY_TENTH}"));
    let started = Instant::now();
    let out = run(hdd().arg("-t").arg(&test).arg(&input).args(["-j2", "--max-time", "2s"]));
    assert!(started.elapsed() < Duration::from_secs(6), "took {:?}", started.elapsed());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("stopped by --max-time"), "{}", stderr(&out));
    let result = fs::read_to_string(dir.path().join("data.reduced.json")).expect("result");
    assert!(result.contains("needle"), "{result}");
}

#[test]
fn regression_a_failing_test_that_prints_without_end_costs_bounded_memory() {
    // its output used to be read whole: gigabytes for `exec yes` until the
    // timeout (983 MB after 3 s). Under a 400 MB address-space limit the
    // read failed and the user saw none of it.
    let dir = scratch();
    let input = dir.path().join("data.json");
    fs::write(&input, JSON).expect("write");
    let test = script(&dir.path().join("t.sh"), "exec yes 'a line the test prints forever'");
    let out = run(std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 400000 && exec \"$@\"")
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_hdd"))
        .arg("-t")
        .arg(&test)
        .arg(&input)
        .args(["--timeout", "3s"]));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    let shown: Vec<&str> = err.lines().filter(|l| l.starts_with("  | ")).collect();
    assert!(shown.len() <= 10 && shown.iter().all(|l| l.len() < 260), "{err}");
    assert!(shown.iter().any(|l| l.contains("a line the test prints forever")), "{err}");
}

#[test]
fn regression_sigterm_and_sighup_during_the_check_of_the_original_exit_143_and_129() {
    for (signal, code) in [(libc::SIGTERM, 143), (libc::SIGHUP, 129), (libc::SIGINT, 130)] {
        let dir = scratch();
        let input = dir.path().join("data.json");
        fs::write(&input, JSON).expect("write");
        let started = dir.path().join("started");
        let test = script(
            &dir.path().join("t.sh"),
            &format!("touch {}\nsleep 10\ngrep -q needle \"$1\"", started.display()),
        );
        let mut child =
            hdd().arg("-t").arg(&test).arg(&input).stderr(Stdio::piped()).spawn().expect("spawn");
        let waiting = Instant::now();
        while !started.exists() {
            assert!(waiting.elapsed() < Duration::from_secs(30), "the test never started");
            std::thread::sleep(Duration::from_millis(20));
        }
        // SAFETY: sending a signal to our own child.
        unsafe { libc::kill(child.id() as i32, signal) };
        let status = child.wait().expect("wait");
        assert_eq!(status.code(), Some(code), "signal {signal}");
    }
}

#[test]
fn regression_a_test_that_passes_only_once_is_flaky_even_when_nothing_could_be_removed() {
    let dir = scratch();
    let input = dir.path().join("one.json");
    fs::write(&input, "\"x\"\n").expect("write");
    let once = dir.path().join("once");
    let test = script(
        &dir.path().join("t.sh"),
        &format!("[ -e {0} ] && exit 1\ntouch {0}", once.display()),
    );
    let out = run(hdd().arg("-t").arg(&test).arg(&input));
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(stderr(&out).contains("flaky"), "{}", stderr(&out));
}
