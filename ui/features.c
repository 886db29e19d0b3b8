/* features: the behaviour features view of the inputs pane (w) — why did
 * the program do that?
 *
 * It shows what features_job.c learned from the workspace's results file
 * (the runs of :run, ws->results_path): per behaviour feature, what
 * `kpath explain -k K` learns with its default options (K: the workspace's
 * k).  When the view is first shown (or the workspace, k or the results
 * changed) it starts learning, a job (JOB_FEATURES, features_slice) that
 * the view says is under way until it is done or a key stops it.
 *
 * Rows: each feature (failures first, then by how few inputs reach it,
 * then those reached by every input or by none), each trainable one
 * followed by its rules, rendered as kpath explain renders them.  Below the
 * list, the selected rule's conditions one per line, or the feature's
 * counts.  The nodes of the selected rule's k-paths (of every rule of a
 * selected feature) are highlighted in the graph and the k-path list, as a
 * search's matches are; Enter also selects its first required k-path there.
 * T asks the app to generate and run inputs for the selected row
 * (features_target, features_job.c).
 *
 * Pane layer (ui.h, features_view.h): it draws, takes keys and returns a
 * struct pane_request; it never calls the app. */
#include <stdlib.h>
#include <string.h>

#include "explain/explain.h"
#include "features_view.h"
#include "ui.h"
#include "base/xalloc.h"

void features_then_clear(struct features_view *fv)
{
    free(fv->then_feature);
    free(fv->then_message);
    fv->then_feature = fv->then_message = NULL;
}

void features_view_clear(struct features_view *fv)
{
    explain_reader_abort(fv->reader);
    fv->reader = NULL;
    explain_inputs_free(&fv->in);
    kpath_features_free(&fv->kf);
    for (size_t i = 0; i < fv->next; i++)
        explain_result_free(&fv->res[i]);
    free(fv->res);
    fv->res = NULL;
    fv->nres = fv->next = 0;
    results_free(&fv->results);
    free(fv->results_path);
    free(fv->message);
    free(fv->all_rows);
    free(fv->rows);
    free(fv->highlight);
    diag_list_free(&fv->diags);
    fv->results_path = fv->message = NULL;
    fv->all_rows = NULL;
    fv->rows = NULL;
    fv->highlight = NULL;
    fv->nrows = 0;
    memset(&fv->kf, 0, sizeof fv->kf);
    memset(&fv->in, 0, sizeof fv->in);
    memset(fv->key, 0, sizeof fv->key);
}

void features_fail(struct features_view *fv, const char *text)
{
    fv->state = FV_FAILED;
    features_then_clear(fv);
    free(fv->message);
    fv->message = xstrdup(text);
}

/* Start learning from the workspace's results file (a job). */
static void view_start(struct ui *ui)
{
    struct features_view *fv = ui->features;
    struct workspace *ws = ui->ws;
    features_view_clear(fv);
    fv->key[0] = (uint64_t)(uintptr_t)ws;
    fv->key[1] = ws->k;
    fv->key[2] = ui->runs_generation;
    fv->key[3] = (uint64_t)(uintptr_t)ws->graph;
    fv->highlight_row = UINT64_MAX;
    results_init(&fv->results);
    if (!ws->results_path) {
        features_fail(fv, "no runs yet: :run -- COMMAND runs the inputs through a program");
        return;
    }
    struct diag_list d = DIAG_LIST_INIT;
    if (!results_load(ws->results_path, &fv->results, &d)) {
        struct strbuf sb = STRBUF_INIT;
        for (size_t i = 0; i < d.len && !sb.len; i++)
            if (d.items[i].severity == DIAG_ERROR)
                diag_format(&d.items[i], &sb);
        features_fail(fv, strbuf_str(&sb));
        strbuf_free(&sb);
        diag_list_free(&d);
        return;
    }
    diag_list_free(&d);
    fv->results_path = xstrdup(ws->results_path);
    explain_options_default(&fv->o);
    fv->o.k = ws->k;
    fv->reader = explain_train_begin(ws->graph, &fv->results, fv->results_path, &fv->o, &fv->kf,
                                     &fv->in);
    fv->state = FV_READING;
    if (!ui->job) {
        ui->job = JOB_FEATURES;
        ui->job_started = ui_now();
    }
}

