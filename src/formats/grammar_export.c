/* grammar_export: kpath grammars written as ANTLR 4, fuzzingbook, TRIBBLE and Fandango. */
#include "formats/grammar_export.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/grammar_build.h"
#include "formats/grammar_write.h"
#include "formats/import.h"
#include "base/json.h"
#include "base/utf8.h"
#include "base/xalloc.h"

/* uthash allocates through our wrapper, which aborts instead of failing. */
#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#define uthash_fatal(msg) abort()
#include <uthash.h>

/* ---- shared ------------------------------------------------------------- */

/* The names an export has given out, found in O(1) (a uthash index), so
 * that naming n rules costs O(n) and not O(n^2).  `next` is the first
 * suffix still worth trying when the name is a base taken again: the ones
 * below it were taken, and a name once given stays taken. */
struct name_entry {
    const char *name; /* the caller's string, alive as long as the set */
    unsigned next;
    UT_hash_handle hh;
};

struct name_set {
    struct name_entry *index;
};

static struct name_entry *names_find(struct name_set *s, const char *name)
{
    struct name_entry *found = NULL;
    HASH_FIND(hh, s->index, name, strlen(name), found);
    return found;
}

static struct name_entry *names_add(struct name_set *s, const char *name)
{
    struct name_entry *entry = xcalloc(1, sizeof *entry);
    entry->name = name;
    HASH_ADD_KEYPTR(hh, s->index, entry->name, strlen(entry->name), entry);
    return entry;
}

static void names_free(struct name_set *s)
{
    struct name_entry *entry, *tmp;
    HASH_ITER(hh, s->index, entry, tmp) {
        HASH_DEL(s->index, entry);
        free(entry);
    }
}

/* The rule an ANTLR import made for skip tokens: (A | B ...)* over rules. */
static uint32_t find_skip_rule(const struct grammar *g)
{
    uint32_t r = grammar_find_rule(g, ANTLR_SKIP_RULE);
    if (r == RULE_NONE)
        return RULE_NONE;
    const struct expr *e = g->rules[r].rhs;
    if (e->kind != EXPR_QUANT || e->u.quant.min != 0 || e->u.quant.max != QUANT_INFINITE)
        return RULE_NONE;
    e = e->children[0];
    if (e->kind == EXPR_REF)
        return r;
    if (e->kind != EXPR_ALT)
        return RULE_NONE;
    for (uint32_t k = 0; k < e->nchildren; k++)
        if (e->children[k]->kind != EXPR_REF)
            return RULE_NONE;
    return r;
}

static bool is_ref_to(const struct expr *e, uint32_t rule)
{
    return rule != RULE_NONE && e->kind == EXPR_REF && e->u.ref.target == rule;
}

/* Calls visit(ctx, e) on every expr of the rule, without recursion. */
static void walk_rule(const struct grammar *g, uint32_t rule,
                      void (*visit)(void *ctx, const struct expr *e), void *ctx)
{
    struct expr_list stack = {0};
    expr_list_push(&stack, g->rules[rule].rhs);
    while (stack.len) {
        struct expr *e = stack.items[--stack.len];
        visit(ctx, e);
        for (uint32_t k = 0; k < e->nchildren; k++)
            expr_list_push(&stack, e->children[k]);
    }
    expr_list_free(&stack);
}

/* ANTLR and fuzzingbook have no counted repetition, so x{n,m} is written out
 * copy by copy: at most this many copies of one item (ANTLR: m, or n and a
 * last x+; fuzzingbook: one expansion per count, n + ... + m copies), and
 * an ANTLR text of at most EXPORT_MAX_BYTES however they nest.  Beyond, the
 * format cannot hold the grammar in reasonable room: an error, not a file of
 * gigabytes ("a"{4294967294} took all memory). */
#define EXPORT_MAX_COPIES 100000
#define EXPORT_MAX_BYTES ((size_t)256 << 20)

static void too_many_copies(struct diag_list *diags, const struct grammar *g,
                            const struct expr *quant, uint64_t copies, const char *format)
{
    struct strbuf label = STRBUF_INIT;
    grammar_quant_label(quant, &label);
    diag_add(diags, DIAG_ERROR, grammar_rule_file(g, quant->rule), quant->pos.line,
             quant->pos.col,
             "%s has no counted repetition, and %s in rule '%s' written out is %llu copies "
             "of its item: kpath writes at most %d", format, strbuf_str(&label),
             g->rules[quant->rule].name, (unsigned long long)copies, EXPORT_MAX_COPIES);
    strbuf_free(&label);
}

/* A warning an export gives once, at the first place it applies: a format
 * that cannot say something says so once, not at every rule. */
