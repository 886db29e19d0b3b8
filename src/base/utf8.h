/* utf8: encoding and decoding of Unicode code points.
 *
 * Contract: kpath's text is UTF-8; a "character" (what a class matches, what a
 * column counts) is one code point.  Decoding never reads past `len`. */
#ifndef KPATH_UTF8_H
#define KPATH_UTF8_H

#include <stddef.h>
#include <stdint.h>

#define UTF8_MAX_CODEPOINT 0x10FFFFu
/* The UTF-16 surrogates: code points, but no characters (UTF-8 cannot hold them). */
#define UTF8_SURROGATE_LO 0xD800u
#define UTF8_SURROGATE_HI 0xDFFFu

/* Write cp as UTF-8 into out (4 bytes of room); returns the byte count.
 * Invalid code points (surrogates, > U+10FFFF) are written as U+FFFD. */
size_t utf8_encode(uint32_t cp, char out[4]);
/* Decode one code point from s[0..len); returns the byte count (>= 1), or 0 for
 * an invalid or truncated sequence (then *cp is the first byte). */
size_t utf8_decode(const char *s, size_t len, uint32_t *cp);
/* Number of code points in s[0..len), counting each invalid byte as one. */
size_t utf8_length(const char *s, size_t len);

#endif
