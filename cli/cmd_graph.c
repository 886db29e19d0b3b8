/* cmd_graph: `kpath graph` — the grammar graph as a table, JSON or DOT. */
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "base/json.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args);
static int print_graph(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

static const struct cli_option options[] = {
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    CLI_GRAMMAR_SIZE_OPTION,
    {"dot", 0, NULL, "print Graphviz DOT in the style of the k-path paper's figures"},
    {"json", 0, NULL, "print JSON instead of text"},
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
    "and edges back to an already drawn shared rule node are dashed.",
    options, NULL, false,
    .needs = CLI_GRAPH, .args_size = sizeof(bool), .on_option = on_option, .check = check,
    .main = print_graph,
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    (void)cmd, (void)index, (void)value;
    *(bool *)ctx = true;
    return CLI_CONTINUE;
}

/* A node is drawn below the parent that created it in the breadth-first walk:
 * the first of its parents (parents are listed in increasing id order).  Any
 * other edge into it goes back to an already drawn node. */
static bool is_back_edge(const struct graph *g, uint32_t parent, uint32_t child)
{
    return child == 0 || graph_parents(g, child)[0] != parent;
}

static void add_dot_string(struct strbuf *out, const char *s)
{
    strbuf_addch(out, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            strbuf_addch(out, '\\');
        strbuf_addch(out, *s);
    }
    strbuf_addch(out, '"');
}

static void print_dot(const struct graph *g, struct strbuf *out)
{
    struct strbuf label = STRBUF_INIT;
    strbuf_addstr(out, "digraph grammar {\n"
                       "  node [fontname=\"Helvetica\", fontsize=12];\n"
                       "  edge [arrowsize=0.6];\n");
    for (uint32_t i = 0; i < g->nnodes; i++) {
        strbuf_reset(&label);
        bool symbolic = node_kind_is_symbolic(g->nodes[i].kind);
        if (symbolic)
            graph_node_name(g, i, &label);
        else
            graph_node_label(g, i, &label);
        strbuf_addf(out, "  n%u [label=", i);
        add_dot_string(out, strbuf_str(&label));
        strbuf_addstr(out, symbolic ? ", shape=plaintext];\n"
                                    : ", shape=circle, width=0.25, fixedsize=true, fontsize=9];\n");
    }
    for (uint32_t i = 0; i < g->nnodes; i++) {
        for (uint32_t c = 0; c < g->nodes[i].nchildren; c++) {
            uint32_t child = graph_children(g, i)[c];
            strbuf_addf(out, "  n%u -> n%u%s;\n", i, child,
                        is_back_edge(g, i, child) ? " [style=dashed]" : "");
        }
    }
    strbuf_addstr(out, "}\n");
    strbuf_free(&label);
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

/* args: whether --dot was given. */
static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    if (*(bool *)args && ctx->common.json)
        return cli_usage_error(cmd, "--dot and --json exclude each other");
    return CLI_CONTINUE;
}

static int print_graph(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    (void)cmd;
    struct strbuf out = STRBUF_INIT;
    if (*(bool *)args)
        print_dot(ctx->graph, &out);
    else if (ctx->common.json)
        print_json(ctx->graph, &out);
    else
        print_table(ctx->graph, &out);
    cli_write(out.data, out.len);
    strbuf_free(&out);
    return EXIT_OK;
}
