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
 *    fsync'd and then renamed over NAME.  A reader, or a crash, sees the old
 *    file or the whole new one, never a part.  On any error the temporary is
 *    removed and the error is reported for DIR/NAME; the files written before
 *    stay as they are, complete, and `written` says how many there are, so a
 *    front end can say "N files were written before the error; they are
 *    intact".
 *  - With force on a directory that is not empty, files of the same names are
 *    replaced (each atomically, as above) and every other file is left alone,
 *    except what outdir_finish removes after a successful run: the numbered
 *    test cases of an earlier run that this run did not write.  A numbered
 *    test case is a name made of four or more ASCII digits followed by exactly
 *    the suite's suffix (outdir_is_case_name); nothing else is ever removed,
 *    so notes, other suffixes and subdirectories survive, and afterwards the
 *    numbered cases in the directory are exactly the ones this run wrote.
 *  - outdir_finish also fsyncs the directory, so the renames are durable.
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

#include "diag.h"
#include "strbuf.h"

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
};

enum outdir_status outdir_open(struct outdir *od, const char *path, bool force,
                               struct diag_list *diags);
/* Write `len` bytes as DIR/name, atomically.  `name` is a plain file name (no
 * '/', not "." or ".."). */
bool outdir_write(struct outdir *od, const char *name, const void *data, size_t len,
                  struct diag_list *diags);
/* After a successful run: remove the stale numbered test cases with this
 * suffix (see above; a directory of such a name is left, with a warning) and
 * fsync the directory.  False when something could not be removed or synced;
 * every problem is reported. */
bool outdir_finish(struct outdir *od, const char *suffix, struct diag_list *diags);
/* Release everything (the directory is fsync'd first, best effort, when files
 * were written since the last sync).  Safe on a zeroed or failed outdir. */
void outdir_close(struct outdir *od);

/* The name of test case `number` (1-based) of a suite of `count`: the number
 * with as many digits as `count` has, at least four, then the suffix:
 * outdir_case_name(out, 7, 12000, ".txt") appends "00007.txt". */
void outdir_case_name(struct strbuf *out, size_t number, size_t count, const char *suffix);
/* Is `name` four or more ASCII digits followed by exactly `suffix`? */
bool outdir_is_case_name(const char *name, const char *suffix);

#endif
