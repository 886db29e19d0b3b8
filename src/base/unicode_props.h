/* unicode_props: the characters of a Unicode property, named as ANTLR's
 * \p{...} names it:
 *   - general categories, short or long (Lu, L, L&, Letter, Nonspacing_Mark),
 *     also as General_Category=X or gc=X;
 *   - binary properties (White_Space, ID_Start, Pattern_Syntax, Emoji,
 *     Extended_Pictographic, ...) and Any, Assigned, ASCII;
 *   - scripts (Latin, Latn, Script=Greek, sc=Grek);
 *   - blocks (InBasic_Latin, Block=Basic_Latin, blk=ASCII);
 *   - Grapheme_Cluster_Break=X (GCB=X), and ANTLR's
 *     EmojiPresentation=EmojiDefault|TextDefault|Text.
 * Names match loosely (case, spaces, '_' and '-' do not count).  The tables
 * are generated from the Unicode Character Database by
 * tools/gen_unicode_tables.sh (version: unicode_tables_version()). */
#ifndef KPATH_BASE_UNICODE_PROPS_H
#define KPATH_BASE_UNICODE_PROPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The property `name` (len bytes, not NUL-terminated): true with *pairs
 * pointing at *count inclusive [lo, hi] pairs (pairs[2i], pairs[2i+1]),
 * sorted and disjoint, in static storage; false when the name is unknown. */
bool unicode_property(const char *name, size_t len, const uint32_t **pairs, size_t *count);

/* The Unicode version the tables come from, e.g. "15.0.0". */
const char *unicode_tables_version(void);

#endif
