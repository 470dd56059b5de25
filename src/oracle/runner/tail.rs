//! The end of a test's output, kept while the test writes it: for the check
//! of the original, whose failure is shown to the user.
//!
//! The pipe is read on a thread of its own, so a chatty test never blocks,
//! and only the last [`OUTPUT_TAIL`] bytes are kept, so a test that prints
//! without end costs no more memory.

use std::collections::VecDeque;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// How much of a test's output is kept when it is captured: its end, where
/// a failure is told. A test that prints without end costs no more.
pub(crate) const OUTPUT_TAIL: usize = 64 * 1024;

/// The end of a test's output, read from a pipe as the test writes it.
pub(super) struct Tail {
    kept: Arc<Mutex<VecDeque<u8>>>,
    ended: mpsc::Receiver<()>,
}

impl Tail {
    /// Reads `pipe` on a thread of its own, keeping its last bytes.
    pub(super) fn keep(mut pipe: std::io::PipeReader) -> Tail {
        use std::io::Read;
        let kept = Arc::new(Mutex::new(VecDeque::new()));
        let (tx, ended) = mpsc::channel();
        let shared = kept.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n @ 1..) = pipe.read(&mut buf) {
                let mut kept = shared.lock().expect("tail lock");
                kept.extend(&buf[..n]);
                let excess = kept.len().saturating_sub(OUTPUT_TAIL);
                kept.drain(..excess);
            }
            let _ = tx.send(());
        });
        Tail { kept, ended }
    }

    /// What was kept, once the pipe is closed (or after a moment, if a
    /// process that left the test's group still holds it open).
    pub(super) fn take(self) -> Vec<u8> {
        let _ = self.ended.recv_timeout(Duration::from_millis(500));
        let kept = self.kept.lock().expect("tail lock");
        kept.iter().copied().collect()
    }
}
