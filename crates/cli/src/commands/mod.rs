//! One module per domain: its command-line arguments, and the glue from them to the domain crate
//! and the shared reporting.

pub mod board;
pub mod cube;
pub mod explore;
pub mod perm;
pub mod river;
pub mod tiles;
