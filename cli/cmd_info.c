/* cmd_info: `kpath info` — a grammar at a glance. */
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "base/json.h"
#include "graph/kpath.h"
#include "base/number.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static int info(const struct cli_command *cmd, const struct cli_context *ctx, void *args);
static const uint32_t default_max_k = 5;

static const struct cli_option options[] = {
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    CLI_TOKEN_OPTION,
    CLI_GRAMMAR_SIZE_OPTION,
    {"max-k", 'k', "K", "count k-paths for k = 1..K (default 5)"},
    {"json", 0, NULL, "print JSON instead of text"},
    {0},
};

const struct cli_command cmd_info_command = {
    "info", "[options] GRAMMAR", "summarize a grammar: start rule, rules, nodes, k-path counts",
    "Print GRAMMAR's start rule, its number of rules and grammar-graph nodes\n"
    "(symbolic: references, literals, classes; synthetic: alternations,\n"
    "sequences, quantifiers), its shortest input (characters, and derivation\n"
    "depth: the number of reference nodes on the longest root-to-leaf path of\n"
    "the derivation tree) and its number of k-paths for k = 1..K.  Warnings go\n"
    "to stderr.  Counts are exact; a count that does not fit in 64 bits\n"
    "reads \"more than 2^64\".  An ANTLR grammar whose start rule S other rules\n"
    "use is rooted in a rule _start := _skip S, so that skip tokens may begin\n"
    "the input: the start rule shown is S, followed by that root.",
    options, NULL, false,
    .needs = CLI_GRAPH, .args_size = sizeof default_max_k, .args_defaults = &default_max_k,
    .on_option = on_option, .main = info,
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    (void)index;
    return cli_parse_u32(cmd, "--max-k", value, 1, KPATH_MAX_K, ctx) ? CLI_CONTINUE : EXIT_USAGE;
}

static void add_count(struct strbuf *out, const struct kpath_space *sp)
{
    number_add_count(out, sp->saturated ? UINT64_MAX : sp->total);
}

static int info(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    (void)cmd;
    const struct cli_common c = ctx->common;
    const struct grammar *g = ctx->grammar;
    const struct graph *graph = ctx->graph;
    uint32_t max_k = *(const uint32_t *)args;

    /* the user's rule, not an import's wrapper (grammar_user_start) */
    uint32_t user_start = grammar_user_start(g);
    uint32_t reachable = 0;
    for (uint32_t r = 0; r < g->nrules; r++)
        reachable += g->rules[r].reachable;
    const struct graph_node *root = &graph->nodes[0];
    uint32_t synthetic = graph->nnodes - graph->nsymbolic;

    struct strbuf out = STRBUF_INIT;
    if (c.json) {
        strbuf_addstr(&out, "{\"grammar\": ");
        json_add_cstring(&out, c.grammar);
        strbuf_addstr(&out, ", \"start\": ");
        json_add_cstring(&out, g->rules[user_start].name);
        strbuf_addstr(&out, ", \"start_wrapper\": ");
        if (user_start != g->start)
            json_add_cstring(&out, g->rules[g->start].name);
        else
            strbuf_addstr(&out, "null");
        strbuf_addf(&out, ", \"rules\": %u, \"reachable_rules\": %u, \"nodes\": %u, "
                    "\"symbolic\": %u, \"synthetic\": %u, \"shortest_length\": %llu, "
                    "\"shortest_depth\": %u, \"predicates\": %u, \"actions\": %u, "
                    "\"kpaths\": [",
                    g->nrules, reachable, graph->nnodes, graph->nsymbolic, synthetic,
                    (unsigned long long)root->min_length, root->min_depth, g->npredicates,
                    g->nactions);
    } else {
        strbuf_addf(&out, "grammar: %s\nstart rule: %s", c.grammar, g->rules[user_start].name);
        /* the wrapper matters to whoever reads k-paths: it is their root */
        if (user_start != g->start)
            strbuf_addf(&out, " (the root is %s := _skip %s: skip tokens may begin the input)",
                        g->rules[g->start].name, g->rules[user_start].name);
        strbuf_addf(&out, "\nrules: %u", g->nrules);
        if (reachable < g->nrules)
            strbuf_addf(&out, " (%u unreachable)", g->nrules - reachable);
        strbuf_addf(&out, "\nnodes: %u (%u symbolic, %u synthetic)\n", graph->nnodes,
                    graph->nsymbolic, synthetic);
        /* The language may differ from the one the grammar's tool reads. */
        if (g->npredicates || g->nactions)
            strbuf_addf(&out, "code not run: %u semantic predicate%s, %u action%s (%s)%s\n",
                        g->npredicates, g->npredicates == 1 ? "" : "s", g->nactions,
                        g->nactions == 1 ? "" : "s", g->code_places ? g->code_places : "",
                        g->npredicates ? "; kpath may accept inputs they would reject" : "");
        strbuf_addf(&out, "shortest input: %llu character%s, derivation depth %u\nk-paths:\n",
                    (unsigned long long)root->min_length, root->min_length == 1 ? "" : "s",
                    root->min_depth);
    }
    for (uint32_t k = 1; k <= max_k; k++) {
        struct kpath_space sp;
        kpath_space_init(&sp, graph, k);
        if (c.json) {
            strbuf_addf(&out, "%s{\"k\": %u, \"count\": %llu, \"saturated\": %s}", k > 1 ? ", " : "",
                        k, (unsigned long long)sp.total, sp.saturated ? "true" : "false");
        } else {
            strbuf_addf(&out, "  k=%u: ", k);
            add_count(&out, &sp);
            strbuf_addch(&out, '\n');
        }
        kpath_space_free(&sp);
    }
    if (c.json)
        strbuf_addstr(&out, "]}\n");
    cli_write(out.data, out.len);
    strbuf_free(&out);
    return EXIT_OK;
}
