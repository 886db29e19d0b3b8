/* cmd_parse: `kpath parse` — parse one sample and print its derivation tree.
 *
 * The tree printed is forest_first_tree's: at every ambiguity, the derivation
 * the parser completed first.  Instances live in one array, parents before
 * children, so every walk here is a loop with an explicit stack: a sample
 * nested a million levels deep prints as well as a flat one. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "base/json.h"
#include "parse/parse.h"
#include "base/samples.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx);
static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args);
static int parse(const struct cli_command *cmd, const struct cli_context *ctx, void *args);

struct parse_args {
    const char *file;
    bool json, dot, symbolic;
    struct parse_options po;
};

static const struct parse_args defaults = {.po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT}};

/* The help states the default limit in words. */
_Static_assert(PARSE_DEFAULT_MAX_INPUT == 16u << 20, "help text: --max-input-size default");

static const struct cli_option options[] = {
    {"symbolic", 0, NULL, "show only symbolic nodes (references, literals, classes)"},
    {"dot", 0, NULL, "print the tree as Graphviz DOT"},
    CLI_SAMPLE_OPTIONS,
    {"start", 0, "NAME", "use rule NAME as the start rule"},
    CLI_FORMAT_OPTION,
    {"json", 0, NULL, "print the tree as JSON: a flat list of nodes with parent ids"},
    {0},
};

const struct cli_command cmd_parse_command = {
    .name = "parse",
    .usage = "[options] GRAMMAR FILE",
    .summary = "parse a sample and print its derivation tree",
    .description =
    "Parse FILE ('-' for standard input) with GRAMMAR and print its derivation\n"
    "tree, one node per line as Name_id (the graph node it is an instance of),\n"
    "indented two spaces per level down to level 32; deeper lines keep that\n"
    "indentation and start with @LEVEL (\"@33 Value_2\"), so the output stays\n"
    "linear in the size of the tree.  A class leaf shows the character it\n"
    "matched ([0-9]_12 '4'); a literal's name already shows its text.\n"
    "Synthetic nodes (| ~ and quantifiers) are shown too, unless --symbolic:\n"
    "then only references, literals and classes are, and the root.\n"
    "\n"
    "When the sample has several derivation trees (an ambiguous grammar), stderr\n"
    "says how many (or that there are infinitely many) and the first is shown:\n"
    "at each ambiguity, the derivation the parser completed first.\n"
    "\n"
    "A sample that does not parse is an error at the furthest position any\n"
    "parse reached, with the terminals that could have come next:\n"
    "  FILE:LINE:COL: error: no parse: unexpected 'x'; expected one of '+', ')'\n"
    "(lines and columns count characters from 1), and the exit status is 2, as\n"
    "for invalid UTF-8 and samples over --max-input-size.\n"
    "\n"
    "--json prints {\"file\", \"trees\", \"infinite\", \"nodes\": [...]}, each node\n"
    "{\"id\", \"parent\", \"node\", \"name\", \"kind\", \"start\", \"end\"} in\n"
    "pre-order (parent null for the root; start and end are byte offsets of the\n"
    "text it spans) and \"text\" on leaves.  Flat, so that readers need not\n"
    "recurse however deep the tree is.",
    .options = options,
    .takes_files = true,
    /* '-' twice is refused by check, in its order of the usage errors */
    .needs = CLI_GRAPH,
    .args_size = sizeof defaults,
    .args_defaults = &defaults,
    .on_option = on_option,
    .check = check,
    .main = parse,
};

static int on_option(const struct cli_command *cmd, int index, const char *value, void *ctx)
{
    struct parse_args *a = ctx;
    const char *name = cmd->options[index].name;
    if (strcmp(name, "symbolic") == 0)
        a->symbolic = true;
    else if (strcmp(name, "dot") == 0)
        a->dot = true;
    else
        return cli_sample_option(cmd, name, value, &a->po);
    return CLI_CONTINUE;
}

static int check(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    struct parse_args *a = args;
    const struct cli_common *c = &ctx->common;
    a->json = c->json;
    int status = CLI_CONTINUE;
    if (c->nfiles > 1)
        status = cli_usage_error(cmd, "unexpected argument '%s' (expected GRAMMAR FILE; "
                                      "kpath coverage takes several)", c->files[1]);
    if (status == CLI_CONTINUE)
        status = cli_stdin_once(cmd, c->grammar, c->files, c->nfiles);
    if (status == CLI_CONTINUE)
        a->file = c->files[0];
    if (status == CLI_CONTINUE && a->dot && a->json)
        status = cli_usage_error(cmd, "--dot and --json exclude each other");
    return status;
}

