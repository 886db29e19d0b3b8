/* bench: kpath's benchmarks, one module per area, one driver (bench.c).
 * They print figures and assert nothing. */
#ifndef KPATH_BENCH_H
#define KPATH_BENCH_H

#include <stddef.h>

double bench_now(void);
/* The bundled file `relative` below the repository root; NULL if unreadable. */
char *bench_read(const char *root, const char *relative, size_t *len);

void bench_core(const char *root);
void bench_generation(const char *root);
void bench_parsing(const char *root);
void bench_tui(const char *root);
void bench_concise(const char *root);
void bench_run(const char *root);

#endif
