//! The name a test knows an input by, so that a run on a result tests it
//! under the original's name: `bug.reduced.c` as `bug.c`, the directory
//! `proj.reduced` as `proj`.

use std::ffi::{OsStr, OsString};

/// The name a test knows an input by: `own` with a `.reduced` before the
/// extension (or at the end, of a directory) taken out, so that
/// `bug.reduced.c` is tested as `bug.c` and `proj.reduced` as `proj`.
pub(crate) fn original_name(own: &OsStr) -> OsString {
    let Some(text) = own.to_str() else { return own.to_os_string() };
    match text.rsplit_once(".reduced") {
        Some((stem, rest)) if !stem.is_empty() && (rest.is_empty() || rest.starts_with('.')) => {
            format!("{stem}{rest}").into()
        }
        _ => own.to_os_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reduced_name_is_tested_as_the_original() {
        let name = |s: &str| original_name(OsStr::new(s)).into_string().expect("utf-8");
        assert_eq!(name("bug.reduced.c"), "bug.c");
        assert_eq!(name("proj.reduced"), "proj");
        assert_eq!(name("data.min.reduced.json"), "data.min.json");
        assert_eq!(name(".reduced"), ".reduced");
        assert_eq!(name("bug.reducedx.c"), "bug.reducedx.c");
    }
}