/* ---- the tree, laid out ---------------------------------------------------- */

/* The instances to show, in pre-order, with their shown parent and level. */
struct layout {
    uint32_t *order;  /* instance indices, pre-order */
    uint32_t *shown;  /* per instance: its position in order, or DTREE_NONE if hidden */
    uint32_t *parent; /* per position: the position of the shown parent, or DTREE_NONE */
    uint32_t *level;  /* per position */
    size_t len;
    size_t *start, *end; /* per instance: byte offsets of the text it spans */
};

/* The root is always shown, so that the tree has one root even when the start
 * rule's right-hand side is synthetic (an alternation, say). */
static bool is_shown(const struct derivation *t, uint32_t inst, bool symbolic)
{
    return !symbolic || inst == 0 ||
           node_kind_is_symbolic(t->graph->nodes[t->insts[inst].node].kind);
}

static size_t leaf_bytes(const struct derivation *t, uint32_t inst)
{
    const struct graph_node *n = &t->graph->nodes[t->insts[inst].node];
    if (n->kind == NODE_LIT)
        return n->expr->u.lit.len;
    if (n->kind == NODE_CLASS) {
        char tmp[4];
        return utf8_encode(t->insts[inst].ch, tmp);
    }
    return 0;
}

static void layout_build(const struct derivation *t, bool symbolic, struct layout *l)
{
    size_t n = t->len;
    l->order = xmalloc((n + 1) * sizeof *l->order);
    l->shown = xmalloc((n + 1) * sizeof *l->shown);
    l->parent = xmalloc((n + 1) * sizeof *l->parent);
    l->level = xmalloc((n + 1) * sizeof *l->level);
    l->start = xcalloc(n + 1, sizeof *l->start);
    l->end = xcalloc(n + 1, sizeof *l->end);
    l->len = 0;

    /* Byte lengths bottom-up (children come after their parent), then start
     * offsets top-down, children left to right. */
    size_t *bytes = xcalloc(n + 1, sizeof *bytes);
    for (size_t i = n; i-- > 0;) {
        bytes[i] += leaf_bytes(t, (uint32_t)i);
        if (t->insts[i].parent != DTREE_NONE)
            bytes[t->insts[i].parent] += bytes[i];
    }
    for (size_t i = 0; i < n; i++) {
        size_t at = l->start[i];
        const uint32_t *kids = derivation_children(t, (uint32_t)i);
        for (uint32_t c = 0; c < t->insts[i].nchildren; c++) {
            l->start[kids[c]] = at;
            at += bytes[kids[c]];
        }
        l->end[i] = l->start[i] + bytes[i];
    }
    free(bytes);

    /* Pre-order with an explicit stack; each entry carries the position of
     * the nearest shown ancestor. */
    uint32_t *stack = NULL, *anc = NULL;
    size_t depth = 0, cap = 0, anc_cap = 0;
    if (n) {
        stack = xgrow(stack, &cap, 1, sizeof *stack);
        anc = xgrow(anc, &anc_cap, 1, sizeof *anc);
        stack[0] = 0;
        anc[0] = DTREE_NONE;
        depth = 1;
    }
    while (depth) {
        depth--;
        uint32_t inst = stack[depth], up = anc[depth];
        uint32_t here = up;
        l->shown[inst] = DTREE_NONE;
        if (is_shown(t, inst, symbolic)) {
            here = (uint32_t)l->len;
            l->order[l->len] = inst;
            l->parent[l->len] = up;
            l->level[l->len] = up == DTREE_NONE ? 0 : l->level[up] + 1;
            l->shown[inst] = here;
            l->len++;
        }
        uint32_t nk = t->insts[inst].nchildren;
        stack = xgrow(stack, &cap, depth + nk, sizeof *stack);
        anc = xgrow(anc, &anc_cap, depth + nk, sizeof *anc);
        const uint32_t *kids = derivation_children(t, inst);
        for (uint32_t c = nk; c-- > 0;) { /* rightmost first: the leftmost is on top */
            stack[depth] = kids[c];
            anc[depth] = here;
            depth++;
        }
    }
    free(stack);
    free(anc);
}

static void layout_free(struct layout *l)
{
    free(l->order);
    free(l->shown);
    free(l->parent);
    free(l->level);
    free(l->start);
    free(l->end);
}

