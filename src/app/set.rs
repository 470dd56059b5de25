//! A set of files reduced jointly: `hdd --test t.sh DIR` or
//! `hdd --test t.sh a.c b.h ...`.
//!
//! - A directory: every file under it is part of the set. A text file is
//!   reduced, in the language its extension selects (plain text for any
//!   other); a binary file (one with a NUL byte) is copied unchanged into
//!   every candidate. The test gets the copy of the directory's path.
//! - Files: each must be a text file; the set's directory is their common
//!   parent, but only the named files are in the copy the test sees (other
//!   files there are not copied). The test gets the copies' paths.
//!
//! Symbolic links are kept as links (in the test's copy, the result and an
//! `--in-place` backup), never followed nor written through; FIFOs, sockets
//! and devices are left out. Each file keeps its permission bits in the
//! test's copy and the result (a script the test runs stays executable).
//!
//! A file may be emptied, never removed: the test always finds every file
//! it was given (so a deleted header cannot be found silently elsewhere on
//! the include path). The candidate's bytes are the reduced files' texts
//! joined by [`forest::SEPARATOR`], in the set's order.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Result;

use super::error::Fatal;
use super::naming::original_name;
use crate::app::shown::shown;
use crate::language::{self, LangInfo};
use crate::oracle::runner::{Layout, SetLayout};
use crate::os::dir;
use crate::syntax::forest;

/// A set of files, as the command line gave it.
#[derive(Debug, Clone)]
pub struct FileSet {
    /// The directory given, or the files' common parent.
    pub root: PathBuf,
    /// The reduced files, relative to `root`, with their languages, sorted.
    pub files: Vec<(PathBuf, &'static LangInfo)>,
    /// Files copied unchanged (binary), relative to `root`.
    pub copied: Vec<PathBuf>,
    /// Symbolic links, relative to `root`, with what they point to: kept
    /// as links in the test's copy and the result, never followed.
    pub links: Vec<(PathBuf, PathBuf)>,
    /// The permission bits of each reduced and copied file, relative to
    /// `root`, as the input had them.
    pub modes: HashMap<PathBuf, u32>,
    /// A directory was given (the test gets its path), not files.
    pub is_dir: bool,
    /// The directory's name in the test's private copy: its own (of `.`,
    /// the name of the directory it is), as a file's is (`proj.reduced`
    /// is tested as `proj`); `--name` sets another.
    pub name: OsString,
}

impl FileSet {
    /// The set for a directory.
    pub fn of_dir(dir: &Path) -> Result<FileSet> {
        let (mut all, mut links) = (Vec::new(), Vec::new());
        walk(dir, dir, &mut all, &mut links)
            .map_err(|e| Fatal::usage(format!("cannot read {}: {e}", shown(&dir))))?;
        all.sort();
        links.sort();
        let (mut files, mut copied, mut modes) = (Vec::new(), Vec::new(), HashMap::new());
        for rel in all {
            let bytes = read(&dir.join(&rel))?;
            modes.insert(rel.clone(), mode(&dir.join(&rel))?);
            if bytes.contains(&0) {
                copied.push(rel);
            } else {
                files.push((rel.clone(), lang_of(&rel)));
            }
        }
        if files.is_empty() {
            return Err(Fatal::usage(format!(
                "{} has no text file: there is nothing to reduce",
                shown(&dir)
            )));
        }
        let name = test_name(dir);
        Ok(FileSet { root: dir.to_path_buf(), files, copied, links, modes, is_dir: true, name })
    }