/* Is the view's learning current?  Starts it when it is not. */
static struct features_view *view_current(struct ui *ui)
{
    if (!ui->features)
        ui->features = xcalloc(1, sizeof *ui->features);
    struct features_view *fv = ui->features;
    uint64_t key[4] = {(uint64_t)(uintptr_t)ui->ws, ui->ws->k, ui->runs_generation,
                       (uint64_t)(uintptr_t)ui->ws->graph};
    if (memcmp(key, fv->key, sizeof key) != 0)
        view_start(ui);
    else if ((fv->state == FV_READING || fv->state == FV_LEARNING) && !ui->job) {
        ui->job = JOB_FEATURES; /* another job held the slices: go on now */
        ui->job_started = ui_now();
    }
    return fv;
}

bool features_is_failure(const char *name)
{
    if (strncmp(name, "exit:", 5) == 0)
        return strcmp(name, "exit:0") != 0;
    return strncmp(name, "signal:", 7) == 0 || strcmp(name, "timeout") == 0;
}

/* ---- the view ---------------------------------------------------------------------------- */

uint64_t features_rows(struct ui *ui)
{
    struct features_view *fv = view_current(ui);
    return fv->state == FV_DONE ? fv->nrows : 0;
}

void features_summary(struct ui *ui, struct strbuf *out)
{
    struct features_view *fv = view_current(ui);
    if (fv->state != FV_DONE) {
        strbuf_addstr(out, "behaviour features");
        return;
    }
    size_t trainable = 0;
    for (size_t i = 0; i < fv->nres; i++)
        trainable += fv->res[i].kind == EXPLAIN_TRAINABLE;
    strbuf_addf(out, "behaviour features: %zu, %zu trainable, k-paths 1..%u", fv->nres, trainable,
                fv->o.k);
}


static void row_text(struct ui *ui, const struct fv_row *row, struct strbuf *out)
{
    const struct features_view *fv = ui->features;
    const struct explain_result *res = &fv->res[row->result];
    if (row->rule == UINT32_MAX) {
        strbuf_addf(out, "%-*s %3u/%-3u ", fv->name_width, res->name, res->npos,
                    res->npos + res->nneg);
        if (res->kind == EXPLAIN_ALWAYS)
            strbuf_addstr(out, "every input");
        else if (res->kind == EXPLAIN_NEVER)
            strbuf_addstr(out, "no input");
        else
            strbuf_addf(out, "%zu rule%s", res->nrules, res->nrules == 1 ? "" : "s");
        return;
    }
    const struct explain_rule *er = &res->rules[row->rule];
    strbuf_addf(out, "  %s  ", glyph(ui->ascii, "\xe2\x87\x90", "<="));
    explain_render_rule(&fv->kf, &er->rule, out);
    strbuf_addstr(out, "   ");
    explain_render_support(er, &fv->o, out);
}

void features_row_text(struct ui *ui, uint64_t row, struct strbuf *out)
{
    struct features_view *fv = view_current(ui);
    if (fv->state == FV_DONE && row < fv->nrows)
        row_text(ui, &fv->rows[row], out);
}

/* The selected row, or NULL. */
const struct fv_row *features_selected_row(struct ui *ui)
{
    struct features_view *fv = ui->features;
    if (!fv || fv->state != FV_DONE || !fv->nrows || ui->inputs_view != INPUTS_FEATURES)
        return NULL;
    list_clamp(&ui->list[PANE_INPUTS], fv->nrows);
    return &fv->rows[ui->list[PANE_INPUTS].cursor];
}

bool features_node_highlighted(const struct ui *ui, uint32_t n)
{
    struct features_view *fv = ui->features;
    if (!fv || fv->state != FV_DONE || ui->inputs_view != INPUTS_FEATURES || !fv->nrows ||
        fv->key[3] != (uint64_t)(uintptr_t)ui->ws->graph || n >= ui->ws->graph->nnodes)
        return false;
    uint64_t cursor = ui->list[PANE_INPUTS].cursor;
    if (cursor >= fv->nrows)
        return false;
    if (fv->highlight_row != cursor || !fv->highlight) {
        free(fv->highlight);
        fv->highlight = xcalloc(ui->ws->graph->nnodes + 1, sizeof *fv->highlight);
        fv->highlight_row = cursor;
        const struct fv_row *row = &fv->rows[cursor];
        const struct explain_result *res = &fv->res[row->result];
        for (size_t r = 0; r < res->nrules; r++) {
            if (row->rule != UINT32_MAX && row->rule != r)
                continue;
            const struct dt_rule *dr = &res->rules[r].rule;
            for (uint32_t c = 0; c < dr->nconds; c++) {
                /* a selected feature shows what its rules require */
                if (row->rule == UINT32_MAX && !dr->conds[c].present)
                    continue;
                uint32_t f = dr->conds[c].feature;
                for (uint32_t i = 0; i < fv->kf.len[f]; i++)
                    fv->highlight[kpath_feature_path(&fv->kf, f)[i]] = true;
            }
        }
    }
    return fv->highlight[n];
}

