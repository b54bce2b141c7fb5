//! The hostile-input tests in a process of their own: they measure each child's peak memory,
//! and a forked child starts counted with its parent's, so no other test may grow this process.
//! The tests are in `cli/hostile.rs` and run the binary through the one helper, `cli/support.rs`.

#[path = "cli/hostile.rs"]
mod hostile;
// The helper serves every test binary; this one uses part of it.
#[allow(dead_code)]
#[path = "cli/support.rs"]
mod support;
