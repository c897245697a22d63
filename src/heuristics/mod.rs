//! Heuristic tables built once per (domain tables, heuristic) and shared read-only by every worker.
//!
//! A heuristic that needs a table (Manhattan's distances, linear conflict's line penalties, and
//! the pattern databases to come) asks `shared` for it: the first job builds it, every later job of
//! any thread gets the same `Arc`. Keys are the identity of the domain's tables (one `Arc` per
//! size and goal in the whole process, see `Family::instance`) and the heuristic's name; the entry
//! keeps that `Arc` alive, so an address is never reused for other tables while it is a key.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

type Table = Arc<dyn Any + Send + Sync>;

struct Entry {
    /// Holds the domain's tables alive: their address is part of the key.
    _domain: Arc<dyn Any + Send + Sync>,
    table: Table,
}

fn built() -> &'static Mutex<HashMap<(usize, &'static str), Entry>> {
    static BUILT: OnceLock<Mutex<HashMap<(usize, &'static str), Entry>>> = OnceLock::new();
    BUILT.get_or_init(Default::default)
}

/// The table of heuristic `name` for `domain`, built by `build` the first time it is asked for.
///
/// Building holds the registry's lock, so two workers never build the same table twice; the tables
/// here take milliseconds. (Pattern databases, which take minutes, will be built before a run
/// starts.)
pub fn shared<D, T>(domain: &Arc<D>, name: &'static str, build: impl FnOnce(&D) -> T) -> Arc<T>
where
    D: Send + Sync + 'static,
    T: Send + Sync + 'static,
{
    let key = (Arc::as_ptr(domain) as *const () as usize, name);
    // A panic while building leaves nothing behind, so the lock's poison carries no meaning.
    let mut built = built().lock().unwrap_or_else(|p| p.into_inner());
    let entry = built.entry(key).or_insert_with(|| Entry {
        _domain: Arc::clone(domain) as Arc<dyn Any + Send + Sync>,
        table: Arc::new(build(domain)),
    });
    Arc::clone(&entry.table)
        .downcast::<T>()
        .unwrap_or_else(|_| panic!("heuristic table '{name}' was built with another type"))
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
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(BUILDS.load(Ordering::SeqCst), 1);
        let other = shared(&b, "test-table", build);
        assert!(!Arc::ptr_eq(&first, &other));
        shared(&a, "test-table-2", build);
        assert_eq!(BUILDS.load(Ordering::SeqCst), 3);
    }
}
