//! Directory inputs as users hand them over: named with a trailing slash
//! or as `.`, holding symbolic links (to files and directories, inside and
//! outside), and FIFOs beside the files.

use std::fs;
use std::os::unix::fs::{symlink, FileTypeExt};
use std::path::Path;

use crate::{hdd, run, scratch, script, stderr};

/// `proj/main.c` with a needle among other lines, and a test for it.
fn project(dir: &Path) -> std::path::PathBuf {
    let proj = dir.join("proj");
    fs::create_dir_all(&proj).expect("mkdir");
    let text: String = (0..10).map(|i| format!("int v{i} = {i};\n")).collect();
    fs::write(proj.join("main.c"), text + "int needle;\n").expect("write");
    script(&dir.join("t.sh"), "grep -q needle main.c")
}

#[test]
fn regression_a_directory_named_with_a_trailing_slash_or_as_dot_gets_its_result_beside_it() {
    let dir = scratch();
    let test = project(dir.path());
    let out = run(hdd().current_dir(dir.path()).arg("-t").arg(&test).arg("proj/").arg("-j1"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.path().join("proj.reduced/main.c").is_file());
    fs::remove_dir_all(dir.path().join("proj.reduced")).expect("rm");
    let out =
        run(hdd().current_dir(dir.path().join("proj")).arg("-t").arg(&test).arg(".").arg("-j1"));
    assert!(out.status.success(), "{}", stderr(&out));
    let result = fs::read_to_string(dir.path().join("proj.reduced/main.c")).expect("result");
    assert!(result.contains("needle") && result.len() < 30, "{result:?}");
}

#[test]
fn regression_symbolic_links_stay_links_in_the_test_s_copy_the_result_and_the_backup() {
    let dir = scratch();
    let proj = dir.path().join("proj");
    let test = project(dir.path());
    // a directory outside, linked in; a secret file outside, linked in
    let shared = dir.path().join("shared");
    fs::create_dir_all(&shared).expect("mkdir");
    fs::write(shared.join("word"), "needle\n").expect("write");
    fs::write(dir.path().join("secret"), "do not copy me\n").expect("write");
    symlink(&shared, proj.join("inc")).expect("link a directory");
    symlink(dir.path().join("secret"), proj.join("key")).expect("link a file");
    let test = script(&test, "test -L inc && test -L key && grep -q \"$(cat inc/word)\" main.c");
    let out = run(hdd().arg("-t").arg(&test).arg(&proj).arg("-j1"));
    assert!(out.status.success(), "{}", stderr(&out));
    let result = dir.path().join("proj.reduced");
    assert_eq!(fs::read_link(result.join("inc")).expect("a link"), shared);
    assert_eq!(fs::read_link(result.join("key")).expect("a link"), dir.path().join("secret"));
    // in place: the backup holds the links, not what they point to
    let out = run(hdd().arg("-t").arg(&test).arg(&proj).args(["--in-place", "-j1"]));
    assert!(out.status.success(), "{}", stderr(&out));
    let backup = dir.path().join("proj.orig");
    assert_eq!(fs::read_link(backup.join("key")).expect("a link"), dir.path().join("secret"));
    assert_eq!(fs::read_link(backup.join("inc")).expect("a link"), shared);
    assert_eq!(fs::read_link(proj.join("key")).expect("a link"), dir.path().join("secret"));
    assert_eq!(fs::read_to_string(dir.path().join("secret")).expect("secret"), "do not copy me\n");
}

#[test]
fn regression_in_place_on_a_directory_holding_a_fifo_does_not_hang() {
    let dir = scratch();
    let proj = dir.path().join("proj");
    let test = project(dir.path());
    let fifo = proj.join("pipe");
    let c = std::ffi::CString::new(fifo.to_str().expect("utf-8")).expect("path");
    // SAFETY: a valid NUL-terminated path
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let mut child = hdd()
        .arg("-t")
        .arg(&test)
        .arg(&proj)
        .args(["--in-place", "-j1", "-q"])
        .stdin(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let mut status = None;
    let done = std::time::Instant::now();
    while status.is_none() && done.elapsed() < std::time::Duration::from_secs(120) {
        status = child.try_wait().expect("wait");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    if status.is_none() {
        let _ = child.kill();
    }
    let _ = child.wait();
    assert!(status.is_some_and(|s| s.success()), "hung or failed: {status:?}");
    let kept = fs::symlink_metadata(dir.path().join("proj.orig/pipe")).expect("in the backup");
    assert!(kept.file_type().is_fifo());
    let result = fs::read_to_string(proj.join("main.c")).expect("result");
    assert!(result.contains("needle") && result.len() < 30, "{result:?}");
}

#[test]
fn regression_a_set_s_copy_is_kept_between_tests_only_as_hdd_made_it() {
    // each test used to get its whole copy written anew (and removed after
    // it), which cost far more than a quick test on hundreds of files; now
    // a file that did not change stays, so its inode and time stay too.
    // Whatever a test does to its copy must still never reach the next.
    let dir = scratch();
    let proj = dir.path().join("proj");
    fs::create_dir_all(proj.join("sub")).expect("mkdir");
    let text: String = (0..10).map(|i| format!("int v{i} = {i};\n")).collect();
    fs::write(proj.join("main.c"), text.clone() + "int needle;\n").expect("write");
    fs::write(proj.join("sub/b.c"), &text).expect("write");
    fs::write(proj.join("same.bin"), b"\0never changes\n").expect("write");
    fs::write(proj.join("spoilt.bin"), b"\0spoilt by each test\n").expect("write");
    let sentinel = dir.path().join("sentinel");
    fs::write(&sentinel, "outside\n").expect("write");
    let (log, seen) = (dir.path().join("log"), dir.path().join("seen"));
    let test = script(
        &dir.path().join("t.sh"),
        &format!(
            "log={log}\n\
             [ -e a.out ] && echo 'a.out left' >> $log\n\
             [ -L sub/b.c ] && echo 'a link left' >> $log\n\
             [ -e sub/obj ] && echo 'a directory left' >> $log\n\
             cmp -s spoilt.bin {orig}/spoilt.bin || echo 'spoilt.bin kept' >> $log\n\
             [ ! -d sub ] || [ \"$(stat -c %a sub)\" = \"$(stat -c %a {orig}/sub)\" ] || echo 'a mode kept' >> $log\n\
             stat -c '%i %y' same.bin >> {seen}\n\
             echo junk >> spoilt.bin; touch a.out; mkdir -p sub/obj; chmod 700 sub\n\
             rm -f sub/b.c; ln -s {sentinel} sub/b.c\n\
             grep -q needle main.c",
            log = log.display(),
            orig = proj.display(),
            seen = seen.display(),
            sentinel = sentinel.display()
        ),
    );
    // -j 1: one run directory, reused by every test (at the end, a file
    // the test does not need is left out, sub/b.c and its directory too)
    let out = run(hdd().arg("-t").arg(&test).arg(&proj).args(["-j1", "-q"]));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(&log).unwrap_or_default(),
        "",
        "what a test left reached the next"
    );
    assert_eq!(
        fs::read_to_string(&sentinel).expect("sentinel"),
        "outside\n",
        "written through a link"
    );
    let seen = fs::read_to_string(&seen).expect("the tests ran");
    let mut stamps: Vec<&str> = seen.lines().collect();
    let tests = stamps.len();
    stamps.dedup();
    assert!(tests > 3, "too few tests: {tests}");
    assert_eq!(stamps.len(), 1, "a file no candidate changes was written again: {seen}");
    let result = fs::read_to_string(dir.path().join("proj.reduced/main.c")).expect("result");
    assert!(result.contains("needle") && result.len() < 30, "{result:?}");
}

#[test]
fn regression_a_set_s_files_keep_their_permission_bits_in_the_test_s_copy_and_the_result() {
    // a script of the input directory that the test runs lost its execute
    // bit in the test's copy, so the original was not interesting (exit 3);
    // each file now keeps its permission bits, a read-only one too (written
    // again between tests), in the copy, the result and the in-place one
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch();
    let proj = dir.path().join("proj");
    fs::create_dir_all(proj.join("sub")).expect("mkdir");
    let text: String = (0..10).map(|i| format!("int v{i} = {i};\n")).collect();
    fs::write(proj.join("main.c"), text.clone() + "int needle;\n").expect("write");
    fs::write(proj.join("sub/ro.c"), &text).expect("write");
    fs::write(proj.join("private.c"), &text).expect("write");
    fs::write(proj.join("check.sh"), "#!/bin/sh\ngrep -q needle main.c\n").expect("write");
    let modes = [("check.sh", 0o750), ("sub/ro.c", 0o444), ("private.c", 0o600), ("main.c", 0o664)];
    for (rel, mode) in modes {
        fs::set_permissions(proj.join(rel), fs::Permissions::from_mode(mode)).expect("chmod");
    }
    let log = dir.path().join("modes");
    let test = script(
        &dir.path().join("t.sh"),
        &format!(
            "stat -c '%n %a' check.sh sub/ro.c private.c main.c >> '{}'\n./check.sh && grep -q needle main.c",
            log.display()
        ),
    );
    let mode_of =
        |path: &Path| fs::symlink_metadata(path).expect("stat").permissions().mode() & 0o777;
    for in_place in [false, true] {
        let mut cmd = hdd();
        cmd.arg("-t").arg(&test).arg(&proj).args(["-j1", "-q"]);
        if in_place {
            cmd.arg("--in-place");
        }
        let out = run(&mut cmd);
        assert!(out.status.success(), "{}", stderr(&out));
        let seen = fs::read_to_string(&log).expect("the tests ran");
        let wrong: Vec<&str> = seen
            .lines()
            .filter(|l| {
                !["check.sh 750", "sub/ro.c 444", "private.c 600", "main.c 664"].contains(l)
            })
            .collect();
        assert!(wrong.is_empty(), "modes in the test's copy: {wrong:?}");
        let result = if in_place { proj.clone() } else { dir.path().join("proj.reduced") };
        let got = fs::read_to_string(result.join("main.c")).expect("result");
        assert!(got.contains("needle") && got.len() < 30, "{got:?}");
        for (rel, mode) in modes {
            let path = result.join(rel);
            if path.exists() {
                assert_eq!(mode_of(&path), mode, "{rel} in {}", result.display());
            }
        }
        assert_eq!(mode_of(&result.join("check.sh")), 0o750);
    }
    for (rel, mode) in modes {
        assert_eq!(mode_of(&dir.path().join("proj.orig").join(rel)), mode, "{rel} in the backup");
    }
}

#[test]
fn regression_an_input_whose_name_leaves_no_room_for_reduced_is_refused_before_the_test_runs() {
    // a directory (or a file) of 250 bytes of name: its default output
    // `NAME.reduced` is longer than a name may be (255 bytes), and hdd
    // failed with exit 1 after the test had run on the original; now the
    // name is refused first, exit 2, and `--in-place` (`NAME.orig` fits)
    // works
    let dir = scratch();
    let name = "p".repeat(250);
    let proj = dir.path().join(&name);
    fs::create_dir_all(&proj).expect("mkdir");
    fs::write(proj.join("main.c"), "int v;\nint needle;\n").expect("write");
    let file = dir.path().join(format!("{}.c", "f".repeat(248)));
    fs::write(&file, "int v;\nint needle;\n").expect("write");
    let ran = dir.path().join("ran");
    let test = script(
        &dir.path().join("t.sh"),
        &format!("touch '{}'\ngrep -rq needle \"$1\"", ran.display()),
    );
    for input in [&proj, &file] {
        let out = run(hdd().arg("-t").arg(&test).arg(input).args(["-j1", "-q"]));
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("its name is longer than 255 bytes"), "{err}");
        assert!(!ran.exists(), "the test ran before the name was refused");
    }
    let out = run(hdd().arg("-t").arg(&test).arg(&proj).args(["-j1", "-q", "--in-place"]));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.path().join(format!("{name}.orig")).is_dir());
}

