/* realpath(3) is XSI. */
#define _XOPEN_SOURCE 700
/* grammar_write: the .ebnf writer.  See grammar_write.h for the contract. */
#include "formats/grammar_write.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"

/* Weights are kept in units of 1e-8 (a millionth of a percent) and rounded to
 * this many significant digits: 33.333%, 12.5%, 0.0012346%. */
#define UNITS_PER_ONE 100000000ULL
#define UNITS_PER_PERCENT 1000000ULL
#define WEIGHT_DIGITS 5
#define UNANNOTATED UINT64_MAX

/* An alt node of the caller's graph, found by its expr. */
struct alt_entry {
    const struct expr *expr;
    uint32_t node;
};

struct writer {
    const struct grammar *g;
    struct grammar_write_options o;
    const char *define;
    struct alt_entry *alts; /* sorted by expr address; only with o.graph */
    size_t nalts;
};

/* ---- setup ----------------------------------------------------------------- */

static int compare_alt_entries(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const struct alt_entry *)a)->expr;
    uintptr_t y = (uintptr_t)((const struct alt_entry *)b)->expr;
    return x < y ? -1 : x > y;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* The definition symbol the grammar's first loaded rule uses. */
static const char *detect_define(const struct grammar *g)
{
    for (uint32_t r = 0; r < g->nrules; r++) {
        const struct rule *rule = &g->rules[r];
        if (!grammar_rule_has_source(rule) || !g->source)
            continue;
        size_t i = rule->src_name + strlen(rule->name);
        while (i < rule->src_stop) {
            const char *s = g->source + i;
            if (is_blank(*s)) {
                i++;
            } else if (*s == '/' && s[1] == '*') {
                const char *close = strstr(s + 2, "*/");
                i = close ? (size_t)(close - g->source) + 2 : rule->src_stop;
            } else if (*s == '#' || (*s == '/' && s[1] == '/')) {
                while (i < rule->src_stop && g->source[i] != '\n')
                    i++;
            } else if (strncmp(s, "::=", 3) == 0) {
                return "::=";
            } else if (strncmp(s, ":=", 2) == 0) {
                return ":=";
            } else {
                return *s == '=' ? "=" : ":=";
            }
        }
    }
    return ":=";
}

static void writer_init(struct writer *w, const struct grammar *g,
                        const struct grammar_write_options *opts)
{
    memset(w, 0, sizeof *w);
    w->g = g;
    if (opts)
        w->o = *opts;
    if (!w->o.width)
        w->o.width = GRAMMAR_WRITE_WIDTH;
    w->define = detect_define(g);
    const struct graph *graph = w->o.graph;
    if (w->o.probabilities && !w->o.probability && graph && w->o.edge_probability) {
        w->alts = xmalloc(((size_t)graph->nnodes + 1) * sizeof *w->alts);
        for (uint32_t n = 0; n < graph->nnodes; n++)
            if (graph->nodes[n].kind == NODE_ALT)
                w->alts[w->nalts++] = (struct alt_entry){graph->nodes[n].expr, n};
        qsort(w->alts, w->nalts, sizeof *w->alts, compare_alt_entries);
    }
}

static void writer_free(struct writer *w)
{
    free(w->alts);
}

/* ---- weights --------------------------------------------------------------- */

/* The probability to print for alternative i of `alt`; false when it stays
 * unannotated. */
static bool alt_probability(const struct writer *w, const struct expr *alt, uint32_t i,
                            double *p)
{
    if (!w->o.probabilities) {
        const double *weights = alt->u.alt.weights;
        if (!weights || weights[i] < 0)
            return false;
        *p = weights[i];
        return true;
    }
    if (w->o.probability) {
        *p = w->o.probability(w->o.ctx, alt, i);
        return *p >= 0; /* NaN too stays unannotated */
    }
    if (w->alts) {
        struct alt_entry key = {alt, 0};
        const struct alt_entry *found =
            bsearch(&key, w->alts, w->nalts, sizeof *w->alts, compare_alt_entries);
        if (found) {
            const struct graph_node *n = &w->o.graph->nodes[found->node];
            *p = w->o.edge_probability[n->first_child + i];
            return *p >= 0;
        }
    }
    *p = grammar_alt_probability(alt, i);
    return true;
}

