#ifndef ODDS_CALLOCATOR_H
#define ODDS_CALLOCATOR_H

/// Sets glibc's allocator for this program (see `Allocator` in OddsCLI): one arena, grown 4 MiB at a
/// time, buffers up to 32 MiB kept in it. Does nothing on other C libraries.
void odds_tune_allocator(void);

/// Grows the heap by 256 MiB of address space (nothing is resident until written), advised for
/// 2 MiB pages and kept: a one-shot command that builds a large state takes 512 times fewer page
/// faults. Call after `odds_tune_allocator` (one arena, so every thread allocates from this heap).
void odds_reserve_huge_heap(void);

/// Bytes of heap in use (glibc's `mallinfo2`: allocated blocks and mapped ones), for benchmarks;
/// -1 on other C libraries.
long long odds_heap_in_use(void);

#endif
