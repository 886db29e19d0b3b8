/* bench_convert: `kpath convert --to FORMAT` as a whole program on grammars
 * of 10,000 to 160,000 rules (issue 38 item 11: every format but .ebnf was
 * quadratic in the rules, through the names made unique by comparing each
 * with every name before it).  The rules form a chain whose names collide
 * once written in the other formats (<a-i> a_i <a.i> <a+i> are all a_i), as
 * tests/cli/scripts/convert-many-rules.sh makes them; each run a child
 * under a CPU-time limit.  Linear: the CPU time per rule stays flat as the
 * grammar grows (reading the grammar included). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "base/strbuf.h"

static void chain_grammar(unsigned groups, struct strbuf *sb)
{
    unsigned n = 4 * groups;
    strbuf_addstr(sb, "S := <a-0>;\n");
    for (unsigned r = 0; r < n; r++) {
        static const char *const form[] = {"<a-%u>", "a_%u", "<a.%u>", "<a+%u>"};
        strbuf_addf(sb, form[r % 4], r / 4);
        if (r + 1 == n) {
            strbuf_addstr(sb, " := \"z\";\n");
            break;
        }
        strbuf_addstr(sb, " := \"x\" (\"y\"+ | ");
        strbuf_addf(sb, form[(r + 1) % 4], (r + 1) / 4);
        strbuf_addstr(sb, ")* | \"z\";\n");
    }
}

void bench_convert(const char *root)
{
    char dir[] = "/tmp/kpath-bench-XXXXXX", kpath[4096];
    if (!mkdtemp(dir)) {
        printf("  not measured: cannot make a temporary directory\n");
        return;
    }
    snprintf(kpath, sizeof kpath, "%s/build/kpath", root);
    printf("\n== convert: kpath convert --to FORMAT of a chain of N rules whose names collide "
           "in the other formats (CPU s, CPU us per rule, peak MiB)\n");
    printf("  %8s", "rules");
    static const char *const formats[] = {"ebnf", "g4", "fandango", "tribble", "fuzzingbook"};
    for (int f = 0; f < 5; f++)
        printf(" | %-22s", formats[f]);
    printf("\n");
    static const unsigned sizes[] = {10000, 40000, 160000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char gpath[4200], out[4200], err[4200];
        snprintf(gpath, sizeof gpath, "%s/grammar.ebnf", dir);
        snprintf(out, sizeof out, "%s/out", dir);
        snprintf(err, sizeof err, "%s/err", dir);
        struct strbuf sb = STRBUF_INIT;
        chain_grammar(sizes[i] / 4, &sb);
        FILE *fp = fopen(gpath, "wb");
        int ok = fp && fwrite(sb.data, 1, sb.len, fp) == sb.len;
        if (fp && fclose(fp) != 0)
            ok = 0;
        strbuf_free(&sb);
        if (!ok) {
            printf("  not measured: cannot write the grammar\n");
            break;
        }
        printf("  %8u", sizes[i] + 1);
        for (int f = 0; f < 5; f++) {
            char *argv[] = {kpath, "convert", "--to", (char *)formats[f], gpath, NULL};
            struct bench_run r;
            bench_run_child_cpu(argv, dir, out, err, 120.0, 1200.0, &r);
            if (!r.finished || r.status != 0)
                printf(" | %-22s", r.finished ? "failed" : "over 120 CPU s");
            else
                printf(" | %6.2f %6.1f %7.1f ", r.cpu, r.cpu * 1e6 / (sizes[i] + 1),
                       r.peak / (1024.0 * 1024.0));
            fflush(stdout);
        }
        printf("\n");
        remove(out);
        remove(err);
        remove(gpath);
    }
    rmdir(dir);
}
