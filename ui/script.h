/* script: running the explorer from a script file (see script.c). */
#ifndef KPATH_UI_SCRIPT_H
#define KPATH_UI_SCRIPT_H

struct ui;

#include <stdbool.h>

/* Run the script; returns 0, or 2 when a line is not understood (reported
 * on stderr as FILE:LINE). */
int script_run(struct ui *ui, const char *path);

#endif
