/* features: the behaviour features view of the inputs pane (w) — why did
 * the program do that?
 *
 * It reads the workspace's results file (the runs of :run, ws->results_path)
 * and learns, per behaviour feature, what `kpath explain -k K` learns with
 * its default options (K: the workspace's k): explain.h reads and parses
 * the inputs of the runs (their k-path features, 1..K) and learns a
 * decision tree per trainable feature.  That is a job (JOB_FEATURES): a few
 * inputs, then one feature, per slice, so the keys stay responsive; any key
 * stops it, and the view says so until w is pressed again.
 *
 * Rows: each feature (failures first, then by how few inputs reach it,
 * then those reached by every input or by none), each trainable one
 * followed by its rules, rendered as kpath explain renders them.  Below the
 * list, the selected rule's conditions one per line, or the feature's
 * counts.  The nodes of the selected rule's k-paths (of every rule of a
 * selected feature) are highlighted in the graph and the k-path list, as a
 * search's matches are; Enter also selects its first required k-path there.
 * T generates inputs for the selected rule (or round-robin for every rule of
 * the selected feature, as `kpath target -n 10` does) with target.h, adds
 * them to the workspace and runs them (runs_append: only them, as the last
 * :run of the session did, their records appended to the results file);
 * when that job ends (features_ran) the view learns again, selects the
 * same row and says how many of the new inputs reach the feature.
 *
 * Ownership: the view (ui->features) owns everything it learned; it borrows
 * the workspace's graph, so it is dropped when the workspace or k changes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "json.h"
#include "target.h"
#include "app.h"
#include "xalloc.h"

#define FEATURES_TARGET_COUNT 10u /* as kpath target's default -n */

enum fv_state { FV_READING, FV_LEARNING, FV_DONE, FV_STOPPED, FV_FAILED };

struct fv_row {
    uint32_t result;  /* index into res */
    uint32_t rule;    /* UINT32_MAX: the feature's own row */
};

struct features_view {
    uint64_t key[4];               /* ws, k, runs_generation, graph: what it was learned from */
    enum fv_state state;
    char *message;                 /* owned; FV_FAILED: why */
    struct results results;
    char *results_path;            /* owned */
    struct explain_options o;
    struct kpath_features kf;
    struct explain_inputs in;
    struct explain_reader *reader; /* FV_READING */
    struct diag_list diags;        /* the inputs skipped */
    uint32_t *all_rows;            /* owned; 0 .. nrows-1 */
    struct explain_result *res;    /* owned; per feature of the results file */
    size_t nres, next;             /* FV_LEARNING: the next feature to learn */
    struct fv_row *rows;           /* owned; FV_DONE */
    size_t nrows;
    int name_width;                /* the feature names' column */
    struct list_state list, other; /* this view's list state; the inputs' while shown */
    bool *highlight;               /* owned; per graph node */
    uint64_t highlight_row;        /* the row highlight is of (UINT64_MAX: none yet) */
    /* T's runs: once learned again, the row to select and what to say
     * (kept across view_clear; dropped when learning stops or fails) */
    char *then_feature;            /* owned; NULL: nothing pending */
    uint32_t then_rule;            /* as fv_row.rule */
    char *then_message;            /* owned */
};

static void then_clear(struct features_view *fv)
{
    free(fv->then_feature);
    free(fv->then_message);
    fv->then_feature = fv->then_message = NULL;
}

static void view_clear(struct features_view *fv)
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

void features_free(struct ui *ui)
{
    if (!ui->features)
        return;
    view_clear(ui->features);
    then_clear(ui->features);
    free(ui->features);
    ui->features = NULL;
}

static void fail(struct features_view *fv, const char *text)
{
    fv->state = FV_FAILED;
    then_clear(fv);
    free(fv->message);
    fv->message = xstrdup(text);
}