static void warn_once(struct diag_list *diags, const struct grammar *g, uint32_t rule,
                      struct src_pos pos, bool *warned, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void warn_once(struct diag_list *diags, const struct grammar *g, uint32_t rule,
                      struct src_pos pos, bool *warned, const char *fmt, ...)
{
    if (*warned)
        return;
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(diags, DIAG_WARNING, grammar_rule_file(g, rule), pos.line, pos.col, fmt, ap);
    va_end(ap);
    *warned = true;
}

/* The one warning a format without weights gives, at the first weighted
 * alternation (`what` says which format: "ANTLR has no probabilities"). */
static void warn_weights_left_out(struct diag_list *diags, const struct grammar *g,
                                  uint32_t rule, struct src_pos pos, const char *what,
                                  bool *warned)
{
    warn_once(diags, g, rule, pos, warned, "%s: the weights of rule '%s' and any other are left out",
              what, g->rules[rule].name);
}

/* ---- infix writing -------------------------------------------------------- */

/* What a writer does with a quantifier: write it after its item (?, *, +,
 * {n,m} by node_done), write it out copy by copy (for a format without
 * counted repetition: n copies, then m-n nested optional ones, or a last
 * x+ or x* when unbounded), or stop the whole walk (too large: the writer
 * has said why). */
enum infix_quant { INFIX_QUANT_LABEL, INFIX_QUANT_COPIES, INFIX_STOP };

/* How x{n,m} is written out copy by copy: m copies, or n (at least one)
 * followed by + or *. */
static uint32_t written_out_copies(const struct expr *q)
{
    uint32_t min = q->u.quant.min, max = q->u.quant.max;
    return max == QUANT_INFINITE ? (min ? min : 1) : max;
}

/* One writer of infix notation, for formats that differ only at the nodes:
 * `top_alt_sep` goes between the alternatives of the rule's own alternation
 * (" | " elsewhere); between_alternatives(w, alt, i) (optional) is called
 * after alternative i but the last; node_done(w, e) writes a leaf, or ends a
 * node whose children are written (not a repetition written out copy by
 * copy, which infix_print ends); left_out(w, item) (optional) says an item
 * of a sequence is not written at all; quant(w, q) (optional: every
 * quantifier a label) chooses as enum infix_quant says. */
struct infix_syntax {
    const char *top_alt_sep;
    void (*between_alternatives)(void *w, const struct expr *alt, uint32_t i);
    void (*node_done)(void *w, const struct expr *e);
    bool (*left_out)(void *w, const struct expr *item);
    enum infix_quant (*quant)(void *w, const struct expr *q);
};

struct infix_frame {
    const struct expr *e;
    uint32_t next;    /* children (or copies) begun */
    uint32_t printed; /* items written (a left-out one is not) */
    bool parens, copies;
};

/* Pushes `e` (after its '(' when `parens`); false when the writer stops. */
static bool infix_push(struct infix_frame **stack, size_t *cap, size_t *depth,
                       const struct expr *e, bool parens, const struct infix_syntax *syn,
                       void *w, struct strbuf *out)
{
    if (parens)
        strbuf_addch(out, '(');
    enum infix_quant how = e->kind == EXPR_QUANT && syn->quant ? syn->quant(w, e)
                                                               : INFIX_QUANT_LABEL;
    if (how == INFIX_STOP)
        return false;
    *stack = xgrow(*stack, cap, *depth + 1, sizeof **stack);
    (*stack)[(*depth)++] = (struct infix_frame){e, 0, 0, parens, how == INFIX_QUANT_COPIES};
    return true;
}

/* Prints `root` in infix notation with an explicit stack, so nesting costs
 * heap, not C stack.  False when the writer stopped it (the output is then
 * unfinished). */
static bool infix_print(const struct expr *root, const struct infix_syntax *syn, void *w,
                        struct strbuf *out)
{
    struct infix_frame *stack = NULL;
    size_t cap = 0, depth = 0;
    bool ok = infix_push(&stack, &cap, &depth, root, false, syn, w, out);
    while (ok && depth) {
        struct infix_frame *f = &stack[depth - 1];
        const struct expr *e = f->e;
        const struct expr *child = NULL;
        if (f->copies) {
            uint32_t min = e->u.quant.min, max = e->u.quant.max;
            if (f->next < written_out_copies(e)) {
                uint32_t i = f->next++;
                if (i)
                    strbuf_addch(out, ' ');
                if (max != QUANT_INFINITE && i >= min)
                    strbuf_addch(out, '(');
                child = e->children[0];
            } else {
                if (max == QUANT_INFINITE)
                    strbuf_addstr(out, min ? "+" : "*");
                for (uint32_t k = min; max != QUANT_INFINITE && k < max; k++)
                    strbuf_addstr(out, ")?");
            }
        } else if (f->next < e->nchildren) {
            uint32_t i = f->next++;
            child = e->children[i];
            if (e->kind == EXPR_CAT && syn->left_out && syn->left_out(w, child))
                continue;
            if (e->kind == EXPR_ALT && i) {
                if (syn->between_alternatives)
                    syn->between_alternatives(w, e, i - 1);
                strbuf_addstr(out, e == root ? syn->top_alt_sep : " | ");
            } else if (e->kind == EXPR_CAT && f->printed) {
                strbuf_addch(out, ' ');
            }
            f->printed++;
        } else {
            syn->node_done(w, e);
        }
        if (child) {
            ok = infix_push(&stack, &cap, &depth, child, grammar_write_needs_parens(e, child),
                            syn, w, out);
            continue;
        }
        if (f->parens)
            strbuf_addch(out, ')');
        depth--;
    }
    free(stack);
    return ok;
}

/* ---- ANTLR 4 ------------------------------------------------------------ */

struct g4_writer {
    const struct grammar *g;
    struct diag_list *diags;
    uint32_t skip_rule, start;
    bool *lexer, *skip_token, *named_by_parser;
    char **names;
    bool warned_weights, warned_counted, warned_empty;
    bool failed; /* a repetition too large to write out */
    struct strbuf *out;
};

static void add_g4_char(struct strbuf *out, uint32_t cp, bool in_set)
{
    switch (cp) {
    case '\n': strbuf_addstr(out, "\\n"); return;
    case '\r': strbuf_addstr(out, "\\r"); return;
    case '\t': strbuf_addstr(out, "\\t"); return;
    case '\b': strbuf_addstr(out, "\\b"); return;
    case '\f': strbuf_addstr(out, "\\f"); return;
    case '\\': strbuf_addstr(out, "\\\\"); return;
    default: break;
    }
    if ((!in_set && cp == '\'') || (in_set && (cp == ']' || cp == '-'))) {
        strbuf_addch(out, '\\');
        strbuf_addch(out, (char)cp);
    } else if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) {
        strbuf_addf(out, "\\u%04X", (unsigned)cp);
    } else if (cp > 0xFFFF) {
        strbuf_addf(out, "\\u{%X}", (unsigned)cp);
    } else if (cp >= 0xD800 && cp <= 0xDFFF) {
        strbuf_addf(out, "\\u%04X", (unsigned)cp);
    } else {
        strbuf_add_utf8(out, cp);
    }
}

static void add_g4_literal(struct strbuf *out, const char *s, size_t len)
{
    strbuf_addch(out, '\'');
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = utf8_decode(s + i, len - i, &cp);
        if (!n) {
            cp = 0xFFFD;
            n = 1;
        }
        add_g4_char(out, cp, false);
        i += n;
    }
    strbuf_addch(out, '\'');
}

/* How a format writes a class: `any` for the class of every character (NULL:
 * as a range), then `open` (or `open_negated`), each range as its first
 * character, a '-' (left out between two neighbours when `neighbours_bare`)
 * and its last, each character by add_char, and `close`.  One writer for
 * ANTLR's sets, TRIBBLE's and Fandango's regexes. */
struct class_syntax {
    const char *any, *open, *open_negated, *close;
    void (*add_char)(struct strbuf *out, uint32_t cp);
    bool neighbours_bare;
};

static void add_class(struct strbuf *out, const struct expr *cls, const struct class_syntax *syn)
{
    static const struct class_range all = {0, UTF8_MAX_CODEPOINT};
    const struct class_range *r = cls->u.cls.ranges;
    uint32_t n = cls->u.cls.nranges;
    bool negated = cls->u.cls.negated;
    if (negated && n == 0) {
        /* [^] is written nowhere: every character is the full range. */
        r = &all;
        n = 1;
        negated = false;
    }
    if (syn->any && !negated && n == 1 && r[0].lo == 0 && r[0].hi == UTF8_MAX_CODEPOINT) {
        strbuf_addstr(out, syn->any);
        return;
    }
    strbuf_addstr(out, negated ? syn->open_negated : syn->open);
    for (uint32_t k = 0; k < n; k++) {
        syn->add_char(out, r[k].lo);
        if (r[k].hi != r[k].lo) {
            if (!syn->neighbours_bare || r[k].hi != r[k].lo + 1)
                strbuf_addch(out, '-');
            syn->add_char(out, r[k].hi);
        }
    }
    strbuf_addstr(out, syn->close);
}

