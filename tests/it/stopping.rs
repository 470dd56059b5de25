//! Stopping on time: `--max-time` and signals end a run within about a
//! second whatever it is doing, and leave nothing of it running.

use std::fs;
use std::time::{Duration, Instant};

use crate::{hdd, scratch, script};

#[test]
fn regression_a_formatter_that_hangs_is_stopped_by_max_time_with_what_it_started() {
    let dir = scratch();
    let bin = dir.path().join("bin");
    fs::create_dir_all(&bin).expect("mkdir");
    let pids = dir.path().join("pids");
    // a clang-format that starts a child holding its output open, then hangs
    script(&bin.join("clang-format"), &format!("sleep 300 & echo $! >> {}\nwait", pids.display()));
    let input = dir.path().join("bug.c");
    fs::write(&input, "int main(void) {\n  int needle = 1;\n  return needle;\n}\n").expect("write");
    let test = script(&dir.path().join("t.sh"), "grep -q needle \"$1\"");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let began = Instant::now();
    let mut child = hdd()
        .arg("-t")
        .arg(&test)
        .arg(&input)
        .args(["--format", "--max-time", "3s", "-j1", "-q"])
        .env("PATH", path)
        .spawn()
        .expect("spawn");
    let mut status = None;
    while status.is_none() && began.elapsed() < Duration::from_secs(60) {
        status = child.try_wait().expect("wait");
        std::thread::sleep(Duration::from_millis(50));
    }
    if status.is_none() {
        let _ = child.kill();
    }
    let _ = child.wait();
    assert!(status.is_some_and(|s| s.success()), "still running after 60 s: {status:?}");
    assert!(began.elapsed() < Duration::from_secs(15), "stopped after {:?}", began.elapsed());
    assert!(dir.path().join("bug.reduced.c").is_file());
    for pid in fs::read_to_string(&pids).unwrap_or_default().split_whitespace() {
        let pid: i32 = pid.parse().expect("pid");
        // SAFETY: signal 0 only checks that the process exists
        let alive = unsafe { libc::kill(pid, 0) == 0 };
        assert!(!alive, "the formatter's child {pid} outlived the run");
    }
}

#[test]
fn regression_a_daemon_that_clears_its_environment_does_not_outlive_the_run() {
    let dir = scratch();
    let input = dir.path().join("bug.c");
    fs::write(&input, "int main(void) {\n  int needle = 1;\n  return needle;\n}\n").expect("write");
    let pids = dir.path().join("pids");
    // as `sudo` would: a new session and no environment, so no mark
    let test = script(
        &dir.path().join("t.sh"),
        &format!(
            "env -i PATH=\"$PATH\" setsid sh -c 'sleep 300 & echo $! >> {}'\ngrep -q needle \"$1\"",
            pids.display()
        ),
    );
    let out = crate::run(hdd().arg("-t").arg(&test).arg(&input).args(["-j2", "-q"]));
    assert!(out.status.success(), "{}", crate::stderr(&out));
    let started: Vec<i32> = fs::read_to_string(&pids)
        .expect("the test ran")
        .split_whitespace()
        .map(|p| p.parse().expect("pid"))
        .collect();
    assert!(!started.is_empty());
    std::thread::sleep(Duration::from_millis(200));
    // SAFETY: signal 0 only checks that the process exists
    let alive: Vec<i32> =
        started.into_iter().filter(|&pid| unsafe { libc::kill(pid, 0) } == 0).collect();
    for pid in &alive {
        // SAFETY: ending what the failed check left, so the suite leaves nothing either
        unsafe { libc::kill(*pid, libc::SIGKILL) };
    }
    assert!(alive.is_empty(), "left running after the run: {alive:?}");
}

#[test]
fn regression_a_deeply_nested_input_ends_by_max_time() {
    let dir = scratch();
    let depth = 100_000;
    let input = dir.path().join("deep.json");
    let text = format!("{}\"MARKER\"{}", "[".repeat(depth), "]".repeat(depth));
    fs::write(&input, text).expect("write");
    let test = script(&dir.path().join("t.sh"), "grep -q MARKER \"$1\"");
    let began = Instant::now();
    let mut child = hdd()
        .arg("-t")
        .arg(&test)
        .arg(&input)
        .args(["--max-time", "10s", "-j2", "-q"])
        .spawn()
        .expect("spawn");
    let mut status = None;
    while status.is_none() && began.elapsed() < Duration::from_secs(120) {
        status = child.try_wait().expect("wait");
        std::thread::sleep(Duration::from_millis(50));
    }
    if status.is_none() {
        let _ = child.kill();
    }
    let _ = child.wait();
    assert!(status.is_some_and(|s| s.success()), "still running after 120 s: {status:?}");
    // the limit, and a little for the final re-check and the write
    assert!(began.elapsed() < Duration::from_secs(20), "ended after {:?}", began.elapsed());
    let result = fs::read_to_string(dir.path().join("deep.reduced.json")).expect("result");
    assert!(result.contains("MARKER"), "{}", &result[..result.len().min(80)]);
}