/* A character in single quotes, escaped as the parser's diagnostics do. */
static void add_quoted_char(struct strbuf *out, uint32_t cp)
{
    strbuf_addch(out, '\'');
    switch (cp) {
    case '\'': strbuf_addstr(out, "\\'"); break;
    case '\\': strbuf_addstr(out, "\\\\"); break;
    case '\n': strbuf_addstr(out, "\\n"); break;
    case '\r': strbuf_addstr(out, "\\r"); break;
    case '\t': strbuf_addstr(out, "\\t"); break;
    default:
        if (cp < 0x20 || cp == 0x7f)
            strbuf_addf(out, "\\x%02X", (unsigned)cp);
        else
            strbuf_add_utf8(out, cp);
    }
    strbuf_addch(out, '\'');
}

/* Per graph node, its name (Name_id), made once. */
static char **node_names(const struct graph *g)
{
    char **names = xcalloc((size_t)g->nnodes + 1, sizeof *names);
    for (uint32_t i = 0; i < g->nnodes; i++) {
        struct strbuf sb = STRBUF_INIT;
        graph_node_name(g, i, &sb);
        names[i] = strbuf_detach(&sb, NULL);
    }
    return names;
}

static void free_names(const struct graph *g, char **names)
{
    for (uint32_t i = 0; i < g->nnodes; i++)
        free(names[i]);
    free(names);
}

/* "Name_id", and for a class leaf " 'c'". */
static void add_label(struct strbuf *out, const struct derivation *t, char **names, uint32_t inst)
{
    uint32_t node = t->insts[inst].node;
    strbuf_addstr(out, names[node]);
    if (t->graph->nodes[node].kind == NODE_CLASS) {
        strbuf_addch(out, ' ');
        add_quoted_char(out, t->insts[inst].ch);
    }
}

enum { FLUSH_AT = 1 << 16 };

static bool flush(struct strbuf *out, bool force)
{
    if (!force && out->len < FLUSH_AT)
        return true;
    bool ok = cli_write(out->data, out->len);
    strbuf_reset(out);
    return ok;
}

/* Two spaces per level up to this level; deeper lines keep that indentation
 * and say their level as "@LEVEL ", so that the output stays linear in the
 * size of the tree however deep it is (a line per node, each of bounded
 * indentation), where full indentation would be quadratic. */
enum { INDENT_MAX_LEVEL = 32 };

static bool print_text(const struct derivation *t, const struct layout *l, char **names)
{
    struct strbuf out = STRBUF_INIT;
    bool ok = true;
    for (size_t p = 0; ok && p < l->len; p++) {
        uint32_t level = l->level[p];
        for (uint32_t i = 0; i < level && i < INDENT_MAX_LEVEL; i++)
            strbuf_addstr(&out, "  ");
        if (level > INDENT_MAX_LEVEL)
            strbuf_addf(&out, "@%" PRIu32 " ", level);
        add_label(&out, t, names, l->order[p]);
        strbuf_addch(&out, '\n');
        ok = flush(&out, false);
    }
    ok = ok && flush(&out, true);
    strbuf_free(&out);
    return ok;
}

/* Text inside a DOT string: quotes and backslashes escaped. */
static void add_dot_escaped(struct strbuf *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"' || s[i] == '\\')
            strbuf_addch(out, '\\');
        strbuf_addch(out, s[i]);
    }
}

static bool print_dot(const struct derivation *t, const struct layout *l, char **names)
{
    struct strbuf out = STRBUF_INIT, label = STRBUF_INIT;
    bool ok = true;
    strbuf_addstr(&out, "digraph tree {\n"
                        "  node [fontname=\"Helvetica\", fontsize=12];\n"
                        "  edge [arrowsize=0.6];\n");
    for (size_t p = 0; ok && p < l->len; p++) {
        uint32_t inst = l->order[p];
        uint32_t node = t->insts[inst].node;
        enum node_kind kind = t->graph->nodes[node].kind;
        strbuf_addf(&out, "  n%zu [label=\"", p);
        add_dot_escaped(&out, names[node], strlen(names[node]));
        if (kind == NODE_CLASS) {
            strbuf_reset(&label);
            add_quoted_char(&label, t->insts[inst].ch);
            strbuf_addstr(&out, "\\n"); /* DOT's line break */
            add_dot_escaped(&out, label.data, label.len);
        }
        strbuf_addch(&out, '"');
        strbuf_addstr(&out, node_kind_is_symbolic(kind) ? ", shape=plaintext];\n"
                                                        : ", shape=ellipse, fontsize=9];\n");
        if (l->parent[p] != DTREE_NONE)
            strbuf_addf(&out, "  n%u -> n%zu;\n", l->parent[p], p);
        ok = flush(&out, false);
    }
    strbuf_addstr(&out, "}\n");
    ok = ok && flush(&out, true);
    strbuf_free(&out);
    strbuf_free(&label);
    return ok;
}

