//! Fuzzing: structured mutations of every input we have, through every
//! front-end, deterministic from a seed.
//!
//! The inputs are every corpus file (each file of a directory input too)
//! and every input under `tests/data/`. A *round* takes one input, cuts a
//! window of it when it is large, applies a mutation (a truncation, possibly
//! inside a multi-byte character; byte flips; runs of bytes inserted or
//! deleted; lines duplicated or deleted; deep nesting; a byte order mark;
//! ISO-8859-1 or UTF-16 with an XML declaration; CRLF line ends; one huge
//! line; NUL bytes; bytes that are not UTF-8), and feeds the mutant to its
//! own language's front-end and to others (a C file fed to the JSON
//! front-end must not panic either): in the sweep a few others in turn, in
//! the random rounds every one. For each it checks what the reducer relies
//! on:
//!
//! - parsing does not panic, and gives a well-formed tree;
//! - the round trip is exact (unparsing with everything kept gives the
//!   mutant back);
//! - the tree's error count is what the syntax guard counts, and the
//!   guard's incremental count (from the original's parse, and from the
//!   mutant's for its candidates) equals a parse from scratch;
//! - candidates with random units switched off (and a hoist) unparse and
//!   parse again without a panic;
//! - memory stays proportional to the input: the tree's node count and a
//!   candidate's size are bounded by the mutant's size, and the real binary
//!   runs `--dump-tree` of a few large mutants (megabytes on one line, deep
//!   nests) in an address space limited to a multiple of their size.
//!
//! A few mutants also go through a real reduction by the `hdd` binary, with
//! a cheap grep oracle and `--max-time`: the exact exit code, one error line
//! when it is not 0, an interesting result, and nothing left behind.
//!
//! Time: first a *sweep*, every input with every mutation once (always run
//! whole), then random rounds until `HDD_FUZZ_SECS` (default
//! [`DEFAULT_SECS`]) have passed since the start. `HDD_FUZZ_SEED` picks
//! another sequence of rounds; `HDD_FUZZ_ROUND=N` runs round `N` alone. A
//! failure prints the seed, the round, the input, the mutation and the
//! front-end, writes the mutant to `$TMPDIR`, and the command that replays
//! it. A crash that no `catch_unwind` can stop (a stack overflow) leaves
//! the round it was in in `$TMPDIR/hdd-fuzz-now-*`.
//!
//! Long run: `HDD_FUZZ_SECS=3600 cargo test --release --test integration fuzz`.

use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hdd::language::{by_name, by_path, Frontend, LANGUAGES};
use hdd::reduce::{Proposal, Units};
use hdd::syntax::{join, Mask, Tree, Unparser};

use crate::rng::Rng;
use crate::roundtrip::{check_tree, random_hoist};
use crate::{hdd, root, scratch, script, Case};

/// Seconds from the start after which no new random round begins, unless
/// `HDD_FUZZ_SECS` says otherwise (the sweep always runs whole).
const DEFAULT_SECS: f64 = 15.0;

/// The seed unless `HDD_FUZZ_SEED` says otherwise.
const DEFAULT_SEED: u64 = 0x6864_645f_6675_7a7a;

/// A larger input is cut to a window of at most this many bytes before its
/// mutation (random rounds sometimes take the whole file).
const WINDOW: usize = 24 * 1024;

/// The window of the sweep, which must stay short for CI.
const SWEEP_WINDOW: usize = 4 * 1024;

/// The most nodes a tree may have per byte of its text (a `[` is an array
/// and its bracket, and maybe a missing `]`), plus a few for an empty text.
const NODES_PER_BYTE: usize = 4;

/// Candidates checked per mutant and front-end.
const CANDIDATES: usize = 2;

/// Failures reported in full before the rest are only counted.
const MAX_FAILURES: usize = 20;

/// What the environment asks for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Settings {
    pub(crate) seed: u64,
    pub(crate) secs: f64,
    /// Only this round (a replay).
    pub(crate) round: Option<u64>,
}

impl Settings {
    pub(crate) fn from_env() -> Settings {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let number = |name: &str, v: String| -> u64 {
            let v = v.trim();
            let parsed = match v.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => v.parse(),
            };
            parsed.unwrap_or_else(|e| panic!("{name}={v}: {e}"))
        };
        let seed = var("HDD_FUZZ_SEED").map_or(DEFAULT_SEED, |v| number("HDD_FUZZ_SEED", v));
        let secs = var("HDD_FUZZ_SECS").map_or(DEFAULT_SECS, |v| {
            v.trim().parse().unwrap_or_else(|e| panic!("HDD_FUZZ_SECS={v}: {e}"))
        });
        let round = var("HDD_FUZZ_ROUND").map(|v| number("HDD_FUZZ_ROUND", v));
        Settings { seed, secs, round }
    }

    /// The generator of round `round`: the same for a replay.
    pub(crate) fn rng(&self, round: u64) -> Rng {
        Rng::new(self.seed ^ round.wrapping_add(1).wrapping_mul(0xD1B5_4A32_D192_ED03))
    }

    pub(crate) fn replay(&self, test: &str, round: u64) -> String {
        format!(
            "HDD_FUZZ_SEED={:#x} HDD_FUZZ_ROUND={round} cargo test --release --test integration {test}",
            self.seed
        )
    }
}

/// One input: a corpus file or a test-data input.
struct Input {
    /// Its path from the repository root.
    name: String,
    bytes: Vec<u8>,
    /// Its own language's `--lang` name.
    lang: &'static str,
}

/// Every corpus file and every `tests/data` input, in a fixed order.
fn inputs() -> Vec<Input> {
    let mut out = Vec::new();
    let mut add = |path: &Path, lang: &'static str| {
        let name = path.strip_prefix(root()).unwrap_or(path).display().to_string();
        out.push(Input { name, bytes: fs::read(path).expect("read input"), lang });
    };
    for (path, lang) in Case::all().iter().flat_map(Case::files) {
        add(&path, lang);
    }
    let data = root().join("tests/data/reduce");
    let mut cases: Vec<PathBuf> =
        fs::read_dir(&data).expect("tests/data/reduce").map(|e| e.expect("entry").path()).collect();
    cases.sort();
    for case in cases {
        let args = fs::read_to_string(case.join("args")).unwrap_or_default();
        let words: Vec<&str> = args.split_whitespace().collect();
        let forced = words.windows(2).find(|w| w[0] == "--lang").map(|w| w[1]);
        for file in crate::files_under(&case) {
            let name = file.file_name().expect("name").to_string_lossy();
            if ["test.sh", "args", "expected"].contains(&name.as_ref()) {
                continue;
            }
            let lang = forced.and_then(by_name).or_else(|| by_path(&file));
            add(&file, lang.map_or("text", |l| l.name));
        }
    }
    assert!(out.len() > 30, "only {} inputs", out.len());
    out
}

