//! `--dump-tree`: the parsed tree with kinds, spans, actions and units,
//! written line by line, and a last line of counts.
//!
//! A signal stops the parse and the writing (the tree of a file of
//! megabytes takes seconds), and the error then carries the signal's exit
//! code, as for a reduction it stops.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};

use super::input::{interrupt, read_input};
use super::interrupted;
use crate::language::LangInfo;
use crate::os::stop::Stop;
use crate::reduce::Units;
use crate::syntax::dump;

/// `--dump-tree`: the parsed tree with kinds, spans, actions and units,
/// written to `out` line by line. A signal stops the parse and the writing.
pub fn dump_tree(
    path: &Path,
    lang: &LangInfo,
    stop: &Arc<Stop>,
    out: &mut dyn Write,
) -> Result<()> {
    let input = read_input(path)?;
    let mut frontend = lang.frontend()?;
    frontend.set_interrupt(interrupt(stop));
    let tree = frontend.parse(Arc::from(input));
    if stop.is_set() {
        return Err(interrupted(stop, "parsing"));
    }
    let units = Units::new(&tree);
    let mut out = Stoppable { out, stop };
    let written = dump::dump(&tree, &mut out, &|id| units.is_unit(id)).and_then(|()| {
        writeln!(
            out,
            "# {} nodes, {} units on {} levels, {} syntax errors",
            tree.len(),
            units.count(),
            units.depth(),
            tree.error_count()
        )
    });
    if stop.is_set() {
        return Err(interrupted(stop, "writing the tree"));
    }
    written.and_then(|()| out.flush()).context("cannot write the tree")
}

/// A writer that refuses more text once the run must stop.
struct Stoppable<'s> {
    out: &'s mut dyn Write,
    stop: &'s Stop,
}

impl Write for Stoppable<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.stop.is_set() {
            // not `Interrupted`, which `write_all` retries
            return Err(std::io::Error::other("stopped"));
        }
        self.out.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_run_writes_no_more_of_the_tree() {
        let stop = Stop::manual();
        let mut sink = Vec::new();
        let mut out = Stoppable { out: &mut sink, stop: &stop };
        out.write_all(b"a").expect("before the stop");
        stop.time_up();
        assert!(out.write_all(b"b").is_err());
        assert_eq!(sink, b"a");
    }
}
