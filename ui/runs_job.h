/* runs_job: :run, T's runs and the runs view's report as jobs
 * (runs_job.c; their struct job_ops are campaign_job_ops and
 * runs_report_job_ops, job.h).  The app layer: commands start them. */
#ifndef KPATH_UI_RUNS_JOB_H
#define KPATH_UI_RUNS_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "base/samples.h"
#include "run/results.h"
#include "run/runner.h"

struct ui;

/* Start :run with these words (options, then the command); errors are shown. */
void runs_start(struct ui *ui, char **words, int n, bool force);
/* What to do when the runs runs_append started are over: all holds every
 * record of the results file, ran the new inputs' paths; stopped: a key
 * stopped them, or they failed. */
typedef void runs_ran_fn(struct ui *ui, const struct results *all, const struct sample_list *ran,
                         bool stopped);
/* Run the inputs first .. first+count-1 (0-based) as the last :run of this
 * session did, appending their records to the workspace's results file
 * (after checking that it describes the other inputs as they are), then
 * call `then`: 1 when the campaign started, 0 when it could not (the error
 * is shown), -1 when nothing was run in this session. */
int runs_append(struct ui *ui, size_t first, size_t count, runs_ran_fn *then);
/* An option of the runs a command typed in the explorer starts (-j/--jobs,
 * --timeout, --max-memory), word w with value v, as the CLI reads them:
 * 1 when set, 0 after an error naming `command` (shown), -1 when w is none
 * of them. */
int ui_runner_option(struct ui *ui, const char *command, const char *w, const char *v,
                     struct runner_options *ro);

#endif
