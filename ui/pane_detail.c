/* pane_detail: what the selected k-path (or graph node) is: its pattern,
 * whether and by which inputs it is covered, and if not, why not, with C to
 * generate a smallest input that covers it.
 *
 * The explanation is why.h's (depth, zero probabilities, pins, covered
 * prefix and suffix, a smallest example), computed once per selection. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/number.h"
#include "parse/parse.h"
#include "graph/pattern.h"
#include "job.h"
#include "ui.h"
#include "base/xalloc.h"

struct para {
    const char *label;
    struct strbuf text;
    int style;
};

struct paras {
    struct para *p;
    size_t n, cap;
};

static struct strbuf *para_add(struct paras *ps, const char *label, int style)
{
    ps->p = xgrow(ps->p, &ps->cap, ps->n + 1, sizeof *ps->p);
    struct para *p = &ps->p[ps->n++];
    p->label = label;
    p->text = (struct strbuf)STRBUF_INIT;
    p->style = style;
    return &p->text;
}

static void paras_free(struct paras *ps)
{
    for (size_t i = 0; i < ps->n; i++)
        strbuf_free(&ps->p[i].text);
    free(ps->p);
}

/* Draw the paragraphs wrapped, skipping `top` rows; returns the row count. */
static uint64_t paras_draw(struct ui *ui, const struct paras *ps, struct rect r, uint64_t top)
{
    const int lw = 9;
    uint64_t row = 0;
    for (size_t i = 0; i < ps->n; i++) {
        const struct para *p = &ps->p[i];
        const char *text = strbuf_str(&p->text);
        size_t len = p->text.len, pos = 0;
        int w = r.w - lw;
        if (w < 8)
            w = 8;
        bool first = true;
        do {
            size_t next, take = text_wrap_line(text + pos, len - pos, w, &next);
            if (row >= top && row < top + (uint64_t)r.h) {
                int y = r.y + (int)(row - top);
                if (first)
                    screen_puts(&ui->scr, r.x, y, lw, p->label, EL_DIM);
                screen_put(&ui->scr, r.x + lw, y, r.w - lw, text + pos, take, p->style);
            }
            row++;
            first = false;
            pos += next;
        } while (pos < len);
    }
    return row;
}

/* ---- why a k-path is uncovered (why.h) ------------------------------------------- */

/* Inputs as why.h wants them: per input, its j-paths for j = 1..k.  NULL
 * (prefixes and suffixes not explained) when that would take too much memory. */
static struct why_input *why_inputs(struct workspace *ws, struct kpath_space *spaces)
{
    uint32_t k = ws->k;
    double bytes = 0;
    for (uint32_t j = 1; j <= k; j++) {
        kpath_space_init(&spaces[j - 1], ws->graph, j);
        double t = spaces[j - 1].saturated ? 1e18 : (double)spaces[j - 1].total;
        bytes += t > (double)(1u << 30) ? 4096.0 : t / 8.0 + 64.0;
    }
    if (bytes * (double)ws->ninputs > 64.0 * 1024 * 1024 || !ws->ninputs)
        return NULL;
    struct why_input *in = xcalloc(ws->ninputs, sizeof *in);
    for (size_t i = 0; i < ws->ninputs; i++) {
        const struct ws_input *w = &ws->inputs[i];
        in[i].name = w->sample ? w->sample : "input";
        in[i].sets = xcalloc(k, sizeof *in[i].sets);
        for (uint32_t j = 1; j <= k; j++) {
            kpath_set_init(&in[i].sets[j - 1], &spaces[j - 1]);
            if (w->forest)
                forest_add_kpaths(w->forest, &in[i].sets[j - 1]);
            else if (w->has_tree)
                derivation_add_kpaths(&w->tree, &in[i].sets[j - 1]);
        }
    }
    return in;
}

