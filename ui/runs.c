/* runs: the program under test in the explorer.
 *
 * `:run [OPTIONS] [--] COMMAND [ARG...]` runs the workspace's inputs through
 * COMMAND as `kpath run WORKSPACE -- COMMAND` does: the inputs are written as
 * a suite beside the results file (workspace_run.h), then a campaign
 * (campaign.h) runs them as a job (JOB_CAMPAIGN): each slice does
 * campaign_steps until its time is up, so keys stay responsive, and any key
 * stops it (campaign_stop kills every run's process group; the records so
 * far stay in the results file).  The workspace remembers the results file
 * (its `results` line), so the runs come back with the workspace.  The
 * words of the last :run are kept for T in the features view: runs_append
 * runs only the inputs T added, the same way, and appends their records
 * (campaign resume), provided the results still describe every other input
 * as it is (same suite path, same SHA-256), so runs of different texts are
 * never mixed in one file.
 *
 * The runs view of the inputs pane (b) reads that file: one row per record,
 * failures first (by outcome, then input), with its input's number in the
 * workspace (tied by SHA-256), its outcome and how many behaviour features
 * the run reached; below, the report of run_report.h: per k the k-paths the
 * inputs cover, the correlation across inputs between k-paths and features,
 * and the features a k-path suite reaches against as many random inputs,
 * as a table or (v) as a plot of bars.  The report parses every input, so
 * it is a job (JOB_RUNS_REPORT, an input per unit) started when the view
 * first needs it; any key stops it and b twice starts it again.
 * The detail pane shows the selected run in full. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect.h"
#include "number.h"
#include "outdir.h"
#include "parse.h"
#include "sha256.h"
#include "ui.h"
#include "workspace_run.h"
#include "xalloc.h"

#define RUNS_DEFAULT_RESULTS "kpath-run.jsonl"
#define RUNS_USAGE "usage: :run [--gcov DIR [--lines]] [--timeout S] [-j N] [--max-memory N] " \
                   "[--results FILE] [--] COMMAND [ARG...]"

/* ---- the job -------------------------------------------------------------------------- */

static void run_state_free(struct ui *ui)
{
    if (ui->run.campaign)
        campaign_free(ui->run.campaign); /* kills what still runs */
    ui->run.campaign = NULL;
    for (size_t i = 0; i < ui->run.ncols; i++)
        collector_free(&ui->run.cols[i]);
    free(ui->run.cols);
    ui->run.cols = NULL;
    ui->run.ncols = 0;
    if (ui->run.argv)
        for (char **a = ui->run.argv; *a; a++)
            free(*a);
    free(ui->run.argv);
    ui->run.argv = NULL;
    free(ui->run.collect);
    ui->run.collect = NULL;
    sample_list_free(&ui->run.inputs);
    free(ui->run.results);
    ui->run.results = NULL;
    diag_list_free(&ui->run.diags);
    memset(&ui->run.header, 0, sizeof ui->run.header);
    ui->run.append = false;
}

/* Does path hold something other than a results file (which :run! may
 * replace)?  Only a file that starts like one is ever removed. */
static bool is_results_file(const char *path)
{
    static const char magic[] = "{\"kpath_results\"";
    char buf[sizeof magic];
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof magic - 1, f);
    fclose(f);
    return n == sizeof magic - 1 && memcmp(buf, magic, n) == 0;
}

int ui_runner_option(struct ui *ui, const char *command, const char *w, const char *v,
                     struct runner_options *ro)
{
    if (strcmp(w, "--timeout") == 0) {
        if (runner_parse_timeout(v, &ro->timeout_ms))
            return 1;
        ui_error(ui, "%s: --timeout takes whole seconds or NNNms (not 0), not '%s'", command, v);
        return 0;
    }
    if (strcmp(w, "--max-memory") == 0) {
        size_t size;
        if (strcmp(v, "0") == 0) {
            ro->max_memory = 0;
        } else if (samples_parse_size(v, &size)) {
            ro->max_memory = size;
        } else {
            ui_error(ui, "%s: --max-memory takes a size like 512M or 0, not '%s'", command, v);
            return 0;
        }
        return 1;
    }
    if (strcmp(w, "-j") == 0 || strcmp(w, "--jobs") == 0) {
        uint64_t u;
        if (number_parse_u64(v, &u) && u >= 1 && u <= 1024) {
            ro->jobs = (uint32_t)u;
            return 1;
        }
        ui_error(ui, "%s: -j takes a number from 1 to 1024, not '%s'", command, v);
        return 0;
    }
    return -1;
}

