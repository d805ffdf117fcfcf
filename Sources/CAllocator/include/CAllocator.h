#ifndef ODDS_CALLOCATOR_H
#define ODDS_CALLOCATOR_H

/// Sets glibc's allocator for this program (see `Allocator` in OddsCLI): one arena, grown 4 MiB at a
/// time, buffers up to 32 MiB kept in it. Does nothing on other C libraries.
void odds_tune_allocator(void);

#endif
