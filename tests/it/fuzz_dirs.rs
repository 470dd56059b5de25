//! Fuzzing directory inputs: random trees of files reduced by the real
//! binary with a real oracle (`grep -r`), deterministic from a seed.
//!
//! A round builds one directory: nested directories; text files (one holds
//! the oracle's word) and binary ones, with random permission bits;
//! symbolic links to files and directories inside and outside the tree,
//! dangling ones and a loop; FIFOs; and hostile names (spaces, newlines,
//! leading dashes, shell characters, bytes that are not UTF-8, names of
//! `NAME_MAX` bytes), the input directory's own name included. Sometimes it
//! holds no text file at all, and sometimes hdd is given a link to it.
//! hdd then reduces it three times: plainly,
//! stopped by `--max-time`, and `--in-place`. After each run it checks what
//! a user relies on:
//!
//! - no panic; the exit code the README documents (0, or 2 with one error
//!   line for a directory without text or an output name too long, 3
//!   with one when the test fails on the original);
//! - the input untouched, byte for byte, mode for mode and link for link
//!   (without `--in-place`), and nothing outside it written (through a
//!   link);
//! - the result: files of the input with its permission bits, its links as
//!   links to the same targets, no special file, the word still there;
//! - `--in-place`: `DIR.orig` equal to the original (links as links, FIFOs
//!   as FIFOs);
//! - nothing left in `TMPDIR` or beside the output, no test process.
//!
//! Time: [`SWEEP`] rounds always, then new ones until `HDD_FUZZ_SECS`
//! have passed since the test started; `HDD_FUZZ_SEED` and `HDD_FUZZ_ROUND`
//! as for the other fuzz tests.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use crate::fuzz::Settings;
use crate::rng::Rng;
use crate::{hdd, scratch, script, stderr};

/// Rounds run whatever the time (each runs the binary three times).
const SWEEP: u64 = 2;

/// The longest name a directory entry may have.
const NAME_MAX: usize = 255;

/// The word the oracle looks for.
const WORD: &str = "needle_word";

/// Names a user's files may have that break careless code.
const HOSTILE: &[&[u8]] = &[
    b"a b",
    b" lead",
    b"trail ",
    b"new\nline",
    b"-x",
    b"--help",
    b"-",
    b"*",
    b"[ab]",
    b"$(touch pwned)",
    b"`x`",
    b"'q'",
    b"\"dq\"",
    b"back\\slash",
    b"tab\there",
    b"\xc3\xa9t\xc3\xa9",
    b"\xff\xfe",
    b"caf\xe9",
    b".hidden",
    b"..dots",
    b"x.reduced",
    b"x.orig",
    b"\x1b[31m",
    b"cr\r",
    b"%s%n",
];

/// A name for a new entry: hostile, long, or plain; with an extension of
/// a language sometimes.
fn name(rng: &mut Rng, k: usize) -> OsString {
    let mut bytes: Vec<u8> = match rng.below(6) {
        0 => format!("f{k}").into_bytes(),
        1 => [b"l".repeat(200 + rng.below(40)), format!("{k}").into_bytes()].concat(),
        _ => [HOSTILE[rng.below(HOSTILE.len())], format!("{k}").as_bytes()].concat(),
    };
    if rng.chance(0.5) {
        let ext: &[u8] = [&b".c"[..], b".h", b".json", b".txt", b".py", b".xml"][rng.below(6)];
        bytes.extend_from_slice(ext);
    }
    if rng.chance(0.1) {
        // exactly NAME_MAX bytes
        bytes.resize(NAME_MAX, b'n');
    }
    bytes.truncate(NAME_MAX);
    OsString::from_vec(bytes)
}

/// The input directory's own name: plain, hostile, or long (past what
/// `.reduced` or `.orig` beside it may add, sometimes).
fn root_name(rng: &mut Rng) -> OsString {
    let bytes = match rng.below(5) {
        0 => b"proj".to_vec(),
        1 => b"p".repeat([NAME_MAX - 9, NAME_MAX - 8, NAME_MAX - 5, NAME_MAX - 4][rng.below(4)]),
        _ => [HOSTILE[rng.below(HOSTILE.len())], b"dir"].concat(),
    };
    OsString::from_vec(bytes)
}

/// What one entry of a tree is, as the checks compare it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    File { bytes: Vec<u8>, mode: u32 },
    Dir { mode: u32 },
    Link(PathBuf),
    Fifo,
    Other,
}

