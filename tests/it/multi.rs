//! Several files reduced jointly: a directory (`hdd -t t.sh DIR`) or a list
//! of files. The test sees a private copy with the same layout, each file is
//! reduced in its own language, binary files are copied as they are, files
//! are emptied, and an emptied file the test does not need is left out of
//! the result, which goes to `DIR.reduced/`.

use std::fs;
use std::path::Path;

use crate::{files_under, hdd, run, scratch, script, stderr};

/// A small project: C in two files, plain text, a binary file.
fn project(dir: &Path) {
    fs::create_dir_all(dir.join("inc")).expect("mkdir");
    fs::write(dir.join("inc/a.h"), "int a;\nint keep_me;\nint b;\n").expect("a.h");
    fs::write(dir.join("main.c"), "int f(void) { return keep_me; }\nint g(void) { return 1; }\n")
        .expect("main.c");
    fs::write(dir.join("notes.txt"), "some notes\nmore notes\n").expect("notes");
    fs::write(dir.join("logo.bin"), b"\x00\x01\x02").expect("bin");
}

/// Every file under `dir` with its text, relative to `dir`.
fn tree_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files_under(dir)
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(dir).expect("under").to_string_lossy().into_owned();
            (rel, fs::read(&f).expect("read"))
        })
        .collect()
}

#[test]
fn a_directory_is_reduced_jointly_into_dir_reduced() {
    let work = scratch();
    let input = work.path().join("proj");
    project(&input);
    let before = tree_of(&input);
    // interesting: run in the copy, given its path, every file there, and
    // keep_me declared in the header and used in the .c file
    let test = script(
        &work.path().join("t.sh"),
        r#"[ "$PWD" = "$1" ] && [ "$(basename "$1")" = proj ] || exit 7
[ -f logo.bin ] && [ -f notes.txt ] || exit 6
grep -q 'int keep_me;' inc/a.h && grep -q 'return keep_me' main.c"#,
    );
    let out = run(hdd().arg("-t").arg(&test).arg(&input).args(["-q", "-j", "2"]));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(tree_of(&input), before, "the input changed");
    let result = tree_of(&work.path().join("proj.reduced"));
    let text = |name: &str| {
        let (_, b) = result.iter().find(|(n, _)| n == name).expect(name);
        String::from_utf8_lossy(b).into_owned()
    };
    assert_eq!(text("inc/a.h"), "int keep_me;\n");
    assert_eq!(text("notes.txt"), "", "a file the test does not need is emptied, not removed");
    assert!(text("main.c").contains("return keep_me;") && !text("main.c").contains("g("));
    assert_eq!(text("logo.bin").as_bytes(), b"\x00\x01\x02");
    assert_eq!(result.len(), 4);
    let names: Vec<_> = fs::read_dir(work.path()).expect("ls").map(|e| e.expect("e")).collect();
    assert_eq!(names.len(), 3, "left behind: {names:?}");

    // --in-place: the input becomes the result, the original goes to DIR.orig
    let out = run(hdd().arg("-t").arg(&test).arg(&input).args(["-q", "--in-place"]));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(tree_of(&work.path().join("proj.orig")), before);
    assert_eq!(tree_of(&input), result);
}

#[test]
fn an_emptied_file_the_test_does_not_need_is_left_out() {
    let work = scratch();
    let input = work.path().join("proj");
    fs::create_dir_all(&input).expect("mkdir");
    fs::write(input.join("main.c"), "#include \"used.h\"\nint f(void) { return KEEP; }\n")
        .expect("main.c");
    fs::write(input.join("used.h"), "#define KEEP 1\nint other;\n").expect("used.h");
    fs::write(input.join("unused.h"), "int nothing;\nint more;\n").expect("unused.h");
    let test = script(
        &work.path().join("t.sh"),
        "cd \"$1\" && gcc -fsyntax-only -I. main.c > ./log 2>&1 && grep -q 'return KEEP' main.c",
    );
    let stats = work.path().join("stats.json");
    let out = run(hdd().arg("-t").arg(&test).arg(&input).arg("--stats-json").arg(&stats).arg("-q"));
    assert!(out.status.success(), "{}", stderr(&out));
    let result = tree_of(&work.path().join("proj.reduced"));
    let names: Vec<&str> = result.iter().map(|(n, _)| n.as_str()).collect();
    // used.h must be there for the #include, if only empty; unused.h goes
    assert_eq!(names, ["main.c", "used.h"], "{result:?}");
    assert!(String::from_utf8_lossy(&result[1].1).contains("#define KEEP"));
    let stats = fs::read_to_string(&stats).expect("stats");
    assert!(stats.contains("\"files\""), "{stats}");
}

