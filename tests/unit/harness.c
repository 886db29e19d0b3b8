#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct test {
    const char *name;
    harness_fn fn;
};

static struct test tests[1024];
static int ntests;
static int current_failures;
static const char *current_name;

void harness_register(const char *name, harness_fn fn)
{
    if (ntests == (int)(sizeof tests / sizeof tests[0])) {
        fprintf(stderr, "harness: too many tests\n");
        exit(2);
    }
    tests[ntests].name = name;
    tests[ntests].fn = fn;
    ntests++;
}

bool harness_check(bool ok, const char *expr, const char *file, int line)
{
    if (!ok) {
        current_failures++;
        fprintf(stderr, "%s:%d: %s: check failed: %s\n", file, line, current_name, expr);
    }
    return ok;
}

bool harness_check_int(long long a, long long b, const char *ea, const char *eb,
                       const char *file, int line)
{
    if (a != b) {
        current_failures++;
        fprintf(stderr, "%s:%d: %s: %s == %s failed: %lld != %lld\n", file, line,
                current_name, ea, eb, a, b);
    }
    return a == b;
}

bool harness_check_str(const char *a, const char *b, const char *ea, const char *eb,
                       const char *file, int line)
{
    bool ok = a && b && strcmp(a, b) == 0;
    if (!ok) {
        current_failures++;
        fprintf(stderr, "%s:%d: %s: %s == %s failed:\n  got:      \"%s\"\n  expected: \"%s\"\n",
                file, line, current_name, ea, eb, a ? a : "(null)", b ? b : "(null)");
    }
    return ok;
}

const char *harness_path(const char *relative)
{
    static char buf[4096];
    const char *root = getenv("KPATH_ROOT");
    snprintf(buf, sizeof buf, "%s/%s", root ? root : ".", relative);
    return buf;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    for (int i = 0; i < ntests; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1]))
            continue;
        current_name = tests[i].name;
        current_failures = 0;
        tests[i].fn();
        if (current_failures) {
            failed++;
            fprintf(stderr, "FAIL %s\n", tests[i].name);
        } else {
            passed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