static uint64_t digits_step(uint64_t u)
{
    uint64_t limit = 1, step = 1;
    for (int d = 0; d < WEIGHT_DIGITS; d++)
        limit *= 10;
    while (u >= limit) {
        u /= 10;
        step *= 10;
    }
    return step;
}

/* The weights of an alternation in units, UNANNOTATED where there is none,
 * rounded to WEIGHT_DIGITS significant digits and then lowered where needed
 * so that they never add up to more than 100%.  NULL when none is annotated. */
static uint64_t *alt_units(const struct writer *w, const struct expr *alt)
{
    uint32_t n = alt->nchildren;
    uint64_t *units = xmalloc(((size_t)n + 1) * sizeof *units);
    uint64_t sum = 0;
    bool any = false;
    for (uint32_t i = 0; i < n; i++) {
        double p;
        if (!alt_probability(w, alt, i, &p)) {
            units[i] = UNANNOTATED;
            continue;
        }
        any = true;
        if (p > 1)
            p = 1;
        uint64_t u = (uint64_t)(p * (double)UNITS_PER_ONE + 0.5);
        uint64_t step = digits_step(u);
        u = (u + step / 2) / step * step;
        units[i] = u;
        sum += u;
    }
    if (!any) {
        free(units);
        return NULL;
    }
    /* Rounding up can push the sum past 100%: take one step off the largest
     * weight until it does not.  The largest has the largest step, so this
     * ends within n rounds. */
    while (sum > UNITS_PER_ONE) {
        uint32_t big = 0;
        for (uint32_t i = 1; i < n; i++)
            if (units[i] != UNANNOTATED && (units[big] == UNANNOTATED || units[i] > units[big]))
                big = i;
        uint64_t step = digits_step(units[big]);
        uint64_t cut = step < units[big] ? step : units[big];
        units[big] -= cut;
        sum -= cut;
    }
    return units;
}

static void add_units(struct strbuf *out, uint64_t u)
{
    strbuf_addf(out, "%llu", (unsigned long long)(u / UNITS_PER_PERCENT));
    uint64_t frac = u % UNITS_PER_PERCENT;
    if (frac) {
        char digits[8];
        int len = 6;
        for (int d = 5; d >= 0; d--) {
            digits[d] = (char)('0' + frac % 10);
            frac /= 10;
        }
        while (len > 0 && digits[len - 1] == '0')
            len--;
        strbuf_addch(out, '.');
        strbuf_add(out, digits, (size_t)len);
    }
    strbuf_addstr(out, "% ");
}

/* ---- expressions ----------------------------------------------------------- */

bool grammar_write_needs_parens(const struct expr *parent, const struct expr *child)
{
    switch (child->kind) {
    case EXPR_ALT: return true;
    case EXPR_CAT: return parent->kind != EXPR_ALT;
    case EXPR_QUANT: return parent->kind == EXPR_QUANT;
    default: return false;
    }
}

struct print_frame {
    const struct expr *e;
    uint32_t next;   /* the next child to print */
    bool parens;
    uint64_t *units; /* ALT: the weights to print, or NULL */
};

/* Print `root` (in parentheses when `parens`); an explicit stack, so nesting
 * costs heap, not C stack. */
static void print_expr(const struct writer *w, const struct expr *root, bool parens,
                       struct strbuf *out)
{
    struct print_frame *stack = NULL;
    size_t cap = 0, depth = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = (struct print_frame){root, 0, parens, NULL};
    if (parens)
        strbuf_addch(out, '(');
    while (depth) {
        struct print_frame *f = &stack[depth - 1];
        const struct expr *e = f->e;
        if (f->next == 0 && e->kind == EXPR_ALT)
            f->units = alt_units(w, e);
        if (f->next < e->nchildren) {
            uint32_t i = f->next++;
            const struct expr *child = e->children[i];
            if (e->kind == EXPR_ALT) {
                if (i)
                    strbuf_addstr(out, " | ");
                if (f->units && f->units[i] != UNANNOTATED)
                    add_units(out, f->units[i]);
            } else if (e->kind == EXPR_CAT && i) {
                strbuf_addch(out, ' ');
            }
            bool child_parens = grammar_write_needs_parens(e, child);
            if (child_parens)
                strbuf_addch(out, '(');
            stack = xgrow(stack, &cap, depth + 1, sizeof *stack);
            stack[depth++] = (struct print_frame){child, 0, child_parens, NULL};
            continue;
        }
        switch (e->kind) {
        case EXPR_LIT: grammar_lit_label(e->u.lit.text, e->u.lit.len, out); break;
        case EXPR_CLASS: strbuf_addstr(out, e->u.cls.source); break;
        case EXPR_REF: strbuf_addstr(out, e->u.ref.name); break;
        case EXPR_QUANT: grammar_quant_label(e, out); break;
        default: break;
        }
        if (f->parens)
            strbuf_addch(out, ')');
        free(f->units);
        depth--;
    }
    free(stack);
}

