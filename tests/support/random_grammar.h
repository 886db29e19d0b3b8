/* random_grammar: seeded random grammars for tests and benchmarks.
 *
 * Contract: the same (seed, rules) gives the same text on every machine.  Every
 * rule is productive (its first alternative refers only to later rules) and
 * rule 0, the start, is never referenced.  Returns a malloc'd NUL-terminated
 * string in kpath's .ebnf format. */
#ifndef KPATH_RANDOM_GRAMMAR_H
#define KPATH_RANDOM_GRAMMAR_H

#include <stdint.h>

char *random_grammar(uint64_t seed, uint32_t rules);

#endif