/* Here, above the views' highlights, so that the graph and the k-path
 * list ask one function and call neither each other nor a view. */
bool node_highlighted(const struct ui *ui, uint32_t n)
{
    return (ui->search_highlight && ui->search_node_match && ui->search_node_match[n]) ||
           features_node_highlighted(ui, n);
}

/* Below the list: what the selected row says in full. */
static void draw_detail(struct ui *ui, struct rect r, int y, const struct fv_row *row)
{
    struct screen *s = &ui->scr;
    struct features_view *fv = ui->features;
    const struct explain_result *res = &fv->res[row->result];
    struct strbuf t = STRBUF_INIT;
    screen_fill(s, r.x, y, r.w, ui->ascii ? '-' : 0x2500, EL_BORDER);
    if (row->rule == UINT32_MAX)
        strbuf_addf(&t, " %s: reached by %u of %u inputs ", res->name, res->npos,
                    res->npos + res->nneg);
    else
        strbuf_addf(&t, " %s, rule %u of %zu ", res->name, row->rule + 1, res->nrules);
    screen_puts(s, r.x + 1, y++, r.w - 1, strbuf_str(&t), EL_DIM);
    int bottom = r.y + r.h;
    if (row->rule == UINT32_MAX) {
        strbuf_reset(&t);
        if (res->kind == EXPLAIN_TRAINABLE)
            strbuf_addf(&t, "tree of %u nodes on %u inputs; %zu rule%s predict%s it; T runs new "
                            "inputs for it", res->tree.nnodes, res->nsample, res->nrules,
                        res->nrules == 1 ? "" : "s", res->nrules == 1 ? "s" : "");
        else
            strbuf_addf(&t, "reached by %s input: not trainable, nothing to learn",
                        res->kind == EXPLAIN_ALWAYS ? "every" : "no");
        if (y < bottom)
            screen_puts(s, r.x + 1, y++, r.w - 1, strbuf_str(&t), EL_NORMAL);
        if (fv->in.skipped && y < bottom) {
            strbuf_reset(&t);
            strbuf_addf(&t, "%u input%s of the runs skipped (not readable, changed since the run, or not parsed: M)",
                        fv->in.skipped, fv->in.skipped == 1 ? "" : "s");
            screen_puts(s, r.x + 1, y++, r.w - 1, strbuf_str(&t), EL_DIM);
        }
        strbuf_free(&t);
        return;
    }
    const struct explain_rule *er = &res->rules[row->rule];
    for (uint32_t c = 0; c < er->rule.nconds && y < bottom; c++) {
        const struct dt_condition *cond = &er->rule.conds[c];
        strbuf_reset(&t);
        strbuf_addstr(&t, cond->present ? "requires   " : "prohibits  ");
        explain_render_pattern(&fv->kf, cond->feature, &t);
        strbuf_addstr(&t, "   ");
        explain_render_path(&fv->kf, cond->feature, &t);
        screen_puts(s, r.x + 1, y++, r.w - 1, strbuf_str(&t),
                    cond->present ? EL_NORMAL : EL_DIM);
    }
    if (y < bottom) {
        strbuf_reset(&t);
        explain_render_support(er, &fv->o, &t);
        strbuf_addstr(&t, "; Enter selects it, T runs new inputs");
        screen_puts(s, r.x + 1, y, r.w - 1, strbuf_str(&t), EL_DIM);
    }
    strbuf_free(&t);
}

