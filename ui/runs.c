/* runs: the runs view of the inputs pane (b): the records of the
 * workspace's results file (which :run writes, runs_job.c), failures first
 * (by outcome, then input), each with its input's number in the workspace
 * (tied by SHA-256), its outcome and how many behaviour features the run
 * reached; below, the report of run_report.h (per k the k-paths the inputs
 * cover, the correlation across inputs between k-paths and features, and
 * the features a k-path suite reaches against as many random inputs) as a
 * table or (v) as a plot of bars.  The report is computed by a job the view
 * starts when it first needs it (runs_report_slice, runs_job.c).
 *
 * Pane layer (ui.h): it reads the results and draws; it never calls the
 * app. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/collect.h"
#include "base/number.h"
#include "base/outdir.h"
#include "parse/parse.h"
#include "base/sha256.h"
#include "ui.h"
#include "workspace/workspace_run.h"
#include "base/xalloc.h"

/* ---- the view ---------------------------------------------------------------------------- */

void runs_view_free(struct ui *ui)
{
    run_report_job_free(ui->runs_job);
    ui->runs_job = NULL;
    if (ui->job == JOB_RUNS_REPORT)
        ui->job = JOB_NONE;
    ui->runs_report_done = ui->runs_report_stopped = false;
    if (ui->runs_valid) {
        results_free(&ui->runs);
        run_report_free(&ui->runs_report);
    }
    free(ui->runs_order);
    free(ui->runs_input);
    free(ui->runs_error);
    ui->runs_order = ui->runs_input = NULL;
    ui->runs_error = NULL;
    ui->runs_valid = false;
}

static const struct ui *sorting;

static bool failed(const struct run_record *r)
{
    return strcmp(r->outcome, "exit:0") != 0;
}

/* Failures first, by outcome; then by input number (runs of inputs no
 * longer in the workspace last), then by path. */
static int compare_rows(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const struct run_record *ra = &sorting->runs.records[a], *rb = &sorting->runs.records[b];
    if (failed(ra) != failed(rb))
        return failed(ra) ? -1 : 1;
    int c = strcmp(ra->outcome, rb->outcome);
    if (c)
        return c;
    size_t ia = sorting->runs_input[a], ib = sorting->runs_input[b];
    if (ia != ib)
        return ia < ib ? -1 : 1;
    return strcmp(ra->input, rb->input);
}

/* Tie each record to its workspace input (by SHA-256) and order the rows:
 * again whenever the inputs change. */
static void view_map(struct ui *ui)
{
    struct workspace *ws = ui->ws;
    size_t n = ui->runs.nrecords;
    free(ui->runs_order);
    free(ui->runs_input);
    ui->runs_order = xcalloc(n + 1, sizeof *ui->runs_order);
    ui->runs_input = xcalloc(n + 1, sizeof *ui->runs_input);
    char (*hex)[SHA256_HEX_SIZE] = xcalloc(ws->ninputs + 1, sizeof *hex);
    for (size_t i = 0; i < ws->ninputs; i++)
        sha256_hex(ws->inputs[i].text, ws->inputs[i].len, hex[i]);
    for (size_t r = 0; r < n; r++) {
        ui->runs_order[r] = r;
        ui->runs_input[r] = SIZE_MAX;
        for (size_t i = 0; i < ws->ninputs; i++)
            if (strcmp(hex[i], ui->runs.records[r].input_sha256) == 0) {
                ui->runs_input[r] = i;
                break;
            }
    }
    free(hex);
    sorting = ui;
    qsort(ui->runs_order, n, sizeof *ui->runs_order, compare_rows);
    sorting = NULL;
}

/* The results file of the workspace, read again (and its report, which
 * parses every input, made again) only when the file, the workspace or k
 * changed; the rows are tied to the inputs again when they changed. */