/// Every front-end of the registry, with its name.
fn frontends() -> Vec<(&'static str, Box<dyn Frontend>)> {
    LANGUAGES.iter().map(|l| (l.name, l.frontend().expect("front-end"))).collect()
}

/// Front-ends besides the input's own that a round of the sweep feeds its
/// mutant to: each round others, in turn, so that over the sweep every
/// front-end gets mutants of many languages, and the sweep's cost grows
/// with the inputs, not with the inputs times the languages.
const SWEEP_FOREIGN: usize = 3;

/// The front-ends round `round` feeds a mutant of a `lang` input to: in the
/// sweep its own and [`SWEEP_FOREIGN`] others in turn, after it every one.
fn frontends_of<'a>(
    fes: &'a [(&'static str, Box<dyn Frontend>)],
    lang: &str,
    round: u64,
    sweep: bool,
) -> Vec<&'a (&'static str, Box<dyn Frontend>)> {
    if !sweep {
        return fes.iter().collect();
    }
    let others: Vec<_> = fes.iter().filter(|(l, _)| *l != lang).collect();
    let first = round as usize * SWEEP_FOREIGN;
    let turn = (0..SWEEP_FOREIGN.min(others.len())).map(|k| others[(first + k) % others.len()]);
    fes.iter().filter(|(l, _)| *l == lang).chain(turn).collect()
}

// ---------------------------------------------------------------------------
// Mutations

/// A mutation: the mutant of `base` and what was done, in words; `big`
/// for the random rounds, which may nest deeper and write longer lines than
/// the sweep.
type Mutate = fn(&mut Rng, &[u8], bool) -> (Vec<u8>, String);

/// Every mutation, by name; the sweep applies each to every input.
const MUTATIONS: &[(&str, Mutate)] = &[
    ("truncate", truncate),
    ("flip", flip),
    ("insert", insert_run),
    ("delete", delete_run),
    ("lines", lines),
    ("nest", nest),
    ("bom", bom),
    ("latin1", latin1),
    ("utf16", utf16),
    ("crlf", crlf),
    ("huge-line", huge_line),
    ("nul", nul),
    ("invalid-utf8", invalid_utf8),
];

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

/// A position in `0..=len`.
fn at(rng: &mut Rng, len: usize) -> usize {
    rng.below(len + 1)
}

fn splice(base: &[u8], at: usize, insert: &[u8]) -> Vec<u8> {
    [&base[..at], insert, &base[at..]].concat()
}

/// Cut at a random point; half the time inside a multi-byte character (one
/// put there first if the input has none).
fn truncate(rng: &mut Rng, base: &[u8], _big: bool) -> (Vec<u8>, String) {
    if rng.chance(0.5) {
        let from = at(rng, base.len());
        let inside = (from..base.len()).chain(0..from).find(|&i| base[i] & 0xC0 == 0x80);
        if let Some(i) = inside {
            return (base[..i].to_vec(), format!("truncated at {i}, inside a character"));
        }
        let c = *pick(rng, &["é", "€", "😀"]);
        let i = at(rng, base.len());
        let cut = 1 + rng.below(c.len() - 1);
        let mut out = base[..i].to_vec();
        out.extend_from_slice(&c.as_bytes()[..cut]);
        return (out, format!("truncated at {i} after {cut} bytes of {c:?}"));
    }
    let i = at(rng, base.len());
    (base[..i].to_vec(), format!("truncated at {i}"))
}

fn flip(rng: &mut Rng, base: &[u8], _big: bool) -> (Vec<u8>, String) {
    let mut out = base.to_vec();
    if out.is_empty() {
        return (vec![0xFF], "flipped the empty input to 0xFF".into());
    }
    let mut flips = Vec::new();
    for _ in 0..1 + rng.below(8) {
        let (i, bit) = (rng.below(out.len()), rng.below(8));
        out[i] ^= 1 << bit;
        flips.push(format!("{i}:{bit}"));
    }
    (out, format!("flipped bits (byte:bit) {}", flips.join(" ")))
}

/// Bytes that mean something in some language of ours.
const SYNTAX: &[u8] = b"{}[]()<>\"'/*,;:&#!?-=\\\n\r\t .`$@%+|^~";

fn insert_run(rng: &mut Rng, base: &[u8], _big: bool) -> (Vec<u8>, String) {
    let n = 1 + rng.below(64);
    let i = at(rng, base.len());
    let (run, from): (Vec<u8>, &str) = match rng.below(3) {
        0 => ((0..n).map(|_| rng.below(256) as u8).collect(), "random bytes"),
        1 => ((0..n).map(|_| *pick(rng, SYNTAX)).collect(), "punctuation"),
        _ => {
            let s = rng.below(base.len().max(1));
            (base[s.min(base.len())..(s + n).min(base.len())].to_vec(), "the input's own bytes")
        }
    };
    (splice(base, i, &run), format!("inserted {} bytes of {from} at {i}: {run:?}", run.len()))
}

fn delete_run(rng: &mut Rng, base: &[u8], _big: bool) -> (Vec<u8>, String) {
    let i = at(rng, base.len());
    let n = (1 + rng.below(256)).min(base.len() - i);
    ([&base[..i], &base[i + n..]].concat(), format!("deleted bytes {i}..{}", i + n))
}

