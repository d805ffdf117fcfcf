#include "CAllocator.h"
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

void odds_tune_allocator(void) {
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_TOP_PAD, 4 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
}

void odds_tune_allocator_for_replay(void) {
    /* An arena for each thread (up to 8), each made 60 MiB large at once (address space: pages are
       touched only when used), and the main one grown as much at a time. */
    mallopt(M_ARENA_MAX, 8);
    mallopt(M_TOP_PAD, 60 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
}

long long odds_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
}
#else
void odds_tune_allocator(void) {}
void odds_tune_allocator_for_replay(void) {}
long long odds_heap_in_use(void) { return -1; }
#endif
