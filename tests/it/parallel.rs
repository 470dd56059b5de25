//! `-j1` and `-j4` give byte-identical results: speculation only changes how
//! many tests run, never which candidate wins.

use std::fs;

use crate::{hdd, root, run, scratch, stderr};

/// Reduces a corpus case with `jobs` and returns the result and the tests run.
fn reduce_case(case: &str, jobs: &str) -> (Vec<u8>, u64) {
    let dir = root().join("corpora").join(case);
    let env = fs::read_to_string(dir.join("case.env")).expect("case.env");
    let input = env.lines().find_map(|l| l.strip_prefix("input=")).expect("input=");
    let work = scratch();
    let path = work.path().join(input);
    fs::copy(dir.join(input), &path).expect("copy");
    let stats = work.path().join("stats.json");
    let out = run(hdd()
        .arg("-t")
        .arg(dir.join("test.sh"))
        .arg(&path)
        .arg("-o")
        .arg(work.path().join("out"))
        .args(["-j", jobs, "-q", "--stats-json"])
        .arg(&stats));
    assert!(out.status.success(), "{case} -j{jobs}: {}", stderr(&out));
    let stats: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&stats).expect("stats")).expect("json");
    (fs::read(work.path().join("out")).expect("result"), stats["tests"].as_u64().expect("tests"))
}

fn same_result(case: &str) {
    let (one, _) = reduce_case(case, "1");
    let (four, _) = reduce_case(case, "4");
    assert!(
        one == four,
        "{case}: -j1 gave {:?}, -j4 gave {:?}",
        String::from_utf8_lossy(&one),
        String::from_utf8_lossy(&four)
    );
}

#[test]
fn json_results_do_not_depend_on_jobs() {
    same_result("json/twitter-bigint-precision");
}

#[test]
fn xml_results_do_not_depend_on_jobs() {
    same_result("xml/svg-htop-gradient-href");
}

#[test]
fn c_results_do_not_depend_on_jobs() {
    same_result("c/bzip2-conversion");
}