static bool view_load(struct ui *ui)
{
    struct workspace *ws = ui->ws;
    uint64_t key[3] = {(uint64_t)(uintptr_t)ws, ws->k, ui->runs_generation};
    if ((ui->runs_valid || ui->runs_error) && memcmp(key, ui->runs_key, sizeof key) == 0) {
        if (ui->runs_valid && ui->runs_changes != ws->changes) {
            ui->runs_changes = ws->changes;
            view_map(ui);
        }
        if (ui->runs_job && !ui->job) { /* another job held the slices: go on now */
            ui->job = JOB_RUNS_REPORT;
            ui->job_started = ui_now();
        }
        return ui->runs_valid;
    }
    runs_view_free(ui);
    memcpy(ui->runs_key, key, sizeof key);
    if (!ws->results_path) {
        ui->runs_error = xstrdup("no runs yet: :run -- COMMAND runs the inputs through a program");
        return false;
    }
    struct diag_list d = DIAG_LIST_INIT;
    if (!results_load(ws->results_path, &ui->runs, &d)) {
        struct strbuf sb = STRBUF_INIT;
        for (size_t i = 0; i < d.len; i++)
            if (d.items[i].severity == DIAG_ERROR) {
                diag_format(&d.items[i], &sb);
                break;
            }
        ui->runs_error = strbuf_detach(&sb, NULL);
        diag_list_free(&d);
        return false;
    }
    diag_list_free(&d);
    ui->runs_changes = ws->changes;
    view_map(ui);
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT,
                               .max_memory = PARSE_DEFAULT_MAX_MEMORY};
    ui->runs_job = run_report_begin(&ui->runs, ws->graph, ws->k, &po, 1, &ui->runs_report);
    ui->runs_valid = true;
    if (!ui->job) {
        ui->job = JOB_RUNS_REPORT;
        ui->job_started = ui_now();
    }
    return true;
}

uint64_t runs_rows(struct ui *ui)
{
    return view_load(ui) ? ui->runs.nrecords : 0;
}

const struct run_record *runs_record(struct ui *ui, uint64_t row)
{
    if (!view_load(ui) || row >= ui->runs.nrecords)
        return NULL;
    return &ui->runs.records[ui->runs_order[row]];
}

size_t inputs_selected(struct ui *ui)
{
    struct list_state *l = &ui->list[PANE_INPUTS];
    if (ui->inputs_view == INPUTS_FEATURES)
        return SIZE_MAX; /* the rows are behaviour features */
    if (ui->inputs_view != INPUTS_RUNS) {
        if (!ui->ws->ninputs)
            return SIZE_MAX;
        list_clamp(l, ui->ws->ninputs);
        return (size_t)l->cursor;
    }
    uint64_t rows = runs_rows(ui);
    if (!rows)
        return SIZE_MAX;
    list_clamp(l, rows);
    return ui->runs_input[ui->runs_order[l->cursor]];
}

/* The keys the view takes (pane_inputs.c carries them out): m marks the
 * selected run's input, v switches the report between table and plot, b
 * and w leave; A, i and x work on the list of inputs as there; d, Enter
 * and T say where they work. */
#define RUNS_KEYS(report)                                                                    \
    {ACT_MARK, "mark"}, {ACT_SHRINK, "shrink"}, {ACT_INPUTS_PLOT, report}, {ACT_INPUTS_RUNS, "inputs"},              \
        {ACT_INPUTS_FEATURES, "features"}, {ACT_MARK_ALL, "all"}, {ACT_MARK_INVERT, ""},     \
        {ACT_MARK_REDUCED, ""}, {ACT_NONE, NULL}
static const struct footer_key keys_table_shown[] = {RUNS_KEYS("plot")},
                               keys_plot_shown[] = {RUNS_KEYS("table")};
#undef RUNS_KEYS

const struct view_keys *runs_view_keys(struct ui *ui)
{
    static const struct view_keys table = {"5 Inputs: the runs of :run (b)", keys_table_shown},
                                  plot = {"5 Inputs: the runs of :run (b)", keys_plot_shown};
    return ui->runs_report_plot ? &plot : &table;
}

void runs_summary(struct ui *ui, struct strbuf *out)
{
    if (!view_load(ui)) {
        strbuf_addstr(out, "runs");
        return;
    }
    size_t fails = 0;
    for (size_t i = 0; i < ui->runs.nrecords; i++)
        fails += failed(&ui->runs.records[i]);
    strbuf_addf(out, "runs: %zu, %zu failed, %zu features", ui->runs.nrecords, fails,
                ui->runs_report.features);
}

void runs_row_text(struct ui *ui, uint64_t row, struct strbuf *out)
{
    const struct run_record *rec = runs_record(ui, row);
    if (!rec)
        return;
    strbuf_addf(out, "%s ", rec->outcome);
    size_t i = ui->runs_input[ui->runs_order[row]];
    if (i != SIZE_MAX)
        strbuf_add(out, ui->ws->inputs[i].text, ui->ws->inputs[i].len);
    else
        strbuf_addstr(out, rec->input);
}

