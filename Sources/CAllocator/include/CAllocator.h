#ifndef ODDS_CALLOCATOR_H
#define ODDS_CALLOCATOR_H

#include <stdbool.h>

/// Sets glibc's allocator for this program (see `Allocator` in OddsCLI): one arena, grown 4 MiB at a
/// time, buffers up to 32 MiB kept in it; with `arena_per_thread` (a replay, which reads a large frame
/// on two threads at once) an arena for each thread (up to 8), each made 60 MiB large at once, so that
/// the two never wait on one arena's lock, and each asks for huge pages (`odds_advise_arena`; not where
/// the system's transparent huge pages are "never"). Does nothing on other C libraries.
void odds_tune_allocator(bool arena_per_thread);

/// `odds_advise_arena_now` when `odds_tune_allocator` chose an arena per thread; else nothing. Cheap
/// after a thread's first call: called where a thread starts work that allocates in bulk.
void odds_advise_arena(void);

/// Asks the kernel (`madvise`) for transparent huge pages for the calling thread's arena, once per
/// thread: a replay of a large state faults its memory in 2 MiB at a time rather than 4 KiB (BoltOdds'
/// 2,000 games: 8,700 page faults -> 2,200). True when it asked now; false on the main arena (not a
/// heap of its own), on a thread that asked before, and where glibc or the kernel has no such thing.
bool odds_advise_arena_now(void);

/// Bytes of heap in use (glibc's `mallinfo2`: allocated blocks and mapped ones), for benchmarks;
/// -1 on other C libraries.
long long odds_heap_in_use(void);

#endif