static void explain(struct ui *ui, const uint32_t *path, uint64_t rank)
{
    struct workspace *ws = ui->ws;
    uint64_t key[5] = {rank, ws->k, ws->changes, ws->gen_opts.max_depth, (uint64_t)(uintptr_t)ws};
    if (ui->why_valid && memcmp(key, ui->why_key, sizeof key) == 0)
        return;
    if (ui->why_valid)
        why_report_free(&ui->why);
    struct kpath_space *spaces = xcalloc(ws->k, sizeof *spaces);
    struct why_input *inputs = why_inputs(ws, spaces);
    struct why_options o = {
        ws->gen_opts.max_depth, ws->probs, ws->pins.len ? &ws->pins : NULL,
        inputs, inputs ? ws->ninputs : 0,
    };
    why_explain(ws->graph, path, ws->k, &o, &ui->why);
    if (inputs) {
        for (size_t i = 0; i < ws->ninputs; i++) {
            for (uint32_t j = 0; j < ws->k; j++)
                kpath_set_free(&inputs[i].sets[j]);
            free(inputs[i].sets);
        }
        free(inputs);
    }
    for (uint32_t j = 0; j < ws->k; j++)
        if (spaces[j].graph)
            kpath_space_free(&spaces[j]);
    free(spaces);
    memcpy(ui->why_key, key, sizeof key);
    ui->why_valid = true;
}

static void detail_why(struct ui *ui, const uint32_t *path, uint64_t rank, struct paras *ps)
{
    struct workspace *ws = ui->ws;
    /* Explaining builds a generator, which walks every k-path: at once on
     * small grammars, after the frame on large ones (a job, dropped when a
     * key comes first), so moving the cursor never waits for it. */
    uint64_t key[5] = {rank, ws->k, ws->changes, ws->gen_opts.max_depth, (uint64_t)(uintptr_t)ws};
    bool cached = ui->why_valid && memcmp(key, ui->why_key, sizeof key) == 0;
    if (!cached && ws->space.total > 50000) {
        strbuf_addstr(para_add(ps, "why", EL_DIM), "explaining...");
        if (!ui->job)
            ui->job = JOB_WHY;
        return;
    }
    explain(ui, path, rank);
    const struct why_report *r = &ui->why;
    const struct graph *g = ws->graph;
    bool blocked = false;
    if (r->needed_depth == UINT32_MAX) {
        graph_why_in_no_input(g, path[ws->k - 1], para_add(ps, "why", EL_UNCOVERED));
        blocked = true;
    } else if (r->too_deep) {
        strbuf_addf(para_add(ps, "why", EL_UNCOVERED),
                    "it needs a derivation of depth %u, more than the limit %u (:depth %u)",
                    r->needed_depth, ws->gen_opts.max_depth, r->needed_depth);
        blocked = true;
    }
    for (size_t i = 0; i < r->nzeros; i++) {
        const struct graph_node *alt = &g->nodes[r->zeros[i].alt];
        struct strbuf *t = para_add(ps, "why", EL_UNCOVERED);
        strbuf_addf(t, "alternative %u of %s (", r->zeros[i].index + 1,
                    ws->grammar->rules[alt->rule].name);
        graph_node_name(g, r->zeros[i].alt, t);
        strbuf_addstr(t, ") has probability 0: the prob strategy never takes it");
        blocked |= ws->gen_opts.strategy == GEN_PROB;
    }
    if (r->start_needs_zero) {
        strbuf_addstr(para_add(ps, "why", EL_UNCOVERED),
                      "its first node is reached only through alternatives of probability 0");
        blocked |= ws->gen_opts.strategy == GEN_PROB;
    }
    if (r->outside_pins) {
        strbuf_addstr(para_add(ps, "why", EL_UNCOVERED), "it lies outside every pin");
        blocked = true;
    }
    if (r->prefix || r->suffix) {
        struct strbuf *t = para_add(ps, "inputs", EL_NORMAL);
        /* "its first node occurs", "its first 2 nodes occur" */
        if (r->prefix == 1)
            strbuf_addf(t, "its first node occurs in input %zu", r->prefix_input + 1);
        else if (r->prefix)
            strbuf_addf(t, "its first %u nodes occur in input %zu", r->prefix, r->prefix_input + 1);
        if (r->suffix == 1)
            strbuf_addf(t, "%sits last node in input %zu", r->prefix ? "; " : "", r->suffix_input + 1);
        else if (r->suffix)
            strbuf_addf(t, "%sits last %u nodes in input %zu", r->prefix ? "; " : "", r->suffix,
                        r->suffix_input + 1);
    }
    if (!blocked)
        strbuf_addstr(para_add(ps, "why", EL_NORMAL),
                      "it is reachable within the limits; no input has produced it yet");
    if (r->example) {
        struct strbuf *t = para_add(ps, "smallest", EL_PATTERN);
        strbuf_addch(t, '"');
        escape_text(r->example, r->example_len, 400, t);
        strbuf_addf(t, "\" (depth %u%s", r->example_depth,
                    r->example_within_limit ? "); C adds it as an input" : ", over the limit: C needs that :depth)");
        if (!r->example_smallest)
            strbuf_addf(t, "; not proven the smallest: the smallest, %zu byte%s, needs depth %u",
                        r->smallest_len, r->smallest_len == 1 ? "" : "s", r->smallest_depth);
    } else {
        strbuf_addstr(para_add(ps, "smallest", EL_DIM), "no input within the limits contains it");
    }
}