/* Characters (code points) of s[0..len). */
static size_t text_width(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            n++;
    return n;
}

static void print_rule(const struct writer *w, uint32_t rule, struct strbuf *out)
{
    const struct rule *r = &w->g->rules[rule];
    const struct expr *rhs = r->rhs;
    size_t head_start = out->len;
    strbuf_addf(out, "%s %s ", r->name, w->define);
    if (rhs->kind != EXPR_ALT) {
        print_expr(w, rhs, false, out);
        strbuf_addch(out, ';');
        return;
    }
    /* The alternatives one by one, to choose between one line and several. */
    size_t head_width = text_width(out->data + head_start, out->len - head_start);
    uint64_t *units = alt_units(w, rhs);
    struct strbuf alts = STRBUF_INIT;
    size_t *ends = xmalloc(((size_t)rhs->nchildren + 1) * sizeof *ends);
    size_t total = head_width + 1; /* the ';' */
    for (uint32_t i = 0; i < rhs->nchildren; i++) {
        size_t start = alts.len;
        if (units && units[i] != UNANNOTATED)
            add_units(&alts, units[i]);
        print_expr(w, rhs->children[i], grammar_write_needs_parens(rhs, rhs->children[i]), &alts);
        ends[i] = alts.len;
        total += text_width(alts.data + start, alts.len - start) + (i ? 3 : 0);
    }
    bool one_line = total <= w->o.width;
    size_t indent = head_width >= 2 ? head_width - 2 : 0;
    for (uint32_t i = 0; i < rhs->nchildren; i++) {
        size_t start = i ? ends[i - 1] : 0;
        if (i && one_line) {
            strbuf_addstr(out, " | ");
        } else if (i) {
            strbuf_addch(out, '\n');
            for (size_t s = 0; s < indent; s++)
                strbuf_addch(out, ' ');
            strbuf_addstr(out, "| ");
        }
        strbuf_add(out, alts.data + start, ends[i] - start);
    }
    strbuf_addch(out, ';');
    free(ends);
    strbuf_free(&alts);
    free(units);
}

void grammar_write_rule(const struct grammar *g, uint32_t rule,
                        const struct grammar_write_options *opts, struct strbuf *out)
{
    struct writer w;
    writer_init(&w, g, opts);
    print_rule(&w, rule, out);
    writer_free(&w);
}

void grammar_write_expr(const struct grammar *g, const struct expr *e, struct strbuf *out)
{
    struct writer w;
    writer_init(&w, g, NULL);
    print_expr(&w, e, false, out);
    writer_free(&w);
}

/* ---- the whole grammar ----------------------------------------------------- */

static bool has_alternation(const struct expr *rhs)
{
    const struct expr **stack = NULL;
    size_t cap = 0, depth = 0;
    bool found = false;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = rhs;
    while (depth && !found) {
        const struct expr *e = stack[--depth];
        found = e->kind == EXPR_ALT;
        stack = xgrow(stack, &cap, depth + e->nchildren, sizeof *stack);
        for (uint32_t c = 0; c < e->nchildren; c++)
            stack[depth++] = e->children[c];
    }
    free(stack);
    return found;
}

static bool needs_print(const struct writer *w, const struct rule *r)
{
    return !grammar_rule_has_source(r) || r->edited || w->o.reprint ||
           (w->o.probabilities && has_alternation(r->rhs));
}

static void ensure_line_start(struct strbuf *out)
{
    if (out->len && out->data[out->len - 1] != '\n')
        strbuf_addch(out, '\n');
}

