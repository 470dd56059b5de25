//! The worker threads of `-j`: a queue of jobs they take, and the answers
//! they send back; the scheduler's [`Workers`] on real threads and the
//! real clock.
//!
//! One pool serves every pass of a run (the session starts and ends it in a
//! thread scope), so that a test ahead of a pass runs on while the next
//! pass starts. Invariant: a worker ends only when the queue closes, after
//! the job it has; what it finishes then is speculation nobody needs.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::check::{Checker, Done, Job};
use super::dispatch::Workers;

/// The worker threads: the queue of jobs, and the answers.
pub(super) struct Pool {
    jobs: mpsc::Sender<Job>,
    done: mpsc::Receiver<Done>,
}

impl Pool {
    /// `n` workers checking candidates with `checker`, on `scope`.
    pub(super) fn start<'s, 'a: 's>(
        scope: &'s std::thread::Scope<'s, '_>,
        checker: &Arc<Checker<'a>>,
        n: usize,
    ) -> Pool {
        let (job_tx, job_rx) = mpsc::channel::<Job>();
        let job_rx = Arc::new(Mutex::new(job_rx));
        let (done_tx, done_rx) = mpsc::channel::<Done>();
        for _ in 0..n {
            let (checker, job_rx, done_tx) = (checker.clone(), job_rx.clone(), done_tx.clone());
            scope.spawn(move || checker.work(&job_rx, done_tx));
        }
        Pool { jobs: job_tx, done: done_rx }
    }

    /// Closes the queue; the answers still to come, until every worker
    /// has ended.
    pub(super) fn close(self) -> mpsc::IntoIter<Done> {
        let Pool { jobs, done } = self;
        drop(jobs);
        done.into_iter()
    }
}

impl Workers for Pool {
    fn send(&self, job: Job) -> bool {
        self.jobs.send(job).is_ok()
    }

    fn recv_timeout(&self, wait: Duration) -> Result<Done, RecvTimeoutError> {
        self.done.recv_timeout(wait)
    }

    fn now(&self) -> Instant {
        Instant::now()
    }
}
