//! The `frontier` binary's tests, one test binary for every command: each module runs the real
//! program through [`support`], the golden files in `tests/golden/` pin its exact output.

mod across;
mod board;
mod cube;
mod golden;
mod golden_cases;
mod pictures;
mod river;
mod shared;
// The helper serves this binary and the hostile tests' (`tests/hostile.rs`); each uses part.
#[allow(dead_code)]
mod support;
mod tiles;