void features_draw(struct ui *ui, struct rect r, bool focused)
{
    struct screen *s = &ui->scr;
    struct features_view *fv = view_current(ui);
    struct list_state *l = &ui->list[PANE_INPUTS];
    if (fv->state != FV_DONE) {
        l->height = 0;
        const char *text = fv->message;
        if (fv->state == FV_STOPPED)
            text = "learning stopped by a key: w twice learns again";
        else if (fv->state != FV_FAILED)
            text = "learning which k-paths lead to each behaviour feature...";
        screen_puts(s, r.x + 1, r.y + 1, r.w - 1, text ? text : "", EL_DIM);
        return;
    }
    int list_h = fv->nrows ? (r.h - 1) * 3 / 5 : r.h - 1;
    if (list_h < 2)
        list_h = r.h > 3 ? 2 : r.h - 1;
    struct strbuf t = STRBUF_INIT;
    strbuf_addf(&t, " %-*s reached  rules", fv->name_width, "feature");
    screen_puts(s, r.x, r.y, r.w, strbuf_str(&t), EL_DIM);
    l->height = list_h;
    l->first_y = r.y + 1;
    list_scroll_into_view(l, fv->nrows);
    if (!fv->nrows)
        screen_puts(s, r.x + 1, r.y + 1, r.w - 1, "the runs recorded no behaviour feature", EL_DIM);
    for (int y = 0; y < list_h && l->top + (uint64_t)y < fv->nrows; y++) {
        uint64_t i = l->top + (uint64_t)y;
        const struct fv_row *row = &fv->rows[i];
        const struct explain_result *res = &fv->res[row->result];
        int yy = r.y + 1 + y;
        strbuf_reset(&t);
        strbuf_addch(&t, ' ');
        row_text(ui, row, &t);
        int style = EL_NORMAL;
        if (row->rule == UINT32_MAX)
            style = features_is_failure(res->name) ? EL_ERROR
                    : res->kind == EXPLAIN_TRAINABLE ? EL_HEADER : EL_DIM;
        screen_puts(s, r.x, yy, r.w, strbuf_str(&t), style);
        if (i == l->cursor)
            draw_selected(&ui->scr, r, yy, focused);
    }
    strbuf_free(&t);
    int y = r.y + 1 + list_h;
    if (fv->nrows && y < r.y + r.h)
        draw_detail(ui, r, y, &fv->rows[l->cursor]);
}

void features_detail(struct ui *ui, detail_para_fn add, void *ctx)
{
    struct features_view *fv = ui->features;
    const struct fv_row *row = features_selected_row(ui);
    if (!row) {
        strbuf_addstr(add(ctx, "", EL_DIM), fv && fv->state == FV_FAILED && fv->message
                                                ? fv->message
                                                : "no behaviour features learned yet");
        return;
    }
    const struct explain_result *res = &fv->res[row->result];
    struct strbuf *t = add(ctx, "feature", features_is_failure(res->name) ? EL_ERROR : EL_NORMAL);
    strbuf_addf(t, "%s, reached by %u of %u inputs", res->name, res->npos, res->npos + res->nneg);
    if (fv->in.skipped)
        strbuf_addf(t, " (%u more not parsed)", fv->in.skipped);
    t = add(ctx, "learned", EL_NORMAL);
    if (res->kind != EXPLAIN_TRAINABLE)
        strbuf_addf(t, "nothing: reached by %s input, not trainable",
                    res->kind == EXPLAIN_ALWAYS ? "every" : "no");
    else
        strbuf_addf(t, "a tree of %u nodes (%s, max depth %u) on %u inputs (%s), over the "
                       "k-paths of length 1..%u (kpath explain -k %u)",
                    res->tree.nnodes, dt_criterion_name(fv->o.tree.criterion),
                    fv->o.tree.max_depth, res->nsample, fv->o.balance ? "class-balanced" : "all",
                    fv->o.k, fv->o.k);
    for (size_t r = 0; r < res->nrules; r++) {
        if (row->rule != UINT32_MAX && row->rule != r)
            continue;
        const struct explain_rule *er = &res->rules[r];
        t = add(ctx, "rule", EL_HEADER);
        strbuf_addf(t, "%zu of %zu: %s  %s  ", r + 1, res->nrules, res->name,
                    glyph(ui->ascii, "\xe2\x87\x90", "<="));
        explain_render_rule(&fv->kf, &er->rule, t);
        strbuf_addstr(t, "   ");
        explain_render_support(er, &fv->o, t);
        if (explain_rule_weak(er, &fv->o)) {
            t = add(ctx, "weak", EL_ERROR);
            explain_render_weakness(er, res->name, &fv->o, t);
            strbuf_addstr(t, ": too little evidence to trust it");
        }
        if (row->rule == UINT32_MAX)
            continue;
        for (uint32_t c = 0; c < er->rule.nconds; c++) {
            const struct dt_condition *cond = &er->rule.conds[c];
            t = add(ctx, cond->present ? "contains" : "lacks", EL_NORMAL);
            explain_render_pattern(&fv->kf, cond->feature, t);
            strbuf_addstr(t, "  =  ");
            explain_render_path(&fv->kf, cond->feature, t);
        }
    }
    if (res->nrules) {
        /* open_rule falls back to a prohibited k-path when none is required */
        const struct dt_rule *dr = &res->rules[row->rule == UINT32_MAX ? 0 : row->rule].rule;
        bool any_required = false;
        for (uint32_t c = 0; c < dr->nconds; c++)
            any_required |= dr->conds[c].present;
        strbuf_addf(add(ctx, "", EL_DIM), "Enter selects %s first %s k-path in the "
                                          "k-path list and graph; T runs %u new inputs for it",
                    row->rule == UINT32_MAX ? "the first rule's" : "the rule's",
                    any_required || !dr->nconds ? "required" : "prohibited",
                    FEATURES_TARGET_COUNT);
    }
}

