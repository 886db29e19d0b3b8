/* arena: bump allocation for data that lives and dies together (a grammar's
 * syntax tree).  Freeing the arena frees everything in it at once, which keeps
 * deep structures free of recursive destructors.
 *
 * Contract: memory is 16-byte aligned, zeroed, and valid until arena_free. */
#ifndef KPATH_ARENA_H
#define KPATH_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
    struct arena_block *head; /* owned: the chain of blocks, newest first */
};

void arena_init(struct arena *a);
void *arena_alloc(struct arena *a, size_t size);
char *arena_strndup(struct arena *a, const char *s, size_t n);
void arena_free(struct arena *a);

#endif
