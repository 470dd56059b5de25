//! The `hdd` binary: parse arguments, run, print the summary, pick the exit code.
//!
//! This is the only place that decides an exit code (see `hdd::app::exit`).

use std::process::ExitCode;

use hdd::app::shown;
use hdd::app::{self, Args, Ended, Summary};
use hdd::app::{code_of, exit};
use hdd::os::Stop;

fn main() -> ExitCode {
    few_malloc_arenas();
    let args = app::parse();
    if let Some(shell) = args.completions {
        app::completions(shell, &mut std::io::stdout());
        return ExitCode::SUCCESS;
    }
    if args.man {
        return match app::man_page(&mut std::io::stdout()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("hdd: error: cannot write the manual page: {e}");
                ExitCode::from(exit::ERROR)
            }
        };
    }
    let result = if args.dump_tree { dump_tree(&args) } else { run(args) };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            eprintln!("hdd: error: {err:#}");
            ExitCode::from(code_of(&err))
        }
    }
}

/// glibc gives every thread that allocates its own heap (up to eight per
/// core) and keeps what is freed there for that thread: the workers'
/// parses of large candidates would leave a heap of freed memory per
/// worker, and the peak would grow with `-j`. Two heaps are enough for
/// threads that mostly wait for tests.
///
/// And glibc raises the size from which it maps a block of its own (and
/// unmaps it when freed) to the largest block freed so far, up to 32 MiB:
/// after the first large candidate, the texts of the next ones would come
/// from the heaps and stay there, fragmented. A fixed threshold keeps it
/// at 128 KiB (`BENCHMARKS.md`, "Memory against input size").
fn few_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tunable of the allocator; it is called
    // before any other thread exists
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
    }
}

fn dump_tree(args: &Args) -> anyhow::Result<u8> {
    if args.files.len() > 1 || args.file().is_dir() {
        return Err(hdd::app::Fatal::usage("--dump-tree takes one file"));
    }
    let lang = args.language()?;
    let stop = Stop::install()?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match app::dump_tree(args.file(), lang, &stop, &mut out) {
        // a reader that stopped early (`| head`) is not an error
        Err(e) if broken_pipe(&e) => Ok(exit::OK),
        Err(e) => Err(e),
        Ok(()) => Ok(exit::OK),
    }
}

/// Whether `err` is a write to a pipe whose reader has gone.
fn broken_pipe(err: &anyhow::Error) -> bool {
    err.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}

fn run(args: Args) -> anyhow::Result<u8> {
    let (quiet, allow_empty) = (args.quiet, args.allow_empty);
    let stats_json = args.stats_json.clone();
    // a stopped run says how to go on from its result
    let given = args.files.clone();
    let config = args.into_config()?;
    // what a test leaves behind is re-parented to hdd, which ends it
    hdd::os::adopt_orphans();
    let stop = Stop::install()?;
    let summary = app::reduce(&config, stop)?;
    if let Some(path) = &stats_json {
        let json = serde_json::to_string_pretty(&summary.stats)?;
        std::fs::write(path, json + "\n")
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", shown(&path)))?;
    }
    print_summary(&config.input, &summary, quiet);
    if !quiet {
        let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
        let resume = app::Resume::of(&config, &given, &summary.output);
        print_stop(&summary, app::continue_command(&argv, &resume).as_deref());
        if config.set.is_none() {
            print_result(&summary.output);
        }
    }
    let code = exit_code(&summary, allow_empty);
    if code == exit::EMPTY {
        eprintln!(
            "hdd: error: the result is empty: the test passes on it, so it probably \
             accepts too much (does it check for the bug itself, not just any failure?); \
             it is written all the same, and --allow-empty accepts it"
        );
    }
    Ok(code)
}

/// The exit code of a run that ended: 128 + the signal that stopped it,
/// else flaky, an empty result (unless allowed), or done.
fn exit_code(summary: &Summary, allow_empty: bool) -> u8 {
    match summary.ended {
        Ended::Signal(s) => (128 + s).clamp(0, 255) as u8,
        _ if summary.flaky => exit::FLAKY,
        _ if summary.trivial && !allow_empty => exit::EMPTY,
        _ => exit::OK,
    }
}

