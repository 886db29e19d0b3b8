/* number: whole numbers as users type them and kpath's files hold them.
 *
 * Contract: decimal digits only (no sign, blanks or exponent), the same in
 * every locale; false for anything else, for empty text and on overflow. */
#ifndef KPATH_NUMBER_H
#define KPATH_NUMBER_H

#include <stdbool.h>
#include <stdint.h>

bool number_parse_u64(const char *s, uint64_t *out);
/* At most UINT32_MAX. */
bool number_parse_u32(const char *s, uint32_t *out);

#endif
