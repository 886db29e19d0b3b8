/* features_view: the behaviour features view of the inputs pane (w), in two
 * parts: the view (features.c, the pane layer: rows, drawing, keys, and
 * starting to learn when it is first shown) and the job (features_job.c,
 * the app layer: learning a slice at a time, T's generated inputs and their
 * runs, learning again after them).  struct features_view is what the job
 * learns and the view shows.  Kept apart from ui.h so that the explorer's
 * other parts only see the entry points there and in app.h.
 *
 * Ownership: the view (ui->features) owns everything it learned; it borrows
 * the workspace's graph, so it is dropped when the workspace or k changes. */
#ifndef KPATH_UI_FEATURES_VIEW_H
#define KPATH_UI_FEATURES_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "explain/explain.h"
#include "run/results.h"
#include "widget.h"

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
     * (kept across features_view_clear; dropped when learning stops or fails) */
    char *then_feature;            /* owned; NULL: nothing pending */
    uint32_t then_rule;            /* as fv_row.rule */
    char *then_message;            /* owned */
};

struct ui;

/* features.c (the view), for the job: drop what was learned (not what T
 * waits for), drop what T waits for, fail with a message, whether a
 * feature is a failure (listed first), and the selected row (NULL: none). */
void features_view_clear(struct features_view *fv);
void features_then_clear(struct features_view *fv);
void features_fail(struct features_view *fv, const char *text);
bool features_is_failure(const char *name);
const struct fv_row *features_selected_row(struct ui *ui);

#endif
