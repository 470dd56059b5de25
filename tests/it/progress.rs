//! What a user sees on a terminal: the real binary with its stderr on a
//! pseudo-terminal of 80 columns (`openpty`), a slow test, and the
//! progress line read back from the terminal's output.

use std::fs;
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::Stdio;

use crate::{hdd, scratch, script};

const C_INPUT: &str = "#include <stdio.h>\n\nstatic int unused(int a) { return a; }\n\nint main(void) {\n    int x = 1;\n    puts(\"needle\");\n    return x;\n}\n";

/// The terminal's width.
const COLUMNS: u16 = 80;

/// The spinner's frames.
const SPINNER: &str = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";

/// A pseudo-terminal of `COLUMNS` columns: its master and its slave.
fn pty() -> (fs::File, OwnedFd) {
    let (mut master, mut slave) = (-1, -1);
    let size = libc::winsize { ws_row: 24, ws_col: COLUMNS, ws_xpixel: 0, ws_ypixel: 0 };
    // SAFETY: openpty writes two descriptors it opened into the integers
    // given; no name buffer, default terminal settings
    let r = unsafe {
        libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), &size)
    };
    assert_eq!(r, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened for us, and are owned once
    unsafe { (fs::File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

/// What the terminal shows as lines: the output cut at carriage returns
/// and line feeds, with escape sequences (cursor moves, clearing) left
/// out, and blank lines dropped.
fn drawn_lines(output: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(output);
    let mut plain = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // CSI: ESC [ parameters, then a final byte in @..~
            if chars.next_if_eq(&'[').is_some() {
                while chars.next().is_some_and(|c| !('@'..='~').contains(&c)) {}
            }
            continue;
        }
        plain.push(c);
    }
    plain.split(['\r', '\n']).filter(|l| !l.trim().is_empty()).map(str::to_string).collect()
}

/// hdd on a small C file with a test that sleeps a second, its stderr on
/// the pty, stopped by `--max-time`: the lines the terminal showed.
fn run_on_a_terminal() -> Vec<String> {
    let dir = scratch();
    let input = dir.path().join("bug.c");
    fs::write(&input, C_INPUT).expect("write input");
    let test = script(&dir.path().join("t.sh"), "sleep 1\ngrep -q needle \"$1\"");
    let (mut master, slave) = pty();
    let mut child = hdd()
        .arg("-t")
        .arg(&test)
        .arg(&input)
        .args(["-j1", "--max-time", "4s"])
        .env("TERM", "xterm")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(slave))
        .spawn()
        .expect("run hdd");
    // the terminal's output read as it comes (a full pty would block
    // hdd); the read ends (EIO) when hdd, the slave's last holder, exits
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let mut buf = [0; 4096];
        while let Ok(n @ 1..) = master.read(&mut buf) {
            out.extend_from_slice(&buf[..n]);
        }
        out
    });
    let status = child.wait().expect("wait");
    let output = reader.join().expect("reader");
    let lines = drawn_lines(&output);
    assert!(status.success(), "{status}: {lines:#?}");
    lines
}

#[test]
fn the_progress_line_moves_while_a_test_runs_and_fits_the_terminal() {
    let lines = run_on_a_terminal();
    // each draw of the progress line, from its spinner on (a message
    // printed above it is padded to whole rows, and the line follows)
    let progress: Vec<&str> =
        lines.iter().filter_map(|l| l.find(|c| SPINNER.contains(c)).map(|at| &l[at..])).collect();
    // a redraw between two tests: the same figures, another spinner frame
    // or time (a line redrawn only when a test ends never moves)
    let moved = progress.windows(2).any(|w| {
        let (a, b) =
            (w[0].split_once(' ').expect("spinner"), w[1].split_once(' ').expect("spinner"));
        let (a_time, a_msg) = a.1.split_once(' ').expect("time");
        let (b_time, b_msg) = b.1.split_once(' ').expect("time");
        a_msg == b_msg && (a.0 != b.0 || a_time != b_time)
    });
    assert!(moved, "no redraw while a test ran: {progress:#?}");
    for line in &progress {
        let width = line.chars().count();
        assert!(width <= usize::from(COLUMNS), "{width} columns: {line:?}");
    }
    // where the run is: the pass, its level out of how many, the sizes
    let at = progress.iter().find(|l| l.contains("hdd level 1/")).expect("a level");
    assert!(at.contains(" B of 128 · "), "{at}");
}
