//! A set's copy kept from one run of the test to the next in the same run
//! directory, so that a test costs hdd what its candidate changes, not
//! what the set holds: writing every file of a set of hundreds for each
//! test, and removing them all after it, costs the file system far more
//! than a quick test (BENCHMARKS.md, "A directory of many files").
//!
//! The test may change its copy in any way, so what is kept is only what
//! is exactly as hdd made it, checked after each run ([`tidy`]) and
//! before each write ([`put`]):
//!
//! - after a run, everything in the working directory that is not one of
//!   the set's files, links or their directories goes (removed whole,
//!   whatever its permissions); a file stays only while it is a regular
//!   file with a single link, owned by hdd's user, with the permission
//!   bits its input file has (hdd gives them to every file it writes); a
//!   directory only while it is a directory with the mode hdd's
//!   directories are made with; a link only while it
//!   points where the set's link does;
//! - before a run, a kept file whose bytes differ from the candidate's is
//!   written again (never through a link: `O_NOFOLLOW`; made anew when its
//!   mode does not let its owner write it). Bytes are
//!   compared, not times: a test may write a file within the clock tick
//!   of hdd's own write, and leave its size as it was.
//!
//! Where the mode of new directories cannot be known (no
//! `/proc/self/status`), nothing is kept: every run writes its copy anew, as a single file's
//! run always does.

use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;
use std::sync::OnceLock;

use crate::os::dir::{self, remove_all, Kind};

/// The mode of hdd's new directories (`0777` less the umask), from the
/// umask that `/proc/self/status` shows (reading it does not change it, as
/// `umask(2)` would for every thread); `None` where it does not say.
fn dir_mode() -> Option<u32> {
    static MODE: OnceLock<Option<u32>> = OnceLock::new();
    *MODE.get_or_init(|| {
        let status = fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find_map(|l| l.strip_prefix("Umask:"))?;
        let umask = u32::from_str_radix(line.trim(), 8).ok()?;
        Some(0o777 & !umask)
    })
}

/// Removes everything in the directory `dir`, whatever its permissions.
pub(super) fn clear(dir: &Path) -> io::Result<()> {
    for (name, kind) in dir::entries(dir)? {
        remove(&dir.join(name), kind)?;
    }
    Ok(())
}

/// Removes `path`, of kind `kind` (a link is removed, never followed).
fn remove(path: &Path, kind: Kind) -> io::Result<()> {
    let here = dir::reach(path)?;
    match kind {
        Kind::Dir => remove_all(&here),
        _ => fs::remove_file(&*here),
    }
}

/// After a run: leaves in its working directory `work` only what of the
/// set's copy (the directory `name`, holding `files` with their
/// permission bits and `links`, both relative to it) is as hdd made it
/// (see the module's doc); removes the rest.
pub(super) fn tidy<'a>(
    work: &Path,
    name: &OsStr,
    files: impl IntoIterator<Item = (&'a Path, u32)>,
    links: impl IntoIterator<Item = (&'a Path, &'a Path)>,
) -> io::Result<()> {
    let Some(dir_mode) = dir_mode() else { return clear(work) };
    let files: HashMap<&Path, u32> = files.into_iter().collect();
    let links: HashMap<&Path, &Path> = links.into_iter().collect();
    let mut dirs: HashSet<&Path> = HashSet::new();
    for path in files.keys().chain(links.keys()) {
        // every ancestor but the set's directory itself (the empty path)
        for up in path.ancestors().skip(1).filter(|a| !a.as_os_str().is_empty()) {
            if !dirs.insert(up) {
                break;
            }
        }
    }
    let kept = Kept { files, links, dirs, dir_mode };
    for (entry, kind) in dir::entries(work)? {
        let path = work.join(&entry);
        if entry == name && kind == Kind::Dir && kept.has_mode(&path, dir_mode, false)? {
            kept.walk(&path, Path::new(""))?;
        } else {
            remove(&path, kind)?;
        }
    }
    Ok(())
}

/// What of a set's copy may be kept, by path relative to the set's
/// directory.
struct Kept<'a> {
    /// The set's files, with their permission bits.
    files: HashMap<&'a Path, u32>,
    links: HashMap<&'a Path, &'a Path>,
    dirs: HashSet<&'a Path>,
    dir_mode: u32,
}

impl Kept<'_> {
    /// Removes what may not be kept below `root.join(rel)`.
    fn walk(&self, root: &Path, rel: &Path) -> io::Result<()> {
        for (name, kind) in dir::entries(&root.join(rel))? {
            let rel = rel.join(name);
            let path = root.join(&rel);
            let keep = match kind {
                Kind::Dir => {
                    self.dirs.contains(rel.as_path())
                        && self.has_mode(&path, self.dir_mode, false)?
                }
                Kind::File => match self.files.get(rel.as_path()) {
                    Some(&mode) => self.has_mode(&path, mode, true)?,
                    None => false,
                },
                Kind::Link => match self.links.get(rel.as_path()) {
                    Some(target) => fs::read_link(&*dir::reach(&path)?)? == *target,
                    None => false,
                },
                Kind::Special => false,
            };
            match (keep, kind) {
                (true, Kind::Dir) => self.walk(root, &rel)?,
                (true, _) => {}
                (false, _) => remove(&path, kind)?,
            }
        }
        Ok(())
    }

    /// Whether `path` (not followed) is owned by hdd's user, has the mode
    /// `mode` and, for a file, a single link.
    fn has_mode(&self, path: &Path, mode: u32, file: bool) -> io::Result<bool> {
        let meta = fs::symlink_metadata(&*dir::reach(path)?)?;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        Ok(meta.mode() & 0o7777 == mode && meta.uid() == me && (!file || meta.nlink() == 1))
    }
}