static void add_g4_set_char(struct strbuf *out, uint32_t cp)
{
    add_g4_char(out, cp, true);
}

static const struct class_syntax g4_set = {".", "[", "~[", "]", add_g4_set_char, false};

static bool is_simple_quant(const struct expr *q)
{
    uint32_t a = q->u.quant.min, b = q->u.quant.max;
    return (a == 0 && b == 1) || (a == 0 && b == QUANT_INFINITE) || (a == 1 && b == QUANT_INFINITE);
}

/* The writer ANTLR needs from infix_print: a counted repetition it
 * cannot say is written out copy by copy, up to the limits above. */
static enum infix_quant g4_quant(void *writer, const struct expr *q)
{
    struct g4_writer *w = writer;
    if (is_simple_quant(q))
        return INFIX_QUANT_LABEL;
    uint32_t copies = written_out_copies(q);
    if (copies > EXPORT_MAX_COPIES || w->out->len > EXPORT_MAX_BYTES) {
        too_many_copies(w->diags, w->g, q, copies, "ANTLR");
        w->failed = true;
        return INFIX_STOP;
    }
    warn_once(w->diags, w->g, q->rule, q->pos, &w->warned_counted,
              "ANTLR has no counted repetition: rule '%s' writes it out, which changes its graph",
              w->g->rules[q->rule].name);
    return INFIX_QUANT_COPIES;
}

/* ANTLR leaves the _skip an import put between tokens out: it skips them
 * itself.  An empty literal in a sequence matches nothing, and ANTLR (and
 * kpath's own .g4 reader) refuse '' : it is left out too. */
static bool g4_left_out(void *writer, const struct expr *item)
{
    struct g4_writer *w = writer;
    if (is_ref_to(item, w->skip_rule))
        return true;
    if (item->kind != EXPR_LIT || item->u.lit.len)
        return false;
    warn_once(w->diags, w->g, item->rule, item->pos, &w->warned_empty,
              "ANTLR has no empty literal: rule '%s' leaves \"\" out, which changes its graph",
              w->g->rules[item->rule].name);
    return true;
}

static void g4_node(void *writer, const struct expr *e)
{
    struct g4_writer *w = writer;
    struct strbuf *out = w->out;
    switch (e->kind) {
    case EXPR_LIT:
        if (e->u.lit.len)
            add_g4_literal(out, e->u.lit.text, e->u.lit.len);
        else if (e->parent && e->parent->kind == EXPR_QUANT)
            strbuf_addstr(out, "''"); /* ("")*: no ANTLR for it; the reader says so */
        break;
    case EXPR_CLASS: add_class(out, e, &g4_set); break;
    case EXPR_REF: strbuf_addstr(out, w->names[e->u.ref.target]); break;
    case EXPR_QUANT: grammar_quant_label(e, out); break; /* ?, * or + */
    case EXPR_ALT:
        /* A rule's own alternation is named where the rule is. */
        if (e->u.alt.weights)
            warn_weights_left_out(w->diags, w->g, e->rule,
                                  e->parent ? e->pos : w->g->rules[e->rule].pos,
                                  "ANTLR has no probabilities", &w->warned_weights);
        break;
    default: break;
    }
}

static const struct infix_syntax g4_syntax = {"\n    | ", NULL, g4_node, g4_left_out, g4_quant};

struct ref_scan {
    bool has_class;
    uint32_t *refs;
    size_t nrefs, cap;
};

static void scan_visit(void *ctx, const struct expr *e)
{
    struct ref_scan *s = ctx;
    if (e->kind == EXPR_CLASS)
        s->has_class = true;
    if (e->kind == EXPR_REF && e->u.ref.target != RULE_NONE) {
        s->refs = xgrow(s->refs, &s->cap, s->nrefs + 1, sizeof *s->refs);
        s->refs[s->nrefs++] = e->u.ref.target;
    }
}

static const char *const antlr_reserved[] = {
    "import", "fragment", "lexer", "parser", "grammar", "returns", "locals", "throws",
    "catch", "finally", "mode", "options", "tokens", "channels", "EOF", NULL,
};

/* A valid ANTLR name for `name`: letters, digits and '_', starting with a
 * capital for a lexer rule and a small letter for a parser rule. */
/* base_name (owned, taken) made unique among the names in `taken`: itself,
 * or with the first free suffix _2, _3, ... (owned by the caller, who keeps
 * it alive as long as `taken`, where it is added). */
static char *unique_name(char *base_name, struct name_set *taken)
{
    struct name_entry *base = names_find(taken, base_name);
    if (!base) {
        names_add(taken, base_name);
        return base_name;
    }
    struct strbuf sb = STRBUF_INIT;
    for (unsigned suffix = base->next ? base->next : 2;; suffix++) {
        strbuf_reset(&sb);
        strbuf_addf(&sb, "%s_%u", base_name, suffix);
        if (!names_find(taken, strbuf_str(&sb))) {
            base->next = suffix + 1;
            break;
        }
    }
    free(base_name);
    char *name = strbuf_detach(&sb, NULL);
    names_add(taken, name);
    return name;
}

static char *g4_name(const char *name, bool lexer)
{
    struct strbuf sb = STRBUF_INIT;
    for (const char *p = name; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '<' || c == '>')
            continue;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        strbuf_addch(&sb, ok ? (char)c : '_');
    }
    char *s = strbuf_detach(&sb, NULL);
    if (!s || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))) {
        struct strbuf p = STRBUF_INIT;
        strbuf_addf(&p, "%c%s", lexer ? 'R' : 'r', s ? s : "");
        free(s);
        s = strbuf_detach(&p, NULL);
    }
    if (lexer && s[0] >= 'a' && s[0] <= 'z')
        s[0] = (char)(s[0] - 'a' + 'A');
    if (!lexer && s[0] >= 'A' && s[0] <= 'Z')
        s[0] = (char)(s[0] - 'A' + 'a');
    for (int k = 0; antlr_reserved[k]; k++) {
        if (strcmp(s, antlr_reserved[k]) == 0) {
            size_t n = strlen(s);
            s = xrealloc(s, n + 2);
            s[n] = '_';
            s[n + 1] = '\0';
        }
    }
    return s;
}

