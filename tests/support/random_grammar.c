#include "random_grammar.h"

#include "base/strbuf.h"

static uint64_t next(uint64_t *s)
{
    /* splitmix64: tiny, and identical everywhere. */
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static uint32_t below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(next(s) % n);
}

static void item(struct strbuf *out, uint64_t *s, uint32_t rule, uint32_t rules, int only_later,
                 int nesting)
{
    uint32_t pick = below(s, 10);
    if (pick < 4 && (!only_later || rule + 1 < rules)) {
        uint32_t lo = only_later ? rule + 1 : 1;
        if (lo >= rules)
            lo = rules - 1;
        strbuf_addf(out, "R%u", lo + below(s, rules - lo));
    } else if (pick < 7 || nesting > 1) {
        strbuf_addf(out, "\"%c\"", 'a' + (char)below(s, 5));
    } else if (pick < 8) {
        strbuf_addstr(out, "[a-c]");
    } else {
        strbuf_addstr(out, "(");
        uint32_t alts = 1 + below(s, 3);
        for (uint32_t a = 0; a < alts; a++) {
            strbuf_addstr(out, a ? " | " : "");
            item(out, s, rule, rules, only_later, nesting + 1);
        }
        strbuf_addstr(out, ")");
    }
    static const char *const quants[] = {"", "", "", "", "", "?", "*", "+", "{2}", "{1,3}"};
    strbuf_addstr(out, quants[below(s, 10)]);
}

char *random_grammar(uint64_t seed, uint32_t rules)
{
    uint64_t s = seed;
    struct strbuf out = STRBUF_INIT;
    for (uint32_t r = 0; r < rules; r++) {
        strbuf_addf(&out, "R%u := ", r);
        uint32_t alts = 1 + below(&s, 3);
        for (uint32_t a = 0; a < alts; a++) {
            strbuf_addstr(&out, a ? " | " : "");
            uint32_t items = 1 + below(&s, 3);
            for (uint32_t i = 0; i < items; i++) {
                strbuf_addstr(&out, i ? " " : "");
                item(&out, &s, r, rules, a == 0, 0);
            }
        }
        strbuf_addstr(&out, ";\n");
    }
    return strbuf_detach(&out, NULL);
}
