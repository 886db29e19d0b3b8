/* runs_job: the program under test in the explorer: :run and its job.
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
 * The detail pane shows the selected run in full.
 *
 * App layer (runs_job.h): :run, the campaign and the report as jobs
 * (struct job_ops, job.h) are the app's; the runs view (rows, drawing)
 * is the pane layer's runs.c. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job.h"
#include "messages.h"
#include "runs_job.h"
#include "session.h"
#include "ui.h"
#include "run/collect.h"
#include "run/collect_set.h"
#include "base/number.h"
#include "base/outdir.h"
#include "parse/parse.h"
#include "base/sha256.h"
#include "workspace/workspace_run.h"
#include "base/xalloc.h"

#define RUNS_DEFAULT_RESULTS "kpath-run.jsonl"
#define RUNS_USAGE "usage: :run [--gcov DIR [--lines]] [--timeout S] [-j N] [--max-memory N] " \
                   "[--results FILE] [--] COMMAND [ARG...]"

/* ---- the job -------------------------------------------------------------------------- */

static void runs_forget(struct ui *ui);

static void run_state_free(struct ui *ui)
{
    if (ui->run.campaign)
        campaign_free(ui->run.campaign); /* kills what still runs */
    ui->run.campaign = NULL;
    collect_set_free(ui->run.cols, ui->run.ncols);
    ui->run.cols = NULL;
    ui->run.ncols = 0;
    if (ui->run.argv)
        for (char **a = ui->run.argv; *a; a++)
            free(*a);
    free(ui->run.argv);
    ui->run.argv = NULL;
    free(ui->run.collect);
    ui->run.collect = NULL;
    ui->run.then = NULL;
    sample_list_free(&ui->run.inputs);
    free(ui->run.results);
    ui->run.results = NULL;
    diag_list_free(&ui->run.diags);
    memset(&ui->run.header, 0, sizeof ui->run.header);
    ui->run.append = false;
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
        if (!results_file_is(results)) { /* only a results file is ever removed */
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
    struct collect_spec spec = {.gcov_dir = gcov, .lines = lines};
    bool ok = collect_set_make(&spec, &ui->run.cols, &ui->run.ncols, &d);
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
    ui->run.collect = collect_set_names(ui->run.cols, ui->run.ncols);
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

int runs_append(struct ui *ui, size_t first, size_t count, runs_ran_fn *then)
{
    if (!ui->run_last || !ui->ws->results_path)
        return -1;
    if (!start(ui, ui->run_last, ui->run_last_n, RUN_APPEND, first, count))
        return 0;
    ui->run.then = then;
    return 1;
}

/* The end of a campaign: finished, failed at once, or stopped by a key. */
static void runs_finished(struct ui *ui, enum campaign_state state, bool stopped)
{
    struct workspace *ws = ui->ws;
    struct campaign_progress p;
    campaign_get_progress(ui->run.campaign, &p);
    bool append = ui->run.append;
    if (append && ui->run.then) /* T: the features view learns again, then says what they reached */
        ui->run.then(ui, campaign_results(ui->run.campaign), &ui->run.inputs,
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

static bool runs_slice(struct ui *ui, double deadline)
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

static void runs_stop(struct ui *ui, const char *why)
{
    (void)why;
    if (!ui->run.campaign)
        return;
    campaign_stop(ui->run.campaign);
    runs_finished(ui, CAMPAIGN_RUNNING, true);
}

static void runs_status(struct ui *ui, int width, struct strbuf *out)
{
    (void)width;
    struct campaign_progress p;
    campaign_get_progress(ui->run.campaign, &p);
    const char *name = strrchr(ui->run.argv[0], '/');
    strbuf_addf(out, " running %s: %zu of %zu inputs, %zu failed (any key stops) ",
                name && name[1] ? name + 1 : ui->run.argv[0], p.done + p.unreadable, p.total,
                p.failed);
}

/* ---- the report as a job -------------------------------------------------------------- */

static void runs_forget(struct ui *ui)
{
    for (int i = 0; i < ui->run_last_n; i++)
        free(ui->run_last[i]);
    free(ui->run_last);
    ui->run_last = NULL;
    ui->run_last_n = 0;
}

static void runs_free(struct ui *ui)
{
    run_state_free(ui);
    runs_forget(ui);
    runs_view_free(ui);
}

static bool runs_report_slice(struct ui *ui, double deadline)
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

static void runs_report_stop(struct ui *ui, const char *why)
{
    (void)why;
    if (!ui->runs_job)
        return;
    run_report_job_free(ui->runs_job);
    ui->runs_job = NULL;
    ui->runs_report_stopped = true;
    ui_message(ui, "the report of the runs was stopped: b twice computes it again");
}

static void runs_report_status(struct ui *ui, int width, struct strbuf *out)
{
    (void)width;
    size_t done = 0, total = 0;
    if (ui->runs_job)
        run_report_progress(ui->runs_job, &done, &total);
    strbuf_addf(out, " report of the runs: %zu of %zu inputs and k measured (any key stops) ",
                done, total);
}

const struct job_ops campaign_job_ops = {
    .slice = runs_slice, .stop = runs_stop, .status = runs_status, .status_style = EL_PROGRESS,
    .forget = runs_forget, /* T does not repeat a :run of another workspace */
    .free = runs_free,
};

const struct job_ops runs_report_job_ops = {
    .slice = runs_report_slice, .stop = runs_report_stop, .status = runs_report_status,
    .status_style = EL_PROGRESS,
};
