/* calc: a small evaluator for grammars/arith.ebnf, written for kpath as a
 * program under test (see README, "Running a program").  It reads one
 * expression on standard input and prints its value.  Its functions do
 * visibly different things, so gcov's function features tell inputs apart:
 *
 *   main            always
 *   parse_expr, parse_term, parse_factor  always
 *   parse_number    a number
 *   add, subtract   a binary + or -
 *   multiply, divide  a binary * or /
 *   negate, plus    a unary - or + (before a number)
 *   parse_group     a parenthesised expression
 *   distributive_rule  only when the input has both a binary + and a *
 *   syntax_error    anything arith.ebnf does not accept (exit 2)
 *   division_by_zero  (exit 3)
 *   overflow        a value beyond 64 bits (exit 4)
 *   negate_group    a unary - directly before "(": a deliberate crash
 *                   (SIGSEGV), the rare construct a k-path suite finds
 *
 * It is a subject, not part of kpath: it recurses on nesting (to a limit)
 * and exits on errors, as small programs do. */
#include <stdio.h>
#include <stdlib.h>

static const char *text;
static size_t pos;
static int depth, saw_binary_plus, saw_times;

static void syntax_error(const char *what)
{
    fprintf(stderr, "calc: syntax error at %zu: %s\n", pos + 1, what);
    exit(2);
}

static void division_by_zero(void)
{
    fprintf(stderr, "calc: division by zero\n");
    exit(3);
}

static void overflow(void)
{
    fprintf(stderr, "calc: overflow\n");
    exit(4);
}

static long long add(long long a, long long b)
{
    long long r;
    if (__builtin_add_overflow(a, b, &r))
        overflow();
    return r;
}

static long long subtract(long long a, long long b)
{
    long long r;
    if (__builtin_sub_overflow(a, b, &r))
        overflow();
    return r;
}

static long long multiply(long long a, long long b)
{
    long long r;
    if (__builtin_mul_overflow(a, b, &r))
        overflow();
    return r;
}

static long long divide(long long a, long long b)
{
    if (b == 0)
        division_by_zero();
    if (a == -__LONG_LONG_MAX__ - 1 && b == -1)
        overflow();
    return a / b;
}

static long long negate(long long a)
{
    if (a == -__LONG_LONG_MAX__ - 1)
        overflow();
    return -a;
}

static long long plus(long long a)
{
    return a;
}

static long long parse_expr(void);

static long long parse_number(void)
{
    if (text[pos] < '0' || text[pos] > '9')
        syntax_error("expected a number, '+', '-' or '('");
    long long v = 0;
    while (text[pos] >= '0' && text[pos] <= '9')
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, text[pos++] - '0', &v))
            overflow();
    return v;
}

static long long parse_group(void)
{
    pos++; /* ( */
    if (++depth > 1000)
        syntax_error("nested too deeply");
    long long v = parse_expr();
    depth--;
    if (text[pos] != ')')
        syntax_error("expected ')'");
    pos++;
    return v;
}

/* The deliberate bug: negating a parenthesised group writes through a null
 * pointer. */
static long long negate_group(void)
{
    volatile long long *nowhere = NULL;
    *nowhere = parse_group();
    return negate(*nowhere);
}

static long long parse_factor(void)
{
    if (++depth > 1000)
        syntax_error("nested too deeply");
    long long v;
    if (text[pos] == '-') {
        pos++;
        v = text[pos] == '(' ? negate_group() : negate(parse_factor());
    } else if (text[pos] == '+') {
        pos++;
        v = plus(parse_factor());
    } else if (text[pos] == '(') {
        v = parse_group();
    } else {
        v = parse_number();
    }
    depth--;
    return v;
}

static long long parse_term(void)
{
    long long v = parse_factor();
    while (text[pos] == '*' || text[pos] == '/') {
        char op = text[pos++];
        long long w = parse_factor();
        if (op == '*') {
            saw_times = 1;
            v = multiply(v, w);
        } else {
            v = divide(v, w);
        }
    }
    return v;
}

static long long parse_expr(void)
{
    long long v = parse_term();
    while (text[pos] == '+' || text[pos] == '-') {
        char op = text[pos++];
        long long w = parse_term();
        if (op == '+') {
            saw_binary_plus = 1;
            v = add(v, w);
        } else {
            v = subtract(v, w);
        }
    }
    return v;
}

/* Both a sum and a product: check a*(b+c) = a*b + a*c on the value, as a
 * stand-in for an optimisation that only such inputs reach. */
static void distributive_rule(long long v)
{
    long long a = v % 7, b = v % 5, c = v % 3;
    if (a * (b + c) != a * b + a * c)
        abort();
    printf("(distributive rule checked)\n");
}

int main(void)
{
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, stdin);
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        n--;
    buf[n] = '\0';
    text = buf;
    long long v = parse_expr();
    if (pos != n)
        syntax_error("unexpected character");
    printf("%lld\n", v);
    if (saw_binary_plus && saw_times)
        distributive_rule(v);
    return 0;
}
