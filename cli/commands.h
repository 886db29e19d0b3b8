/* commands: the table of kpath's subcommands.  Each entry names its module's
 * run function; `kpath --help` and dispatch both read this one table. */
#ifndef KPATH_COMMANDS_H
#define KPATH_COMMANDS_H

#include "cli.h"

/* X(name, run function) */
#define KPATH_COMMANDS(X)     \
    X(info, cmd_info)         \
    X(check, cmd_check)       \
    X(graph, cmd_graph)       \
    X(paths, cmd_paths)       \
    X(learn, cmd_learn)       \
    X(why, cmd_why)           \
    X(pattern, cmd_pattern)   \
    X(gen, cmd_gen)           \
    X(cover, cmd_cover)       \
    X(dup, cmd_dup)           \
    X(parse, cmd_parse)       \
    X(coverage, cmd_coverage) \
    X(reduce, cmd_reduce)     \
    X(bonsai, cmd_bonsai)     \
    X(shrink, cmd_shrink)     \
    X(convert, cmd_convert)   \
    X(run, cmd_run)           \
    X(explain, cmd_explain)   \
    X(target, cmd_target)     \
    X(check_oracle, cmd_check_oracle) \
    X(generalize, cmd_generalize)     \
    X(grammar_from, cmd_grammar_from)

#define DECLARE_COMMAND(name, fn) extern const struct cli_command fn##_command;
KPATH_COMMANDS(DECLARE_COMMAND)
#undef DECLARE_COMMAND

#endif
