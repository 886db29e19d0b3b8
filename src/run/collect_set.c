/* collect_set: see collect_set.h. */
#include "run/collect_set.h"

#include <stdlib.h>

#include "base/xalloc.h"

bool collect_set_make(const struct collect_spec *spec, struct collector **cols, size_t *ncols,
                      struct diag_list *diags)
{
    struct collector *c = xcalloc(4 + spec->ncmds, sizeof *c);
    size_t n = 0;
    collector_outcome(&c[n++]);
    if (spec->harness)
        collector_harness(&c[n++]);
    bool ok = true;
    if (spec->gcov_dir)
        ok = collector_gcov(&c[n++], spec->gcov_dir, spec->lines, diags);
    if (ok && spec->node)
        ok = collector_node(&c[n++], diags);
    for (size_t i = 0; ok && i < spec->ncmds; i++)
        collector_cmd(&c[n++], spec->cmds[i]);
    *cols = c;
    *ncols = n;
    return ok;
}

char **collect_set_names(const struct collector *cols, size_t ncols)
{
    char **names = xcalloc(ncols + 1, sizeof *names);
    for (size_t i = 0; i < ncols; i++)
        names[i] = cols[i].name;
    return names;
}

void collect_set_free(struct collector *cols, size_t ncols)
{
    for (size_t i = 0; i < ncols; i++)
        collector_free(&cols[i]);
    free(cols);
}
