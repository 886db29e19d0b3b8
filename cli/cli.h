/* cli: what the command-line front end's commands share: option parsing with
 * help generated from the same table, grammar loading that prints diagnostics,
 * and the exit statuses (0 success, 2 bad usage or invalid input, 1 any other
 * failure).  cli/ and ui/ are the only parts of kpath that print to the
 * terminal: the library in src/ reports through diag lists. */
#ifndef KPATH_CLI_H
#define KPATH_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "graph/graph.h"
#include "parse/parse.h"
#include "graph/pin.h"

enum { EXIT_OK = 0, EXIT_FAILURE_OTHER = 1, EXIT_USAGE = 2 };

struct cli_option {
    const char *name;   /* long name without "--" */
    char short_name;    /* 0 when none */
    const char *arg;    /* the argument's name in help, NULL for a flag */
    const char *help;
};

struct cli_context;

/* What a command needs before its main part runs, in `needs`.  cli_run does
 * it, in this order, so that every command reports the same mistakes the
 * same way: set aside what follows the first "--" as a program to run
 * (CLI_PROGRAM), parse the arguments (cli_parse_args), the command's own
 * usage checks (`check`), refuse '-' given twice (CLI_STDIN_ONCE,
 * cli_stdin_once), load GRAMMAR printing its diagnostics (CLI_GRAMMAR,
 * cli_load; CLI_GRAPH builds its graph too), read the --pin values
 * (CLI_PINS, cli_add_pins).  The first step that fails ends the command
 * with its exit status. */
enum {
    CLI_GRAMMAR = 1 << 0,
    CLI_GRAPH = 1 << 1 | CLI_GRAMMAR,
    CLI_STDIN_ONCE = 1 << 2,
    CLI_PINS = 1 << 3 | CLI_GRAPH,
    CLI_PROGRAM = 1 << 4,
};

struct cli_command {
    const char *name;
    const char *usage;       /* after "kpath NAME " */
    const char *summary;     /* one line, for `kpath --help` */
    const char *description; /* paragraphs for `kpath NAME --help` */
    const struct cli_option *options; /* ends with {0} */
    /* A command that parses its arguments itself (it takes no GRAMMAR of
     * the usual kind, or a program after "--"): all of it.  NULL for one
     * whose prologue cli_run does (`main` below). */
    int (*run)(const struct cli_command *cmd, int argc, char **argv);
    /* Takes one or more FILE|DIR arguments after GRAMMAR (cli_common.files). */
    bool takes_files;
    /* The prologue's steps (CLI_GRAMMAR, ...); 0: the arguments only. */
    unsigned needs;
    /* The command's own options go into an args struct of args_size bytes:
     * a copy of args_defaults (NULL: zeros), given to init_args, then each
     * option through on_option (NULL: the command has none of its own);
     * `check` (may be NULL) sees them once all are read.  Both return
     * CLI_CONTINUE or the exit status to end with. */
    size_t args_size;
    const void *args_defaults;
    void (*init_args)(void *args); /* may be NULL: defaults a constant cannot give */
    void (*free_args)(void *args); /* may be NULL: frees what on_option allocated */
    int (*on_option)(const struct cli_command *cmd, int index, const char *value, void *args);
    int (*check)(const struct cli_command *cmd, const struct cli_context *ctx, void *args);
    /* The command itself, once the prologue went well: its exit status. */
    int (*main)(const struct cli_command *cmd, const struct cli_context *ctx, void *args);
};

/* Parser state: walk argv[1..] of a subcommand. */
struct cli_parser {
    const struct cli_command *cmd;
    int argc;
    char **argv;
    int i;
    bool only_positional;   /* after "--" */
    const char *short_rest; /* remaining short flags of a bundle like -0k3 */
};

enum { CLI_END = -1, CLI_POSITIONAL = -2, CLI_ERROR = -3, CLI_HELP = -4 };

void cli_parser_init(struct cli_parser *p, const struct cli_command *cmd, int argc, char **argv);
/* The index of the next option in cmd->options (its argument in *value), or
 * CLI_POSITIONAL (*value = the argument), CLI_HELP for --help/-h, CLI_END, or
 * CLI_ERROR after printing what is wrong. */
int cli_next(struct cli_parser *p, const char **value);
/* Index of the option called `name` in cmd->options. */
int cli_option_index(const struct cli_command *cmd, const char *name);
/* The argc of what comes before the first "--" of argv (argc when there is
 * none): commands that run a program take it after "--". */
