/* A libFuzzer harness and the small parser it tests, for `kpath run
 * --harness` (tests/cli/scripts/harness.sh): lists of numbers and names,
 * like [12,ab,[3]].  Each function's name says when it runs, so that the
 * features of an input can be worked out by hand:
 *   parse_value  every input (the first character picks what follows)
 *   parse_number a digit is read      parse_name  a letter is read
 *   parse_list   a '[' is read        fail        the input is not a list,
 *                                                 number or name (exit 0 all the same)
 * and hostile behaviour on a first character of its own:
 *   '!' writes through a null pointer (SIGSEGV)   '~' abort() (SIGABRT)
 *   '@' loops forever (the timeout)               '%' exit(3)
 *   '&' forks a child that writes to the terminal and stdout and sleeps
 *   '$' prints "dollar" on stdout and "warn" on stderr
 * and state kept between inputs: '#' counts the '#' inputs its process has
 * run and calls seen_before from the second on (never with a fork per
 * input, whose children all start from the server's count of 0; with
 * --in-process from a child's second '#' input on: the accepted risk).
 * Built with -DKPATH_STANDALONE (make subjects, with --coverage) it is a
 * program of its own that reads the input on stdin: the same parser for
 * `kpath run --gcov`, whose functions are the harness's plus main. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cursor {
    const uint8_t *p, *end;
};

static int parse_value(struct cursor *c, int depth);

static int fail(struct cursor *c)
{
    c->p = c->end;
    return 0;
}

static int parse_number(struct cursor *c)
{
    int n = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9')
        n = n * 10 + (*c->p++ - '0');
    return n >= 0;
}

static int parse_name(struct cursor *c)
{
    while (c->p < c->end && *c->p >= 'a' && *c->p <= 'z')
        c->p++;
    return 1;
}

static int parse_list(struct cursor *c, int depth)
{
    c->p++; /* '[' */
    if (c->p < c->end && *c->p == ']') {
        c->p++;
        return 1;
    }
    for (;;) {
        if (!parse_value(c, depth + 1))
            return 0;
        if (c->p < c->end && *c->p == ',') {
            c->p++;
            continue;
        }
        if (c->p < c->end && *c->p == ']') {
            c->p++;
            return 1;
        }
        return fail(c);
    }
}

static int parse_value(struct cursor *c, int depth)
{
    if (depth > 100 || c->p >= c->end)
        return fail(c);
    uint8_t ch = *c->p;
    if (ch >= '0' && ch <= '9')
        return parse_number(c);
    if (ch >= 'a' && ch <= 'z')
        return parse_name(c);
    if (ch == '[')
        return parse_list(c, depth);
    return fail(c);
}

static int hashes;           /* '#' inputs run by this process */
static volatile int seen;    /* written, so that the call to seen_before stays */

static void seen_before(void)
{
    seen = 1;
}

static void hostile(uint8_t ch)
{
    if (ch == '#' && hashes++)
        seen_before();
    if (ch == '!')
        *(volatile int *)(uintptr_t)0 = 1;
    if (ch == '~')
        abort();
    if (ch == '@')
        for (volatile int spin = 1; spin;)
            ;
    if (ch == '%')
        exit(3);
    if (ch == '$') {
        printf("dollar\n");
        fprintf(stderr, "warn\n");
    }
    if (ch == '&' && fork() == 0) {
        int tty = open("/dev/tty", O_WRONLY);
        if (tty >= 0)
            (void)!write(tty, "harness child on the terminal\n", 30);
        printf("from the grandchild\n");
        fflush(stdout);
        sleep(30);
        _exit(0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size)
        hostile(data[0]);
    struct cursor c = {data, data + size};
    parse_value(&c, 0);
    return 0;
}

#ifdef KPATH_STANDALONE
int main(void)
{
    static uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, stdin);
    return LLVMFuzzerTestOneInput(buf, n);
}
#endif
