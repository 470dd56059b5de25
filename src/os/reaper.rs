//! Every process a test starts, found and ended: the test's whole process
//! tree, not only its process group.
//!
//! A test may leave its group (`timeout(1)` moves into a group of its own,
//! `setsid cmd` into a new session, `nohup cmd &` outlives the script). So:
//!
//! - hdd is a *child subreaper* ([`adopt_orphans`]): a process whose parent
//!   dies is re-parented to hdd, not to init, and so stays in hdd's tree;
//! - each run is marked by an environment variable ([`VAR`]`=`run id) that
//!   every descendant inherits; the members of a run ([`members`]) are hdd's
//!   descendants that carry its mark, plus everything under the run's child
//!   by parent pid (for a descendant that cleared its environment);
//! - [`ProcessTree::end`] asks them to stop (SIGTERM: `srun` then cancels its
//!   remote step), waits a grace period, and SIGKILLs what is left;
//! - orphans that die as children of hdd are reaped here ([`reap_orphans`]),
//!   never a test child the runner waits for: those are in [`Registry`],
//!   and spawning one and reaping orphans exclude each other;
//! - at the end ([`end_all`]), every orphan hdd adopted goes too, with its
//!   descendants, marked or not: a daemon that cleared its environment
//!   (`env -i`, `sudo`) carries no mark, but it is still hdd's orphan.
//!
//! What this costs after each test matters with many workers: walking all
//! of hdd's descendants after every test reads a few `/proc` files per
//! process of every test in flight, which grows with the square of `-j`.
//! So a run's processes are looked for only under the roots that can hold
//! them ([`run_table`]): its child, and the orphans hdd adopted (the kernel
//! gives an orphan to a subreaper's thread-group leader, which starts no
//! tests, so they are the leader's children that are not registered test
//! children). A test that exited with its process group empty and no
//! orphan adopted has left nothing, known from two system calls
//! ([`nothing_left`]).

use std::collections::{HashMap, HashSet};
use std::fs;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The environment variable that marks the processes of one run.
pub(crate) const VAR: &str = "HDD_RUN";

/// Whether hdd is a child subreaper (and so must reap orphans).
static ADOPTING: AtomicBool = AtomicBool::new(false);

/// Makes this process a child subreaper, so that the processes a test
/// leaves behind stay in hdd's tree. Returns whether that worked (Linux).
pub fn adopt_orphans() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: plain prctl call with integer arguments.
        let ok = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } == 0;
        ADOPTING.store(ok, Ordering::SeqCst);
        ok
    }
    #[cfg(not(target_os = "linux"))]
    false
}

/// The test children the runner is waiting for: never reaped here.
#[derive(Debug)]
pub(crate) struct Registry;

static CHILDREN: Mutex<Option<HashSet<i32>>> = Mutex::new(None);

impl Registry {
    /// Holds the registry: spawn a test child and [`Registry::add`] it while
    /// holding this, so that no orphan sweep takes it for an orphan.
    pub(crate) fn lock() -> MutexGuard<'static, Option<HashSet<i32>>> {
        CHILDREN.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn add(guard: &mut MutexGuard<'static, Option<HashSet<i32>>>, pid: i32) {
        guard.get_or_insert_with(HashSet::new).insert(pid);
    }

    /// Forgets a test child once the runner has reaped it.
    pub(crate) fn remove(pid: i32) {
        if let Some(set) = Registry::lock().as_mut() {
            set.remove(&pid);
        }
    }
}

/// One entry of the process table.
#[derive(Clone, Copy, Debug)]
struct Proc {
    pid: i32,
    ppid: i32,
    zombie: bool,
}

/// hdd's descendants (all the processes this module cares about), from
/// `/proc/PID/task/TID/children`; the whole process table where the kernel
/// lacks those files. Reading a few files per descendant instead of one per
/// process on the machine keeps the check after every test cheap.
fn table() -> Vec<Proc> {
    let me = std::process::id() as i32;
    match children(me) {
        Some(roots) => subtrees(roots),
        None => whole_table(),
    }
}

/// The processes of one run, and what their subtrees hold: the run's child
/// (while it lives) and the orphans hdd adopted, with their descendants.
/// Every process of a run descends from one of these: its top-most
/// ancestor below hdd is the child or, once its parent died, an orphan.
/// The whole of [`table`] where the kernel does not list a thread's
/// children, or hdd adopts no orphans.
fn run_table(child: Option<i32>) -> Vec<Proc> {
    let Some(mut roots) = adopted().filter(|_| ADOPTING.load(Ordering::SeqCst)) else {
        return table();
    };
    roots.extend(child);
    subtrees(roots)
}

