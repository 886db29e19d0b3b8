/* app: the explorer's top as the front ends see it (app.c, commands.c).
 *
 * Contract: the front ends (term.c, the terminal; script.c, script mode;
 * tui.c, which sets the explorer up) drive the app through this header
 * only: keys, command lines, searches, script lines, drawing a frame and
 * slices of the current job.  The app never calls a front end: what it
 * needs from one it leaves in struct ui for the front end to take after the
 * call (the command line to open: cmdline_want_*; a repaint: redraw_all; the
 * theme: theme_generation), so the layers read top-down:
 *     front ends (term, script, tui) -> app (app, commands) -> panes -> widgets
 * The panes (ui.h) never include this header (tests/layers.sh checks). */
#ifndef KPATH_UI_APP_H
#define KPATH_UI_APP_H

#include <stdbool.h>

#include "ui.h"

void ui_init(struct ui *ui, struct workspace *ws);
void ui_free(struct ui *ui);
/* Draw the whole frame into ui->scr (already sized). */
void ui_draw(struct ui *ui);
/* Handle one key (K_MOUSE: ui->mouse holds the event). */
void ui_key(struct ui *ui, int key);
/* Run a command line (without the ':'). */
void ui_command(struct ui *ui, const char *line);
/* Search for text in the focused list (or the k-paths); an empty text
 * repeats the last search in the given direction. */
void ui_search(struct ui *ui, const char *text, bool backward);
/* Do a slice of the current job (at most `budget` seconds). */
void ui_job_slice(struct ui *ui, double budget);
void ui_autosave(struct ui *ui, bool force);
/* Run one script line (a key line, :COMMAND or /TEXT) and finish the work it
 * started; false, reported on stderr as WHERE (or in the log when a
 * terminal has the screen), when a key is not understood.  Script mode and
 * lessons run their lines with it. */
bool ui_script_line(struct ui *ui, const char *line, const char *where);
/* Ask the front end to open its command line with a prompt (":" or "/")
 * and initial text, after the current key; false when it has none (script
 * mode), and the caller says how to type it instead. */
bool ui_cmdline_open(struct ui *ui, const char *prompt, const char *initial);
/* Narrow the k-path list to the text typed so far (the terminal calls it
 * on every key of `:narrow TEXT`). */
void ui_narrow(struct ui *ui, const char *text);
/* Carry out what a pane asked for (and free it); false for REQ_NOT_MINE. */
bool ui_request(struct ui *ui, struct pane_request r);
/* Completion candidates for the command line `line` whose last word starts
 * at byte `start`: a NULL-terminated array of strings (caller frees), or NULL
 * for file-name completion. */
char **commands_complete(struct ui *ui, const char *line, int start, const char *word);


/* ---- what the app does for its parts (the app layer: app.c, commands.c,
 * generalize_job.c, runs_job.c and features_job.c) ------------------------ */
