/* cmd_parse: `kpath parse` — parse one sample and print its derivation tree.
 *
 * The tree printed is forest_first_tree's: at every ambiguity, the derivation
 * the parser completed first.  It is printed as forest_walk_first_tree walks
 * down it, node by node in pre-order, never built: the memory is the
 * forest's (within --max-memory), not a tree and a layout as large as the
 * output.  The walk is a loop with an explicit stack: a sample nested a
 * million levels deep prints as well as a flat one. */
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
    CLI_TOKEN_OPTION,
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

/* ---- the tree, printed as it is walked -------------------------------------- */

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

/* Text inside a DOT string: quotes and backslashes escaped. */
static void add_dot_escaped(struct strbuf *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"' || s[i] == '\\')
            strbuf_addch(out, '\\');
        strbuf_addch(out, s[i]);
    }
}

/* Byte offsets of code point positions in the sample: every
 * OFFSET_STRIDE-th one kept, the rest counted from there (nothing kept when
 * the sample is ASCII, where they are the same). */
enum { OFFSET_STRIDE = 64 };
struct offsets {
    const unsigned char *text;
    size_t *every; /* NULL: ASCII */
};

static size_t utf8_lead_length(unsigned char b)
{
    return b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
}

static void offsets_init(struct offsets *o, const char *text, size_t len)
{
    o->text = (const unsigned char *)text;
    o->every = NULL;
    size_t i = 0;
    while (i < len && o->text[i] < 0x80)
        i++;
    if (i == len)
        return;
    size_t n = 0, cap = 0;
    for (size_t b = 0, cp = 0; b <= len; cp++) {
        if (cp % OFFSET_STRIDE == 0) {
            o->every = xgrow(o->every, &cap, n + 1, sizeof *o->every);
            o->every[n++] = b;
        }
        if (b == len)
            break;
        b += utf8_lead_length(o->text[b]);
    }
}

static size_t offset_of(const struct offsets *o, uint32_t cp)
{
    if (!o->every)
        return cp;
    size_t b = o->every[cp / OFFSET_STRIDE];
    for (uint32_t i = 0; i < cp % OFFSET_STRIDE; i++)
        b += utf8_lead_length(o->text[b]);
    return b;
}

enum print_format { PRINT_TEXT, PRINT_DOT, PRINT_JSON };

/* What the walk down the tree prints with: the shown nodes are numbered in
 * pre-order; per level of depth, the number and level of the nearest shown
 * node at or above it (so a node's shown parent is its parent's entry). */
struct printer {
    const struct graph *graph;
    char **names;
    bool symbolic;
    enum print_format format;
    struct offsets offsets;
    struct strbuf out, label;
    uint32_t *up, *up_level; /* per depth */
    size_t depth_cap;
    size_t shown;
};

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

static void print_text_node(struct printer *pr, const struct forest_visit *v, uint32_t level)
{
    struct strbuf *out = &pr->out;
    for (uint32_t i = 0; i < level && i < INDENT_MAX_LEVEL; i++)
        strbuf_addstr(out, "  ");
    if (level > INDENT_MAX_LEVEL)
        strbuf_addf(out, "@%" PRIu32 " ", level);
    strbuf_addstr(out, pr->names[v->node]);
    if (pr->graph->nodes[v->node].kind == NODE_CLASS) {
        strbuf_addch(out, ' ');
        add_quoted_char(out, v->ch);
    }
    strbuf_addch(out, '\n');
}

static void print_dot_node(struct printer *pr, const struct forest_visit *v, size_t id,
                           uint32_t parent)
{
    struct strbuf *out = &pr->out;
    const char *name = pr->names[v->node];
    enum node_kind kind = pr->graph->nodes[v->node].kind;
    strbuf_addf(out, "  n%zu [label=\"", id);
    add_dot_escaped(out, name, strlen(name));
    if (kind == NODE_CLASS) {
        strbuf_reset(&pr->label);
        add_quoted_char(&pr->label, v->ch);
        strbuf_addstr(out, "\\n"); /* DOT's line break */
        add_dot_escaped(out, pr->label.data, pr->label.len);
    }
    strbuf_addch(out, '"');
    strbuf_addstr(out, node_kind_is_symbolic(kind) ? ", shape=plaintext];\n"
                                                   : ", shape=ellipse, fontsize=9];\n");
    if (parent != DTREE_NONE)
        strbuf_addf(out, "  n%u -> n%zu;\n", parent, id);
}

