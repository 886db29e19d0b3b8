/* keys: key codes, key names, and the key table.
 *
 * A key is an int: a Unicode code point for a character (control keys are
 * 1..31 and 127), or one of the K_* values above the Unicode range for keys
 * that have no character.  Both front ends produce these: the terminal
 * (curses' KEY_* codes translated) and script mode (names like <Tab>,
 * <C-d>, <Up>, read from the script).
 *
 * KEY_TABLE is the one list of what every key does.  The dispatcher binds
 * keys from it and the help overlay is printed from it, so they cannot
 * disagree; `kpath --list-keys` prints it for the test that checks the help
 * against it. */
#ifndef KPATH_UI_KEYS_H
#define KPATH_UI_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"

enum {
    K_TAB = 9,
    K_ENTER = 13,
    K_ESC = 27,
    K_BACKSPACE = 127,
    K_SPECIAL = 0x110000,
    K_UP, K_DOWN, K_LEFT, K_RIGHT, K_HOME, K_END, K_PGUP, K_PGDN,
    K_BTAB, K_DELETE, K_INSERT, K_F1,
    K_RESIZE,  /* the terminal changed size */
    K_MOUSE,   /* see ui.mouse */
};

/* Contexts: where a binding applies.  A focused pane's own context is looked
 * up first, then CTX_LIST (every pane), then CTX_GLOBAL. */
#define KEY_CONTEXTS(X)                  \
    X(CTX_GLOBAL, "Everywhere")          \
    X(CTX_LIST, "In every pane")         \
    X(CTX_GRAPH, "1 Grammar graph")      \
    X(CTX_KPATHS, "2 k-paths")           \
    X(CTX_PROBS, "3 Probabilities")      \
    X(CTX_STEPPER, "4 Stepper")          \
    X(CTX_INPUTS, "5 Inputs")            \
    X(CTX_DETAIL, "6 Detail")            \
    X(CTX_COMPARE, "The :compare plot")

#define CONTEXT_ENUM(id, title) id,
enum key_context { KEY_CONTEXTS(CONTEXT_ENUM) NCONTEXTS };
#undef CONTEXT_ENUM

/* X(action, context, keys, footer, help): keys are separated by spaces,
 * each a character or a <Name>; `footer` is the short word the footer line
 * shows for the key ("" keeps it out of the footer).
 *
 * One key map: a key means the same kind of thing in every pane.  Moving is
 * the same everywhere (j k g G, Space pages); Enter opens what is selected;
 * C covers and P pins the selection wherever there is one (a k-path, or a
 * node in the graph); a key that only one pane uses means nothing elsewhere
 * (it says so), and a pane never takes a key another pane uses for
 * something else.  Changing a value needs a key that says so (+, -, =). */
