#include "base/arena.h"

#include <string.h>

#include <stdlib.h>

#include "base/xalloc.h"

enum { ARENA_BLOCK = 64 * 1024, ARENA_ALIGN = 16 };

struct arena_block {
    struct arena_block *next;
    size_t used, size;
    _Alignas(ARENA_ALIGN) unsigned char data[];
};

void arena_init(struct arena *a)
{
    a->head = NULL;
}

void *arena_alloc(struct arena *a, size_t size)
{
    size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (!a->head || a->head->size - a->head->used < size) {
        size_t block = size > ARENA_BLOCK ? size : ARENA_BLOCK;
        struct arena_block *b = xmalloc(sizeof *b + block);
        b->next = a->head;
        b->used = 0;
        b->size = block;
        a->head = b;
    }
    void *p = a->head->data + a->head->used;
    a->head->used += size;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void arena_free(struct arena *a)
{
    struct arena_block *b = a->head;
    while (b) {
        struct arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}
