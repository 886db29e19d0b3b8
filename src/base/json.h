/* json: writing JSON text into a strbuf (reading it is json_read.h).
 *
 * Contract: json_add_string writes a valid JSON string literal for any bytes:
 * control characters are escaped, valid UTF-8 is kept, and each byte of
 * invalid UTF-8 becomes U+FFFD, so output is always valid JSON. */
#ifndef KPATH_JSON_H
#define KPATH_JSON_H

#include <stddef.h>

#include "base/strbuf.h"

void json_add_string(struct strbuf *out, const char *s, size_t len);
void json_add_cstring(struct strbuf *out, const char *s);

#endif
