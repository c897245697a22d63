//! What a run leaves on disk: runs.csv rows and the manifest (`record`), runs.csv as a run
//! writes it (`runs`), the summaries and the other report files (`summary`), iterations.csv
//! (`iterations`), and shard files (`shard`).

#[cfg(test)]
mod fixtures;
pub mod iterations;
pub mod record;
pub mod runs;
pub mod shard;
pub mod summary;
