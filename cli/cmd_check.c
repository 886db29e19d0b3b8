/* cmd_check: `kpath check` — diagnostics only. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "commands.h"
#include "base/json.h"
#include "gen/gen.h"
#include "graph/graph.h"
#include "base/xalloc.h"

static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

static const struct cli_option options[] = {
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    CLI_TOKEN_OPTION,
    CLI_GRAMMAR_SIZE_OPTION,
    {"json", 0, NULL, "print the diagnostics as JSON on stdout"},
    {0},
};

const struct cli_command cmd_check_command = {
    "check", "[options] GRAMMAR", "check a grammar and print its diagnostics",
    "Check GRAMMAR and print every diagnostic as FILE:LINE:COL: error: MESSAGE\n"
    "(or warning:) on stderr.  Exit status 0 when the grammar is valid (warnings\n"
    "allowed), 2 when it has errors.",
    options, NULL, false,
    /* no CLI_GRAMMAR: it loads the grammar itself, to show every diagnostic */
    .main = check,
};

static void json_diagnostics(const struct diag_list *diags, bool valid)
{
    struct strbuf out = STRBUF_INIT;
    strbuf_addf(&out, "{\"valid\": %s, \"diagnostics\": [", valid ? "true" : "false");
    for (size_t i = 0; i < diags->len; i++) {
        const struct diag *d = &diags->items[i];
        strbuf_addf(&out, "%s\n  {\"severity\": \"%s\", \"file\": ", i ? "," : "",
                    d->severity == DIAG_ERROR ? "error" : d->severity == DIAG_WARNING ? "warning" : "note");
        json_add_cstring(&out, d->file ? d->file : "");
        strbuf_addf(&out, ", \"line\": %u, \"col\": %u, \"message\": ", d->line, d->col);
        json_add_cstring(&out, d->message);
        strbuf_addch(&out, '}');
    }
    strbuf_addstr(&out, diags->len ? "\n]}\n" : "]}\n");
    cli_write(out.data, out.len);
    strbuf_free(&out);
}

/* A repetition past a quantifier's minimum that produces no text is in no
 * tree kpath counts (docs/design/definitions.md): the same text has a tree
 * without it.  So what only such a repetition can hold is never covered,
 * by any input; say where a repeated item can produce no text. */
static void warn_empty_repetitions(const struct graph *gr, struct diag_list *diags)
{
    /* One warning per rule, at its first such quantifier (nested ones,
     * ((x?)?)?, would repeat it). */
    uint32_t nrules = gr->grammar->nrules;
    const struct expr **first = xcalloc(nrules + 1, sizeof *first);
    uint32_t *more = xcalloc(nrules + 1, sizeof *more);
    for (uint32_t n = 0; n < gr->nnodes; n++) {
        const struct graph_node *q = &gr->nodes[n];
        if (q->kind != NODE_QUANT || q->expr->u.quant.max <= q->expr->u.quant.min ||
            gr->nodes[graph_children(gr, n)[0]].min_length != 0 || q->expr->rule >= nrules)
            continue;
        const struct expr *e = q->expr;
        if (!first[e->rule] || e->pos.line < first[e->rule]->pos.line ||
            (e->pos.line == first[e->rule]->pos.line && e->pos.col < first[e->rule]->pos.col))
            first[e->rule] = e;
        more[e->rule]++;
    }
    for (uint32_t r = 0; r < nrules; r++) {
        const struct expr *e = first[r];
        if (!e)
            continue;
        diag_add(diags, DIAG_WARNING, grammar_rule_file(gr->grammar, r), e->pos.line, e->pos.col,
                 "the repeated item in rule '%s' can produce no text%s: a repetition past the "
                 "minimum that produces none is in no tree kpath counts (the text has a tree "
                 "without it), so k-paths only it could hold are never covered",
                 gr->grammar->rules[r].name,
                 more[r] > 1 ? " (and in more quantifiers of the rule)" : "");
    }
    free(first);
    free(more);
}

static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    (void)cmd, (void)args;
    struct grammar *g = NULL;
    struct diag_list diags = DIAG_LIST_INIT;
    int status = cli_load(ctx->common.grammar, ctx->common.start, &diags, &g, NULL);
    if (status == EXIT_OK) {
        struct graph *gr = graph_build(g);
        warn_empty_repetitions(gr, &diags);
        /* gen and cover refuse a grammar whose smallest input is over their
         * default size budget: an error there, a warning here (the grammar
         * is valid; --max-size raises the budget). */
        struct gen_options o;
        gen_options_default(&o);
        gen_size_diag(gr, o.max_size, DIAG_WARNING, &diags);
        graph_free(gr);
        diag_sort(&diags);
    }
    if (ctx->common.json)
        json_diagnostics(&diags, status == EXIT_OK);
    else
        cli_print_grammar_diags(&diags); /* every one, not capped: that is what check is for */
    diag_list_free(&diags);
    grammar_free(g);
    return status;
}
