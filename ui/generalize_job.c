/* generalize_job: `kpath generalize` in the explorer.
 *
 * `:generalize [OPTIONS] SAMPLE|DIR... -- COMMAND [ARG...]` widens the
 * explored grammar (read again from its file) by membership queries, as the
 * CLI does, as a job (JOB_GENERALIZE): each slice steps the state machine of
 * src/infer/generalize.h and hands the inputs it asks about to the runner through
 * src/infer/membership's step API, waiting for them only as long as the slice
 * lasts, so keys stay responsive.  Any key stops it: every run under way is
 * killed with its process group, and the grammar keeps every change
 * concluded so far.
 *
 * The generalization view (W, or :generalize alone) is an overlay: the
 * state and the learned grammar with its #: notes (which queries justified
 * each change), then the query log grouped by attempt like the paper's
 * Figure 5 (each input, yes (valid) or no (invalid), the conclusion); while
 * the job runs it follows the log's end.  The learned grammar is written
 * with -o FILE when the run ends (the CLI's -o) or with `:learned FILE`,
 * which then explores it: an existing FILE is replaced only after a yes,
 * and unsaved work is dropped only with `:learned!` (like :load!).
 *
 * App layer: :generalize, :learned and the job are the app's (they show
 * messages, ask questions, swap the workspace); the view's lines are drawn
 * by generalize_view.c.
 *
 * Ownership: ui->gz owns everything here (the grammar being generalized, the
 * samples, the lattice, the membership and its runs, the log). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "messages.h"
#include "runs_job.h"
#include "session.h"
#include "ui.h"
#include "infer/generalize.h"
#include "generalize_view.h"
#include "formats/grammar_write.h"
#include "infer/rule_names.h"
#include "job.h"
#include "infer/membership.h"
#include "base/number.h"
#include "base/xalloc.h"

#define GZ_USAGE "usage: :generalize [-o FILE] [--lattice FILE] [--valid-exit CODES] [-j N] " \
                 "[--timeout S] [--max-memory N] [--max-queries N] [--no-strings] "          \
                 "[--no-repetitions] [--no-optional] SAMPLE|DIR... -- COMMAND [ARG...]"

static void job_free(struct generalize_job *j)
{
    if (!j)
        return;
    if (j->m)
        membership_free(j->m); /* kills what still runs */
    if (j->z)
        generalize_finish(j->z);
    generalize_result_free(&j->res);
    grammar_free(j->g);
    free(j->grammar_name);
    free(j->command);
    free(j->out);
    if (j->have_lattice)
        lattice_free(&j->lattice);
    free(j->lattice_path);
    for (size_t i = 0; i < j->files.len; i++)
        strbuf_free(&j->texts[i]);
    free(j->texts);
    free(j->samples);
    sample_list_free(&j->files);
    diag_list_free(&j->diags);
    for (size_t i = 0; i < j->nblocks; i++)
        strbuf_free(&j->blocks[i]);
    free(j->blocks);
    strbuf_free(&j->learned);
    free(j->pending_path);
    free(j);
}

static void generalize_job_free(struct ui *ui)
{
    job_free(ui->gz);
    ui->gz = NULL;
}

/* How the run of input i of the last batch ended (a sample not accepted). */
static const char *why_answer(void *ctx, size_t i)
{
    const struct generalize_job *j = ctx;
    return membership_why(j->m, i);
}

static void log_block(void *ctx, const char *text, size_t len)
{
    struct generalize_job *j = ctx;
    j->blocks = xgrow(j->blocks, &j->blocks_cap, j->nblocks + 1, sizeof *j->blocks);
    j->blocks[j->nblocks] = (struct strbuf)STRBUF_INIT;
    strbuf_add(&j->blocks[j->nblocks++], text, len);
}

struct job_notes {
    const struct generalize_result *res;
    const struct rule_names *names;
};

static void note_rule(void *ctx, const struct grammar *g, uint32_t rule, struct strbuf *out)
{
    const struct job_notes *n = ctx;
    const struct generalize_result *res = n->res;
    if (rule < res->nnotes && res->notes[rule].len)
        strbuf_add(out, res->notes[rule].data, res->notes[rule].len);
    rule_names_note(n->names, g, rule, out);
}

