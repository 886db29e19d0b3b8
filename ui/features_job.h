/* features_job: the behaviour features view's learning as a job
 * (features_job_ops, job.h) and T, its generated inputs run as the last
 * :run did (features_job.c; the view is features.c, features_view.h). */
#ifndef KPATH_UI_FEATURES_JOB_H
#define KPATH_UI_FEATURES_JOB_H

struct ui;

/* T in the features view: inputs for the selected rule (every rule of the
 * selected feature, round-robin), added to the workspace and run with
 * runs_append; when those runs end, the view learns again, then selects
 * the feature again and says how many of the new inputs reach it. */
void features_target(struct ui *ui);

#endif
