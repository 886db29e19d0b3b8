/* same_language: does a grammar's language agree with a language known
 * exactly (a C function saying yes or no) on every string over `alphabet`
 * of length 0 .. max_len (at most 15)?  The learners' tests use it to check
 * a learned grammar against the oracle's language.  On the first string
 * they disagree on it prints that string and which side accepts it to
 * stderr, and returns false. */
#ifndef KPATH_TEST_SAME_LANGUAGE_H
#define KPATH_TEST_SAME_LANGUAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "grammar/grammar.h"

typedef bool (*language_fn)(const char *s, size_t n);

bool same_language(const struct grammar *g, language_fn lang, const char *alphabet,
                   size_t max_len);

#endif
