#ifndef ODDS_CNCURSESW_SHIM_H
#define ODDS_CNCURSESW_SHIM_H
/* Wide-character curses: these must come before the header. */
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <stdio.h>
#include <ncursesw/curses.h>

/* Macros and globals Swift cannot import or use directly. */
static inline attr_t odds_a_bold(void) { return A_BOLD; }
static inline attr_t odds_a_dim(void) { return A_DIM; }
static inline attr_t odds_a_reverse(void) { return A_REVERSE; }
static inline attr_t odds_a_underline(void) { return A_UNDERLINE; }
static inline attr_t odds_color_pair(short n) { return COLOR_PAIR(n); }
static inline WINDOW *odds_stdscr(void) { return stdscr; }
static inline int odds_lines(void) { return LINES; }
static inline int odds_cols(void) { return COLS; }
static inline int odds_key_code_yes(void) { return KEY_CODE_YES; }
/* C's stdin/stdout are mutable globals to Swift 6; read them here (only the terminal owner uses them). */
static inline FILE *odds_stdin(void) { return stdin; }
static inline FILE *odds_stdout(void) { return stdout; }
#endif