static bool export_g4(const struct grammar *g, struct strbuf *out, struct diag_list *diags)
{
    uint32_t n = g->nrules;
    struct g4_writer w = {.g = g, .diags = diags, .skip_rule = find_skip_rule(g),
                          .start = g->start, .out = out};
    /* The wrapper an import adds around a start rule that is referenced. */
    const struct expr *sr = g->rules[g->start].rhs;
    bool wrapper = w.skip_rule != RULE_NONE && grammar_user_start(g) != g->start &&
                   is_ref_to(sr->children[0], w.skip_rule);
    if (wrapper)
        w.start = grammar_user_start(g);
    /* An import's skip tokens of a lexer mode (_skip_M): a combined grammar
     * has no modes, so they can only be a parser rule, where the default
     * mode's skip tokens are skipped too. */
    bool warned_modes = false;
    for (uint32_t r = 0; r < n; r++) {
        if (r == w.skip_rule ||
            strncmp(g->rules[r].name, ANTLR_SKIP_RULE "_", sizeof ANTLR_SKIP_RULE) != 0)
            continue;
        /* Said at the mode's first skip token: the rule itself is the import's. */
        const struct expr *e = g->rules[r].rhs;
        while (e->nchildren && e->kind != EXPR_REF)
            e = e->children[0];
        uint32_t at = e->kind == EXPR_REF ? e->u.ref.target : r;
        warn_once(diags, g, at, g->rules[at].pos, &warned_modes,
                  "ANTLR has no lexer modes in a combined grammar: rule '%s' (the skip "
                  "tokens of a mode) is written as a parser rule, where the other skip "
                  "tokens are skipped too, which changes its graph",
                  g->rules[r].name);
    }
    w.lexer = xcalloc(n, sizeof *w.lexer);
    w.skip_token = xcalloc(n, sizeof *w.skip_token);
    w.named_by_parser = xcalloc(n, sizeof *w.named_by_parser);
    w.names = xcalloc(n, sizeof *w.names);
    /* References of each rule, and whether it holds a class. */
    struct ref_scan *scan = xcalloc(n, sizeof *scan);
    for (uint32_t r = 0; r < n; r++)
        walk_rule(g, r, scan_visit, &scan[r]);
    if (w.skip_rule != RULE_NONE)
        for (size_t k = 0; k < scan[w.skip_rule].nrefs; k++)
            w.skip_token[scan[w.skip_rule].refs[k]] = true;
    /* Lexer rules: those with a class or a capital name, as far as every rule
     * they use can be a lexer rule too (a greatest fixpoint). */
    bool *candidate = xcalloc(n, sizeof *candidate);
    for (uint32_t r = 0; r < n; r++) {
        const char *name = g->rules[r].name + (g->rules[r].name[0] == '<');
        candidate[r] = scan[r].has_class || w.skip_token[r] || (name[0] >= 'A' && name[0] <= 'Z');
    }
    /* Rules with classes must be lexer rules, and so must what they use. */
    uint32_t *queue = xmalloc(((size_t)n + 1) * sizeof *queue);
    size_t head = 0, tail = 0;
    for (uint32_t r = 0; r < n; r++)
        if (scan[r].has_class || w.skip_token[r]) {
            w.lexer[r] = true;
            queue[tail++] = r;
        }
    while (head < tail) {
        uint32_t r = queue[head++];
        for (size_t k = 0; k < scan[r].nrefs; k++) {
            uint32_t t = scan[r].refs[k];
            if (!w.lexer[t]) {
                w.lexer[t] = true;
                queue[tail++] = t;
            }
        }
    }
    /* A candidate that uses a rule that can be no lexer rule can be none
     * either: from each such rule back to the rules that use it, each rule
     * and each reference once (a work list over the reverse references). */
    size_t *users_at = xcalloc((size_t)n + 1, sizeof *users_at);
    for (uint32_t r = 0; r < n; r++)
        for (size_t k = 0; k < scan[r].nrefs; k++)
            users_at[scan[r].refs[k] + 1]++;
    for (uint32_t r = 0; r < n; r++)
        users_at[r + 1] += users_at[r];
    uint32_t *users = xmalloc((users_at[n] + 1) * sizeof *users);
    size_t *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, users_at, ((size_t)n + 1) * sizeof *fill);
    for (uint32_t r = 0; r < n; r++)
        for (size_t k = 0; k < scan[r].nrefs; k++)
            users[fill[scan[r].refs[k]]++] = r;
    free(fill);
    head = tail = 0;
    for (uint32_t r = 0; r < n; r++)
        if (!candidate[r] && !w.lexer[r])
            queue[tail++] = r;
    while (head < tail) {
        uint32_t t = queue[head++];
        for (size_t k = users_at[t]; k < users_at[t + 1]; k++) {
            uint32_t r = users[k];
            if (candidate[r] && !w.lexer[r]) {
                candidate[r] = false;
                queue[tail++] = r;
            }
        }
    }
    free(users);
    free(users_at);
    for (uint32_t r = 0; r < n; r++)
        if (candidate[r])
            w.lexer[r] = true;
    if (w.skip_rule != RULE_NONE)
        w.lexer[w.skip_rule] = false;
    /* A lexer start rule: then every rule is one (a lexer grammar). */
    bool lexer_grammar = w.lexer[w.start];
    for (uint32_t r = 0; lexer_grammar && r < n; r++)
        w.lexer[r] = true;
    for (uint32_t r = 0; r < n; r++) {
        if (w.lexer[r])
            continue;
        for (size_t k = 0; k < scan[r].nrefs; k++)
            w.named_by_parser[scan[r].refs[k]] = true;
    }
    w.named_by_parser[w.start] = true;
    /* Names, unique. */
    struct name_set taken = {0};
    for (uint32_t r = 0; r < n; r++)
        w.names[r] = unique_name(g4_name(g->rules[r].name, w.lexer[r]), &taken);
    names_free(&taken);
    /* The header names the grammar after its file. */
    const char *base = strrchr(g->file, '/');
    base = base ? base + 1 : g->file;
    char *gname = g4_name(base, true);
    char *dot = strchr(gname, '_');
    if (dot && strlen(dot) <= 6 && dot != gname)
        *dot = '\0'; /* "JSON_g4" -> "JSON" */
    strbuf_addf(out, "%sgrammar %s;\n", lexer_grammar ? "lexer " : "", gname);
    free(gname);
    /* Parser rules (the start rule first), then lexer rules. */
    for (int pass = 0; pass < 2; pass++) {
        bool want_lexer = pass == 1;
        /* Nothing more once a repetition is too large: the export has failed. */
        for (uint32_t k = 0; k <= n && !w.failed; k++) {
            uint32_t r = k == 0 ? w.start : k - 1;
            if (k > 0 && r == w.start)
                continue;
            if (w.lexer[r] != want_lexer || r == w.skip_rule || (wrapper && r == g->start))
                continue;
            strbuf_addch(out, '\n');
            if (want_lexer && !w.named_by_parser[r] && !w.skip_token[r])
                strbuf_addstr(out, "fragment ");
            strbuf_addf(out, "%s\n    : ", w.names[r]);
            infix_print(g->rules[r].rhs, &g4_syntax, &w, out);
            if (w.skip_token[r])
                strbuf_addstr(out, " -> skip");
            strbuf_addstr(out, "\n    ;\n");
        }
    }
    for (uint32_t r = 0; r < n; r++) {
        free(w.names[r]);
        free(scan[r].refs);
    }
    free(scan);
    free(candidate);
    free(queue);
    free(w.names);
    free(w.lexer);
    free(w.skip_token);
    free(w.named_by_parser);
    return !w.failed;
}