fn lines(rng: &mut Rng, base: &[u8], _big: bool) -> (Vec<u8>, String) {
    let mut lines: Vec<&[u8]> = base.split_inclusive(|&c| c == b'\n').collect();
    if lines.is_empty() {
        return (b"\n\n".to_vec(), "two empty lines for the empty input".into());
    }
    let i = rng.below(lines.len());
    let what = match rng.below(4) {
        0 => {
            let n = 1 + rng.below(3);
            for _ in 0..n {
                lines.insert(i, lines[i]);
            }
            format!("line {i} duplicated {n} times")
        }
        1 => {
            let n = (1 + rng.below(3)).min(lines.len() - i);
            lines.drain(i..i + n);
            format!("lines {i}..{} deleted", i + n)
        }
        2 => {
            let n = (1 + rng.below(20)).min(lines.len() - i);
            let block: Vec<&[u8]> = lines[i..i + n].to_vec();
            let to = rng.below(lines.len() + 1);
            lines.splice(to..to, block);
            format!("lines {i}..{} copied before line {to}", i + n)
        }
        _ => {
            let j = rng.below(lines.len());
            lines.swap(i, j);
            format!("lines {i} and {j} swapped")
        }
    };
    (lines.concat(), what)
}

/// Openers and their closers, for deep nesting.
const NESTS: &[(&str, &str)] = &[
    ("[", "]"),
    ("(", ")"),
    ("{", "}"),
    ("<a>", "</a>"),
    ("{\"k\":", "}"),
    ("[1,", "]"),
    ("f(", ")"),
    ("if(x){", "}"),
    ("<a b='c'>", "</a>"),
];

fn nest(rng: &mut Rng, base: &[u8], big: bool) -> (Vec<u8>, String) {
    let depth = match big {
        true if rng.chance(0.1) => 50_000,
        true => 1000 + rng.below(20_000),
        false => 500 + rng.below(3000),
    };
    if rng.chance(0.15) {
        // a DTD's content model, nested
        let decl = format!(
            "<!DOCTYPE a [<!ELEMENT a {}b{}>]>\n",
            "(".repeat(depth),
            ")".repeat(depth * rng.below(2))
        );
        return (splice(base, 0, decl.as_bytes()), format!("a DTD content model {depth} deep"));
    }
    let (open, close) = *pick(rng, NESTS);
    let i = at(rng, base.len());
    let (run, how) = match rng.below(3) {
        0 => (open.repeat(depth), "unclosed"),
        1 => (open.repeat(depth) + "0" + &close.repeat(depth), "closed"),
        _ => (close.repeat(depth), "closers only"),
    };
    (splice(base, i, run.as_bytes()), format!("{depth} × {open:?} {how}, at {i}"))
}

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

fn bom(rng: &mut Rng, base: &[u8], _big: bool) -> (Vec<u8>, String) {
    match rng.below(4) {
        0 | 1 => (splice(base, 0, UTF8_BOM), "a UTF-8 byte order mark in front".into()),
        2 => ([UTF8_BOM, UTF8_BOM, base].concat(), "two UTF-8 byte order marks in front".into()),
        _ => {
            let i = at(rng, base.len());
            (splice(base, i, UTF8_BOM), format!("a UTF-8 byte order mark at {i}"))
        }
    }
}

/// `base` without an XML declaration at its start.
fn without_declaration(base: &[u8]) -> &[u8] {
    if base.starts_with(b"<?xml") {
        if let Some(end) = base.windows(2).position(|w| w == b"?>") {
            return &base[end + 2..];
        }
    }
    base
}

fn latin1(rng: &mut Rng, base: &[u8], _big: bool) -> (Vec<u8>, String) {
    let text = String::from_utf8_lossy(without_declaration(base)).into_owned();
    let mut body: Vec<u8> =
        text.chars().map(|c| if (c as u32) < 0x100 { c as u32 as u8 } else { b'?' }).collect();
    // some letters past ASCII, wherever the input had none
    let i = at(rng, body.len());
    body.splice(i..i, b"caf\xE9 na\xEFve".iter().copied());
    let decl: &[u8] = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n";
    (
        [decl, &body].concat(),
        format!("re-encoded as ISO-8859-1 with a declaration, caf\\xE9 at {i}"),
    )
}

fn utf16(rng: &mut Rng, base: &[u8], _big: bool) -> (Vec<u8>, String) {
    let text = String::from_utf8_lossy(without_declaration(base)).into_owned();
    let text = format!("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n{text}");
    let big = rng.chance(0.5);
    let with_bom = rng.chance(0.75);
    let mut out = Vec::new();
    if with_bom {
        out.extend_from_slice(if big { b"\xFE\xFF" } else { b"\xFF\xFE" });
    }
    for unit in text.encode_utf16() {
        out.extend_from_slice(&if big { unit.to_be_bytes() } else { unit.to_le_bytes() });
    }
    let order = if big { "big" } else { "little" };
    let mark = if with_bom { "with" } else { "without" };
    (out, format!("re-encoded as UTF-16 ({order} endian, {mark} a byte order mark)"))
}

fn crlf(rng: &mut Rng, base: &[u8], _big: bool) -> (Vec<u8>, String) {
    let mut out = Vec::with_capacity(base.len() * 2);
    let how = rng.below(3);
    for &c in base {
        match (c, how) {
            (b'\n', 0) => out.extend_from_slice(b"\r\n"),
            (b'\n', 1) => out.push(b'\r'),
            (b'\n', _) if rng.chance(0.5) => out.extend_from_slice(b"\r\n"),
            _ => out.push(c),
        }
    }
    let what = ["CRLF line ends", "CR line ends", "CRLF and LF line ends mixed"][how];
    (out, what.into())
}

/// Tokens that make one huge line.
const HUGE: &[(&str, &str, &str)] = &[
    ("", "a", ""),
    ("", "1,", ""),
    ("\"", "x", "\""),
    ("/*", "*", "*/"),
    ("<a>", "<b/>", "</a>"),
    ("", "x+", "1"),
    ("", " ", ""),
];

fn huge_line(rng: &mut Rng, base: &[u8], big: bool) -> (Vec<u8>, String) {
    // tree-sitter's error recovery takes seconds and hundreds of bytes of
    // memory per byte on some huge lines (`<b/>` × 500 000 as C): several
    // megabytes go through the binary once each (see
    // `fuzz_large_mutants_stay_in_bounded_memory`), not here
    let bytes = match big {
        true if rng.chance(0.05) => 1 << 20,
        true => (32 << 10) + rng.below(128 << 10),
        false => (8 << 10) + rng.below(8 << 10),
    };
    let (open, token, close) = *pick(rng, HUGE);
    let line = format!("{open}{}{close}\n", token.repeat(bytes / token.len()));
    let i = at(rng, base.len());
    (splice(base, i, line.as_bytes()), format!("a line of {bytes} bytes of {token:?} at {i}"))
}