fn print_summary(input: &std::path::Path, s: &Summary, quiet: bool) {
    let st = &s.stats;
    if !quiet {
        let how = match s.ended {
            Ended::Finished => "reduced",
            Ended::TimeUp => "reduced (stopped by --max-time)",
            Ended::Signal(_) => "reduced (interrupted)",
        };
        eprintln!(
            "hdd: {how} {} from {} to {} bytes ({}) in {}",
            shown(&input),
            st.original_bytes,
            st.final_bytes,
            change(st.original_bytes, st.final_bytes),
            format_duration(st.wall_time),
        );
        eprintln!("hdd: {}", tests_line(s));
        eprintln!("hdd: result in {}", shown(&s.output));
    }
    if s.flaky {
        eprintln!(
            "hdd: warning: the test is flaky: it found the result interesting during the run but not when re-checked"
        );
    }
}

/// After `--max-time` or a signal: where the run stopped, and the command
/// that goes on from its result.
fn print_stop(s: &Summary, go_on: Option<&str>) {
    if s.ended == Ended::Finished {
        return;
    }
    let at =
        s.position.as_deref().map_or("before the first pass".to_string(), |p| format!("in {p}"));
    match go_on {
        Some(command) => eprintln!("hdd: stopped {at}; to go on: {command}"),
        None => eprintln!("hdd: stopped {at}"),
    }
}

/// The result, under the summary, when it is short.
fn print_result(path: &std::path::Path) {
    let Ok(text) = std::fs::read(path) else { return };
    let text = String::from_utf8_lossy(&text);
    let lines = text.lines().count();
    if text.trim().is_empty() || lines > RESULT_LINES {
        return;
    }
    eprintln!("hdd: the result ({lines} line{}):", if lines == 1 { "" } else { "s" });
    eprint!("{text}");
    if !text.ends_with('\n') {
        eprintln!();
    }
}

/// The longest result printed under the summary.
const RESULT_LINES: usize = 20;

/// The tests of a run: their total, made of parts that add up to it
/// (when there is more than one), then the tests cancelled on top and
/// the candidates answered without a test.
fn tests_line(s: &Summary) -> String {
    let st = &s.stats;
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    let mut line = format!("{} test{}", st.tests, plural(st.tests));
    let parts: Vec<String> = st
        .test_parts()
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, name)| format!("{n} {name}"))
        .collect();
    if parts.len() > 1 {
        line += &format!(" ({})", parts.join(" + "));
    }
    line += "; ";
    if st.cancelled > 0 {
        // stopped on a guess that went the other way, or by the end of the run
        line += &format!("{} more cancelled, ", st.cancelled);
    }
    line + &format!(
        "{} cache hit{}, {} skipped by the syntax guard",
        st.cache_hits,
        plural(st.cache_hits),
        st.guard_skips
    )
}

/// The change from `from` to `to` bytes as a percentage, cut rather than
/// rounded: a result that is not empty never shows as `-100.0%`.
fn change(from: u64, to: u64) -> String {
    if to > from {
        return format!("+{:.1}%", (to - from) as f64 * 100.0 / from.max(1) as f64);
    }
    if to == 0 {
        return "-100%".to_string();
    }
    if to == from {
        return "unchanged".to_string();
    }
    let removed = (from - to) as f64 * 100.0 / from as f64;
    // under 1% left: two decimals (-99.99%)
    let decimals = if to * 100 < from { 2 } else { 1 };
    let scale = 10f64.powi(decimals as i32);
    format!("-{:.*}%", decimals, (removed * scale).floor() / scale)
}

fn format_duration(d: std::time::Duration) -> String {
    let s = d.as_secs_f64();
    if s < 60.0 {
        format!("{s:.1}s")
    } else {
        format!("{}m{:02}s", (s / 60.0) as u64, (s % 60.0) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_cut_never_rounded_to_all() {
        assert_eq!(change(334692, 29), "-99.99%");
        assert_eq!(change(10_000_000, 1), "-99.99%");
        assert_eq!(change(200, 1), "-99.50%");
        assert_eq!(change(1000, 999), "-0.1%");
        assert_eq!(change(1000, 1000), "unchanged");
        assert_eq!(change(128, 88), "-31.2%");
        assert_eq!(change(128, 0), "-100%");
    }
}