/* JOB_WHY: the deferred explanation, for the selected k-path. */
static void detail_explain_selected(struct ui *ui)
{
    struct workspace *ws = ui->ws;
    uint32_t *path = xmalloc((ws->k + 1) * sizeof *path);
    uint64_t rank;
    if (kpaths_selected(ui, path, &rank) && !workspace_rank_covered(ws, rank))
        explain(ui, path, rank);
    free(path);
}

/* ---- contents --------------------------------------------------------------------- */

static void kpath_detail(struct ui *ui, struct paras *ps)
{
    struct workspace *ws = ui->ws;
    uint32_t *path = xmalloc((ws->k + 1) * sizeof *path);
    uint64_t rank;
    if (!kpaths_selected(ui, path, &rank)) {
        strbuf_addstr(para_add(ps, "", EL_DIM),
                      ws->space.saturated                   ? "too many k-paths to list"
                      : kpaths_count(ui) == 0 ? "no k-path in this list (f changes the filter)"
                                                             : "no k-path selected");
        free(path);
        return;
    }
    workspace_path_name(ws, path, ws->k, glyph(ui->ascii, " \xe2\x86\x92 ", " -> "),
                        para_add(ps, "k-path", EL_NORMAL));
    struct pattern_options po = {.hide_skip = !ui->show_skip};
    pattern_render(ws->graph, path, ws->k, &po, para_add(ps, "pattern", EL_PATTERN), NULL);
    size_t by[4];
    size_t nby = workspace_covered_by(ws, rank, by, 4);
    if (nby) {
        struct strbuf *t = para_add(ps, "covered", EL_COVERED);
        strbuf_addf(t, "by %zu input%s: ", nby, nby == 1 ? "" : "s");
        for (size_t i = 0; i < nby && i < 4; i++) {
            const struct ws_input *in = &ws->inputs[by[i]];
            strbuf_addf(t, "%s%zu ", i ? ", " : "", by[i] + 1);
            strbuf_addch(t, '"');
            escape_text(in->text, in->len, t->len + 40, t);
            strbuf_addch(t, '"');
        }
        if (nby > 4)
            strbuf_addstr(t, ", ...");
    } else {
        strbuf_addstr(para_add(ps, "covered", EL_UNCOVERED),
                      ws->pins.len ? "no (not in a pinned context)" : "no");
        detail_why(ui, path, rank, ps);
    }
    free(path);
}

