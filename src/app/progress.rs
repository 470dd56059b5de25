//! The live progress line on stderr.
//!
//! Shows the phase and HDD level, the current size against the original, tests
//! run, cache hits, guard skips, tests per second and the elapsed time. It is
//! drawn only when asked for (or when stderr is a terminal), at most ten
//! times a second, and cleared before the summary is printed.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::oracle::stats::Stats;

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
            let style = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            bar.set_style(style);
            bar
        });
        Progress { bar, quiet }
    }

    /// Redraws the line from the current figures.
    pub(crate) fn update(&self, stats: &Stats, current: usize) {
        let Some(bar) = &self.bar else { return };
        let original = stats.original_bytes.max(1) as f64;
        bar.set_message(format!(
            "{} | {current} B ({:.1}% of {}) | {} tests, {} cached, {} guarded | {:.1} tests/s",
            stats.phase_label(),
            current as f64 * 100.0 / original,
            stats.original_bytes,
            stats.tests,
            stats.cache_hits,
            stats.guard_skips,
            stats.rate(),
        ));
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