/* ---- fuzzingbook -------------------------------------------------------- */

#define FB_CLASS_MAX 256 /* members a class may have to be listed */

struct fb_writer {
    const struct grammar *g;
    struct diag_list *diags;
    char **names;                /* per rule: "<name>" */
    const struct expr **helpers; /* exprs that became helper rules */
    char **helper_names;
    size_t nhelpers, helpers_cap, helper_names_cap;
    bool failed;
    struct name_set taken; /* the rules' names and the helpers' */
    unsigned *next_helper; /* per rule: the first k of "<name-k>" worth trying */
};

static const char *fb_helper(struct fb_writer *w, const struct expr *e)
{
    const char *base = w->names[e->rule];
    struct strbuf sb = STRBUF_INIT;
    for (unsigned k = w->next_helper[e->rule];; k++) {
        strbuf_reset(&sb);
        strbuf_addf(&sb, "%.*s-%u>", (int)strlen(base) - 1, base, k);
        if (!names_find(&w->taken, strbuf_str(&sb))) {
            w->next_helper[e->rule] = k + 1; /* the ones below are taken */
            break;
        }
    }
    w->helpers = xgrow(w->helpers, &w->helpers_cap, w->nhelpers + 1, sizeof *w->helpers);
    w->helper_names =
        xgrow(w->helper_names, &w->helper_names_cap, w->nhelpers + 1, sizeof *w->helper_names);
    w->helpers[w->nhelpers] = e;
    w->helper_names[w->nhelpers] = strbuf_detach(&sb, NULL);
    names_add(&w->taken, w->helper_names[w->nhelpers]);
    return w->helper_names[w->nhelpers++];
}

/* A group (x|y)q says the same as a helper when its inside has no
 * parentheses, quantifiers or classes: only literals and references. */
static bool fb_flat(const struct expr *e)
{
    if (e->kind == EXPR_LIT) {
        for (size_t i = 0; i < e->u.lit.len; i++)
            if (strchr("()|", e->u.lit.text[i]))
                return false;
        return e->u.lit.len > 0;
    }
    return e->kind == EXPR_REF;
}

static bool fb_flat_seq(const struct expr *e)
{
    if (e->kind != EXPR_CAT)
        return fb_flat(e);
    for (uint32_t k = 0; k < e->nchildren; k++)
        if (!fb_flat(e->children[k]))
            return false;
    return true;
}

static void fb_item(struct fb_writer *w, const struct expr *e, struct strbuf *out);

static void fb_seq(struct fb_writer *w, const struct expr *e, struct strbuf *out)
{
    if (e->kind == EXPR_CAT)
        for (uint32_t k = 0; k < e->nchildren; k++)
            fb_item(w, e->children[k], out);
    else
        fb_item(w, e, out);
}

/* One item of an expansion; anything that needs more than one level goes to
 * a helper rule (so the recursion here is bounded: fb_seq -> fb_item ->
 * fb_seq on flat items only). */
static void fb_item(struct fb_writer *w, const struct expr *e, struct strbuf *out)
{
    switch (e->kind) {
    case EXPR_LIT: strbuf_add(out, e->u.lit.text, e->u.lit.len); return;
    case EXPR_REF: strbuf_addstr(out, w->names[e->u.ref.target]); return;
    case EXPR_QUANT:
        if (is_simple_quant(e)) {
            const struct expr *c = e->children[0];
            if (c->kind == EXPR_REF) {
                strbuf_addstr(out, w->names[c->u.ref.target]);
                grammar_quant_label(e, out);
                return;
            }
            bool flat = fb_flat_seq(c);
            if (c->kind == EXPR_ALT) {
                flat = true;
                for (uint32_t k = 0; k < c->nchildren && flat; k++)
                    flat = fb_flat_seq(c->children[k]);
            }
            if (flat) {
                strbuf_addch(out, '(');
                if (c->kind == EXPR_ALT) {
                    for (uint32_t k = 0; k < c->nchildren; k++) {
                        if (k)
                            strbuf_addch(out, '|');
                        fb_seq(w, c->children[k], out);
                    }
                } else {
                    fb_seq(w, c, out);
                }
                strbuf_addch(out, ')');
                grammar_quant_label(e, out);
                return;
            }
        }
        break;
    default: break;
    }
    strbuf_addstr(out, fb_helper(w, e));
}

static void fb_expansion(struct fb_writer *w, const struct expr *e, double weight, bool first,
                         struct strbuf *out)
{
    struct strbuf text = STRBUF_INIT;
    fb_seq(w, e, &text);
    strbuf_addstr(out, first ? "" : ", ");
    if (weight >= 0)
        strbuf_addch(out, '[');
    json_add_string(out, text.data ? text.data : "", text.len);
    if (weight >= 0)
        strbuf_addf(out, ", {\"prob\": %.6g}]", weight);
    strbuf_free(&text);
}

