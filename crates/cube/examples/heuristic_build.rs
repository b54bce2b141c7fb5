//! Times the heuristic tables of each metric: built in memory, built and written to a fresh
//! cache directory, and loaded (and checked) from it.
//!
//! `cargo run --release -p frontier-cube --example heuristic_build`

use std::time::Instant;

use frontier_cube::{Cube, Heuristic, Metric};
use frontier_tables::{Cache, Origin};

/// Runs `f` and returns its result with the wall time in milliseconds.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let started = Instant::now();
    let value = f();
    (value, started.elapsed().as_secs_f64() * 1000.0)
}

fn main() {
    let dir = std::env::temp_dir().join(format!("frontier-cube-example-{}", std::process::id()));
    let cache = Cache::at(&dir);
    for metric in [Metric::Htm, Metric::Qtm] {
        let (built, build_ms) = timed(|| Heuristic::build(metric));
        let (written, write_ms) = timed(|| Heuristic::load_or_build(&cache, metric));
        let (loaded, load_ms) = timed(|| Heuristic::load_or_build(&cache, metric));
        let origins = |h: &Heuristic| {
            let o: Vec<Origin> = h.cache_report().iter().map(|r| r.origin).collect();
            format!("{o:?}")
        };
        assert!(
            written.cache_report().iter().all(|r| r.warning().is_none()),
            "{:?}",
            written.cache_report()
        );
        assert!(loaded
            .cache_report()
            .iter()
            .all(|r| r.origin == Origin::Cache));
        let bytes: usize = frontier_cube::cache::TableKind::ALL
            .iter()
            .map(|&k| loaded.table(k).len())
            .sum();
        let same = frontier_cube::cache::TableKind::ALL
            .iter()
            .all(|&k| loaded.table(k) == built.table(k));
        let sample = (0..1000)
            .map(|s| loaded.estimate(Cube::random(s)))
            .sum::<u64>() as f64
            / 1000.0;
        println!(
            "{metric}: {bytes} bytes; build in memory {build_ms:.1} ms; build + write {write_ms:.1} ms {}; \
             load + check {load_ms:.1} ms {} (build/load {:.1}x, tables equal: {same}); \
             depths {:?}; mean estimate of a random cube {sample:.2}",
            origins(&written),
            origins(&loaded),
            build_ms / load_ms,
            loaded.depths()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
