//! `--compare [ALGO,...]`: one problem solved by several solvers in turn, under the same
//! limits, and one table of what each did.

use std::io::Write;

use frontier_search::{Outcome, Status};
use serde_json::{json, Value};

use super::flags::Algo;
use super::output::{count, emit, stats_json};

/// What one solver did, for a row of the table.
pub struct CompareRow {
    /// The solver's name: `bfs`, `tree-bfs`, `optimal`.
    pub algorithm: &'static str,
    /// How it ended.
    pub status: Status,
    /// The solution's moves and cost, if it found one.
    pub answer: Option<(usize, u64)>,
    /// Its statistics.
    pub stats: frontier_search::Stats,
    /// The most memory the process held while it ran, where the system tells.
    pub peak_bytes: Option<u64>,
}

impl CompareRow {
    /// The row of an outcome.
    pub fn of<S, M>(
        algorithm: &'static str,
        outcome: &Outcome<S, M>,
        peak_bytes: Option<u64>,
    ) -> Self {
        CompareRow {
            algorithm,
            status: outcome.status(),
            answer: outcome.solution().map(|s| (s.len(), s.cost)),
            stats: *outcome.stats(),
            peak_bytes,
        }
    }
}

/// Reads `--compare`'s list: solver names separated by commas.
pub fn parse_compare(text: &str) -> Result<Vec<Algo>, String> {
    use clap::ValueEnum;
    let mut algos = Vec::new();
    for name in text.split(',').map(str::trim) {
        match Algo::from_str(name, false) {
            Ok(algo) if !algos.contains(&algo) => algos.push(algo),
            Ok(_) => return Err(format!("{name:?} is listed twice")),
            Err(_) => {
                let names: Vec<&str> = Algo::value_variants().iter().map(|a| a.name()).collect();
                return Err(format!(
                    "{name:?} is not a solver; choose from {}",
                    names.join(", ")
                ));
            }
        }
    }
    Ok(algos)
}

/// Forgets the process's peak memory so far, so that the next reading is of what follows;
/// false where the system offers no way (Linux: `/proc/self/clear_refs`).
pub fn reset_peak_memory() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// The process's peak resident memory since the last [`reset_peak_memory`], in bytes.
pub fn peak_memory() -> Option<u64> {
    memory_status("VmHWM:")
}

/// The process's resident memory now, in bytes.
pub fn resident_memory() -> Option<u64> {
    memory_status("VmRSS:")
}

/// The kibibytes of `/proc/self/status`'s line `key`, in bytes (Linux).
fn memory_status(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Bytes as people read them: `3.2 MB`.
fn megabytes(bytes: Option<u64>) -> String {
    match bytes {
        Some(b) => format!("{:.1} MB", b as f64 / 1e6),
        None => "-".to_owned(),
    }
}

/// How a row ended, in a word or two: `solved`, `unsolvable`, `limit: time`.
fn ended(status: Status) -> String {
    match status {
        Status::Solved => "solved".to_owned(),
        Status::Exhausted => "unsolvable".to_owned(),
        Status::Limit(limit) => format!("limit: {}", limit.name()),
    }
}

/// Prints the table (or, with `json`, `{"domain": .., "compare": [..]}`).
pub fn report_compare(domain: &str, rows: &[CompareRow], json: bool) -> anyhow::Result<()> {
    if json {
        let rows: Vec<Value> = rows
            .iter()
            .map(|row| {
                let mut value = json!({
                    "algorithm": row.algorithm,
                    "status": match row.status {
                        Status::Solved => "solved",
                        Status::Exhausted => "unsolvable",
                        Status::Limit(_) => "limit",
                    },
                    "stats": stats_json(&row.stats),
                    "peak_bytes": row.peak_bytes,
                });
                if let Status::Limit(limit) = row.status {
                    value["limit"] = json!(limit.name());
                }
                if let Some((length, cost)) = row.answer {
                    value["length"] = json!(length);
                    value["cost"] = json!(cost);
                }
                value
            })
            .collect();
        let value = json!({"domain": domain, "compare": rows});
        return emit(|out| writeln!(out, "{value}"));
    }
    let header = [
        "solver",
        "ended",
        "length",
        "cost",
        "expanded",
        "generated",
        "stored",
        "time",
        "peak memory",
    ];
    let cells: Vec<[String; 9]> = rows
        .iter()
        .map(|row| {
            let (length, cost) = match row.answer {
                Some((length, cost)) => (length.to_string(), cost.to_string()),
                None => ("-".to_owned(), "-".to_owned()),
            };
            [
                row.algorithm.to_owned(),
                ended(row.status),
                length,
                cost,
                count(row.stats.expanded),
                count(row.stats.generated),
                count(row.stats.stored),
                format!("{:.3} s", row.stats.seconds),
                megabytes(row.peak_bytes),
            ]
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            cells
                .iter()
                .map(|c| c[i].len())
                .chain([header[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    emit(|out| {
        let line = |out: &mut dyn Write, row: &[&str]| {
            let mut text = String::new();
            for (i, cell) in row.iter().enumerate() {
                // Names and words to the left, numbers to the right.
                if i < 2 {
                    text.push_str(&format!("{cell:<w$}  ", w = widths[i]));
                } else {
                    text.push_str(&format!("{cell:>w$}  ", w = widths[i]));
                }
            }
            writeln!(out, "{}", text.trim_end())
        };
        line(out, &header)?;
        for row in &cells {
            let row: Vec<&str> = row.iter().map(String::as_str).collect();
            line(out, &row)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_list_of_solvers_and_refuses_unknown_or_repeated_ones() {
        assert_eq!(
            parse_compare("bfs, idastar").unwrap(),
            [Algo::Bfs, Algo::Idastar]
        );
        assert!(parse_compare("bfs,bfs").unwrap_err().contains("twice"));
        let error = parse_compare("bfs,quick").unwrap_err();
        assert!(error.contains("\"quick\" is not a solver"), "{error}");
    }

    #[test]
    fn the_peak_memory_is_read_and_can_be_reset_on_linux() {
        if cfg!(target_os = "linux") {
            // 256 MB touched then freed (an allocation that large is returned to the system):
            // the peak holds it until a reset forgets it. Other tests of this process run
            // alongside, so the margins are wide.
            const BIG: usize = 256 << 20;
            let buffer = vec![1u8; BIG];
            std::hint::black_box(&buffer);
            let with_buffer = peak_memory().expect("VmHWM on Linux");
            assert!(with_buffer >= BIG as u64, "{with_buffer}");
            drop(buffer);
            // A reset may be refused (a locked-down /proc); then the reading simply stays.
            if reset_peak_memory() {
                let after = peak_memory().unwrap();
                assert!(
                    after + (BIG as u64) / 2 < with_buffer,
                    "{after} vs {with_buffer}"
                );
            }
        }
    }
}