fn nul(rng: &mut Rng, base: &[u8], _big: bool) -> (Vec<u8>, String) {
    let mut out = base.to_vec();
    let mut at_ = Vec::new();
    for _ in 0..1 + rng.below(4) {
        let i = at(rng, out.len());
        if rng.chance(0.5) && i < out.len() {
            out[i] = 0;
        } else {
            out.insert(i, 0);
        }
        at_.push(i);
    }
    (out, format!("NUL bytes at {at_:?}"))
}

/// Byte sequences that are not UTF-8.
const NOT_UTF8: &[&[u8]] = &[
    b"\x80",
    b"\xBF\xBF",
    b"\xC0\xAF",
    b"\xC1",
    b"\xE0\x80\x80",
    b"\xED\xA0\x80",
    b"\xF0\x9F\x98",
    b"\xF5\x80\x80\x80",
    b"\xFE",
    b"\xFF\xFE",
    b"\xE2\x82",
];

fn invalid_utf8(rng: &mut Rng, base: &[u8], _big: bool) -> (Vec<u8>, String) {
    let mut out = base.to_vec();
    let mut what = Vec::new();
    for _ in 0..1 + rng.below(4) {
        let seq = *pick(rng, NOT_UTF8);
        let i = at(rng, out.len());
        out.splice(i..i, seq.iter().copied());
        what.push(format!("{seq:?} at {i}"));
    }
    (out, format!("not UTF-8: {}", what.join(", ")))
}

/// The mutant of round `round`: its input, and what was done to it. The
/// sweep's rounds take every input with every mutation; later rounds pick
/// at random, sometimes the whole of a large input, sometimes two or three
/// mutations in a row.
fn mutant(settings: &Settings, inputs: &[Input], round: u64) -> (usize, Vec<u8>, Vec<u8>, String) {
    let mut rng = settings.rng(round);
    let sweep = (inputs.len() * MUTATIONS.len()) as u64;
    let (input, kinds) = if round < sweep {
        let r = round as usize;
        (r % inputs.len(), vec![(r / inputs.len()) % MUTATIONS.len()])
    } else {
        let n = if rng.chance(0.25) { 2 + rng.below(2) } else { 1 };
        (rng.below(inputs.len()), (0..n).map(|_| rng.below(MUTATIONS.len())).collect())
    };
    let bytes = &inputs[input].bytes;
    let huge = kinds.iter().any(|&k| MUTATIONS[k].0 == "huge-line");
    let limit = match (huge, round < sweep) {
        (true, _) => 4096,
        (false, true) => SWEEP_WINDOW,
        (false, false) => WINDOW,
    };
    let whole = round >= sweep && !huge && rng.chance(0.05);
    let (base, mut what) = if bytes.len() <= limit || whole {
        (bytes.clone(), Vec::new())
    } else {
        let len = 1 + rng.below(limit);
        let start = rng.below(bytes.len() - len + 1);
        (
            bytes[start..start + len].to_vec(),
            vec![format!("bytes {start}..{} of {}", start + len, bytes.len())],
        )
    };
    let mut out = base.clone();
    for k in kinds {
        let (next, how) = (MUTATIONS[k].1)(&mut rng, &out, round >= sweep);
        what.push(format!("{}: {how}", MUTATIONS[k].0));
        out = next;
    }
    (input, base, out, what.join("; then "))
}

// ---------------------------------------------------------------------------
// Checks

/// Runs `f`, turning a panic into an error that says `step`.
fn guarded<R>(step: &str, f: impl FnOnce() -> R) -> Result<R, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|e| {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".into());
        format!("{step} panicked: {msg}")
    })
}

fn unparse(unparser: &mut Unparser, tree: &Tree, mask: &Mask) -> Vec<u8> {
    let mut out = Vec::new();
    unparser.unparse(tree, mask, &mut out);
    out
}

/// Where two texts first differ.
fn first_difference(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()))
}

/// Checks `text`, a mutant of `original`, through `fe`: see the module
/// documentation. Candidates draw from `rng`.
/// The guard of a set of files counts no file below its errors in the
/// original, so only a one-file front-end (`one_file`) counts as its tree.
fn check(
    fe: &dyn Frontend,
    one_file: bool,
    original: &[u8],
    text: &[u8],
    rng: &mut Rng,
) -> Result<(), String> {
    let tree = guarded("parsing", || fe.parse(Arc::from(text)))?;
    check_parse(&tree, text, "the mutant")?;
    let full = guarded("the guard's count", || fe.syntax_errors(text))?;
    if one_file && full != tree.error_count() {
        return Err(format!("the guard counts {full} errors, the tree {}", tree.error_count()));
    }
    // the mutation as an edit of the original, as the guard would see it
    if let Some(base) = guarded("the guard's base", || fe.guard_base(original))? {
        let (from, _) =
            guarded("re-parsing from the original", || fe.syntax_errors_from(&base, text))?;
        if from != full {
            return Err(format!(
                "the guard counts {from} errors from the original's parse, {full} from scratch"
            ));
        }
    }
    // candidates, as the reducer makes them
    let units = guarded("finding units", || Units::new(&tree))?;
    let all = units.present_bfs(&Mask::new(tree.len()));
    let base = guarded("the guard's base", || fe.guard_base(text))?;
    let mut previous = None;
    let mut unparser = Unparser::new();
    for k in 0..CANDIDATES {
        let mut mask = Mask::new(tree.len());
        let mut off = 0;
        if !all.is_empty() {
            for _ in 0..1 + rng.below(8) {
                mask = Proposal::Off(vec![all[rng.below(all.len())]]).apply(&mask);
                off += 1;
            }
        }
        let mut hoists = 0;
        if units.hoistable_count() > 0 && rng.chance(0.5) {
            if let Some(hoisted) = random_hoist(&units, &mask, rng) {
                mask = hoisted;
                hoists += 1;
            }
        }
        let candidate = guarded(&format!("unparsing candidate {k} ({mask:?})"), || {
            unparse(&mut unparser, &tree, &mask)
        })?;
        // each cut may put one space between tokens it would glue
        let most = text.len() + 4 * (off + hoists);
        if candidate.len() > most {
            return Err(format!(
                "candidate {k} ({mask:?}) has {} bytes, more than {most}",
                candidate.len()
            ));
        }
        let again = guarded(&format!("parsing candidate {k} ({mask:?})"), || {
            fe.parse(Arc::from(candidate.as_slice()))
        })?;
        check_parse(&again, &candidate, &format!("candidate {k} ({mask:?})"))?;
        if let Some(base) = &base {
            let (from, parse) =
                guarded("the guard on a candidate", || fe.syntax_errors_from(base, &candidate))?;
            let full = match one_file {
                true => again.error_count(),
                false => guarded("the guard's count", || fe.syntax_errors(&candidate))?,
            };
            if from != full {
                return Err(format!(
                    "candidate {k} ({mask:?}): the guard counts {from} errors, from scratch {full}"
                ));
            }
            // re-parsed from the candidate before it, as the guard does
            // from a recent parse closer than the best's
            if let Some(previous) = &previous {
                let (from, _) = guarded("the guard from the candidate before", || {
                    fe.syntax_errors_from(previous, &candidate)
                })?;
                if from != full {
                    return Err(format!(
                        "candidate {k} ({mask:?}): the guard counts {from} errors from the \
                         candidate before's parse, from scratch {full}"
                    ));
                }
            }
            previous = parse;
        }
    }
    Ok(())
}