/* Start learning from the workspace's results file (a job). */
static void view_start(struct ui *ui)
{
    struct features_view *fv = ui->features;
    struct workspace *ws = ui->ws;
    view_clear(fv);
    fv->key[0] = (uint64_t)(uintptr_t)ws;
    fv->key[1] = ws->k;
    fv->key[2] = ui->runs_generation;
    fv->key[3] = (uint64_t)(uintptr_t)ws->graph;
    fv->highlight_row = UINT64_MAX;
    results_init(&fv->results);
    if (!ws->results_path) {
        fail(fv, "no runs yet: :run -- COMMAND runs the inputs through a program");
        return;
    }
    struct diag_list d = DIAG_LIST_INIT;
    if (!results_load(ws->results_path, &fv->results, &d)) {
        struct strbuf sb = STRBUF_INIT;
        for (size_t i = 0; i < d.len && !sb.len; i++)
            if (d.items[i].severity == DIAG_ERROR)
                diag_format(&d.items[i], &sb);
        fail(fv, strbuf_str(&sb));
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

static bool is_failure(const char *name)
{
    if (strncmp(name, "exit:", 5) == 0)
        return strcmp(name, "exit:0") != 0;
    return strncmp(name, "signal:", 7) == 0 || strcmp(name, "timeout") == 0;
}

static const struct features_view *sorting;

/* Failures first; then trainable features by how few inputs reach them;
 * then those every input reaches, then those none does; by name within. */
static int compare_results(const void *pa, const void *pb)
{
    const struct explain_result *a = &sorting->res[*(const uint32_t *)pa],
                                *b = &sorting->res[*(const uint32_t *)pb];
    bool fa = is_failure(a->name), fb = is_failure(b->name);
    if (fa != fb)
        return fa ? -1 : 1;
    if (!fa) {
        if (a->kind != b->kind)
            return a->kind < b->kind ? -1 : 1; /* trainable, always, never */
        if (a->kind == EXPLAIN_TRAINABLE && a->npos != b->npos)
            return a->npos < b->npos ? -1 : 1;
    }
    return strcmp(a->name, b->name);
}

static void build_rows(struct features_view *fv)
{
    uint32_t *order = xcalloc(fv->nres + 1, sizeof *order);
    size_t n = 0;
    for (size_t i = 0; i < fv->nres; i++) {
        order[i] = (uint32_t)i;
        n += 1 + fv->res[i].nrules;
    }
    sorting = fv;
    qsort(order, fv->nres, sizeof *order, compare_results);
    sorting = NULL;
    fv->rows = xcalloc(n + 1, sizeof *fv->rows);
    fv->name_width = 0;
    for (size_t i = 0; i < fv->nres; i++) {
        int w = (int)strlen(fv->res[i].name);
        fv->name_width = w > fv->name_width ? (w > 24 ? 24 : w) : fv->name_width;
    }
    for (size_t i = 0; i < fv->nres; i++) {
        fv->rows[fv->nrows++] = (struct fv_row){order[i], UINT32_MAX};
        for (size_t r = 0; r < fv->res[order[i]].nrules; r++)
            fv->rows[fv->nrows++] = (struct fv_row){order[i], (uint32_t)r};
    }
    free(order);
}

/* The inputs that were skipped, each in the message log (M). */
static void log_skipped(struct ui *ui, struct features_view *fv)
{
    struct strbuf line = STRBUF_INIT;
    for (size_t i = 0; i < fv->diags.len; i++) {
        strbuf_reset(&line);
        diag_format(&fv->diags.items[i], &line);
        ui_log(ui, false, strbuf_str(&line));
    }
    strbuf_free(&line);
    diag_list_free(&fv->diags);
}

/* After T's runs: the feature (rule) T ran for selected again, and how
 * many of its new inputs reach it said. */
static void select_again(struct ui *ui, struct features_view *fv)
{
    if (!fv->then_feature)
        return;
    size_t at = SIZE_MAX;
    for (size_t i = 0; i < fv->nrows; i++) {
        const struct fv_row *row = &fv->rows[i];
        if (strcmp(fv->res[row->result].name, fv->then_feature) != 0)
            continue;
        if (at == SIZE_MAX)
            at = i; /* the feature's row, when its rule is no longer there */
        if (row->rule == fv->then_rule) {
            at = i;
            break;
        }
    }
    if (at != SIZE_MAX) {
        struct list_state *l = ui->inputs_features ? &ui->list[PANE_INPUTS] : &fv->list;
        l->cursor = at;
    }
    ui_message(ui, "%s", fv->then_message);
    then_clear(fv);
}

bool features_slice(struct ui *ui, double deadline)
{
    struct features_view *fv = ui->features;
    if (!fv)
        return false;
    while (fv->state == FV_READING) {
        if (!explain_reader_step(fv->reader, 1, &fv->diags)) {
            explain_train_finish(fv->reader);
            fv->reader = NULL;
            uint32_t n = fv->in.data.nrows;
            if (n == 0) {
                log_skipped(ui, fv);
                explain_inputs_free(&fv->in);
                kpath_features_free(&fv->kf);
                memset(&fv->kf, 0, sizeof fv->kf);
                memset(&fv->in, 0, sizeof fv->in);
                fail(fv, fv->results.nrecords ? "no input of the runs could be parsed: nothing "
                                                "to learn from (M lists why)"
                                              : "no runs recorded in the results file");
                return false;
            }
            fv->all_rows = xcalloc(n + 1, sizeof *fv->all_rows);
            for (uint32_t i = 0; i < n; i++)
                fv->all_rows[i] = i;
            fv->nres = fv->results.nfeatures;
            fv->res = xcalloc(fv->nres + 1, sizeof *fv->res);
            fv->state = FV_LEARNING;
        }
        if (ui_now() >= deadline)
            return true;
    }
    while (fv->state == FV_LEARNING) {
        if (fv->next == fv->nres) {
            log_skipped(ui, fv);
            build_rows(fv);
            fv->state = FV_DONE;
            fv->list.cursor = fv->list.top = 0;
            select_again(ui, fv);
            return false;
        }
        const char *name = fv->results.features[fv->next];
        bool *labels = explain_labels(&fv->in, &fv->results, name);
        explain_learn(&fv->in, labels, fv->all_rows, fv->in.data.nrows, name, &fv->o,
                      &fv->res[fv->next]);
        free(labels);
        fv->next++;
        if (ui_now() >= deadline)
            return true;
    }
    return false;
}

void features_stop(struct ui *ui)
{
    struct features_view *fv = ui->features;
    if (!fv || (fv->state != FV_READING && fv->state != FV_LEARNING))
        return;
    explain_reader_abort(fv->reader);
    fv->reader = NULL;
    explain_inputs_free(&fv->in);
    kpath_features_free(&fv->kf);
    memset(&fv->kf, 0, sizeof fv->kf);
    memset(&fv->in, 0, sizeof fv->in);
    for (size_t i = 0; i < fv->next; i++)
        explain_result_free(&fv->res[i]);
    free(fv->res);
    fv->res = NULL;
    fv->nres = fv->next = 0;
    fv->state = FV_STOPPED;
    if (fv->then_message)
        ui_message(ui, "%s; learning stopped: w twice learns again", fv->then_message);
    else
        ui_message(ui, "learning stopped: w twice learns again");
    then_clear(fv);
}

void features_status(struct ui *ui, struct strbuf *out)
{
    struct features_view *fv = ui->features;
    size_t done = 0, total = 0;
    if (fv->reader)
        explain_reader_progress(fv->reader, &done, &total);
    if (fv->state == FV_READING)
        strbuf_addf(out, " learning: reading the inputs of the runs, %zu of %zu (any key stops) ",
                    done, total);
    else
        strbuf_addf(out, " learning: decision tree %zu of %zu (any key stops) ", fv->next + 1,
                    fv->nres);
}

/* ---- the view ---------------------------------------------------------------------------- */

void features_toggle(struct ui *ui, bool on)
{
    if (on == ui->inputs_features)
        return;
    if (!ui->features)
        ui->features = xcalloc(1, sizeof *ui->features);
    struct features_view *fv = ui->features;
    if (on) {
        runs_toggle(ui, false);
        ui->inputs_plot = false;
        fv->other = ui->list[PANE_INPUTS];
        ui->list[PANE_INPUTS] = fv->list;
        if (fv->state == FV_STOPPED)
            memset(fv->key, 0, sizeof fv->key); /* learn again */
    } else {
        fv->list = ui->list[PANE_INPUTS];
        ui->list[PANE_INPUTS] = fv->other;
    }
    ui->inputs_features = on;
}

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

/* "(4 inputs, precision 1.00)", as kpath explain writes it. */
static void add_support(struct strbuf *out, const struct explain_rule *er)
{
    strbuf_addf(out, "(%u input%s, precision ", er->support, er->support == 1 ? "" : "s");
    if (er->support)
        strbuf_addf(out, "%.2f)", (double)er->hits / er->support);
    else
        strbuf_addstr(out, "-)");
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
    add_support(out, er);
}

void features_row_text(struct ui *ui, uint64_t row, struct strbuf *out)
{
    struct features_view *fv = view_current(ui);
    if (fv->state == FV_DONE && row < fv->nrows)
        row_text(ui, &fv->rows[row], out);
}

/* The selected row, or NULL. */
static const struct fv_row *selected_row(struct ui *ui)
{
    struct features_view *fv = ui->features;
    if (!fv || fv->state != FV_DONE || !fv->nrows || !ui->inputs_features)
        return NULL;
    list_clamp(&ui->list[PANE_INPUTS], fv->nrows);
    return &fv->rows[ui->list[PANE_INPUTS].cursor];
}

bool features_node_highlighted(const struct ui *ui, uint32_t n)
{
    struct features_view *fv = ui->features;
    if (!fv || fv->state != FV_DONE || !ui->inputs_features || !fv->nrows ||
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
        add_support(&t, er);
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
            style = is_failure(res->name) ? EL_ERROR
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
    const struct fv_row *row = selected_row(ui);
    if (!row) {
        strbuf_addstr(add(ctx, "", EL_DIM), fv && fv->state == FV_FAILED && fv->message
                                                ? fv->message
                                                : "no behaviour features learned yet");
        return;
    }
    const struct explain_result *res = &fv->res[row->result];
    struct strbuf *t = add(ctx, "feature", is_failure(res->name) ? EL_ERROR : EL_NORMAL);
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
        add_support(t, er);
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
    if (res->nrules)
        strbuf_addf(add(ctx, "", EL_DIM), "Enter selects %s first required k-path in the "
                                          "k-path list and graph; T runs %u new inputs for it",
                    row->rule == UINT32_MAX ? "the first rule's" : "the rule's",
                    FEATURES_TARGET_COUNT);
}

/* Enter: the first required k-path of the selected rule (of the feature's
 * first rule) selected in the k-path list and the graph. */
static void open_rule(struct ui *ui, const struct fv_row *row)
{
    struct features_view *fv = ui->features;
    struct workspace *ws = ui->ws;
    const struct explain_result *res = &fv->res[row->result];
    if (!res->nrules) {
        ui_message(ui, "%s has no rule: nothing to select", res->name);
        return;
    }
    const struct dt_rule *dr = &res->rules[row->rule == UINT32_MAX ? 0 : row->rule].rule;
    uint32_t f = UINT32_MAX;
    for (uint32_t c = 0; c < dr->nconds && f == UINT32_MAX; c++)
        if (dr->conds[c].present)
            f = dr->conds[c].feature;
    for (uint32_t c = 0; c < dr->nconds && f == UINT32_MAX; c++)
        f = dr->conds[c].feature;
    if (f == UINT32_MAX) {
        ui_message(ui, "the rule has no condition: every input matches it");
        return;
    }
    const uint32_t *path = kpath_feature_path(&fv->kf, f);
    uint32_t len = fv->kf.len[f];
    graph_reveal(ui, path[len - 1]);
    struct strbuf name = STRBUF_INIT;
    explain_render_path(&fv->kf, f, &name);
    uint64_t rank;
    if (len == ws->k && workspace_listable(ws) && kpath_rank(&ws->space, path, &rank)) {
        if (workspace_position(ws, ui->filter, rank) == UINT64_MAX) {
            ui->filter = WS_ALL;
            kpaths_narrow(ui, NULL);
        }
        uint64_t pos = kpaths_row_from(ui, rank);
        if (pos < kpaths_count(ui) && kpaths_rank(ui, pos) == rank) {
            ui->list[PANE_KPATHS].cursor = pos;
            list_scroll_into_view(&ui->list[PANE_KPATHS], kpaths_count(ui));
        }
        ui_message(ui, "selected in the k-paths list and the graph: %s", strbuf_str(&name));
    } else {
        ui_message(ui, "selected in the graph: %s (the k-path list shows k=%u)",
                   strbuf_str(&name), ws->k);
    }
    strbuf_free(&name);
}

/* One rule's generator, as kpath target makes it (seed + rule). */
static struct target_gen *rule_generator(struct ui *ui, const struct explain_result *res,
                                         uint32_t r, struct diag_list *conflicts)
{
    struct features_view *fv = ui->features;
    const struct dt_rule *dr = &res->rules[r].rule;
    struct target_path *req = xcalloc(dr->nconds + 1, sizeof *req),
                       *pro = xcalloc(dr->nconds + 1, sizeof *pro);
    size_t nreq = 0, npro = 0;
    for (uint32_t c = 0; c < dr->nconds; c++) {
        uint32_t f = dr->conds[c].feature;
        struct target_path p = {fv->kf.len[f], kpath_feature_path(&fv->kf, f)};
        if (dr->conds[c].present)
            req[nreq++] = p;
        else
            pro[npro++] = p;
    }
    struct target_constraint tc = {req, nreq, pro, npro};
    struct target_options to;
    target_options_default(&to);
    to.seed = fv->o.seed + r;
    struct target_gen *g = target_new(ui->ws->graph, &tc, &to, conflicts);
    free(req);
    free(pro);
    return g;
}

/* T: inputs for the selected rule, or round-robin for every rule of the
 * selected feature (kpath target's order), added to the workspace. */
static void generate(struct ui *ui, const struct fv_row *row)
{
    struct features_view *fv = ui->features;
    struct workspace *ws = ui->ws;
    const struct explain_result *res = &fv->res[row->result];
    if (res->kind != EXPLAIN_TRAINABLE || !res->nrules) {
        ui_error(ui, "%s: no rule tells what leads there (reached by %s input)", res->name,
                 res->kind == EXPLAIN_ALWAYS ? "every" : res->kind == EXPLAIN_NEVER ? "no" : "some");
        return;
    }
    size_t first = row->rule == UINT32_MAX ? 0 : row->rule;
    size_t last = row->rule == UINT32_MAX ? res->nrules : row->rule + 1;
    size_t n = last - first, live = 0;
    struct target_gen **gens = xcalloc(n, sizeof *gens);
    struct diag_list conflicts = DIAG_LIST_INIT;
    for (size_t i = 0; i < n; i++) {
        gens[i] = rule_generator(ui, res, (uint32_t)(first + i), &conflicts);
        live += gens[i] != NULL;
    }
    size_t before = ws->ninputs, made = 0;
    while (made < FEATURES_TARGET_COUNT && live) {
        for (size_t i = 0; i < n && made < FEATURES_TARGET_COUNT; i++) {
            if (!gens[i])
                continue;
            struct dtree tree;
            if (!target_next(gens[i], &tree)) {
                target_free(gens[i]);
                gens[i] = NULL;
                live--;
                continue;
            }
            workspace_add_generated(ws, &tree, NULL, 0);
            dtree_free(&tree);
            struct strbuf o = STRBUF_INIT;
            strbuf_addstr(&o, "{\"made_by\": \"target\", \"feature\": ");
            json_add_cstring(&o, res->name);
            strbuf_addf(&o, ", \"rule\": %zu, \"seed\": %llu}", first + i + 1,
                        (unsigned long long)(fv->o.seed + first + i));
            struct ws_input *in = &ws->inputs[ws->ninputs - 1];
            free(in->origin);
            in->origin = strbuf_detach(&o, NULL);
            made++;
        }
    }
    for (size_t i = 0; i < n; i++)
        target_free(gens[i]);
    free(gens);
    if (made)
        ui_workspace_changed(ui);
    for (size_t i = 0; i < conflicts.len; i++)
        ui_log(ui, true, conflicts.items[i].message);
    bool unsatisfiable = conflicts.len > 0;
    diag_list_free(&conflicts);
    if (!made) {
        ui_error(ui, "no input could be generated for %s%s", res->name,
                 unsatisfiable ? ": its rules cannot be satisfied (M shows why)" : "");
        ui->message_more = unsatisfiable;
        return;
    }
    const char *note = unsatisfiable ? "; some rules cannot be satisfied (M)" : "";
    /* then run them as the last :run did, appending to its results */
    char *feature = xstrdup(res->name);
    uint32_t rule = row->rule;
    int started = runs_append(ui, before, made);
    if (started == 1) {
        then_clear(fv);
        fv->then_feature = feature;
        fv->then_rule = rule;
        ui_message(ui, "running the %zu new input%s for %s (inputs %zu..%zu)%s", made,
                   made == 1 ? "" : "s", feature, before + 1, ws->ninputs, note);
        ui->message_more = unsatisfiable;
        return;
    }
    if (started < 0) {
        ui_message(ui, "T added %zu input%s for %s (%zu..%zu), not run: no :run in this "
                       "session to repeat; :run! -- COMMAND runs them all, then T runs only its "
                       "own%s", made, made == 1 ? "" : "s", feature, before + 1, ws->ninputs, note);
        ui->message_more = unsatisfiable;
    }
    /* else runs_append said why not */
    free(feature);
}

void features_ran(struct ui *ui, const struct results *all, const struct sample_list *ran,
                  bool stopped)
{
    struct features_view *fv = ui->features;
    if (!fv || !fv->then_feature)
        return;
    /* the relative coverage fraction of these inputs: those whose run
     * reached the feature, of those generated */
    uint32_t f = results_find_feature(all, fv->then_feature);
    size_t recorded = 0, reached = 0;
    for (size_t i = 0; i < ran->len; i++) {
        const struct run_record *rec = results_find_input(all, ran->paths[i]);
        if (!rec)
            continue;
        recorded++;
        reached += f != UINT32_MAX && results_record_has(all, rec, f);
    }
    struct strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "%zu of %zu new input%s reach%s %s", reached, ran->len,
                ran->len == 1 ? "" : "s", ran->len == 1 ? "es" : "",
                fv->then_feature);
    if (recorded < ran->len)
        strbuf_addf(&sb, " (%zu not run%s)", ran->len - recorded, stopped ? ": stopped" : "");
    free(fv->then_message);
    fv->then_message = strbuf_detach(&sb, NULL);
}

bool features_action(struct ui *ui, enum action a)
{
    const struct fv_row *row = selected_row(ui);
    switch (a) {
    case ACT_FEATURE_OPEN:
        if (row)
            open_rule(ui, row);
        return true;
    case ACT_TARGET:
        if (row)
            generate(ui, row);
        return true;
    case ACT_MARK:
    case ACT_MARK_ALL:
    case ACT_MARK_INVERT:
    case ACT_MARK_REDUCED:
    case ACT_DELETE_INPUT:
        ui_error(ui, "the rows are behaviour features: inputs are marked and removed in the "
                     "list of inputs (w shows it)");
        return true;
    case ACT_PREVIEW_DOWN:
    case ACT_PREVIEW_UP:
        return true;
    default:
        return false;
    }
}
