/* runs_shrink: the runs view's shrink (Z, :shrink): the selected failed
 * run's input made smaller while it keeps its outcome, as a job
 * (JOB_SHRINK, runs_shrink.c).  The app layer: a key and a command start
 * it. */
#ifndef KPATH_UI_RUNS_SHRINK_H
#define KPATH_UI_RUNS_SHRINK_H

struct ui;

/* Shrink the input of the runs view's selected run (words: the options of
 * :shrink, --timeout S and --max-memory N); errors are shown. */
void runs_shrink_start(struct ui *ui, char **words, int n);

#endif