/// A tree of `text` is well formed, not too large, and unparses to `text`.
fn check_parse(tree: &Tree, text: &[u8], what: &str) -> Result<(), String> {
    guarded(&format!("checking the tree of {what}"), || check_tree(tree, what))?;
    let most = NODES_PER_BYTE * text.len() + 16;
    if tree.len() > most {
        return Err(format!("{what}: {} nodes for {} bytes", tree.len(), text.len()));
    }
    let out = guarded("unparsing", || unparse(&mut Unparser::new(), tree, &Mask::new(tree.len())))?;
    if out != text {
        return Err(format!(
            "{what} does not round-trip: {} bytes back for {}, first difference at byte {}",
            out.len(),
            text.len(),
            first_difference(&out, text)
        ));
    }
    Ok(())
}

/// A failed round, for the report.
struct Failure {
    round: u64,
    input: String,
    mutation: String,
    lang: &'static str,
    error: String,
    saved: PathBuf,
}

/// Writes a failing mutant where the report says; its path.
fn save(settings: &Settings, round: u64, name: &str, bytes: &[u8]) -> PathBuf {
    let ext =
        Path::new(name).extension().map_or("txt".into(), |e| e.to_string_lossy().into_owned());
    let path = std::env::temp_dir().join(format!("hdd-fuzz-{:x}-{round}.{ext}", settings.seed));
    fs::write(&path, bytes).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    path
}

/// The report of every failure, with how to replay each.
fn report(settings: &Settings, test: &str, failures: &[Failure], rounds: u64) -> String {
    let mut out =
        format!("{} of {rounds} rounds failed (seed {:#x}):\n", failures.len(), settings.seed);
    for f in failures.iter().take(MAX_FAILURES) {
        out.push_str(&format!(
            "\nround {}: {} through {}: {}\n  mutation: {}\n  mutant: hdd --dump-tree --lang {} {}\n  replay: {}\n",
            f.round,
            f.input,
            f.lang,
            f.error,
            f.mutation,
            f.lang,
            f.saved.display(),
            settings.replay(test, f.round),
        ));
    }
    out
}

/// Runs `round_fn` on rounds 0, 1, 2, ... on two threads: the first `sweep`
/// rounds always, then new ones until the time is up; or only the round a
/// replay asks for. Each thread notes its current round in `$TMPDIR`, for a
/// crash no `catch_unwind` stops. The rounds run, and the failures.
fn rounds(
    settings: &Settings,
    test: &str,
    sweep: u64,
    round_fn: impl Fn(u64) -> Vec<Failure> + Sync,
) -> (u64, Vec<Failure>) {
    let start = Instant::now();
    let budget = Duration::from_secs_f64(settings.secs.max(0.0));
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let failures = Mutex::new(Vec::new());
    let only = settings.round;
    std::thread::scope(|s| {
        for thread in 0..2 {
            let (next, done, failures, round_fn) = (&next, &done, &failures, &round_fn);
            s.spawn(move || {
                let note = std::env::temp_dir()
                    .join(format!("hdd-fuzz-now-{test}-{}-{thread}", std::process::id()));
                loop {
                    let round = match only {
                        Some(r) if next.fetch_add(1, Ordering::SeqCst) == 0 => r,
                        Some(_) => break,
                        None => next.fetch_add(1, Ordering::SeqCst),
                    };
                    let late = start.elapsed() >= budget;
                    if only.is_none() && round >= sweep && late {
                        break;
                    }
                    if failures.lock().expect("failures").len() >= MAX_FAILURES {
                        break;
                    }
                    let _ = fs::write(&note, format!("{}\n", settings.replay(test, round)));
                    let found = round_fn(round);
                    done.fetch_add(1, Ordering::SeqCst);
                    failures.lock().expect("failures").extend(found);
                }
                let _ = fs::remove_file(&note);
            });
        }
    });
    (done.into_inner(), failures.into_inner().expect("failures"))
}