static bool print_json(const struct derivation *t, const struct layout *l, char **names,
                       const char *file, uint64_t trees, bool infinite)
{
    struct strbuf out = STRBUF_INIT;
    bool ok = true;
    strbuf_addstr(&out, "{\"file\": ");
    json_add_cstring(&out, file);
    if (infinite)
        strbuf_addstr(&out, ", \"trees\": null, \"infinite\": true");
    else if (trees == FOREST_TREES_SATURATED)
        strbuf_addstr(&out, ", \"trees\": null, \"infinite\": false, \"more_than_2_64\": true");
    else
        strbuf_addf(&out, ", \"trees\": %" PRIu64 ", \"infinite\": false", trees);
    strbuf_addstr(&out, ", \"nodes\": [");
    for (size_t p = 0; ok && p < l->len; p++) {
        uint32_t inst = l->order[p];
        uint32_t node = t->insts[inst].node;
        const struct graph_node *n = &t->graph->nodes[node];
        strbuf_addf(&out, "%s\n  {\"id\": %zu, \"parent\": ", p ? "," : "", p);
        if (l->parent[p] == DTREE_NONE)
            strbuf_addstr(&out, "null");
        else
            strbuf_addf(&out, "%u", l->parent[p]);
        strbuf_addf(&out, ", \"node\": %u, \"name\": ", node);
        json_add_cstring(&out, names[node]);
        strbuf_addf(&out, ", \"kind\": \"%s\", \"start\": %zu, \"end\": %zu",
                    node_kind_name(n->kind), l->start[inst], l->end[inst]);
        if (n->kind == NODE_LIT) {
            strbuf_addstr(&out, ", \"text\": ");
            json_add_string(&out, n->expr->u.lit.text, n->expr->u.lit.len);
        } else if (n->kind == NODE_CLASS) {
            char ch[4];
            strbuf_addstr(&out, ", \"text\": ");
            json_add_string(&out, ch, utf8_encode(t->insts[inst].ch, ch));
        }
        strbuf_addch(&out, '}');
        ok = flush(&out, false);
    }
    strbuf_addstr(&out, l->len ? "\n]}\n" : "]}\n");
    ok = ok && flush(&out, true);
    strbuf_free(&out);
    return ok;
}

static int parse(const struct cli_command *cmd, const struct cli_context *ctx, void *args)
{
    const struct parse_args a = *(const struct parse_args *)args;
    const struct graph *graph = ctx->graph;
    int status;

    const char *name = samples_display_name(a.file);
    struct diag_list diags = DIAG_LIST_INIT;
    struct strbuf text = STRBUF_INIT;
    struct forest *f = NULL;
    struct parse_options po = a.po;
    if (samples_kind_allowed(a.file, cli_any_file(), &diags) &&
        samples_read(a.file, po.max_input_size, &text, &diags))
        f = parse_text(graph, name, strbuf_str(&text), text.len, &po, &diags);
    cli_print_diags(cmd, &diags);
    diag_list_free(&diags);
    if (!f) {
        strbuf_free(&text);
        return EXIT_USAGE;
    }

    bool infinite = false;
    uint64_t trees = forest_count_trees(f, &infinite);
    char count[FOREST_TREES_TEXT_SIZE];
    if (infinite)
        fprintf(stderr, "%s: infinitely many parse trees; showing the first (at each ambiguity, "
                        "the derivation completed first)\n", name);
    else if (trees > 1)
        fprintf(stderr, "%s: %s parse trees; showing the first (at each ambiguity, "
                        "the derivation completed first)\n",
                name, forest_trees_text(trees, count));

    struct derivation t;
    if (!forest_first_tree(f, &t)) {
        fprintf(stderr, "%s: error: the first parse tree is not finite; cannot show it\n", name);
        status = EXIT_FAILURE_OTHER;
    } else {
        char **names = node_names(graph);
        struct layout l;
        layout_build(&t, a.symbolic, &l);
        bool ok = a.dot    ? print_dot(&t, &l, names)
                  : a.json ? print_json(&t, &l, names, name, trees, infinite)
                           : print_text(&t, &l, names);
        status = ok ? EXIT_OK : EXIT_FAILURE_OTHER;
        layout_free(&l);
        free_names(graph, names);
    }
    derivation_free(&t);
    forest_free(f);
    strbuf_free(&text);
    return status;
}
