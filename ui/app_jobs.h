/* app_jobs: the explorer's own jobs, each a struct job_ops (job.h):
 * JOB_RUN, the generator (r, :gen, :cover), a few hundred steps a slice;
 * JOB_SAMPLES, loading sample files, a few a slice, so the UI answers
 * while they parse; JOB_RESTORE, loading the autosaved session, some lines
 * a slice, which then replaces the workspace.  The app layer, below the
 * commands and the keys that start them. */
#ifndef KPATH_UI_APP_JOBS_H
#define KPATH_UI_APP_JOBS_H

#include <stddef.h>

struct ui;

/* Run the generator as a job (JOB_RUN), starting it if it is not under way. */
void ui_start_run(struct ui *ui);
/* Load sample files as a job (JOB_SAMPLES), a few files per slice. */
void ui_start_samples(struct ui *ui, char *const *paths, size_t n);
/* Restore the autosaved session as a job (JOB_RESTORE). */
void ui_start_restore(struct ui *ui);

#endif
