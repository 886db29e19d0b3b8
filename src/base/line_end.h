/* line_end: where the lines of a grammar file end, the same for every reader.
 *
 * Contract: a line ends at LF, at CR LF (one line end; the CR is the last
 * column of its line) and at a CR alone (old Mac files), so "\n\r" before
 * any byte but LF is two line ends, as "\r\r" is.  line_end_unify gives the
 * text with each lone CR made an LF: the same length, so every byte offset
 * into it is an offset into the text as written, and a reader whose only
 * line end is LF then counts lines, ends comments and ends line-terminated
 * productions alike for every layout.  It copies only when the text has a
 * lone CR; a lone CR inside a string literal is an LF after it, as Python's
 * universal newlines make it.  Columns stay the readers' (code points from
 * 1, the .ebnf reader's included). */
#ifndef KPATH_LINE_END_H
#define KPATH_LINE_END_H

#include <stdbool.h>
#include <stddef.h>

/* Is s[i] a CR that ends a line on its own (no LF after it)? */
bool line_end_lone_cr(const char *s, size_t len, size_t i);
/* s[0..len) with each lone CR made an LF, in a new NUL-terminated buffer
 * (free it), or NULL when s has no lone CR (read s itself then). */
char *line_end_unify(const char *s, size_t len);
/* The same in place, for a text the reader owns. */
void line_end_unify_in_place(char *s, size_t len);

#endif
