/* harness: kpath's unit-test harness.
 *
 * TEST(name) { ... } defines and registers a test; CHECK* record failures with
 * file:line and keep going.  The runner prints each failing check, then the
 * closing line "N passed, N failed" (tests, not checks), and exits non-zero when
 * any test failed.  KPATH_ROOT (set by the Makefile) is the repository root, for
 * tests that read bundled files: use harness_path("grammars/expr.ebnf"). */
#ifndef KPATH_HARNESS_H
#define KPATH_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

typedef void (*harness_fn)(void);
void harness_register(const char *name, harness_fn fn);
bool harness_check(bool ok, const char *expr, const char *file, int line);
bool harness_check_int(long long a, long long b, const char *ea, const char *eb,
                       const char *file, int line);
bool harness_check_str(const char *a, const char *b, const char *ea, const char *eb,
                       const char *file, int line);
/* A path below the repository root; valid until the next call. */
const char *harness_path(const char *relative);

#define TEST(name)                                                        \
    static void name(void);                                               \
    __attribute__((constructor)) static void name##_register(void)        \
    {                                                                     \
        harness_register(#name, name);                                    \
    }                                                                     \
    static void name(void)

#define CHECK(cond) harness_check((cond), #cond, __FILE__, __LINE__)
#define CHECK_INT(a, b) \
    harness_check_int((long long)(a), (long long)(b), #a, #b, __FILE__, __LINE__)
#define CHECK_STR(a, b) harness_check_str((a), (b), #a, #b, __FILE__, __LINE__)

#endif
