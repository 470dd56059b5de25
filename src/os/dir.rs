//! Directories by descriptor, for paths of `PATH_MAX` bytes or more.
//!
//! The kernel refuses a path that long, however real the directory it
//! names: an output, an input set, a `--work-dir` or a `$TMPDIR` in a
//! directory that deep cannot be reached by its absolute path (and
//! `tempfile` makes every relative path absolute). A [`Dir`] is an open
//! descriptor of a directory, opened piece by piece however long its path;
//! what is inside it is reached by short names (`openat`, `renameat`,
//! `unlinkat`), or as `/proc/self/fd/N/NAME` ([`Dir::path`]) by the
//! standard library and, when the descriptor is [inherited](Dir::inherited),
//! by the test's processes.
//!
//! [`reach`] and the functions beside it take paths of any length and go
//! through a descriptor only when they must: a path shorter than
//! `PATH_MAX` is used as it is.

use std::ffi::{CString, OsStr, OsString};
use std::fs;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// The length from which the kernel refuses a path (the terminating NUL
/// included, a path of `PATH_MAX` bytes does not fit).
pub(crate) const PATH_MAX: usize = libc::PATH_MAX as usize;

/// An open directory.
#[derive(Debug)]
pub(crate) struct Dir(OwnedFd);

impl Dir {
    /// Opens the directory `path`, however long (close-on-exec): a path
    /// longer than `PATH_MAX` is opened in pieces, each from the last.
    pub(crate) fn open(path: &Path) -> io::Result<Dir> {
        let mut dir: Option<Dir> = None;
        for piece in pieces(path) {
            let at = dir.as_ref().map_or(libc::AT_FDCWD, |d| d.0.as_raw_fd());
            dir = Some(Dir(open_dir_at(at, piece.as_os_str())?));
        }
        dir.ok_or_else(|| io::ErrorKind::InvalidInput.into())
    }

