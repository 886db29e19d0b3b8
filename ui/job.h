/* job: long work done a slice at a time between input polls (the UI stays
 * responsive, and any key stops it), as a contract: each job exports a
 * struct job_ops, and the explorer runs, stops, shows and frees the job
 * under way through it without knowing any job by name (tmux's job
 * callbacks in spirit).  One job runs at a time: ui->job.
 *
 * Adding a job: its file defines its struct job_ops, and it is registered
 * once: an enum job_kind (ui.h) and a line of job_table (job.c).  A part of
 * the explorer starts it by setting ui->job (a pane too: the views start
 * their own learning), after preparing its state.
 *
 * Part of the pane layer (the panes start jobs); it calls nothing of the
 * app, so the jobs (the app layer) and the panes may all use it. */
#ifndef KPATH_UI_JOB_H
#define KPATH_UI_JOB_H

#include <stdbool.h>

#include "ui.h"

/* What every job does; any member may be NULL (nothing to do). */
struct job_ops {
    /* Work until `deadline` (ui_now() seconds); false when the job is over
     * (finished, failed, or nothing left to do). */
    bool (*slice)(struct ui *ui, double deadline);
    /* After slice said it is over and ui->job is JOB_NONE again: say what
     * came of it, take what it made (here, not in slice, when the job must
     * no longer be under way, as when it replaces the workspace). */
    void (*finished)(struct ui *ui);
    /* Stopped before it was over (a key, another job, a new workspace;
     * `why`: NULL, or what stopped it); ui->job is JOB_NONE already. */
    void (*stop)(struct ui *ui, const char *why);
    /* The message line while it runs, in style status_style, the line
     * `width` columns wide (NULL: the last message stays). */
    void (*status)(struct ui *ui, int width, struct strbuf *out);
    int status_style;
    /* The workspace is about to be replaced: drop what belongs to the old
     * one (it borrows its graph, it repeats its :run). */
    void (*forget)(struct ui *ui);
    /* The explorer ends: free what the job keeps in struct ui. */
    void (*free)(struct ui *ui);
};

/* The registered jobs, by kind (job.c; each defined in its job's file). */
extern const struct job_ops *const job_table[NJOBS];
extern const struct job_ops run_job_ops, search_job_ops, why_job_ops, samples_job_ops,
    campaign_job_ops, restore_job_ops, runs_report_job_ops, features_job_ops,
    generalize_job_ops, shrink_job_ops;

/* Do a slice of the current job (at most `budget` seconds). */
void ui_job_slice(struct ui *ui, double budget);
/* Stop the current job, if any (`why`: NULL, or what stopped it). */
void ui_job_stop(struct ui *ui, const char *why);
/* The current job's status line and its style; false when it has none. */
bool ui_job_status(struct ui *ui, int width, struct strbuf *out, int *style);
/* Every job drops what belongs to the workspace being replaced. */
void ui_jobs_forget(struct ui *ui);
/* Every job frees what it keeps (ui_free). */
void ui_jobs_free(struct ui *ui);

#endif
