/* strbuf: a growable byte string, always NUL-terminated.
 *
 * Contract: a zeroed struct (STRBUF_INIT) is an empty buffer; the buffer owns
 * `data`; strbuf_free releases it and leaves an empty buffer behind. */
#ifndef KPATH_STRBUF_H
#define KPATH_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf {
    char *data; /* owned; NULL while nothing was ever added */
    size_t len, cap;
};

#define STRBUF_INIT {NULL, 0, 0}

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Append s, or when it is longer than `room` bytes "..." and its end, cut at
 * the start of a UTF-8 character, in at most `room` bytes (a path on a line
 * of a given width: its end says most).  Nothing when room < 4 and s does
 * not fit. */
void strbuf_add_tail(struct strbuf *sb, const char *s, size_t room);
/* Append a code point as UTF-8. */
void strbuf_add_utf8(struct strbuf *sb, uint32_t cp);
void strbuf_reset(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);
/* The contents, "" for an empty buffer; never NULL. */
const char *strbuf_str(const struct strbuf *sb);
/* Hand the contents to the caller (who frees them) and leave an empty buffer. */
char *strbuf_detach(struct strbuf *sb, size_t *len);

#endif
