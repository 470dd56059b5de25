//! The names of hdd's own files beside an output: its lock
//! (`.NAME.hdd-lock`) and its temporary files and directories
//! (`.NAME.PID.XXXXXX.hdd-tmp`, `.NAME.PID.XXXXXX.hdd-old`).
//!
//! Invariant: every such name fits in `NAME_MAX` whatever the output's
//! name, and names its output: when `.NAME` and the longest tail would not
//! fit, the stem is a hash of the name, the same for every run and build.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The longest name a directory entry may have (`NAME_MAX`).
pub(super) const NAME_MAX: usize = 255;

/// The longest tail hdd appends to a stem: `.PID.XXXXXX.hdd-tmp`.
const TAIL_MAX: usize = 1 + 10 + 1 + 6 + 8;

/// The start of the names of hdd's own files beside the output named
/// `name`: `.NAME`, or `.hdd-HASH` when `.NAME` and a tail would not fit in
/// a name.
pub(super) fn stem(name: &OsStr) -> OsString {
    let bytes = name.as_bytes();
    if 1 + bytes.len() + TAIL_MAX <= NAME_MAX {
        let mut s = OsString::from(".");
        s.push(name);
        return s;
    }
    // FNV-1a: the same for every run and every build of hdd
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    OsString::from(format!(".hdd-{hash:016x}"))
}

/// The stem of the output `path` (see [`stem`]).
pub(super) fn stem_of(path: &Path) -> OsString {
    stem(path.file_name().unwrap_or(OsStr::new("output")))
}

/// The directory `path` is in.
pub(super) fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// The start of the temporary names of the output `path`: `STEM.PID.`.
pub(super) fn temp_prefix(path: &Path) -> OsString {
    let mut prefix = stem_of(path);
    prefix.push(format!(".{}.", std::process::id()));
    prefix
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_fit_for_the_longest_output_name_and_name_their_output() {
        for len in [1, 200, 228, 229, 255] {
            let name = "a".repeat(len);
            let prefix = temp_prefix(Path::new(&name));
            assert!(prefix.len() + 6 + ".hdd-tmp".len() <= NAME_MAX, "{len}: {prefix:?}");
            assert!(stem(OsStr::new(&name)).len() + ".hdd-lock".len() <= NAME_MAX, "{len}");
        }
        assert_eq!(stem(OsStr::new("bug.c")), ".bug.c");
        assert_ne!(stem(OsStr::new(&"a".repeat(250))), stem(OsStr::new(&"b".repeat(250))));
    }
}
