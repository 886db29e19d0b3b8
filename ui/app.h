/* app: the explorer's top as the front ends see it (app.c, and below it
 * commands.c, draw.c, lessons.c, session.c, the jobs).
 *
 * Contract: the front ends (term.c, the terminal; script.c, script mode;
 * tui.c, which sets the explorer up) drive the app through this header
 * only: keys, command lines, searches, script lines, drawing a frame and
 * slices of the current job.  The app never calls a front end: what it
 * needs from one it leaves in struct ui for the front end to take after the
 * call (the command line to open: cmdline_want_*; a repaint: redraw_all; the
 * theme: theme_generation), so the layers read top-down:
 *     front ends (term, script, tui) -> app (app, commands, draw, ...)
 *         -> panes -> widgets
 * The panes (ui.h) never include this header (tests/layers.sh checks). */
#ifndef KPATH_UI_APP_H
#define KPATH_UI_APP_H

#include <stdbool.h>

#include "app_jobs.h"
#include "command_table.h"
#include "commands.h"
#include "draw.h"
#include "features_job.h"
#include "generalize_view.h"
#include "job.h"
#include "lessons.h"
#include "messages.h"
#include "runs_job.h"
#include "runs_shrink.h"
#include "search.h"
#include "session.h"
#include "ui.h"

/* Handle one key (K_MOUSE: ui->mouse holds the event). */
void ui_key(struct ui *ui, int key);
/* Run a command line (without the ':'), then go to the first step of a
 * lesson it opened (commands.h, lessons.h). */
void ui_command(struct ui *ui, const char *line);
/* Run one script line (a key line, :COMMAND or /TEXT) and finish the work it
 * started; false, reported on stderr as WHERE (or in the log when a
 * terminal has the screen), when a key is not understood.  Script mode and
 * lessons run their lines with it. */
bool ui_script_line(struct ui *ui, const char *line, const char *where);
/* Narrow the k-path list to the text typed so far (the terminal calls it
 * on every key of `:narrow TEXT`). */
void ui_narrow(struct ui *ui, const char *text);
/* Carry out what a pane asked for (and free it); false for REQ_NOT_MINE. */
bool ui_request(struct ui *ui, struct pane_request r);


/* ---- what the app does for its parts (the app layer: app.c, commands.c,
 * generalize_job.c, runs_job.c and features_job.c) ------------------------ */

/* Generate a smallest input covering the k-path of rank r. */
void ui_cover_path(struct ui *ui, const uint32_t *path);

/* Open a lesson by name (lessons/NAME.lesson) or path at its first step;
 * false with an error message. */
bool ui_lesson_open(struct ui *ui, const char *name);
/* Go to step i of the open lesson (its setup lines and those before run). */
void ui_lesson_goto(struct ui *ui, size_t i);

#endif