/// The processes `roots` and their descendants, by the kernel's children
/// files.
fn subtrees(mut todo: Vec<i32>) -> Vec<Proc> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    while let Some(pid) = todo.pop() {
        if !seen.insert(pid) {
            continue;
        }
        if let Some(p) = proc_of(pid) {
            out.push(p);
            todo.extend(children(pid).unwrap_or_default());
        }
    }
    out
}

/// The orphans hdd adopted, living or not: the children of its thread-group
/// leader (to which the kernel re-parents a subreaper's orphans) that are
/// not registered test children. `None` if the kernel does not say.
fn adopted() -> Option<Vec<i32>> {
    let me = std::process::id();
    let text = fs::read_to_string(format!("/proc/{me}/task/{me}/children")).ok()?;
    let registry = Registry::lock();
    let ours = |pid: &i32| registry.as_ref().is_some_and(|set| set.contains(pid));
    let pids = text.split_whitespace().filter_map(|w| w.parse::<i32>().ok());
    Some(pids.filter(|pid| !ours(pid)).collect())
}

/// Whether a run whose child has exited (and been reaped) has surely left
/// nothing: no process is in its process group, and hdd (a subreaper, so
/// that whatever the run left running is hdd's orphan) has no orphan at
/// all. Else the caller looks closer.
fn nothing_left(pgid: i32) -> bool {
    if !ADOPTING.load(Ordering::SeqCst) {
        return false;
    }
    // SAFETY: signal 0 sends nothing; it only tells whether the group has a process.
    let group_empty = unsafe { libc::kill(-pgid, 0) } == -1
        && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
    group_empty && adopted().is_some_and(|orphans| orphans.is_empty())
}

/// The children of every thread of `pid`; `None` if the kernel does not say.
fn children(pid: i32) -> Option<Vec<i32>> {
    let mut out = Vec::new();
    let mut any = false;
    for task in fs::read_dir(format!("/proc/{pid}/task")).ok()?.flatten() {
        let path = task.path().join("children");
        if let Ok(text) = fs::read_to_string(&path) {
            any = true;
            out.extend(text.split_whitespace().filter_map(|w| w.parse::<i32>().ok()));
        }
    }
    any.then_some(out)
}

/// Every process, from `/proc/PID/stat`.
fn whole_table() -> Vec<Proc> {
    let Ok(dir) = fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(|e| proc_of(e.ok()?.file_name().to_str()?.parse().ok()?)).collect()
}

fn proc_of(pid: i32) -> Option<Proc> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // the command name may hold spaces and parentheses: fields start after the last ')'
    let mut rest = stat[stat.rfind(')')? + 1..].split_whitespace();
    let state = rest.next()?;
    let ppid = rest.next()?.parse().ok()?;
    Some(Proc { pid, ppid, zombie: state == "Z" || state == "X" })
}

/// Every descendant of `root` by parent pid.
fn descendants(procs: &[Proc], root: i32) -> Vec<Proc> {
    let mut children: HashMap<i32, Vec<Proc>> = HashMap::new();
    for p in procs {
        children.entry(p.ppid).or_default().push(*p);
    }
    let mut out = Vec::new();
    let mut todo = vec![root];
    while let Some(pid) = todo.pop() {
        for c in children.get(&pid).into_iter().flatten() {
            out.push(*c);
            todo.push(c.pid);
        }
    }
    out
}

/// Whether process `pid`'s environment holds `entry` (`VAR=value`).
fn carries(pid: i32, entry: &[u8]) -> bool {
    environ(pid).is_some_and(|env| entries(&env).any(|e| e == entry))
}

/// Whether `pid`'s environment has a `VAR=` entry starting with `prefix`.
fn carries_prefix(pid: i32, prefix: &[u8]) -> bool {
    environ(pid).is_some_and(|env| entries(&env).any(|e| e.starts_with(prefix)))
}

/// How often an environment without a mark is read again, a millisecond
/// apart, before it is believed.
const ENVIRON_TRIES: u32 = 20;

/// Process `pid`'s environment, once it can be believed. While a process
/// is in `execve`, `/proc/PID/environ` reads as empty or cut short until
/// its new stack is set up; believed at once, it would make a test's
/// `setsid sleep 60 &`, caught as its script exits, a stranger that
/// outlives its test (pinned by
/// `regression_a_process_left_by_a_test_that_exited_is_gone_before_the_next_test`).
/// A read that holds a mark ([`VAR`]`=`) is believed: the strings are in
/// place before the bounds are. One without is read again until two reads
/// agree: a process that cleared its environment costs a millisecond.
/// `None` once the process is gone (or hides its environment).
fn environ(pid: i32) -> Option<Vec<u8>> {
    let path = format!("/proc/{pid}/environ");
    let mark = format!("{VAR}=").into_bytes();
    let mut last: Option<Vec<u8>> = None;
    for _ in 0..ENVIRON_TRIES {
        let env = fs::read(&path).ok()?;
        let marked = entries(&env).any(|e| e.starts_with(&mark));
        if marked || (!env.is_empty() && last.as_ref() == Some(&env)) {
            return Some(env);
        }
        last = Some(env);
        std::thread::sleep(Duration::from_millis(1));
    }
    last
}