static void add_notes(const struct writer *w, uint32_t rule, struct strbuf *out)
{
    if (!w->o.note)
        return;
    struct strbuf text = STRBUF_INIT;
    w->o.note(w->o.ctx, w->g, rule, &text);
    if (text.len) {
        ensure_line_start(out);
        const char *s = strbuf_str(&text), *end = s + text.len;
        while (s < end) {
            const char *nl = memchr(s, '\n', (size_t)(end - s));
            size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
            strbuf_addstr(out, GRAMMAR_WRITE_NOTE_PREFIX);
            if (len)
                strbuf_addch(out, ' ');
            strbuf_add(out, s, len);
            strbuf_addch(out, '\n');
            s += len + (nl ? 1 : 0);
        }
    }
    strbuf_free(&text);
}

/* The comment lines above a rule, s[0..len), without the note lines when
 * notes are being written.  Block comments are followed across lines, so a
 * "#:" inside one is left alone. */
static void add_leading(const struct writer *w, const char *s, size_t len, struct strbuf *out)
{
    if (!w->o.note) {
        strbuf_add(out, s, len);
        return;
    }
    bool in_block = false;
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t stop = nl ? (size_t)(nl - s) + 1 : len;
        size_t k = i;
        while (k < stop && (s[k] == ' ' || s[k] == '\t'))
            k++;
        bool note = !in_block && stop - k >= 2 && strncmp(s + k, GRAMMAR_WRITE_NOTE_PREFIX, 2) == 0;
        /* Follow block comments through the line. */
        bool line_comment = false;
        for (size_t j = i; j < stop; j++) {
            if (in_block) {
                if (s[j] == '*' && j + 1 < stop && s[j + 1] == '/') {
                    in_block = false;
                    j++;
                }
            } else if (!line_comment) {
                if (s[j] == '#' || (s[j] == '/' && j + 1 < stop && s[j + 1] == '/'))
                    line_comment = true;
                else if (s[j] == '/' && j + 1 < stop && s[j + 1] == '*') {
                    in_block = true;
                    j++;
                }
            }
        }
        if (!note)
            strbuf_add(out, s + i, stop - i);
        i = stop;
    }
}

static void write_rule(const struct writer *w, uint32_t rule, struct strbuf *out)
{
    const struct grammar *g = w->g;
    const struct rule *r = &g->rules[rule];
    if (!grammar_rule_has_source(r) || !g->source) {
        ensure_line_start(out);
        add_notes(w, rule, out);
        print_rule(w, rule, out);
        strbuf_addch(out, '\n');
        return;
    }
    const char *src = g->source;
    size_t gap = r->src_gap > g->source_head ? r->src_gap : g->source_head;
    if (gap < r->src_begin)
        strbuf_add(out, src + gap, r->src_begin - gap);
    /* The comments above, then the notes, then the indentation of the name. */
    size_t comments_end = r->src_begin;
    for (size_t i = r->src_begin; i < r->src_name; i++)
        if (src[i] == '\n')
            comments_end = i + 1;
    add_leading(w, src + r->src_begin, comments_end - r->src_begin, out);
    add_notes(w, rule, out);
    strbuf_add(out, src + comments_end, r->src_name - comments_end);
    if (needs_print(w, r))
        print_rule(w, rule, out);
    else
        strbuf_add(out, src + r->src_name, r->src_stop - r->src_name);
    strbuf_add(out, src + r->src_stop, r->src_end - r->src_stop);
}

void grammar_write(const struct grammar *g, const struct grammar_write_options *opts,
                   struct strbuf *out)
{
    struct writer w;
    writer_init(&w, g, opts);
    if (g->source && g->source_head)
        strbuf_add(out, g->source, g->source_head);
    for (uint32_t r = 0; r < g->nrules; r++)
        write_rule(&w, r, out);
    if (g->source && g->source_tail < g->source_len)
        strbuf_add(out, g->source + g->source_tail, g->source_len - g->source_tail);
    writer_free(&w);
}

/* ---- files ----------------------------------------------------------------- */

static bool write_all(int fd, const char *data, size_t len)
{
    while (len) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += n;
        len -= (size_t)n;
    }
    return true;
}

/* Write into a file that is not a regular file (a device, a pipe) in place:
 * renaming over it would replace it. */
