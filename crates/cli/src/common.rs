//! What every command shares: the search flags, running a solver with limits, progress and
//! Ctrl-C, and printing the answer as text or JSON with the right exit code.

use std::ffi::OsStr;
use std::io::{self};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

use frontier_search::{Limit, Status};

mod compare;
mod context;
mod flags;
mod memory;
mod output;
mod tree;

pub use compare::*;
pub use context::*;
pub use flags::*;
pub use memory::*;
pub use output::*;
pub use tree::*;

/// How messages name an input: its path (any bytes that are not UTF-8 shown as `�`, line
/// breaks escaped like `\u{a}` so that the name stays on its line), or `<stdin>` for `-`.
pub fn input_name(input: &OsStr) -> String {
    if input == "-" {
        return "<stdin>".to_owned();
    }
    let mut name = String::new();
    for c in input.to_string_lossy().chars() {
        if matches!(c, '\n' | '\r') {
            name.extend(c.escape_unicode());
        } else {
            name.push(c);
        }
    }
    name
}

/// An I/O error as a person reads it: the system's words without their "(os error 2)".
pub(crate) fn plain(error: &io::Error) -> String {
    let text = error.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_owned(),
        _ => text,
    }
}

/// Reading the input ended by a limit before the input came: `--timeout` or Ctrl-C. `main`
/// reports it as a limit, exit 3 (130 for Ctrl-C), not as bad input.
#[derive(Debug)]
pub struct InputStopped {
    /// [`Limit::Time`] or [`Limit::Cancelled`].
    pub limit: Limit,
    /// The input, as [`input_name`] gives it.
    pub name: String,
    /// The command's seconds when it stopped.
    pub seconds: f64,
    /// Whether the input had come and was being parsed (else it was still awaited).
    pub parsing: bool,
}

impl std::fmt::Display for InputStopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.limit {
            Limit::Cancelled => write!(f, "interrupted while reading {}", self.name),
            _ if self.parsing => write!(
                f,
                "stopped by --timeout after {:.1} s while reading {} (it was being parsed); raise \
                 it to read it whole",
                self.seconds, self.name
            ),
            _ => write!(
                f,
                "stopped by --timeout after {:.1} s while reading {} (it was still waiting for \
                 input); raise it to wait longer",
                self.seconds, self.name
            ),
        }
    }
}

impl std::error::Error for InputStopped {}

impl InputStopped {
    /// The exit code: 130 for Ctrl-C, else 3.
    pub fn exit_code(&self) -> ExitCode {
        exit_code(Status::Limit(self.limit))
    }
}

/// How often a wait for input looks at the clock and the Ctrl-C flag.
const INPUT_TICK: Duration = Duration::from_millis(20);

