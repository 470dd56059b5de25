//! The real corpus cases, reduced by the real binary with their real
//! oracles: every result must still be interesting (checked again here, by
//! the oracle itself), well under a stated size, and still shaped like its
//! language (no dangling separators, no new syntax errors).

use std::fs;
use std::path::Path;
use std::sync::Arc;

use crate::{hdd, root, run, scratch, stderr};

/// Reduces a corpus case and checks the result; returns it.
fn check(case: &str, max_bytes: usize) -> Vec<u8> {
    let dir = root().join("corpora").join(case);
    let env = fs::read_to_string(dir.join("case.env")).expect("case.env");
    let input = env.lines().find_map(|l| l.strip_prefix("input=")).expect("input=");
    let work = scratch();
    let path = work.path().join(input);
    fs::copy(dir.join(input), &path).expect("copy");
    let original = fs::read(&path).expect("input");
    let lang = case.split('/').next().expect("lang");
    let out = run(hdd()
        .arg("-t")
        .arg(dir.join("test.sh"))
        .arg(&path)
        .args(["-j", "2", "-q", "--lang", lang]));
    assert!(out.status.success(), "{case}: {}", stderr(&out));
    assert_eq!(fs::read(&path).expect("input"), original, "{case}: the input changed");

    let reduced = work.path().join(reduced_name(input));
    let result = fs::read(&reduced).expect("result");
    assert!(
        result.len() <= max_bytes,
        "{case}: {} bytes, more than {max_bytes}:\n{}",
        result.len(),
        String::from_utf8_lossy(&result)
    );
    assert!(interesting(&dir, input, &result), "{case}: the result is not interesting");

    // no more syntax errors than the input had
    let lang = case.split('/').next().expect("lang");
    let fe = hdd::language::by_name(lang).expect("lang").frontend().expect("front-end");
    let before = fe.parse(Arc::from(original.as_slice())).error_count();
    let after = fe.parse(Arc::from(result.as_slice())).error_count();
    assert!(after <= before, "{case}: {after} syntax errors, the input had {before}");
    result
}

fn reduced_name(input: &str) -> String {
    let p = Path::new(input);
    match (p.file_stem(), p.extension()) {
        (Some(s), Some(e)) => format!("{}.reduced.{}", s.to_string_lossy(), e.to_string_lossy()),
        _ => format!("{input}.reduced"),
    }
}

/// Runs the case's oracle on `bytes` the way hdd would.
fn interesting(dir: &Path, name: &str, bytes: &[u8]) -> bool {
    let work = scratch();
    let path = work.path().join(name);
    fs::write(&path, bytes).expect("write");
    std::process::Command::new(dir.join("test.sh"))
        .arg(&path)
        .current_dir(work.path())
        .status()
        .expect("run oracle")
        .success()
}

fn valid_json(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(bytes).is_ok()
}

#[test]
fn c_bzip2_conversion() {
    check("c/bzip2-conversion", 300);
}

#[test]
fn c_bzip2_maybe_uninit() {
    check("c/bzip2-maybe-uninit", 500);
}

#[test]
fn c_pyrsistent_redundant_decls() {
    check("c/pyrsistent-redundant-decls", 150);
}

#[test]
fn json_twitter_bigint_precision() {
    let result = check("json/twitter-bigint-precision", 40);
    assert!(valid_json(&result), "{}", String::from_utf8_lossy(&result));
}

#[test]
fn js_undici_optional_chaining_esprima() {
    check("js/undici-optional-chaining-esprima", 40);
}

#[test]
fn js_he_encode() {
    check("js/he-encode", 1500);
}

#[test]
fn xml_svg_htop_gradient_href() {
    check("xml/svg-htop-gradient-href", 300);
}

#[test]
fn xml_html_libxml2_news_unclosed_li() {
    check("xml/html-libxml2-news-unclosed-li", 80);
}

#[test]
fn xml_xml5e_namechars_expat_vs_libxml2() {
    check("xml/xml5e-namechars-expat-vs-libxml2", 40);
}

#[test]
fn xml_gir_gdk_window_cursor() {
    // 1.7 MB, 83 000 nodes: the few elements an XPath answer needs
    check("xml/gir-gdk-window-cursor", 700);
}

#[test]
fn json_mime_db_truncated_keeps_the_truncation() {
    // the result is still cut off inside a string, and a handful of bytes
    let result = check("json/mime-db-truncated", 8);
    assert!(!valid_json(&result));
    assert!(result.ends_with(b"\""), "{}", String::from_utf8_lossy(&result));
}

#[test]
fn xml_iso2022jp_expat_vs_libxml2() {
    // 196 KB that libxml2 accepts and expat rejects: the declaration, the
    // entity and the root that make the difference
    check("xml/iso2022jp-expat-vs-libxml2", 150);
}
