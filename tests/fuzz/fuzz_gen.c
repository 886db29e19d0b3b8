/* libFuzzer target for generation: random grammars and mutated grammar texts
 * through `kpath cover -k 2` under the default budgets (see
 * tests/support/gen_case.h).  A failure is an abort (running out of memory is
 * one: xalloc aborts, and -malloc_limit_mb catches a single huge allocation
 * first), a run longer than -timeout, or gen_case_run saying what went past
 * its budget. */
#include <stddef.h>
#include <stdint.h>

#include "gen_case.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (gen_case_run(data, size))
        __builtin_trap();
    return 0;
}
