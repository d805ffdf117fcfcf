#include "CAllocator.h"
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

void odds_tune_allocator(void) {
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_TOP_PAD, 4 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
}
#else
void odds_tune_allocator(void) {}
#endif
