//! The one way these tests run the real `frontier` binary.
//!
//! [`frontier`] builds a run: by default its standard input is closed (empty), its output and
//! errors are captured, and its table cache (`FRONTIER_CACHE_DIR`, read by the cube's and the
//! tiles' caches) is a fresh temporary directory removed after the run, so that no test reads
//! or writes the user's cache. [`Frontier::cache`] points it at a directory of the test's own
//! instead, such as a [`shared_cache`] that keeps tables between tests. [`Running::measure`]
//! waits for a run keeping its peak memory and its time, for the tests that hold a command to
//! its budget.

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::thread::JoinHandle;
use std::time::Instant;

use serde_json::Value;
use tempfile::TempDir;

/// The path of the `frontier` binary that Cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_frontier");

/// A run of `frontier` being set up; [`Frontier::output`] or [`Frontier::spawn`] starts it.
pub struct Frontier {
    command: Command,
    stdin: Option<Vec<u8>>,
    /// The temporary cache directory of this run, unless the test gave one.
    cache: Option<TempDir>,
}

/// A run of `frontier` with `args`, a closed standard input and a temporary cache.
///
/// ```ignore
/// let out = frontier(["board", "-", "--json"]).stdin("AB\nAC\n").output();
/// assert_eq!(out.status.code(), Some(0));
/// ```
pub fn frontier<I, S>(args: I) -> Frontier
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new(BIN);
    command.args(args);
    with_command(command)
}

/// A run of `frontier` with `args` through `sh -c "PREFIX; exec frontier ARGS"`, for a limit
/// the shell sets first (`ulimit -v 3000000`); otherwise as [`frontier`].
pub fn frontier_after<I, S>(prefix: &str, args: I) -> Frontier
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("{prefix}; exec \"$0\" \"$@\""))
        .arg(BIN)
        .args(args);
    with_command(command)
}

/// `command` with a closed standard input, captured output and a temporary cache.
fn with_command(mut command: Command) -> Frontier {
    let cache = temp_dir();
    command
        .env("FRONTIER_CACHE_DIR", cache.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    Frontier {
        command,
        stdin: None,
        cache: Some(cache),
    }
}

impl Frontier {
    /// Adds one more argument (any bytes, for file names that are not UTF-8).
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.command.arg(arg);
        self
    }

    /// Feeds `input` on standard input (a pipe closed after it).
    pub fn stdin(mut self, input: impl Into<Vec<u8>>) -> Self {
        self.command.stdin(Stdio::piped());
        self.stdin = Some(input.into());
        self
    }

    /// Gives it a standard input that the test writes itself, or holds open without writing
    /// (`sleep 30 | frontier board -`), through the [`Running::child`]'s pipe.
    pub fn stdin_pipe(mut self) -> Self {
        self.command.stdin(Stdio::piped());
        self.stdin = None;
        self
    }

    /// Keeps the tables in `dir` instead of a temporary directory of this run's own.
    pub fn cache(mut self, dir: impl AsRef<Path>) -> Self {
        self.command.env("FRONTIER_CACHE_DIR", dir.as_ref());
        self.cache = None;
        self
    }

    /// Sends standard output to `target` instead of capturing it.
    pub fn stdout(mut self, target: impl Into<Stdio>) -> Self {
        self.command.stdout(target);
        self
    }

    /// Sends standard error to `target` instead of capturing it.
    pub fn stderr(mut self, target: impl Into<Stdio>) -> Self {
        self.command.stderr(target);
        self
    }

    /// Starts the run; its input is written by a thread of its own, so that a program that
    /// writes before it has read everything never waits on this one.
    pub fn spawn(mut self) -> Running {
        let started = Instant::now();
        let mut child = self.command.spawn().expect("the frontier binary starts");
        let writer = self.stdin.take().map(|input| {
            let mut pipe = child.stdin.take().expect("standard input is piped");
            // The program may exit (on a usage error) before reading its input: a broken
            // pipe is fine.
            std::thread::spawn(move || drop(pipe.write_all(&input)))
        });
        Running {
            child,
            writer,
            started,
            _cache: self.cache,
        }
    }

    /// Runs to the end and returns what it printed and its exit status.
    pub fn output(self) -> Output {
        self.spawn().wait()
    }
}