#define KEY_TABLE(X)                                                                               \
    X(ACT_HELP, CTX_GLOBAL, "? <F1>", "", "show this help (Esc or ? closes it, / searches)")   \
    X(ACT_QUIT, CTX_GLOBAL, "q", "", "quit (asks first about unsaved or unexported work)")    \
    X(ACT_COMMAND, CTX_GLOBAL, ":", "", "command line: :help lists the commands, Tab completes")  \
    X(ACT_SEARCH, CTX_GLOBAL, "/", "search", "search the focused list (k-paths by default)")      \
    X(ACT_SEARCH_NEXT, CTX_GLOBAL, "n", "", "next match of the last search")                      \
    X(ACT_SEARCH_PREV, CTX_GLOBAL, "N", "", "previous match of the last search")                  \
    X(ACT_NEXT_PANE, CTX_GLOBAL, "<Tab>", "", "focus the next pane (every pane, shown or not)")   \
    X(ACT_PREV_PANE, CTX_GLOBAL, "<S-Tab>", "", "focus the previous pane")                        \
    X(ACT_PANE1, CTX_GLOBAL, "1", "", "grammar graph")                                            \
    X(ACT_PANE2, CTX_GLOBAL, "2", "", "k-paths")                                                  \
    X(ACT_PANE3, CTX_GLOBAL, "3", "", "probabilities")                                            \
    X(ACT_PANE4, CTX_GLOBAL, "4", "", "generation stepper")                                       \
    X(ACT_PANE5, CTX_GLOBAL, "5", "", "inputs")                                                   \
    X(ACT_PANE6, CTX_GLOBAL, "6", "", "detail")                                                   \
    X(ACT_ZOOM, CTX_GLOBAL, "z", "", "zoom the focused pane to the whole screen, and back")       \
    X(ACT_K_MORE, CTX_GLOBAL, "]", "", "k + 1")                                                   \
    X(ACT_K_LESS, CTX_GLOBAL, "[", "", "k - 1")                                                   \
    X(ACT_STEP, CTX_GLOBAL, "s", "step", "generator: one step (fill one slot); shows the stepper") \
    X(ACT_FINISH_TREE, CTX_GLOBAL, "S", "", "generator: finish the current tree")                 \
    X(ACT_RUN, CTX_GLOBAL, "r", "run", "generator: run to full coverage (any key stops)")        \
    X(ACT_RESET, CTX_GLOBAL, "R", "", "generator: reset (drops the inputs of this run)")          \
    X(ACT_STEP_BACK, CTX_GLOBAL, "<BS>", "", "generator: one step back (undoes the last step of s or S)") \
    X(ACT_COVER, CTX_GLOBAL, "C", "cover", "generate a smallest input that covers the selected k-path") \
    X(ACT_PIN, CTX_GLOBAL, "P", "pin", "pin the selected k-path (or graph node) as a context")    \
    X(ACT_EXPORT, CTX_GLOBAL, "e", "", "export the marked inputs (or the selected one)")          \
    X(ACT_SAMPLES, CTX_GLOBAL, "Y", "", "add samples: type the files or directories (:samples)")  \
    X(ACT_DUP, CTX_GLOBAL, "D", "", "duplicate the selected node's rule: type the alternative (:dup)") \
    X(ACT_SAVE, CTX_GLOBAL, "<C-s>", "", "save the workspace (:save; a new one asks for a file)") \
    X(ACT_OPEN, CTX_GLOBAL, "O", "", "open a saved workspace: type its file (:open)")              \
    X(ACT_MESSAGES, CTX_GLOBAL, "M", "", "the message log: every message and error in full")      \
    X(ACT_GENERALIZE_VIEW, CTX_GLOBAL, "W", "", "the generalization (:generalize): learned grammar, query log") \
    X(ACT_LESSON_NEXT, CTX_GLOBAL, ">", "", "lesson: the next step (:lesson opens one)")           \
    X(ACT_LESSON_PREV, CTX_GLOBAL, "<", "", "lesson: the previous step")                        \
    X(ACT_CANCEL, CTX_GLOBAL, "<Esc>", "", "cancel: stop a run, close help, clear the message")   \
    X(ACT_REDRAW, CTX_GLOBAL, "<C-l>", "", "redraw the screen")                                   \
    X(ACT_INTERRUPT, CTX_GLOBAL, "<C-c>", "", "stop a run; otherwise quit like q (twice: at once)") \
    X(ACT_DOWN, CTX_LIST, "j <Down>", "move", "next row")                                         \
    X(ACT_UP, CTX_LIST, "k <Up>", "", "previous row")                                             \
    X(ACT_HALF_DOWN, CTX_LIST, "<C-d>", "", "half a page down")                                   \
    X(ACT_HALF_UP, CTX_LIST, "<C-u>", "", "half a page up")                                       \
    X(ACT_PAGE_DOWN, CTX_LIST, "<PgDn> <C-f> <Space>", "", "page down")                           \
    X(ACT_PAGE_UP, CTX_LIST, "<PgUp> <C-b>", "", "page up")                                       \
    X(ACT_TOP, CTX_LIST, "g <Home>", "", "first row")                                             \
    X(ACT_BOTTOM, CTX_LIST, "G <End>", "", "last row")                                            \
    X(ACT_GRAPH_OPEN, CTX_GRAPH, "<Enter>", "open", "expand or collapse; on a back edge: go to the node") \
    X(ACT_GRAPH_EXPAND, CTX_GRAPH, "l <Right>", "", "expand")                                     \
    X(ACT_GRAPH_COLLAPSE, CTX_GRAPH, "h <Left>", "", "collapse, or go to the parent")             \
    X(ACT_GRAPH_EXPAND_ALL, CTX_GRAPH, "E", "", "expand everything below the selected node")      \
    X(ACT_GRAPH_COLLAPSE_ALL, CTX_GRAPH, "X", "", "collapse everything")                          \
    X(ACT_GRAPH_VIEW, CTX_GRAPH, "t", "text", "switch between the tree and the grammar text")     \
    X(ACT_GRAPH_PICTURE, CTX_GRAPH, "V", "picture", "switch between the tree and its picture (the paper's Figure 1)") \
    X(ACT_GRAPH_PATHS, CTX_GRAPH, "o", "k-paths", "k-paths pane: the k-paths starting here")      \
    X(ACT_FILTER, CTX_KPATHS, "f", "filter", "filter: uncovered, covered, all")                   \
    X(ACT_FILTER_UNCOVERED, CTX_KPATHS, "u", "", "show the uncovered k-paths")                    \
    X(ACT_FILTER_COVERED, CTX_KPATHS, "c", "", "show the covered k-paths")                        \
    X(ACT_FILTER_ALL, CTX_KPATHS, "a", "", "show all k-paths")                                    \
    X(ACT_NARROW, CTX_KPATHS, "F", "narrow", "narrow the list as you type (:narrow TEXT)")         \
    X(ACT_PATTERNS, CTX_KPATHS, "p", "patterns", "show or hide each k-path's pattern")            \
    X(ACT_SKIP_PATHS, CTX_KPATHS, "_", "", "show or hide the k-paths through _skip (ANTLR imports)") \
    X(ACT_KPATH_OPEN, CTX_KPATHS, "<Enter>", "detail", "focus the detail pane")                   \
    X(ACT_PROB_MORE, CTX_PROBS, "+", "raise", "raise the selected alternative by 5 points")       \
    X(ACT_PROB_LESS, CTX_PROBS, "-", "lower", "lower the selected alternative by 5 points")       \
    X(ACT_PROB_TYPE, CTX_PROBS, "= <Enter>", "type", "type the selected alternative's probability") \
    X(ACT_PROB_LEARN, CTX_PROBS, "L", "learn", "toggle: learned from the samples / the grammar's") \
    X(ACT_PROB_INVERT, CTX_PROBS, "I", "invert", "toggle inverted probabilities")                 \
    X(ACT_PROB_STRATEGY, CTX_PROBS, "U", "use", "use them: switch the strategy to prob")          \
    X(ACT_MARK, CTX_INPUTS, "m", "mark", "mark or unmark the selected input for export")          \
    X(ACT_MARK_ALL, CTX_INPUTS, "A", "all", "mark every input")                                   \
    X(ACT_MARK_INVERT, CTX_INPUTS, "i", "", "invert the marks")                                   \
    X(ACT_MARK_REDUCED, CTX_INPUTS, "x", "", "mark only the inputs that add coverage (kpath reduce, k=1..k)") \
    X(ACT_SHRINK, CTX_INPUTS, "Z", "shrink", "runs: shrink the failed run's input, keeping its outcome (:shrink)") \
    X(ACT_DELETE_INPUT, CTX_INPUTS, "d <Delete>", "delete", "remove the selected input")          \
    X(ACT_INPUTS_PLOT, CTX_INPUTS, "v", "plot", "switch between the list and the growth plot (runs: table or plot)") \
    X(ACT_INPUTS_RUNS, CTX_INPUTS, "b", "", "switch between the list and the runs of :run") \
    X(ACT_INPUTS_FEATURES, CTX_INPUTS, "w", "", "switch between the list and the behaviour features (learned rules)") \
    X(ACT_FEATURE_OPEN, CTX_INPUTS, "<Enter>", "", "open the input (detail pane), or select the rule's k-path") \
    X(ACT_TARGET, CTX_INPUTS, "T", "", "features: generate and run inputs for the selected rule or feature") \
    X(ACT_PREVIEW_DOWN, CTX_INPUTS, "J", "", "scroll the derivation tree down")                   \
    X(ACT_PREVIEW_UP, CTX_INPUTS, "K", "", "scroll the derivation tree up")                     \
    X(ACT_COMPARE_AXIS, CTX_COMPARE, "B", "axis", "switch the x axis: bytes written or inputs")

