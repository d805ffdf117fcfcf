#ifndef ODDS_CFILEMAP_H
#define ODDS_CFILEMAP_H

#include <stddef.h>

/// A read-only view of part of a file, mapped rather than read: `bytes` is the byte at the offset asked for,
/// `base` and `size` the whole mapping (page aligned) for `odds_unmap_file`.
typedef struct {
    const unsigned char *bytes;
    void *base;
    size_t size;
} odds_file_map;

/// Maps `length` bytes of `fd` from `offset` (both within the file's current size). Returns 0, or -1 with
/// errno set. The mapping is guarded: should the file be cut short while it is mapped, the pages past its
/// new end read as zeros instead of raising SIGBUS, and `odds_file_map_cut_short` says so.
int odds_map_file(int fd, long long offset, size_t length, odds_file_map *map);

/// Unmaps and stops guarding a mapping from `odds_map_file`.
void odds_unmap_file(odds_file_map *map);

/// How many times a guarded mapping's pages were found gone (its file cut short) since the process started.
long odds_file_map_cut_short(void);

#endif
