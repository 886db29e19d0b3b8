/* membership: see membership.h. */
#include "infer/membership.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

struct membership {
    struct runner *runner;
    char **argv; /* owned, NULL-terminated */
    struct oracle_exits exits;
    /* the batch being asked (membership_begin): borrowed */
    const char *const *inputs;
    const size_t *lens;
    enum membership_answer *answers;
    size_t n, next, done; /* inputs, started, answered */
    char **why;           /* owned: per input of the last batch, or NULL */
    size_t nwhy;
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
    for (size_t i = 0; i < m->nwhy; i++)
        free(m->why[i]);
    free(m->why);
    for (size_t i = 0; m->argv[i]; i++)
        free(m->argv[i]);
    free(m->argv);
    free(m);
}

void membership_begin(struct membership *m, const char *const *inputs, const size_t *lens,
                      size_t n, enum membership_answer *answers)
{
    membership_cancel(m);
    for (size_t i = 0; i < m->nwhy; i++)
        free(m->why[i]);
    free(m->why);
    m->why = xcalloc(n ? n : 1, sizeof *m->why);
    m->nwhy = n;
    m->inputs = inputs;
    m->lens = lens;
    m->answers = answers;
    m->n = n;
    m->next = m->done = 0;
}

enum membership_state membership_poll(struct membership *m, int wait_ms, struct diag_list *diags)
{
    while (m->done < m->n) {
        while (m->next < m->n && runner_has_slot(m->runner)) {
            struct runner_job job = {.argv = m->argv, .input_name = "input",
                                     .input = m->inputs[m->next], .input_len = m->lens[m->next],
                                     .user = (void *)(uintptr_t)m->next};
            if (!runner_start(m->runner, &job, diags)) {
                membership_cancel(m);
                return MEMBERSHIP_FAILED;
            }
            m->next++;
        }
        struct runner_result *res = runner_poll(m->runner, wait_ms);
        if (!res)
            return MEMBERSHIP_WAITING;
        wait_ms = 0; /* take every run that has ended, wait no more */
        size_t i = (size_t)(uintptr_t)res->user;
        if (res->end == RUNNER_START_FAILED) {
            diag_add(diags, DIAG_ERROR, NULL, 0, 0, "cannot run %s: %s", m->argv[0],
                     res->error ? res->error : "start failed");
            runner_result_free(res);
            membership_cancel(m);
            return MEMBERSHIP_FAILED;
        }
        struct strbuf outcome = STRBUF_INIT;
        runner_outcome(res, &outcome);
        m->answers[i] = res->end == RUNNER_TIMEOUT   ? MEMBERSHIP_TIMEOUT
                        : res->end == RUNNER_SIGNALED ? MEMBERSHIP_CRASH
                        : oracle_valid(outcome.data, &m->exits) ? MEMBERSHIP_YES
                                                                : MEMBERSHIP_NO;
        const char *line = res->err.first_line;
        if (line && *line)
            strbuf_addf(&outcome, "; stderr: %s", line);
        if (i < m->nwhy) {
            free(m->why[i]);
            m->why[i] = strbuf_detach(&outcome, NULL);
        }
        strbuf_free(&outcome);
        m->done++;
        runner_result_free(res);
    }
    return MEMBERSHIP_DONE;
}

void membership_cancel(struct membership *m)
{
    runner_kill_all(m->runner);
    m->inputs = NULL;
    m->lens = NULL;
    m->answers = NULL;
    m->n = m->next = m->done = 0;
}

size_t membership_answered(const struct membership *m, size_t *of)
{
    *of = m->n;
    return m->done;
}

bool membership_ask(struct membership *m, const char *const *inputs, const size_t *lens,
                    size_t n, enum membership_answer *answers, volatile const sig_atomic_t *stop,
                    struct diag_list *diags)
{
    membership_begin(m, inputs, lens, n, answers);
    for (;;) {
        if (stop && *stop) {
            diag_add(diags, DIAG_ERROR, NULL, 0, 0, "interrupted");
            membership_cancel(m);
            return false;
        }
        enum membership_state st = membership_poll(m, 100, diags);
        if (st != MEMBERSHIP_WAITING) {
            m->n = m->next = m->done = 0;
            return st == MEMBERSHIP_DONE;
        }
    }
}

const char *membership_why(const struct membership *m, size_t i)
{
    return i < m->nwhy && m->why[i] ? m->why[i] : "";
}

struct membership_key membership_key_of(const char *text, size_t len)
{
    struct membership_key k;
    memset(&k, 0, sizeof k);
    uint64_t a = 0xcbf29ce484222325u, b = 0x243f6a8885a308d3u ^ (uint64_t)len;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        a = (a ^ c) * 0x100000001b3u;
        b = (b ^ c) * 0x9e3779b97f4a7c15u;
        b ^= b >> 29;
    }
    b ^= b >> 32;
    b *= 0xd6e8feb86659fd93u;
    b ^= b >> 32;
    k.h1 = a;
    k.h2 = b;
    k.len = len;
    return k;
}
