#ifndef ODDS_CALLOCATOR_H
#define ODDS_CALLOCATOR_H

/// Sets glibc's allocator for this program (see `Allocator` in OddsCLI): an arena per thread (up to
/// 8), each made 60 MiB large at once, buffers up to 32 MiB kept in them. Does nothing on other C
/// libraries.
void odds_tune_allocator(void);

/// Bytes of heap in use (glibc's `mallinfo2`: allocated blocks and mapped ones), for benchmarks;
/// -1 on other C libraries.
long long odds_heap_in_use(void);

#endif
