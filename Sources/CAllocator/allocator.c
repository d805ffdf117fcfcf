#include "CAllocator.h"
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

void odds_tune_allocator(bool arena_per_thread) {
    /* With an arena for each thread (up to 8), each is made 60 MiB large at once (address space:
       pages are touched only when used), and the main one grows as much at a time. */
    mallopt(M_ARENA_MAX, arena_per_thread ? 8 : 1);
    mallopt(M_TOP_PAD, arena_per_thread ? 60 << 20 : 4 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
}

long long odds_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
}
#else
void odds_tune_allocator(bool arena_per_thread) { (void)arena_per_thread; }
long long odds_heap_in_use(void) { return -1; }
#endif
