#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "formats/grammar_load.h"
#include "base/number.h"
#include "base/samples.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

int cli_split_command(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0)
            return i;
    return argc;
}

/* --token NAME=DEF, each (borrowed from argv). */
static const char **token_defs;
static size_t ntoken_defs;

static void add_token_def(const char *def)
{
    token_defs = xrealloc(token_defs, (ntoken_defs + 1) * sizeof *token_defs);
    token_defs[ntoken_defs++] = def;
}

/* --any-file: grammar and sample files of any kind. */
static bool any_file;

bool cli_any_file(void)
{
    return any_file;
}

int cli_parse_positional(const struct cli_command *cmd, int argc, char **argv,
                         const char **positional, size_t *npositional,
                         int (*on_option)(const struct cli_command *cmd, int index,
                                          const char *value, void *ctx),
                         void *ctx)
{
    struct cli_parser p;
    cli_parser_init(&p, cmd, argc, argv);
    int status = CLI_CONTINUE;
    const char *value;
    for (int o; status == CLI_CONTINUE && (o = cli_next(&p, &value)) != CLI_END;) {
        if (o == CLI_ERROR)
            status = EXIT_USAGE;
        else if (o == CLI_HELP) {
            cli_print_help(cmd);
            status = EXIT_OK;
        } else if (o == CLI_POSITIONAL)
            positional[(*npositional)++] = value;
        else if (o == cli_option_index(cmd, "any-file"))
            any_file = true;
        else if (o == cli_option_index(cmd, "token"))
            add_token_def(value);
        else
            status = on_option(cmd, o, value, ctx);
    }
    return status;
}

void cli_parser_init(struct cli_parser *p, const struct cli_command *cmd, int argc, char **argv)
{
    p->cmd = cmd;
    p->argc = argc;
    p->argv = argv;
    p->i = 1;
    p->only_positional = false;
    p->short_rest = NULL;
}

int cli_option_index(const struct cli_command *cmd, const char *name)
{
    for (int i = 0; cmd->options[i].name; i++)
        if (strcmp(cmd->options[i].name, name) == 0)
            return i;
    return -1;
}

static int take_argument(struct cli_parser *p, int index, const char *inline_value,
                         const char *shown, const char **value)
{
    const struct cli_option *o = &p->cmd->options[index];
    if (!o->arg) {
        if (inline_value) {
            cli_usage_error(p->cmd, "option '%s' takes no argument", shown);
            return CLI_ERROR;
        }
        *value = NULL;
        return index;
    }
    if (inline_value) {
        *value = inline_value;
        return index;
    }
    if (p->i >= p->argc) {
        cli_usage_error(p->cmd, "option '%s' needs an argument (%s)", shown, o->arg);
        return CLI_ERROR;
    }
    *value = p->argv[p->i++];
    return index;
}

static int short_option(struct cli_parser *p, const char **value)
{
    char c = *p->short_rest++;
    char shown[3] = {'-', c, '\0'};
    if (c == 'h') {
        p->short_rest = NULL;
        return CLI_HELP;
    }
    for (int i = 0; p->cmd->options[i].name; i++) {
        if (p->cmd->options[i].short_name != c)
            continue;
        const char *rest = p->short_rest;
        if (p->cmd->options[i].arg) {
            p->short_rest = NULL;
            return take_argument(p, i, *rest ? rest : NULL, shown, value);
        }
        if (!*rest)
            p->short_rest = NULL;
        *value = NULL;
        return i;
    }
    p->short_rest = NULL;
    cli_usage_error(p->cmd, "unknown option '%s'", shown);
    return CLI_ERROR;
}

int cli_next(struct cli_parser *p, const char **value)
{
    if (p->short_rest)
        return short_option(p, value);
    if (p->i >= p->argc)
        return CLI_END;
    const char *arg = p->argv[p->i++];
    if (p->only_positional || arg[0] != '-' || arg[1] == '\0') {
        *value = arg;
        return CLI_POSITIONAL;
    }
    if (strcmp(arg, "--") == 0) {
        p->only_positional = true;
        return cli_next(p, value);
    }
    if (arg[1] != '-') {
        p->short_rest = arg + 1;
        return short_option(p, value);
    }
    const char *name = arg + 2;
    if (strcmp(name, "help") == 0)
        return CLI_HELP;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    for (int i = 0; p->cmd->options[i].name; i++) {
        if (strlen(p->cmd->options[i].name) == len &&
            strncmp(p->cmd->options[i].name, name, len) == 0) {
            char shown[128];
            snprintf(shown, sizeof shown, "--%.*s", (int)len, name);
            return take_argument(p, i, eq ? eq + 1 : NULL, shown, value);
        }
    }
    cli_usage_error(p->cmd, "unknown option '%.*s'", (int)(len + 2), arg);
    return CLI_ERROR;
}

