/* command_table: the ':' commands as one table (command_table.c).
 *
 * Contract: COMMAND_TABLE is the one list of the explorer's commands:
 * name, function, arguments, completion and help.  commands.c expands it
 * into the table it runs and completes from; command_table.c into the help
 * the help overlay and --help list, so what lists the commands needs
 * neither commands.c nor anything it runs (drawing, lessons), and no list
 * of them is copied by hand.  The functions and completion kinds it names
 * are commands.c's: only commands.c expands those columns. */
#ifndef KPATH_UI_COMMAND_TABLE_H
#define KPATH_UI_COMMAND_TABLE_H

#include "base/strbuf.h"

/* X(name, function, arguments, completion, help) */
#define COMMAND_TABLE(X)                                                                           \
    X("k", cmd_k, "K", ARG_NONE, "set k, the length of the k-paths")                              \
    X("load", cmd_load, "FILE", ARG_FILE, "explore another grammar (load! drops unsaved work)")    \
    X("samples", cmd_samples, "FILE|DIR...", ARG_FILE, "parse samples and add them as inputs")     \
    X("gen", cmd_gen, "N [STRATEGY]", ARG_STRATEGY, "generate N inputs (kpath, random, coverage, prob)") \
    X("cover", cmd_cover, "", ARG_NONE, "k-path strategy until every k-path is covered")            \
    X("step", cmd_step, "[N]", ARG_NONE, "N generator steps (default 1)")                          \
    X("learn", cmd_learn, "", ARG_NONE, "learn the probabilities from the samples")               \
    X("invert", cmd_invert, "", ARG_NONE, "invert the probabilities (less of the same)")         \
    X("prob", cmd_prob, "RULE [N.]ALT VALUE", ARG_RULE, "set an alternative's probability (0.3 or 30%)") \
    X("probs", cmd_probs, "grammar", ARG_NONE, "back to the grammar's own probabilities")         \
    X("dup", cmd_dup, "RULE [ALT] [DEPTH]", ARG_RULE, "duplicate the rules an alternative uses")  \
    X("undup", cmd_undup, "", ARG_NONE, "undo the last :dup")                                     \
    X("pin", cmd_pin, "[PATH]", ARG_NODE, "pin a context (default: the selection)")               \
    X("pins", cmd_pins, "", ARG_NONE, "list the active pins, numbered")                             \
    X("unpin", cmd_unpin, "[N]", ARG_NONE, "remove pin N (:pins), or every pin")                                        \
    X("pattern", cmd_pattern, "[PATH]", ARG_NODE, "show a k-path's pattern")                       \
    X("why", cmd_why, "[PATH]", ARG_NODE, "explain why a k-path is uncovered")                     \
    X("export", cmd_export, "DIR", ARG_FILE, "write the marked (or selected) inputs; export! reuses DIR") \
    X("theme", cmd_theme, "NAME", ARG_THEME, "switch the colour theme")                           \
    X("colours", cmd_colours, "[N] [FILE]", ARG_NONE, "how the theme shows on N colours (8, 16, 256; default: this terminal's)") \
    X("seed", cmd_seed, "N", ARG_NONE, "seed of every random choice")                             \
    X("depth", cmd_depth, "D", ARG_NONE, "depth limit (reference nodes per root-to-leaf path)")   \
    X("repetitions", cmd_repetitions, "R", ARG_NONE, "repetitions of *, + and {n,}, at most")    \
    X("strategy", cmd_strategy, "NAME", ARG_STRATEGY, "kpath, random, coverage or prob")          \
    X("closeoff", cmd_closeoff, "NAME", ARG_CLOSEOFF, "greedy (the default), shortest or random") \
    X("filter", cmd_filter, "WHICH", ARG_FILTER, "k-paths shown: uncovered, covered or all")      \
    X("narrow", cmd_narrow, "[TEXT]", ARG_NONE, "k-paths shown: those containing TEXT (F types it)") \
    X("generalize", cmd_generalize, "SAMPLE... --", ARG_FILE, "... -- COMMAND [ARG...]: widen the grammar by asking COMMAND (W shows it)") \
    X("learned", cmd_learned, "[FILE]", ARG_FILE, "write the grammar :generalize learned to FILE and explore it") \
    X("run", cmd_run, "-- COMMAND [ARG...]", ARG_FILE, "run the inputs through COMMAND (kpath run's options go before --)") \
    X("shrink", cmd_shrink, "[--timeout S]", ARG_NONE, "shrink the input of the failed run selected in the runs view (also Z)") \
    X("coverage", cmd_coverage, "", ARG_NONE, "coverage for every k from 1 to k")                 \
    X("clear", cmd_clear, "", ARG_NONE, "remove the generated inputs")                            \
    X("save", cmd_save, "[FILE]", ARG_FILE, "save the workspace")                                 \
    X("open", cmd_open, "FILE", ARG_FILE, "open a saved workspace (open! drops unsaved work)")    \
    X("dump", cmd_dump, "FILE", ARG_FILE, "write the screen as text")                             \
    X("svg", cmd_svg, "FILE", ARG_FILE, "write the screen as an SVG picture")                     \
    X("compare", cmd_compare, "N [FILE]", ARG_FILE, "plot coverage against N random and N k-path inputs (FILE: .svg or .csv)") \
    X("graph", cmd_graph_file, "FILE", ARG_FILE, "write the graph as the tree shows it, as FILE.svg or FILE.dot") \
    X("resize", cmd_resize, "W H", ARG_NONE, "script mode: set the screen size")                 \
    X("help", cmd_help, "", ARG_NONE, "keys and commands")                                        \
    X("messages", cmd_messages, "", ARG_NONE, "every message and error of this session (also M)") \
    X("footer", cmd_footer, "", ARG_NONE, "show or hide the line of the focused pane's keys")    \
    X("lesson", cmd_lesson, "[NAME|FILE|off]", ARG_LESSON, "open a lesson (< and > step); no NAME lists them") \
    X("q", cmd_quit, "", ARG_NONE, "quit (q! without asking)")                                    \
    X("quit", cmd_quit, "", ARG_NONE, "quit")

/* The commands' help, one line each ("\x02:NAME ARGS\x03HELP", the markers
 * of struct overlay_ops), for the help overlay and --help. */
void commands_help(struct strbuf *out, int width);

#endif
