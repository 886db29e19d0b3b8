/* runner: children that run a program under test, contained, through a step
 * API that never blocks longer than its caller allows.
 *
 * Every run gets:
 *  - a run directory RUN holding cwd/ (the program's empty working
 *    directory), in/ and whatever the collectors' environment points into
 *    it.  The input is a copy, so the program can never change the suite:
 *    sealed in memory (memfd, no file) when it only reads standard input;
 *    in/NAME, read-only, when an argument is "{}" or the job asks for the
 *    file (input_file).  Run directories live in one base directory per runner,
 *    PARENT/kpath-run-PID-XXXXXX (PARENT: runner_dir_parent), are reused
 *    rather than made and removed: when a result is freed its directory is
 *    emptied (cwd/ and in/ empty again, mode 0700, nothing else; on tmpfs,
 *    where a directory's size counts its entries, three lstat tell a
 *    directory that is as made from one to scan) and given to the next run; the base goes with the runner.  The base holds a lock
 *    (flock of BASE/lock) while its kpath lives; a runner removes the bases
 *    of dead kpath processes it finds beside its own;
 *  - its own session and process group (setsid: no controlling terminal),
 *    standard input from the input's copy (or /dev/null), stdout and stderr through
 *    pipes of which only the size, the SHA-256 and the first line are kept
 *    (a helper run may keep its whole stdout, up to a cap), no other file
 *    descriptor of kpath;
 *  - limits: a wall-clock timeout, RLIMIT_AS and RLIMIT_FSIZE (the memory
 *    limit), no core files;
 *  - at its end (exit, signal or timeout) SIGKILL to its whole process group.
 *    kpath is a child subreaper (PR_SET_CHILD_SUBREAPER): a descendant that
 *    left the group (setsid, a daemon) comes back to kpath when its parent
 *    dies and is killed with its own group at the end of the next run, and
 *    counted (runner_escaped);
 *  - when kpath dies without ending it (kill -9, the OOM killer, a signal it
 *    does not handle): the program dies of PR_SET_PDEATHSIG (SIGKILL; kpath
 *    starts runs from its main thread only, the thread the signal follows),
 *    and a keeper process forked once per runner kills the process groups
 *    and sessions of the runs under way (listed in memory it shares with
 *    kpath: a run costs it nothing) and removes the run directories.
 *    What escaped its session too (a daemon) at that moment stays: without
 *    cgroups there is no reliable way to find it.
 *
 * Children are started with vfork, so that starting a run costs the same
 * whatever kpath's size; a child that cannot exec says why in the memory it
 * shares with kpath until then (no pipe); a run's end wakes runner_poll
 * through a pidfd (no wait4 until it does).
 *
 * The step API: runner_start starts one run when a slot is free (at most
 * `jobs` at once); runner_poll waits at most `wait_ms` (0: not at all) and
 * returns one finished run or NULL.  runner_kill_all ends every run at once
 * (for Ctrl-C: signal handlers only set a flag; the loop calls it).
 *
 * Ownership: the runner owns its running children; a finished run is handed
 * over as a struct runner_result that the caller frees with
 * runner_result_free (which gives its directory back, emptied).  A result
 * may outlive its runner. */
#ifndef KPATH_RUNNER_H
#define KPATH_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "run/results.h"
#include "base/strbuf.h"

#define RUNNER_FIRST_LINE_MAX 200 /* bytes of the first line kept */

/* A libFuzzer harness run through a fork server (harness.h): one server per
 * slot, started like any run (its own session, limits, directory, killed
 * with kpath), forks a child per input that gets its own session and
 * process group, the timeout (kill of its group), and the server's limits;
 * its stdout and stderr are captured as a run's; the guards it reached
 * become the result's features.  The input goes through memory: the
 * program never sees the suite's file.
 *
 * In process (in_process_runs > 0): the child stays for the next input,
 * up to in_process_runs inputs, then the server forks a new one; a child
 * that crashes, exits or is killed by the timeout ends with that input's
 * outcome (as a forked child's) and the next input gets a new child.  The
 * child keeps its session, process group and limits, and is killed with
 * its group when it ends or its server closes; the working directory is
 * checked empty after every input (else a new server, in a new one), its
 * streams are flushed after every input.  What the harness keeps in memory
 * from one input to the next (globals, caches, leaks) is the risk the user
 * accepts: features and outcomes may then differ from a fork per input. */
struct runner_harness {
    char *const *argv;      /* the built harness and its arguments (harness_build) */
    const char *prefix, *suffix; /* bytes put around every input */
    size_t prefix_len, suffix_len;
    bool edges;             /* edge features too */
    uint32_t in_process_runs; /* 0: a child per input; else inputs per child */
};

struct runner_options {
    uint32_t jobs;          /* children at once, at least 1 */
    uint64_t timeout_ms;    /* wall clock per run; 0: none */
    uint64_t max_memory;    /* bytes of address space and of any one file; 0: none */
    const char *tmp_parent; /* where run directories go; NULL: runner_dir_parent's choice */
    const struct runner_harness *harness; /* NULL: each job runs its argv; else a job
                                           * without in_dir goes to the harness */
};

