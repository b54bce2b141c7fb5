//! Large read-only tables in memory backed by huge pages where the system offers them.
//!
//! A lookup in a table of tens of megabytes misses the TLB as well as the caches when the
//! table lies in 4 KiB pages: the optimal solver's 35 MB phase-1 table spans 8,600 of them.
//! In 2 MiB pages it spans 18. On Linux the table is mapped on its own, aligned to 2 MiB and
//! marked for transparent huge pages (`madvise`), and can give back its tail when it shrinks
//! ([`HugeTable::truncate`]); elsewhere, or if the kernel says no, it is ordinary memory.

use std::alloc::{self, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The size of a huge page on x86-64 and most arm64 kernels.
const HUGE_PAGE: usize = 2 << 20;

/// A boxed slice of plain values (integers, for which all bits zero is a value), aligned to
/// [`HUGE_PAGE`] and, on Linux, in huge pages when the kernel grants them.
pub(crate) struct HugeTable<T: Copy> {
    ptr: NonNull<T>,
    len: usize,
    /// The bytes it holds: a multiple of [`HUGE_PAGE`], at least one.
    capacity: usize,
}

// SAFETY: a `HugeTable` owns its memory like a `Box<[T]>` (written only through `&mut self`),
// so it is as thread-safe as `T`.
unsafe impl<T: Copy + Send> Send for HugeTable<T> {}
// SAFETY: as above: shared references only read.
unsafe impl<T: Copy + Sync> Sync for HugeTable<T> {}

impl<T: Copy> HugeTable<T> {
    /// The bytes that hold `len` values: whole huge pages, at least one.
    fn capacity_for(len: usize) -> usize {
        (len * std::mem::size_of::<T>())
            .max(1)
            .next_multiple_of(HUGE_PAGE)
    }

    /// `len` values, all bits zero (for the integers it holds, zeros).
    pub fn zeroed(len: usize) -> HugeTable<T> {
        let capacity = Self::capacity_for(len);
        HugeTable {
            ptr: Self::allocate(capacity).cast(),
            len,
            capacity,
        }
    }

    /// `capacity` zeroed bytes aligned to a huge page: a private anonymous mapping (zeros
    /// until written, each page faulted in as a huge page where the kernel can).
    #[cfg(target_os = "linux")]
    fn allocate(capacity: usize) -> NonNull<u8> {
        // One huge page more than needed, so that an aligned start lies within; the ends
        // beyond are unmapped.
        let span = capacity + HUGE_PAGE;
        // SAFETY: a fresh anonymous mapping, touching no memory of ours.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                span,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            alloc::handle_alloc_error(
                Layout::from_size_align(capacity, HUGE_PAGE).expect("a layout"),
            )
        }
        let start = (raw as usize).next_multiple_of(HUGE_PAGE);
        let (head, tail) = (
            start - raw as usize,
            raw as usize + span - (start + capacity),
        );
        // SAFETY: both ranges lie in the mapping just made and outside `start..start +
        // capacity`; the advice only changes how the kernel backs the pages, and a refusal
        // is harmless.
        unsafe {
            if head > 0 {
                libc::munmap(raw, head);
            }
            if tail > 0 {
                libc::munmap((start + capacity) as *mut libc::c_void, tail);
            }
            libc::madvise(start as *mut libc::c_void, capacity, libc::MADV_HUGEPAGE);
        }
        NonNull::new(start as *mut u8).expect("a mapping is not at address 0")
    }

    /// `capacity` zeroed bytes aligned to a huge page, from the global allocator.
    #[cfg(not(target_os = "linux"))]
    fn allocate(capacity: usize) -> NonNull<u8> {
        let layout = Layout::from_size_align(capacity, HUGE_PAGE).expect("a table fits");
        // SAFETY: the layout's size is not zero.
        let raw = unsafe { alloc::alloc_zeroed(layout) };
        NonNull::new(raw).unwrap_or_else(|| alloc::handle_alloc_error(layout))
    }

    /// Keeps the first `len` values (at most as many as it holds); on Linux the huge pages
    /// past them go back to the system, so that a table made in a larger form and packed
    /// smaller in place takes only its own size.
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
        #[cfg(target_os = "linux")]
        {
            let keep = Self::capacity_for(self.len);
            if keep < self.capacity {
                // SAFETY: the range is the mapping's own tail, past every value kept.
                unsafe {
                    libc::munmap(
                        self.ptr.as_ptr().cast::<u8>().add(keep).cast(),
                        self.capacity - keep,
                    );
                }
                self.capacity = keep;
            }
        }
    }
}

impl<T: Copy> AsRef<[T]> for HugeTable<T> {
    fn as_ref(&self) -> &[T] {
        self
    }
}

impl<T: Copy> AsMut<[T]> for HugeTable<T> {
    fn as_mut(&mut self) -> &mut [T] {
        self
    }
}

impl<T: Copy> DerefMut for HugeTable<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: `ptr` holds `len` initialised values, owned by `self`, which is borrowed
        // mutably.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> Deref for HugeTable<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised values for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> Drop for HugeTable<T> {
    fn drop(&mut self) {
        let raw = self.ptr.as_ptr().cast::<u8>();
        // SAFETY: the memory was allocated by `allocate` with this capacity (less the tail
        // that `truncate` gave back), and is not used again.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::munmap(raw.cast(), self.capacity);
        }
        #[cfg(not(target_os = "linux"))]
        unsafe {
            let layout = Layout::from_size_align(self.capacity, HUGE_PAGE).expect("a layout");
            alloc::dealloc(raw, layout);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_table_holds_a_copy_of_its_values_aligned_to_a_huge_page() {
        let values: Vec<u32> = (0..1_000_003).map(|i| i * 7).collect();
        let mut table = HugeTable::zeroed(values.len());
        table.copy_from_slice(&values);
        assert_eq!(&table[..], &values[..]);
        assert_eq!(table.as_ptr() as usize % HUGE_PAGE, 0);
        let empty = HugeTable::<u8>::zeroed(0);
        assert!(empty.is_empty());
        let mut zeros = HugeTable::<u16>::zeroed(3_000_000);
        assert!(zeros.iter().all(|&z| z == 0));
        zeros[2_999_999] = 7;
        assert_eq!(zeros.as_mut()[2_999_999], 7);
    }

    #[test]
    fn a_truncated_table_keeps_its_first_values() {
        let mut table = HugeTable::<u32>::zeroed(3 << 20);
        for (i, v) in table.iter_mut().enumerate() {
            *v = i as u32;
        }
        table.truncate(1_000_001);
        assert_eq!(table.len(), 1_000_001);
        assert!(table.iter().enumerate().all(|(i, &v)| v == i as u32));
        table.truncate(5_000_000);
        assert_eq!(table.len(), 1_000_001);
        table.truncate(0);
        assert!(table.is_empty());
    }
}