/// Every entry below `dir` (links not followed), by relative path.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Entry> {
    let mut out = BTreeMap::new();
    let mut todo = vec![PathBuf::new()];
    while let Some(rel) = todo.pop() {
        for e in fs::read_dir(dir.join(&rel)).expect("read_dir") {
            let e = e.expect("entry");
            let rel = rel.join(e.file_name());
            let path = dir.join(&rel);
            let meta = fs::symlink_metadata(&path).expect("stat");
            let mode = meta.permissions().mode() & 0o7777;
            let t = meta.file_type();
            let entry = match () {
                _ if t.is_symlink() => Entry::Link(fs::read_link(&path).expect("readlink")),
                _ if t.is_dir() => {
                    todo.push(rel.clone());
                    Entry::Dir { mode }
                }
                _ if t.is_file() => Entry::File { bytes: fs::read(&path).expect("read"), mode },
                _ if t.is_fifo() => Entry::Fifo,
                _ => Entry::Other,
            };
            out.insert(rel, entry);
        }
    }
    out
}

/// A random input directory, made under `work`, with `outside` beside it.
struct Built {
    input: PathBuf,
    /// The path hdd is given: the input, or a link to it beside it (which
    /// `--in-place` replaces by the result, leaving the input alone).
    given: PathBuf,
    /// It holds a text file.
    has_text: bool,
    /// Its text holds the word (else the test fails on the original).
    has_word: bool,
    /// The `--max-time` of the stopped run, in milliseconds: from the
    /// check of the original alone to most of a run.
    stop_ms: usize,
    /// What it was made as, in words, for a failure's report.
    plan: Vec<String>,
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).expect("path");
    // SAFETY: a valid NUL-terminated path
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo {}", path.display());
}

fn build(rng: &mut Rng, work: &Path, outside: &Path) -> Built {
    let input = work.join(root_name(rng));
    fs::create_dir(&input).expect("mkdir the input");
    let mut dirs = vec![PathBuf::new()];
    let mut files: Vec<PathBuf> = Vec::new();
    let mut plan = Vec::new();
    let has_text = rng.chance(0.9);
    let has_word = has_text && rng.chance(0.9);
    let modes = [0o644, 0o755, 0o600, 0o444, 0o640, 0o700];
    let n = 3 + rng.below(12);
    for k in 0..n {
        let parent = dirs[rng.below(dirs.len())].clone();
        let rel = parent.join(name(rng, k));
        let path = input.join(&rel);
        let what = match rng.below(12) {
            0..=2 if has_text => {
                let text: String =
                    (0..rng.below(8)).map(|i| format!("int v{k}_{i} = {i};\n")).collect();
                fs::write(&path, text).expect("write");
                files.push(rel.clone());
                "a text file"
            }
            0..=3 => {
                fs::write(&path, b"\x7fELF\0\x01binary\n").expect("write");
                files.push(rel.clone());
                "a binary file"
            }
            4 | 5 => {
                fs::create_dir(&path).expect("mkdir");
                dirs.push(rel.clone());
                "a directory"
            }
            6 if !files.is_empty() => {
                // a sibling, or a file elsewhere by its absolute path
                let to = files[rng.below(files.len())].clone();
                let target = match to.parent() == rel.parent() {
                    true => PathBuf::from(to.file_name().expect("name")),
                    false => input.join(&to),
                };
                symlink(&target, &path).expect("link");
                "a link to a file inside"
            }
            7 if dirs.len() > 1 => {
                let to = dirs[1 + rng.below(dirs.len() - 1)].clone();
                let target = match to.parent() == rel.parent() {
                    true => PathBuf::from(to.file_name().expect("name")),
                    false => input.join(&to),
                };
                symlink(&target, &path).expect("link");
                "a link to a directory inside"
            }
            8 => {
                let target = match rng.below(3) {
                    0 => outside.join("secret"),
                    1 => outside.join("shared"),
                    _ => Path::new("../".repeat(rel.components().count()).as_str())
                        .join("../outside/secret"),
                };
                symlink(&target, &path).expect("link");
                "a link outside"
            }
            9 => {
                let target = match rng.chance(0.5) {
                    true => PathBuf::from(path.file_name().expect("name")),
                    false => PathBuf::from("no/such/file"),
                };
                symlink(&target, &path).expect("link");
                "a dangling link (or a loop)"
            }
            10 => {
                mkfifo(&path);
                "a FIFO"
            }
            _ => {
                fs::write(&path, "").expect("write");
                files.push(rel.clone());
                "an empty text file"
            }
        };
        plan.push(format!("{what}: {rel:?}"));
    }
    if has_text {
        let parent = dirs[rng.below(dirs.len())].clone();
        let rel = parent.join(name(rng, n));
        let lines: String = (0..3 + rng.below(10)).map(|i| format!("int w{i} = {i};\n")).collect();
        let word = if has_word { WORD } else { "other_word" };
        fs::write(input.join(&rel), format!("{lines}int {word};\n{lines}")).expect("write");
        files.push(rel.clone());
        plan.push(format!("the word's file (with the word: {has_word}): {rel:?}"));
    }
    for rel in &files {
        let mode = modes[rng.below(modes.len())];
        fs::set_permissions(input.join(rel), fs::Permissions::from_mode(mode)).expect("chmod");
    }
    let stop_ms = 50 + rng.below(600);
    let given = match rng.chance(0.2) {
        true => {
            let link = work.join("via link");
            symlink(input.file_name().expect("name"), &link).expect("link");
            plan.push("given by a link beside it".into());
            link
        }
        false => input.clone(),
    };
    Built { input, given, has_text, has_word, stop_ms, plan }
}