#[test]
fn fuzz_every_input_mutated_through_every_frontend() {
    let settings = Settings::from_env();
    let inputs = inputs();
    let fes = frontends();
    let test = "fuzz_every_input";
    let sweep = (inputs.len() * MUTATIONS.len()) as u64;
    let (rounds, failures) = rounds(&settings, test, sweep, |round| {
        let (input, base, text, mutation) = mutant(&settings, &inputs, round);
        let mut rng = settings.rng(round ^ 0x5eed);
        if settings.round.is_some() {
            let saved = save(&settings, round, &inputs[input].name, &text);
            eprintln!("round {round}: {}, {mutation}: {}", inputs[input].name, saved.display());
        }
        let mut found = Vec::new();
        for (lang, fe) in frontends_of(&fes, inputs[input].lang, round, round < sweep) {
            if let Err(error) = check(fe.as_ref(), true, &base, &text, &mut rng) {
                let saved = save(&settings, round, &inputs[input].name, &text);
                found.push(Failure {
                    round,
                    input: inputs[input].name.clone(),
                    mutation: mutation.clone(),
                    lang,
                    error,
                    saved,
                });
            }
        }
        found
    });
    assert!(failures.is_empty(), "{}", report(&settings, test, &failures, rounds));
    assert!(rounds >= sweep || settings.round.is_some(), "only {rounds} rounds of {sweep}");
    println!("fuzz: {rounds} rounds ({sweep} in the sweep), seed {:#x}", settings.seed);
}

#[test]
fn fuzz_a_set_of_files_with_one_file_mutated() {
    // the directory cases: one file mutated (with no NUL, the forest's
    // separator), the set parsed by the forest's front-end, whose guard
    // re-parses only the changed file
    let settings = Settings::from_env();
    let test = "fuzz_a_set_of_files";
    for case in Case::all().iter().filter(|c| c.is_dir()) {
        let (texts, original, fe) = case.forest();
        let sweep = (texts.len() * MUTATIONS.len()) as u64;
        let (rounds, failures) = rounds(&settings, test, sweep, |round| {
            let mut rng = settings.rng(round);
            let (file, kind) = match round < sweep {
                true => (round as usize % texts.len(), round as usize / texts.len()),
                false => (rng.below(texts.len()), rng.below(MUTATIONS.len())),
            };
            let (text, how) = (MUTATIONS[kind].1)(&mut rng, &texts[file], round >= sweep);
            let text: Vec<u8> = text.into_iter().map(|c| if c == 0 { 1 } else { c }).collect();
            let mut files = texts.clone();
            files[file] = text;
            let joined = join(&files);
            let mutation = format!("file {file}: {}: {how}, NUL as 0x01", MUTATIONS[kind].0);
            match check(&fe, false, &original, &joined, &mut rng) {
                Ok(()) => Vec::new(),
                Err(error) => vec![Failure {
                    round,
                    input: case.name.clone(),
                    mutation,
                    lang: "forest",
                    error,
                    saved: save(&settings, round, "set.txt", &joined),
                }],
            }
        });
        assert!(failures.is_empty(), "{}", report(&settings, test, &failures, rounds));
    }
}

