//! Mapped files cut short underneath the process. A read of a mapped page past a file's new end
//! raises SIGBUS, which would kill the process with a bare "Bus error" (or none, under a job
//! scheduler); a read in a watched range instead ends it with a line naming the file and exit
//! code 2, as other damaged input does. Faults elsewhere go to the handler that was there before.

use crate::util::text::visible_lines;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Ranges watched at once: a run maps a few tables; past this many, a range goes unwatched.
const SLOTS: usize = 64;

/// A watched range and the message for a fault in it; `end` is 0 while the slot is unused, and
/// is written last, so that a handler that sees it sees the rest.
struct Slot {
    taken: AtomicBool,
    start: AtomicUsize,
    end: AtomicUsize,
    message: AtomicPtr<u8>,
    len: AtomicUsize,
}

static WATCHED: [Slot; SLOTS] = [const {
    Slot {
        taken: AtomicBool::new(false),
        start: AtomicUsize::new(0),
        end: AtomicUsize::new(0),
        message: AtomicPtr::new(std::ptr::null_mut()),
        len: AtomicUsize::new(0),
    }
}; SLOTS];

/// The action SIGBUS had before this module's, for faults outside the watched ranges (the
/// standard library's stack-overflow handler, or the default).
static PREVIOUS: OnceLock<libc::sigaction> = OnceLock::new();

/// A range being watched: dropped, it no longer is. It must be dropped before the range is
/// unmapped (its mapping's address range may then be given to something else).
pub struct Watch {
    slot: Option<usize>,
    /// Read by the handler through the slot's pointer.
    _message: Box<[u8]>,
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Some(i) = self.slot {
            let slot = &WATCHED[i];
            slot.end.store(0, Ordering::Release);
            slot.message.store(std::ptr::null_mut(), Ordering::Release);
            slot.taken.store(false, Ordering::Release);
        }
    }
}

/// Watches `range`, the mapped contents of `file`: a fault reading it ends the process with
/// `what` (why the file cannot be read, and what to do) after the file's name.
pub fn watch(range: &[u8], file: &Path, what: &str) -> Watch {
    let text = format!("Error: {}: {what}\n", file.display());
    let mut message = visible_lines(&text)
        .into_owned()
        .into_bytes()
        .into_boxed_slice();
    let slot = install().then(|| {
        let i = WATCHED.iter().position(|s| {
            s.taken
                .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        })?;
        let slot = &WATCHED[i];
        slot.message.store(message.as_mut_ptr(), Ordering::Release);
        slot.len.store(message.len(), Ordering::Release);
        slot.start.store(range.as_ptr() as usize, Ordering::Release);
        slot.end
            .store(range.as_ptr() as usize + range.len(), Ordering::Release);
        Some(i)
    });
    Watch {
        slot: slot.flatten(),
        _message: message,
    }
}

/// Installs the handler once; false if it could not be.
fn install() -> bool {
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    *INSTALLED.get_or_init(|| {
        // SAFETY: sigaction with a handler that only reads atomics, writes(2) and _exits.
        unsafe {
            // Kept before the handler is installed: it may run at once, for another fault.
            let mut previous: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGBUS, std::ptr::null(), &mut previous) != 0 {
                return false;
            }
            let _ = PREVIOUS.set(previous);
            let mut action: libc::sigaction = std::mem::zeroed();
            let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                on_sigbus;
            action.sa_sigaction = handler as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) == 0
        }
    })
}

extern "C" fn on_sigbus(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo; the rest is atomics, write(2) and _exit(2),
    // which may be called in a signal handler.
    unsafe {
        let at = (*info).si_addr() as usize;
        for slot in &WATCHED {
            let end = slot.end.load(Ordering::Acquire);
            if at < end && at >= slot.start.load(Ordering::Acquire) {
                let message = slot.message.load(Ordering::Acquire);
                if !message.is_null() {
                    let len = slot.len.load(Ordering::Acquire);
                    libc::write(2, message as *const libc::c_void, len);
                }
                libc::_exit(2);
            }
        }
        // Not ours: the fault recurs on return, under the action that was there before.
        if let Some(previous) = PREVIOUS.get() {
            libc::sigaction(libc::SIGBUS, previous, std::ptr::null_mut());
        }
    }
}
