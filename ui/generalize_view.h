/* generalize_view: :generalize as a job and the generalization view (an
 * overlay); see generalize_view.c.  Kept apart from ui.h so that the
 * explorer's other parts only see these few entry points. */
#ifndef KPATH_UI_GENERALIZE_VIEW_H
#define KPATH_UI_GENERALIZE_VIEW_H

#include <stdbool.h>

#include "strbuf.h"

struct ui;

/* :generalize with these words (options and samples, -- COMMAND); no words
 * shows the last generalization.  force: -o may replace a file. */
void generalize_view_start(struct ui *ui, char **words, int n, bool force);
/* A slice of the job (JOB_GENERALIZE); false when it is over. */
bool generalize_view_slice(struct ui *ui, double deadline);
/* Stop it (a key): kill every run, keep the changes concluded so far. */
void generalize_view_stop(struct ui *ui);
/* The status line while it runs. */
void generalize_view_status(struct ui *ui, struct strbuf *out);
/* Open the view (OVERLAY_GENERALIZE). */
void generalize_view_show(struct ui *ui);
/* The overlay's lines and title (markers as overlay_lines in app.c). */
void generalize_view_lines(struct ui *ui, int width, struct strbuf *lines);
const char *generalize_view_title(void);
/* :learned [FILE]: write the learned grammar to FILE (asking before
 * replacing one) and explore it; force drops unsaved work. */
void generalize_view_learned(struct ui *ui, const char *path, bool force);
void generalize_view_free(struct ui *ui);

#endif