    /// The set for several files.
    pub fn of_files(paths: &[PathBuf]) -> Result<FileSet> {
        let mut abs = Vec::new();
        for p in paths {
            if !dir::reach(p).is_ok_and(|p| p.is_file()) {
                return Err(Fatal::usage(format!("cannot read {}: no such file", shown(&p))));
            }
            let a = dir::absolute(p)
                .map_err(|e| Fatal::usage(format!("cannot read {}: {e}", shown(&p))))?;
            if read(&a)?.contains(&0) {
                return Err(Fatal::usage(format!(
                    "{} looks binary (it contains NUL bytes); hdd reduces text formats",
                    shown(&p)
                )));
            }
            abs.push(a);
        }
        let mut root = abs[0].parent().unwrap_or(Path::new("/")).to_path_buf();
        while !abs.iter().all(|a| a.starts_with(&root)) {
            root = root.parent().unwrap_or(Path::new("/")).to_path_buf();
        }
        let mut files: Vec<(PathBuf, &'static LangInfo)> = abs
            .iter()
            .map(|a| {
                let rel = a.strip_prefix(&root).unwrap_or(a).to_path_buf();
                (rel.clone(), lang_of(&rel))
            })
            .collect();
        files.sort_by(|a, b| a.0.cmp(&b.0));
        files.dedup_by(|a, b| a.0 == b.0);
        let modes = files
            .iter()
            .map(|(rel, _)| Ok((rel.clone(), mode(&root.join(rel))?)))
            .collect::<Result<_>>()?;
        let name = test_name(&root);
        let links = Vec::new();
        Ok(FileSet { root, files, copied: Vec::new(), links, modes, is_dir: false, name })
    }

    /// The reduced files' texts, joined as a candidate is.
    pub fn read(&self) -> Result<Vec<u8>> {
        let texts: Vec<Vec<u8>> =
            self.files.iter().map(|(rel, _)| read(&self.root.join(rel))).collect::<Result<_>>()?;
        if texts.iter().all(Vec::is_empty) {
            return Err(Fatal::usage(format!(
                "the files of {} are empty: there is nothing to reduce",
                shown(&self.root)
            )));
        }
        Ok(forest::join(&texts))
    }

    /// The languages of the reduced files, in order.
    pub fn langs(&self) -> Vec<&'static LangInfo> {
        self.files.iter().map(|(_, l)| *l).collect()
    }

    /// How the runner lays a candidate out.
    pub fn layout(&self) -> Result<Layout> {
        let copied = self
            .copied
            .iter()
            .map(|rel| Ok((rel.clone(), Arc::from(read(&self.root.join(rel))?))))
            .collect::<Result<_>>()?;
        Ok(Layout::Set(SetLayout {
            dir: self.name.clone(),
            files: self.files.iter().map(|(rel, _)| rel.clone()).collect(),
            copied,
            links: self.links.clone(),
            modes: self.modes.clone(),
            pass_dir: self.is_dir,
        }))
    }

    /// The files of a result (`text` as a candidate is) and the copied
    /// files, relative to the set's directory, for the output.
    /// The files `absent` marks are left out (empty files the test does
    /// not need, removed at the end of a run).
    pub fn result<'a>(
        &'a self,
        text: &'a [u8],
        copied: &'a [(PathBuf, Arc<[u8]>)],
        absent: &'a [bool],
    ) -> impl Iterator<Item = (&'a Path, &'a [u8])> {
        let texts = forest::split(text);
        self.files
            .iter()
            .zip(texts)
            .enumerate()
            .filter(|(i, _)| !absent.get(*i).copied().unwrap_or(false))
            .map(|(_, ((rel, _), t))| (rel.as_path(), t))
            .chain(copied.iter().map(|(rel, b)| (rel.as_path(), &**b)))
    }

