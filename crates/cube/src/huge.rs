//! Large read-only tables in memory backed by huge pages where the system offers them.
//!
//! A lookup in a table of tens of megabytes misses the TLB as well as the caches when the
//! table lies in 4 KiB pages: the optimal solver's 35 MB phase-1 table spans 8,600 of them.
//! In 2 MiB pages it spans 18. On Linux the table is aligned to 2 MiB and marked for
//! transparent huge pages (`madvise`) before it is filled; elsewhere, or if the kernel says
//! no, it is ordinary memory.

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
}

// SAFETY: a `HugeTable` owns its memory like a `Box<[T]>` (written only through `&mut self`),
// so it is as thread-safe as `T`.
unsafe impl<T: Copy + Send> Send for HugeTable<T> {}
// SAFETY: as above: shared references only read.
unsafe impl<T: Copy + Sync> Sync for HugeTable<T> {}

impl<T: Copy> HugeTable<T> {
    fn layout(len: usize) -> Layout {
        let size = (len * std::mem::size_of::<T>()).max(1);
        Layout::from_size_align(size.next_multiple_of(HUGE_PAGE), HUGE_PAGE)
            .expect("a table fits in the address space")
    }

    /// `len` values, all bits zero (for the integers it holds, zeros).
    pub fn zeroed(len: usize) -> HugeTable<T> {
        let layout = Self::layout(len);
        // SAFETY: the layout's size is not zero.
        let raw = unsafe { alloc::alloc(layout) };
        let Some(ptr) = NonNull::new(raw.cast::<T>()) else {
            alloc::handle_alloc_error(layout)
        };
        #[cfg(target_os = "linux")]
        // SAFETY: `raw` is the start of `layout.size()` bytes we own, page-aligned; the advice
        // only changes how the kernel backs them, and a refusal is harmless.
        unsafe {
            libc::madvise(raw.cast(), layout.size(), libc::MADV_HUGEPAGE);
        }
        // SAFETY: the allocation holds at least `len` values of `T` (2 MiB is a multiple of
        // any `T`'s alignment); zeroing it after the advice faults it in as huge pages.
        unsafe { std::ptr::write_bytes(ptr.as_ptr(), 0, len) };
        HugeTable { ptr, len }
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
        // SAFETY: allocated in `new` with this very layout.
        unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), Self::layout(self.len)) };
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
}
