/* app_jobs: the explorer's own jobs (app_jobs.h): the generator, loading
 * samples and restoring the autosave, each behind its struct job_ops. */
#include <inttypes.h>
#include <stdlib.h>

#include "app_jobs.h"
#include "base/number.h"
#include "base/samples.h"
#include "base/xalloc.h"
#include "job.h"
#include "messages.h"
#include "session.h"
#include "workspace/workspace_file.h"

static void run_finished(struct ui *ui, bool stopped)
{
    struct workspace *ws = ui->ws;
    size_t made = ws->ninputs - (size_t)ui->job_inputs_before;
    struct strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "%s: %zu new input%s; ", stopped ? "stopped" : "done", made,
                made == 1 ? "" : "s");
    if (!ws->space.saturated) {
        uint64_t all = workspace_count(ws, WS_ALL);
        strbuf_addf(&sb, "k=%u coverage %" PRIu64 "/%" PRIu64 " (", ws->k, ws->covered.size, all);
        number_add_percent(&sb, ws->covered.size, all);
        strbuf_addstr(&sb, "%)");
    }
    strbuf_addf(&sb, "; expansions %" PRIu64 "/%" PRIu64, workspace_expansions_used(ws),
                workspace_expansions_total(ws));
    if (ws->gen && ws->gen->nunreachable)
        strbuf_addf(&sb, "; %zu k-path%s need%s more depth than %u", ws->gen->nunreachable,
                    ws->gen->nunreachable == 1 ? "" : "s", ws->gen->nunreachable == 1 ? "s" : "",
                    ws->gen_opts.max_depth);
    if (ui->cover_restores) {
        ui->cover_restores = false;
        ws->gen_opts.strategy = (enum gen_strategy)ui->cover_strategy;
        workspace_gen_reset(ws, false);
        strbuf_addf(&sb, "; :cover used kpath, the strategy is %s again",
                    gen_strategy_name(ws->gen_opts.strategy));
    }
    if (ws->gen_error)
        ui_error(ui, "%s; error: %s", strbuf_str(&sb), ws->gen_error);
    else
        ui_message(ui, "%s", strbuf_str(&sb));
    strbuf_free(&sb);
}

static bool run_slice(struct ui *ui, double deadline)
{
    for (;;) {
        bool more = true;
        for (int i = 0; i < 256 && more; i++)
            more = workspace_gen_step(ui->ws);
        if (!more)
            return false;
        if (ui_now() >= deadline)
            return true;
    }
}

static void run_done(struct ui *ui)
{
    run_finished(ui, false);
}

static void run_stop(struct ui *ui, const char *why)
{
    (void)why;
    run_finished(ui, true);
}

static void run_status(struct ui *ui, int width, struct strbuf *sb)
{
    (void)width;
    struct workspace *ws = ui->ws;
    strbuf_addf(sb, " running: %zu new input%s, ", ws->ninputs - (size_t)ui->job_inputs_before,
                ws->ninputs - (size_t)ui->job_inputs_before == 1 ? "" : "s");
    if (ws->gen && ws->gen->opts.strategy == GEN_KPATH)
        strbuf_addf(sb, "%" PRIu64 " k-paths left on the agenda", gen_agenda_left(ws->gen));
    else
        strbuf_addf(sb, "%" PRIu64 " k-paths uncovered", workspace_count(ws, WS_UNCOVERED));
    strbuf_addstr(sb, " (any key stops) ");
}

const struct job_ops run_job_ops = {
    .slice = run_slice, .finished = run_done, .stop = run_stop, .status = run_status,
    .status_style = EL_PROGRESS,
};


/* The end of loading samples (all read, or stopped by a key): say what came
 * of it in the status line. */
