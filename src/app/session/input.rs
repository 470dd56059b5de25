//! What a session reduces: the input read and refused when it cannot be
//! reduced, with the front-ends that parse it and the layout the test sees.
//!
//! One file is parsed by its language's front-end; a set of files (see
//! [`set`](crate::app::set)) by a [`Forest`] of the files' front-ends, its
//! text the files' texts joined by a separator. Either way the plain-text
//! front-end (for the token pass) comes alongside, when the registry has it.

use std::ffi::OsString;
use std::path::Path;
use std::sync::Arc;

use anyhow::Result;

use crate::app::config::Config;
use crate::app::error::Fatal;
use crate::app::shown::shown;
use crate::language::forest::Forest;
use crate::language::{self, Frontend, Interrupt};
use crate::oracle::runner::Layout;
use crate::os::stop::Stop;

/// Reads the input, refusing what cannot be reduced.
pub(super) fn read_input(path: &Path) -> Result<Vec<u8>> {
    let bytes = std::fs::read(path)
        .map_err(|e| Fatal::usage(format!("cannot read {}: {e}", shown(&path))))?;
    refuse(path, &bytes)?;
    Ok(bytes)
}

/// Refuses an input that cannot be reduced: empty, or binary.
fn refuse(path: &Path, bytes: &[u8]) -> Result<()> {
    if bytes.is_empty() {
        return Err(Fatal::usage(format!("{} is empty: there is nothing to reduce", shown(&path))));
    }
    if bytes.contains(&0) {
        return Err(Fatal::usage(format!(
            "{} looks binary (it contains NUL bytes); hdd reduces text formats",
            shown(&path)
        )));
    }
    Ok(())
}

/// What is reduced: one file, or a set of files seen as one forest.
pub(super) struct Subject {
    pub(super) input: Vec<u8>,
    pub(super) frontend: Box<dyn Frontend>,
    /// Plain text, for the token pass.
    pub(super) text: Option<Box<dyn Frontend>>,
    pub(super) layout: Layout,
    /// Separators in the text (files of a set less one): not the user's bytes.
    pub(super) separators: u64,
}

impl Subject {
    /// Reads the input of `config`; its parses give up once `stop` is set
    /// (a parse of megabytes takes seconds: a signal or the deadline ends
    /// it).
    pub(super) fn new(config: &Config, stop: &Arc<Stop>) -> Result<Subject> {
        let mut subject = Subject::read(config)?;
        subject.frontend.set_interrupt(interrupt(stop));
        if let Some(t) = &mut subject.text {
            t.set_interrupt(interrupt(stop));
        }
        Ok(subject)
    }

    fn read(config: &Config) -> Result<Subject> {
        let text_lang = language::by_name("text");
        let Some(set) = &config.set else {
            let file_name: OsString = config.name.clone().unwrap_or_else(|| "input".into());
            return Ok(Subject {
                input: read_input(&config.input)?,
                frontend: config.lang.frontend()?,
                text: text_lang.and_then(|l| l.frontend().ok()),
                layout: Layout::File(file_name),
                separators: 0,
            });
        };
        let texts = text_lang.map(|l| vec![l; set.files.len()]);
        let text = texts.and_then(|t| Forest::new(&t).ok());
        let input = set.read()?;
        let mut frontend = Forest::new(&set.langs())?;
        frontend.allow(&input);
        Ok(Subject {
            input,
            frontend: Box::new(frontend),
            text: text.map(|t| Box::new(t) as Box<dyn Frontend>),
            layout: set.layout()?,
            separators: set.files.len() as u64 - 1,
        })
    }
}

/// What makes the parses of a run give up: its stop.
pub(super) fn interrupt(stop: &Arc<Stop>) -> Interrupt {
    let stop = stop.clone();
    Interrupt::new(move || stop.is_set())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_or_binary_input_is_refused_with_the_reason() {
        let path = Path::new("in.c");
        let empty = refuse(path, b"").unwrap_err().to_string();
        assert!(empty.contains("in.c is empty"), "{empty}");
        let binary = refuse(path, b"int\0x;").unwrap_err().to_string();
        assert!(binary.contains("looks binary"), "{binary}");
        refuse(path, b"int x;").expect("text is reduced");
    }

    #[test]
    fn a_parse_gives_up_once_the_run_stops() {
        let stop = Stop::manual();
        let interrupt = interrupt(&stop);
        assert!(!interrupt.is_set());
        stop.time_up();
        assert!(interrupt.is_set());
    }
}
