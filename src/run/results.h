/* results: the results file of runs of a program under test (JSON Lines), the
 * unit of exchange between `kpath run`, its shards and merges, and everything
 * that reads behaviour (explain, target, reduce, bonsai, the TUI).
 *
 * The file is UTF-8 JSON Lines.  Line 1 is the header, every other line one
 * run of one input:
 *
 *   {"kpath_results":1,"kpath_version":"0.1.0","grammar":"grammars/arith.ebnf",
 *    "grammar_sha256":"HEX","command":["subjects/build/calc","{}"],
 *    "collect":["outcome","gcov"]}
 *   {"input":"suite/0001.txt","input_sha256":"HEX","input_size":3,
 *    "outcome":"exit:0","wall_ms":1.25,"cpu_ms":0.9,"max_rss_kb":1480,
 *    "stdout":{"size":2,"sha256":"HEX","first_line":"4"},
 *    "stderr":{"size":0,"sha256":"HEX","first_line":""},
 *    "features":["exit:0","fn:main","fn:parse_sum"]}
 *
 * Header: kpath_results is the schema version (1); grammar is informative,
 * grammar_sha256 identifies it; start (optional) is the start rule given with
 * --start, part of the grammar's identity; command is the argv as given (an argument "{}"
 * stands for the input's path); collect names the feature collectors in use,
 * in the order given ("outcome" always first; "gcov", "gcov-lines", "node",
 * "cmd:CMD" for --features-cmd).  Two results files may be merged only when
 * grammar_sha256, start, command and collect are equal.
 * Record: input is the path as given to kpath; outcome is one of "exit:N",
 * "signal:NAME" (SIGSEGV, ...), "timeout", or "error:WHY" when the command
 * could not be started; the outcome is also the first feature.  features are
 * behaviour features, sorted by byte value, each once: "exit:N", "signal:NAME",
 * "timeout", "fn:NAME", "line:FILE:N", and whatever a feature command prints.
 * Fields a reader does not know are ignored (later versions may add some).
 *
 * Appending: each record is one write(2) of a whole line to a file opened
 * with O_APPEND, so an interrupted run keeps every finished record; a last
 * line cut short by a crash is dropped (with a warning) when the file is read,
 * and cut off before the next append.
 *
 * Ownership: a struct results owns its header, records and the feature-name
 * table; records refer to features by index into results.features, so a
 * feature's name is stored once however many runs reached it. */
#ifndef KPATH_RESULTS_H
#define KPATH_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/sha256.h"
#include "base/strbuf.h"

#define RESULTS_SCHEMA 1

struct results_header {
    char *kpath_version;                   /* owned */
    char *grammar;                         /* owned: path, informative */
    char grammar_sha256[SHA256_HEX_SIZE];
    char *start;                           /* owned: the start rule given with --start;
                                            * "" or NULL: the grammar's own */
    char **command;                        /* owned argv */
    uint32_t ncommand;
    char **collect;                        /* owned: feature collectors */
    uint32_t ncollect;
};

/* What a run printed on one stream: its size, hash and first line (without
 * the newline, cut at 200 bytes). */
struct run_stream {
    uint64_t size;
    char sha256[SHA256_HEX_SIZE];
    char *first_line; /* owned */
};

struct run_record {
    char *input;                         /* owned: the path as given */
    char input_sha256[SHA256_HEX_SIZE];
    uint64_t input_size;
    char *outcome;                       /* owned: "exit:0", "signal:SIGSEGV", ... */
    double wall_ms, cpu_ms;
    uint64_t max_rss_kb;
    struct run_stream out, err;
    uint32_t *features;                  /* owned: indices into results.features, */
    uint32_t nfeatures;                  /* increasing, each once */
};

struct feature_index; /* uthash name -> index, private */
struct input_index;   /* uthash input path -> first record, private */

struct results {
    struct results_header header;
    struct run_record *records; /* owned */
    size_t nrecords, records_cap;
    char **features;            /* owned: every feature name, in the order first seen */
    uint32_t nfeatures, features_cap;
    struct feature_index *index;
    struct input_index *inputs;
};

void results_init(struct results *r);
void results_free(struct results *r);

/* The index of the feature `name`, adding it when new. */
uint32_t results_intern(struct results *r, const char *name);
/* The index of `name`, or UINT32_MAX when no record has it. */
uint32_t results_find_feature(const struct results *r, const char *name);
/* Append a record (moved into r: its pointers are taken over, and the record
 * is zeroed).  Its features are sorted and made unique here. */
void results_add(struct results *r, struct run_record *record);
/* The record for the input path, or NULL. */
const struct run_record *results_find_input(const struct results *r, const char *input);
/* The indices of r's records in input path order (records of one path in
 * file order): a caller owned array of r->nrecords.  Whatever reads records
 * for learning or reporting goes in this order, so its result does not depend
 * on the order in which parallel runs ended, nor on merging. */
size_t *results_input_order(const struct results *r);
/* Does record have feature `index`? (a binary search) */
bool results_record_has(const struct results *r, const struct run_record *record, uint32_t index);
void run_record_free(struct run_record *record);

/* Does path start like a results file ({"kpath_results")?  What a command
 * may replace (:run!) must be one.  False for anything else, and for a file
 * that cannot be read. */
bool results_file_is(const char *path);

/* Read a results file.  Errors (not a results file, a malformed line, a
 * missing field) are "FILE:LINE:COL: message" diagnostics; a last line without
 * its newline is dropped with a warning.  False on error (r is then empty). */
bool results_load(const char *path, struct results *r, struct diag_list *diags);

/* The header line and a record line, each with its final newline. */
void results_format_header(const struct results_header *h, struct strbuf *out);
void results_format_record(const struct results *r, const struct run_record *record,
                           struct strbuf *out);

/* Are two headers compatible for merging and appending?  If not, a
 * diagnostic on `file` says which field differs, followed by `hint` (what
 * the user can do instead) when it is not NULL. */
bool results_headers_match(const struct results_header *a, const struct results_header *b,
                           const char *file, const char *hint, struct diag_list *diags);
void results_header_copy(struct results_header *to, const struct results_header *from);

/* Open `path` for appending records.  A missing or empty file gets the header;
 * an existing one must have a matching header (else an error, and nothing is
 * written), and a cut-short last line is removed.  When `existing` is not NULL
 * the records already in the file are loaded into it (for --resume).
 * Returns the file descriptor, or -1 with a diagnostic. */
int results_append_open(const char *path, const struct results_header *h,
                        struct results *existing, struct diag_list *diags);
/* Append one formatted line (results_format_record) with a single write.
 * False with a diagnostic on a write error. */
bool results_append_line(int fd, const char *path, const struct strbuf *line,
                         struct diag_list *diags);

/* Merge results files into one written atomically at `out_path`: headers must
 * match; one record per input path (the first file that has it wins), sorted
 * by input path; features unchanged.  Merging is associative, and a merge of
 * the shards of a run equals the run (up to times). */
bool results_merge(const char *const *paths, size_t npaths, const char *out_path,
                   struct diag_list *diags);

#endif