/* Swap in a new workspace (after :load or :open); the old one is freed. */
void ui_set_workspace(struct ui *ui, struct workspace *ws);
void ui_job_stop(struct ui *ui, const char *why);
void ui_message(struct ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ui_error(struct ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Shows the first error (or the first diagnostic) and how many more there
 * are, logs every one of them in full, and frees them. */
void ui_diags(struct ui *ui, struct diag_list *diags);
/* Add a line to the message log only (the message line is left alone). */
void ui_log(struct ui *ui, bool error, const char *text);
/* Open an overlay (help or the message log) at its top. */
void ui_overlay(struct ui *ui, enum overlay_kind kind);
void ui_ask(struct ui *ui, const char *question, void (*on_yes)(struct ui *),
            void (*on_no)(struct ui *));
void ui_focus(struct ui *ui, enum pane_id p);
/* The workspace changed shape (k, inputs, grammar): refresh derived rows. */
void ui_workspace_changed(struct ui *ui);
/* Ask to quit (checks unsaved work). */
void ui_request_quit(struct ui *ui, bool force);
/* Switch themes; problems are reported, success too unless `quiet`. */
bool ui_set_theme(struct ui *ui, const char *name, bool quiet);
/* File the autosave under what the session is about: the workspace file it
 * was opened from or saved to, else the grammar; an autosave filed under
 * the previous key is removed (its work was saved or given up). */
void ui_autosave_rekey(struct ui *ui);

/* Load sample files as a job (JOB_SAMPLES), a few files per slice. */
void ui_start_samples(struct ui *ui, char *const *paths, size_t n);
/* Restore the autosaved session as a job (JOB_RESTORE). */
void ui_start_restore(struct ui *ui);
/* Generate a smallest input covering the k-path of rank r. */
void ui_cover_path(struct ui *ui, const uint32_t *path);

/* Open a lesson by name (lessons/NAME.lesson) or path at its first step;
 * false with an error message. */
bool ui_lesson_open(struct ui *ui, const char *name);
/* Go to step i of the open lesson (its setup lines and those before run). */
void ui_lesson_goto(struct ui *ui, size_t i);
/* The directory of the bundled lessons (owned string), or NULL. */
char *ui_lessons_dir(const struct ui *ui);

/* ---- runs_job.c: :run, T's runs and the runs report as jobs ---- */
/* Start :run with these words (options, then the command); errors are shown. */
void runs_start(struct ui *ui, char **words, int n, bool force);
/* Run the inputs first .. first+count-1 (0-based) as the last :run of this
 * session did, appending their records to the workspace's results file
 * (after checking that it describes the other inputs as they are): 1 when
 * the campaign started, 0 when it could not (the error is shown), -1 when
 * nothing was run in this session. */
int runs_append(struct ui *ui, size_t first, size_t count);
/* Forget the last :run (a workspace of its own was opened). */
void runs_forget(struct ui *ui);
/* An option of the runs a command typed in the explorer starts (-j/--jobs,
 * --timeout, --max-memory), word w with value v, as the CLI reads them:
 * 1 when set, 0 after an error naming `command` (shown), -1 when w is none
 * of them. */
int ui_runner_option(struct ui *ui, const char *command, const char *w, const char *v,
                     struct runner_options *ro);
/* A slice of the campaign; false when it is over (finished or failed). */
bool runs_slice(struct ui *ui, double deadline);
/* Stop the campaign (a key): kill every run, keep the records so far. */
void runs_stop(struct ui *ui);
/* The status line while it runs. */
void runs_status(struct ui *ui, struct strbuf *out);
void runs_free(struct ui *ui);
/* The runs view's report as a job (JOB_RUNS_REPORT): a slice (false when
 * done), stopped by a key, the status line while it runs. */
bool runs_report_slice(struct ui *ui, double deadline);
void runs_report_stop(struct ui *ui);
void runs_report_status(struct ui *ui, struct strbuf *out);

/* ---- features_job.c: the behaviour features view's learning and T ---- */
/* Learning as a job (JOB_FEATURES): a slice (false when done), stop, status. */
bool features_slice(struct ui *ui, double deadline);
void features_stop(struct ui *ui);
void features_status(struct ui *ui, struct strbuf *out);
void features_free(struct ui *ui);
/* T in the features view: inputs for the selected rule (every rule of the
 * selected feature, round-robin), added to the workspace and run with
 * runs_append. */
void features_target(struct ui *ui);
/* The end of the runs T started (runs_append): all holds every record of
 * the results file, ran the new inputs' paths; the view learns again, then
 * selects the feature again and says how many of the new inputs reach it. */
void features_ran(struct ui *ui, const struct results *all, const struct sample_list *ran,
                  bool stopped);

/* The commands' help (commands.c), for the help overlay and --help. */
void commands_help(struct strbuf *out, int width);
size_t commands_help_lines(void);

#endif
