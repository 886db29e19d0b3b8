/* cmd_pattern: `kpath pattern` — one k-path as a human-readable pattern. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "base/json.h"
#include "graph/pattern.h"
#include "base/xalloc.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static int pattern(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

struct pattern_args {
    bool ids, quoted, unmarked, skip_paths;
};

static const struct cli_option options[] = {
    {"ids", 0, NULL, "the path is node ids (0 10) instead of names"},
    {"quoted", 0, NULL, "keep literals in double quotes (when they look like parentheses)"},
    {"unmarked", 0, NULL, "without the brackets around the path's own nodes"},
    {"skip-paths", 0, NULL, "keep an ANTLR import's _skip references off the path "
                            "(left out by default)"},
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    CLI_GRAMMAR_SIZE_OPTION,
    {"json", 0, NULL, "print JSON instead of text"},
    {0},
};

const struct cli_command cmd_pattern_command = {
    "pattern", "[options] GRAMMAR PATH...", "show a k-path as a pattern of inputs",
    "Show what kind of input contains a k-path.  PATH is the path's nodes as\n"
    "`kpath paths` prints them, as separate arguments or in one string (arrows\n"
    "between them may stay):\n"
    "  kpath pattern grammars/expr.ebnf 'AddExpr_0 \"+\"_10'\n"
    "  [AddExpr [+] MultExpr]\n"
    "or, with --ids, their ids: kpath pattern --ids grammars/expr.ebnf 0 10.\n"
    "The pattern starts from the alternative of the rule that holds the first\n"
    "node (for the root, the start rule's right-hand side); each next node\n"
    "replaces the reference before it by the alternative of its rule that holds\n"
    "it, narrowing every group on the way to the branch that holds it, and every\n"
    "quantifier on the way to at least one repetition (x? as x, x* as x+); a\n"
    "repetition narrowed on the way stands among the others as written\n"
    "(DecDigit* 4 DecDigit*).  A last node that is a reference stays as its\n"
    "rule's name; everything else stays as written.  Each of the path's nodes\n"
    "is in brackets around the text it stands for (--unmarked: without).  The\n"
    "_skip an ANTLR import puts after every token is left out where the path\n"
    "does not go through it (--skip-paths keeps it).  Literals are shown\n"
    "without quotes unless --quoted, except the empty string and literals with\n"
    "a space in them, which would be invisible or read as several items\n"
    "without: \"\" and \" + \".",
    options, NULL, true,
    .needs = CLI_GRAPH, .args_size = sizeof(struct pattern_args), .on_option = on_option,
    .main = pattern,
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    (void)value;
    struct pattern_args *a = ctx;
    if (strcmp(cmd->options[index].name, "ids") == 0)
        a->ids = true;
    else if (strcmp(cmd->options[index].name, "unmarked") == 0)
        a->unmarked = true;
    else if (strcmp(cmd->options[index].name, "skip-paths") == 0)
        a->skip_paths = true;
    else
        a->quoted = true;
    return CLI_CONTINUE;
}

static bool all_digits(const char *s)
{
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

static int render(const struct cli_command *cmd, const struct graph *g,
                  const struct pattern_args *a, const struct cli_common *c)
{
    /* The arguments after GRAMMAR are one path, however they were split. */
    struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
    for (size_t i = 0; i < c->nfiles; i++) {
        if (a->ids && !all_digits(c->files[i])) {
            fprintf(stderr, "kpath %s: '%s' is not a node id (with --ids, write ids like 0 10)\n",
                    cmd->name, c->files[i]);
            strbuf_free(&text);
            return EXIT_USAGE;
        }
        strbuf_addstr(&text, i ? " " : "");
        strbuf_addstr(&text, c->files[i]);
    }
    struct diag_list diags = DIAG_LIST_INIT;
    uint32_t k = 0;
    uint32_t *path = graph_parse_path(g, strbuf_str(&text), &k, &diags);
    struct pattern_options po = {.quoted = a->quoted, .mark = !a->unmarked,
                                 .hide_skip = !a->skip_paths};
    strbuf_reset(&text);
    int status = EXIT_USAGE;
    if (path && pattern_render(g, path, k, &po, &text, &diags)) {
        if (c->json) {
            strbuf_addstr(&out, "{\"path\": [");
            for (uint32_t i = 0; i < k; i++)
                strbuf_addf(&out, "%s%u", i ? ", " : "", (unsigned)path[i]);
            strbuf_addstr(&out, "], \"pattern\": ");
            json_add_string(&out, text.data, text.len);
            strbuf_addstr(&out, "}\n");
        } else {
            strbuf_addstr(&out, strbuf_str(&text));
            strbuf_addch(&out, '\n');
        }
        status = cli_write(out.data, out.len) ? EXIT_OK : EXIT_FAILURE_OTHER;
    }
    cli_print_diags(cmd, &diags);
    strbuf_free(&text);
    strbuf_free(&out);
    diag_list_free(&diags);
    free(path);
    return status;
}

static int pattern(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    return render(cmd, ctx->graph, args, &ctx->common);
}