static void paths_add(struct sample_list *l, char *owned)
{
    l->paths = xgrow(l->paths, &l->cap, l->len + 1, sizeof *l->paths);
    l->paths[l->len++] = owned;
}

/* How a run treats the workspace's results file: a first :run writes a
 * new one, :run! replaces it, T appends the runs of its new inputs. */
enum run_mode { RUN_NEW, RUN_REPLACE, RUN_APPEND };

/* The inputs the results file describes are those the workspace holds, at
 * the same numbers: every record's input path is the suite file of a
 * workspace input whose SHA-256 is the record's.  Otherwise (an input
 * changed or removed since it ran) why says which, and the runs of new
 * inputs must not be mixed in.  inputs: the suite's paths, as written. */
static bool results_describe_inputs(struct ui *ui, const struct sample_list *inputs,
                                    struct strbuf *why)
{
    struct workspace *ws = ui->ws;
    struct results r;
    results_init(&r);
    struct diag_list d = DIAG_LIST_INIT;
    if (!results_load(ws->results_path, &r, &d)) {
        for (size_t i = 0; i < d.len && !why->len; i++)
            if (d.items[i].severity == DIAG_ERROR)
                diag_format(&d.items[i], why);
        diag_list_free(&d);
        return false;
    }
    diag_list_free(&d);
    size_t matched = 0, changed = 0, first_changed = SIZE_MAX;
    for (size_t i = 0; i < inputs->len && i < ws->ninputs; i++) {
        const struct run_record *rec = results_find_input(&r, inputs->paths[i]);
        if (!rec)
            continue;
        matched++;
        char hex[SHA256_HEX_SIZE];
        sha256_hex(ws->inputs[i].text, ws->inputs[i].len, hex);
        if (strcmp(hex, rec->input_sha256) != 0 && changed++ == 0)
            first_changed = i;
    }
    if (changed)
        strbuf_addf(why, "input %zu%s not what %s recorded (changed or removed since the "
                         "last run)", first_changed + 1,
                    changed > 1 ? " and more are" : " is", ws->results_path);
    else if (matched < r.nrecords)
        strbuf_addf(why, "%zu run%s of %s %s of inputs no longer in the workspace",
                    r.nrecords - matched, r.nrecords - matched == 1 ? "" : "s",
                    ws->results_path, r.nrecords - matched == 1 ? "is" : "are");
    results_free(&r);
    return !why->len;
}

/* Start a campaign.  RUN_APPEND runs only the inputs first .. first+count-1
 * (numbers in the workspace, 0-based) and appends their records to the
 * workspace's results file (campaign resume), after checking that the file
 * describes the other inputs as they are; else every input. */
