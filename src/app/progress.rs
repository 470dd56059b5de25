//! The live progress line on stderr.
//!
//! `⠹ 00:01:12 hdd level 4/17 · 2,341 B of 88,102 · ...`: a spinner and
//! the elapsed time, which move on their own (a steady tick, so a long
//! test does not look like a hang), then where the run is (the pass, and
//! the HDD level out of the pass's levels), the best size against the
//! original's, the tests run, and the candidates the cache and the guard
//! answered. The message is cut to the
//! terminal's width (the least useful figures last, so they go first), so
//! the line never wraps. It gives no estimate of the time left: the levels
//! differ too much in size, and each pass works on what the last left.
//!
//! It is drawn only when stderr is a terminal (`--progress` asks for it
//! off one too), at most ten times a second, and cleared before the
//! summary is printed or when the run fails.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::oracle::stats::Stats;

/// How often the spinner and the clock move between the run's own news.
const TICK: Duration = Duration::from_millis(100);

/// A handle on the progress line; a no-op when disabled.
#[derive(Debug)]
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
}

impl Progress {
    /// A progress line drawn when `enabled`; `quiet` silences messages too.
    pub(crate) fn new(enabled: bool, quiet: bool) -> Progress {
        let bar = enabled.then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(10));
            // `wide_msg`: the message cut to what the terminal's width leaves
            let style = ProgressStyle::with_template("{spinner} {elapsed_precise} {wide_msg}")
                .map(|s| s.tick_chars("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏ "))
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            bar.set_style(style);
            bar.set_message("checking the original");
            bar.enable_steady_tick(TICK);
            bar
        });
        Progress { bar, quiet }
    }

    /// Redraws the line from the current figures.
    pub(crate) fn update(&self, stats: &Stats, current: usize) {
        let Some(bar) = &self.bar else { return };
        bar.set_message(line(stats, current));
    }

    /// Says what the run does where no figures change (the final re-check).
    pub(crate) fn doing(&self, what: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(what.to_string());
        }
    }

    /// Prints a line above the progress line (or plainly when it is hidden).
    pub(crate) fn println(&self, line: &str) {
        if self.quiet {
            return;
        }
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    pub(crate) fn clear(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    /// A run that failed leaves no line behind its error message.
    fn drop(&mut self) {
        self.clear();
    }
}

/// The progress line's message: where the run is, the size, the tests,
/// then what the cache and the guard spared, when they spared anything.
fn line(stats: &Stats, current: usize) -> String {
    let mut line = format!(
        "{} · {} B of {} · {} test{}",
        stats.position(),
        grouped(current as u64),
        grouped(stats.original_bytes),
        grouped(stats.tests),
        if stats.tests == 1 { "" } else { "s" },
    );
    if stats.cache_hits > 0 {
        line += &format!(" · {} cached", grouped(stats.cache_hits));
    }
    if stats.guard_skips > 0 {
        line += &format!(" · {} guarded", grouped(stats.guard_skips));
    }
    line
}

/// `n` with its thousands grouped (`88,102`).
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::Phase;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(88102), "88,102");
        assert_eq!(grouped(1234567), "1,234,567");
    }

    #[test]
    fn the_line_says_the_pass_its_level_of_how_many_the_sizes_and_the_tests() {
        let mut stats = Stats::new(88102, 1);
        stats.start_pass(Phase::Hdd);
        stats.set_levels(Some(17));
        stats.set_level(Some(3));
        stats.tests = 512;
        assert_eq!(line(&stats, 2341), "hdd level 4/17 · 2,341 B of 88,102 · 512 tests");
        stats.cache_hits = 40;
        assert!(line(&stats, 2341).ends_with(" · 512 tests · 40 cached"));
    }
}
