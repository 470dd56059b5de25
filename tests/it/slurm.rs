//! Tests run as Slurm job steps (`--launcher 'srun -Q --quit-on-interrupt
//! -n1'`) on a private one-node cluster (`tests/slurm/cluster.sh`): a real
//! reduction gives the same bytes as a local run, and no step and no test
//! process outlives hdd, also after timeouts and Ctrl-C.
//!
//! Needs root and Debian's `slurmctld slurmd slurm-client munge` (`.ci/run`
//! installs them). Without them the test fails under `CI=true` and is skipped,
//! with a message, elsewhere.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{hdd, interrupt, root, run, scratch, script, stderr, wait_for};

const LAUNCHER: &str = "srun -Q --quit-on-interrupt -n1";

/// A running private cluster, stopped when dropped (also when a check fails).
struct Cluster {
    dir: tempfile::TempDir,
    /// The cluster's `slurm.conf`, for `SLURM_CONF`.
    conf: PathBuf,
}

impl Cluster {
    fn script() -> PathBuf {
        root().join("tests/slurm/cluster.sh")
    }

    fn start() -> Cluster {
        let dir = scratch();
        // munged runs as user munge and must reach its key and socket here
        chmod(dir.path(), 0o755);
        let out = Command::new(Cluster::script())
            .arg("start")
            .arg(dir.path())
            .output()
            .expect("run cluster.sh");
        // stopped by Drop from here on, even if the start failed half-way
        let cluster = Cluster { conf: dir.path().join("slurm.conf"), dir };
        assert!(out.status.success(), "cluster.sh start: {}", stderr(&out));
        let line = String::from_utf8_lossy(&out.stdout);
        assert!(line.contains("SLURM_CONF="), "cluster.sh printed {line:?}");
        cluster
    }

    /// A command with this cluster's configuration.
    fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new(program);
        cmd.env("SLURM_CONF", &self.conf);
        cmd
    }

    /// The job steps in the queue (`squeue -h -s`), waiting up to `wait`
    /// for them to be gone.
    fn steps_after(&self, wait: Duration) -> Vec<String> {
        let started = Instant::now();
        loop {
            let out = run(self.command("squeue").args(["-h", "-s"]));
            assert!(out.status.success(), "squeue: {}", stderr(&out));
            let steps: Vec<String> =
                String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect();
            if steps.is_empty() || started.elapsed() > wait {
                return steps;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// No step is left `wait` after a run; else fails with the steps, and
    /// with how long they took to go after that (a step that hdd left
    /// running, as `sleep 60`, stays; one whose end was only slow to reach
    /// the controller goes soon), to tell the two apart.
    fn assert_no_steps_after(&self, wait: Duration, what: &str) {
        let steps = self.steps_after(wait);
        if steps.is_empty() {
            return;
        }
        let more = Instant::now();
        let gone = self.steps_after(Duration::from_secs(20)).is_empty();
        let later = match gone {
            true => format!("gone {:?} later", more.elapsed()),
            false => "still there 20 s later".to_string(),
        };
        panic!("steps left after {what}: {steps:?} ({later})");
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let out = Command::new(Cluster::script()).arg("stop").arg(self.dir.path()).output();
        match out {
            Ok(out) if !out.status.success() => {
                eprintln!("cluster.sh stop failed: {}", stderr(&out))
            }
            Err(e) => eprintln!("cannot run cluster.sh stop: {e}"),
            Ok(_) => {}
        }
    }
}

fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).expect("chmod");
}

/// Why this machine cannot run the cluster, if it cannot.
fn missing() -> Option<String> {
    let on_path = |p: &str| {
        let paths = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&paths).chain(["/usr/sbin".into()]).any(|d| d.join(p).is_file())
    };
    let absent: Vec<&str> =
        ["slurmctld", "slurmd", "srun", "munged"].into_iter().filter(|p| !on_path(p)).collect();
    if !absent.is_empty() {
        return Some(format!("not installed: {}", absent.join(", ")));
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Some("not root (the cluster's daemons run as root)".into());
    }
    None
}

/// The pids in `file` that are still alive (not zombies).
fn alive_in(file: &Path) -> Vec<i32> {
    let text = fs::read_to_string(file).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.trim().parse::<i32>().ok())
        .filter(|pid| {
            fs::read_to_string(format!("/proc/{pid}/stat"))
                .is_ok_and(|s| !s[s.rfind(')').unwrap_or(0)..].starts_with(") Z"))
        })
        .collect()
}

/// A JSON input with one interesting object among many.
fn input() -> String {
    let items: Vec<String> = (0..12)
        .map(|i| {
            let extra = if i == 7 { ", \"bug\": [1, 2, 3]" } else { "" };
            format!("{{\"id\": {i}, \"name\": \"item{i}\", \"tags\": [\"a\", \"b\"]{extra}}}")
        })
        .collect();
    format!("{{\"version\": 3, \"items\": [{}]}}\n", items.join(", "))
}