/// Makes the file `path` hold `bytes`, with the permission bits `mode`: a
/// file [`tidy`] kept is left as it is when it holds them already, else
/// written again in place (when its owner may write it); anything else
/// there is replaced by a new file.
pub(super) fn put(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    match dir::reach(path).and_then(|here| fs::symlink_metadata(&*here)) {
        Ok(meta) if meta.is_file() && meta.mode() & 0o7777 == mode => {
            let here = dir::reach(path)?;
            if meta.len() == bytes.len() as u64 && fs::read(&*here)? == bytes {
                return Ok(());
            }
            if mode & 0o200 != 0 {
                let mut open = OpenOptions::new();
                open.write(true).truncate(true).custom_flags(libc::O_NOFOLLOW);
                return open.open(&*here)?.write_all(bytes);
            }
            remove(path, Kind::File)?;
        }
        Ok(meta) => remove(path, if meta.is_dir() { Kind::Dir } else { Kind::File })?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    if let Some(parent) = path.parent() {
        dir::create_dir_all(parent)?;
    }
    dir::write_new(path, bytes, mode)
}

/// Makes sure nothing is at `path` (a file a candidate leaves out).
pub(super) fn absent(path: &Path) -> io::Result<()> {
    match dir::reach(path).and_then(|here| fs::symlink_metadata(&*here)) {
        Ok(meta) => remove(path, if meta.is_dir() { Kind::Dir } else { Kind::File }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Makes `path` a symbolic link to `target`, unless it is one already.
pub(super) fn link(path: &Path, target: &Path) -> io::Result<()> {
    match dir::reach(path).and_then(|here| fs::read_link(&*here)) {
        Ok(now) if now == target => return Ok(()),
        Ok(_) => remove(path, Kind::Link)?,
        Err(_) => absent(path)?,
    }
    if let Some(parent) = path.parent() {
        dir::create_dir_all(parent)?;
    }
    std::os::unix::fs::symlink(target, &*dir::reach(path)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;
    use std::path::PathBuf;

    /// The set's files (one copied as it is, `bin/x.o`) and its link.
    fn tidy_set(work: &Path) -> io::Result<()> {
        let files = ["a.c", "sub/b.c", "c.c", "bin/x.o"].map(|f| (Path::new(f), 0o644));
        tidy(work, OsStr::new("src"), files, [(Path::new("l"), Path::new("a.c"))])
    }

    #[test]
    fn only_what_the_test_left_as_hdd_made_it_is_kept() {
        let top = tempfile::tempdir().expect("tempdir");
        let work = top.path().join("work");
        let src = work.join("src");
        fs::create_dir_all(&work).expect("mkdir");
        for (rel, text) in [("a.c", "a"), ("sub/b.c", "b"), ("c.c", "c"), ("bin/x.o", "\0")] {
            put(&src.join(rel), text.as_bytes(), 0o644).expect("put");
        }
        link(&src.join("l"), Path::new("a.c")).expect("link");
        let ino = |rel: &str| fs::symlink_metadata(src.join(rel)).expect("stat").ino();
        let before = (ino("a.c"), ino("sub/b.c"), ino("bin/x.o"));
        // what a test may do to its copy
        fs::write(src.join("a.out"), "x").expect("a new file");
        fs::create_dir_all(src.join("sub/obj")).expect("a new directory");
        fs::write(work.join("stray"), "x").expect("beside the set");
        fs::set_permissions(src.join("c.c"), fs::Permissions::from_mode(0o755)).expect("chmod");
        fs::remove_file(src.join("l")).expect("rm");
        std::os::unix::fs::symlink("/", src.join("l")).expect("a link elsewhere");
        fs::hard_link(src.join("bin/x.o"), top.path().join("x.o")).expect("a second link");
        tidy_set(&work).expect("tidy");
        let mut left: Vec<_> = walkdir(&work);
        left.sort();
        assert_eq!(left, ["src", "src/a.c", "src/bin", "src/sub", "src/sub/b.c"]);
        assert_eq!((ino("a.c"), ino("sub/b.c")), (before.0, before.1), "not kept");
        // the next candidate: what is unchanged stays, what differs is written
        fs::write(src.join("a.c"), "A").expect("the test changed it");
        put(&src.join("a.c"), b"a", 0o644).expect("put");
        put(&src.join("sub/b.c"), b"bb", 0o644).expect("put");
        put(&src.join("bin/x.o"), b"\0", 0o644).expect("put");
        absent(&src.join("c.c")).expect("absent");
        link(&src.join("l"), Path::new("a.c")).expect("link");
        assert_eq!(fs::read(src.join("a.c")).expect("a"), b"a");
        assert_eq!(fs::read(src.join("sub/b.c")).expect("b"), b"bb");
        assert_eq!(fs::read_link(src.join("l")).expect("l"), Path::new("a.c"));
        assert!(!src.join("c.c").exists());
        assert_ne!(ino("bin/x.o"), before.2, "a file with a second link was kept");
        assert_eq!(fs::metadata(top.path().join("x.o")).expect("x.o").nlink(), 1);
    }

    /// The paths below `dir`, relative to it.
    fn walkdir(dir: &Path) -> Vec<String> {
        let mut out = Vec::new();
        let mut todo = vec![PathBuf::new()];
        while let Some(rel) = todo.pop() {
            for e in fs::read_dir(dir.join(&rel)).expect("ls") {
                let e = e.expect("entry");
                let rel = rel.join(e.file_name());
                if e.file_type().expect("type").is_dir() {
                    todo.push(rel.clone());
                }
                out.push(rel.to_string_lossy().into_owned());
            }
        }
        out
    }
}
