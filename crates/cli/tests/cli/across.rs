//! `frontier explore ... --processes/--workers/--checkpoint`: an exploration on timely
//! workers, in this process or in several, gives the counts of the one in this process.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::Path;
use std::process::Output;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{frontier, json, run, stderr, temp_dir, Running};

/// The layers of `frontier explore tiles --size SIZE --json` in this process alone.
fn layers_alone(size: &str) -> Value {
    let out = run(&["explore", "tiles", "--size", size, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    json(&out)["layers"].clone()
}

/// A hosts file of `n` free ports on 127.0.0.1 in `dir`.
fn hosts_file(dir: &Path, n: usize) -> std::path::PathBuf {
    // Each port is free when read; the listeners are closed just before the processes start.
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").expect("a free port"))
        .collect();
    let lines: Vec<String> = listeners
        .iter()
        .map(|l| format!("127.0.0.1:{}", l.local_addr().unwrap().port()))
        .collect();
    let path = dir.join("hosts");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// Process `i` of `n` exploring the tiles of `size`, with `more` arguments.
fn process(size: &str, i: usize, n: usize, hosts: &Path, more: &[&str]) -> Running {
    let mut f = frontier(["explore", "tiles", "--size", size, "--processes"])
        .arg(n.to_string())
        .arg("--process")
        .arg(i.to_string())
        .arg("--hosts")
        .arg(hosts);
    for arg in more {
        f = f.arg(arg);
    }
    f.spawn()
}

#[test]
fn workers_in_one_process_count_as_the_process_alone() {
    for (size, workers) in [("3x3", "3"), ("2x4", "2"), ("1x1", "2")] {
        let out = run(&[
            "explore",
            "tiles",
            "--size",
            size,
            "--workers",
            workers,
            "--json",
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(json(&out)["layers"], layers_alone(size), "{size}");
    }
    // 8-puzzle: 181,440 arrangements, 31 moves at most (Reinefeld 1993).
    let out = run(&[
        "explore",
        "tiles",
        "--size",
        "3x3",
        "--workers",
        "2",
        "--json",
    ]);
    let value = json(&out);
    assert_eq!(value["states"], 181_440);
    assert_eq!(value["layers"].as_array().unwrap().len(), 32);
    // One progress line a layer on stderr, unless --quiet.
    let lines = stderr(&out)
        .lines()
        .filter(|l| l.starts_with("layer "))
        .count();
    assert_eq!(lines, 32, "{}", stderr(&out));
    let out = run(&[
        "explore",
        "tiles",
        "--size",
        "3x3",
        "--workers",
        "2",
        "--quiet",
    ]);
    assert_eq!(stderr(&out), "");
}

#[test]
fn two_processes_on_localhost_count_as_one() {
    let dir = temp_dir();
    let hosts = hosts_file(dir.path(), 2);
    for workers in ["1", "2"] {
        let more = ["--json", "--workers", workers];
        let first = process("3x3", 0, 2, &hosts, &more);
        let second = process("3x3", 1, 2, &hosts, &more);
        let (first, second) = (first.wait(), second.wait());
        assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
        assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
        let value = json(&first);
        assert_eq!(value["layers"], layers_alone("3x3"));
        assert_eq!(value["complete"], true);
        // Process 0 answers; the others only exit with its code.
        assert!(second.stdout.is_empty());
    }
}

/// Waits for `running` to end within `seconds`, killing it past them.
fn wait_within(mut running: Running, seconds: u64) -> Output {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    while running.child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = running.child.kill();
            panic!("the process did not end within {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    running.wait()
}

fn signal(running: &Running, signal: i32) {
    // SAFETY: kill(2) on a child of this test that has not been waited for.
    unsafe { libc::kill(running.child.id() as libc::pid_t, signal) };
}

/// The lines process 0 of a run writes on stderr, as it writes them (read by a thread).
fn stderr_lines(running: &mut Running) -> mpsc::Receiver<String> {
    let err = running.child.stderr.take().expect("a piped stderr");
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    receive
}

/// The depth of a progress line, `layer   4: ...`.
fn layer_of(line: &str) -> Option<u32> {
    let rest = line.strip_prefix("layer ")?;
    rest.split(':').next()?.trim().parse().ok()
}

#[test]
fn a_killed_run_resumes_from_its_checkpoints_with_the_same_counts() {
    let spawn = |i: usize, hosts: &Path, more: &[&str]| process("2x5", i, 2, hosts, more);
    let layers = killed_and_resumed(spawn, 4);
    assert_eq!(layers, layers_alone("2x5"));
    let states: u64 = layers
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_u64)
        .sum();
    assert_eq!(states, 1_814_400); // 10!/2
}

#[test]
fn a_killed_run_shared_out_by_hashes_resumes_with_the_same_counts() {
    // The 3x3x3 from its facets, which has no rank: its first five layers, 1, 18, 243,
    // 3,240 and 43,239 positions in the face-turn metric (OEIS A080601).
    let spawn = |i: usize, hosts: &Path, more: &[&str]| {
        let mut f = frontier(["explore", "perm", "cube3", "--max-depth", "4"])
            .arg("--processes")
            .arg("2")
            .arg("--process")
            .arg(i.to_string())
            .arg("--hosts")
            .arg(hosts);
        for arg in more {
            f = f.arg(arg);
        }
        f.spawn()
    };
    let layers = killed_and_resumed(spawn, 2);
    assert_eq!(layers, serde_json::json!([1, 18, 243, 3240, 43239]));
}

/// Two processes started by `spawn(i, hosts, arguments)`, each with a checkpoint directory of
/// its own: process 1 frozen once process 0 reports layer `depth`, then killed; then both
/// resumed. Returns the resumed run's layers (checked to have resumed from `depth` or later).
fn killed_and_resumed(spawn: impl Fn(usize, &Path, &[&str]) -> Running, depth: u32) -> Value {
    let dir = temp_dir();
    let hosts = hosts_file(dir.path(), 2);
    // Each process its own directory, as on two machines.
    let (zero, one) = (dir.path().join("zero"), dir.path().join("one"));
    let args = |d: &Path| vec!["--checkpoint".to_owned(), d.display().to_string()];
    let (args0, args1) = (args(&zero), args(&one));
    fn strs(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }
    let mut first = spawn(0, &hosts, &strs(&args0));
    let second = spawn(1, &hosts, &strs(&args1));
    // Process 1 frozen once the layer is counted: process 0 cannot finish without it. Then
    // process 1 is killed, and process 0 finds its connection broken.
    let lines = stderr_lines(&mut first);
    let reached = lines.iter().any(|line| layer_of(&line) == Some(depth));
    signal(&second, libc::SIGSTOP);
    assert!(reached, "process 0 never reported layer {depth}");
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        first.child.try_wait().unwrap().is_none(),
        "process 0 ended without process 1"
    );
    signal(&second, libc::SIGKILL);
    let first = wait_within(first, 60);
    drop(second.wait());
    let rest: Vec<String> = lines.iter().collect();
    assert_eq!(first.status.code(), Some(2), "{rest:?}");
    assert!(
        rest.iter().any(|l| l.contains("connection broke")),
        "{rest:?}"
    );
    // Resumed: from a layer past the start, to the counts of a run in one process.
    let resume = |mut a: Vec<String>| {
        a.extend(["--resume".to_owned(), "--json".to_owned()]);
        a
    };
    let (args0, args1) = (resume(args0), resume(args1));
    let mut first = spawn(0, &hosts, &strs(&args0));
    let second = spawn(1, &hosts, &strs(&args1));
    let lines = stderr_lines(&mut first);
    let (first, second) = (first.wait(), second.wait());
    let seen: Vec<u32> = lines.iter().filter_map(|l| layer_of(&l)).collect();
    assert_eq!(first.status.code(), Some(0));
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    assert!(
        seen.first().is_some_and(|&d| d >= depth),
        "resumed from {seen:?}"
    );
    json(&first)["layers"].clone()
}

#[test]
fn a_damaged_or_foreign_checkpoint_is_refused_with_exit_2() {
    let dir = temp_dir();
    let ckpt = dir.path().join("ckpt");
    let ckpt = ckpt.to_str().unwrap();
    let first = [
        "explore",
        "tiles",
        "--size",
        "2x4",
        "--workers",
        "2",
        "--checkpoint",
        ckpt,
    ];
    let out = run(&first);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Again without --resume: refused, the directory holds a run.
    let out = run(&first);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--resume"), "{}", stderr(&out));
    // Resumed with another board.
    let out = run(&[
        "explore",
        "tiles",
        "--size",
        "4x2",
        "--workers",
        "2",
        "--checkpoint",
        ckpt,
        "--resume",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("belongs to another run"),
        "{}",
        stderr(&out)
    );
    // Resumed with another number of workers.
    let out = run(&[
        "explore",
        "tiles",
        "--size",
        "2x4",
        "--workers",
        "3",
        "--checkpoint",
        ckpt,
        "--resume",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("a run of 2 workers"),
        "{}",
        stderr(&out)
    );
    let resumed = [&first[..], &["--resume"][..]].concat();
    assert_damage_is_refused(ckpt, &resumed);
}

#[test]
fn a_damaged_checkpoint_of_hash_shards_is_refused_with_exit_2() {
    let dir = temp_dir();
    let ckpt = dir.path().join("ckpt");
    let ckpt = ckpt.to_str().unwrap();
    let first = [
        "explore",
        "river",
        "family",
        "--workers",
        "2",
        "--json",
        "--checkpoint",
        ckpt,
    ];
    let out = run(&first);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let layers = json(&out)["layers"].clone();
    // Resumed whole: from its last layer, to the same counts.
    let resumed = [&first[..], &["--resume"][..]].concat();
    let out = run(&resumed);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["layers"], layers);
    assert_damage_is_refused(ckpt, &resumed);
}

/// Flips a byte of every file in the checkpoint directory `ckpt`, then checks that `resumed`
/// (a run resuming from it) is refused with exit code 2, saying the checkpoint is damaged.
fn assert_damage_is_refused(ckpt: &str, resumed: &[&str]) {
    for entry in std::fs::read_dir(ckpt).unwrap() {
        let path = entry.unwrap().path();
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() - 20;
        bytes[at] ^= 0x40;
        std::fs::write(&path, bytes).unwrap();
    }
    let out = run(resumed);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is damaged"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
}

#[test]
fn bad_flags_exit_2_with_the_reason() {
    let dir = temp_dir();
    let hosts = hosts_file(dir.path(), 2);
    let hosts = hosts.to_str().unwrap();
    let bad = dir.path().join("bad-hosts");
    std::fs::write(&bad, "127.0.0.1:7000\nlocalhost\n").unwrap();
    let bad = bad.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["--processes", "2", "--process", "2", "--hosts", hosts],
            "--process 2",
        ),
        (&["--processes", "2", "--hosts", hosts], "--process I"),
        (&["--processes", "2", "--process", "1"], "--hosts FILE"),
        (
            &["--processes", "2", "--process", "0", "--hosts", bad],
            "line 2",
        ),
        (
            &["--processes", "3", "--process", "0", "--hosts", hosts],
            "names 2 hosts",
        ),
        (&["--resume"], "--checkpoint DIR"),
        (&["--workers", "2", "--threads", "2"], "--workers W"),
        (&["--workers", "0"], "workers"),
        (&["--workers", "2", "--size", "4x4"], "no rank"),
        (&["--workers", "2", "--size", "5x5"], "no rank"),
    ];
    for (more, message) in cases {
        let out = run(&[&["explore", "tiles"][..], *more].concat());
        assert_eq!(out.status.code(), Some(2), "{more:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{more:?}: {}", stderr(&out));
    }
    let out = run(&["explore", "cube", "--workers", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("explore perm cube3"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_2x2x2_counts_alike_alone_on_workers_and_on_two_processes() {
    // OEIS A079761: the 2x2x2's positions at each face-turn distance, 3,674,160 in all.
    let published = serde_json::json!([
        1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644
    ]);
    assert_eq!(alike_everywhere(&["perm", "cube2"]), published);
}

/// `frontier explore ARGS --json` in this process alone on 1 and 2 threads, on 2 and 3
/// workers, and on two processes of 2 workers: the same layers everywhere; returns them.
fn alike_everywhere(args: &[&str]) -> Value {
    let alone = run(&[&["explore"], args, &["--json", "--threads", "1"]].concat());
    assert_eq!(alone.status.code(), Some(0), "{args:?}: {}", stderr(&alone));
    let layers = json(&alone)["layers"].clone();
    let parallel = run(&[&["explore"], args, &["--json", "--threads", "2"]].concat());
    assert_eq!(
        parallel.status.code(),
        Some(0),
        "{args:?}: {}",
        stderr(&parallel)
    );
    assert_eq!(json(&parallel)["layers"], layers, "{args:?} on 2 threads");
    for workers in ["2", "3"] {
        let out = run(&[&["explore"], args, &["--json", "--workers", workers]].concat());
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(
            json(&out)["layers"],
            layers,
            "{args:?} on {workers} workers"
        );
    }
    let dir = temp_dir();
    let hosts = hosts_file(dir.path(), 2);
    let spawn = |i: usize| {
        let more = ["--json", "--workers", "2", "--processes", "2", "--process"];
        frontier([&["explore"], args, &more[..]].concat())
            .arg(i.to_string())
            .arg("--hosts")
            .arg(&hosts)
            .spawn()
    };
    let (first, second) = (spawn(0), spawn(1));
    let (first, second) = (first.wait(), second.wait());
    assert_eq!(first.status.code(), Some(0), "{args:?}: {}", stderr(&first));
    assert_eq!(
        second.status.code(),
        Some(0),
        "{args:?}: {}",
        stderr(&second)
    );
    assert_eq!(json(&first)["layers"], layers, "{args:?} on two processes");
    layers
}

#[test]
fn spaces_without_a_rank_count_alike_alone_on_workers_and_on_two_processes() {
    let dir = temp_dir();
    // The seed's board and its 17-move route: the robot's states by distance.
    let board = dir.path().join("seed.board");
    std::fs::write(&board, "AAAA\nACCB\nADEF\n").unwrap();
    alike_everywhere(&["board", board.to_str().unwrap()]);
    // The seed's river crossing: every safe arrangement.
    alike_everywhere(&["river", "family"]);
    // Six tokens, three of one colour and three of another, swapped and rotated: every
    // arrangement of the colours, 6!/(3! 3!) = 20, with identical pieces (no coordinates).
    let perm = dir.path().join("tokens.perm");
    std::fs::write(
        &perm,
        "R: (1,2,3,4,5,6)\nS: (1,2)\ncolours: {1,2,3} {4,5,6}\n",
    )
    .unwrap();
    let layers = alike_everywhere(&["perm", perm.to_str().unwrap()]);
    let states: u64 = layers
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(states, 20);
    // The 3x3x3 from its 48 facets has more pieces than a rank holds: its first three
    // layers, 1, 18, 243 and 3,240 positions in the face-turn metric (OEIS A080601).
    let layers = alike_everywhere(&["perm", "cube3", "--max-depth", "3"]);
    assert_eq!(layers, serde_json::json!([1, 18, 243, 3240]));
}
