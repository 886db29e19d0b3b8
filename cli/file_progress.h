/* file_progress: a line on a terminal that says which input file a command
 * reading many of them is on, so that a corpus with one slow file is not
 * silent (a grammar whose tokens can end anywhere can take minutes on one
 * file of a few kilobytes).
 *
 * Once the run has lasted a second, a thread rewrites one line of stderr in
 * place ("\r...\033[K") four times a second: the files done, the file waited
 * for, its size and how long it has taken.  It writes nothing unless stderr
 * is a terminal (a log gets the results themselves, not a clock).  Output of
 * the command to the same terminal goes between file_progress_hold, which
 * clears the line and keeps the thread from drawing, and
 * file_progress_release, after the output is flushed.  Ownership: the caller
 * owns the struct; the thread runs from file_progress_start to
 * file_progress_stop, which clears the line; the name given to
 * file_progress_file must stay valid until the next call or the stop. */
#ifndef KPATH_CLI_FILE_PROGRESS_H
#define KPATH_CLI_FILE_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"

struct file_progress {
    const char *cmd; /* the line starts "cmd: " */
    bool on;         /* stderr is a terminal and the thread runs */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool stop, shown, held;
    const char *name; /* the file waited for, or NULL */
    long long size;   /* its size in bytes, or -1 */
    size_t done;      /* files finished */
    double start, since;
    struct strbuf line; /* the line last written */
};

void file_progress_start(struct file_progress *fp, const char *cmd);
/* Now waiting for `path` (shown as `name`; NULL: for nothing), `done`
 * files finished before it. */
void file_progress_file(struct file_progress *fp, const char *path, const char *name,
                        size_t done);
void file_progress_hold(struct file_progress *fp);
void file_progress_release(struct file_progress *fp);
void file_progress_stop(struct file_progress *fp);

#endif