/* Enter: the first required k-path of the selected rule (of the feature's
 * first rule) selected in the k-path list and the graph. */
static struct pane_request open_rule(struct ui *ui, const struct fv_row *row)
{
    struct features_view *fv = ui->features;
    struct workspace *ws = ui->ws;
    const struct explain_result *res = &fv->res[row->result];
    if (!res->nrules) {
        return req_message("%s has no rule: nothing to select", res->name);
    }
    const struct dt_rule *dr = &res->rules[row->rule == UINT32_MAX ? 0 : row->rule].rule;
    uint32_t f = UINT32_MAX;
    for (uint32_t c = 0; c < dr->nconds && f == UINT32_MAX; c++)
        if (dr->conds[c].present)
            f = dr->conds[c].feature;
    for (uint32_t c = 0; c < dr->nconds && f == UINT32_MAX; c++)
        f = dr->conds[c].feature;
    if (f == UINT32_MAX) {
        return req_message("the rule has no condition: every input matches it");
    }
    const uint32_t *path = kpath_feature_path(&fv->kf, f);
    uint32_t len = fv->kf.len[f];
    struct strbuf name = STRBUF_INIT, listed = STRBUF_INIT, unlisted = STRBUF_INIT;
    explain_render_path(&fv->kf, f, &name);
    strbuf_addf(&listed, "selected in the k-paths list and the graph: %s", strbuf_str(&name));
    strbuf_addf(&unlisted, "selected in the graph: %s (the k-path list shows k=%u)",
                strbuf_str(&name), ws->k);
    struct pane_request said =
        req_select_path(path, len, strbuf_str(&listed), strbuf_str(&unlisted));
    strbuf_free(&listed);
    strbuf_free(&unlisted);
    strbuf_free(&name);
    return said;
}
/* The keys the view takes (features_action, and w, v, b which leave it:
 * pane_inputs.c); m, d and the other marking keys say they do not apply. */
static const struct footer_key keys[] = {
    {ACT_FEATURE_OPEN, "select"}, {ACT_TARGET, "target"}, {ACT_INPUTS_FEATURES, "inputs"},
    {ACT_INPUTS_PLOT, "plot"}, {ACT_INPUTS_RUNS, "runs"}, {ACT_NONE, NULL},
};
const struct view_keys features_view_keys = {"5 Inputs: behaviour features (w)", keys};

struct pane_request features_action(struct ui *ui, enum action a)
{
    const struct fv_row *row = features_selected_row(ui);
    switch (a) {
    case ACT_FEATURE_OPEN:
        return row ? open_rule(ui, row) : REQ_HANDLED;
    case ACT_TARGET:
        /* generating and running inputs is the app's (features_target) */
        return row ? req_action(ACT_TARGET) : REQ_HANDLED;
    case ACT_MARK:
    case ACT_MARK_ALL:
    case ACT_MARK_INVERT:
    case ACT_MARK_REDUCED:
    case ACT_DELETE_INPUT:
        return req_error("the rows are behaviour features: inputs are marked and removed in the "
                         "list of inputs (w shows it)");
    case ACT_PREVIEW_DOWN:
    case ACT_PREVIEW_UP:
        return REQ_HANDLED;
    default:
        return REQ_NONE_OF_MINE;
    }
}
