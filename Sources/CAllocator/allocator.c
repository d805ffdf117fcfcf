#include "CAllocator.h"
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

void odds_tune_allocator(void) {
    /* An arena per thread (up to 8), each made 60 MiB large at once (address space: pages are
       touched only when used) and the main one grown as much at a time: a thread's arena would
       otherwise grow one page, one mprotect, at a time. */
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
long long odds_heap_in_use(void) { return -1; }
#endif