/* What to run.  Everything is copied by runner_start. */
struct runner_job {
    char *const *argv;       /* NULL-terminated; an argument "{}" becomes in/NAME's path;
                              * a relative argv[0] with a "/" is taken from kpath's working
                              * directory (the child runs in cwd/) */
    char *const *env;        /* extra "NAME=VALUE" entries, NULL-terminated or NULL; the
                              * text "{run}" in a value becomes the run's directory */
    const char *input_name;  /* base name of the input copy; NULL: no input (stdin
                              * /dev/null, "{}" stays) */
    const void *input;       /* the input's bytes */
    size_t input_len;
    const char *in_dir;      /* run in this existing run directory (a helper run after a
                              * run, e.g. gcov): its cwd/ is used and nothing is made or
                              * removed; NULL: a fresh run directory */
    bool input_file;         /* make in/NAME even when no argument is "{}" (a helper run
                              * after this one reads it) */
    size_t keep_stdout;      /* keep up to this many bytes of stdout whole; 0: none */
    void *user;              /* handed back in the result */
};

enum runner_end { RUNNER_EXITED, RUNNER_SIGNALED, RUNNER_TIMEOUT, RUNNER_START_FAILED };

struct run_pool;
struct run_dir;

struct runner_result {
    void *user;
    char *dir;              /* owned: the run directory (emptied and reused after
                             * runner_result_free unless the job ran in an existing one) */
    bool owns_dir;
    struct run_pool *pool;  /* internal: where the directory goes back */
    struct run_dir *pooled;
    enum runner_end end;
    int code;               /* exit status, or signal number */
    char *error;            /* owned: why a start failed (RUNNER_START_FAILED) */
    double start_ms;        /* kpath's work before the program started (directory,
                             * input copy, pipes, fork) */
    double wall_ms, cpu_ms; /* the program's, from its start to its end */
    uint64_t max_rss_kb;
    struct run_stream out, err; /* first_line owned */
    struct strbuf stdout_kept;  /* keep_stdout bytes at most */
    bool stdout_cut;            /* stdout was longer than keep_stdout */
    char **features;            /* owned: a harness run's "fn:NAME" ("edge:NAME:K"), in the
                                 * order reached */
    size_t nfeatures;
};

struct runner;

struct runner *runner_new(const struct runner_options *opts);
/* Kills every running child (runner_kill_all) and frees the runner. */
void runner_free(struct runner *r);

/* Is there a free slot for runner_start? */
bool runner_has_slot(const struct runner *r);
size_t runner_running(const struct runner *r);
/* Start a run; false with a diagnostic when no slot is free or the run
 * directory cannot be made (the failure of the program itself to start is a
 * result, RUNNER_START_FAILED, not an error here). */
bool runner_start(struct runner *r, const struct runner_job *job, struct diag_list *diags);
/* Wait at most wait_ms milliseconds for a run to end (returns early when a
 * signal arrives); the ended run, or NULL. */
struct runner_result *runner_poll(struct runner *r, int wait_ms);
/* SIGKILL every running child's group, reap them and remove their directories. */
void runner_kill_all(struct runner *r);

/* Processes that left their run's process group (setsid) and were killed
 * at the end of a run, so far. */
size_t runner_escaped(const struct runner *r);

/* Where run directories go: tmp_parent if given, else $TMPDIR if set, else
 * /dev/shm (a memory file system: no disk writes per run) when it is a
 * writable directory, else /tmp. */
const char *runner_dir_parent(const char *tmp_parent);

/* "exit:N", "signal:NAME", "timeout" or "error:WHY": the outcome feature. */
void runner_outcome(const struct runner_result *res, struct strbuf *out);
/* "SIGSEGV" for SIGSEGV, "SIG42" for a signal without a name here. */
const char *runner_signal_name(int sig, char buf[16]);
void runner_result_free(struct runner_result *res);

/* Remove a directory tree without following symbolic links and without
 * recursion (a program may nest directories deeply).  False if something
 * stayed. */
bool runner_remove_tree(const char *path);

/* Is `name` a command that can be executed (a path, or a name found in PATH)?
 * If not, a diagnostic says why ("no such command", "is not executable", "is
 * a directory"). */
bool runner_check_command(const char *name, struct diag_list *diags);

/* The defaults every front end starts from: as many jobs as cores, 10 s of
 * wall clock, 4 GiB (RUNNER_DEFAULT_*). */
#define RUNNER_DEFAULT_TIMEOUT_S 10
#define RUNNER_DEFAULT_MAX_MEMORY ((uint64_t)4 << 30)
void runner_default_options(struct runner_options *o);
/* A timeout as the user writes it: "10" (seconds) or "250ms"; false for 0
 * or anything else. */
bool runner_parse_timeout(const char *text, uint64_t *ms);

#endif
