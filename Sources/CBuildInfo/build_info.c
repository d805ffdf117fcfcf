#include "CBuildInfo.h"

// Set by the Makefile: -Xcc -DODDS_COMMIT='"abc123"' and so on.
#ifndef ODDS_COMMIT
#define ODDS_COMMIT ""
#endif
#ifndef ODDS_BUILD_DATE
#define ODDS_BUILD_DATE ""
#endif
#ifndef ODDS_SWIFT_VERSION
#define ODDS_SWIFT_VERSION ""
#endif

const char *odds_build_commit(void) { return ODDS_COMMIT; }
const char *odds_build_date(void) { return ODDS_BUILD_DATE; }
const char *odds_build_swift(void) { return ODDS_SWIFT_VERSION; }