static bool write_in_place(const char *path, const void *data, size_t len,
                           struct diag_list *diags)
{
    int fd = open(path, O_WRONLY);
    bool ok = fd >= 0 && write_all(fd, data, len);
    int err = errno;
    if (fd >= 0 && close(fd) != 0 && ok)
        ok = false, err = errno;
    if (!ok)
        diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot write: %s", strerror(err));
    return ok;
}

static bool write_regular_atomic(const char *path, const void *data, size_t len,
                                 struct diag_list *diags);

bool write_file_atomic(const char *path, const void *data, size_t len, struct diag_list *diags)
{
    struct stat st, lst;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot write: it is a directory");
            return false;
        }
        if (!S_ISREG(st.st_mode))
            return write_in_place(path, data, len, diags);
        if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
            /* Replace the file the link points to, and keep the link. */
            char *target = realpath(path, NULL);
            if (target) {
                bool ok = write_regular_atomic(target, data, len, diags);
                free(target);
                return ok;
            }
        }
    }
    return write_regular_atomic(path, data, len, diags);
}

/* The temporary files a write of `base` in `dir` left when its process was
 * killed (".BASE.PID-N.tmp", PID no longer running) are removed at the next
 * write of the same file; those of a running process are left alone. */
static void remove_stale_temporaries(const char *dir, const char *base)
{
    DIR *d = opendir(*dir ? dir : ".");
    if (!d)
        return;
    size_t blen = strlen(base);
    struct strbuf name = STRBUF_INIT;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        if (n[0] != '.' || strncmp(n + 1, base, blen) != 0 || n[1 + blen] != '.')
            continue;
        const char *p = n + 2 + blen;
        char *end;
        if (*p < '1' || *p > '9')
            continue;
        errno = 0;
        long pid = strtol(p, &end, 10);
        if (errno || *end != '-' || pid <= 0 || pid == (long)getpid() || end[1] < '0' ||
            end[1] > '9')
            continue;
        p = end + 1;
        while (*p >= '0' && *p <= '9')
            p++;
        if (strcmp(p, ".tmp") != 0)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* running (or not ours to ask): maybe writing it now */
        strbuf_reset(&name);
        strbuf_addf(&name, "%s%s", dir, n);
        (void)unlink(name.data);
    }
    closedir(d);
    strbuf_free(&name);
}

static bool write_regular_atomic(const char *path, const void *data, size_t len,
                                 struct diag_list *diags)
{
    const char *slash = strrchr(path, '/');
    struct strbuf dir = STRBUF_INIT, tmp = STRBUF_INIT;
    if (slash)
        strbuf_add(&dir, path, (size_t)(slash - path) + 1);
    const char *base = slash ? slash + 1 : path;
    if (!*base) {
        diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot write: it names a directory");
        strbuf_free(&dir);
        return false;
    }
    int fd = -1;
    for (unsigned attempt = 0; fd < 0; attempt++) {
        strbuf_reset(&tmp);
        strbuf_addf(&tmp, "%s.%s.%ld-%u.tmp", strbuf_str(&dir), base, (long)getpid(), attempt);
        fd = open(tmp.data, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && (errno != EEXIST || attempt >= 1000))
            break;
    }
    bool ok = fd >= 0;
    int err = errno;
    if (ok) {
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            (void)fchmod(fd, st.st_mode & 07777);
        ok = write_all(fd, data, len) && fsync(fd) == 0;
        err = errno;
        if (close(fd) != 0 && ok) {
            ok = false;
            err = errno;
        }
        if (ok && rename(tmp.data, path) != 0) {
            ok = false;
            err = errno;
        }
        if (!ok)
            unlink(tmp.data);
    }
    if (ok) {
        remove_stale_temporaries(strbuf_str(&dir), base);
        /* Make the rename durable; a failure here loses nothing already written. */
        int dfd = open(dir.len ? dir.data : ".", O_RDONLY);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
    } else {
        diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot write: %s", strerror(err));
    }
    strbuf_free(&tmp);
    strbuf_free(&dir);
    return ok;
}

bool grammar_write_file(const struct grammar *g, const struct grammar_write_options *opts,
                        const char *path, struct diag_list *diags)
{
    struct strbuf text = STRBUF_INIT;
    grammar_write(g, opts, &text);
    bool ok = write_file_atomic(path, strbuf_str(&text), text.len, diags);
    strbuf_free(&text);
    return ok;
}
