/* runs_shrink: the runs view's shrink key (Z) and :shrink.
 *
 * On the selected run of the runs view (b), when it failed, the run's
 * input is made smaller while it keeps its outcome, as `kpath shrink
 * GRAMMAR INPUT -- COMMAND` does (src/run/shrink_run.h: tree edits over
 * its derivation tree, ddmin on characters when the grammar does not parse
 * it), COMMAND being the one of the runs' results file.  The runs go one
 * at a time through a run_batch in a temporary directory (removed at the
 * end) as a job (JOB_SHRINK): each slice steps the search, waiting for a
 * run only as long as the slice lasts, so keys stay responsive; any key
 * stops it and kills the run under way with its process group.  The
 * message line shows the runs used and the smallest size so far; at the
 * end it says the sizes before and after, the runs used and the result,
 * which is added to the inputs (a generated input, its origin naming the
 * input and the outcome), unless the grammar does not parse it or the
 * input could not be made smaller.
 *
 * App layer: the job (struct job_ops, job.h) adds inputs and shows
 * messages; Z reaches it as the inputs pane's REQ_ACTION.
 *
 * Ownership: ui->shrink owns the batch, the search and their diagnostics. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/samples.h"
#include "base/xalloc.h"
#include "job.h"
#include "messages.h"
#include "parse/parse.h"
#include "run/run_batch.h"
#include "run/shrink_run.h"
#include "runs_job.h"
#include "runs_shrink.h"
#include "session.h"
#include "ui.h"

#define SHRINK_USAGE \
    "usage: :shrink [--timeout S] [--max-memory N] (on a failed run of the runs view, b)"

struct runs_shrink {
    struct run_batch *batch;
    struct shrink_run *s;
    struct diag_list diags;
    size_t input;   /* the workspace input (0-based), or SIZE_MAX: a file's */
    char *name;     /* "input 7", or the run's input file */
    size_t before;  /* bytes */
};

static void state_free(struct ui *ui)
{
    struct runs_shrink *sh = ui->shrink;
    if (!sh)
        return;
    shrink_run_free(sh->s); /* kills the run under way */
    run_batch_close(sh->batch);
    diag_list_free(&sh->diags);
    free(sh->name);
    free(sh);
    ui->shrink = NULL;
}

void runs_shrink_start(struct ui *ui, char **words, int n)
{
    struct workspace *ws = ui->ws;
    struct runner_options ro;
    runner_default_options(&ro);
    for (int i = 0; i < n; i++) {
        const char *w = words[i], *v = i + 1 < n ? words[i + 1] : NULL;
        if (strcmp(w, "--timeout") != 0 && strcmp(w, "--max-memory") != 0) {
            ui_error(ui, ":shrink: no option '%s'; %s", w, SHRINK_USAGE);
            return;
        }
        if (!v) {
            ui_error(ui, ":shrink: %s needs a value; %s", w, SHRINK_USAGE);
            return;
        }
        if (ui_runner_option(ui, ":shrink", w, v, &ro) != 1)
            return;
        i++;
    }
    ro.jobs = 1; /* each question depends on the answer before */
    if (ui->inputs_view != INPUTS_RUNS) {
        ui_error(ui, "Z shrinks the input of a failed run: b in the inputs pane shows the runs "
                     "of :run");
        return;
    }
    const struct run_record *rec = runs_record(ui, ui->list[PANE_INPUTS].cursor);
    if (!rec) {
        ui_error(ui, "no run selected: :run -- COMMAND runs the inputs through a program");
        return;
    }
    if (strcmp(rec->outcome, "exit:0") == 0) {
        ui_error(ui, "this run exited 0: Z shrinks the input of a failed run, keeping its "
                     "outcome");
        return;
    }
    if (!ui->runs.header.ncommand) {
        ui_error(ui, "the results file names no command to run");
        return;
    }
    state_free(ui);
    struct runs_shrink *sh = xcalloc(1, sizeof *sh);
    struct strbuf text = STRBUF_INIT;
    size_t in = inputs_selected(ui);
    sh->input = in;
    if (in != SIZE_MAX) {
        strbuf_add(&text, ws->inputs[in].text, ws->inputs[in].len);
        struct strbuf nm = STRBUF_INIT;
        strbuf_addf(&nm, "input %zu", in + 1);
        sh->name = strbuf_detach(&nm, NULL);
    } else {
        sh->name = xstrdup(rec->input);
        if (!samples_read(rec->input, PARSE_DEFAULT_MAX_INPUT, &text, &sh->diags)) {
            ui->shrink = sh;
            ui_diags(ui, &sh->diags);
            state_free(ui);
            strbuf_free(&text);
            return;
        }
    }
    sh->before = text.len;
    struct run_batch_options bo = {
        .runner = ro, .argv = ui->runs.header.command, .nargv = ui->runs.header.ncommand,
        .keep_going = true, .grammar = ws->grammar_path, .start = ws->start};
    sh->batch = run_batch_new(&bo, &sh->diags);
    ui->shrink = sh;
    if (!sh->batch) {
        ui_diags(ui, &sh->diags);
        state_free(ui);
        strbuf_free(&text);
        return;
    }
    struct shrink_run_options so = {.graph = ws->graph};
    sh->s = shrink_run_new(sh->batch, &so, strbuf_str(&text), text.len);
    strbuf_free(&text);
    ui->job = JOB_SHRINK;
    ui->job_started = ui_now();
}

