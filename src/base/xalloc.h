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
/* Memory that is written once from end to end (a sample's bytes, the
 * parser's decoded text): at least `size` bytes, freed with free().  Page
 * by page that is a fault every 4 KiB, and on a virtual machine a fault can
 * cost 20 us (80 ms for the decoded text of 4 MB of input); so from
 * XALLOC_HUGE_PAGE bytes on, where the kernel gives transparent huge pages
 * on request, it is aligned memory that asks for them (one fault per
 * 2 MiB).  *cap, unless NULL, gets the bytes allocated. */
#define XALLOC_HUGE_PAGE ((size_t)2 << 20)
void *xmalloc_written_once(size_t size, size_t *cap);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
void *xmemdup(const void *p, size_t n);

#endif
