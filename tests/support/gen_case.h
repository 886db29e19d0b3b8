/* gen_case: one case of the generation fuzzer (tests/fuzz/fuzz_gen.c), shared
 * with the unit test that replays the cases it ever found
 * (tests/fuzz/crashes-gen/).
 *
 * The grammar: when the first byte is 0, a random grammar of random_grammar.h,
 * its seed from the next 8 bytes and its number of rules (1 to 256) from the
 * byte after; otherwise the bytes are grammar text (mutants of the bundled
 * grammars).  It goes through `kpath cover -k 2` with the default budgets
 * (gen_options_default, k = 2).  Returns NULL when all is well (the text did
 * not load, or generation ended within its budget), else what went wrong,
 * a static string. */
#ifndef KPATH_GEN_CASE_H
#define KPATH_GEN_CASE_H

#include <stddef.h>
#include <stdint.h>

const char *gen_case_run(const uint8_t *data, size_t size);

#endif
