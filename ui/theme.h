/* theme: colours and attributes of every element the TUI draws.
 *
 * A theme file has lines
 *     color ELEMENT FG BG [ATTRS]
 *     mono  ELEMENT ATTRS
 * where a colour is a name (default, black, red, green, yellow, blue,
 * magenta, cyan, white, and bright- forms of the eight), a number 0-255 (the
 * xterm palette), or #rrggbb; ATTRS is a comma-separated list of normal,
 * bold, dim, underline, reverse, italic, blink, standout.  `#` starts a
 * comment.  Colour lines are used when the terminal has colours and NO_COLOR
 * is not set; mono lines otherwise.  A bad line is reported (file:line) and
 * ignored; elements a file does not mention keep the built-in defaults (the
 * `default` theme).
 *
 * Colours are kept as written and downgraded when shown: #rrggbb to the
 * nearest of the 256 or 16 colours the terminal has, 16-255 to the nearest of
 * 8 or 16.  theme_rgb gives the colour as written, for the SVG screenshots. */
#ifndef KPATH_UI_THEME_H
#define KPATH_UI_THEME_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"

/* X(ID, name, fg, bg, attrs, mono attrs) — the built-in default (dark) theme. */
#define THEME_ELEMENTS(X)                                                        \
    X(EL_NORMAL, "normal", "default", "default", "", "")                         \
    X(EL_DIM, "dim", "bright-black", "default", "", "dim")                       \
    X(EL_TITLE, "title", "white", "236", "bold", "bold")                             \
    X(EL_TITLE_FOCUS, "title-focus", "black", "cyan", "bold", "reverse,bold")    \
    X(EL_BORDER, "border", "bright-black", "default", "", "")                    \
    X(EL_TABS, "tabs", "white", "236", "", "reverse")                            \
    X(EL_TAB_ACTIVE, "tab-active", "black", "cyan", "bold", "bold")              \
    X(EL_STATUS, "status", "white", "238", "", "reverse")                        \
    X(EL_MESSAGE, "message", "default", "default", "", "")                       \
    X(EL_ERROR, "error", "bright-red", "default", "bold", "bold")                \
    X(EL_COMMAND, "command", "default", "default", "", "")                       \
    X(EL_COVERED, "covered", "green", "default", "", "")                         \
    X(EL_UNCOVERED, "uncovered", "bright-red", "default", "bold", "bold")            \
    X(EL_PARTLY, "partly", "yellow", "default", "underline", "underline")                 \
    X(EL_SYNTHETIC, "synthetic", "bright-black", "default", "", "dim")           \
    X(EL_BACKEDGE, "backedge", "magenta", "default", "", "dim")                  \
    X(EL_HEADER, "header", "bright-white", "default", "bold", "bold")            \
    X(EL_BAR, "bar", "cyan", "default", "", "")                                  \
    X(EL_BAR_EMPTY, "bar-empty", "bright-black", "default", "", "dim")           \
    X(EL_PATTERN, "pattern", "cyan", "default", "", "")                          \
    X(EL_SEARCH, "search", "black", "yellow", "", "underline")                   \
    X(EL_MARKED, "marked", "bright-yellow", "default", "bold", "bold")           \
    X(EL_SAMPLE, "sample", "blue", "default", "", "")                            \
    X(EL_REACHED, "reached", "black", "green", "", "reverse")                    \
    X(EL_PENDING, "pending", "bright-white", "default", "", "")                  \
    X(EL_SLOT_OPEN, "slot-open", "yellow", "default", "", "underline")           \
    X(EL_SLOT_LAST, "slot-last", "black", "bright-yellow", "bold", "reverse")    \
    X(EL_HELP_KEY, "help-key", "bright-cyan", "default", "bold", "bold")         \
    X(EL_PROGRESS, "progress", "black", "bright-cyan", "", "reverse")

#define THEME_ENUM(id, name, fg, bg, attrs, mono) id,
enum theme_element { THEME_ELEMENTS(THEME_ENUM) NELEMENTS };
#undef THEME_ENUM

enum { COLOR_KIND_DEFAULT, COLOR_KIND_INDEX, COLOR_KIND_RGB };

struct theme_color {
    int kind;
    int index;          /* COLOR_KIND_INDEX: 0-255 */
    uint8_t r, g, b;    /* COLOR_KIND_RGB */
};

enum {
    ATTR_BOLD = 1, ATTR_DIM = 2, ATTR_UNDERLINE = 4, ATTR_REVERSE = 8,
    ATTR_ITALIC = 16, ATTR_BLINK = 32, ATTR_STANDOUT = 64,
};

struct theme_style {
    struct theme_color fg, bg;
    unsigned attrs, mono;
};

struct theme {
    char name[64];
    struct theme_style el[NELEMENTS];
};

extern const char *const theme_element_names[];

void theme_builtin(struct theme *t);
/* Read a theme over the built-in one.  `name` is a file path when it holds
 * a '/', else looked for as NAME.theme in $XDG_CONFIG_HOME/kpath/themes,
 * ~/.config/kpath/themes, the themes directory next to the program
 * (../themes from build/kpath), and KPATH_DATADIR/themes.  False (and the
 * built-in theme) when it cannot be found; bad lines are warnings. */
bool theme_load(struct theme *t, const char *name, const char *exe_dir, struct diag_list *diags);
/* Theme names found in the same places, for completion; a NULL-terminated
 * array, caller frees each and the array. */
char **theme_list(const char *exe_dir);
/* The colour as 24-bit RGB; `fallback` when it is the terminal's default. */
uint32_t theme_rgb(const struct theme_color *c, uint32_t fallback);
/* The colour for a terminal with `ncolors` colours (8, 16, 256): a palette
 * index, or -1 for the default colour. */
int theme_downgrade(const struct theme_color *c, int ncolors);

/* How an element shows on a terminal of `ncolors` colours (8, 16, 256):
 * palette indexes (-1: the terminal's default) and the attributes to use.
 * Never an unreadable pair: where the colours brought down would make the
 * text invisible (the same colour as its background, or black on the
 * default background, which is dark on most terminals), the foreground
 * becomes the default one (dim where it was meant to be quiet) or, on a
 * background of its own, black or white, whichever contrasts.  On 8
 * colours a bright foreground is its plain colour in bold (as 8-colour
 * terminals show bright text), and bright-black is the default colour dim. */
struct theme_shown {
    int fg, bg;
    unsigned attrs;
    bool adjusted; /* the colours were changed to stay readable */
};
struct theme_shown theme_show(const struct theme_style *s, int ncolors);
/* Whether a pair can be read: not the same colour twice, not black on the
 * default background. */
bool theme_pair_readable(int fg, int bg);

#endif
