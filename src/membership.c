/* membership: see membership.h. */
#include "membership.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xalloc.h"

struct membership {
    struct runner *runner;
    char **argv; /* owned, NULL-terminated */
    struct oracle_exits exits;
};

struct membership *membership_new(const struct runner_options *opts, char *const *argv,
                                  const struct oracle_exits *exits)
{
    struct membership *m = xcalloc(1, sizeof *m);
    size_t n = 0;
    while (argv[n])
        n++;
    m->argv = xcalloc(n + 1, sizeof *m->argv);
    for (size_t i = 0; i < n; i++)
        m->argv[i] = xstrdup(argv[i]);
    m->exits = *exits;
    m->runner = runner_new(opts);
    return m;
}

void membership_free(struct membership *m)
{
    if (!m)
        return;
    runner_free(m->runner);
    for (size_t i = 0; m->argv[i]; i++)
        free(m->argv[i]);
    free(m->argv);
    free(m);
}

bool membership_ask(struct membership *m, const char *const *inputs, const size_t *lens,
                    size_t n, bool *answers, volatile const sig_atomic_t *stop,
                    struct diag_list *diags)
{
    size_t next = 0, done = 0;
    bool ok = true;
    while (ok && done < n) {
        if (stop && *stop) {
            diag_add(diags, DIAG_ERROR, NULL, 0, 0, "interrupted");
            ok = false;
            break;
        }
        while (next < n && runner_has_slot(m->runner)) {
            struct runner_job job = {.argv = m->argv, .input_name = "input",
                                     .input = inputs[next], .input_len = lens[next],
                                     .user = (void *)(uintptr_t)next};
            if (!runner_start(m->runner, &job, diags)) {
                ok = false;
                break;
            }
            next++;
        }
        if (!ok)
            break;
        struct runner_result *res = runner_poll(m->runner, 100);
        if (!res)
            continue;
        size_t i = (size_t)(uintptr_t)res->user;
        if (res->end == RUNNER_START_FAILED) {
            diag_add(diags, DIAG_ERROR, NULL, 0, 0, "cannot run %s: %s", m->argv[0],
                     res->error ? res->error : "start failed");
            ok = false;
        } else {
            struct strbuf outcome = STRBUF_INIT;
            runner_outcome(res, &outcome);
            answers[i] = oracle_valid(outcome.data, &m->exits);
            strbuf_free(&outcome);
            done++;
        }
        runner_result_free(res);
    }
    if (!ok)
        runner_kill_all(m->runner);
    return ok;
}