/* The format --format named; one command runs per process, so the run's
 * loads (cli_load) read it here rather than through every command. */
static enum grammar_format grammar_format = GRAMMAR_FORMAT_AUTO;
/* The grammar file's size limit (0: the default): --max-input-size. */
static size_t grammar_max_size;

/* Parse --max-input-size VALUE into *out: CLI_CONTINUE, or EXIT_USAGE. */
static int size_option(const struct cli_command *cmd, const char *name, const char *value,
                       size_t *out)
{
    if (!samples_parse_size(value, out))
        return cli_usage_error(cmd, "--%s must be a number of bytes from 1, optionally with "
                                    "K, M or G, not '%s'", name, value);
    return CLI_CONTINUE;
}

int cli_format_option(const struct cli_command *cmd, const char *value)
{
    if (!grammar_format_parse(value, &grammar_format))
        return cli_usage_error(cmd, "unknown grammar format '%s' (expected ebnf, g4, "
                                    "fuzzingbook, tribble or fandango)", value);
    return CLI_CONTINUE;
}

int cli_parse_args(const struct cli_command *cmd, int argc, char **argv,
                   struct cli_common *common,
                   int (*on_option)(const struct cli_command *cmd, int index,
                                    const char *value, void *ctx),
                   void *ctx)
{
    int start_index = cli_option_index(cmd, "start");
    int json_index = cli_option_index(cmd, "json");
    int pin_index = cli_option_index(cmd, "pin");
    int format_index = cli_option_index(cmd, "format");
    int any_file_index = cli_option_index(cmd, "any-file");
    int token_index = cli_option_index(cmd, "token");
    /* Commands with samples handle --max-input-size through
     * cli_sample_option (in on_option); the others list it for the grammar. */
    int size_index = cli_option_index(cmd, "max-memory") < 0
                         ? cli_option_index(cmd, "max-input-size") : -1;
    struct cli_parser p;
    const char *value;
    cli_parser_init(&p, cmd, argc, argv);
    for (int o; (o = cli_next(&p, &value)) != CLI_END;) {
        if (o == CLI_ERROR)
            return EXIT_USAGE;
        if (o == CLI_HELP) {
            cli_print_help(cmd);
            return EXIT_OK;
        }
        if (o == CLI_POSITIONAL) {
            if (common->grammar && cmd->takes_files) {
                if (!common->files)
                    common->files = xcalloc((size_t)argc + 1, sizeof *common->files);
                common->files[common->nfiles++] = value;
                continue;
            }
            if (common->grammar)
                return cli_usage_error(cmd, "expected one GRAMMAR, got '%s' too", value);
            common->grammar = value;
        } else if (o == start_index) {
            common->start = value;
        } else if (o == json_index) {
            common->json = true;
        } else if (o == format_index) {
            if (cli_format_option(cmd, value) != CLI_CONTINUE)
                return EXIT_USAGE;
        } else if (o == size_index) {
            if (size_option(cmd, "max-input-size", value, &grammar_max_size) != CLI_CONTINUE)
                return EXIT_USAGE;
        } else if (o == any_file_index) {
            any_file = true;
        } else if (o == token_index) {
            add_token_def(value);
        } else if (o == pin_index) {
            if (!common->pins)
                common->pins = xcalloc((size_t)argc + 1, sizeof *common->pins);
            common->pins[common->npins++] = value;
        } else {
            int status = on_option ? on_option(cmd, o, value, ctx) : CLI_CONTINUE;
            if (status != CLI_CONTINUE)
                return status;
        }
    }
    if (!common->grammar)
        return cli_usage_error(cmd, "missing GRAMMAR");
    if (cmd->takes_files && !common->nfiles) {
        /* Name what the usage line says comes after GRAMMAR. */
        const char *after = strstr(cmd->usage, "GRAMMAR ");
        return cli_usage_error(cmd, "missing %s after GRAMMAR", after ? after + 8 : "arguments");
    }
    return CLI_CONTINUE;
}