#define ACTION_ENUM(id, ctx, keys, footer, help) id,
enum action { ACT_NONE, KEY_TABLE(ACTION_ENUM) NACTIONS };
#undef ACTION_ENUM

struct key_binding {
    enum action action;
    enum key_context context;
    const char *keys;
    const char *footer; /* a short word for the footer line, or "" */
    const char *help;
};

extern const struct key_binding key_table[];
extern const size_t key_table_len;
extern const char *const key_context_titles[];

/* The key table's binding of action a (NULL: none). */
const struct key_binding *keys_binding(enum action a);
/* The action bound to `key` in `context` (then CTX_LIST when list is true,
 * then CTX_GLOBAL), or ACT_NONE. */
enum action keys_lookup(int key, enum key_context context, bool list);
/* Parse one key name ("q", "<Tab>", "<C-d>", "<S-Tab>", "<Space>") into a
 * key; false when it is not a key name. */
bool keys_parse(const char *name, size_t len, int *key);
/* Append a key's name as the table writes it. */
void keys_name(int key, struct strbuf *out);
/* Check the table once at start: every key name parses.  Returns the first
 * bad name or NULL. */
const char *keys_check_table(void);
/* Print the table, one binding per line: CONTEXT<TAB>KEYS<TAB>HELP. */
void keys_list(struct strbuf *out);

#endif
