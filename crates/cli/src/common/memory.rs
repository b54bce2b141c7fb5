//! The memory a search may fill: the available memory (cgroup and `ulimit` limits), the
//! budgets derived from it and the tables a solver needs before it searches.

use std::process::ExitCode;

use frontier_search::{Limit, Outcome, Stats};
use serde_json::Value;

use super::*;

/// The fraction of the available memory a search may fill by default.
pub(super) const MEMORY_SHARE: f64 = 0.5;

/// What a level of a tree search's path (`iddfs`, `idastar`) is budgeted at: its frame on the
/// stack, the space's successor callback inlined in it: a few hundred bytes on a board,
/// budgeted at about three times that, since other spaces inline other code.
pub(super) const PATH_LEVEL_BYTES: u64 = 1024;

/// Bytes of memory available to this process: the least of `MemAvailable` (from
/// `/proc/meminfo`), the room left under the memory limits of its cgroup (a container's) and
/// the room left under its address-space limit (`ulimit -v`), or 8 GiB where none can be read.
pub(super) fn available_memory() -> u64 {
    let from_meminfo = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib * 1024)
        });
    let from_cgroup = std::fs::read_to_string("/proc/self/cgroup")
        .ok()
        .and_then(|text| cgroup_room(std::path::Path::new("/sys/fs/cgroup"), &text));
    let from_ulimit = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|limits| {
            let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
            let cpus = std::thread::available_parallelism().map_or(1, usize::from);
            address_space_room(&limits, &status, cpus as u64)
        });
    [from_meminfo, from_cgroup, from_ulimit]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(8 << 30)
}

/// Address space a worker thread takes beyond what it stores: its malloc arena (glibc
/// reserves 64 MiB a thread) and its stack.
pub(super) const THREAD_ADDRESS_SPACE: u64 = 72 << 20;

/// The room left under the soft limits that `limits` (the text of `/proc/self/limits`) puts
/// on the address space (`ulimit -v`) and on the data segment (`ulimit -d`, which covers
/// anonymous mappings too): each limit less what is in use, `VmSize` or `VmData` in `status`
/// (the text of `/proc/self/status`), less the address space that up to `cpus` worker threads
/// and one more arena being set up may take. `None` without a limit. Under `ulimit -v` a
/// search budgeted on the machine's memory alone aborted when an allocation failed (exit
/// 134); so did the cube's table build, its workers' arenas unaccounted for.
pub(super) fn address_space_room(limits: &str, status: &str, cpus: u64) -> Option<u64> {
    let room = |limit: &str, used: &str| -> Option<u64> {
        let soft = limits
            .lines()
            .find_map(|line| line.strip_prefix(limit))?
            .split_whitespace()
            .next()?
            .parse::<u64>()
            .ok()?;
        let used_kib = status
            .lines()
            .find_map(|line| line.strip_prefix(used))
            .and_then(|rest| rest.split_whitespace().next()?.parse::<u64>().ok())
            .unwrap_or(0);
        let threads = (cpus + 1).saturating_mul(THREAD_ADDRESS_SPACE);
        Some(
            soft.saturating_sub(used_kib.saturating_mul(1024))
                .saturating_sub(threads),
        )
    };
    match (
        room("Max address space", "VmSize:"),
        room("Max data size", "VmData:"),
    ) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The room left under the cgroup v2 memory limits (`memory.max`) of the group that
/// `proc_cgroup` (the text of `/proc/self/cgroup`) names and of its ancestors, in the hierarchy
/// mounted at `root`: the least of each limit less the group's anonymous memory (page cache
/// can be reclaimed). `None` without a v2 group or a limit.
pub(super) fn cgroup_room(root: &std::path::Path, proc_cgroup: &str) -> Option<u64> {
    let read = |dir: &std::path::Path, file: &str| std::fs::read_to_string(dir.join(file)).ok();
    let group = proc_cgroup
        .lines()
        .find_map(|line| line.strip_prefix("0::"))?;
    let mut dir = root.join(group.trim().trim_start_matches('/'));
    let mut least: Option<u64> = None;
    while dir.starts_with(root) {
        // "max" (no limit) does not parse.
        if let Some(max) = read(&dir, "memory.max").and_then(|t| t.trim().parse::<u64>().ok()) {
            let stat = read(&dir, "memory.stat").unwrap_or_default();
            let anon = stat.lines().find_map(|line| line.strip_prefix("anon "));
            let used = anon
                .or(read(&dir, "memory.current").as_deref())
                .and_then(|t| t.trim().parse::<u64>().ok())
                .unwrap_or(0);
            let room = max.saturating_sub(used);
            least = Some(least.map_or(room, |l| l.min(room)));
        }
        if !dir.pop() {
            break;
        }
    }
    least
}

/// The warning for a `--max-states` of `max` states of `per_state` bytes each, more than the
/// `available` bytes of memory hold.
pub(super) fn past_memory_warning(max: u64, per_state: u64, available: u64) -> String {
    format!(
        "warning: --max-states {}: that many states may take {} MiB, more than the {} MiB of \
         memory available; the search may run out of memory before it reaches the limit \
         (without --max-states, the budget is about half the available memory)",
        count(max),
        count(max.saturating_mul(per_state) >> 20),
        count(available >> 20)
    )
}

/// The tables a solver needs before it can search (pattern databases, pruning tables), for
/// refusing those that the memory budget does not allow.
pub struct TableNeed {
    /// What takes the memory: "building the pattern databases (split 6-6-3)".
    pub what: String,
    /// The bytes they take.
    pub bytes: u64,
    /// The ways around them, which the message follows with "or raise --max-states".
    pub instead: &'static str,
}

impl TableNeed {
    /// Refuses tables past [`SearchArgs::table_budget`] as a limit (exit 3) that says what they
    /// need and how to proceed; `None` when they fit. The check is made whether or not the
    /// tables are cached, so that the answer does not depend on the cache. `domain` and
    /// `algorithm` name the command and its solver in the JSON answer.
    pub fn refuse_beyond(
        &self,
        ctx: &Context,
        search: &SearchArgs,
        domain: &str,
        algorithm: &str,
    ) -> anyhow::Result<Option<ExitCode>> {
        let budget = search.table_budget();
        if self.bytes <= budget {
            return Ok(None);
        }
        if search.json {
            let outcome: Outcome<(), ()> = Outcome::Stopped {
                limit: Limit::States,
                stats: Stats::default(),
            };
            let code = report(
                ctx,
                search,
                domain,
                algorithm,
                &outcome,
                |_| Value::Null,
                |_, _| Ok(()),
            );
            return code.map(Some);
        }
        let (limit, raise) = match search.max_states {
            Some(n) => (
                format!("more than --max-states {} allows", count(n)),
                "raise --max-states",
            ),
            None => (
                format!(
                    "more than the default budget of {} bytes (about half the available memory)",
                    count(budget)
                ),
                "raise the budget with --max-states N",
            ),
        };
        ctx.clear_progress();
        emit(|out| {
            writeln!(
                out,
                "no answer: {} takes {} bytes: {limit}",
                self.what,
                count(self.bytes)
            )?;
            writeln!(
                out,
                "{}, or {raise} (a byte of a table counts as a stored state)",
                self.instead
            )
        })?;
        Ok(Some(ExitCode::from(3)))
    }
}
