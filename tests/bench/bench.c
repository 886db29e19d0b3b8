/* The benchmark driver: `make bench` runs it with the repository root. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *bench_read(const char *root, const char *relative, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, relative);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    *len = fread(buf, 1, (size_t)n, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : ".";
    printf("kpath benchmarks (wall-clock times on this machine; nothing is asserted)\n");
    bench_core(root);
    bench_generation(root);
    bench_parsing(root);
    bench_concise(root);
    bench_tui(root);
    bench_run(root);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("\npeak memory of the whole run (max RSS): %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);
    return 0;
}
