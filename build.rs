//! Puts the commit hdd is built from into `--version` (`HDD_VERSION`):
//! `0.1.0 (3f2a9c1e5b7d)`, with `, modified` when the working tree had
//! changes, or the bare version when it is not built from a git checkout
//! (a published crate).

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let commit = git(&["rev-parse", "--short=12", "HEAD"]);
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).map(|s| !s.is_empty());
    let full = match (commit, dirty) {
        (Some(c), Some(true)) => format!("{version} ({c}, modified)"),
        (Some(c), _) => format!("{version} ({c})"),
        (None, _) => version,
    };
    println!("cargo:rustc-env=HDD_VERSION={full}");
    println!("cargo:rerun-if-changed=build.rs");
    // a commit, a checkout and staging all change these; a missing path
    // would make cargo run this script on every build
    if let Some(dir) = git(&["rev-parse", "--git-dir"]).map(PathBuf::from) {
        for file in ["HEAD", "index", "logs/HEAD"] {
            if dir.join(file).exists() {
                println!("cargo:rerun-if-changed={}", dir.join(file).display());
            }
        }
    }
}

/// What `git args` prints, trimmed; `None` when git is missing or fails.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}