    /// This directory, its descriptor inherited by the processes hdd
    /// starts (so that [`Dir::path`] names it in them too).
    pub(crate) fn inherited(self) -> io::Result<Dir> {
        // SAFETY: fcntl on a descriptor we own; it only clears FD_CLOEXEC.
        if unsafe { libc::fcntl(self.0.as_raw_fd(), libc::F_SETFD, 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(self)
    }

    /// `/proc/self/fd/N`: a short absolute path of this directory, valid
    /// while it is open (in hdd, and in its children if inherited).
    pub(crate) fn path(&self) -> PathBuf {
        PathBuf::from(format!("/proc/self/fd/{}", self.0.as_raw_fd()))
    }

    /// [`Dir::path`], the descriptor left open for the rest of the process.
    pub(crate) fn leak(self) -> PathBuf {
        let path = self.path();
        let _ = self.0.into_raw_fd();
        path
    }

    /// Creates `PREFIX` + six random characters + `.hdd-tmp`, new, mode 0600.
    pub(crate) fn create_temp(&self, prefix: &OsStr) -> io::Result<(OsString, fs::File)> {
        const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        let mut seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            ^ u64::from(std::process::id()).rotate_left(32);
        for _ in 0..100 {
            let mut name = prefix.to_os_string();
            let mut tag = String::new();
            for _ in 0..6 {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                tag.push(CHARS[(seed >> 33) as usize % CHARS.len()] as char);
            }
            name.push(tag);
            name.push(".hdd-tmp");
            let c = cstr(&name)?;
            let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_CLOEXEC;
            // SAFETY: a valid directory descriptor and C string.
            let fd = unsafe { libc::openat(self.0.as_raw_fd(), c.as_ptr(), flags, 0o600) };
            if fd >= 0 {
                // SAFETY: openat succeeded; the descriptor is ours alone.
                return Ok((name, unsafe { fs::File::from_raw_fd(fd) }));
            }
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::AlreadyExists {
                return Err(e);
            }
        }
        Err(io::ErrorKind::AlreadyExists.into())
    }

    /// Renames `from` to `to`, both names in this directory.
    pub(crate) fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        let (f, t) = (cstr(from)?, cstr(to)?);
        let fd = self.0.as_raw_fd();
        // SAFETY: a valid directory descriptor and C strings.
        if unsafe { libc::renameat(fd, f.as_ptr(), fd, t.as_ptr()) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// Removes the file `name` of this directory, if it can.
    pub(crate) fn unlink(&self, name: &OsStr) {
        if let Ok(c) = cstr(name) {
            // SAFETY: a valid directory descriptor and C string.
            unsafe { libc::unlinkat(self.0.as_raw_fd(), c.as_ptr(), 0) };
        }
    }
}

/// Opens the directory `path` relative to `at` (close-on-exec).
fn open_dir_at(at: RawFd, path: &OsStr) -> io::Result<OwnedFd> {
    let c = cstr(path)?;
    // O_PATH: a directory hdd may search but not list is opened too
    let flags = libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC;
    // SAFETY: `at` is AT_FDCWD or a descriptor the caller holds open; a
    // valid C string.
    let fd = unsafe { libc::openat(at, c.as_ptr(), flags) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: openat succeeded; the descriptor is ours alone.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// `path` cut into pieces shorter than `PATH_MAX`, each relative to the
/// one before (the first as `path` is: absolute, or from the working
/// directory).
fn pieces(path: &Path) -> Vec<PathBuf> {
    if path.as_os_str().len() < PATH_MAX {
        return vec![path.to_path_buf()];
    }
    let mut out = Vec::new();
    let mut piece = PathBuf::new();
    for c in path.components() {
        let len = piece.as_os_str().len();
        if len > 0 && len + 1 + c.as_os_str().len() >= PATH_MAX {
            out.push(std::mem::take(&mut piece));
        }
        piece.push(c);
    }
    out.push(piece);
    out
}

fn cstr(s: &OsStr) -> io::Result<CString> {
    CString::new(s.as_bytes()).map_err(|_| io::ErrorKind::InvalidInput.into())
}

/// Whether the kernel takes `path` as it is.
pub(crate) fn fits(path: &Path) -> bool {
    path.as_os_str().len() < PATH_MAX
}

/// The canonical path of `path`; where `realpath` fails (past `PATH_MAX`,
/// or a path that does not exist yet), the path made absolute with `..`
/// taken lexically (a symbolic link followed by `..` is then taken as its
/// name's parent, not its target's).
pub(crate) fn absolute(path: &Path) -> io::Result<PathBuf> {
    if let Ok(real) = fs::canonicalize(path) {
        return Ok(real);
    }
    let mut out = PathBuf::new();
    for c in std::path::absolute(path)?.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

/// A path short enough for the kernel that names `path`, however long
/// `path` is: `path` itself when it [fits], else `/proc/self/fd/N/NAME`
/// through a descriptor of its directory, open while this lives.
#[derive(Debug)]
pub(crate) struct ShortPath {
    path: PathBuf,
    _dir: Option<Dir>,
}

impl std::ops::Deref for ShortPath {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

/// The [`ShortPath`] of `path`: what the standard library can open.
pub(crate) fn reach(path: &Path) -> io::Result<ShortPath> {
    if fits(path) {
        return Ok(ShortPath { path: path.to_path_buf(), _dir: None });
    }
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(io::ErrorKind::InvalidInput.into());
    };
    let dir = Dir::open(parent)?;
    Ok(ShortPath { path: dir.path().join(name), _dir: Some(dir) })
}

/// [`fs::read`], for a path of any length.
pub(crate) fn read(path: &Path) -> io::Result<Vec<u8>> {
    fs::read(&*reach(path)?)
}

/// The permission bits (read, write, execute of owner, group and others)
/// of the file `path` (of any length, not followed).
pub(crate) fn mode(path: &Path) -> io::Result<u32> {
    use std::os::unix::fs::MetadataExt;
    Ok(fs::symlink_metadata(&*reach(path)?)?.mode() & PERMISSIONS)
}

/// The bits [`mode`] reads and [`write_new`] sets: a set's files keep
/// them (a script the test runs stays executable); set-id and sticky bits
/// are not copied.
pub(crate) const PERMISSIONS: u32 = 0o777;

/// Makes a new file `path` (of any length; nothing may be there) holding
/// `bytes`, with the permission bits `mode` whatever the umask. It is
/// made writable by its owner only, then given `mode` once written, so a
/// read-only mode does not stop the write.
pub(crate) fn write_new(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let mut file =
        fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&*reach(path)?)?;
    file.write_all(bytes)?;
    file.set_permissions(fs::Permissions::from_mode(mode & PERMISSIONS))
}

/// [`fs::create_dir_all`], for a path of any length.
pub(crate) fn create_dir_all(path: &Path) -> io::Result<()> {
    if fits(path) {
        return fs::create_dir_all(path);
    }
    if let Some(parent) = path.parent() {
        create_dir_all(parent)?;
    }
    let here = reach(path)?;
    match fs::create_dir(&*here) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && here.is_dir() => Ok(()),
        done => done,
    }
}

/// What a directory entry is, the entry itself (a link is not followed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Dir,
    File,
    Link,
    /// A FIFO, a socket or a device.
    Special,
}

impl Kind {
    fn of(t: fs::FileType) -> Kind {
        match () {
            _ if t.is_dir() => Kind::Dir,
            _ if t.is_file() => Kind::File,
            _ if t.is_symlink() => Kind::Link,
            _ => Kind::Special,
        }
    }
}

/// The names in the directory `path` (of any length), with what each is
/// (not following symbolic links).
pub(crate) fn entries(path: &Path) -> io::Result<Vec<(OsString, Kind)>> {
    let here = reach(path)?;
    let mut out = Vec::new();
    for entry in fs::read_dir(&*here)? {
        let entry = entry?;
        out.push((entry.file_name(), Kind::of(entry.file_type()?)));
    }
    Ok(out)
}

/// Removes the directory `path` and everything in it, as
/// [`fs::remove_dir_all`] (a link is removed, never followed), also where a
/// test took the permissions away from directories it made (`chmod 000`).
/// Root passes every permission check, any other user does not: the first
/// removal fails, the owner's read, write and search permissions are given
/// back to every directory below `path` that hdd's user owns, and the
/// removal is tried again. Directories of other owners are left as they
/// are: hdd only ever removes its own directories this way.
pub(crate) fn remove_all(path: &Path) -> io::Result<()> {
    match fs::remove_dir_all(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => {
            give_back(path);
            fs::remove_dir_all(path)
        }
        done => done,
    }
}

/// Gives the owner read, write and search permission on the directory
/// `path` and on every directory below it, where hdd's user owns them;
/// links are not followed. A directory is opened only once it is readable,
/// so this goes down as far as the permissions given back let it.
fn give_back(path: &Path) {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    let mut todo = vec![path.to_path_buf()];
    while let Some(dir) = todo.pop() {
        let Ok(meta) = fs::symlink_metadata(&dir) else { continue };
        if !meta.is_dir() || meta.uid() != me {
            continue;
        }
        let mode = meta.permissions().mode();
        if mode & 0o700 != 0o700 {
            let _ = fs::set_permissions(&dir, fs::Permissions::from_mode(mode | 0o700));
        }
        let Ok(entries) = fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                todo.push(entry.path());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_longer_than_path_max_are_reached_piece_by_piece() {
        let top = tempfile::tempdir().expect("tempdir");
        let name = "d".repeat(200);
        let deep = (0..25).fold(top.path().to_path_buf(), |p, _| p.join(&name));
        assert!(!fits(&deep));
        assert!(fs::create_dir_all(&deep).is_err(), "the kernel took a path past PATH_MAX");
        create_dir_all(&deep).expect("mkdir -p, deep");
        create_dir_all(&deep).expect("again: it exists");
        let file = deep.join("f.c");
        write_new(&file, b"int x;", 0o751).expect("write");
        assert_eq!(read(&file).expect("read"), b"int x;");
        assert_eq!(mode(&file).expect("mode"), 0o751, "not the mode given, whatever the umask");
        assert!(write_new(&file, b"", 0o644).is_err(), "a file that exists was written");
        assert_eq!(entries(&deep).expect("ls"), [(OsString::from("f.c"), Kind::File)]);
        let dir = Dir::open(&deep).expect("open");
        assert_eq!(fs::read(dir.path().join("f.c")).expect("through /proc"), b"int x;");
        dir.rename(OsStr::new("f.c"), OsStr::new("g.c")).expect("rename");
        assert_eq!(read(&deep.join("g.c")).expect("renamed"), b"int x;");
        for p in pieces(&deep) {
            assert!(fits(&p), "{}", p.display());
        }
        assert_eq!(pieces(&deep).iter().collect::<PathBuf>(), deep);
    }

    #[test]
    fn a_tree_whose_directories_lost_their_permissions_is_removed() {
        use std::os::unix::fs::PermissionsExt;
        let top = tempfile::tempdir().expect("tempdir");
        let root = top.path().join("run");
        fs::create_dir_all(root.join("work/locked/inner")).expect("mkdir");
        fs::write(root.join("work/locked/inner/f"), "x").expect("write");
        std::os::unix::fs::symlink(top.path(), root.join("work/link")).expect("link");
        for d in ["work/locked/inner", "work/locked", "work"] {
            fs::set_permissions(root.join(d), fs::Permissions::from_mode(0o000)).expect("chmod");
        }
        remove_all(&root).expect("removed");
        assert!(!root.exists());
        assert!(top.path().is_dir(), "a link was followed");
        assert_eq!(remove_all(&root).map_err(|e| e.kind()), Err(io::ErrorKind::NotFound));
    }
}
