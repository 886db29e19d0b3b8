/* cmd_convert: `kpath convert` — write a grammar in another format. */
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "formats/grammar_export.h"
#include "formats/grammar_write.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static int convert(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

struct convert_args {
    enum grammar_format to;
    const char *output;
};

static const struct convert_args defaults = {GRAMMAR_FORMAT_EBNF, NULL};

static const struct cli_option options[] = {
    {"to", 0, "FORMAT", "write ebnf (the default), g4, fuzzingbook, tribble or fandango"},
    {"output", 'o', "OUT", "write to OUT (atomically) instead of stdout"},
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    CLI_GRAMMAR_SIZE_OPTION,
    {0},
};

const struct cli_command cmd_convert_command = {
    "convert", "[options] GRAMMAR", "write a grammar in another format",
    "Load GRAMMAR (any format kpath reads: .ebnf, ANTLR 4 .g4, fuzzingbook .json,\n"
    "TRIBBLE .tribble, Fandango .fan) and write it as --to FORMAT: ebnf (kpath's\n"
    "own), g4 (ANTLR 4), fuzzingbook (JSON), tribble (TRIBBLE's text format) or\n"
    "fandango (.fan).  Loading what was written gives the same graph, except\n"
    "where the target format cannot say something, which a warning names: ANTLR\n"
    "has no weights and no counted repetition, fuzzingbook no classes (they\n"
    "become helper rules listing their characters), TRIBBLE no {1} and a start\n"
    "rule only where no other rule names it, Fandango no weights and the start\n"
    "symbol <start> (else run it with --start-symbol).  Rule names change only\n"
    "where the format needs it.  Without -o the grammar goes to stdout; -o OUT\n"
    "writes a temporary file beside OUT and renames it, so OUT is never\n"
    "half-written.",
    options, NULL, false,
    .needs = CLI_GRAMMAR, .args_size = sizeof defaults, .args_defaults = &defaults,
    .on_option = on_option, .main = convert,
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct convert_args *a = ctx;
    const char *name = cmd->options[index].name;
    if (strcmp(name, "to") == 0) {
        if (!grammar_format_parse(value, &a->to))
            return cli_usage_error(cmd, "unknown grammar format '%s' for --to (expected ebnf, "
                                        "g4, fuzzingbook, tribble or fandango)", value);
    } else if (strcmp(name, "output") == 0) {
        if (!*value)
            return cli_usage_error(cmd, "-o needs a file name");
        a->output = value;
    }
    return CLI_CONTINUE;
}

static int convert(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    const struct convert_args a = *(const struct convert_args *)args;
    const struct grammar *g = ctx->grammar;
    int status;
    struct diag_list diags = DIAG_LIST_INIT;
    struct strbuf out = STRBUF_INIT;
    /* A grammar the format cannot hold is invalid input (2); a file or
     * stdout that cannot be written is another failure (1), as in dup. */
    status = grammar_export(g, a.to, &out, &diags) ? EXIT_OK : EXIT_USAGE;
    if (status == EXIT_OK && a.output)
        status = write_file_atomic(a.output, out.data ? out.data : "", out.len, &diags)
                     ? EXIT_OK : EXIT_FAILURE_OTHER;
    else if (status == EXIT_OK && !cli_write(out.data ? out.data : "", out.len))
        status = EXIT_FAILURE_OTHER;
    cli_print_diags(cmd, &diags);
    diag_list_free(&diags);
    strbuf_free(&out);
    return status;
}
