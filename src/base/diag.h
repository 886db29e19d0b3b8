/* diag: diagnostics (errors and warnings) with source positions.
 *
 * Contract: functions in src/ that can fail on user input return a status and
 * append what went wrong to a diag_list; they never print or exit.  Front ends
 * decide how to show the list.  A diagnostic formats as
 * "FILE:LINE:COL: error: MESSAGE" (1-based), "FILE: error: MESSAGE" when it has
 * no position, or "error: MESSAGE" when it has no file either. */
#ifndef KPATH_DIAG_H
#define KPATH_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

enum diag_severity { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE };

struct diag {
    enum diag_severity severity;
    char *file;      /* owned; NULL when the diagnostic is not about a file */
    uint32_t line;   /* 1-based; 0 when there is no position */
    uint32_t col;    /* 1-based, in characters (code points) */
    char *message;   /* owned */
};

struct diag_list {
    struct diag *items; /* owned */
    size_t len, cap;
    size_t errors;      /* how many items are DIAG_ERROR */
};

#define DIAG_LIST_INIT {NULL, 0, 0, 0}

void diag_add(struct diag_list *list, enum diag_severity severity,
              const char *file, uint32_t line, uint32_t col,
              const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void diag_vadd(struct diag_list *list, enum diag_severity severity,
               const char *file, uint32_t line, uint32_t col,
               const char *fmt, va_list ap);
bool diag_has_errors(const struct diag_list *list);
/* Append the formatted diagnostic (without a trailing newline). */
void diag_format(const struct diag *d, struct strbuf *out);
/* Sort by file, line and column, keeping the order of equal positions, so the
 * output reads top to bottom whatever pass found each problem. */
void diag_sort(struct diag_list *list);

/* The most errors a front end shows for one grammar file: a file that is no
 * grammar at all (a README given by mistake) has an error on nearly every
 * line, and the first ones say what is wrong.  `kpath check` shows all. */
#define DIAG_ERRORS_SHOWN 20
/* Keep the diagnostics up to the max_errors-th error and put in place of the
 * rest one note about `file`: "N more errors[ and M more warnings] not shown
 * ('kpath check FILE' lists every one)".  Nothing changes when none follow. */
void diag_list_cap(struct diag_list *list, size_t max_errors, const char *file);
void diag_list_free(struct diag_list *list);

#endif
