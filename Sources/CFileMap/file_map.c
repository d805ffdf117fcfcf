#include "CFileMap.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// Mappings guarded against SIGBUS: a few at a time (one per recording being read).
#define SLOTS 16
static _Atomic uintptr_t slot_start[SLOTS];
static _Atomic uintptr_t slot_end[SLOTS];
static atomic_long cut_short;
static struct sigaction previous;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static uintptr_t page_size = 4096;

// A page of a guarded mapping past its file's end: map zeros over the rest of the mapping and go on, so that
// the reader sees a frame that does not parse (counted as such) instead of the process dying.
static void on_sigbus(int sig, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int i = 0; i < SLOTS; i++) {
        uintptr_t start = atomic_load(&slot_start[i]), end = atomic_load(&slot_end[i]);
        if (start != 0 && address >= start && address < end) {
            uintptr_t page = address & ~(page_size - 1);
            if (mmap((void *)page, end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
                atomic_fetch_add(&cut_short, 1);
                return;
            }
        }
    }
    // Not ours: as if we had never been here.
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction) { previous.sa_sigaction(sig, info, context); return; }
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
        return;
    }
    signal(SIGBUS, SIG_DFL);
    raise(SIGBUS);
}

static void install(void) {
    page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous);
}

int odds_map_file(int fd, long long offset, size_t length, odds_file_map *map) {
    pthread_once(&once, install);
    long long aligned = offset - offset % (long long)page_size;
    size_t size = length + (size_t)(offset - aligned);
    if (size == 0) size = 1;
    void *base = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, (off_t)aligned);
    if (base == MAP_FAILED) return -1;
    madvise(base, size, MADV_SEQUENTIAL);
    map->base = base;
    map->size = size;
    map->bytes = (const unsigned char *)base + (offset - aligned);
    for (int i = 0; i < SLOTS; i++) {
        uintptr_t expected = 0;
        if (atomic_compare_exchange_strong(&slot_start[i], &expected, (uintptr_t)1)) {
            atomic_store(&slot_end[i], (uintptr_t)base + size);
            atomic_store(&slot_start[i], (uintptr_t)base);
            return 0;
        }
    }
    // Every slot in use: not guarded, so not mapped; the caller reads instead.
    munmap(base, size);
    errno = EMFILE;
    return -1;
}

void odds_unmap_file(odds_file_map *map) {
    if (map->base == NULL) return;
    for (int i = 0; i < SLOTS; i++) {
        if (atomic_load(&slot_start[i]) == (uintptr_t)map->base) {
            atomic_store(&slot_end[i], 0);
            atomic_store(&slot_start[i], 0);
            break;
        }
    }
    munmap(map->base, map->size);
    map->base = NULL;
    map->bytes = NULL;
    map->size = 0;
}

long odds_file_map_cut_short(void) { return atomic_load(&cut_short); }