/// A started run of `frontier`.
pub struct Running {
    /// The process, for its id or its pipes.
    pub child: Child,
    writer: Option<JoinHandle<()>>,
    started: Instant,
    _cache: Option<TempDir>,
}

/// A finished run with what it cost: [`Running::measure`].
pub struct Measured {
    /// The exit status.
    pub status: ExitStatus,
    /// Standard output, as text.
    pub stdout: String,
    /// Standard error, as text.
    pub stderr: String,
    /// The peak resident set in bytes: the kernel's `ru_maxrss` of this child alone.
    pub peak: u64,
    /// Seconds from the start of the run to its end.
    pub seconds: f64,
}

impl Measured {
    /// The exit code, if the run exited.
    pub fn code(&self) -> Option<i32> {
        self.status.code()
    }
}

impl Running {
    /// Waits for the end of the run and returns what it printed and its exit status.
    pub fn wait(self) -> Output {
        let output = self.child.wait_with_output().expect("frontier ends");
        if let Some(writer) = self.writer {
            writer.join().expect("the input writer ends");
        }
        output
    }

    /// Waits for the end of the run, reading its output, and returns it with the run's own
    /// peak memory (waited for with `wait4`, which reports the child's usage alone) and time.
    pub fn measure(mut self) -> Measured {
        use std::io::Read;
        use std::os::unix::process::ExitStatusExt;
        let mut out = self.child.stdout.take().expect("a piped stdout");
        let mut err = self.child.stderr.take().expect("a piped stderr");
        let reader = std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = out.read_to_end(&mut text);
            text
        });
        let mut stderr = Vec::new();
        let _ = err.read_to_end(&mut stderr);
        let stdout = reader.join().expect("the reader thread");
        let mut status = 0;
        // SAFETY: `rusage` is plain data that wait4 fills in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: the pid is this run's own child, not yet waited for; `status` and `usage`
        // outlive the call.
        let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        assert_eq!(waited, pid, "wait4 failed");
        if let Some(writer) = self.writer {
            writer.join().expect("the input writer ends");
        }
        Measured {
            status: ExitStatus::from_raw(status),
            stdout: String::from_utf8_lossy(&stdout).into_owned(),
            stderr: String::from_utf8_lossy(&stderr).into_owned(),
            peak: usage.ru_maxrss as u64 * 1024,
            seconds: self.started.elapsed().as_secs_f64(),
        }
    }
}

/// Runs `frontier` with `args` to the end (closed input, temporary cache).
pub fn run(args: &[&str]) -> Output {
    frontier(args).output()
}

/// A fresh temporary directory, removed when dropped.
pub fn temp_dir() -> TempDir {
    tempfile::Builder::new()
        .prefix("frontier-test-")
        .tempdir()
        .expect("a temporary directory")
}

/// A table cache under Cargo's directory for test files, kept between tests and between runs:
/// tables built by one test are loaded by the next.
pub fn shared_cache(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// A file written into a temporary directory of its own; it derefs to its path, and goes
/// with the directory when dropped.
pub struct TempFile {
    dir: TempDir,
    path: PathBuf,
}

impl TempFile {
    /// Writes `contents` to a file called `name` in a fresh temporary directory.
    pub fn new(name: &str, contents: impl AsRef<[u8]>) -> TempFile {
        let dir = temp_dir();
        let path = dir.path().join(name);
        std::fs::write(&path, contents).expect("a test file is written");
        TempFile { dir, path }
    }

    /// The directory the file is in (for more files beside it).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl AsRef<Path> for TempFile {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl std::ops::Deref for TempFile {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

/// Standard output, as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Standard error, as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Standard output read as one JSON value; the test fails, showing the text, if it is not.
pub fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(output)))
}