int cli_split_command(int argc, char **argv);
/* Parse argv[0..argc) for a command without a GRAMMAR argument of the usual
 * kind (run, check-oracle, generalize, grammar-from): every positional
 * argument into positional[(*npositional)++] (room for argc), every option
 * through on_option (its index in cmd->options).  CLI_CONTINUE when the
 * command should run, EXIT_OK after --help, else the exit status of a usage
 * error. */
int cli_parse_positional(const struct cli_command *cmd, int argc, char **argv,
                         const char **positional, size_t *npositional,
                         int (*on_option)(const struct cli_command *cmd, int index,
                                          const char *value, void *ctx),
                         void *ctx);

/* The --format option of every grammar command (listed after --start). */
#define CLI_FORMAT_OPTION                                                              \
    {"format", 0, "FORMAT", "read GRAMMAR as ebnf, g4, fuzzingbook, tribble or "       \
                            "fandango (default: by its extension)"}

/* --token NAME=DEFINITION, repeatable: an ANTLR token rule the user
 * defines or replaces (struct grammar_options.tokens); cli_parse_args
 * takes it. */
#define CLI_TOKEN_OPTION                                                               \
    {"token", 0, "NAME=DEF", "ANTLR grammars: define token NAME (one the grammar's "    \
                             "actions emit), or replace its rule, by DEF in ANTLR's "  \
                             "lexer syntax; empty DEF: a token without text"}

/* The grammar file's size limit, for commands that read no samples (those
 * take --max-input-size from CLI_SAMPLE_OPTIONS, and a value above 16M
 * raises the grammar file's limit too).  cli_parse_args takes
 * --max-input-size as the grammar file's limit in a command that lists no
 * --max-memory (CLI_SAMPLE_OPTIONS lists both); cli_load applies it. */
#define CLI_GRAMMAR_SIZE_OPTION                                                        \
    {"max-input-size", 0, "N", "refuse a grammar file larger than N bytes; K, M, G "   \
                               "suffixes (default 16M); GRAMMAR - reads standard input"}, \
    CLI_ANY_FILE_OPTION

/* --any-file: read grammar and sample files that are not regular files (a
 * pipe, /dev/stdin, a device), still no more than their size limit; without
 * it they are refused (samples_kind_allowed).  cli_parse_args and
 * cli_parse_positional handle it for every command that lists it; cli_load
 * and cli_any_file() hand it on. */
#define CLI_ANY_FILE_OPTION                                                            \
    {"any-file", 0, NULL, "also read files that are not regular files (pipes, "       \
                          "devices), still up to the size limit"}
/* Whether --any-file was given in this run. */
bool cli_any_file(void);

/* Handle --format VALUE for a command that parses its own arguments (as
 * cli_parse_args does for the others): CLI_CONTINUE, or EXIT_USAGE after a
 * message. */
int cli_format_option(const struct cli_command *cmd, const char *value);

/* What every grammar command takes: one GRAMMAR, --start NAME, --json, and
 * for commands that take files, the arguments after GRAMMAR. */
struct cli_common {
    const char *grammar;
    const char *start;
    bool json;
    const char **files; /* owned array (free it), pointing into argv */
    size_t nfiles;
    const char **pins;  /* --pin PATH values (for commands that list "pin") */
    size_t npins;
};

/* What cli_run's prologue gives a command's main (see cli_command.needs). */
struct cli_context {
    struct cli_common common;
    struct grammar *grammar; /* CLI_GRAMMAR */
    struct graph *graph;     /* CLI_GRAPH */
    struct pin_set pins;     /* CLI_PINS: the --pin values */
    char **program;          /* CLI_PROGRAM: what follows "--" (in argv), or NULL */
    size_t nprogram;
};

/* Run a command: its `run`, or the prologue then its `main`, and free what
 * the prologue made.  The command's exit status. */
int cli_run(const struct cli_command *cmd, int argc, char **argv);

/* Free what cli_parse_args allocated in `common`. */
void cli_common_free(struct cli_common *common);
/* Add every --pin to `pins` (see pin.h); false, after printing why, when one
 * is not a valid pin of the graph. */
bool cli_add_pins(const struct cli_command *cmd, const struct graph *g,
                  const struct cli_common *common, struct pin_set *pins);

enum { CLI_CONTINUE = -1, CLI_NOT_MINE = -5 };

/* The options of every command that parses samples, for its option table. */
#define CLI_SAMPLE_OPTIONS                                                             \
    {"max-input-size", 0, "N", "refuse samples larger than N bytes (above 16M, also "  \
                               "the grammar file's limit); K, M, G suffixes "           \
                               "(default 16M)"},                                        \
    {"max-memory", 0, "N", "stop parsing a sample that needs more than N bytes of "    \
                           "memory; K, M, G suffixes (default 4G)"},                    \
    CLI_ANY_FILE_OPTION