/* The report's last columns as a plot: per k, the features a k-path suite
 * reaches and those as many random inputs reach (the mean of the draws),
 * bars out of every feature the runs reached. */
static int draw_report_plot(struct ui *ui, struct rect r, int y)
{
    const struct run_report *rep = &ui->runs_report;
    size_t n = 2 * (size_t)rep->K;
    const char **label = xcalloc(n + 1, sizeof *label), **text = xcalloc(n + 1, sizeof *text);
    double *value = xcalloc(n + 1, sizeof *value);
    int *style = xcalloc(n + 1, sizeof *style);
    struct strbuf *bufs = xcalloc(2 * n + 1, sizeof *bufs);
    for (uint32_t j = 0; j < rep->K; j++) {
        const struct run_report_k *row = &rep->ks[j];
        size_t a = 2 * (size_t)j, b = a + 1;
        /* Both labels 15 columns wide (for k < 10), so the two sizes line up. */
        strbuf_addf(&bufs[a], "k=%u suite %5zu", row->k, row->suite_size);
        strbuf_addf(&bufs[b], "    random%5zu", row->suite_size);
        strbuf_addf(&bufs[n + a], "%zu", row->suite_features);
        strbuf_addf(&bufs[n + b], "%.1f", row->random_features);
        label[a] = strbuf_str(&bufs[a]);
        label[b] = strbuf_str(&bufs[b]);
        text[a] = strbuf_str(&bufs[n + a]);
        text[b] = strbuf_str(&bufs[n + b]);
        value[a] = (double)row->suite_features;
        value[b] = row->random_features;
        style[a] = plot_curve_style(row->k);
        style[b] = EL_DIM;
    }
    if (y < r.y + r.h) {
        struct strbuf t = STRBUF_INIT;
        strbuf_addf(&t, " features reached of %zu: k-path suite vs as many random inputs",
                    rep->features);
        screen_puts(&ui->scr, r.x, y++, r.w, strbuf_str(&t), EL_DIM);
        strbuf_free(&t);
    }
    struct rect pr = {r.x, y, r.w, r.y + r.h - y};
    if (pr.h > 0)
        y += plot_bars(&ui->scr, pr, label, value, text, style, n, (double)rep->features);
    for (size_t i = 0; i < 2 * n; i++)
        strbuf_free(&bufs[i]);
    free(bufs);
    free(label);
    free(text);
    free(value);
    free(style);
    return y;
}

/* The report under the list: k-paths against behaviour, per k. */
static int draw_report(struct ui *ui, struct rect r, int y)
{
    struct screen *s = &ui->scr;
    const struct run_report *rep = &ui->runs_report;
    struct strbuf t = STRBUF_INIT;
    screen_fill(s, r.x, y, r.w, ui->ascii ? '-' : 0x2500, EL_BORDER);
    if (!ui->runs_report_done) {
        size_t done = 0, total = 0;
        if (ui->runs_job)
            run_report_progress(ui->runs_job, &done, &total);
        strbuf_addf(&t, ui->runs_report_stopped
                            ? " report stopped by a key: b twice computes it again "
                            : " k-paths and behaviour: computing, %zu of %zu ", done, total);
        screen_puts(s, r.x + 1, y++, r.w - 1, strbuf_str(&t), EL_DIM);
        strbuf_free(&t);
        return y;
    }
    strbuf_addf(&t, " k-paths and behaviour: %zu of %zu inputs measured ", rep->measured,
                rep->runs);
    screen_puts(s, r.x + 1, y++, r.w - 1, strbuf_str(&t), EL_DIM);
    if (ui->runs_report_plot) {
        strbuf_free(&t);
        return draw_report_plot(ui, r, y);
    }
    if (y < r.y + r.h)
        screen_puts(s, r.x, y++, r.w, " k k-paths covered r(k,f) suite feat random", EL_DIM);
    for (uint32_t j = 0; rep->ks && j < rep->K && y < r.y + r.h; j++, y++) {
        const struct run_report_k *row = &rep->ks[j];
        strbuf_reset(&t);
        struct strbuf cov = STRBUF_INIT;
        if (row->total == UINT64_MAX) {
            strbuf_addf(&cov, "%" PRIu64 "/>2^64", row->covered);
        } else {
            strbuf_addf(&cov, "%" PRIu64 "/%" PRIu64 " ", row->covered, row->total);
            number_add_percent(&cov, row->covered, row->total);
            strbuf_addch(&cov, '%');
        }
        /* 43 columns: the pane is 45 wide at 100x30 */
        strbuf_addf(&t, "%2u %-15s", row->k, strbuf_str(&cov));
        strbuf_free(&cov);
        if (isnan(row->correlation))
            strbuf_addf(&t, "%7s", "-");
        else
            strbuf_addf(&t, "%7.2f", row->correlation);
        strbuf_addf(&t, "%6zu%5zu%7.1f", row->suite_size, row->suite_features,
                    row->random_features);
        screen_puts(s, r.x, y, r.w, strbuf_str(&t), EL_NORMAL);
    }
    strbuf_free(&t);
    return y;
}