/* ---- starting ---------------------------------------------------------------------------- */

static bool size_value(struct ui *ui, const char *opt, const char *v, uint64_t min, uint64_t *out)
{
    if (!number_parse_u64(v, out) || *out < min) {
        ui_error(ui, ":generalize: %s takes a whole number of at least %llu, not '%s'", opt,
                 (unsigned long long)min, v);
        return false;
    }
    return true;
}

void generalize_job_start(struct ui *ui, char **words, int n, bool force)
{
    if (ui->job) {
        ui_error(ui, ":generalize: another job is under way");
        return;
    }
    if (n == 0) {
        if (!ui->gz) {
            ui_error(ui, "no generalization yet; %s", GZ_USAGE);
            return;
        }
        generalize_view_show(ui);
        return;
    }
    struct workspace *ws = ui->ws;
    struct generalize_job *j = xcalloc(1, sizeof *j);
    generalize_options_default(&j->o);
    struct runner_options ro;
    runner_default_options(&ro);
    struct oracle_exits exits = {0};
    exits.ok[0] = true;
    const char **positional = xcalloc((size_t)n + 1, sizeof *positional);
    size_t npositional = 0;
    int i = 0;
    bool ok = true;
    for (; ok && i < n; i++) {
        const char *w = words[i], *v = i + 1 < n ? words[i + 1] : NULL;
        if (strcmp(w, "--") == 0) {
            i++;
            break;
        }
        if (w[0] != '-' || w[1] == '\0') {
            positional[npositional++] = w;
            continue;
        }
        bool *flag = strcmp(w, "--no-strings") == 0       ? &j->o.strings
                     : strcmp(w, "--no-repetitions") == 0 ? &j->o.repetitions
                     : strcmp(w, "--no-optional") == 0    ? &j->o.optional
                                                          : NULL;
        if (flag) {
            *flag = false;
            continue;
        }
        static const char *const takes[] = {"-o", "--output", "--lattice", "--valid-exit", "-j",
                                            "--jobs", "--timeout", "--max-memory",
                                            "--max-queries"};
        bool known = false;
        for (size_t t = 0; t < sizeof takes / sizeof *takes; t++)
            known = known || strcmp(w, takes[t]) == 0;
        if (!known) {
            ui_error(ui, ":generalize: no option '%s'; %s", w, GZ_USAGE);
            ok = false;
            break;
        }
        if (!v) {
            ui_error(ui, ":generalize: %s needs a value; %s", w, GZ_USAGE);
            ok = false;
            break;
        }
        i++;
        uint64_t u;
        if (strcmp(w, "-o") == 0 || strcmp(w, "--output") == 0) {
            free(j->out);
            j->out = xstrdup(v);
        } else if (strcmp(w, "--lattice") == 0) {
            free(j->lattice_path);
            j->lattice_path = xstrdup(v);
        } else if (strcmp(w, "--valid-exit") == 0) {
            if (!oracle_exits_parse(v, &exits)) {
                ui_error(ui, ":generalize: --valid-exit takes exit codes 0..255 separated by "
                             "commas, like 0,1, not '%s'", v);
                ok = false;
            }
        } else if (strcmp(w, "--max-queries") == 0) {
            ok = size_value(ui, "--max-queries", v, 1, &u);
            j->o.max_queries = (size_t)u;
        } else {
            ok = ui_runner_option(ui, ":generalize", w, v, &ro) == 1;
        }
    }
    if (ok && !npositional) {
        ui_error(ui, ":generalize: no SAMPLE (generalizing starts from valid inputs); %s",
                 GZ_USAGE);
        ok = false;
    }
    if (ok && i >= n) {
        ui_error(ui, ":generalize: no -- COMMAND (the oracle); %s", GZ_USAGE);
        ok = false;
    }
    struct diag_list d = DIAG_LIST_INIT;
    if (ok && !runner_check_command(words[i], &d))
        ok = false;
    struct stat st;
    if (ok && j->out && !force && stat(j->out, &st) == 0) {
        ui_error(ui, "%s exists: :generalize! replaces it when the generalization ends (or -o "
                     "names another file)", j->out);
        ok = false;
    }
    /* the lattice, the grammar from its file (the explored one may carry
     * :dup changes), the samples */
    if (ok && j->o.strings) {
        struct strbuf path = STRBUF_INIT;
        if (j->lattice_path)
            strbuf_addstr(&path, j->lattice_path);
        else if (!lattice_default_path(&path))
            diag_add(&d, DIAG_ERROR, NULL, 0, 0, "cannot find the default lattice (%s); give "
                     "one with --lattice FILE or use --no-strings", strbuf_str(&path));
        if (!d.errors)
            j->have_lattice = lattice_load(path.data, &j->lattice, &d);
        ok = j->have_lattice;
        strbuf_free(&path);
    }
    if (ok) {
        struct grammar_options go = {.start = ws->start};
        j->g = grammar_open(ws->grammar_path, ws->format, &go, &d);
        ok = j->g != NULL;
    }
    if (ok) {
        samples_expand((const char *const *)positional, npositional, false, &j->files, &d);
        j->texts = xcalloc(j->files.len ? j->files.len : 1, sizeof *j->texts);
        j->samples = xcalloc(j->files.len ? j->files.len : 1, sizeof *j->samples);
        for (size_t s = 0; s < j->files.len && !d.errors; s++) {
            if (!samples_read(j->files.paths[s], j->o.po.max_input_size, &j->texts[s], &d))
                break;
            j->samples[s] = (struct generalize_sample){samples_display_name(j->files.paths[s]),
                                                       j->texts[s].data ? j->texts[s].data : "",
                                                       j->texts[s].len};
        }
        j->nsamples = j->files.len;
        if (!d.errors && !j->files.len)
            diag_add(&d, DIAG_ERROR, NULL, 0, 0, "no sample to start from");
        ok = !d.errors;
    }
    free(positional);
    if (!ok) {
        if (d.len)
            ui_diags(ui, &d);
        diag_list_free(&d);
        job_free(j);
        return;
    }
    diag_list_free(&d);
    j->grammar_name = xstrdup(ws->grammar_path);
    struct strbuf cmd = STRBUF_INIT;
    for (int c = i; c < n; c++)
        strbuf_addf(&cmd, "%s%s", c > i ? " " : "", words[c]);
    j->command = strbuf_detach(&cmd, NULL);
    char **argv = xcalloc((size_t)(n - i) + 1, sizeof *argv);
    for (int c = i; c < n; c++)
        argv[c - i] = words[c];
    j->m = membership_new(&ro, argv, &exits);
    free(argv);
    j->o.lattice = j->have_lattice ? &j->lattice : NULL;
    j->o.lattice_name = j->lattice_path ? j->lattice_path : LATTICE_DEFAULT;
    j->o.log = log_block;
    j->o.log_ctx = j;
    j->o.why = why_answer;
    j->o.why_ctx = j;
    j->z = generalize_begin(j->g, j->samples, j->nsamples, &j->o, &j->res, &j->diags);
    generalize_job_free(ui);
    ui->gz = j;
    ui->job = JOB_GENERALIZE;
    ui->job_started = ui_now();
    generalize_view_show(ui);
}

