/* outdir: writing a test-suite directory safely.
 *
 * A suite is a directory of numbered test cases (0001.txt, 0002.txt, ...) and
 * files describing them (manifest.json).  The contract:
 *
 *  - outdir_open creates the directory, and any missing parents, when it does
 *    not exist.  An existing directory that holds anything at all (hidden
 *    files too) is refused unless `force` is set; a path that exists but is
 *    not a directory is always refused.  So without force nothing is ever
 *    overwritten.
 *  - outdir_write puts one file in place atomically: the data goes to a
 *    temporary file in the same directory (".NAME.PID-N.tmp", created with
 *    O_EXCL and mode 0666 so the umask applies as for any new file), which is
 *    made durable and then renamed over NAME.  A reader, or a crash, sees the
 *    old file or the whole new one, never a part.  To spare one disk flush
 *    per file, files are put in place in batches: the temporaries of a batch
 *    (at most OUTDIR_BATCH_FILES files or OUTDIR_BATCH_BYTES bytes) are
 *    written, then made durable together (one syncfs on Linux; elsewhere one
 *    fsync per file, as they are written), then renamed, then the directory
 *    is fsync'd.  outdir_commit puts the pending batch in place at once; so
 *    does every function below that needs the files in place, and the
 *    manifest (OUTDIR_MANIFEST) always goes alone, after everything written
 *    before it is in place and durable.  A name that is a directory is refused
 *    when it is written; any other error (a rename that fails at the commit)
 *    is reported for DIR/NAME, that file's temporary and those after it are
 *    removed, and the files put in place before stay as they are, complete:
 *    `written` says how many there are, so a front end can say "N files were
 *    written before the error; they are intact".
 *  - With force on a directory that is not empty, files of the same names are
 *    replaced (each atomically, as above) and every other file is left alone,
 *    except what outdir_finish removes: the numbered test cases of an earlier
 *    run that this run did not write, and the temporary files of outdir runs
 *    that were killed (their PID is not a live process).  A numbered test
 *    case is a name made of four or more ASCII digits followed by exactly the
 *    suite's suffix (outdir_is_case_name); nothing else is ever removed, so
 *    notes, other suffixes and subdirectories survive, and afterwards the
 *    numbered cases in the directory are exactly the ones this run wrote.
 *  - The manifest never lies: before the first file of a run replaces or
 *    joins the files of an earlier run, that run's manifest is removed (and
 *    the removal made durable), and the new one is written last.  So after an
 *    interruption at any point (kill -9, a crash) the manifest is absent, or
 *    it describes files that are all there, complete.  Callers write the
 *    cases, call outdir_finish, then write the manifest.
 *  - Test hook: when the environment variable KPATH_OUTDIR_KILL_AT is a
 *    number N, the process kills itself with SIGKILL just before the N-th
 *    change it would make to the directory (a temporary file created, a
 *    rename, a removal), so tests can interrupt a run at any chosen point.
 *  - Test seam: when `trace` is set (after outdir_open), it is told of every
 *    step that makes the directory durable, in order (enum outdir_event), so
 *    tests can check the order above and count the disk flushes.
 *
 * Errors are appended to a diag_list (file = the path concerned, no line);
 * nothing here prints or exits.
 *
 * Ownership: the outdir owns its copy of the path, a descriptor of the
 * directory and the list of names written; outdir_close releases them. */
#ifndef KPATH_OUTDIR_H
#define KPATH_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/strbuf.h"

/* The file that describes a suite: written last, removed first. */
#define OUTDIR_MANIFEST "manifest.json"
enum { OUTDIR_BATCH_FILES = 4096 };
#define OUTDIR_BATCH_BYTES ((size_t)64 << 20)

/* What outdir_write and its batches did, for the `trace` test seam. */
enum outdir_event {
    OUTDIR_EVENT_TEMP_WRITTEN, /* name's temporary was written: it holds `bytes`
                                  (fstat's size), and nothing more is written to it */
    OUTDIR_EVENT_DATA_SYNCED,  /* the data of every temporary written so far is
                                  durable (syncfs; elsewhere: fsync of name's) */
    OUTDIR_EVENT_RENAMED,      /* name is in place */
    OUTDIR_EVENT_REMOVED,      /* name was removed (an old manifest, a stale case) */
    OUTDIR_EVENT_DIR_SYNCED,   /* the directory's entries are durable */
};

struct outdir_pending {
    char *name, *tmp;
};

enum outdir_status {
    OUTDIR_OK,
    OUTDIR_REFUSED, /* exists and is not empty (without force), or is not a directory */
    OUTDIR_FAILED,  /* the system said no: permissions, a read-only disk, ... */
};

struct outdir {
    char *path;      /* owned; the directory as given */
    int dirfd;       /* owned; -1 when closed */
    bool force;
    bool created;    /* the directory did not exist before outdir_open */
    bool was_empty;  /* it existed (or was created) with nothing in it */
    size_t written;  /* files put in place by outdir_write so far */
    char **names;    /* owned; the names written, in the order written */
    size_t nnames, names_cap;
    bool unsynced;   /* renames made since the directory was last fsync'd */
    /* The batch: temporaries written but not yet renamed. */
    struct outdir_pending *pending; /* owned; each owns its strings */
    size_t npending, pending_cap, pending_bytes;
    bool manifest_gone; /* an earlier run's manifest is known to be absent */
    unsigned long steps, kill_at; /* the test hook (see above); 0: none */
    size_t batch_files; /* OUTDIR_BATCH_FILES; tests may set fewer after outdir_open */
    /* The test seam (see above); NULL: none.  name is NULL for the syncs. */
    void (*trace)(void *ctx, enum outdir_event event, const char *name, size_t bytes);
    void *trace_ctx;
};

enum outdir_status outdir_open(struct outdir *od, const char *path, bool force,
                               struct diag_list *diags);
/* Write `len` bytes as DIR/name, atomically; in place at the next commit at
 * the latest (OUTDIR_MANIFEST: at once, after all the others).  `name` is a
 * plain file name (no '/', not "." or ".."). */
bool outdir_write(struct outdir *od, const char *name, const void *data, size_t len,
                  struct diag_list *diags);
/* Put every file written so far in place, durably (see above).  False when
 * one could not be; every problem is reported. */
bool outdir_commit(struct outdir *od, struct diag_list *diags);
/* After a run wrote all its cases: commit them, remove the stale numbered
 * test cases with this suffix (see above; a directory of such a name is
 * left, with a warning) and killed runs' temporary files, and fsync the
 * directory.  False when something could not be removed or synced; every
 * problem is reported. */
bool outdir_finish(struct outdir *od, const char *suffix, struct diag_list *diags);
/* Release everything (files still pending are committed first, and the
 * directory fsync'd, best effort).  Safe on a zeroed or failed outdir. */
void outdir_close(struct outdir *od);

/* The name of test case `number` (1-based) of a suite of `count`: the number
 * with as many digits as `count` has, at least four, then the suffix:
 * outdir_case_name(out, 7, 12000, ".txt") appends "00007.txt". */
void outdir_case_name(struct strbuf *out, size_t number, size_t count, const char *suffix);
/* Is `name` four or more ASCII digits followed by exactly `suffix`? */
bool outdir_is_case_name(const char *name, const char *suffix);

#endif
