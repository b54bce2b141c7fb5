//! Golden files: the exact output of `frontier` for a set of commands, kept in
//! `crates/cli/tests/golden/<case>.txt`.
//!
//! Each file holds the command line, its input, its exit code, its standard output and its
//! standard error, with what varies between runs and machines [masked](mask). A run that prints
//! anything else fails with the first line that differs. After a change that is meant to change
//! the output, rewrite the files and review the diff:
//!
//! ```text
//! BLESS=1 cargo test -p frontier --test cli golden
//! git diff crates/cli/tests/golden
//! ```
//!
//! The cases themselves are in [`cases`](super::golden_cases).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use crate::support::{frontier, temp_dir};

/// Where a command line names the case's temporary directory (its input files live there).
pub const TMP: &str = "<tmp>";

/// One command whose output is kept in a golden file.
pub struct Case {
    args: Vec<String>,
    stdin: Option<String>,
    files: Vec<(String, String)>,
}

/// A case running `frontier` with `args`; [`TMP`] in an argument stands for the directory the
/// case's [files](Case::file) are written to.
pub fn case<I, S>(args: I) -> Case
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    Case {
        args: args.into_iter().map(Into::into).collect(),
        stdin: None,
        files: Vec::new(),
    }
}

impl Case {
    /// Feeds `input` on standard input.
    pub fn stdin(mut self, input: &str) -> Case {
        self.stdin = Some(input.to_owned());
        self
    }

    /// Writes `contents` to `<tmp>/name` before the run.
    pub fn file(mut self, name: &str, contents: &str) -> Case {
        self.files.push((name.to_owned(), contents.to_owned()));
        self
    }

    /// Runs the case and compares what it printed with the golden file `name`, or rewrites
    /// the file when `BLESS` is set.
    pub fn check(self, name: &str) {
        let actual = self.run();
        let path = golden_path(name);
        if blessing() {
            std::fs::create_dir_all(path.parent().expect("a golden directory"))
                .expect("the golden directory is created");
            std::fs::write(&path, &actual).expect("the golden file is written");
            return;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "no golden file {} ({e}); `BLESS=1 cargo test -p frontier --test cli golden` \
                 writes it. This run printed:\n{actual}",
                path.display()
            )
        });
        if let Some(difference) = first_difference(&expected, &actual) {
            panic!(
                "{} differs from this run {difference}\n`BLESS=1 cargo test -p frontier --test \
                 cli golden` rewrites it if the change is meant. This run printed:\n{actual}",
                path.display()
            );
        }
    }

    /// Runs `frontier` in a temporary directory (holding the input files and the table cache)
    /// and renders the outcome as a golden file's text.
    fn run(&self) -> String {
        let dir = temp_dir();
        let tmp = dir.path().to_str().expect("a UTF-8 temporary path");
        for (name, contents) in &self.files {
            std::fs::write(dir.path().join(name), contents).expect("an input file is written");
        }
        let args: Vec<String> = self.args.iter().map(|a| a.replace(TMP, tmp)).collect();
        let mut run = frontier(&args).cache(dir.path().join("cache"));
        if let Some(input) = &self.stdin {
            run = run.stdin(input.as_str());
        }
        let output = run.output();

        let mut text = String::from("$ frontier");
        for arg in &self.args {
            text.push(' ');
            text.push_str(&quoted(arg));
        }
        text.push('\n');
        for (name, contents) in &self.files {
            section(&mut text, &format!("file {TMP}/{name}"), contents);
        }
        if let Some(input) = &self.stdin {
            section(&mut text, "stdin", input);
        }
        let code = output
            .status
            .code()
            .map_or_else(|| format!("none ({})", output.status), |c| c.to_string());
        let _ = writeln!(text, "--- exit code: {code}");
        let stdout = mask(&String::from_utf8_lossy(&output.stdout), dir.path());
        section(&mut text, "stdout", &stdout);
        let stderr = mask(&String::from_utf8_lossy(&output.stderr), dir.path());
        section(&mut text, "stderr", &stderr);
        text
    }
}

