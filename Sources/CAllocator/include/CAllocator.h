#ifndef ODDS_CALLOCATOR_H
#define ODDS_CALLOCATOR_H

/// Sets glibc's allocator for this program (see `Allocator` in OddsCLI): one arena, grown 4 MiB at a
/// time, buffers up to 32 MiB kept in it. Does nothing on other C libraries.
void odds_tune_allocator(void);

/// The same for a replay, which reads a large frame on two threads at once: an arena for each thread
/// (up to 8), each made 60 MiB large at once, so that the two never wait on one arena's lock. Does
/// nothing on other C libraries.
void odds_tune_allocator_for_replay(void);

/// Bytes of heap in use (glibc's `mallinfo2`: allocated blocks and mapped ones), for benchmarks;
/// -1 on other C libraries.
long long odds_heap_in_use(void);

#endif
