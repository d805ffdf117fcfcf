#ifndef ODDS_CALLOCATOR_H
#define ODDS_CALLOCATOR_H

#include <stdbool.h>

/// Sets glibc's allocator for this program (see `Allocator` in OddsCLI): one arena, grown 4 MiB at a
/// time, buffers up to 32 MiB kept in it; with `arena_per_thread` (a replay, which reads a large frame
/// on two threads at once) an arena for each thread (up to 8), each made 60 MiB large at once, so that
/// the two never wait on one arena's lock. Does nothing on other C libraries.
void odds_tune_allocator(bool arena_per_thread);

/// Bytes of heap in use (glibc's `mallinfo2`: allocated blocks and mapped ones), for benchmarks;
/// -1 on other C libraries.
long long odds_heap_in_use(void);

#endif
