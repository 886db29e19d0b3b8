/* svg: a frame as an SVG picture in the theme's colours (svg.c).  A bottom
 * layer module: it reads a screen and a theme, nothing of the app. */
#ifndef KPATH_UI_SVG_H
#define KPATH_UI_SVG_H

#include "screen.h"
#include "base/strbuf.h"
#include "theme.h"

void svg_render(const struct screen *s, const struct theme *t, struct strbuf *out);

#endif
