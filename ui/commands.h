/* commands: the ':' command line (commands.c).
 *
 * Contract: commands_run runs one command line (without the ':'): errors go
 * to the message line and never end the program.  A command changes the
 * session, the panes' state and the jobs, draws a frame (:dump, :svg) and
 * carries out what a pane helper asks (ui_carry_out), all below it; it
 * never calls the key dispatch or runs another command line: a lesson it
 * opens is started by the top (ui_command, app.c).  The table of commands
 * is command_table.h's. */
#ifndef KPATH_UI_COMMANDS_H
#define KPATH_UI_COMMANDS_H

#include "ui.h"

/* Run a command line (without the ':'); the front ends call ui_command
 * (app.h), which starts what it opened. */
void commands_run(struct ui *ui, const char *line);
/* Completion candidates for the command line `line` whose last word starts
 * at byte `start`: a NULL-terminated array of strings (caller frees), or NULL
 * for file-name completion. */
char **commands_complete(struct ui *ui, const char *line, int start, const char *word);
/* The :compare plot's x axis switches between bytes written and inputs (B
 * while the plot is open); the message line says which it shows. */
void ui_compare_axis(struct ui *ui);

#endif