/* The result as the message shows it: escaped, cut. */
static void add_result(const char *text, size_t len, struct strbuf *out)
{
    escape_text(text, len, out->len + 60, out);
}

static void shrink_finished(struct ui *ui)
{
    struct runs_shrink *sh = ui->shrink;
    if (!sh)
        return;
    struct workspace *ws = ui->ws;
    enum shrink_run_state st = shrink_run_state(sh->s);
    for (size_t i = 0; i < sh->diags.len; i++) {
        struct strbuf one = STRBUF_INIT;
        diag_format(&sh->diags.items[i], &one);
        ui_log(ui, sh->diags.items[i].severity == DIAG_ERROR, strbuf_str(&one));
        strbuf_free(&one);
    }
    size_t runs = shrink_run_runs(sh->s), len;
    const char *result = shrink_run_result(sh->s, &len);
    struct strbuf kept = STRBUF_INIT, msg = STRBUF_INIT;
    shrink_run_kept(sh->s, &kept);
    if (st == SHRINK_RUN_FAILED) {
        strbuf_addf(&msg, "shrink of %s stopped: ", sh->name);
        size_t i = 0;
        while (i < sh->diags.len && sh->diags.items[i].severity != DIAG_ERROR)
            i++;
        if (i < sh->diags.len)
            diag_format(&sh->diags.items[i], &msg);
        else
            strbuf_addf(&msg, "a run failed after %zu runs", runs);
        ui_error(ui, "%s", strbuf_str(&msg));
    } else if (st == SHRINK_RUN_REFUSED) {
        ui_error(ui, "%s no longer fails: its run exits 0 now, nothing to keep", sh->name);
    } else if (len == sh->before && st == SHRINK_RUN_STOPPED) {
        ui_message(ui, "shrink of %s stopped after %zu run%s: nothing smaller found yet",
                   sh->name, runs, runs == 1 ? "" : "s");
    } else if (len == sh->before) {
        strbuf_addf(&msg, "%s is as small as it gets keeping %s (%zu bytes, %zu runs)", sh->name,
                    strbuf_str(&kept), len, runs);
        ui_message(ui, "%s", strbuf_str(&msg));
    } else {
        strbuf_addf(&msg, "%s%s shrank %zu -> %zu bytes, %zu runs, keeping %s; ",
                    st == SHRINK_RUN_STOPPED ? "stopped: " : "", sh->name, sh->before, len, runs,
                    strbuf_str(&kept));
        struct diag_list d = DIAG_LIST_INIT;
        if (workspace_add_parsed(ws, result, len, &d)) {
            struct strbuf o = STRBUF_INIT;
            strbuf_addstr(&o, "{\"made_by\": \"shrink\", \"of\": ");
            if (sh->input != SIZE_MAX)
                strbuf_addf(&o, "%zu", sh->input + 1);
            else
                json_add_cstring(&o, sh->name);
            strbuf_addstr(&o, ", \"keeping\": ");
            json_add_cstring(&o, strbuf_str(&kept));
            strbuf_addf(&o, ", \"runs\": %zu}", runs);
            struct ws_input *in = &ws->inputs[ws->ninputs - 1];
            free(in->origin);
            in->origin = strbuf_detach(&o, NULL);
            ui_workspace_changed(ui);
            strbuf_addf(&msg, "input %zu: ", ws->ninputs);
        } else {
            strbuf_addstr(&msg, "not added (the grammar does not parse it): ");
        }
        add_result(result, len, &msg);
        diag_list_free(&d);
        ui_message(ui, "%s", strbuf_str(&msg));
    }
    ui->message_more = sh->diags.len > 0;
    strbuf_free(&kept);
    strbuf_free(&msg);
    state_free(ui);
}

static bool shrink_slice(struct ui *ui, double deadline)
{
    struct runs_shrink *sh = ui->shrink;
    if (!sh)
        return false;
    for (;;) {
        double left = deadline - ui_now();
        int wait_ms = left <= 0 ? 0 : left > 0.05 ? 50 : (int)(left * 1000);
        if (shrink_run_step(sh->s, wait_ms, &sh->diags) != SHRINK_RUN_RUNNING)
            return false;
        if (ui_now() >= deadline)
            return true;
    }
}

static void shrink_stop(struct ui *ui, const char *why)
{
    (void)why;
    if (!ui->shrink)
        return;
    shrink_run_stop(ui->shrink->s); /* kills the run under way */
    shrink_finished(ui);
}

static void shrink_status(struct ui *ui, int width, struct strbuf *out)
{
    (void)width;
    struct runs_shrink *sh = ui->shrink;
    if (!sh)
        return;
    size_t len;
    shrink_run_result(sh->s, &len);
    strbuf_addf(out, " shrinking %s: %zu -> %zu bytes so far, %zu runs (any key stops) ",
                sh->name, sh->before, len, shrink_run_runs(sh->s));
}

const struct job_ops shrink_job_ops = {
    .slice = shrink_slice, .finished = shrink_finished, .stop = shrink_stop,
    .status = shrink_status, .status_style = EL_PROGRESS,
    .forget = state_free, /* it borrows the old workspace's graph */
    .free = state_free,
};