/* The expansions of a rule's right-hand side or of a helper. */
static void fb_expansions(struct fb_writer *w, const struct expr *e, bool helper,
                          struct strbuf *out)
{
    strbuf_addch(out, '[');
    if (helper && e->kind == EXPR_CLASS) {
        uint64_t size = grammar_class_size(e);
        if (size == 0) {
            /* An empty list of expansions is no fuzzingbook grammar. */
            diag_add(w->diags, DIAG_ERROR, grammar_rule_file(w->g, e->rule),
                     e->pos.line, e->pos.col,
                     "class %s of rule '%s' matches no character: fuzzingbook lists each "
                     "expansion, and has no way to write none",
                     e->u.cls.source, w->g->rules[e->rule].name);
            w->failed = true;
        } else if (size > FB_CLASS_MAX) {
            diag_add(w->diags, DIAG_ERROR, grammar_rule_file(w->g, e->rule),
                     e->pos.line, e->pos.col,
                     "class %s of rule '%s' has %llu characters: fuzzingbook lists each "
                     "expansion, and kpath writes at most %d",
                     e->u.cls.source, w->g->rules[e->rule].name, (unsigned long long)size,
                     FB_CLASS_MAX);
            w->failed = true;
        }
        for (uint64_t k = 0; k < size && k < FB_CLASS_MAX; k++) {
            char buf[4];
            size_t len = utf8_encode(grammar_class_nth(e, k), buf);
            strbuf_addstr(out, k ? ", " : "");
            json_add_string(out, buf, len);
        }
    } else if (helper && e->kind == EXPR_QUANT) {
        /* x{n,m}: one expansion per count; x{n,}: n copies and x*. */
        const struct expr *c = e->children[0];
        uint32_t min = e->u.quant.min, max = e->u.quant.max;
        uint32_t last = max == QUANT_INFINITE ? min : max;
        uint64_t copies = ((uint64_t)min + last) * ((uint64_t)last - min + 1) / 2;
        if (copies > EXPORT_MAX_COPIES) {
            too_many_copies(w->diags, w->g, e, copies, "fuzzingbook");
            w->failed = true;
            last = min ? min - 1 : 0; /* write no expansion */
            if (min == 0)
                min = 1;
        }
        for (uint32_t count = min; count <= last; count++) {
            struct strbuf text = STRBUF_INIT;
            for (uint32_t i = 0; i < count; i++)
                fb_item(w, c, &text);
            if (max == QUANT_INFINITE) {
                /* x* for the rest, x a reference or a helper */
                strbuf_addstr(&text, c->kind == EXPR_REF ? w->names[c->u.ref.target]
                                                         : fb_helper(w, c));
                strbuf_addch(&text, '*');
            }
            strbuf_addstr(out, count > min ? ", " : "");
            json_add_string(out, text.data ? text.data : "", text.len);
            strbuf_free(&text);
        }
    } else if (e->kind == EXPR_ALT) {
        for (uint32_t k = 0; k < e->nchildren; k++) {
            double weight = e->u.alt.weights ? e->u.alt.weights[k] : -1;
            fb_expansion(w, e->children[k], weight, k == 0, out);
        }
    } else {
        fb_expansion(w, e, -1, true, out);
    }
    strbuf_addch(out, ']');
}

static bool export_fuzzingbook(const struct grammar *g, struct strbuf *out,
                               struct diag_list *diags)
{
    struct fb_writer w = {.g = g, .diags = diags, .names = xcalloc(g->nrules, sizeof(char *)),
                          .next_helper = xmalloc(((size_t)g->nrules + 1) * sizeof(unsigned))};
    for (uint32_t r = 0; r < g->nrules; r++) {
        struct strbuf sb = STRBUF_INIT;
        const char *name = g->rules[r].name;
        if (name[0] == '<')
            strbuf_addstr(&sb, name);
        else
            strbuf_addf(&sb, "<%s>", name);
        w.names[r] = strbuf_detach(&sb, NULL);
        w.next_helper[r] = 1;
        if (!names_find(&w.taken, w.names[r])) /* "<a>" and "a" are one name here */
            names_add(&w.taken, w.names[r]);
    }
    strbuf_addstr(out, "{");
    bool first = true;
    for (uint32_t k = 0; k <= g->nrules; k++) {
        uint32_t r = k == 0 ? g->start : k - 1;
        if (k > 0 && r == g->start)
            continue;
        strbuf_addstr(out, first ? "\n  " : ",\n  ");
        first = false;
        json_add_cstring(out, w.names[r]);
        strbuf_addstr(out, ": ");
        fb_expansions(&w, g->rules[r].rhs, false, out);
    }
    /* Helpers may make helpers: a work list, no recursion. */
    for (size_t h = 0; h < w.nhelpers; h++) {
        strbuf_addstr(out, ",\n  ");
        json_add_cstring(out, w.helper_names[h]);
        strbuf_addstr(out, ": ");
        fb_expansions(&w, w.helpers[h], true, out);
    }
    strbuf_addstr(out, "\n}\n");
    names_free(&w.taken);
    free(w.next_helper);
    for (uint32_t r = 0; r < g->nrules; r++)
        free(w.names[r]);
    for (size_t h = 0; h < w.nhelpers; h++)
        free(w.helper_names[h]);
    free(w.names);
    free(w.helpers);
    free(w.helper_names);
    return !w.failed;
}

/* ---- TRIBBLE ------------------------------------------------------------ */

/* A character inside a literal "...": TRIBBLE's escapes, the rest as it is. */
static void add_tribble_lit_char(struct strbuf *out, uint32_t cp)
{
    switch (cp) {
    case '"': strbuf_addstr(out, "\\\""); return;
    case '\\': strbuf_addstr(out, "\\\\"); return;
    case '\n': strbuf_addstr(out, "\\n"); return;
    case '\r': strbuf_addstr(out, "\\r"); return;
    case '\t': strbuf_addstr(out, "\\t"); return;
    default: strbuf_add_utf8(out, cp); return;
    }
}

/* "s", each character written by add_char (an invalid UTF-8 byte as
 * U+FFFD): TRIBBLE's and Python's strings differ only in their escapes. */
static void add_quoted_literal(struct strbuf *out, const char *s, size_t len,
                               void (*add_char)(struct strbuf *, uint32_t))
{
    strbuf_addch(out, '"');
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = utf8_decode(s + i, len - i, &cp);
        if (!n) {
            cp = 0xFFFD;
            n = 1;
        }
        add_char(out, cp);
        i += n;
    }
    strbuf_addch(out, '"');
}

/* A character in a brics class inside /.../: letters, digits and non-ASCII
 * as they are; '\n' '\r' '\t' '"' with TRIBBLE's escapes; '/' as \/; any
 * other character behind brics's backslash, written \\ in TRIBBLE. */