/* ---- the job ----------------------------------------------------------------------------- */

/* The run is over (to its end, failed, or stopped by a key). */
static void finished(struct ui *ui, bool stopped)
{
    struct generalize_job *j = ui->gz;
    if (j->asking)
        membership_cancel(j->m); /* SIGKILL to every run's group, reaped */
    j->asking = false;
    bool ok = generalize_finish(j->z);
    j->z = NULL;
    membership_free(j->m);
    j->m = NULL;
    j->state = stopped ? GZ_STOPPED : ok ? GZ_DONE : GZ_FAILED;
    /* names that read, as kpath generalize gives them (src/infer/rule_names.h) */
    struct rule_names names = {0};
    if (j->state != GZ_FAILED)
        rule_names_apply(j->g, &names);
    struct job_notes notes = {&j->res, &names};
    struct grammar_write_options wo = {.note = note_rule, .ctx = &notes};
    strbuf_reset(&j->learned);
    if (j->state != GZ_FAILED)
        grammar_write(j->g, &wo, &j->learned);
    rule_names_free(&names);
    bool written = false;
    if (j->state == GZ_DONE && j->out) {
        written = write_file_atomic(j->out, j->learned.data ? j->learned.data : "",
                                    j->learned.len, &j->diags);
        if (!written)
            j->state = GZ_FAILED;
    }
    struct strbuf one = STRBUF_INIT;
    const struct diag *first_error = NULL;
    for (size_t i = 0; i < j->diags.len; i++) {
        const struct diag *dg = &j->diags.items[i];
        strbuf_reset(&one);
        diag_format(dg, &one);
        ui_log(ui, dg->severity == DIAG_ERROR, strbuf_str(&one));
        if (dg->severity == DIAG_ERROR && !first_error)
            first_error = dg;
    }
    strbuf_reset(&one);
    size_t q = j->res.queries;
    if (j->state == GZ_FAILED) {
        strbuf_addstr(&one, "generalize failed: ");
        if (first_error)
            diag_format(first_error, &one);
        ui_error(ui, "%s", strbuf_str(&one));
    } else {
        strbuf_addf(&one, "%s: %zu quer%s (%zu accepted), %zu change%s", stopped ? "generalization stopped" : "generalized",
                    q, q == 1 ? "y" : "ies", j->res.accepted, j->res.changes,
                    j->res.changes == 1 ? "" : "s");
        if (written)
            strbuf_addf(&one, "; written to %s (:load it, or :learned)", j->out);
        else
            strbuf_addstr(&one, stopped ? " kept; :learned FILE explores the grammar so far"
                                        : "; :learned FILE explores it");
        ui_message(ui, "%s", strbuf_str(&one));
    }
    ui->message_more = j->diags.len > 0;
    strbuf_free(&one);
    diag_list_free(&j->diags);
    if (ui->overlay == OVERLAY_GENERALIZE)
        ui->help_top = 0; /* the result, at the top */
}