/// Reads a puzzle file, or standard input for `-`, refusing more than `limit` bytes: no
/// input, however large (`/dev/zero`, `yes | frontier board -`), may take all the memory.
/// `what` names the content in the error: "a board file".
///
/// The file is opened and read on a thread of its own while this one watches `search`'s
/// `--timeout` (counted from the command's start) and Ctrl-C: a pipe that never writes, or a
/// named pipe that no one opens (opening it waits for a writer), ends the command with
/// [`InputStopped`] at the deadline. The reading thread, still blocked, ends with the process.
pub fn read_input(
    input: &OsStr,
    what: &str,
    limit: u64,
    search: &SearchArgs,
    ctx: &Context,
) -> anyhow::Result<Vec<u8>> {
    use std::io::Read;
    use std::sync::mpsc;
    let name = input_name(input);
    let path = input.to_owned();
    let (sender, receiver) = mpsc::channel();
    std::thread::Builder::new()
        .name("read-input".to_owned())
        .spawn(move || {
            let mut bytes = Vec::new();
            let read = if path == "-" {
                io::stdin().lock().take(limit + 1).read_to_end(&mut bytes)
            } else {
                std::fs::File::open(&path)
                    .and_then(|file| file.take(limit + 1).read_to_end(&mut bytes))
            };
            // The receiver is gone only when the command stopped waiting.
            let _ = sender.send(read.map(|_| bytes));
        })
        .map_err(|e| anyhow::anyhow!("cannot read {name}: {}", plain(&e)))?;
    let read = loop {
        match receiver.recv_timeout(INPUT_TICK) {
            Ok(read) => break read,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                anyhow::bail!("cannot read {name}: the reading thread stopped")
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        let limit = if ctx.cancel.load(Ordering::Relaxed) {
            Limit::Cancelled
        } else if search.timeout.is_some_and(|t| ctx.started.elapsed() >= t) {
            Limit::Time
        } else {
            continue;
        };
        return Err(InputStopped {
            limit,
            name,
            seconds: ctx.seconds(),
            parsing: false,
        }
        .into());
    };
    let bytes = read.map_err(|e| anyhow::anyhow!("cannot read {name}: {}", plain(&e)))?;
    if bytes.len() as u64 > limit {
        anyhow::bail!(
            "{name}: more than {} MiB; {what} is never that large",
            limit >> 20
        );
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::{flags::*, memory::*, output::*, *};
    use std::time::Duration;

    #[test]
    fn an_input_is_named_on_one_line() {
        assert_eq!(input_name(OsStr::new("-")), "<stdin>");
        assert_eq!(input_name(OsStr::new("a\nb\r.txt")), "a\\u{a}b\\u{d}.txt");
        assert_eq!(input_name(OsStr::new("dir/é b.toml")), "dir/é b.toml");
    }

    #[test]
    fn long_tokens_are_shortened_and_the_rest_kept() {
        let long = format!("\"R2{}\"", "'".repeat(100_001));
        let message = format!("column 3: {long} is not a valid move;\n  write R");
        let short = shorten_tokens(&message);
        let kept: String = long.chars().take(TOKEN_KEPT_CHARS).collect();
        assert_eq!(
            short,
            format!("column 3: {kept}...(100,005 characters) is not a valid move;\n  write R")
        );
        // A token of the longest length shown whole is kept, and so is the spacing.
        let path = "p".repeat(MAX_TOKEN_CHARS);
        assert_eq!(
            shorten_tokens(&format!(" {path}\t x ")),
            format!(" {path}\t x ")
        );
        assert_eq!(shorten_tokens(""), "");
    }

    #[test]
    fn messages_escape_what_would_steer_the_terminal() {
        assert_eq!(
            printable("rule 1 \"a \u{1b}[31m b\"\nnext line"),
            "rule 1 \"a \\u{1b}[31m b\"\nnext line"
        );
        assert_eq!(printable("x\u{202e}y é"), "x\\u{202e}y é");
        assert_eq!(printable("\u{feff}8 is"), "\\u{feff}8 is");
    }

    #[test]
    fn the_memory_budget_keeps_within_the_address_space_limit() {
        // The layout of /proc/self/limits and /proc/self/status (abridged).
        let limits = |soft: &str| {
            format!(
                "Limit                     Soft Limit           Hard Limit           Units\n\
                 Max stack size            8388608              unlimited            bytes\n\
                 Max address space         {soft:<20} unlimited            bytes\n"
            )
        };
        let status = "Name:\tfrontier\nVmPeak:\t  300000 kB\nVmSize:\t  200000 kB\n";
        let limited = limits("1500000000");
        // Two CPUs: two workers and an arena being set up, 72 MiB each.
        let threads = 3 * THREAD_ADDRESS_SPACE;
        assert_eq!(
            address_space_room(&limited, status, 2),
            Some(1_500_000_000 - 200_000 * 1024 - threads)
        );
        assert_eq!(address_space_room(&limits("unlimited"), status, 2), None);
        // A limit below what is in use leaves no room; an unreadable status counts none used.
        assert_eq!(address_space_room(&limits("1000"), status, 2), Some(0));
        assert_eq!(
            address_space_room(&limited, "", 2),
            Some(1_500_000_000 - threads)
        );
        // The data limit (ulimit -d) counts against the data segment in use.
        let both = format!(
            "{limited}Max data size             900000000            unlimited            bytes\n"
        );
        let status = format!("{status}VmData:\t  100000 kB\n");
        assert_eq!(
            address_space_room(&both, &status, 2),
            Some(900_000_000 - 100_000 * 1024 - threads)
        );
    }

    #[test]
    fn the_memory_budget_keeps_within_the_cgroup_limits() {
        let root = std::env::temp_dir().join(format!("frontier-cgroup-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (outer, inner) = (root.join("a"), root.join("a/b"));
        std::fs::create_dir_all(&inner).unwrap();
        let write = |dir: &std::path::Path, file: &str, text: &str| {
            std::fs::write(dir.join(file), text).unwrap();
        };
        // The outer group: 1,000,000 bytes, 200,000 of them taken by anonymous memory (the
        // page cache, reclaimable, does not count).
        write(&outer, "memory.max", "1000000\n");
        write(&outer, "memory.stat", "file 700000\nanon 200000\n");
        write(&inner, "memory.max", "max\n");
        let proc_cgroup = "0::/a/b\n";
        assert_eq!(cgroup_room(&root, proc_cgroup), Some(800_000));
        // A tighter inner limit wins; without memory.stat, memory.current counts.
        write(&inner, "memory.max", "500000\n");
        write(&inner, "memory.current", "150000\n");
        assert_eq!(cgroup_room(&root, proc_cgroup), Some(350_000));
        // No limit, or no v2 group: nothing to say.
        write(&outer, "memory.max", "max\n");
        write(&inner, "memory.max", "max\n");
        assert_eq!(cgroup_room(&root, proc_cgroup), None);
        assert_eq!(cgroup_room(&root, "1:memory:/a/b\n"), None);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn io_errors_lose_their_error_numbers() {
        let missing = io::Error::from_raw_os_error(2);
        assert!(missing.to_string().ends_with("(os error 2)"), "{missing}");
        assert_eq!(plain(&missing), "No such file or directory");
        let own = io::Error::other("a message (of ours)");
        assert_eq!(plain(&own), "a message (of ours)");
    }

    #[test]
    fn counts_get_thousands_separators() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(181_440), "181,440");
        assert_eq!(count(1_234_567), "1,234,567");
    }

    #[test]
    fn seconds_must_be_positive_numbers() {
        assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_seconds("-1").is_err());
        assert!(parse_seconds("soon").is_err());
        assert!(parse_seconds("NaN").is_err());
    }

    #[test]
    fn default_budget_scales_with_state_size() {
        let args = SearchArgs::default();
        assert!(args.state_budget::<u8, ()>() > args.state_budget::<[u64; 8], ()>());
        let capped = SearchArgs {
            max_states: Some(10),
            ..SearchArgs::default()
        };
        assert_eq!(capped.state_budget::<u8, ()>(), 10);
    }
}