void runs_draw(struct ui *ui, struct rect r, bool focused)
{
    struct screen *s = &ui->scr;
    struct list_state *l = &ui->list[PANE_INPUTS];
    if (!view_load(ui)) {
        l->height = 0;
        screen_puts(s, r.x + 1, r.y + 1, r.w - 1, ui->runs_error ? ui->runs_error : "", EL_DIM);
        return;
    }
    size_t n = ui->runs.nrecords;
    /* the report takes its title, header and K rows (2K as a plot); the
     * list the rest */
    int report_h = 2 + (int)ui->runs_report.K * (ui->runs_report_plot ? 2 : 1);
    int list_h = r.h - 1 - report_h;
    if (list_h < 2)
        list_h = r.h > 3 ? 2 : r.h - 1;
    screen_puts(s, r.x, r.y, r.w, "    #  outcome         feat  text", EL_DIM);
    l->height = list_h;
    l->first_y = r.y + 1;
    list_scroll_into_view(l, n);
    if (n == 0)
        screen_puts(s, r.x + 1, r.y + 1, r.w - 1, "no runs recorded in the results file", EL_DIM);
    struct strbuf t = STRBUF_INIT;
    for (int y = 0; y < list_h && l->top + (uint64_t)y < n; y++) {
        uint64_t row = l->top + (uint64_t)y;
        size_t rec_i = ui->runs_order[row];
        const struct run_record *rec = &ui->runs.records[rec_i];
        size_t in = ui->runs_input[rec_i];
        int yy = r.y + 1 + y;
        bool marked = in != SIZE_MAX && ui->ws->inputs[in].marked;
        strbuf_reset(&t);
        strbuf_addstr(&t, marked ? glyph(ui->ascii, "\xe2\x97\x8f", "*") : " ");
        if (in == SIZE_MAX)
            strbuf_addf(&t, "%4s  ", "-");
        else
            strbuf_addf(&t, "%4zu  ", in + 1);
        int used = screen_puts(s, r.x, yy, r.w, strbuf_str(&t), EL_NORMAL);
        if (marked)
            screen_restyle(s, r.x, yy, 1, EL_MARKED, false);
        strbuf_reset(&t);
        strbuf_addf(&t, "%-15s ", rec->outcome);
        used += screen_puts(s, r.x + used, yy, r.w - used, strbuf_str(&t),
                            failed(rec) ? EL_ERROR : EL_NORMAL);
        strbuf_reset(&t);
        strbuf_addf(&t, "%4u  ", rec->nfeatures);
        used += screen_puts(s, r.x + used, yy, r.w - used, strbuf_str(&t), EL_NORMAL);
        strbuf_reset(&t);
        if (in != SIZE_MAX)
            escape_text(ui->ws->inputs[in].text, ui->ws->inputs[in].len, (size_t)r.w * 4, &t);
        else
            strbuf_addstr(&t, rec->input);
        screen_puts(s, r.x + used, yy, r.w - used, strbuf_str(&t),
                    in == SIZE_MAX ? EL_DIM : EL_NORMAL);
        if (row == l->cursor)
            draw_selected(&ui->scr, r, yy, focused);
    }
    strbuf_free(&t);
    int y = r.y + 1 + list_h;
    if (y < r.y + r.h)
        draw_report(ui, r, y);
}
