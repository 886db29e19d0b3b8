/* leb128: unsigned LEB128 numbers, the compact form kpath keeps many small
 * numbers in (packed derivation trees, the k-path ranks of finished inputs):
 * seven bits per byte, low bits first, the high bit set on every byte but
 * the last, so numbers below 128 take one byte.
 *
 * Contract: leb128_put appends to a strbuf (which owns the bytes);
 * leb128_get reads the number at bytes[*at] and moves *at past it, never
 * reading at or past `len` (a number cut short reads as what it has). */
#ifndef KPATH_LEB128_H
#define KPATH_LEB128_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

void leb128_put(struct strbuf *out, uint64_t v);
uint64_t leb128_get(const uint8_t *bytes, size_t len, size_t *at);

#endif