#[test]
fn a_set_of_c_files_is_laid_out_as_each_file_alone_would_be() {
    let work = scratch();
    let input = work.path().join("proj");
    fs::create_dir_all(&input).expect("mkdir");
    fs::write(input.join("a.h"), "typedef unsigned UInt32;\nextern UInt32 keep_me;\n")
        .expect("a.h");
    fs::write(
        input.join("main.c"),
        "#include \"a.h\"\nint f(int x,\n      int y)\n{\n    return\n        keep_me\n        + y;\n    }\n",
    )
    .expect("main.c");
    // the statement, whatever its layout, and a compiling set
    let test = script(
        &work.path().join("t.sh"),
        "cd \"$1\" && gcc -fsyntax-only main.c > ./log 2>&1 && tr -d ' \\n' < main.c | grep -q 'returnkeep_me+y;'",
    );
    let out = run(hdd().arg("-t").arg(&test).arg(&input).args(["-q", "--no-rename"]));
    assert!(out.status.success(), "{}", stderr(&out));
    let result = tree_of(&work.path().join("proj.reduced"));
    let text = |name: &str| {
        let (_, b) = result.iter().find(|(n, _)| n == name).expect(name);
        String::from_utf8_lossy(b).into_owned()
    };
    // the statement deletions left over three lines is one line again, in
    // its block's indentation (the return type goes in a later round: C's
    // implicit `int`)
    assert_eq!(text("main.c"), "#include \"a.h\"\nf(y) {\n  return keep_me + y;\n}\n");
    assert_eq!(text("a.h"), "keep_me;\n");
}

#[test]
fn listed_files_are_given_to_the_test_by_their_paths() {
    let work = scratch();
    let input = work.path().join("proj");
    project(&input);
    let test = script(
        &work.path().join("t.sh"),
        r#"[ $# = 2 ] && [ "$1" = "$PWD/inc/a.h" ] && [ "$2" = "$PWD/main.c" ] || exit 7
[ -f notes.txt ] && exit 6
grep -q 'keep_me' "$1""#,
    );
    let out = run(hdd()
        .arg("-t")
        .arg(&test)
        .arg(input.join("main.c"))
        .arg(input.join("inc/a.h"))
        .arg("-o")
        .arg(work.path().join("out"))
        .arg("-q"));
    assert!(out.status.success(), "{}", stderr(&out));
    let result = tree_of(&work.path().join("out"));
    let expected: Vec<(String, Vec<u8>)> =
        vec![("inc/a.h".into(), b"keep_me;\n".to_vec()), ("main.c".into(), Vec::new())];
    assert_eq!(result, expected);
}

#[test]
fn a_set_that_is_not_interesting_says_how_to_check_it_by_hand() {
    let work = scratch();
    let input = work.path().join("proj");
    project(&input);
    let test = script(&work.path().join("t.sh"), "exit 1");
    let out = run(hdd().arg("-t").arg(&test).arg(&input));
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("cp -r ") && err.contains("\"$d/proj\"; echo"), "{err}");
    assert!(!work.path().join("proj.reduced").exists());
    let out = run(hdd().arg("-t").arg(&test).arg(&input).args(["--lang", "c"]));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn a_file_name_with_a_newline_is_quoted_in_messages() {
    let work = scratch();
    let input = work.path().join("proj");
    fs::create_dir_all(&input).expect("mkdir");
    fs::write(input.join("main.c"), "int f(void) { return KEEP; }\n").expect("main.c");
    fs::write(input.join("new\nline.h"), "int nothing;\n").expect("header");
    let test = script(&work.path().join("t.sh"), "grep -q 'return KEEP' \"$1/main.c\"");
    let out = run(hdd().arg("-t").arg(&test).arg(&input));
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    // one line that names the file as the shell reads it back
    assert!(err.contains("left out $'new\\nline.h': the test passes without it"), "{err}");
    assert!(!err.contains("new\nline.h"), "{err}");
}
