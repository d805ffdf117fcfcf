#include "CFileMap.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

// In C, on a thread that never enters the Swift runtime or the allocator: it starts before the command
// line is parsed, while the process still sets itself up.
struct odds_scout {
    odds_file_map map;
    size_t mapped;
    size_t min_line, give_up;
    dev_t device;
    ino_t inode;
    off_t size;
    struct timespec modified;
    // Long lines found, in file order: written by the scout before `found` is raised past them.
    long long *starts;
    size_t *lengths;
    size_t capacity;
    atomic_size_t found;
    atomic_int done;
    atomic_int stop;
    // Pages the reader is done with, given back by the scout's thread (off the reader's path): below
    // `release_to` asked for, below `released` given back.
    pthread_mutex_t lock;
    pthread_cond_t asked;
    size_t release_to, released;
    pthread_t thread;
};

static size_t page_floor(size_t bytes) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return bytes - bytes % page;
}

// Where pages before `offset` are given back to: whole 2 MiB blocks of the file, or the whole mapping past its
// end. The page cache holds a file in folios of up to 2 MiB, and a fault maps one whole (a huge page where
// the mapping is aligned): given back in part, a block that the next line shares was mapped again whole at
// that line's first read (the tests saw a whole block come back in the mapping's Rss at once).
static size_t release_floor(const odds_scout *scout, long long offset) {
    if ((size_t)offset >= scout->mapped) return page_floor(scout->mapped);
    size_t block = (size_t)2 << 20;
    return (size_t)offset - (size_t)offset % block;
}

// Gives back, page by page, what the reader has asked for, until the scout is finished.
static void release_until_stopped(odds_scout *scout) {
    pthread_mutex_lock(&scout->lock);
    while (!atomic_load_explicit(&scout->stop, memory_order_relaxed)) {
        if (scout->release_to <= scout->released) {
            pthread_cond_wait(&scout->asked, &scout->lock);
            continue;
        }
        size_t from = scout->released, to = scout->release_to;
        scout->released = to;
        pthread_mutex_unlock(&scout->lock);
        madvise((unsigned char *)scout->map.base + from, to - from, MADV_DONTNEED);
        pthread_mutex_lock(&scout->lock);
    }
    pthread_mutex_unlock(&scout->lock);
}

static void *scout_run(void *argument) {
    odds_scout *scout = argument;
    const unsigned char *base = scout->map.bytes;
    size_t position = 0, line_start = 0, last_long_end = 0, n = 0;
    while (position < scout->mapped && !atomic_load_explicit(&scout->stop, memory_order_relaxed)) {
        const unsigned char *hit = memchr(base + position, '\n', scout->mapped - position);
        if (hit == NULL) break;
        size_t newline = (size_t)(hit - base);
        if (newline - line_start >= scout->min_line) {
            if (n == scout->capacity) break;
            scout->starts[n] = (long long)line_start;
            scout->lengths[n] = newline - line_start;
            n += 1;
            atomic_store_explicit(&scout->found, n, memory_order_release);
            last_long_end = newline + 1;
        } else if (newline + 1 - last_long_end > scout->give_up) {
            break;
        }
        line_start = newline + 1;
        position = newline + 1;
    }
    atomic_store_explicit(&scout->done, 1, memory_order_release);
    release_until_stopped(scout);
    return NULL;
}

odds_scout *odds_scout_start(const char *path, size_t limit, size_t min_line, size_t give_up) {
    if (min_line == 0 || limit == 0) return NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size <= 0) { close(fd); return NULL; }
    odds_scout *scout = calloc(1, sizeof *scout);
    if (scout == NULL) { close(fd); return NULL; }
    scout->mapped = (size_t)info.st_size < limit ? (size_t)info.st_size : limit;
    scout->min_line = min_line;
    scout->give_up = give_up;
    scout->device = info.st_dev;
    scout->inode = info.st_ino;
    scout->size = info.st_size;
    scout->modified = info.st_mtim;
    scout->capacity = scout->mapped / min_line + 1;
    scout->starts = malloc(scout->capacity * sizeof *scout->starts);
    scout->lengths = malloc(scout->capacity * sizeof *scout->lengths);
    int mapped = scout->starts != NULL && scout->lengths != NULL && odds_map_file(fd, 0, scout->mapped, &scout->map) == 0;
    close(fd);
    if (!mapped) {
        free(scout->starts); free(scout->lengths); free(scout);
        return NULL;
    }
    pthread_mutex_init(&scout->lock, NULL);
    pthread_cond_init(&scout->asked, NULL);
    if (pthread_create(&scout->thread, NULL, scout_run, scout) != 0) {
        pthread_mutex_destroy(&scout->lock);
        pthread_cond_destroy(&scout->asked);
        odds_unmap_file(&scout->map);
        free(scout->starts); free(scout->lengths); free(scout);
        return NULL;
    }
    return scout;
}

int odds_scout_matches(const odds_scout *scout, int fd) {
    struct stat info;
    if (scout == NULL || fstat(fd, &info) != 0) return 0;
    return info.st_dev == scout->device && info.st_ino == scout->inode && info.st_size == scout->size
        && info.st_mtim.tv_sec == scout->modified.tv_sec && info.st_mtim.tv_nsec == scout->modified.tv_nsec;
}

int odds_scout_line(const odds_scout *scout, long long offset, const unsigned char **bytes, size_t *length) {
    if (scout == NULL || offset < 0) return 0;
    size_t found = atomic_load_explicit(&scout->found, memory_order_acquire);
    // Lines are listed in file order: a binary search for the one starting at `offset`.
    size_t low = 0, high = found;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (scout->starts[middle] < offset) low = middle + 1; else high = middle;
    }
    if (low == found || scout->starts[low] != offset) return 0;
    *bytes = scout->map.bytes + offset;
    *length = scout->lengths[low];
    return 1;
}

void odds_scout_mapping(const odds_scout *scout, const void **base, size_t *size) {
    *base = scout == NULL ? NULL : scout->map.base;
    *size = scout == NULL ? 0 : scout->map.size;
}

size_t odds_scout_found(const odds_scout *scout) {
    return scout == NULL ? 0 : atomic_load_explicit(&scout->found, memory_order_acquire);
}

int odds_scout_done(const odds_scout *scout) {
    return scout == NULL ? 1 : atomic_load_explicit(&scout->done, memory_order_acquire);
}

void odds_scout_release(odds_scout *scout, long long offset) {
    if (scout == NULL || offset <= 0) return;
    size_t to = release_floor(scout, offset);
    pthread_mutex_lock(&scout->lock);
    if (to > scout->release_to) {
        scout->release_to = to;
        pthread_cond_signal(&scout->asked);
    }
    pthread_mutex_unlock(&scout->lock);
}

void odds_scout_finish(odds_scout *scout) {
    if (scout == NULL) return;
    pthread_mutex_lock(&scout->lock);
    atomic_store_explicit(&scout->stop, 1, memory_order_relaxed);
    pthread_cond_signal(&scout->asked);
    pthread_mutex_unlock(&scout->lock);
    pthread_join(scout->thread, NULL);
    pthread_mutex_destroy(&scout->lock);
    pthread_cond_destroy(&scout->asked);
    odds_unmap_file(&scout->map);
    free(scout->starts);
    free(scout->lengths);
    free(scout);
}