/// How a round runs the binary.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mode {
    Plain,
    MaxTime,
    InPlace,
}

/// `name` with `suffix` appended, beside it.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().expect("name").to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// The exit code the README documents for `built` run in `mode`.
fn expected(built: &Built, mode: Mode) -> i32 {
    let name = built.given.file_name().expect("name").len();
    let fits = match mode {
        Mode::InPlace => name + ".orig".len() <= NAME_MAX,
        _ => name + ".reduced".len() <= NAME_MAX,
    };
    match () {
        _ if !built.has_text || !fits => 2,
        _ if !built.has_word => 3,
        _ => 0,
    }
}

/// Checks a result directory against the original input: its files are
/// the input's with their permission bits (reduced ones no larger, binary
/// ones the same), its links the input's, nothing else, and the word is in
/// it.
fn check_result(result: &Path, original: &BTreeMap<PathBuf, Entry>) -> Result<(), String> {
    let got = snapshot(result);
    let mut word = false;
    for (rel, entry) in &got {
        let was = original.get(rel);
        match (entry, was) {
            (Entry::File { bytes, mode }, Some(Entry::File { bytes: b0, mode: m0 })) => {
                if mode != m0 {
                    return Err(format!("{rel:?}: mode {mode:o}, the input's {m0:o}"));
                }
                let binary = b0.contains(&0);
                if (binary && bytes != b0) || bytes.len() > b0.len() {
                    return Err(format!("{rel:?}: {bytes:?} from {b0:?}"));
                }
                word |= bytes.windows(WORD.len()).any(|w| w == WORD.as_bytes());
            }
            (Entry::Dir { .. }, Some(Entry::Dir { .. })) => {}
            (Entry::Link(t), Some(Entry::Link(t0))) if t == t0 => {}
            _ => return Err(format!("{rel:?}: {entry:?} in the result, {was:?} in the input")),
        }
    }
    for (rel, entry) in original {
        if matches!(entry, Entry::Link(_)) && got.get(rel) != Some(entry) {
            return Err(format!("the link {rel:?} is not in the result as a link"));
        }
    }
    if !word {
        return Err("the result lost the word: not interesting".into());
    }
    Ok(())
}

