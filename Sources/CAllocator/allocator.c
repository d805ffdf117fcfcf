#include "CAllocator.h"
#include <stdlib.h>

#if defined(__GLIBC__)
#include <fcntl.h>
#include <malloc.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Set once, on the main thread, before any other thread exists (odds_tune_allocator). */
static bool huge_arenas;
static _Thread_local bool arena_advised;

/* Whether the system's transparent huge pages are on or left to madvise: not where an administrator
   chose "never" (which MADV_COLLAPSE would not respect), nor on a kernel without them. */
static bool huge_pages_allowed(void) {
    int fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    char text[128];
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return false;
    text[n] = 0;
    return strstr(text, "[never]") == NULL;
}

void odds_tune_allocator(bool arena_per_thread) {
    huge_arenas = arena_per_thread && huge_pages_allowed();
    /* With an arena for each thread (up to 8), each is made 60 MiB large at once (address space:
       pages are touched only when used), and the main one grows as much at a time. */
    mallopt(M_ARENA_MAX, arena_per_thread ? 8 : 1);
    mallopt(M_TOP_PAD, arena_per_thread ? 60 << 20 : 4 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
}

void odds_advise_arena(void) {
    if (huge_arenas) (void)odds_advise_arena_now();
}

bool odds_advise_arena_now(void) {
    if (arena_advised) return false;
    arena_advised = true;
    void *probe = malloc(64);
    if (probe == NULL) return false;
    /* The chunk's size word, just before it, has bit 2 set when the chunk is not in the main
       arena; every other arena is one or more heaps, each mapped alone and aligned to its maximum
       size, 64 MiB on 64-bit targets (glibc's malloc/arena.c, HEAP_MAX_SIZE). */
    size_t size_word = *(volatile size_t *)((uintptr_t)probe - sizeof(size_t));
    free(probe);
    if (!(size_word & 4) || sizeof(void *) != 8) return false;
    const size_t heap_size = (size_t)64 << 20, huge_page = (size_t)2 << 20;
    void *heap = (void *)((uintptr_t)probe & ~(uintptr_t)(heap_size - 1));
    /* A hint: on a kernel or a glibc unlike these it fails or applies to nothing, harmlessly. */
    if (madvise(heap, heap_size, MADV_HUGEPAGE) != 0) return false;
    /* The heap's first 2 MiB were touched (its header) before the advice: made one huge page now
       (MADV_COLLAPSE, Linux 6.1; refused by older kernels, which leaves small pages there). */
    (void)madvise(heap, huge_page, 25 /* MADV_COLLAPSE */);
    return true;
}

long long odds_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
}
#else
void odds_tune_allocator(bool arena_per_thread) { (void)arena_per_thread; }
void odds_advise_arena(void) {}
bool odds_advise_arena_now(void) { return false; }
long long odds_heap_in_use(void) { return -1; }
#endif