int cli_run(const struct cli_command *cmd, int argc, char **argv)
{
    if (cmd->run)
        return cmd->run(cmd, argc, argv);
    void *args = cmd->args_size ? xcalloc(1, cmd->args_size) : NULL;
    if (cmd->args_defaults)
        memcpy(args, cmd->args_defaults, cmd->args_size);
    if (cmd->init_args)
        cmd->init_args(args);
    struct cli_context ctx = {0};
    if (cmd->needs & CLI_PROGRAM) {
        int split = cli_split_command(argc, argv);
        if (split < argc) {
            ctx.program = argv + split + 1;
            ctx.nprogram = (size_t)(argc - split - 1);
        }
        argc = split;
    }
    int status = cli_parse_args(cmd, argc, argv, &ctx.common, cmd->on_option, args);
    if (status == CLI_CONTINUE && cmd->check)
        status = cmd->check(cmd, &ctx, args);
    if (status == CLI_CONTINUE && (cmd->needs & CLI_STDIN_ONCE))
        status = cli_stdin_once(cmd, ctx.common.grammar, ctx.common.files, ctx.common.nfiles);
    if (status == CLI_CONTINUE && (cmd->needs & CLI_GRAMMAR) &&
        cli_load(ctx.common.grammar, ctx.common.start, NULL, &ctx.grammar,
                 (cmd->needs & CLI_GRAPH) == CLI_GRAPH ? &ctx.graph : NULL) != EXIT_OK)
        status = EXIT_USAGE;
    if (status == CLI_CONTINUE && (cmd->needs & CLI_PINS) == CLI_PINS &&
        !cli_add_pins(cmd, ctx.graph, &ctx.common, &ctx.pins))
        status = EXIT_USAGE;
    if (status == CLI_CONTINUE)
        status = cmd->main(cmd, &ctx, args);
    pin_set_free(&ctx.pins);
    if (ctx.graph)
        graph_free(ctx.graph);
    if (ctx.grammar)
        grammar_free(ctx.grammar);
    cli_common_free(&ctx.common);
    if (cmd->free_args)
        cmd->free_args(args);
    free(args);
    return status;
}

void cli_common_free(struct cli_common *common)
{
    free(common->files);
    free(common->pins);
    common->files = common->pins = NULL;
    common->nfiles = common->npins = 0;
}

bool cli_add_pins(const struct cli_command *cmd, const struct graph *g,
                  const struct cli_common *common, struct pin_set *pins)
{
    struct diag_list diags = DIAG_LIST_INIT;
    for (size_t i = 0; i < common->npins; i++)
        pin_set_add(pins, g, common->pins[i], &diags);
    bool ok = !diag_has_errors(&diags);
    cli_print_diags(cmd, &diags);
    diag_list_free(&diags);
    return ok;
}

/* One option of --help: its names, then its help text wrapped at 80
 * columns under column 28, so that --help reads on an 80x24 terminal. */
static void print_option_help(const char *left, const char *help)
{
    enum { INDENT = 27, WIDTH = 80 };
    int column = printf("  %-24s", left);
    const char *p = help;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t word = strcspn(p, " ");
        if (!word)
            break;
        if (column > INDENT && column + 1 + (int)word > WIDTH) {
            printf("\n%*s", INDENT, "");
            column = INDENT;
        } else {
            putchar(' ');
            column++;
        }
        column += printf("%.*s", (int)word, p);
        p += word;
    }
    putchar('\n');
}

void cli_print_help(const struct cli_command *cmd)
{
    printf("Usage: kpath %s %s\n\n%s\n", cmd->name, cmd->usage, cmd->description);
    printf("\nOptions:\n");
    for (int i = 0; cmd->options[i].name; i++) {
        const struct cli_option *o = &cmd->options[i];
        char left[64];
        int n = 0;
        if (o->short_name)
            n = snprintf(left, sizeof left, "-%c, ", o->short_name);
        else
            n = snprintf(left, sizeof left, "    ");
        snprintf(left + n, sizeof left - (size_t)n, "--%s%s%s", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
        print_option_help(left, o->help);
    }
    print_option_help("-h, --help", "show this help and exit");
}

int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "kpath %s: ", cmd->name);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'kpath %s --help' for more information.\n", cmd->name);
    return EXIT_USAGE;
}

int cli_stdin_once(const struct cli_command *cmd, const char *grammar,
                   const char *const *files, size_t nfiles)
{
    size_t nstdin = 0;
    for (size_t i = 0; i < nfiles; i++)
        nstdin += strcmp(files[i], "-") == 0;
    /* The grammar is read first and takes all of standard input: a sample
     * '-' would then read nothing and be parsed as the empty input. */
    if (nstdin && grammar && strcmp(grammar, "-") == 0)
        return cli_usage_error(cmd, "GRAMMAR and a sample are both '-' (standard input), "
                                    "which can be read only once: give one of them as a file");
    if (nstdin > 1)
        return cli_usage_error(cmd, "'-' (standard input) can be given only once");
    return CLI_CONTINUE;
}