/// Runs hdd on `built` in `mode` and checks everything after it.
fn run_and_check(top: &Path, built: &Built, mode: Mode) -> Result<(), String> {
    let (work, tmp, outside) = (top.join("work"), top.join("tmp"), top.join("outside"));
    let input = &built.input;
    let original = snapshot(input);
    let around = snapshot(&outside);
    let pids = top.join("pids");
    let test = script(
        &top.join("t.sh"),
        &format!("echo $$ >> '{}'\ngrep -r -q -F -e {WORD} .", pids.display()),
    );
    let mut cmd = hdd();
    cmd.arg("-t").arg(&test).args(["-q", "--timeout", "20s"]).env("TMPDIR", &tmp);
    match mode {
        Mode::Plain => {}
        Mode::MaxTime => drop(cmd.arg("--max-time").arg(format!("{}ms", built.stop_ms))),
        Mode::InPlace => drop(cmd.arg("--in-place")),
    }
    let given = &built.given;
    let out: Output = cmd.arg(given).output().map_err(|e| format!("cannot run hdd: {e}"))?;
    let err = stderr(&out);
    let want = expected(built, mode);
    let fail = |what: String| Err(format!("{mode:?}: {what}\nstderr:\n{err}"));
    if err.contains("panicked") {
        return fail("a panic".into());
    }
    if out.status.code() != Some(want) {
        return fail(format!("exit {:?}, want {want}", out.status.code()));
    }
    let errors = err.lines().filter(|l| l.starts_with("hdd: error:")).count();
    if errors != usize::from(want != 0) {
        return fail(format!("{errors} error lines"));
    }
    if snapshot(&outside) != around {
        return fail("something outside the input was written (through a link?)".into());
    }
    let (result, backup) = (beside(given, ".reduced"), beside(given, ".orig"));
    let mut names = vec![input.clone()];
    if given != input {
        names.push(given.clone());
        let replaced = mode == Mode::InPlace && want == 0;
        if !replaced && fs::read_link(given).ok().as_deref() != input.file_name().map(Path::new) {
            return fail("the link hdd was given changed".into());
        }
        if snapshot(input) != original {
            return fail("the directory the link names changed".into());
        }
    }
    match (mode, want) {
        (Mode::InPlace, 0) => {
            if snapshot(&backup) != original {
                return fail("DIR.orig is not the original".into());
            }
            if let Err(e) = check_result(given, &original) {
                return fail(format!("the result in place: {e}"));
            }
            names.push(backup.clone());
        }
        (_, 0) => {
            if snapshot(input) != original {
                return fail("the input changed".into());
            }
            if let Err(e) = check_result(&result, &original) {
                return fail(format!("the result: {e}"));
            }
            names.push(result.clone());
        }
        _ if snapshot(input) != original => return fail("the input changed".into()),
        _ => {}
    }
    let mut left: Vec<PathBuf> =
        fs::read_dir(&work).expect("ls").map(|e| e.expect("entry").path()).collect();
    left.sort();
    names.sort();
    if left != names {
        return fail(format!("beside the output: {left:?}"));
    }
    let temps: Vec<_> = fs::read_dir(&tmp).expect("ls").collect();
    if !temps.is_empty() {
        return fail(format!("left in TMPDIR: {temps:?}"));
    }
    let alive: Vec<i32> = fs::read_to_string(&pids)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        // SAFETY: signal 0 only checks that the process exists
        .filter(|&p| unsafe { libc::kill(p, 0) } == 0)
        .collect();
    if !alive.is_empty() {
        return fail(format!("test processes left: {alive:?}"));
    }
    // the next run starts from the original input alone
    if result.exists() && mode != Mode::InPlace {
        fs::remove_dir_all(&result).expect("rm the result");
    }
    Ok(())
}

/// One round: a directory built from the round's seed, reduced in each
/// mode.
fn round(settings: &Settings, round: u64) -> Result<(), String> {
    let dir = scratch();
    let top = dir.path();
    for sub in ["work", "tmp", "outside/shared"] {
        fs::create_dir_all(top.join(sub)).expect("mkdir");
    }
    fs::write(top.join("outside/secret"), "do not write me\n").expect("write");
    fs::write(top.join("outside/shared/word"), format!("{WORD}\n")).expect("write");
    let mut rng = settings.rng(round ^ 0xd125);
    let built = build(&mut rng, &top.join("work"), &top.join("outside"));
    let modes = [Mode::Plain, Mode::MaxTime, Mode::InPlace];
    for mode in modes {
        run_and_check(top, &built, mode).map_err(|e| {
            format!(
                "round {round} ({}): {e}\nthe input {:?}:\n  {}",
                settings.replay("fuzz_directory_inputs", round),
                built.input.file_name().unwrap_or(OsStr::new("")),
                built.plan.join("\n  ")
            )
        })?;
    }
    Ok(())
}

#[test]
fn fuzz_directory_inputs_with_links_special_files_and_hostile_names() {
    let settings = Settings::from_env();
    let start = Instant::now();
    let budget = Duration::from_secs_f64(settings.secs.max(0.0));
    let rounds: Box<dyn Iterator<Item = u64>> = match settings.round {
        Some(r) => Box::new(std::iter::once(r)),
        None => Box::new((0..).take_while(|&r| r < SWEEP || start.elapsed() < budget)),
    };
    let mut failures = Vec::new();
    let mut done = 0;
    for r in rounds {
        done += 1;
        if let Err(e) = round(&settings, r) {
            failures.push(e);
            if failures.len() >= 3 {
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {done} rounds failed:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    println!("fuzz: {done} directory inputs, seed {:#x}", settings.seed);
}
