/* messages: what the explorer tells the user, below every part that talks
 * (panes' requests, jobs, commands, keys): the message line (the last
 * message, its first line), the session's log of every message and
 * diagnostic in full (:messages, M; the oldest dropped past UI_LOG_MAX),
 * and the yes/no question on the message line.  They only change struct
 * ui; the app draws them.  Part of the pane layer: it calls nothing above
 * the widgets, so anything may report through it without a circle. */
#ifndef KPATH_UI_MESSAGES_H
#define KPATH_UI_MESSAGES_H

#include <stdbool.h>

#include "base/diag.h"

struct ui;

void ui_message(struct ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ui_error(struct ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Shows the first error (or the first diagnostic) and how many more there
 * are, logs every one of them in full, and frees them. */
void ui_diags(struct ui *ui, struct diag_list *diags);
/* Add a line to the message log only (the message line is left alone). */
void ui_log(struct ui *ui, bool error, const char *text);
/* Ask a yes/no question on the message line: 'y' runs on_yes, 'n' on_no
 * (NULL: "cancelled"); the app's key handling answers it. */
void ui_ask(struct ui *ui, const char *question, void (*on_yes)(struct ui *),
            void (*on_no)(struct ui *));

#endif
