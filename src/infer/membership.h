/* membership: membership queries — is this input valid? — asked of a program
 * (the oracle) through the runner (src/run/runner.h), so every query is a real,
 * contained run: its own directory, process group, timeout and memory limit.
 *
 * An input is valid (MEMBERSHIP_YES) when its run exited with an accepted
 * code (oracle_valid, src/run/oracle_check.h), invalid (MEMBERSHIP_NO) when
 * it exited with another code; a run killed by the timeout is
 * MEMBERSHIP_TIMEOUT and one killed by a signal MEMBERSHIP_CRASH: neither
 * is an answer about the input's validity.  Each answer of the last batch
 * has a one-line account (membership_why: the outcome and the first line
 * of standard error).  membership_ask runs
 * a batch of inputs, up to `jobs` at once, and answers in the order asked
 * (whatever the order the runs end in), so a caller's log is deterministic
 * when the oracle is.  A run that cannot start at all is an error, not an
 * answer.
 *
 * The same a step at a time, for the explorer: membership_begin hands over
 * a batch (borrowed until it is done, failed or cancelled), membership_poll
 * starts runs as slots free up and waits at most wait_ms for one to end,
 * membership_cancel kills every run under way (their whole process groups).
 *
 * Ownership: a membership owns its runner and a copy of the command. */
#ifndef KPATH_MEMBERSHIP_H
#define KPATH_MEMBERSHIP_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "run/oracle_check.h"
#include "run/runner.h"

struct membership;

/* What a run says about its input (NO is 0 and YES 1). */
enum membership_answer { MEMBERSHIP_NO, MEMBERSHIP_YES, MEMBERSHIP_TIMEOUT, MEMBERSHIP_CRASH };

/* A query's key: two independent 64-bit hashes of the input (FNV-1a, and a
 * multiply-xorshift mix) and its length: 128 bits, so two different inputs
 * of one run share a key with a probability far below any oracle's error
 * rate.  Learners keep queries by key, never by text. */
struct membership_key {
    uint64_t h1, h2, len;
};
struct membership_key membership_key_of(const char *text, size_t len);

/* argv: the command, NULL-terminated ("{}" stands for the input's path; else
 * the input is on standard input).  Copied. */
struct membership *membership_new(const struct runner_options *opts, char *const *argv,
                                  const struct oracle_exits *exits);
void membership_free(struct membership *m);

/* Ask about inputs[i] (lens[i] bytes) for i < n; answers[i] says what its
 * run said.  False
 * with a diagnostic when a run could not start or *stop became set (the
 * runs under way are killed then). */
bool membership_ask(struct membership *m, const char *const *inputs, const size_t *lens,
                    size_t n, enum membership_answer *answers, volatile const sig_atomic_t *stop,
                    struct diag_list *diags);

enum membership_state { MEMBERSHIP_WAITING, MEMBERSHIP_DONE, MEMBERSHIP_FAILED };

/* Start asking about inputs[i] (lens[i] bytes) for i < n, answers[i] to be
 * filled in; a batch under way is cancelled first. */
void membership_begin(struct membership *m, const char *const *inputs, const size_t *lens,
                      size_t n, enum membership_answer *answers);
/* Start what can start, take the runs that ended (waiting at most wait_ms
 * for the first); DONE when every answer is in, FAILED with a diagnostic
 * when a run could not start (the others are killed). */
enum membership_state membership_poll(struct membership *m, int wait_ms, struct diag_list *diags);
/* Kill every run of the batch and forget it. */
void membership_cancel(struct membership *m);
/* How many answers of the batch are in, of *of. */
size_t membership_answered(const struct membership *m, size_t *of);
/* Input i of the last batch, once answered: "exit:1; stderr: LINE" (the
 * outcome as runner_outcome says it, then standard error's first line when
 * there is one); "" before.  Valid until the next batch begins. */
const char *membership_why(const struct membership *m, size_t i);

#endif