static void add_tribble_class_char(struct strbuf *out, uint32_t cp)
{
    bool alnum = (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
    if (alnum || cp >= 0x80 || cp == ' ') {
        strbuf_add_utf8(out, cp);
    } else if (cp == '\n' || cp == '\r' || cp == '\t' || cp == '"') {
        add_tribble_lit_char(out, cp);
    } else if (cp == '/') {
        strbuf_addstr(out, "\\/");
    } else if (cp == '\\') {
        strbuf_addstr(out, "\\\\\\\\");
    } else if (cp < 0x20 || cp == 0x7F) {
        strbuf_add_utf8(out, cp); /* brics takes it as it is */
    } else {
        strbuf_addstr(out, "\\\\");
        strbuf_addch(out, (char)cp);
    }
}

static const struct class_syntax tribble_class = {"/./", "/[", "/[^", "]/",
                                                  add_tribble_class_char, false};

/* `name` without angle brackets into `sb`, every character but ASCII
 * letters, digits, '_' and those in `also` written as '_'. */
static void add_filtered_name(struct strbuf *sb, const char *name, const char *also)
{
    for (const char *p = name; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '<' || c == '>')
            continue;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || (c && strchr(also, c));
        strbuf_addch(sb, ok ? (char)c : '_');
    }
}

/* A valid TRIBBLE name: [A-Za-z0-9_$']+, angle brackets dropped. */
static char *tribble_name(const char *name)
{
    struct strbuf sb = STRBUF_INIT;
    add_filtered_name(&sb, name, "$'");
    if (!sb.len)
        strbuf_addch(&sb, '_');
    return strbuf_detach(&sb, NULL);
}

struct tribble_writer {
    const struct grammar *g;
    struct diag_list *diags;
    char **names;
    bool warned_one;
    struct strbuf *out;
};

/* The shortest decimal that reads back as the same double. */
static void add_shortest_double(struct strbuf *out, double v)
{
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    strbuf_addstr(out, buf);
}

static void tribble_weight(void *writer, const struct expr *alt, uint32_t i)
{
    struct tribble_writer *w = writer;
    if (alt->kind == EXPR_ALT && alt->u.alt.weights && alt->u.alt.weights[i] >= 0) {
        strbuf_addstr(w->out, " @@");
        add_shortest_double(w->out, alt->u.alt.weights[i]);
    }
}

static void tribble_node(void *writer, const struct expr *e)
{
    struct tribble_writer *w = writer;
    struct strbuf *out = w->out;
    switch (e->kind) {
    case EXPR_LIT:
        add_quoted_literal(out, e->u.lit.text, e->u.lit.len, add_tribble_lit_char);
        break;
    case EXPR_CLASS: add_class(out, e, &tribble_class); break;
    case EXPR_REF: strbuf_addstr(out, w->names[e->u.ref.target]); break;
    case EXPR_ALT: tribble_weight(w, e, e->nchildren - 1); break;
    case EXPR_QUANT: {
        uint32_t a = e->u.quant.min, b = e->u.quant.max;
        if (a == 1 && b == 1) {
            if (!w->warned_one)
                diag_add(w->diags, DIAG_WARNING, grammar_rule_file(w->g, e->rule),
                         e->pos.line, e->pos.col,
                         "TRIBBLE has no {1}: rule '%s' writes the item alone, which "
                         "changes its graph", w->g->rules[e->rule].name);
            w->warned_one = true;
        } else if (b == QUANT_INFINITE) {
            if (a <= 1)
                strbuf_addch(out, a ? '+' : '*');
            else
                strbuf_addf(out, "{%u,}", a);
        } else if (a == 0 && b == 1) {
            strbuf_addch(out, '?');
        } else if (a == b && a > 1) {
            strbuf_addf(out, "{%u}", a);
        } else if (a == 0) {
            strbuf_addf(out, "{,%u}", b);
        } else {
            strbuf_addf(out, "{%u,%u}", a, b);
        }
        break;
    }
    default: break;
    }
}

static const struct infix_syntax tribble_syntax = {"\n    | ", tribble_weight, tribble_node,
                                                   NULL, NULL};

static bool export_tribble(const struct grammar *g, struct strbuf *out, struct diag_list *diags)
{
    uint32_t n = g->nrules;
    struct tribble_writer w = {g, diags, xcalloc(n, sizeof(char *)), false, out};
    struct name_set taken = {0};
    for (uint32_t r = 0; r < n; r++)
        w.names[r] = unique_name(tribble_name(g->rules[r].name), &taken);
    names_free(&taken);
    /* TRIBBLE starts at the one rule no other rule names. */
    bool *named = xcalloc(n, sizeof *named);
    for (uint32_t r = 0; r < n; r++) {
        struct ref_scan scan = {0};
        walk_rule(g, r, scan_visit, &scan);
        for (size_t k = 0; k < scan.nrefs; k++)
            if (scan.refs[k] != r)
                named[scan.refs[k]] = true;
        free(scan.refs);
    }
    uint32_t roots = 0;
    for (uint32_t r = 0; r < n; r++)
        roots += !named[r];
    if (named[g->start] || roots != 1)
        diag_add(diags, DIAG_WARNING, g->file, 0, 0,
                 "TRIBBLE starts at the one rule no other rule names, and here %s: TRIBBLE "
                 "would refuse the file (kpath reads it back starting at its first rule, '%s')",
                 named[g->start] ? "the start rule is named by another rule"
                                 : "other rules are named by none either",
                 w.names[g->start]);
    free(named);
    for (uint32_t k = 0; k <= n; k++) {
        uint32_t r = k == 0 ? g->start : k - 1;
        if (k > 0 && r == g->start)
            continue;
        strbuf_addf(out, "%s%s =\n    ", k ? "\n" : "", w.names[r]);
        infix_print(g->rules[r].rhs, &tribble_syntax, &w, out);
        strbuf_addstr(out, ";\n");
    }
    for (uint32_t r = 0; r < n; r++)
        free(w.names[r]);
    free(w.names);
    return true;
}

/* ---- Fandango ----------------------------------------------------------- */

/* A character inside a Python string "...": Python's escapes for the
 * quote, the backslash and control characters, the rest as it is. */
static void add_fan_lit_char(struct strbuf *out, uint32_t cp)
{
    switch (cp) {
    case '"': strbuf_addstr(out, "\\\""); return;
    case '\\': strbuf_addstr(out, "\\\\"); return;
    case '\n': strbuf_addstr(out, "\\n"); return;
    case '\r': strbuf_addstr(out, "\\r"); return;
    case '\t': strbuf_addstr(out, "\\t"); return;
    default: break;
    }
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
        strbuf_addf(out, "\\x%02x", (unsigned)cp);
    else if (cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF || (cp >= 0xD800 && cp <= 0xDFFF))
        strbuf_addf(out, "\\u%04x", (unsigned)cp); /* line breaks to some editors */
    else
        strbuf_add_utf8(out, cp);
}

/* A character of a class inside a raw string r"[...]", which Python's re
 * reads: letters, digits and punctuation that means nothing in a class as
 * they are; anything else as \xNN, \uNNNN or \UNNNNNNNN, which re decodes
 * (a raw string cannot escape its quote, and '\\', ']', '^', '-', '[', '&',
 * '~', '|' mean something to re or draw its warnings). */
