/* overlays: what is drawn over the panes (overlays.c).
 *
 * Contract: the open overlay (ui->overlay: the help, the message log or
 * the generalization) is a struct overlay_ops: a title, its lines and,
 * optionally, its own footer keys.  This module gives the open one's ops,
 * draws it and searches its lines; opening and closing one is the
 * session's (ui_overlay), its keys the app's. */
#ifndef KPATH_UI_OVERLAYS_H
#define KPATH_UI_OVERLAYS_H

#include <stdbool.h>

#include "ui.h"

/* The open overlay's ops (NULL: none). */
const struct overlay_ops *overlay_current(const struct ui *ui);
/* Draw the open overlay over body, scrolled to ui->help_top (clamped), and
 * record its height (ui->help_height) for the keys that scroll it. */
void overlay_draw(struct ui *ui, struct rect body);
/* Search the open overlay's lines for ui->search from the line after the
 * last match (or the first shown line), wrapping around; the message line
 * says what it found. */
void overlay_search(struct ui *ui, bool backward);

#endif