    /// A shell command that runs the test the way hdd does, for the user.
    pub fn reproduction(&self, test: &str, quote: impl Fn(&str) -> String) -> String {
        let root = std::fs::canonicalize(&self.root).unwrap_or_else(|_| self.root.clone());
        let name = quote(&self.name.to_string_lossy());
        let root = quote(&root.to_string_lossy());
        if self.is_dir {
            return format!(
                "(d=$(mktemp -d) && cp -r {root} \"$d/{name}\" && cd \"$d/{name}\" && {test} \"$d/{name}\"; echo \"exit code $?\")"
            );
        }
        let rels: Vec<String> =
            self.files.iter().map(|(r, _)| quote(&r.to_string_lossy())).collect();
        let args: Vec<String> = rels.iter().map(|r| format!("\"$d/{name}/\"{r}")).collect();
        format!(
            "(d=$(mktemp -d) && mkdir \"$d/{name}\" && cd {root} && cp --parents {} \"$d/{name}\" && cd \"$d/{name}\" && {test} {}; echo \"exit code $?\")",
            rels.join(" "),
            args.join(" ")
        )
    }
}

/// The name a test knows the directory `root` by: its own, or of `.` and
/// `..` the name of the directory they are, with a `.reduced` taken out.
fn test_name(root: &Path) -> OsString {
    let absolute = dir::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    let named = if root.file_name().is_some() { root } else { &absolute };
    let own = named.file_name().unwrap_or(OsStr::new("input"));
    original_name(own)
}

/// The language a file of a set is reduced in: by extension, else text.
fn lang_of(path: &Path) -> &'static LangInfo {
    language::by_path(path)
        .or_else(|| language::by_name("text"))
        .expect("the registry has plain text")
}

/// The file `path`, however long its path (a set in a directory deeper
/// than `PATH_MAX`, or with files that deep below it).
fn read(path: &Path) -> Result<Vec<u8>> {
    dir::read(path).map_err(|e| Fatal::usage(format!("cannot read {}: {e}", shown(&path))))
}

/// The permission bits of the file `path`, however long its path.
fn mode(path: &Path) -> Result<u32> {
    dir::mode(path).map_err(|e| Fatal::usage(format!("cannot read {}: {e}", shown(&path))))
}

/// Every file under `dir` (following no symbolic link to a directory),
/// relative to `root`, however deep.
fn walk(
    root: &Path,
    dir: &Path,
    out: &mut Vec<PathBuf>,
    links: &mut Vec<(PathBuf, PathBuf)>,
) -> std::io::Result<()> {
    for (name, kind) in dir::entries(dir)? {
        let path = dir.join(name);
        let rel = || path.strip_prefix(root).unwrap_or(&path).to_path_buf();
        match kind {
            dir::Kind::Dir => walk(root, &path, out, links)?,
            dir::Kind::File => out.push(rel()),
            dir::Kind::Link => links.push((rel(), std::fs::read_link(&*dir::reach(&path)?)?)),
            // a FIFO or a device is not a file to reduce, nor one to copy
            dir::Kind::Special => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_is_its_text_files_and_copies_its_binary_ones() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("proj");
        std::fs::create_dir_all(root.join("inc")).expect("mkdir");
        std::fs::write(root.join("main.c"), "int main;").expect("w");
        std::fs::write(root.join("inc/a.h"), "int a;").expect("w");
        std::fs::write(root.join("Makefile"), "all:").expect("w");
        std::fs::write(root.join("logo.bin"), b"\x00\x01").expect("w");
        let set = FileSet::of_dir(&root).expect("set");
        let names: Vec<(String, &str)> =
            set.files.iter().map(|(p, l)| (p.to_string_lossy().into_owned(), l.name)).collect();
        assert_eq!(
            names,
            [("Makefile".into(), "text"), ("inc/a.h".into(), "c"), ("main.c".into(), "c")]
        );
        assert_eq!(set.copied, [PathBuf::from("logo.bin")]);
        assert_eq!(set.read().expect("read"), b"all:\0int a;\0int main;");
        let files = FileSet::of_files(&[root.join("main.c"), root.join("inc/a.h")]).expect("files");
        assert_eq!(files.root, std::fs::canonicalize(&root).expect("abs"));
        assert_eq!(files.files.len(), 2);
        assert!(FileSet::of_files(&[root.join("logo.bin")]).is_err());
    }
}
