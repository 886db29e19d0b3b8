/* xalloc: the one allocation wrapper of kpath.
 *
 * Contract: every function returns usable memory or aborts the process with a
 * message on stderr; callers never check for NULL.  Sizes are checked for
 * overflow.  This is the only place in src/ allowed to end the process, because
 * out-of-memory is not an error the user can act on through a status. */
#ifndef KPATH_XALLOC_H
#define KPATH_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grow an array of `elem` sized items to hold at least `need` items, doubling.
 * The check is inline: it runs on every append in the hot loops. */
void *xgrow_slow(void *ptr, size_t *cap, size_t need, size_t elem);
static inline void *xgrow(void *ptr, size_t *cap, size_t need, size_t elem)
{
    return need <= *cap ? ptr : xgrow_slow(ptr, cap, need, elem);
}
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
void *xmemdup(const void *p, size_t n);

#endif
