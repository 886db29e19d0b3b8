/* lessons: the open lesson in the explorer (lessons.c).
 *
 * Contract: lessons_open loads a lesson and makes it the open one, and
 * leaves going to its first step to the top of the app (ui->lesson_start,
 * which ui_command and ui_lesson_open in app.c act on): a step's setup
 * lines run as a script, commands included, and a command (:lesson) must
 * not run commands from inside itself.  The caption is drawn above the
 * footer while a lesson is open. */
#ifndef KPATH_UI_LESSONS_H
#define KPATH_UI_LESSONS_H

#include <stdbool.h>

#include "ui.h"

/* Open a lesson by name (lessons/NAME.lesson) or path, its first step to
 * be gone to (ui->lesson_start); false with an error message. */
bool lessons_open(struct ui *ui, const char *name);
/* The directory of the bundled lessons (owned string), or NULL. */
char *ui_lessons_dir(const struct ui *ui);
/* The caption's height at the screen's width (the open lesson's step). */
int lessons_caption_height(struct ui *ui);
/* Draw the caption, h rows from row y. */
void lessons_draw_caption(struct ui *ui, int y, int h);

#endif