/// Interesting: valid JSON with an object whose "bug" list holds 2.
const ORACLE: &str = r#"python3 - "$1" <<'EOF'
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
except Exception:
    sys.exit(1)
def walk(v):
    if isinstance(v, dict):
        return 2 in (v.get("bug") or []) if isinstance(v.get("bug"), list) else any(walk(x) for x in v.values())
    if isinstance(v, list):
        return any(walk(x) for x in v)
    return False
sys.exit(0 if walk(doc) else 1)
EOF"#;

#[test]
fn tests_run_as_slurm_steps_give_the_local_result_and_leave_nothing_behind() {
    if let Some(why) = missing() {
        let msg = format!("the Slurm test cannot run: {why} (apt-get install slurmctld slurmd slurm-client munge, as root)");
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{msg}; CI must run it");
        }
        eprintln!("SKIPPED: {msg}");
        return;
    }
    let cluster = Cluster::start();
    let dir = scratch();
    let work = dir.path().join("shared");
    fs::create_dir(&work).expect("mkdir");
    chmod(&work, 0o755);
    let data = dir.path().join("data.json");
    fs::write(&data, input()).expect("write");
    let test = script(&dir.path().join("t.sh"), ORACLE);

    // 1. a real reduction through srun gives the local result, byte for byte
    let local = dir.path().join("local.json");
    let out = run(hdd().arg("-t").arg(&test).arg(&data).arg("-o").arg(&local).arg("-j8"));
    assert!(out.status.success(), "local run: {}", stderr(&out));
    let remote = dir.path().join("remote.json");
    let started = Instant::now();
    let out = run(cluster
        .command(env!("CARGO_BIN_EXE_hdd"))
        .arg("-t")
        .arg(&test)
        .arg(&data)
        .arg("-o")
        .arg(&remote)
        .args(["-j8", "--launcher", LAUNCHER, "--work-dir"])
        .arg(&work));
    assert!(out.status.success(), "run through srun: {}", stderr(&out));
    eprintln!("reduction through srun took {:?}", started.elapsed());
    let (want, got) = (fs::read(&local).expect("local"), fs::read(&remote).expect("remote"));
    assert_eq!(String::from_utf8_lossy(&got), String::from_utf8_lossy(&want));
    assert!(got.len() < 40, "{}", String::from_utf8_lossy(&got));
    cluster.assert_no_steps_after(Duration::from_secs(3), "the reduction");
    assert_eq!(fs::read_dir(&work).expect("work").count(), 0, "the work dir is not empty");

    // 2. timed-out and cancelled steps: the test hangs unless "hay" is there
    let small = dir.path().join("small.json");
    fs::write(&small, "[\"needle\", \"hay\", [1, 2], \"x\"]\n").expect("write");
    let pids = dir.path().join("pids");
    let hang = script(
        &dir.path().join("hang.sh"),
        &format!(
            "grep -q needle \"$1\" || exit 1\ngrep -q hay \"$1\" && exit 0\necho $$ >> {}\nexec sleep 60",
            pids.display()
        ),
    );
    let out = run(cluster
        .command(env!("CARGO_BIN_EXE_hdd"))
        .arg("-t")
        .arg(&hang)
        .arg(&small)
        .args(["-j4", "--timeout", "2s", "--launcher", LAUNCHER, "--work-dir"])
        .arg(&work));
    assert!(out.status.success(), "run with timeouts: {}", stderr(&out));
    assert!(fs::read_to_string(&pids).is_ok_and(|p| !p.is_empty()), "no test timed out");
    cluster.assert_no_steps_after(Duration::from_secs(3), "timeouts");
    let left = alive_in(&pids);
    assert!(left.is_empty(), "test processes left after timeouts: {left:?}");

    // 3. Ctrl-C while steps hang
    fs::write(&pids, "").expect("truncate");
    let mut child = cluster
        .command(env!("CARGO_BIN_EXE_hdd"))
        .arg("-t")
        .arg(&hang)
        .arg(&small)
        .args(["-j4", "--timeout", "60s", "--launcher", LAUNCHER, "--work-dir"])
        .arg(&work)
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn hdd");
    wait_for("a step started", Duration::from_secs(60), || {
        !fs::read_to_string(&pids).unwrap_or_default().is_empty()
    });
    let status = interrupt(&mut child, Duration::from_secs(5));
    assert_eq!(status.code(), Some(130));
    cluster.assert_no_steps_after(Duration::from_secs(3), "Ctrl-C");
    let left = alive_in(&pids);
    assert!(left.is_empty(), "test processes left after Ctrl-C: {left:?}");
    assert_eq!(fs::read_dir(&work).expect("work").count(), 0, "the work dir is not empty");
}