/// The whole entries of an environment as read: an entry not ended by its
/// NUL may be cut short, and `HDD_RUN=1.12` cut to `HDD_RUN=1.1` would be
/// another run's mark.
fn entries(env: &[u8]) -> impl Iterator<Item = &[u8]> {
    let whole = env.iter().rposition(|&b| b == 0).unwrap_or(0);
    env[..whole].split(|&b| b == 0).filter(|e| !e.is_empty())
}

/// The living processes of a run: hdd's descendants whose environment holds
/// `entry`, and the descendants of `child` (and `child` itself, which the
/// caller has not reaped yet).
fn members(entry: &[u8], child: Option<i32>) -> Vec<i32> {
    members_in(&run_table(child), entry, child)
}

fn members_in(procs: &[Proc], entry: &[u8], child: Option<i32>) -> Vec<i32> {
    let me = std::process::id() as i32;
    let mut found: HashSet<i32> = HashSet::new();
    if let Some(c) = child {
        // an unreaped child is ours whatever the table says (the kernel's
        // children files may miss a process): its pid cannot be reused yet
        found.insert(c);
        found.extend(descendants(procs, c).iter().filter(|p| !p.zombie).map(|p| p.pid));
    }
    for p in descendants(procs, me) {
        if !p.zombie && !found.contains(&p.pid) && carries(p.pid, entry) {
            found.insert(p.pid);
        }
    }
    found.into_iter().collect()
}

fn signal(pids: &[i32], sig: i32) {
    for &pid in pids {
        // SAFETY: plain syscall; a process that is gone gives ESRCH, ignored.
        unsafe { libc::kill(pid, sig) };
    }
}

/// Reaps the orphans re-parented to hdd that have exited: every zombie child
/// of hdd that is not a registered test child. Does nothing unless hdd is a
/// subreaper (the orphans then belong to init).
pub(crate) fn reap_orphans() {
    if ADOPTING.load(Ordering::SeqCst) {
        reap_in(&run_table(None));
    }
}

fn reap_in(procs: &[Proc]) {
    if !ADOPTING.load(Ordering::SeqCst) {
        return;
    }
    let me = std::process::id() as i32;
    let registry = Registry::lock();
    for p in procs {
        let ours = registry.as_ref().is_some_and(|set| set.contains(&p.pid));
        if p.ppid == me && p.zombie && !ours {
            let mut status = 0;
            // SAFETY: waiting for one specific child that has exited; never blocks.
            unsafe { libc::waitpid(p.pid, &mut status, libc::WNOHANG) };
        }
    }
}

/// The processes of one run: its mark and, while it lives, its first process.
#[derive(Debug)]
pub(crate) struct ProcessTree {
    /// `VAR=value`, as it appears in `/proc/PID/environ`.
    entry: Vec<u8>,
    /// The process group the run's child leads.
    pgid: i32,
}

impl ProcessTree {
    /// The run whose child is `child` (a process group leader), marked `value`.
    pub(crate) fn new(value: &str, child: i32) -> ProcessTree {
        ProcessTree { entry: format!("{VAR}={value}").into_bytes(), pgid: child }
    }