static bool start(struct ui *ui, char **words, int n, enum run_mode mode, size_t first,
                  size_t count)
{
    struct workspace *ws = ui->ws;
    struct runner_options ro;
    runner_default_options(&ro);
    const char *gcov = NULL, *results = NULL;
    bool lines = false;
    int i = 0;
    for (; i < n; i++) {
        const char *w = words[i], *v = i + 1 < n ? words[i + 1] : NULL;
        if (strcmp(w, "--") == 0) {
            i++;
            break;
        }
        if (w[0] != '-')
            break;
        if (strcmp(w, "--lines") == 0) {
            lines = true;
            continue;
        }
        bool takes = strcmp(w, "--gcov") == 0 || strcmp(w, "--timeout") == 0 ||
                     strcmp(w, "-j") == 0 || strcmp(w, "--jobs") == 0 ||
                     strcmp(w, "--max-memory") == 0 || strcmp(w, "--results") == 0;
        if (!takes) {
            ui_error(ui, ":run: no option '%s'; %s", w, RUNS_USAGE);
            return false;
        }
        if (!v) {
            ui_error(ui, ":run: %s needs a value; %s", w, RUNS_USAGE);
            return false;
        }
        i++;
        if (strcmp(w, "--gcov") == 0)
            gcov = v;
        else if (strcmp(w, "--results") == 0)
            results = v;
        else if (ui_runner_option(ui, ":run", w, v, &ro) == 0)
            return false;
    }
    if (i >= n) {
        ui_error(ui, ":run: no COMMAND; %s", RUNS_USAGE);
        return false;
    }
    if (lines && !gcov) {
        ui_error(ui, ":run: --lines needs --gcov DIR");
        return false;
    }
    struct diag_list d = DIAG_LIST_INIT;
    if (!runner_check_command(words[i], &d)) {
        ui_diags(ui, &d);
        return false;
    }
    if (mode == RUN_APPEND) /* the runs the features view learned from */
        results = ws->results_path;
    else if (!results)
        results = ws->results_path ? ws->results_path : RUNS_DEFAULT_RESULTS;
    struct stat st;
    bool replace = false;
    if (mode != RUN_APPEND && stat(results, &st) == 0 && st.st_size > 0) {
        if (!is_results_file(results)) {
            ui_error(ui, "%s is not a results file: :run never writes over it (--results FILE "
                         "names another)", results);
            return false;
        }
        if (mode != RUN_REPLACE) {
            ui_error(ui, "%s holds runs already: :run! replaces them (or --results FILE)", results);
            return false;
        }
        replace = true;
    }

    run_state_free(ui);
    ui->run.results = xstrdup(results);
    ui->run.argv = xcalloc((size_t)(n - i) + 1, sizeof *ui->run.argv);
    for (int j = i; j < n; j++)
        ui->run.argv[j - i] = xstrdup(words[j]);
    /* the collectors first: nothing is written when one cannot work */
    ui->run.cols = xcalloc(2, sizeof *ui->run.cols);
    collector_outcome(&ui->run.cols[ui->run.ncols++]);
    bool ok = !gcov || collector_gcov(&ui->run.cols[ui->run.ncols++], gcov, lines, &d);
    char *dir = workspace_run_inputs_dir(results);
    if (ok && mode == RUN_APPEND) {
        /* the suite's paths as they will be, checked before any is written */
        struct strbuf why = STRBUF_INIT;
        for (size_t k = 0; k < ws->ninputs; k++) {
            struct strbuf p = STRBUF_INIT;
            strbuf_addf(&p, "%s/", dir);
            outdir_case_name(&p, k + 1, ws->ninputs, ".txt");
            paths_add(&ui->run.inputs, strbuf_detach(&p, NULL));
        }
        ok = results_describe_inputs(ui, &ui->run.inputs, &why);
        sample_list_free(&ui->run.inputs);
        if (!ok) {
            free(dir);
            diag_list_free(&d);
            run_state_free(ui);
            ui_error(ui, "%zu new inputs added, not run: %s, and runs of other texts are "
                         "not mixed in; :run! runs every input again", count, strbuf_str(&why));
            strbuf_free(&why);
            return false;
        }
        strbuf_free(&why);
    }
    ok = ok && workspace_run_inputs(ws, dir, &ui->run.inputs, &d);
    free(dir);
    if (ok && mode == RUN_APPEND) { /* only the new inputs run */
        struct sample_list all = ui->run.inputs;
        memset(&ui->run.inputs, 0, sizeof ui->run.inputs);
        for (size_t k = first; k < first + count && k < all.len; k++) {
            paths_add(&ui->run.inputs, all.paths[k]);
            all.paths[k] = NULL;
        }
        sample_list_free(&all);
    }
    /* :run! replaces the runs only now that the new ones can start */
    if (ok && replace && unlink(results) != 0) {
        diag_add(&d, DIAG_ERROR, results, 0, 0, "cannot remove it: %s", strerror(errno));
        ok = false;
    }
    if (!ok) {
        run_state_free(ui);
        ui_diags(ui, &d);
        return false;
    }
    ui->run.collect = xcalloc(ui->run.ncols + 1, sizeof *ui->run.collect);
    for (size_t c = 0; c < ui->run.ncols; c++)
        ui->run.collect[c] = ui->run.cols[c].name;
    struct results_header *h = &ui->run.header;
    h->kpath_version = (char *)KPATH_VERSION;
    h->grammar = ws->grammar_path;
    memcpy(h->grammar_sha256, ws->grammar_sha256, sizeof h->grammar_sha256);
    h->start = ws->start;
    h->command = ui->run.argv;
    h->ncommand = (uint32_t)(n - i);
    h->collect = ui->run.collect;
    h->ncollect = (uint32_t)ui->run.ncols;
    /* appending: targeted inputs may well all fail alike (a crash is a
     * feature one targets), which is no reason to stop */
    struct campaign_options co = {
        .runner = ro, .argv = ui->run.argv, .collectors = ui->run.cols,
        .ncollectors = ui->run.ncols, .results_path = ui->run.results, .header = h,
        .max_input_size = PARSE_DEFAULT_MAX_INPUT, .resume = mode == RUN_APPEND,
        .keep_going = mode == RUN_APPEND};
    ui->run.campaign = campaign_open(&co, &ui->run.inputs, &d);
    if (!ui->run.campaign) {
        run_state_free(ui);
        ui_diags(ui, &d);
        return false;
    }
    diag_list_free(&d);
    ui->run.append = mode == RUN_APPEND;
    ui->job = JOB_CAMPAIGN;
    ui->job_started = ui_now();
    return true;
}