bool cli_parse_u32(const struct cli_command *cmd, const char *what, const char *text,
                   uint32_t min, uint32_t max, uint32_t *out)
{
    uint32_t v;
    if (number_parse_u32(text, &v) && v >= min && v <= max) {
        *out = v;
        return true;
    }
    cli_usage_error(cmd, "%s must be a whole number from %u to %u, not '%s'", what, min, max, text);
    return false;
}

bool cli_parse_u64(const struct cli_command *cmd, const char *what, const char *text,
                   uint64_t *out)
{
    if (number_parse_u64(text, out))
        return true;
    cli_usage_error(cmd, "%s must be a whole number from 0 to %llu, not '%s'", what,
                    (unsigned long long)UINT64_MAX, text);
    return false;
}

void cli_print_grammar_diags(const struct diag_list *diags)
{
    struct strbuf line = STRBUF_INIT;
    for (size_t i = 0; i < diags->len; i++) {
        strbuf_reset(&line);
        diag_format(&diags->items[i], &line);
        fprintf(stderr, "%s\n", strbuf_str(&line));
    }
    strbuf_free(&line);
}

int cli_load(const char *path, const char *start, struct diag_list *collect,
             struct grammar **grammar, struct graph **graph)
{
    struct diag_list diags = DIAG_LIST_INIT;
    struct grammar_options opts = {.start = start, .max_size = grammar_max_size,
                                   .any_file = any_file, .tokens = token_defs,
                                   .ntokens = ntoken_defs};
    struct grammar *g = grammar_open(path, grammar_format, &opts, &diags);
    diag_sort(&diags);
    if (collect) {
        *collect = diags;
    } else {
        diag_list_cap(&diags, DIAG_ERRORS_SHOWN, path);
        cli_print_grammar_diags(&diags);
        diag_list_free(&diags);
    }
    if (!g)
        return EXIT_USAGE;
    *grammar = g;
    if (graph)
        *graph = graph_build(g);
    return EXIT_OK;
}

int cli_sample_option(const struct cli_command *cmd, const char *name, const char *value,
                      struct parse_options *po)
{
    bool input = strcmp(name, "max-input-size") == 0;
    if (!input && strcmp(name, "max-memory") != 0)
        return CLI_NOT_MINE;
    if (size_option(cmd, name, value, input ? &po->max_input_size : &po->max_memory) !=
        CLI_CONTINUE)
        return EXIT_USAGE;
    /* A limit above the grammar file's default raises it too (a big input
     * may come with a big grammar); a smaller one is meant for the samples. */
    if (input)
        grammar_max_size = po->max_input_size > GRAMMAR_DEFAULT_MAX_SIZE ? po->max_input_size : 0;
    return CLI_CONTINUE;
}

void cli_print_diags(const struct cli_command *cmd, const struct diag_list *diags)
{
    struct strbuf line = STRBUF_INIT;
    for (size_t i = 0; i < diags->len; i++) {
        strbuf_reset(&line);
        if (!diags->items[i].file)
            strbuf_addf(&line, "kpath %s: ", cmd->name);
        diag_format(&diags->items[i], &line);
        fprintf(stderr, "%s\n", strbuf_str(&line));
    }
    strbuf_free(&line);
}

void cli_print_input_failures(const struct cli_command *cmd, size_t failed, size_t attempted,
                              const char *noun, const char *what, bool skipped,
                              const struct diag_list *failures)
{
    fprintf(stderr, "kpath %s: %zu of %zu %s%s %s:\n", cmd->name, failed, attempted, noun,
            attempted == 1 ? "" : "s", skipped ? "left out (--skip-invalid)" : what);
    struct diag_list shown = DIAG_LIST_INIT;
    for (size_t i = 0; i < failures->len; i++) {
        const struct diag *d = &failures->items[i];
        diag_add(&shown, skipped && d->severity == DIAG_ERROR ? DIAG_WARNING : d->severity,
                 d->file, d->line, d->col, "%s", d->message);
    }
    cli_print_diags(cmd, &shown);
    diag_list_free(&shown);
}

bool cli_write(const char *data, size_t len)
{
    return fwrite(data, 1, len, stdout) == len;
}
