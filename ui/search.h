/* search: searching what the explorer shows (search.c).
 *
 * Contract: ui_search looks for text in the open overlay, else in the
 * focused pane's rows (the k-paths' when the pane has no row text), a slice
 * at a time as a job (search_job_ops, job.h) that a key stops.  The
 * message line says what it found; ui->search keeps the text for n and N.
 * Part of the app layer, below the key dispatch and the commands. */
#ifndef KPATH_UI_SEARCH_H
#define KPATH_UI_SEARCH_H

#include <stdbool.h>

#include "ui.h"

/* Search for text in the focused list (or the k-paths); an empty text
 * repeats the last search in the given direction. */
void ui_search(struct ui *ui, const char *text, bool backward);

#endif