/// Runs the binary with `--dump-tree` with at most `limit` bytes of
/// address space (`RLIMIT_AS`, which the kernel enforces: a peak RSS read
/// by `wait4` would start at the test process's own, inherited through
/// `fork` and `exec`); its exit status.
fn dump_tree_within(file: &Path, lang: &str, limit: u64) -> std::process::ExitStatus {
    use std::os::unix::process::CommandExt;
    let mut cmd = hdd();
    cmd.args(["--dump-tree", "--lang", lang])
        .arg(file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // SAFETY: setrlimit is async-signal-safe; it only limits the child.
    unsafe {
        cmd.pre_exec(move || {
            let rl = libc::rlimit { rlim_cur: limit, rlim_max: limit };
            match libc::setrlimit(libc::RLIMIT_AS, &rl) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    cmd.status().expect("run hdd")
}

#[test]
fn fuzz_large_mutants_stay_in_bounded_memory() {
    // several megabytes on one line, and deep nesting, through the real
    // binary: it exits 0 with its address space limited to a multiple of
    // the input. tree-sitter's error recovery on deep nests of another
    // language costs up to about 600 bytes per byte (a nest of `[` as
    // JavaScript, of `<a>` as C), a line of one token a few bytes per byte.
    const MIB: u64 = 1 << 20;
    let c_line = ["int x;\n", &"a".repeat(4 << 20), "\nint y;\n"].concat();
    let json_string = ["[\"", &"x".repeat(4 << 20), "\"]\n"].concat();
    let dtd =
        format!("<!DOCTYPE a [<!ELEMENT a {}b{}>]><a/>", "(".repeat(200_000), ")".repeat(200_000));
    let all: &[&str] = &["c", "cpp", "js", "json", "xml", "text"];
    // name, text, languages, base and bytes per input byte
    let cases: Vec<(&str, String, &[&str], u64, u64)> = vec![
        ("line.c", c_line, all, 64 * MIB, 8),
        ("string.json", json_string, all, 64 * MIB, 8),
        (
            "nest.json",
            "[".repeat(100_000) + &"]".repeat(100_000),
            &["json", "js", "text"],
            128 * MIB,
            1024,
        ),
        (
            "nest.xml",
            "<a>".repeat(50_000) + &"</a>".repeat(50_000),
            &["xml", "text", "js"],
            128 * MIB,
            1024,
        ),
        ("braces.c", "{".repeat(50_000), all, 128 * MIB, 1024),
        ("dtd.xml", dtd, &["xml", "text"], 128 * MIB, 1024),
    ];
    let dir = scratch();
    let runs: Vec<(PathBuf, &str, u64)> = cases
        .iter()
        .flat_map(|(name, text, langs, base, per_byte)| {
            let path = dir.path().join(name);
            fs::write(&path, text).expect("write");
            let most = base + per_byte * text.len() as u64;
            langs.iter().map(move |&l| (path.clone(), l, most))
        })
        .collect();
    let results =
        crate::in_parallel(&runs, 2, |(path, lang, most)| dump_tree_within(path, lang, *most));
    let mut wrong = Vec::new();
    for ((path, lang, most), result) in runs.iter().zip(results) {
        let name = path.file_name().expect("name").to_string_lossy();
        match result {
            Ok(status) if status.success() => {}
            Ok(status) => wrong.push(format!(
                "{name} as {lang}: {status} within {} MiB of address space",
                most / MIB
            )),
            Err(e) => wrong.push(format!("{name} as {lang}: {e}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A word of `text` a grep oracle can look for, if it has one.
fn needle(rng: &mut Rng, text: &[u8]) -> Option<String> {
    let words: Vec<&[u8]> = text
        .split(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
        .filter(|w| w.len() >= 3 && w.len() <= 20 && !w[0].is_ascii_digit())
        .collect();
    (!words.is_empty()).then(|| String::from_utf8_lossy(words[rng.below(words.len())]).into())
}

#[test]
fn fuzz_mutants_reduced_end_to_end_by_the_binary() {
    // a few small mutants reduced by the real binary with a grep oracle and
    // --max-time, in their own language or another one: the exact exit code
    // (2 for a mutant with NUL bytes or none at all, 3 when the mutant has
    // no word to look for, else 0), one error line when not 0, the result
    // interesting, and nothing left behind: no temporary directory in the
    // private TMPDIR, no temporary file beside the output, no test process
    let settings = Settings::from_env();
    let inputs: Vec<Input> = inputs().into_iter().filter(|i| i.bytes.len() <= 4096).collect();
    let kinds = ["crlf", "bom", "nul", "latin1", "truncate", "invalid-utf8", "nest", "lines"];
    // input, mutation, mutant, language, the oracle's word
    type Run = (usize, String, Vec<u8>, &'static str, Option<String>);
    let runs: Vec<Run> = (0..kinds.len())
        .map(|i| {
            let mut rng = settings.rng(0xe2e0 + i as u64);
            let input = rng.below(inputs.len());
            let f = MUTATIONS.iter().find(|(n, _)| *n == kinds[i]).expect("kind").1;
            let (text, how) = f(&mut rng, &inputs[input].bytes, false);
            let lang = match i % 2 {
                0 => inputs[input].lang,
                _ => LANGUAGES[rng.below(LANGUAGES.len())].name,
            };
            let needle = needle(&mut rng, &text);
            (input, format!("{}: {how}", kinds[i]), text, lang, needle)
        })
        .collect();
    let results = crate::in_parallel(&runs, 2, |(input, how, text, lang, needle)| {
        let dir = scratch();
        let (work, tmp) = (dir.path().join("work"), dir.path().join("tmp"));
        fs::create_dir(&work).expect("mkdir");
        fs::create_dir(&tmp).expect("mkdir");
        let name = Path::new(&inputs[*input].name).file_name().expect("name").to_owned();
        let file = work.join(&name);
        fs::write(&file, text).expect("write");
        let pids = dir.path().join("pids");
        let word = needle.clone().unwrap_or_else(|| "no_such_word".into());
        let body = format!("echo $$ >> '{}'\ngrep -q -F -e {word} \"$1\"", pids.display());
        let test = script(&dir.path().join("t.sh"), &body);
        let out = hdd()
            .arg("-t")
            .arg(&test)
            .args(["--lang", lang, "--max-time", "2s", "-q", "-o"])
            .arg(work.join("out"))
            .arg(&file)
            .env("TMPDIR", &tmp)
            .output()
            .expect("run hdd");
        let expected = match () {
            _ if text.is_empty() || text.contains(&0) => 2,
            _ if needle.is_none() => 3,
            _ => 0,
        };
        let err = crate::stderr(&out);
        let what = format!("{} as {lang}, {how}", inputs[*input].name);
        assert_eq!(out.status.code(), Some(expected), "{what}: {err}");
        let errors = err.lines().filter(|l| l.starts_with("hdd: error:")).count();
        assert_eq!(errors, usize::from(expected != 0), "{what}: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
        if expected == 0 {
            let result = fs::read(work.join("out")).expect("the result");
            assert!(result.len() <= text.len(), "{what}: the result grew");
            let word = needle.as_deref().expect("a needle").as_bytes();
            assert!(result.windows(word.len()).any(|w| w == word), "{what}: not interesting");
        }
        let left: Vec<_> = fs::read_dir(&tmp).expect("ls").collect();
        assert!(left.is_empty(), "{what}: left in TMPDIR: {left:?}");
        let mut beside: Vec<String> = fs::read_dir(&work)
            .expect("ls")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        beside.sort();
        let mut want = vec![name.to_string_lossy().into_owned()];
        if expected == 0 {
            want.push("out".into());
            want.sort();
        }
        assert_eq!(beside, want, "{what}: files beside the output");
        let alive: Vec<i32> = fs::read_to_string(&pids)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            // SAFETY: signal 0 only checks that the process exists
            .filter(|&p| unsafe { libc::kill(p, 0) } == 0)
            .collect();
        assert!(alive.is_empty(), "{what}: test processes left: {alive:?}");
    });
    let failed: Vec<String> = results.into_iter().filter_map(Result::err).collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// A C file from which the fuzzer found a deletion ([`FUZZ_FOUND_CUT`])
/// that tree-sitter re-parses from the file's parse with 2 errors, and
/// from scratch with 1: its error recovery went another way.
const FUZZ_FOUND: &str = concat!(
    "#include <stdio.h>\n",
    "\n",
    "static int accumulate_values(int first_value, int second_value)\n",
    "{\n",
    "        int running_total = first_value;\n",
    "\n",
    "\n",
    "        if (second_value > 0)\n",
    "                running_total = running_total + second_value;\n",
    "        else\n",
    "                running_total = running_total - 1;\n",
    "        return running_total / 0;\n",
    "}\n",
    "\n",
    "int main(void)\n",
    "{\n",
    "        printf(\"%d\\n\",\n",
    "               accumulate_values(3,\n",
    "                                 4));\n",
    "        return 0;\n",
    "}\n",
);

/// The deletion from [`FUZZ_FOUND`].
const FUZZ_FOUND_CUT: &str = "l = first_value;\n\n\n        if";

#[test]
fn regression_the_guard_counts_a_cut_across_an_error_as_a_full_parse() {
    // found by random byte cuts of corpus windows: cutting across one of
    // the best's errors made a parse from scratch recover from another, 1 KB
    // later, with one error node where the re-parse kept the best's two
    // nested ones (5 errors re-parsed, 4 from scratch); the guard trusted
    // the re-parse when its errors were the best's outside the cut
    let data = root().join("tests/data/guard");
    let read = |name: &str| fs::read_to_string(data.join(name)).expect("tests/data/guard");
    let best = read("cut-error-best.c");
    // the candidate: the best with these 30 bytes cut
    let cut = "t* fallback;\n    PyObject* imp";
    assert_eq!(best.matches(cut).count(), 1);
    let candidate = best.replacen(cut, "", 1);
    assert_eq!(guard_counts_as_a_full_parse("c", &best, &candidate), 4);
}

/// Candidates per round of [`fuzz_the_guard_along_a_reduction_of_every_corpus_file`].
const WALK: usize = 12;

/// One round of [`fuzz_the_guard_along_a_reduction_of_every_corpus_file`]:
/// `file` (its tree and units) with a random part switched off, as deep in
/// a reduction, then [`WALK`] candidates as the reducer makes them (a unit
/// off, a block of units of a level off, a hoist), each checked by the
/// guard against the current best, a third of them becoming the best.
fn guard_walk(
    fe: &dyn Frontend,
    tree: &Tree,
    units: &Units,
    allowed: usize,
    rng: &mut Rng,
) -> Result<(), String> {
    let mut mask = Mask::new(tree.len());
    let all = units.present_bfs(&mask);
    if all.is_empty() {
        return Ok(());
    }
    for _ in 0..rng.below(all.len().min(200)) {
        mask = Proposal::Off(vec![all[rng.below(all.len())]]).apply(&mask);
    }
    let mut unparser = Unparser::new();
    let text = unparse(&mut unparser, tree, &mask);
    let Some(mut base) = guarded("the guard's base", || fe.guard_base(&text))? else {
        return Ok(());
    };
    for k in 0..WALK {
        let present = units.present_bfs(&mask);
        if present.is_empty() {
            break;
        }
        let candidate = match rng.below(4) {
            0 => random_hoist(units, &mask, rng).unwrap_or_else(|| mask.clone()),
            1 => {
                // ddmin's blocks: neighbours in breadth-first order
                let (i, most) = (rng.below(present.len()), rng.below(64));
                let block = present[i..present.len().min(i + 1 + rng.below(1 + most))].to_vec();
                Proposal::Off(block).apply(&mask)
            }
            _ => (0..1 + rng.below(3)).fold(mask.clone(), |m, _| {
                Proposal::Off(vec![present[rng.below(present.len())]]).apply(&m)
            }),
        };
        let text = unparse(&mut unparser, tree, &candidate);
        let (from, parse) =
            guarded("the guard on a candidate", || fe.syntax_errors_from(&base, &text))?;
        let full = guarded("the guard's count", || fe.syntax_errors(&text))?;
        if from != full {
            return Err(format!(
                "candidate {k} ({candidate:?}): the guard counts {from} errors, from scratch {full}"
            ));
        }
        // the best moves on, as when the test said yes
        if full <= allowed && rng.below(3) == 0 {
            base = parse.ok_or("the guard kept no parse")?;
            mask = candidate;
        }
    }
    Ok(())
}

#[test]
fn fuzz_the_guard_along_a_reduction_of_every_corpus_file() {
    // the guard trusts a re-parse whose errors are the best's; walks of
    // candidates like a reduction's over every tree-sitter corpus file (the
    // C++ ones have hundreds of errors), each count checked against a parse
    // from scratch
    let settings = Settings::from_env();
    let test = "fuzz_the_guard_along";
    let files: Vec<_> = Case::all()
        .iter()
        .flat_map(Case::files)
        .filter_map(|(path, lang)| {
            let fe = crate::frontend(lang);
            let bytes = fs::read(&path).expect("input");
            fe.guard_base(&bytes)?;
            let tree = fe.parse(Arc::from(bytes.as_slice()));
            let units = Units::new(&tree);
            let name = path.strip_prefix(root()).unwrap_or(&path).display().to_string();
            Some((name, lang, fe, tree, units))
        })
        .collect();
    let sweep = files.len() as u64;
    let (rounds, failures) = rounds(&settings, test, sweep, |round| {
        let (name, lang, fe, tree, units) = &files[(round % sweep) as usize];
        let mut rng = settings.rng(round);
        match guard_walk(fe.as_ref(), tree, units, tree.error_count(), &mut rng) {
            Ok(()) => Vec::new(),
            Err(error) => vec![Failure {
                round,
                input: name.clone(),
                mutation: "a walk of candidates".into(),
                lang,
                error,
                saved: save(&settings, round, name, tree.src()),
            }],
        }
    });
    assert!(failures.is_empty(), "{}", report(&settings, test, &failures, rounds));
    println!("fuzz: {rounds} walks of {WALK} candidates ({sweep} in the sweep)");
}

/// Asserts that the guard counts the errors of `broken` re-parsed from the
/// parse of `original` as a parse from scratch does, and returns the count.
fn guard_counts_as_a_full_parse(lang: &str, original: &str, broken: &str) -> usize {
    let fe = crate::frontend(lang);
    let base = fe.guard_base(original.as_bytes()).expect("a base");
    let full = fe.syntax_errors(broken.as_bytes());
    assert_eq!(full, crate::parse(lang, broken.as_bytes()).error_count());
    assert_eq!(fe.syntax_errors_from(&base, broken.as_bytes()).0, full, "{broken}");
    full
}

#[test]
fn regression_the_guard_counts_a_broken_edit_of_a_valid_file_as_a_full_parse() {
    // found by the fuzzer (a deletion from tests/data's bug.c): re-parsing
    // from the valid original's parse, tree-sitter recovered from the error
    // another way than from scratch and the guard counted 2 errors, not 1
    let broken = FUZZ_FOUND.replacen(FUZZ_FOUND_CUT, "", 1);
    assert_eq!(guard_counts_as_a_full_parse("c", FUZZ_FOUND, &broken), 1);
}

#[test]
fn regression_the_guard_counts_a_new_error_beside_the_best_s_own_as_a_full_parse() {
    // the same deletion in a file that has an error of its own, as every
    // C++ input has: the guard trusts a re-parse whose errors are the
    // best's, and must not trust this one, whose recovery went another way
    // (3 errors re-parsed, 2 from scratch)
    let original = format!("{FUZZ_FOUND}int z = ;\n");
    let broken = original.replacen(FUZZ_FOUND_CUT, "", 1);
    let errors = |text: &str| crate::frontend("c").syntax_errors(text.as_bytes());
    assert_eq!(errors(&original), 1, "{original}");
    assert_eq!(guard_counts_as_a_full_parse("c", &original, &broken), 2);
}
