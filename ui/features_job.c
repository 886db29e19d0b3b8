/* features_job: the behaviour features view's job (w, features.c).
 *
 * Learning: from the workspace's results file, what `kpath explain -k K`
 * learns with its default options (K: the workspace's k): explain.h reads
 * and parses the inputs of the runs (their k-path features, 1..K) and
 * learns a decision tree per trainable feature.  That is a job
 * (JOB_FEATURES, started by the view when it needs it): a few inputs, then
 * one feature, per slice, so the keys stay responsive; any key stops it,
 * and the view says so until w is pressed again.  The inputs skipped go to
 * the message log (M).
 *
 * T (features_target) generates inputs for the selected rule (or
 * round-robin for every rule of the selected feature, as `kpath target -n
 * 10` does) with target.h, adds them to the workspace and runs them
 * (runs_append: only them, as the last :run of the session did, their
 * records appended to the results file); when that job ends (features_ran,
 * which runs_append calls back)
 * the view learns again, selects the same row and says how many of the new
 * inputs reach the feature.
 *
 * App layer (features_job.h; its job is features_job_ops, job.h): it shows
 * messages, changes the workspace and starts runs (runs_job.h); the view (rows, drawing, keys) is the pane layer's features.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "features_job.h"
#include "messages.h"
#include "runs_job.h"
#include "session.h"
#include "ui.h"
#include "explain/explain.h"
#include "features_view.h"
#include "job.h"
#include "base/json.h"
#include "gen/constrained.h"
#include "base/xalloc.h"

static void features_free(struct ui *ui)
{
    if (!ui->features)
        return;
    features_view_clear(ui->features);
    features_then_clear(ui->features);
    free(ui->features);
    ui->features = NULL;
}

static const struct features_view *sorting;

/* Failures first; then trainable features by how few inputs reach them;
 * then those every input reaches, then those none does; by name within. */
static int compare_results(const void *pa, const void *pb)
{
    const struct explain_result *a = &sorting->res[*(const uint32_t *)pa],
                                *b = &sorting->res[*(const uint32_t *)pb];
    bool fa = features_is_failure(a->name), fb = features_is_failure(b->name);
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
        struct list_state *l = ui->inputs_view == INPUTS_FEATURES ? &ui->list[PANE_INPUTS] : &fv->list;
        l->cursor = at;
    }
    ui_message(ui, "%s", fv->then_message);
    features_then_clear(fv);
}

static bool features_slice(struct ui *ui, double deadline)
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
                features_fail(fv, fv->results.nrecords
                                      ? "no input of the runs could be parsed: nothing to "
                                        "learn from (M lists why)"
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

static void features_stop(struct ui *ui, const char *why)
{
    (void)why;
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
    features_then_clear(fv);
}

static void features_status(struct ui *ui, int width, struct strbuf *out)
{
    (void)width;
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

/* One rule's generator, as kpath target makes it (seed + rule). */
static struct constrained_gen *rule_generator(struct ui *ui, const struct explain_result *res,
                                         uint32_t r, struct diag_list *conflicts)
{
    struct features_view *fv = ui->features;
    const struct dt_rule *dr = &res->rules[r].rule;
    struct constrained_path *req = xcalloc(dr->nconds + 1, sizeof *req),
                       *pro = xcalloc(dr->nconds + 1, sizeof *pro);
    size_t nreq = 0, npro = 0;
    for (uint32_t c = 0; c < dr->nconds; c++) {
        uint32_t f = dr->conds[c].feature;
        struct constrained_path p = {fv->kf.len[f], kpath_feature_path(&fv->kf, f)};
        if (dr->conds[c].present)
            req[nreq++] = p;
        else
            pro[npro++] = p;
    }
    struct constraints tc = {req, nreq, pro, npro};
    struct constrained_options to;
    constrained_options_default(&to);
    to.seed = fv->o.seed + r;
    struct constrained_gen *g = constrained_new(ui->ws->graph, &tc, &to, conflicts);
    free(req);
    free(pro);
    return g;
}

/* T: inputs for the selected rule, or round-robin for every rule of the
 * selected feature (kpath target's order), added to the workspace. */
static runs_ran_fn features_ran;

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
    struct constrained_gen **gens = xcalloc(n, sizeof *gens);
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
            struct derivation tree;
            if (!constrained_next(gens[i], &tree)) {
                constrained_free(gens[i]);
                gens[i] = NULL;
                live--;
                continue;
            }
            workspace_add_generated(ws, &tree, NULL, 0);
            derivation_free(&tree);
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
        constrained_free(gens[i]);
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
    /* a weak rule is targeted all the same (a crash reached once is what
     * one wants more inputs for), but not silently */
    size_t weak = 0;
    for (size_t r = first; r < last; r++)
        if (explain_rule_weak(&res->rules[r], &fv->o)) {
            struct strbuf w = STRBUF_INIT;
            strbuf_addf(&w, "T targets %s's rule %zu, a weak rule: ", res->name, r + 1);
            explain_render_weakness(&res->rules[r], res->name, &fv->o, &w);
            ui_log(ui, true, strbuf_str(&w));
            strbuf_free(&w);
            weak++;
        }
    char note[128];
    snprintf(note, sizeof note, "%s%s", unsatisfiable ? "; some rules cannot be satisfied (M)" : "",
             !weak ? "" : n == 1 ? "; a weak rule (M)" : weak == n ? "; weak rules (M)"
                                                                    : "; some weak rules (M)");
    unsatisfiable = unsatisfiable || weak;
    /* then run them as the last :run did, appending to its results */
    char *feature = xstrdup(res->name);
    uint32_t rule = row->rule;
    int started = runs_append(ui, before, made, features_ran);
    if (started == 1) {
        features_then_clear(fv);
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

/* The end of the runs T started (runs_append calls it back). */
static void features_ran(struct ui *ui, const struct results *all,
                         const struct sample_list *ran, bool stopped)
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

void features_target(struct ui *ui)
{
    const struct fv_row *row = features_selected_row(ui);
    if (row)
        generate(ui, row);
}

const struct job_ops features_job_ops = {
    .slice = features_slice, .stop = features_stop, .status = features_status,
    .status_style = EL_PROGRESS,
    .forget = features_free, /* it borrows the old workspace's graph */
    .free = features_free,
};
