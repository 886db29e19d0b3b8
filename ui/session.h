/* session: the explorer's state as a whole, below the parts that change
 * it (keys, commands, jobs): struct ui set up and freed, the workspace it
 * shows (swapped for another, or changed in shape, which refreshes the
 * rows derived from it), the focused pane, the overlay opened, the
 * autosave filed under what the session is about, quitting, the theme;
 * and what a pane asks for but a command or an action (ui_carry_out).  The app layer's bottom:
 * it calls the panes' helpers, the jobs through their contract (job.h)
 * and the messages, never a job, a command or the key dispatch by name. */
#ifndef KPATH_UI_SESSION_H
#define KPATH_UI_SESSION_H

#include <stdbool.h>

#include "ui.h"

void ui_init(struct ui *ui, struct workspace *ws);
void ui_free(struct ui *ui);
/* Swap in a new workspace (after :load or :open); the old one is freed,
 * with the jobs' state of it (job_ops.forget). */
void ui_set_workspace(struct ui *ui, struct workspace *ws);
/* The workspace changed shape (k, inputs, grammar): refresh derived rows. */
void ui_workspace_changed(struct ui *ui);
void ui_focus(struct ui *ui, enum pane_id p);
/* Open an overlay (help or the message log) at its top. */
void ui_overlay(struct ui *ui, enum overlay_kind kind);
/* The keys of the focused pane's view (NULL: its context's bindings), for
 * the footer and the help. */
const struct view_keys *ui_focused_keys(struct ui *ui);
/* Ask the front end to open its command line with a prompt (":" or "/")
 * and initial text, after the current key; false when it has none (script
 * mode), and the caller says how to type it instead. */
bool ui_cmdline_open(struct ui *ui, const char *prompt, const char *initial);
/* Carry out what a pane (or a pane's helper a command calls) asked for,
 * and free it; false for REQ_NOT_MINE.  All but a command line
 * (REQ_COMMAND) and an action of the app's (REQ_ACTION), which only the top
 * carries out (ui_request, app.h): what asks from below the commands is
 * carried out here, with no circle through them. */
bool ui_carry_out(struct ui *ui, struct pane_request r);
/* Write the autosave when the workspace changed since the last one (or
 * always: force). */
void ui_autosave(struct ui *ui, bool force);
/* File the autosave under what the session is about: the workspace file it
 * was opened from or saved to, else the grammar; an autosave filed under
 * the previous key is removed (its work was saved or given up). */
void ui_autosave_rekey(struct ui *ui);
/* Ask to quit (checks unsaved work); ui_quit_yes is the question's yes,
 * which the key handling knows (Ctrl-C answers it too). */
void ui_request_quit(struct ui *ui, bool force);
void ui_quit_yes(struct ui *ui);
/* Switch themes; problems are reported, success too unless `quiet`. */
bool ui_set_theme(struct ui *ui, const char *name, bool quiet);

#endif
