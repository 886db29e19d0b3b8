/* escape: a program's or a sample's bytes made safe to print on a terminal.
 *
 * Contract: what escape_add writes holds no control character (C0, DEL, C1),
 * no invalid UTF-8 and no invisible formatting character that changes how a
 * terminal shows the line (the BOM U+FEFF, direction marks and overrides,
 * line and paragraph separators): a program under test or a sample cannot
 * set the window title, clear the screen or hide text through kpath's
 * messages.  Every other character is written as it is; the escapes are
 * \n \r \t \\, \xHH for the other C0 controls, DEL and bytes that are not
 * UTF-8, and \u{HHHH} for the other unsafe code points, so the output reads
 * back unambiguously. */
#ifndef KPATH_ESCAPE_H
#define KPATH_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

/* Can cp be printed as it is (a valid character that is no control and no
 * invisible formatting character)? */
bool escape_is_safe(uint32_t cp);
/* cp as it is when safe, else its escape (a backslash is written as is). */
void escape_add_code_point(struct strbuf *out, uint32_t cp);
/* s[0..len), escaped as above, a backslash as \\. */
void escape_add(struct strbuf *out, const char *s, size_t len);

#endif