    /// Ends every process of the run: SIGTERM first, and SIGKILL to what is
    /// left after `grace` (at once if `grace` is zero, or as soon as `hurry`
    /// holds); returns as soon as nothing is left. The run's child is not
    /// reaped here (the runner waits for it); `child_done` tells whether it
    /// has exited and been reaped.
    pub(crate) fn end(
        &self,
        grace: Duration,
        hurry: &dyn Fn() -> bool,
        child_done: &mut dyn FnMut() -> bool,
    ) {
        let child = |done: bool| (!done).then_some(self.pgid);
        let done = child_done();
        if done && nothing_left(self.pgid) {
            return;
        }
        let procs = run_table(child(done));
        // orphans that exited on their own since the last run ended
        reap_in(&procs);
        let mut left = members_in(&procs, &self.entry, child(done));
        if left.is_empty() {
            return;
        }
        if !grace.is_zero() && !hurry() {
            self.signal_all(&left, libc::SIGTERM);
            let until = Instant::now() + grace;
            let mut nap = Duration::from_millis(1);
            while Instant::now() < until && !hurry() {
                std::thread::sleep(nap.min(until.saturating_duration_since(Instant::now())));
                nap = (nap * 2).min(Duration::from_millis(20));
                left = members(&self.entry, child(child_done()));
                if left.is_empty() {
                    reap_orphans();
                    return;
                }
            }
        }
        // SIGKILLed processes cannot fork again: a few rounds catch them all
        for _ in 0..50 {
            self.signal_all(&left, libc::SIGKILL);
            reap_orphans();
            left = members(&self.entry, child(child_done()));
            if left.is_empty() {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        reap_orphans();
    }

    fn signal_all(&self, pids: &[i32], sig: i32) {
        // SAFETY: plain syscall; a group that is already gone gives ESRCH.
        unsafe { libc::kill(-self.pgid, sig) };
        signal(pids, sig);
    }
}

/// Ends every process left by any run of this hdd whose mark starts with
/// `prefix`, and every orphan hdd adopted with what descends from it (at
/// exit, when no test runs: nothing may outlive hdd). An orphan is a
/// test's even when it cleared its environment, mark and all (`env -i`,
/// `sudo`): hdd starts nothing else that it does not register.
pub(crate) fn end_all(prefix: &str) {
    let entry = format!("{VAR}={prefix}").into_bytes();
    let me = std::process::id() as i32;
    for _ in 0..50 {
        let procs = table();
        let orphans: HashSet<i32> = match adopted().filter(|_| ADOPTING.load(Ordering::SeqCst)) {
            Some(roots) => subtrees(roots).iter().map(|p| p.pid).collect(),
            None => HashSet::new(),
        };
        let left: Vec<i32> = descendants(&procs, me)
            .iter()
            .filter(|p| !p.zombie && (orphans.contains(&p.pid) || carries_prefix(p.pid, &entry)))
            .map(|p| p.pid)
            .collect();
        if left.is_empty() {
            break;
        }
        signal(&left, libc::SIGKILL);
        reap_orphans();
        std::thread::sleep(Duration::from_millis(2));
    }
    reap_orphans();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_process_table_holds_this_process_and_its_parent() {
        let me = std::process::id() as i32;
        let procs = whole_table();
        let p = procs.iter().find(|p| p.pid == me).expect("this process");
        // SAFETY: getppid has no preconditions.
        assert_eq!(p.ppid, unsafe { libc::getppid() });
        assert!(!p.zombie);
        let mut child = std::process::Command::new("sleep").arg("5").spawn().expect("sleep");
        let found = table().iter().any(|p| p.pid == child.id() as i32 && p.ppid == me);
        let _ = (child.kill(), child.wait());
        assert!(found, "a child is among this process's descendants");
    }

    #[test]
    fn an_unreaped_child_belongs_to_its_run_even_when_the_table_misses_it() {
        // the kernel's children files may miss a process; the runner would
        // then wait for a test that nothing signalled
        let entry = format!("{VAR}=unit-missed").into_bytes();
        assert_eq!(members_in(&[], &entry, Some(12345)), vec![12345]);
        assert!(members_in(&[], &entry, None).is_empty());
    }

    #[test]
    fn a_run_is_found_by_its_mark_and_ended_whole() {
        use std::os::unix::process::CommandExt;
        use std::process::{Command, Stdio};
        let value = format!("unit-{}", std::process::id());
        // a background sleep in a new session: outside the shell's group
        let mut sh = Command::new("/bin/sh")
            .args(["-c", "setsid sleep 30 & echo $!; wait"])
            .env(VAR, &value)
            .stdout(Stdio::piped())
            .process_group(0)
            .spawn()
            .expect("sh");
        let mut line = String::new();
        let mut out = std::io::BufReader::new(sh.stdout.take().expect("stdout"));
        std::io::BufRead::read_line(&mut out, &mut line).expect("read");
        let sleep: i32 = line.trim().parse().expect("pid");
        let entry = format!("{VAR}={value}").into_bytes();
        let found = members(&entry, Some(sh.id() as i32));
        assert!(found.contains(&sleep) && found.contains(&(sh.id() as i32)), "{found:?}");
        let tree = ProcessTree::new(&value, sh.id() as i32);
        tree.end(Duration::ZERO, &|| false, &mut || sh.try_wait().is_ok_and(|s| s.is_some()));
        let status = sh.wait().expect("wait");
        assert!(!status.success());
        let gone = |pid: i32| {
            fs::read_to_string(format!("/proc/{pid}/stat"))
                .map_or(true, |s| s[s.rfind(')').unwrap() + 1..].trim_start().starts_with('Z'))
        };
        // SIGKILL is delivered, but dying takes a moment
        let waiting = Instant::now();
        while !gone(sleep) && waiting.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(gone(sleep), "the sleep outlived its run");
        assert!(members(&entry, None).is_empty());
    }
}