/* Handle one of CLI_SAMPLE_OPTIONS into po (--max-input-size above the
 * default also raises the limit of the grammar file cli_load reads):
 * CLI_CONTINUE, or EXIT_USAGE after a message; CLI_NOT_MINE for any other
 * option. */
int cli_sample_option(const struct cli_command *cmd, const char *name, const char *value,
                      struct parse_options *po);
/* Parse a grammar command's arguments: the common ones into `common` (--start
 * and --json when cmd->options lists them), every other option through
 * `on_option` (which returns CLI_CONTINUE or an exit status).  Returns
 * CLI_CONTINUE when the command should run, else the exit status to end with
 * (after --help, EXIT_OK; after a usage error, EXIT_USAGE). */
int cli_parse_args(const struct cli_command *cmd, int argc, char **argv,
                   struct cli_common *common,
                   int (*on_option)(const struct cli_command *cmd, int index,
                                    const char *value, void *ctx),
                   void *ctx);

/* Standard input can be read only once: refuse '-' given twice among
 * `grammar` (NULL for a command without one) and the sample arguments
 * files[0..nfiles) (GRAMMAR - with a sample -, or - twice among the samples),
 * after a message.  CLI_CONTINUE, or EXIT_USAGE.  Only for commands whose
 * sample arguments take '-' as standard input. */
int cli_stdin_once(const struct cli_command *cmd, const char *grammar,
                   const char *const *files, size_t nfiles);

void cli_print_help(const struct cli_command *cmd);
/* Print "kpath CMD: message" and a hint to --help on stderr; returns EXIT_USAGE. */
int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Parse an unsigned decimal in [min, max] for option `what` (a usage error
 * otherwise); the u64 form takes any 64-bit value. */
bool cli_parse_u32(const struct cli_command *cmd, const char *what, const char *text,
                   uint32_t min, uint32_t max, uint32_t *out);
bool cli_parse_u64(const struct cli_command *cmd, const char *what, const char *text,
                   uint64_t *out);

/* Load a grammar (through grammar_open, in the format --format gave to
 * cli_parse_args in this run, else by the file's extension) and build its
 * graph (when `graph` is not NULL).  Diagnostics, warnings too, are printed
 * to stderr (up to DIAG_ERRORS_SHOWN errors), or handed to `collect`
 * when it is not NULL.  Returns EXIT_OK,
 * or EXIT_USAGE when the grammar is invalid. */
int cli_load(const char *path, const char *start, struct diag_list *collect,
             struct grammar **grammar, struct graph **graph);
/* Print a grammar's diagnostics to stderr, one per line. */
void cli_print_grammar_diags(const struct diag_list *diags);

/* Print diagnostics to stderr, one per line; those without a file get the
 * command's name in front ("kpath why: error: ..."). */
void cli_print_diags(const struct cli_command *cmd, const struct diag_list *diags);

/* -j N, for the commands that parse many samples (coverage, learn, reduce): their
 * files parsed by N threads (ordered_pool.h), the output as with -j 1. */
#define CLI_PARSE_JOBS_OPTION                                                              \
    {"jobs", 'j', "N", "parse N files at once (default 1; each parse has its own "       \
                       "--max-memory)"}
/* Its value: a usage error unless 1 .. 1024. */
#define CLI_PARSE_JOBS_MAX 1024

/* --skip-invalid, for the commands that measure many inputs (coverage,
 * learn, reduce): an input that cannot be read or parsed is left out with a
 * warning instead of being an error (exit status 2; for reduce, a refusal). */
#define CLI_SKIP_INVALID_OPTION                                                        \
    {"skip-invalid", 0, NULL, "leave out inputs that cannot be read or parsed, with a " \
                              "warning each, instead of failing"}

/* The inputs a command could not read or parse, as coverage, learn and
 * reduce all report them: one line "kpath CMD: F of A NOUNs WHAT:", then
 * every input's diagnostic (FILE:LINE:COL: error: ...), all of them, so the
 * user can decide; with skipped (--skip-invalid) WHAT is "left out
 * (--skip-invalid)" and each is a warning.  noun is singular ("sample"). */
void cli_print_input_failures(const struct cli_command *cmd, size_t failed, size_t attempted,
                              const char *noun, const char *what, bool skipped,
                              const struct diag_list *failures);

/* Write the whole buffer to stdout; false on a write error. */
bool cli_write(const char *data, size_t len);

#endif