static bool generalize_job_slice(struct ui *ui, double deadline)
{
    struct generalize_job *j = ui->gz;
    for (;;) {
        if (j->asking) {
            double left = deadline - ui_now();
            int wait_ms = left <= 0 ? 0 : left > 0.05 ? 50 : (int)(left * 1000);
            enum membership_state st = membership_poll(j->m, wait_ms, &j->diags);
            if (st == MEMBERSHIP_WAITING) {
                if (ui_now() >= deadline)
                    return true;
                continue;
            }
            j->asking = false;
            generalize_answered(j->z, st == MEMBERSHIP_DONE);
        }
        enum generalize_state st = generalize_step(j->z);
        if (st == GENERALIZE_DONE) {
            finished(ui, false);
            return false;
        }
        if (st == GENERALIZE_ASK) {
            const char *const *texts = NULL;
            const size_t *lens = NULL;
            enum membership_answer *answers = NULL;
            size_t n = generalize_questions(j->z, &texts, &lens, &answers);
            membership_begin(j->m, texts, lens, n, answers);
            j->asking = true;
        }
        if (ui_now() >= deadline)
            return true;
    }
}

static void generalize_job_stop(struct ui *ui, const char *why)
{
    (void)why;
    if (ui->gz && ui->gz->z)
        finished(ui, true);
}

static void generalize_job_status(struct ui *ui, int width, struct strbuf *out)
{
    (void)width;
    struct generalize_job *j = ui->gz;
    struct generalize_progress p;
    generalize_progress(j->z, &p);
    size_t of = 0, answered = j->asking ? membership_answered(j->m, &of) : 0;
    strbuf_addf(out, " generalizing: %zu quer%s", p.queries + answered,
                p.queries + answered == 1 ? "y" : "ies");
    if (p.rule)
        strbuf_addf(out, ", rule %u of %u", p.rule_index + 1, p.rules);
    if (p.attempt)
        strbuf_addf(out, ", %s", p.attempt);
    strbuf_addstr(out, " (any key stops) ");
}

