#ifndef ODDS_CALLOCATOR_H
#define ODDS_CALLOCATOR_H

/// Sets glibc's allocator for this program (see `Allocator` in OddsCLI): one arena, grown 4 MiB at a
/// time, buffers up to 32 MiB kept in it. Does nothing on other C libraries.
void odds_tune_allocator(void);

/// Bytes of heap in use (glibc's `mallinfo2`: allocated blocks and mapped ones), for benchmarks;
/// -1 on other C libraries.
long long odds_heap_in_use(void);

#endif
