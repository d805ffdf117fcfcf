#include "CAllocator.h"
#include <stdlib.h>
#include <stdint.h>

#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>

#define RESERVE ((size_t)256 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

void odds_tune_allocator(void) {
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_TOP_PAD, 4 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
}

void odds_reserve_huge_heap(void) {
    // Kept, not given back: the point is that the range stays advised.
    mallopt(M_TRIM_THRESHOLD, RESERVE + (8 << 20));
    // glibc maps any one request over 32 MiB on its own, so the heap is grown in pieces below that.
    enum { PIECES = 16 };
    void *pieces[PIECES];
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < PIECES; i++) {
        pieces[i] = malloc(RESERVE / PIECES);
        if (pieces[i]) {
            if ((uintptr_t)pieces[i] < lo) lo = (uintptr_t)pieces[i];
            if ((uintptr_t)pieces[i] + RESERVE / PIECES > hi) hi = (uintptr_t)pieces[i] + RESERVE / PIECES;
        }
    }
    lo = (lo + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    hi &= ~(HUGE_PAGE - 1);
    // Only a contiguous range (the main arena's, grown by brk): mapped pieces would be unmapped by free.
    if (hi > lo && hi - lo <= 2 * RESERVE) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    for (int i = PIECES - 1; i >= 0; i--) free(pieces[i]);
}

long long odds_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
}
#else
void odds_tune_allocator(void) {}
void odds_reserve_huge_heap(void) {}
long long odds_heap_in_use(void) { return -1; }
#endif
