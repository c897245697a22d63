//! Heuristic tables built once per (domain tables, heuristic) and shared read-only by every worker.
//!
//! A heuristic that needs a table (Manhattan's distances, linear conflict's line penalties, the
//! pattern-database heuristic over its databases) asks `shared` for it: the first job builds it, every later job of
//! any thread gets the same table. Keys are the identity of the domain's tables (one `Arc` per
//! size and goal in the whole process, see `Family::instance`) and the heuristic's name; the entry
//! keeps that `Arc` alive, so an address is never reused for other tables while it is a key.
//! Tables live as long as the process: a run asks for them once per job, and each thread
//! remembers its last answer, so that a job pays neither the lock nor a hash nor a reference count.
//! `store` keeps the large tables on disk; `fsm` builds the duplicate-pruning automata.

pub mod automata;
pub mod fsm;
pub mod store;

use std::any::Any;
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

type Table = &'static (dyn Any + Send + Sync);
type Key = (usize, &'static str);

struct Entry {
    /// Holds the domain's tables alive: their address is part of the key.
    _domain: Arc<dyn Any + Send + Sync>,
    table: Table,
}

fn built() -> &'static Mutex<HashMap<Key, Entry>> {
    static BUILT: OnceLock<Mutex<HashMap<Key, Entry>>> = OnceLock::new();
    BUILT.get_or_init(Default::default)
}

thread_local! {
    /// This thread's last lookup.
    static LAST: Cell<Option<(Key, Table)>> = const { Cell::new(None) };
}

/// The table of heuristic `name` for `domain`, built by `build` the first time it is asked for.
///
/// Building holds the registry's lock, so two workers never build the same table twice; the tables
/// here take milliseconds. (Pattern databases, which take minutes, are read or built by `store`
/// before a run starts; the heuristic built here only points into them.)
pub fn shared<D, T>(domain: &Arc<D>, name: &'static str, build: impl FnOnce(&D) -> T) -> &'static T
where
    D: Send + Sync + 'static,
    T: Send + Sync + 'static,
{
    let key = (Arc::as_ptr(domain) as *const () as usize, name);
    let table = match LAST.get() {
        Some((last, table)) if last == key => table,
        _ => {
            // A panic while building leaves nothing behind, so the lock's poison carries no meaning.
            let mut built = built().lock().unwrap_or_else(|p| p.into_inner());
            let entry = built.entry(key).or_insert_with(|| Entry {
                _domain: Arc::clone(domain) as Arc<dyn Any + Send + Sync>,
                table: Box::leak(Box::new(build(domain))),
            });
            LAST.set(Some((key, entry.table)));
            entry.table
        }
    };
    table
        .downcast_ref::<T>()
        .unwrap_or_else(|| panic!("heuristic table '{name}' was built with another type"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn a_table_is_built_once_per_domain_and_name() {
        static BUILDS: AtomicUsize = AtomicUsize::new(0);
        let build = |d: &u32| {
            BUILDS.fetch_add(1, Ordering::SeqCst);
            vec![*d; 3]
        };
        let (a, b) = (Arc::new(7u32), Arc::new(7u32));
        let first = shared(&a, "test-table", build);
        let again = shared(&a, "test-table", build);
        assert!(std::ptr::eq(first, again));
        assert_eq!(BUILDS.load(Ordering::SeqCst), 1);
        let other = shared(&b, "test-table", build);
        assert!(!std::ptr::eq(first, other));
        shared(&a, "test-table-2", build);
        assert_eq!(BUILDS.load(Ordering::SeqCst), 3);
    }
}
