/* collect_harness: the features of a libFuzzer harness's run (runner.h's
 * runner_harness): the functions ("fn:NAME") and, with edges, the edges
 * ("edge:NAME:K") that the run's child reached, as the runner read them
 * from the fork server's shared memory.  Nothing to run after the run. */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "run/collect.h"

static bool harness_collect(const struct collector *c, const struct collect_run *run,
                            const struct runner_result *helper, struct str_list *out,
                            struct diag_list *diags)
{
    (void)c, (void)helper, (void)diags;
    for (size_t i = 0; i < run->result->nfeatures; i++)
        str_list_add(out, run->result->features[i]);
    return true;
}

static const struct collector_ops harness_ops = {.collect = harness_collect};

void collector_harness(struct collector *c)
{
    memset(c, 0, sizeof *c);
    c->ops = &harness_ops;
    c->name = xstrdup("harness");
}