/* ---- opening the view -------------------------------------------------------------------- */

void generalize_view_show(struct ui *ui)
{
    ui_overlay(ui, OVERLAY_GENERALIZE);
    if (ui->gz && ui->gz->state == GZ_RUNNING)
        ui->help_top = UINT64_MAX / 2; /* follow the log as it grows */
}

/* ---- :learned FILE ---------------------------------------------------------------------- */

/* Explores the learned grammar in PATH in place of the current one, saying
 * whether it was WRITTEN just now; the loader's warnings, if any, are the
 * message instead. */
static void explore_learned(struct ui *ui, const char *path, bool written)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct workspace *ws = workspace_new_format(path, ui->ws->start, GRAMMAR_FORMAT_EBNF, &d);
    if (!ws) {
        ui_diags(ui, &d);
        return;
    }
    ui_set_workspace(ui, ws);
    ui->overlay = OVERLAY_NONE;
    if (d.len)
        ui_diags(ui, &d);
    else
        ui_message(ui, "%s %s%s: %u rule%s, %u nodes",
                   written ? "wrote the learned grammar to" : "loaded the learned grammar", path,
                   written ? " and loaded it" : "", ws->grammar->nrules,
                   ws->grammar->nrules == 1 ? "" : "s", ws->graph->nnodes);
}

static void learned_write_and_load(struct ui *ui, const char *path, bool force)
{
    struct generalize_job *j = ui->gz;
    if (ui->ws->dirty && !force) {
        ui_error(ui, "unsaved work: :save FILE first, or :learned! %s", path);
        return;
    }
    struct diag_list d = DIAG_LIST_INIT;
    if (!write_file_atomic(path, j->learned.data ? j->learned.data : "", j->learned.len, &d)) {
        ui_diags(ui, &d);
        return;
    }
    diag_list_free(&d);
    explore_learned(ui, path, true);
}

static void learned_confirmed(struct ui *ui)
{
    struct generalize_job *j = ui->gz;
    if (!j || !j->pending_path)
        return;
    char *path = j->pending_path;
    j->pending_path = NULL;
    learned_write_and_load(ui, path, j->pending_force);
    free(path);
}

static void learned_declined(struct ui *ui)
{
    if (ui->gz) {
        free(ui->gz->pending_path);
        ui->gz->pending_path = NULL;
    }
    ui_message(ui, "cancelled; nothing was written");
}

void generalize_learned(struct ui *ui, const char *path, bool force)
{
    struct generalize_job *j = ui->gz;
    if (!j || j->state == GZ_RUNNING || j->state == GZ_FAILED || !j->learned.len) {
        ui_error(ui, "no learned grammar: :generalize SAMPLE... -- COMMAND learns one");
        return;
    }
    if (!path) {
        if (!j->out || j->state != GZ_DONE) {
            ui_error(ui, "usage: :learned FILE (writes the learned grammar to FILE and explores it)");
            return;
        }
        path = j->out; /* written already: only load it */
        if (ui->ws->dirty && !force) {
            ui_error(ui, "unsaved work: :save FILE first, or :learned!");
            return;
        }
        explore_learned(ui, path, false);
        return;
    }
    struct stat st;
    if (stat(path, &st) == 0) {
        if (ui->ws->dirty && !force) {
            ui_error(ui, "unsaved work: :save FILE first, or :learned! %s", path);
            return;
        }
        struct strbuf q = STRBUF_INIT;
        strbuf_addf(&q, "%s exists: replace it with the learned grammar? (y/n)", path);
        free(j->pending_path);
        j->pending_path = xstrdup(path);
        j->pending_force = force;
        ui_ask(ui, strbuf_str(&q), learned_confirmed, learned_declined);
        strbuf_free(&q);
        return;
    }
    learned_write_and_load(ui, path, force);
}

const struct job_ops generalize_job_ops = {
    .slice = generalize_job_slice, .stop = generalize_job_stop,
    .status = generalize_job_status, .status_style = EL_PROGRESS, .free = generalize_job_free,
};