void runs_start(struct ui *ui, char **words, int n, bool force)
{
    if (!start(ui, words, n, force ? RUN_REPLACE : RUN_NEW, 0, 0))
        return;
    /* remembered for T, which runs its new inputs the same way */
    runs_forget(ui);
    ui->run_last = xcalloc((size_t)n + 1, sizeof *ui->run_last);
    for (int i = 0; i < n; i++)
        ui->run_last[i] = xstrdup(words[i]);
    ui->run_last_n = n;
}

int runs_append(struct ui *ui, size_t first, size_t count)
{
    if (!ui->run_last || !ui->ws->results_path)
        return -1;
    return start(ui, ui->run_last, ui->run_last_n, RUN_APPEND, first, count) ? 1 : 0;
}

/* The end of a campaign: finished, failed at once, or stopped by a key. */
static void runs_finished(struct ui *ui, enum campaign_state state, bool stopped)
{
    struct workspace *ws = ui->ws;
    struct campaign_progress p;
    campaign_get_progress(ui->run.campaign, &p);
    bool append = ui->run.append;
    if (append) /* T: the features view learns again, then says what they reached */
        features_ran(ui, campaign_results(ui->run.campaign), &ui->run.inputs,
                     stopped || state == CAMPAIGN_FAILED);
    campaign_free(ui->run.campaign);
    ui->run.campaign = NULL;
    if (!ws->results_path || strcmp(ws->results_path, ui->run.results) != 0) {
        free(ws->results_path);
        ws->results_path = xstrdup(ui->run.results);
        ws->dirty = true;
        ws->changes++;
    }
    ui->runs_generation++;
    struct strbuf one = STRBUF_INIT;
    const struct diag *first_error = NULL;
    for (size_t i = 0; i < ui->run.diags.len; i++) {
        const struct diag *dg = &ui->run.diags.items[i];
        strbuf_reset(&one);
        diag_format(dg, &one);
        ui_log(ui, dg->severity == DIAG_ERROR, strbuf_str(&one));
        if (dg->severity == DIAG_ERROR && !first_error)
            first_error = dg;
    }
    struct strbuf sb = STRBUF_INIT;
    if (state == CAMPAIGN_FAILED) {
        strbuf_addstr(&sb, "run stopped: ");
        if (first_error)
            diag_format(first_error, &sb);
        else
            strbuf_addf(&sb, "%zu of %zu runs recorded", p.done, p.total);
        ui_error(ui, "%s", strbuf_str(&sb));
    } else {
        strbuf_addf(&sb, "%s: %zu of %zu run%s recorded in %s, %zu failed", stopped ? "stopped" : "ran",
                    p.done, p.total, p.total == 1 ? "" : "s", ui->run.results, p.failed);
        if (p.unreadable)
            strbuf_addf(&sb, ", %zu unreadable", p.unreadable);
        ui_message(ui, "%s", strbuf_str(&sb));
    }
    ui->message_more = ui->run.diags.len > 0;
    strbuf_free(&sb);
    strbuf_free(&one);
    if (append) { /* back to the features view */
        run_state_free(ui);
        ui_focus(ui, PANE_INPUTS);
        features_toggle(ui, true);
        return;
    }
    run_state_free(ui);
    if (state != CAMPAIGN_FAILED) {
        ui_focus(ui, PANE_INPUTS);
        runs_toggle(ui, true);
        ui->list[PANE_INPUTS].cursor = ui->list[PANE_INPUTS].top = 0;
    }
}

