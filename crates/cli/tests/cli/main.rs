//! The `frontier` binary's tests, one test binary for every command: each module runs the real
//! program through [`support`], the golden files in `tests/golden/` pin its exact output.

mod board;
mod cube;
mod golden;
mod golden_cases;
mod hostile;
mod river;
mod shared;
mod support;
mod tiles;