#[test]
fn regression_in_place_on_a_directory_given_by_a_symbolic_link_replaces_the_link() {
    // `hdd --in-place proj` with `proj -> real`: the result's rename met
    // the link, not a directory, and failed with exit 1 after the backup
    // was made (which then blocked the next run); now the link is replaced
    // by the result, as a file's link is, and `real` stays as it was
    let dir = scratch();
    let test = project(dir.path());
    fs::rename(dir.path().join("proj"), dir.path().join("real")).expect("mv");
    symlink("real", dir.path().join("proj")).expect("link");
    let before = fs::read(dir.path().join("real/main.c")).expect("read");
    let out = run(hdd().arg("-t").arg(&test).arg(dir.path().join("proj")).args([
        "--in-place",
        "-j1",
        "-q",
    ]));
    assert!(out.status.success(), "{}", stderr(&out));
    let proj = fs::symlink_metadata(dir.path().join("proj")).expect("stat");
    assert!(proj.is_dir(), "the link is not replaced by the result");
    let result = fs::read_to_string(dir.path().join("proj/main.c")).expect("result");
    assert!(result.contains("needle") && result.len() < 30, "{result:?}");
    assert_eq!(fs::read(dir.path().join("real/main.c")).expect("real"), before);
    assert_eq!(fs::read(dir.path().join("proj.orig/main.c")).expect("backup"), before);
    let mut names: Vec<_> = fs::read_dir(dir.path())
        .expect("ls")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["proj", "proj.orig", "real", "t.sh"]);
}

#[test]
fn regression_a_set_s_output_that_exists_and_is_not_a_directory_is_refused_before_the_test_runs() {
    // `hdd proj -o FILE` with FILE a regular file (or a link): the result's
    // rename failed with exit 1 after the test had run; now exit 2 first,
    // and FILE is left as it was
    let dir = scratch();
    let test = project(dir.path());
    let ran = dir.path().join("ran");
    let test = script(&test, &format!("touch '{}'\ngrep -q needle main.c", ran.display()));
    let file = dir.path().join("out");
    fs::write(&file, "mine\n").expect("write");
    let link = dir.path().join("out-link");
    symlink("proj", &link).expect("link");
    for output in [&file, &link] {
        let out =
            run(hdd().arg("-t").arg(&test).arg(dir.path().join("proj")).arg("-o").arg(output));
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!ran.exists(), "the test ran before the output was refused");
    }
    assert_eq!(fs::read_to_string(&file).expect("out"), "mine\n");
    assert_eq!(fs::read_link(&link).expect("a link"), Path::new("proj"));
}
