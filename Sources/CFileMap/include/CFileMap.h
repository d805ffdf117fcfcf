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

/// Finds where a file's long lines end, on a thread of its own, ahead of the reader that will want them:
/// a replay's command line is parsed (on one core) while the scout maps the recording and
/// finds its frames' ends. Lines of at least `min_line` bytes are listed; the scout stops at the end of
/// the first `limit` bytes, or once it has gone `give_up` bytes past the last long line's end (a
/// recording of short lines is read as before). Only a regular file is scouted.
typedef struct odds_scout odds_scout;

/// Starts a scout of the file at `path`; NULL when it is not a regular file, is empty, cannot be
/// mapped, or no thread can be started. Never blocks on the file (a FIFO is opened without waiting).
odds_scout *odds_scout_start(const char *path, size_t limit, size_t min_line, size_t give_up);

/// Whether `fd` is the file the scout maps, as it was (device, inode, size and modification time).
int odds_scout_matches(const odds_scout *scout, int fd);

/// The line that starts at `offset` of the file, if the scout has found its end: 1 with `*bytes`
/// pointing at the line's first byte in the scout's mapping and `*length` its length without the
/// newline; 0 when the scout has not found (or will not find) a long line there.
int odds_scout_line(const odds_scout *scout, long long offset, const unsigned char **bytes, size_t *length);

/// The reader is done with the file before `offset`: the scout's thread gives those pages of its
/// mapping back (`MADV_DONTNEED`), in whole 2 MiB blocks of the file (all of it past its end), so that a
/// replay holds about one frame of the file, not all it has read.
void odds_scout_release(odds_scout *scout, long long offset);

/// Where the scout's mapping lies (for tests: its pages in `/proc/self/smaps`).
void odds_scout_mapping(const odds_scout *scout, const void **base, size_t *size);

/// Lines found so far, and whether the scout is done looking (for tests).
size_t odds_scout_found(const odds_scout *scout);
int odds_scout_done(const odds_scout *scout);

/// Waits for the scout's thread, unmaps the file and frees the scout (no line it gave may be used after).
void odds_scout_finish(odds_scout *scout);

#endif
