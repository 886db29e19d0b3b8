/* harness: libFuzzer harnesses (a C file or a shared library that defines
 * LLVMFuzzerTestOneInput, the convention of OSS-Fuzz) as programs under test.
 *
 *  - harness_build compiles a harness FILE.c (with extra sources and flags)
 *    with clang's SanitizerCoverage (-fsanitize-coverage=func or edge,
 *    trace-pc-guard, pc-table) and links it with kpath's driver
 *    (harness_driver.c, compiled without coverage), a fork server; for a
 *    FILE.so only the driver is built and loads it.  The result is cached in
 *    CACHE/KEY/ where KEY is the SHA-256 of the driver, the compiler's flags
 *    and the names and contents of the sources (not the headers they
 *    include), so a second run builds nothing;
 *  - the protocol between the runner (runner.c) and the driver: file
 *    descriptors HARNESS_FD_*, fixed-size messages, and a shared memory
 *    that holds the guards' table and the guards each run reached;
 *  - harness_names turns the table into feature names: "fn:NAME" for a
 *    guard at a function's entry (NAME from the module's ELF symbol table,
 *    "fn:NAME@FILE" for static functions that share a name), and with edges
 *    "edge:NAME:K" for the K-th guard of a function.
 *
 * Ownership: what harness_build and harness_names return belongs to the
 * caller.  Nothing here runs the harness: the runner does, contained. */
#ifndef KPATH_RUN_HARNESS_H
#define KPATH_RUN_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/strbuf.h"

/* The driver's file descriptors: requests from kpath (a uint32_t, the
 * input's length), messages to kpath (struct harness_msg), the input's
 * bytes (a memory file kpath writes before each request) and the shared
 * memory (struct harness_shm, which the driver sizes and fills). */
#define HARNESS_FD_REQUEST 3
#define HARNESS_FD_MESSAGE 4
#define HARNESS_FD_INPUT 5
#define HARNESS_FD_SHM 6

#define HARNESS_MAGIC 0x6b706831u

enum harness_msg_kind {
    HARNESS_HELLO = 1,   /* a: guards; b: the shared memory's size */
    HARNESS_STARTED = 2, /* a: the child's pid (its process group and session) */
    HARNESS_ENDED = 3,   /* a: its wait status; b: CPU microseconds; c: max RSS (KiB) */
    HARNESS_FAILED = 4,  /* the driver could not start (a: errno) or fork (b: 4) */
    HARNESS_DONE = 5,    /* in process: request `seq` done; b: the child's CPU microseconds
                          * so far; c: its max RSS (KiB) */
};

/* seq: the number of the request (1, 2, ... since the server started) a
 * child took last (HARNESS_STARTED, HARNESS_ENDED) or finished
 * (HARNESS_DONE). */
struct harness_msg {
    uint32_t kind, a, seq, pad;
    uint64_t b, c;
};

/* The environment variable that asks the driver to run inputs in process,
 * N at most per child (runner_harness.in_process_runs). */
#define HARNESS_ENV_IN_PROCESS "KPATH_HARNESS_IN_PROCESS"

/* The shared memory: this header, then `nguards` uint32_t slots of which
 * the first `count` are the guards (1 .. nguards) a run reached, in the
 * order reached; then `nguards` struct harness_entry; then `nmodules`
 * NUL-terminated module names ("" for the program itself).  `taken`: the
 * requests read so far (by the server, or by a child in process). */
struct harness_shm {
    uint32_t magic, nguards, nmodules, count, taken, pad;
};

struct harness_entry {
    uint64_t offset;  /* the guard's program counter, less its module's load address */
    uint32_t module;
    uint32_t flags;   /* 1: the entry of a function */
};

struct harness_spec {
    const char *harness;          /* FILE.c (compiled) or FILE.so (loaded) */
    const char *const *sources;   /* more sources compiled with it */
    size_t nsources;
    const char *cflags;           /* more compiler flags, separated by spaces; NULL: none */
    const char *cache_dir;        /* NULL: harness_cache_dir() */
    bool edges;                   /* every edge, not only function entries */
};

/* What to run: argv = {exe, so (when loading a FILE.so), NULL}. */
struct harness_program {
    char *argv[3]; /* owned */
};

/* Build (or find in the cache) the harness of `spec`.  False with a
 * diagnostic when clang is missing or fails (its first lines of errors). */
bool harness_build(const struct harness_spec *spec, struct harness_program *out,
                   struct diag_list *diags);
void harness_program_free(struct harness_program *p);

/* $KPATH_HARNESS_CACHE, else $XDG_CACHE_HOME/kpath/harness, else
 * $HOME/.cache/kpath/harness, else /tmp/kpath-harness-UID (owned). */
char *harness_cache_dir(void);

/* The feature of each guard, from the shared memory's table (`size`
 * bytes, copied by the caller) and the ELF symbols of its modules (the
 * program itself is `exe`): (*names)[g] for guard g in 1 .. nguards, NULL
 * for a guard that is no feature.  False with a diagnostic when the table
 * is malformed; a module whose symbols cannot be read gives "fn:0xOFFSET". */
bool harness_names(const void *shm, size_t size, const char *exe, bool edges, char ***names,
                   uint32_t *nguards, struct diag_list *diags);
void harness_names_free(char **names, uint32_t nguards);

/* Bytes written with C escapes (\n \t \r \0 \\ \" \xHH \ooo) into `out`;
 * false for a malformed escape. */
bool harness_parse_bytes(const char *text, struct strbuf *out);

#endif
