#include "CAllocator.h"
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

void odds_tune_allocator(void) {
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_TOP_PAD, 4 << 20);
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
