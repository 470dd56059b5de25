//! Small end-to-end reductions whose results are known exactly: lists lose
//! elements with their separators, required parts get their minimal forms,
//! wrappers are hoisted away, and the formatting of what stays is kept.

use std::fs;

use crate::{hdd, run, scratch, script, stderr};

/// Reduces `input` (saved as `name`) with a shell test body; returns the result.
fn reduce(name: &str, input: &str, test: &str, extra: &[&str]) -> String {
    let dir = scratch();
    let path = dir.path().join(name);
    fs::write(&path, input).expect("write");
    let test = script(&dir.path().join("t.sh"), &format!("export LC_ALL=C\n{test}"));
    let out = run(hdd()
        .arg("-t")
        .arg(&test)
        .arg(&path)
        .arg("-o")
        .arg(dir.path().join("out"))
        .args(extra));
    assert!(out.status.success(), "{}", stderr(&out));
    fs::read_to_string(dir.path().join("out")).expect("result")
}

#[test]
fn json_members_and_elements_go_with_their_commas() {
    let input = "{\n  \"a\": [1, 2, 3],\n  \"b\": {\"x\": [4, \"needle\", 5], \"y\": 6},\n  \"c\": \"tail\"\n}\n";
    let test = "grep -q needle \"$1\" && grep -q '\"b\"' \"$1\" && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \"$1\"";
    // the layout of what stays is the input's ...
    let result = reduce("d.json", input, test, &["--no-hoist", "--no-shrink"]);
    assert_eq!(result, "{\n  \"b\": {\"\": [\"needle\"]}\n}\n");
    // ... until the last pass squeezes it (JSON's layout means nothing)
    let result = reduce("d.json", input, test, &["--no-hoist"]);
    assert_eq!(result, "{\"b\":{\"\":[\"needle\"]}}");
}

#[test]
fn json_values_are_hoisted_out_of_their_containers() {
    let input = "{\"outer\": {\"inner\": [1, {\"deep\": \"needle\"}]}}\n";
    let result = reduce("d.json", input, "grep -q needle \"$1\"", &[]);
    assert_eq!(result, "\"needle\"");
}

#[test]
fn c_keeps_valid_code_and_hoists_statements_out_of_blocks() {
    let input = "#include <stdio.h>\n\n/* a helper */\nstatic int add(int a, int b) {\n    return a + b;\n}\n\nint main(void) {\n    int x = add(1, 2);\n    if (x > 2) {\n        printf(\"big %d\\n\", x);\n    } else {\n        printf(\"small\\n\");\n    }\n    return 0;\n}\n";
    let test = "grep -q 'printf(\"big' \"$1\" || exit 1\ngcc -fsyntax-only -Werror=implicit-function-declaration -Werror=return-type \"$1\" > ./log 2>&1";
    let result = reduce("bug.c", input, test, &[]);
    assert_eq!(result, "#include <stdio.h>\n\nint main() {\n    printf(\"big\");\n}\n");
}

#[test]
fn c_required_parts_get_their_minimal_forms() {
    // the body and the condition must stay, but not their contents
    let input = "int f(int n) {\n    while (n > 10 && n < 1000) {\n        n = n * 3 + 1;\n        n--;\n    }\n    return n;\n}\n";
    let test =
        "grep -q while \"$1\" || exit 1\ngcc -fsyntax-only -Werror=return-type \"$1\" > ./log 2>&1";
    let result = reduce("w.c", input, test, &[]);
    assert_eq!(result, "int f() {\n    while (0) {}\n}\n");
}

#[test]
fn js_arguments_and_parameters_lose_their_commas_too() {
    let input = "function f(a, b, c) {\n  return g(a, 'needle', b, c);\n}\nf(1, 2, 3);\n";
    let test = "grep -q needle \"$1\" || exit 1\nnode --check \"$1\" > ./log 2>&1";
    let result = reduce("a.js", input, test, &["--no-hoist"]);
    assert_eq!(result, "function f() {\n  return g('needle');\n}\n");
}

#[test]
fn strings_and_attribute_values_shrink_to_the_characters_that_matter() {
    let input = "<doc title=\"a long title with a < in it\">some text here</doc>\n";
    let test = "grep -q 'title=\"[^\"]*<' \"$1\"";
    let result = reduce("d.xml", input, test, &[]);
    assert_eq!(result, "<doc title=\"<\"/>");
    let without = reduce("d.xml", input, test, &["--no-shrink"]);
    assert_eq!(without, "<doc title=\"a long title with a < in it\"/>\n");
}

#[test]
fn xml_elements_empty_out_and_hoist() {
    let input = "<?xml version=\"1.0\"?>\n<root a=\"1\">\n  <wrap b=\"2\">\n    <item>needle</item>\n    <other/>\n  </wrap>\n  <tail>text</tail>\n</root>\n";
    let test = "grep -q needle \"$1\" && grep -q '<root' \"$1\"";
    let result = reduce("d.xml", input, test, &[]);
    assert_eq!(result, "<root>needle</root>");
    let result = reduce("d.xml", input, test, &["--no-shrink"]);
    assert_eq!(result, "<root>\n  needle\n</root>\n");
}

#[test]
fn plain_text_goes_by_lines_then_words() {
    let input = "alpha beta\ngamma needle delta\nepsilon\n";
    let result = reduce("notes.md", input, "grep -q needle \"$1\"", &["--lang", "text"]);
    assert_eq!(result, "needle\n");
}

#[test]
fn malformed_input_is_also_cut_through_as_text() {
    // the tree keeps the object around the broken string; lines and words do not
    let input =
        "{\n  \"a\": {\n    \"x\": [\"y\", \"z\"]\n  },\n  \"b\": {\n    \"c\": \"cut off here";
    let test = "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \"$1\" 2>&1 | grep -q 'Unterminated string'";
    let result = reduce("d.json", input, test, &["--no-tokens"]);
    assert_eq!(result, "{\"\":{\"\":\"");
    let result = reduce("d.json", input, test, &[]);
    assert_eq!(result, "{\"\":\"");
}
