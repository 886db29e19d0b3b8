/* script: running the explorer from a script file (see script.c). */
#ifndef KPATH_UI_SCRIPT_H
#define KPATH_UI_SCRIPT_H

struct ui;

#include <stdbool.h>

/* Run one script line (a key line, :COMMAND or /TEXT) and finish the work it
 * started; false, reported on stderr as WHERE, when a key is not understood.
 * Lessons run their setup lines with it too. */
bool script_line(struct ui *ui, const char *line, const char *where);
/* Run the script; returns 0, or 2 when a line is not understood (reported
 * on stderr as FILE:LINE). */
int script_run(struct ui *ui, const char *path);

#endif