static void print_json_node(struct printer *pr, const struct forest_visit *v, size_t id,
                            uint32_t parent)
{
    struct strbuf *out = &pr->out;
    const struct graph_node *n = &pr->graph->nodes[v->node];
    strbuf_addf(out, "%s\n  {\"id\": %zu, \"parent\": ", id ? "," : "", id);
    if (parent == DTREE_NONE)
        strbuf_addstr(out, "null");
    else
        strbuf_addf(out, "%u", parent);
    strbuf_addf(out, ", \"node\": %u, \"name\": ", v->node);
    json_add_cstring(out, pr->names[v->node]);
    strbuf_addf(out, ", \"kind\": \"%s\", \"start\": %zu, \"end\": %zu", node_kind_name(n->kind),
                offset_of(&pr->offsets, v->start), offset_of(&pr->offsets, v->end));
    if (n->kind == NODE_LIT) {
        strbuf_addstr(out, ", \"text\": ");
        json_add_string(out, n->expr->u.lit.text, n->expr->u.lit.len);
    } else if (n->kind == NODE_CLASS) {
        char ch[4];
        strbuf_addstr(out, ", \"text\": ");
        json_add_string(out, ch, utf8_encode(v->ch, ch));
    }
    strbuf_addch(out, '}');
}

/* The root is always shown, so that the tree has one root even when the start
 * rule's right-hand side is synthetic (an alternation, say). */
static bool print_node(const struct forest_visit *v, void *ctx)
{
    struct printer *pr = ctx;
    uint32_t d = v->depth;
    uint32_t up = d ? pr->up[d - 1] : DTREE_NONE, up_level = d ? pr->up_level[d - 1] : 0;
    size_t cap = pr->depth_cap;
    pr->up = xgrow(pr->up, &cap, (size_t)d + 1, sizeof *pr->up);
    pr->up_level = xgrow(pr->up_level, &pr->depth_cap, (size_t)d + 1, sizeof *pr->up_level);
    if (pr->symbolic && d > 0 && !node_kind_is_symbolic(pr->graph->nodes[v->node].kind)) {
        pr->up[d] = up, pr->up_level[d] = up_level; /* hidden: its children go to its shown parent */
        return true;
    }
    size_t id = pr->shown++;
    uint32_t level = up == DTREE_NONE ? 0 : up_level + 1;
    pr->up[d] = (uint32_t)id, pr->up_level[d] = level;
    switch (pr->format) {
    case PRINT_TEXT: print_text_node(pr, v, level); break;
    case PRINT_DOT: print_dot_node(pr, v, id, up); break;
    case PRINT_JSON: print_json_node(pr, v, id, up); break;
    }
    return flush(&pr->out, false);
}

/* Print the forest's first tree, walking down it: the memory is the
 * forest's and a stack as deep as the tree (both within --max-memory), not
 * a tree of the size of the output. */
static bool print_tree(const struct forest *f, const struct graph *g, const struct parse_args *a,
                       const char *file, const struct strbuf *text, uint64_t trees,
                       bool infinite)
{
    struct printer pr = {.graph = g, .names = node_names(g), .symbolic = a->symbolic,
                         .format = a->dot ? PRINT_DOT : a->json ? PRINT_JSON : PRINT_TEXT,
                         .out = STRBUF_INIT, .label = STRBUF_INIT};
    if (pr.format == PRINT_JSON)
        offsets_init(&pr.offsets, text->data, text->len);
    struct strbuf *out = &pr.out;
    if (pr.format == PRINT_DOT) {
        strbuf_addstr(out, "digraph tree {\n"
                           "  node [fontname=\"Helvetica\", fontsize=12];\n"
                           "  edge [arrowsize=0.6];\n");
    } else if (pr.format == PRINT_JSON) {
        strbuf_addstr(out, "{\"file\": ");
        json_add_cstring(out, file);
        if (infinite)
            strbuf_addstr(out, ", \"trees\": null, \"infinite\": true");
        else if (trees == FOREST_TREES_SATURATED)
            strbuf_addstr(out, ", \"trees\": null, \"infinite\": false, \"more_than_2_64\": true");
        else
            strbuf_addf(out, ", \"trees\": %" PRIu64 ", \"infinite\": false", trees);
        strbuf_addstr(out, ", \"nodes\": [");
    }
    bool ok = forest_walk_first_tree(f, print_node, &pr);
    if (pr.format == PRINT_DOT)
        strbuf_addstr(out, "}\n");
    else if (pr.format == PRINT_JSON)
        strbuf_addstr(out, pr.shown ? "\n]}\n" : "]}\n");
    ok = ok && flush(out, true);
    strbuf_free(&pr.out);
    strbuf_free(&pr.label);
    free(pr.up);
    free(pr.up_level);
    free(pr.offsets.every);
    free_names(g, pr.names);
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

    status = print_tree(f, graph, &a, name, &text, trees, infinite) ? EXIT_OK : EXIT_FAILURE_OTHER;
    forest_free(f);
    strbuf_free(&text);
    return status;
}