static void node_detail(struct ui *ui, struct paras *ps)
{
    struct workspace *ws = ui->ws;
    const struct graph *g = ws->graph;
    uint32_t n = graph_selected_node(ui);
    if (n == NODE_NONE) {
        strbuf_addstr(para_add(ps, "", EL_DIM), "the grammar as text; t shows the tree");
        return;
    }
    const struct graph_node *node = &g->nodes[n];
    struct strbuf *t = para_add(ps, "node", EL_NORMAL);
    graph_node_name(g, n, t);
    strbuf_addf(t, " (%s, in rule %s)", node_kind_name(node->kind), ws->grammar->rules[node->rule].name);
    if (node_kind_is_symbolic(node->kind)) {
        struct strbuf *t2 = para_add(ps, "k-paths", node_style(ui->ws, n));
        strbuf_addf(t2, "%" PRIu64 " of the ", workspace_node_covered(ws, n));
        number_add_count(t2, workspace_node_total(ws, n));
        strbuf_addf(t2, " %u-paths starting here are covered", ws->k);
    }
    struct strbuf *smallest = para_add(ps, "smallest", EL_NORMAL);
    strbuf_addf(smallest, "depth %u, ", node->min_depth);
    number_add_count(smallest, node->min_size);
    strbuf_addf(smallest, " tree node%s, ", node->min_size == 1 ? "" : "s");
    number_add_count(smallest, node->min_length);
    strbuf_addf(smallest, " character%s", node->min_length == 1 ? "" : "s");
    if (node->kind == NODE_REF) {
        uint32_t rule = node->expr->u.ref.target;
        struct strbuf *r = para_add(ps, "rule", EL_NORMAL);
        strbuf_addf(r, "%s := ", ws->grammar->rules[rule].name);
        struct text_token *tokens = NULL;
        size_t nt = 0, cap = 0;
        expr_tokens(g, graph_children(g, n)[0], r, &tokens, &nt, &cap);
        strbuf_addch(r, ';');
        free(tokens);
    }
    strbuf_addstr(para_add(ps, "", EL_DIM), "o lists the k-paths starting here");
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The selected run (the runs view of the inputs pane): its outcome, what it
 * printed and every feature it reached.  False when there is none. */
static bool run_detail(struct ui *ui, struct paras *ps)
{
    const struct run_record *rec = runs_record(ui, ui->list[PANE_INPUTS].cursor);
    if (!rec) {
        strbuf_addstr(para_add(ps, "", EL_DIM), "no runs: :run -- COMMAND runs the inputs");
        return false;
    }
    /* what a results file holds, the program's output above all, is shown
     * escaped (base/escape.h): controls as \xHH and \u{HHHH}, not as '?' */
    struct strbuf *t = para_add(ps, "run", strcmp(rec->outcome, "exit:0") ? EL_ERROR : EL_NORMAL);
    escape_add(t, rec->outcome, strlen(rec->outcome));
    strbuf_addstr(t, ", input ");
    escape_add(t, rec->input, strlen(rec->input));
    t = para_add(ps, "stdout", EL_NORMAL);
    strbuf_addf(t, "%" PRIu64 " byte%s", rec->out.size, rec->out.size == 1 ? "" : "s");
    if (rec->out.first_line && *rec->out.first_line) {
        strbuf_addstr(t, ", first line: ");
        escape_add(t, rec->out.first_line, strlen(rec->out.first_line));
    }
    t = para_add(ps, "stderr", EL_NORMAL);
    strbuf_addf(t, "%" PRIu64 " byte%s", rec->err.size, rec->err.size == 1 ? "" : "s");
    if (rec->err.first_line && *rec->err.first_line) {
        strbuf_addstr(t, ", first line: ");
        escape_add(t, rec->err.first_line, strlen(rec->err.first_line));
    }
    t = para_add(ps, "features", EL_NORMAL);
    strbuf_addf(t, "%u:", rec->nfeatures);
    /* by name, as the results file lists them */
    const char **names = xcalloc(rec->nfeatures + 1, sizeof *names);
    for (uint32_t f = 0; f < rec->nfeatures; f++)
        names[f] = ui->runs.features[rec->features[f]];
    qsort(names, rec->nfeatures, sizeof *names, compare_names);
    for (uint32_t f = 0; f < rec->nfeatures; f++) {
        strbuf_addch(t, ' ');
        escape_add(t, names[f], strlen(names[f]));
    }
    free(names);
    return true;
}

static struct strbuf *add_para(void *ctx, const char *label, int style)
{
    return para_add(ctx, label, style);
}

/* The selected input: where it came from, its text in full (escaped), and
 * what it added. */
static void input_detail(struct ui *ui, struct paras *ps)
{
    struct workspace *ws = ui->ws;
    if (ui->inputs_view == INPUTS_FEATURES) {
        features_detail(ui, add_para, ps);
        return;
    }
    if (ui->inputs_view == INPUTS_RUNS && !run_detail(ui, ps))
        return;
    if (!ws->ninputs) {
        strbuf_addstr(para_add(ps, "", EL_DIM), "no inputs yet: s steps, r runs, :samples FILE adds some");
        return;
    }
    size_t i = inputs_selected(ui);
    if (i == SIZE_MAX) {
        strbuf_addstr(para_add(ps, "", EL_DIM), "the input of this run is no longer in the workspace");
        return;
    }
    const struct ws_input *in = &ws->inputs[i];
    struct strbuf *t = para_add(ps, "input", EL_NORMAL);
    strbuf_addf(t, "%zu of %zu", i + 1, ws->ninputs);
    if (in->marked)
        strbuf_addstr(t, ", marked for export");
    t = para_add(ps, "made", EL_NORMAL);
    if (in->sample) {
        strbuf_addstr(t, "sample ");
        escape_add(t, in->sample, strlen(in->sample));
    } else
        strbuf_addstr(t, in->origin ? in->origin : "generated (how is not recorded)");
    strbuf_addf(para_add(ps, "size", EL_NORMAL), "%zu character%s, depth %u", in->len,
                in->len == 1 ? "" : "s", in->depth);
    strbuf_addf(para_add(ps, "new", EL_NORMAL), "%" PRIu64 " %u-path%s not covered by the inputs before it",
                in->nnew, ws->k, in->nnew == 1 ? "" : "s");
    escape_text(in->text, in->len, 4000, para_add(ps, "text", EL_NORMAL));
}

static void build(struct ui *ui, struct paras *ps)
{
    if (ui->detail_of == PANE_GRAPH)
        node_detail(ui, ps);
    else if (ui->detail_of == PANE_INPUTS)
        input_detail(ui, ps);
    else
        kpath_detail(ui, ps);
}

static uint64_t detail_rows(struct ui *ui)
{
    return ui->detail_lines;
}

static void detail_draw(struct ui *ui, struct rect r, bool focused)
{
    (void)focused;
    struct paras ps = {0};
    build(ui, &ps);
    struct list_state *l = &ui->list[PANE_DETAIL];
    l->height = r.h;
    l->first_y = r.y;
    uint64_t rows = paras_draw(ui, &ps, (struct rect){r.x, r.y, r.w, 0}, UINT64_MAX);
    ui->detail_lines = rows;
    /* the pane scrolls as a whole: the cursor is the top row */
    if (rows > (uint64_t)r.h && l->cursor > rows - (uint64_t)r.h)
        l->cursor = rows - (uint64_t)r.h;
    if (rows <= (uint64_t)r.h)
        l->cursor = 0;
    l->top = l->cursor;
    paras_draw(ui, &ps, r, l->top);
    paras_free(&ps);
}

static void detail_summary(struct ui *ui, struct strbuf *out)
{
    strbuf_addstr(out, ui->detail_of == PANE_GRAPH    ? "of the selected node"
                       : ui->detail_of == PANE_INPUTS && ui->inputs_view == INPUTS_RUNS ? "of the selected run"
                       : ui->detail_of == PANE_INPUTS && ui->inputs_view == INPUTS_FEATURES
                           ? "of the selected behaviour feature"
                       : ui->detail_of == PANE_INPUTS ? "of the selected input"
                                                      : "of the selected k-path");
}

const struct pane_ops detail_pane_ops = {
    "Detail", CTX_DETAIL, detail_rows, detail_draw, NULL, NULL, NULL, detail_summary, NULL,
};

const struct job_ops why_job_ops = {.finished = detail_explain_selected};