bool runs_slice(struct ui *ui, double deadline)
{
    for (;;) {
        double left = deadline - ui_now();
        int wait_ms = left <= 0 ? 0 : left > 0.05 ? 50 : (int)(left * 1000);
        enum campaign_state st = campaign_step(ui->run.campaign, wait_ms, &ui->run.diags);
        if (st != CAMPAIGN_RUNNING) {
            runs_finished(ui, st, false);
            return false;
        }
        if (ui_now() >= deadline)
            return true;
    }
}

void runs_stop(struct ui *ui)
{
    if (!ui->run.campaign)
        return;
    campaign_stop(ui->run.campaign);
    runs_finished(ui, CAMPAIGN_RUNNING, true);
}

void runs_status(struct ui *ui, struct strbuf *out)
{
    struct campaign_progress p;
    campaign_get_progress(ui->run.campaign, &p);
    const char *name = strrchr(ui->run.argv[0], '/');
    strbuf_addf(out, " running %s: %zu of %zu inputs, %zu failed (any key stops) ",
                name && name[1] ? name + 1 : ui->run.argv[0], p.done + p.unreadable, p.total,
                p.failed);
}

/* ---- the view ---------------------------------------------------------------------------- */

static void view_free(struct ui *ui)
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

void runs_forget(struct ui *ui)
{
    for (int i = 0; i < ui->run_last_n; i++)
        free(ui->run_last[i]);
    free(ui->run_last);
    ui->run_last = NULL;
    ui->run_last_n = 0;
}

void runs_free(struct ui *ui)
{
    run_state_free(ui);
    runs_forget(ui);
    view_free(ui);
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
    view_free(ui);
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

bool runs_report_slice(struct ui *ui, double deadline)
{
    if (!ui->runs_job)
        return false;
    struct diag_list d = DIAG_LIST_INIT;
    bool more;
    /* The inputs that cannot be measured (gone, changed) are counted in
     * the report; the warnings themselves would only repeat that. */
    while ((more = run_report_step(ui->runs_job, 1, &d)) && ui_now() < deadline)
        diag_list_free(&d);
    diag_list_free(&d);
    if (!more) {
        run_report_job_free(ui->runs_job);
        ui->runs_job = NULL;
        ui->runs_report_done = true;
    }
    return more;
}

void runs_report_stop(struct ui *ui)
{
    if (!ui->runs_job)
        return;
    run_report_job_free(ui->runs_job);
    ui->runs_job = NULL;
    ui->runs_report_stopped = true;
    ui_message(ui, "the report of the runs was stopped: b twice computes it again");
}

void runs_report_status(struct ui *ui, struct strbuf *out)
{
    size_t done = 0, total = 0;
    if (ui->runs_job)
        run_report_progress(ui->runs_job, &done, &total);
    strbuf_addf(out, " report of the runs: %zu of %zu inputs and k measured (any key stops) ",
                done, total);
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
    if (ui->inputs_features)
        return SIZE_MAX; /* the rows are behaviour features */
    if (!ui->inputs_runs) {
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

void runs_toggle(struct ui *ui, bool on)
{
    if (on == ui->inputs_runs)
        return;
    if (on)
        features_toggle(ui, false);
    if (on && ui->runs_report_stopped)
        memset(ui->runs_key, 0, sizeof ui->runs_key); /* compute it again */
    struct list_state t = ui->list[PANE_INPUTS];
    ui->list[PANE_INPUTS] = ui->runs_list;
    ui->runs_list = t;
    ui->inputs_runs = on;
    if (on)
        ui->inputs_plot = false;
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
        strbuf_addf(&bufs[a], "k=%u suite %4zu", row->k, row->suite_size);
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
        y += plot_bars(ui, pr, label, value, text, style, n, (double)rep->features);
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
            ui_add_percent(&cov, row->covered, row->total);
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
        strbuf_addstr(&t, marked ? glyph(ui, "\xe2\x97\x8f", "*") : " ");
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
            draw_selected(ui, r, yy, focused);
    }
    strbuf_free(&t);
    int y = r.y + 1 + list_h;
    if (y < r.y + r.h)
        draw_report(ui, r, y);
}