static void samples_finished(struct ui *ui, bool stopped)
{
    struct strbuf sb = STRBUF_INIT;
    size_t added = ui->job_added;
    strbuf_addf(&sb, "%zu sample%s added", added, added == 1 ? "" : "s");
    if (added)
        strbuf_addf(&sb, " (inputs %" PRIu64 "..%zu)", ui->job_inputs_before + 1, ui->ws->ninputs);
    if (stopped) {
        strbuf_addf(&sb, "; stopped after %zu of %zu files", ui->job_next, ui->job_files.len);
        if (ui->job_stop_note) {
            const struct diag *d = &ui->job_diags.items[ui->job_stop_note - 1];
            strbuf_addf(&sb, ", in %s at %" PRIu32 ":%" PRIu32, d->file ? d->file : "?", d->line,
                        d->col);
        }
    }
    /* every diagnostic goes to the log; the line shows the first error */
    struct strbuf one = STRBUF_INIT;
    for (size_t i = 0; i < ui->job_diags.len; i++) {
        strbuf_reset(&one);
        diag_format(&ui->job_diags.items[i], &one);
        ui_log(ui, ui->job_diags.items[i].severity == DIAG_ERROR, strbuf_str(&one));
    }
    strbuf_free(&one);
    if (ui->job_diags.errors) {
        for (size_t i = 0; i < ui->job_diags.len; i++) {
            if (ui->job_diags.items[i].severity != DIAG_ERROR)
                continue;
            strbuf_addf(&sb, "; %zu failed: ", ui->job_diags.errors);
            diag_format(&ui->job_diags.items[i], &sb);
            break;
        }
        ui_error(ui, "%s", strbuf_str(&sb));
    } else {
        ui_message(ui, "%s", strbuf_str(&sb));
    }
    ui->message_more = ui->job_diags.len > 1;
    strbuf_free(&sb);
    sample_list_free(&ui->job_files);
    diag_list_free(&ui->job_diags);
    ui->job_stop_note = 0;
}

void ui_start_samples(struct ui *ui, char *const *paths, size_t n)
{
    sample_list_free(&ui->job_files);
    diag_list_free(&ui->job_diags);
    samples_expand((const char *const *)paths, n, false, &ui->job_files, &ui->job_diags);
    ui->job_next = ui->job_added = ui->job_stop_note = 0;
    ui->job_inputs_before = ui->ws->ninputs;
    ui->job_started = ui_now();
    ui->parse_interrupted = false;
    ui->job = JOB_SAMPLES;
    ui_job_slice(ui, 0.02);
}

void ui_start_restore(struct ui *ui)
{
    if (ui->job)
        ui_job_stop(ui, NULL);
    diag_list_free(&ui->job_diags);
    ui->job_loader = workspace_load_begin(ui->autosave_path, &ui->job_diags);
    if (!ui->job_loader) {
        ui_diags(ui, &ui->job_diags);
        return;
    }
    ui->job_started = ui_now();
    ui->restore_keys_ignored = 0;
    ui->job = JOB_RESTORE;
    ui_job_slice(ui, 0.02);
}

/* The restore job loaded every line: the session replaces the workspace. */
static void restore_finished(struct ui *ui)
{
    struct workspace *ws = workspace_load_finish(ui->job_loader, &ui->job_diags);
    ui->job_loader = NULL;
    /* :save writes to the user's workspace file when the session was
     * started from one; otherwise it asks for a name (the autosave is not
     * the user's file) */
    free(ws->file);
    ws->file = ui->ws->file ? xstrdup(ui->ws->file) : NULL;
    ws->dirty = true;
    ui_set_workspace(ui, ws);
    ui->saved_changes = 0;
    /* What was dropped goes to the log; the message line says so. */
    struct strbuf one = STRBUF_INIT;
    for (size_t i = 0; i < ui->job_diags.len; i++) {
        strbuf_reset(&one);
        diag_format(&ui->job_diags.items[i], &one);
        ui_log(ui, ui->job_diags.items[i].severity == DIAG_ERROR, strbuf_str(&one));
    }
    strbuf_free(&one);
    ui_message(ui, "restored the autosaved session: %zu input%s, k=%u%s", ws->ninputs,
               ws->ninputs == 1 ? "" : "s", ws->k,
               ui->job_diags.len ? "; with warnings (M shows the log)" : "");
    ui->message_more = ui->job_diags.len > 0;
    diag_list_free(&ui->job_diags);
}

