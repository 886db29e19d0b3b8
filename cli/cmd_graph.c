/* cmd_graph: `kpath graph` — the grammar graph as a table, JSON, DOT or SVG. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "base/json.h"
#include "base/xalloc.h"
#include "graph/layout.h"
#include "graph/picture.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args);
static int print_graph(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

static const struct cli_option options[] = {
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    CLI_GRAMMAR_SIZE_OPTION,
    {"dot", 0, NULL, "print Graphviz DOT in the style of the k-path paper's figures"},
    {"json", 0, NULL, "print JSON instead of text"},
    {"svg", 0, NULL, "print an SVG picture of the graph laid out in layers, as the paper's Figure 1"},
    {0},
};

const struct cli_command cmd_graph_command = {
    "graph", "[options] GRAMMAR", "print the grammar graph with its node ids",
    "Print GRAMMAR's grammar graph, one node per line:\n"
    "  ID<TAB>KIND<TAB>LABEL<TAB>CHILD-IDS\n"
    "KIND is ref, lit, class (symbolic nodes) or alt, cat, quant (synthetic).\n"
    "LABEL is the rule name of a reference, the literal in double quotes, the\n"
    "class as written, '|' for alt, '~' for cat and the quantifier for quant.\n"
    "Ids are given breadth-first from the start rule's right-hand side (0); a\n"
    "rule's right-hand side is one node shared by every reference to it.\n"
    "With --dot, symbolic nodes are labelled Name_id, synthetic nodes are small,\n"
    "and edges back to an already drawn shared rule node are dashed.\n"
    "With --svg, the picture is laid out by kpath itself: each node one layer\n"
    "below the node that created it (the tree of breadth-first ids), parents\n"
    "centred over their children; back edges are dashed curves.",
    options, NULL, false,
    .needs = CLI_GRAPH, .args_size = sizeof(int), .on_option = on_option, .check = check,
    .main = print_graph,
};

enum { OUT_TABLE, OUT_DOT, OUT_SVG };

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    (void)value;
    int mode = strcmp(cmd->options[index].name, "svg") == 0 ? OUT_SVG : OUT_DOT;
    if (*(int *)ctx != OUT_TABLE && *(int *)ctx != mode)
        return cli_usage_error(cmd, "--dot and --svg exclude each other");
    *(int *)ctx = mode;
    return CLI_CONTINUE;
}

static void print_json(const struct graph *g, struct strbuf *out)
{
    struct strbuf label = STRBUF_INIT;
    strbuf_addstr(out, "{\"root\": 0, \"nodes\": [");
    for (uint32_t i = 0; i < g->nnodes; i++) {
        const struct graph_node *n = &g->nodes[i];
        strbuf_reset(&label);
        graph_node_label(g, i, &label);
        strbuf_addf(out, "%s\n  {\"id\": %u, \"kind\": \"%s\", \"label\": ", i ? "," : "", i,
                    node_kind_name(n->kind));
        json_add_string(out, label.data, label.len);
        strbuf_addstr(out, ", \"rule\": ");
        json_add_cstring(out, g->grammar->rules[n->rule].name);
        strbuf_addf(out, ", \"line\": %u, \"col\": %u, \"min_depth\": %u, \"children\": [",
                    n->expr->pos.line, n->expr->pos.col, n->min_depth);
        for (uint32_t c = 0; c < n->nchildren; c++)
            strbuf_addf(out, "%s%u", c ? ", " : "", graph_children(g, i)[c]);
        strbuf_addstr(out, "]}");
    }
    strbuf_addstr(out, "\n]}\n");
    strbuf_free(&label);
}

static void print_table(const struct graph *g, struct strbuf *out)
{
    for (uint32_t i = 0; i < g->nnodes; i++) {
        const struct graph_node *n = &g->nodes[i];
        strbuf_addf(out, "%u\t%s\t", i, node_kind_name(n->kind));
        graph_node_label(g, i, out);
        strbuf_addch(out, '\t');
        for (uint32_t c = 0; c < n->nchildren; c++)
            strbuf_addf(out, "%s%u", c ? "," : "", graph_children(g, i)[c]);
        strbuf_addch(out, '\n');
    }
}

static void print_svg(const struct graph *g, struct strbuf *out)
{
    uint32_t *widths = xcalloc(g->nnodes ? g->nnodes : 1, sizeof *widths);
    picture_widths(g, widths);
    struct graph_layout l;
    layout_compute(g, widths, NULL, 2, &l);
    picture_svg(g, &l, out);
    layout_free(&l);
    free(widths);
}

/* args: OUT_DOT or OUT_SVG when --dot or --svg was given. */
static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    if (*(int *)args != OUT_TABLE && ctx->common.json)
        return cli_usage_error(cmd, "--%s and --json exclude each other",
                               *(int *)args == OUT_SVG ? "svg" : "dot");
    return CLI_CONTINUE;
}

static int print_graph(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    (void)cmd;
    struct strbuf out = STRBUF_INIT;
    if (*(int *)args == OUT_DOT)
        picture_dot(ctx->graph, NULL, &out);
    else if (*(int *)args == OUT_SVG)
        print_svg(ctx->graph, &out);
    else if (ctx->common.json)
        print_json(ctx->graph, &out);
    else
        print_table(ctx->graph, &out);
    cli_write(out.data, out.len);
    strbuf_free(&out);
    return EXIT_OK;
}
