/* number: whole numbers as users type them and kpath's files hold them,
 * and coverage as kpath shows it.
 *
 * Contract: number_parse_* read decimal digits only (no sign, blanks or
 * exponent), the same in every locale; false for anything else, for empty
 * text and on overflow. */
#ifndef KPATH_NUMBER_H
#define KPATH_NUMBER_H

#include <stdbool.h>
#include <stdint.h>

bool number_parse_u64(const char *s, uint64_t *out);
/* At most UINT32_MAX. */
bool number_parse_u32(const char *s, uint32_t *out);

/* A duration as users type it, in milliseconds: whole seconds ("3", "3s"),
 * milliseconds ("250ms") or minutes ("2m"); false for anything else, for 0
 * and for more than 2^40 ms. */
bool number_parse_duration_ms(const char *s, uint64_t *ms);

/* The value of a hexadecimal digit (0-9, a-f, A-F), or -1 for any other
 * character or code point. */
int number_hex_digit(uint32_t c);

/* "s" unless n is 1: "%u input%s", n, plural_s(n). */
static inline const char *plural_s(uint64_t n)
{
    return n == 1 ? "" : "s";
}

struct strbuf;
/* "12.3": covered of total as a percentage with one decimal, rounded down,
 * so that only full coverage reads 100.0 (and 0 of 0 does). */
void number_add_percent(struct strbuf *out, uint64_t covered, uint64_t total);

/* A count that saturates at UINT64_MAX (k-paths, trees, tree nodes: see
 * saturate.h) as people read it: its digits, or "more than 2^64" for
 * UINT64_MAX, which stands for every count from there up; never the digits
 * of UINT64_MAX, which would read as an exact count. */
void number_add_count(struct strbuf *out, uint64_t count);

/* The same in a table's narrow column: ">2^64" for UINT64_MAX. */
void number_add_count_compact(struct strbuf *out, uint64_t count);

#endif