static void add_fan_class_char(struct strbuf *out, uint32_t cp)
{
    bool alnum = (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
    if (alnum || (cp > ' ' && cp < 0x7F && strchr("!#$%()*+,./:;<=>?@_`{}", (int)cp)))
        strbuf_addch(out, (char)cp);
    else if (cp == '\t' || cp == '\n' || cp == '\r')
        strbuf_addstr(out, cp == '\t' ? "\\t" : cp == '\n' ? "\\n" : "\\r");
    else if (cp <= 0xFF)
        strbuf_addf(out, "\\x%02x", (unsigned)cp);
    else if (cp <= 0xFFFF)
        strbuf_addf(out, "\\u%04x", (unsigned)cp);
    else
        strbuf_addf(out, "\\U%08x", (unsigned)cp);
}

/* A class as a Python regex of one character class: r"[a-z]", r"[^...]". */
static const struct class_syntax fan_class = {NULL, "r\"[", "r\"[^", "]\"", add_fan_class_char,
                                              true};

/* Words Fandango's lexer takes as keywords, so <word> would be no name
 * there (language/FandangoLexer.g4; any, all and len are names). */
static const char *const fan_reserved[] = {
    "and", "as", "assert", "async", "await", "break", "case", "class", "continue", "def",
    "del", "elif", "else", "except", "False", "finally", "for", "from", "global", "if",
    "import", "in", "include", "is", "lambda", "match", "None", "nonlocal", "not", "or",
    "pass", "raise", "return", "True", "try", "type", "while", "where", "with", "yield",
    "forall", "exists", "maximizing", "minimizing", "setting", "all_with_type",
    "NonTerminalNode", "TerminalNode", "Alternative", "Repetition", "Star", "Plus", "Option",
    "Concatenation", "py", NULL,
};

/* A valid Fandango name for `name`, without the angle brackets: ASCII
 * letters, digits and '_' (a Python identifier), not a keyword. */
static char *fan_name(const char *name)
{
    struct strbuf sb = STRBUF_INIT;
    add_filtered_name(&sb, name, "");
    if (!sb.len || (sb.data[0] >= '0' && sb.data[0] <= '9')) {
        struct strbuf p = STRBUF_INIT;
        strbuf_addf(&p, "_%s", strbuf_str(&sb));
        strbuf_free(&sb);
        sb = p;
    }
    for (int k = 0; fan_reserved[k]; k++)
        if (strcmp(strbuf_str(&sb), fan_reserved[k]) == 0)
            strbuf_addch(&sb, '_');
    return strbuf_detach(&sb, NULL);
}

struct fan_writer {
    const struct grammar *g;
    struct diag_list *diags;
    char **names; /* per rule, without angle brackets */
    bool warned_weights;
    struct strbuf *out;
};

static void fan_node(void *writer, const struct expr *e)
{
    struct fan_writer *w = writer;
    struct strbuf *out = w->out;
    switch (e->kind) {
    case EXPR_LIT:
        add_quoted_literal(out, e->u.lit.text, e->u.lit.len, add_fan_lit_char);
        break;
    case EXPR_CLASS: add_class(out, e, &fan_class); break;
    case EXPR_REF: strbuf_addf(out, "<%s>", w->names[e->u.ref.target]); break;
    case EXPR_QUANT: grammar_quant_label(e, out); break;
    case EXPR_ALT:
        if (e->u.alt.weights)
            warn_weights_left_out(w->diags, w->g, e->rule, e->pos,
                                  "Fandango has no probabilities in its grammars",
                                  &w->warned_weights);
        break;
    default: break;
    }
}

static const struct infix_syntax fan_syntax = {" | ", NULL, fan_node, NULL, NULL};

static bool export_fandango(const struct grammar *g, struct strbuf *out, struct diag_list *diags)
{
    uint32_t n = g->nrules;
    struct fan_writer w = {g, diags, xcalloc(n, sizeof(char *)), false, out};
    /* kpath's reader (and Fandango) start at <start>: only the start rule
     * may have that name, so it is named first, and "start" stays taken
     * for the others (a rule start becomes start_2). */
    struct name_set taken = {0};
    w.names[g->start] = fan_name(g->rules[g->start].name);
    names_add(&taken, w.names[g->start]);
    if (strcmp(w.names[g->start], "start") != 0)
        names_add(&taken, "start");
    for (uint32_t r = 0; r < n; r++)
        if (r != g->start)
            w.names[r] = unique_name(fan_name(g->rules[r].name), &taken);
    names_free(&taken);
    if (strcmp(w.names[g->start], "start") != 0)
        diag_add(diags, DIAG_WARNING, g->file, 0, 0,
                 "Fandango starts at <start>, and this grammar starts at <%s>: run Fandango "
                 "with --start-symbol='<%s>' (kpath reads the file back starting at its "
                 "first rule, <%s>)",
                 w.names[g->start], w.names[g->start], w.names[g->start]);
    if (strcmp(w.names[g->start], "start") != 0)
        strbuf_addf(out, "# The start symbol: fandango fuzz --start-symbol='<%s>'\n",
                    w.names[g->start]);
    for (uint32_t k = 0; k <= n; k++) {
        uint32_t r = k == 0 ? g->start : k - 1;
        if (k > 0 && r == g->start)
            continue;
        strbuf_addf(out, "<%s> ::= ", w.names[r]);
        infix_print(g->rules[r].rhs, &fan_syntax, &w, out);
        strbuf_addch(out, '\n');
    }
    for (uint32_t r = 0; r < n; r++)
        free(w.names[r]);
    free(w.names);
    return true;
}

/* ---- dispatch ----------------------------------------------------------- */

bool grammar_export(const struct grammar *g, enum grammar_format format, struct strbuf *out,
                    struct diag_list *diags)
{
    switch (format) {
    case GRAMMAR_FORMAT_G4: return export_g4(g, out, diags);
    case GRAMMAR_FORMAT_FUZZINGBOOK: return export_fuzzingbook(g, out, diags);
    case GRAMMAR_FORMAT_TRIBBLE: return export_tribble(g, out, diags);
    case GRAMMAR_FORMAT_FANDANGO: return export_fandango(g, out, diags);
    case GRAMMAR_FORMAT_EBNF:
    case GRAMMAR_FORMAT_AUTO: {
        struct grammar_write_options o = {0};
        grammar_write(g, &o, out);
        return true;
    }
    default:
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "writing %s grammars is not supported yet",
                 grammar_format_name(format));
        return false;
    }
}
