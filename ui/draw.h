/* draw: the whole frame drawn into ui->scr (draw.c).
 *
 * Contract: ui_draw reads struct ui and draws the frame the terminal shows
 * (or script mode dumps), recording only where things went (ui->pane_rect,
 * ui->tab_x, ui->help_height, the cursor) for the clicks and keys that
 * follow.  It calls the panes' draw ops, the overlays and the lesson's
 * caption, never a command or the key dispatch, so the commands can draw a
 * frame (:dump, :svg) without a circle through the app. */
#ifndef KPATH_UI_DRAW_H
#define KPATH_UI_DRAW_H

#include "ui.h"

/* Draw the whole frame into ui->scr (already sized). */
void ui_draw(struct ui *ui);

#endif
