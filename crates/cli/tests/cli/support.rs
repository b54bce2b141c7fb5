//! The one way these tests run the real `frontier` binary.
//!
//! [`frontier`] builds a run: by default its standard input is closed (empty), its output and
//! errors are captured, and its table cache (`FRONTIER_CACHE_DIR`, read by the cube's and the
//! tiles' caches) is a fresh temporary directory removed after the run, so that no test reads
//! or writes the user's cache. [`Frontier::cache`] points it at a directory of the test's own
//! instead, such as a [`shared_cache`] that keeps tables between tests.

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::thread::JoinHandle;

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
    let cache = temp_dir();
    let mut command = Command::new(BIN);
    command
        .args(args)
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
    _cache: Option<TempDir>,
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