/* JOB_SAMPLES: a few files per slice (ui_start_samples). */
static bool samples_slice(struct ui *ui, double deadline)
{
    /* The parse was stopped for a key (the first slice runs inside the
     * command, before the loop reads keys): one slice does nothing, so
     * that the loop reads it; if it was no key, the job goes on. */
    if (ui->parse_interrupted) {
        ui->parse_interrupted = false;
        return true;
    }
    ui->ws->parse_should_stop = ui->parse_should_stop;
    ui->ws->parse_should_stop_ctx = ui;
    while (ui->job_next < ui->job_files.len) {
        const char *path = ui->job_files.paths[ui->job_next++];
        ui->job_file_since = ui_now();
        size_t diags_before = ui->job_diags.len;
        ui->job_added += workspace_add_sample_file(ui->ws, path, &ui->job_diags);
        if (ui->parse_interrupted) {
            /* Stopped by the user, not failed: the file counts as not
             * read, and where it stopped is a note, not an error. */
            ui->job_next--;
            for (size_t i = diags_before; i < ui->job_diags.len; i++) {
                if (ui->job_diags.items[i].severity != DIAG_ERROR)
                    continue;
                ui->job_diags.items[i].severity = DIAG_NOTE;
                ui->job_diags.errors--;
                ui->job_stop_note = i + 1;
            }
        }
        if (ui->parse_interrupted || ui_now() >= deadline)
            break;
    }
    ui->ws->parse_should_stop = NULL;
    ui_workspace_changed(ui);
    /* Interrupted: the key waiting stops the job (as "stopped"). */
    return ui->job_next < ui->job_files.len || ui->parse_interrupted;
}

static void samples_done(struct ui *ui)
{
    samples_finished(ui, false);
}

static void samples_stop(struct ui *ui, const char *why)
{
    (void)why;
    samples_finished(ui, true);
}

static void samples_status(struct ui *ui, int width, struct strbuf *sb)
{
    strbuf_addf(sb, " loading samples (any key stops): %zu of %zu files, %zu added",
                ui->job_next, ui->job_files.len, ui->job_added);
    /* A file that takes long is named, the end of its path kept when
     * the line is short (the parse redraws the screen now and then:
     * see term.c's parse_should_stop). */
    double took = ui_now() - ui->job_file_since;
    if (ui->job_next > 0 && took >= 1.0) {
        const char *name = samples_display_name(ui->job_files.paths[ui->job_next - 1]);
        strbuf_addf(sb, "; %.0f s on ", took);
        strbuf_add_tail(sb, name, (size_t)width > sb->len ? (size_t)width - sb->len : 0);
    }
}

const struct job_ops samples_job_ops = {
    .slice = samples_slice, .finished = samples_done, .stop = samples_stop,
    .status = samples_status, .status_style = EL_STATUS,
};

/* JOB_RESTORE: some lines of the autosave per slice (ui_start_restore). */
static bool restore_slice(struct ui *ui, double deadline)
{
    bool more;
    while ((more = workspace_load_step(ui->job_loader, 256, &ui->job_diags)) &&
           ui_now() < deadline)
        ;
    return more;
}

static void restore_stop(struct ui *ui, const char *why)
{
    (void)why;
    workspace_load_abort(ui->job_loader);
    ui->job_loader = NULL;
    diag_list_free(&ui->job_diags);
    ui_message(ui, "restoring stopped: the autosaved session was not loaded");
}

static void restore_status(struct ui *ui, int width, struct strbuf *sb)
{
    (void)width;
    size_t done, total = workspace_load_lines(ui->job_loader, &done);
    strbuf_addf(sb, " restoring the autosave: %zu%% (q quits and keeps it",
                total ? done * 100 / total : 100);
    if (ui->restore_keys_ignored)
        strbuf_addf(sb, "; %u other key%s ignored", ui->restore_keys_ignored,
                    ui->restore_keys_ignored == 1 ? "" : "s");
    strbuf_addch(sb, ')');
}

static void restore_free(struct ui *ui)
{
    workspace_load_abort(ui->job_loader);
    ui->job_loader = NULL;
}

const struct job_ops restore_job_ops = {
    .slice = restore_slice, .finished = restore_finished, .stop = restore_stop,
    .status = restore_status, .status_style = EL_STATUS, .free = restore_free,
};

void ui_start_run(struct ui *ui)
{
    struct workspace *ws = ui->ws;
    if (!workspace_gen_running(ws)) {
        struct diag_list d = DIAG_LIST_INIT;
        if (!workspace_gen_start(ws, 0, &d)) {
            ui_diags(ui, &d);
            return;
        }
        diag_list_free(&d);
    }
    ui->job = JOB_RUN;
    ui->job_inputs_before = ws->ninputs;
    ui->job_started = ui_now();
}