/// Whether `BLESS` asks for the golden files to be rewritten.
fn blessing() -> bool {
    std::env::var_os("BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The golden file of the case `name`.
pub fn golden_path(name: &str) -> PathBuf {
    golden_dir().join(format!("{name}.txt"))
}

/// The directory of the golden files.
pub fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// An argument as a shell would need it: bare when it is plain, else in double quotes.
fn quoted(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./<>=,:+".contains(c));
    if plain {
        arg.to_owned()
    } else {
        format!("{arg:?}")
    }
}

/// Appends a section: a `--- title` line, then `body`, marking a last line without a line
/// break (so that a missing or extra final newline shows).
fn section(text: &mut String, title: &str, body: &str) {
    let _ = writeln!(text, "--- {title}");
    text.push_str(body);
    if !body.is_empty() && !body.ends_with('\n') {
        text.push_str("\n\\ no newline at end\n");
    }
}

/// Where `expected` and `actual` first differ, as a readable message; `None` when they agree.
fn first_difference(expected: &str, actual: &str) -> Option<String> {
    if expected == actual {
        return None;
    }
    let mut expected_lines = expected.split_inclusive('\n');
    let mut actual_lines = actual.split_inclusive('\n');
    for number in 1.. {
        match (expected_lines.next(), actual_lines.next()) {
            (Some(e), Some(a)) if e == a => continue,
            (e, a) => {
                let show = |line: Option<&str>| {
                    line.map_or("(end of file)".to_owned(), |l| format!("{l:?}"))
                };
                return Some(format!(
                    "at line {number}:\n  expected: {}\n  actual:   {}",
                    show(e),
                    show(a)
                ));
            }
        }
    }
    unreachable!("two different texts differ at some line")
}

/// Masks what changes from run to run or from machine to machine in `text`, so that a golden
/// file holds only what a change of the code can change:
///
/// - the case's temporary directory `dir` becomes `<tmp>`;
/// - seconds: JSON's `"seconds":0.0123` becomes `"seconds":<secs>`, and a decimal number of
///   seconds in text (`0.012 s`, `after 0.3 s`) becomes `<secs> s`;
/// - rates (`12,345/s`) become `<rate>/s`, and milli-, micro- and nanoseconds (`12 ms`)
///   `<time> ms`;
/// - what depends on the machine's memory: `15,000 MiB of memory available` and `the default
///   budget of 8,000,000 bytes` become `<mem>`, and the states stored when that budget stopped a
///   search `<n>`;
/// - thread counts (`4 threads`) become `<n> threads`.
///
/// Everything else, counts of states and moves included, is kept: they are what the golden
/// files are for.
pub fn mask(text: &str, dir: &Path) -> String {
    static RULES: LazyLock<Vec<(Regex, &str)>> = LazyLock::new(|| {
        [
            (
                r#""seconds":\s*-?[0-9][0-9.]*([eE][-+]?[0-9]+)?"#,
                r#""seconds":<secs>"#,
            ),
            (r"\b[0-9]+\.[0-9]+ s\b", "<secs> s"),
            (r"\b[0-9][0-9,]*/s\b", "<rate>/s"),
            (r"\b[0-9]+(\.[0-9]+)? ?(ms|µs|us|ns)\b", "<time> $2"),
            (
                r"\b[0-9][0-9,]* MiB of memory available",
                "<mem> MiB of memory available",
            ),
            (r"\bbudget of [0-9][0-9,]* bytes\b", "budget of <mem> bytes"),
            (
                r"\bstoring [0-9][0-9,]* states, the default budget",
                "storing <n> states, the default budget",
            ),
            (r"\b[0-9]+ (worker )?threads\b", "<n> ${1}threads"),
            // --compare's peak memory, right-aligned: the padding goes with the figure.
            (r" +[0-9]+\.[0-9] MB\b", " <mem> MB"),
            (r#""peak_bytes":\s*[0-9]+"#, r#""peak_bytes":<mem>"#),
        ]
        .into_iter()
        .map(|(pattern, with)| (Regex::new(pattern).expect("a valid mask pattern"), with))
        .collect()
    });
    let mut masked = match dir.to_str() {
        Some(dir) if !dir.is_empty() => text.replace(dir, TMP),
        _ => text.to_owned(),
    };
    for (pattern, with) in RULES.iter() {
        masked = pattern.replace_all(&masked, *with).into_owned();
    }
    masked
}

#[test]
fn mask_hides_timings_paths_memory_and_threads_and_keeps_the_counts() {
    let dir = Path::new("/tmp/frontier-test-Ab12");
    let text = "\
stats: 41 expanded, 98 generated, 45 stored, peak frontier 4, 0.000 s (15,684,774/s)
{\"status\":\"solved\",\"length\":17,\"stats\":{\"expanded\":41,\"seconds\":2.494e-6}}
{\"stats\":{\"seconds\": 1.25},\"other\":0.5}
stopped by --timeout after 12.5 s; built in 340 ms, 12.5µs a node
warning: that many states may take 1,907 MiB, more than the 15,000 MiB of memory available
no answer: more than the default budget of 8,123,456 bytes; the table takes 725,760 bytes
stopped after storing 1,234,567 states, the default budget; a 176 MB table
running on 4 threads, 2 worker threads
error: cannot read /tmp/frontier-test-Ab12/seed.board: 17 moves to F, 0 0 N, 1.5 times
";
    let expected = "\
stats: 41 expanded, 98 generated, 45 stored, peak frontier 4, <secs> s (<rate>/s)
{\"status\":\"solved\",\"length\":17,\"stats\":{\"expanded\":41,\"seconds\":<secs>}}
{\"stats\":{\"seconds\":<secs>},\"other\":0.5}
stopped by --timeout after <secs> s; built in <time> ms, <time> µs a node
warning: that many states may take 1,907 MiB, more than the <mem> MiB of memory available
no answer: more than the default budget of <mem> bytes; the table takes 725,760 bytes
stopped after storing <n> states, the default budget; a 176 MB table
running on <n> threads, <n> worker threads
error: cannot read <tmp>/seed.board: 17 moves to F, 0 0 N, 1.5 times
";
    assert_eq!(mask(text, dir), expected);
}

#[test]
fn a_difference_names_the_first_line_that_differs() {
    assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
    assert_eq!(
        first_difference("a\nb\nc\n", "a\nB\nc\n").as_deref(),
        Some("at line 2:\n  expected: \"b\\n\"\n  actual:   \"B\\n\"")
    );
    assert_eq!(
        first_difference("a\n", "a\nmore\n").as_deref(),
        Some("at line 2:\n  expected: (end of file)\n  actual:   \"more\\n\"")
    );
    // A missing final line break is a difference too.
    assert!(first_difference("a\n", "a").is_some());
}

#[test]
fn every_golden_file_has_a_case() {
    let cases = super::golden_cases::CASES;
    let mut stale = Vec::new();
    // Blessing from scratch, the directory may not be written yet.
    for entry in std::fs::read_dir(golden_dir()).into_iter().flatten() {
        let path = entry.expect("a golden file").path();
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        if path.extension().is_some_and(|e| e == "txt") && !cases.contains(&name) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "golden files without a case (delete them): {stale:?}"
    );
}
