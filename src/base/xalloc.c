/* _DEFAULT_SOURCE: madvise and MADV_HUGEPAGE (see xmalloc_written_once). */
#define _DEFAULT_SOURCE
#include "base/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void out_of_memory(size_t size)
{
    fprintf(stderr, "kpath: out of memory (allocating %zu bytes)\n", size);
    abort();
}

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

void *xmalloc_written_once(size_t size, size_t *cap)
{
#ifdef MADV_HUGEPAGE
    size_t rounded = (size + XALLOC_HUGE_PAGE - 1) / XALLOC_HUGE_PAGE * XALLOC_HUGE_PAGE;
    if (size >= XALLOC_HUGE_PAGE && rounded >= size) {
        void *p = aligned_alloc(XALLOC_HUGE_PAGE, rounded);
        if (p) {
            madvise(p, rounded, MADV_HUGEPAGE); /* advice: failing changes nothing */
            if (cap)
                *cap = rounded;
            return p;
        }
    }
#endif
    if (cap)
        *cap = size;
    return xmalloc(size);
}

void *xcalloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        out_of_memory(SIZE_MAX);
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory(count * size);
    return p;
}

void *xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

void *xgrow_slow(void *ptr, size_t *cap, size_t need, size_t elem)
{
    size_t n = *cap ? *cap : 8;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            out_of_memory(SIZE_MAX);
        n *= 2;
    }
    if (elem && n > SIZE_MAX / elem)
        out_of_memory(SIZE_MAX);
    ptr = xrealloc(ptr, n * elem);
    *cap = n;
    return ptr;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void *xmemdup(const void *src, size_t n)
{
    void *p = xmalloc(n);
    if (n)
        memcpy(p, src, n);
    return p;
}
