/* structure: see structure.h. */
#include "infer/structure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "grammar/grammar_build.h"

#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#define uthash_fatal(msg) abort()
#include <uthash.h>

#define CLS_ROOT UINT32_MAX       /* a whole sample in no class */
#define KEY_GROUP (UINT32_MAX - 1) /* in a pattern's key: a group follows */
#define KEY_SUB (UINT32_MAX - 2)   /* in a pattern's key: a class, some of its texts follow */
#define MAX_SUB 16 /* items of a span that may hold some texts of their class only */
#define MAX_TEXTS 32 /* texts of a class of separators asked one by one in a span */
#define MAX_GROUPS 8
#define MAX_INCL 4
#define MAX_VARIANTS 4 /* items of a span asked with another text of their class */
#define LOG_WHOLE 120

enum kind { K_WORD, K_SPACE, K_OTHER, K_STRING };

struct tok {
    size_t from, to; /* bytes */
    uint32_t cls;    /* its class before merges (find() for now) */
    uint32_t up;     /* a class that includes it here (see include()), or UINT32_MAX */
};

struct smp {
    const char *name, *text;
    size_t len;
    struct tok *t;
    size_t n, cap;
    size_t *head; /* per token: the last accepted span starting there (SIZE_MAX: none) */
    char *own;    /* the text without its blanks (see learn_blanks), owned, or NULL */
    bool *blank;  /* per byte offset 0..len: blanks may stand there; NULL: nowhere */
};

struct cls {
    enum kind kind;
    uint32_t parent;  /* union-find */
    size_t s, ti;     /* its first token: the representative text */
    bool spans;       /* has a span alternative */
    uint32_t incl[MAX_INCL]; /* classes it includes (alternatives of its rule) */
    uint32_t nincl;
    struct strbuf note;
};

struct group {
    uint32_t at, len, reps;
};

/* An item of a span that holds some texts of its class only: at byte
 * `at` from the span's start; bit k of `texts`: the k-th (see
 * class_texts).  texts 0: no item. */
struct sub {
    size_t at;
    uint32_t texts;
};

struct span {
    size_t s, i, j; /* tokens [i, j) of sample s */
    uint32_t cls;
    struct group g[MAX_GROUPS];
    uint32_t ng;
    bool grouped;   /* repetitions tried */
    struct sub sub[MAX_SUB]; /* items that hold some texts of their class only */
    size_t next;    /* the span added before it at the same start, or SIZE_MAX */
};

struct item {
    uint32_t cls;
    size_t from, to; /* bytes */
    uint32_t sub;    /* some texts of the class only (see struct span), 0: all */
};

struct query {
    struct membership_key key;
    size_t number;
    enum membership_answer answer;
    UT_hash_handle hh;
};

/* A pattern tried, by class and key, with what came of it. */
struct tried {
    uint32_t cls;
    uint32_t *key;
    size_t n;
    bool accepted;
    struct sub sub[MAX_SUB]; /* of the span taken */
};

struct st {
    const struct structure_options *o;
    struct structure_result *res;
    struct diag_list *diags;
    struct smp *smp;
    size_t ns;
    struct cls *cls;
    size_t ncls, cls_cap;
    struct span *spans;
    size_t nspans, spans_cap;
    struct tried *tried;
    size_t ntried, tried_cap;
    struct query *cache;
    struct strbuf block;
    size_t *numbers; /* the queries of the attempt under way */
    enum membership_answer *answers;
    size_t nnumbers, numbers_cap;
    bool failed, stopped;
    char blanks[8]; /* the blank characters learned (see learn_blanks), "" none */
    struct strbuf blank_note;
    /* a string's contents (see learn_strings): */
    bool chars;                 /* learned */
    struct class_range cr[96];  /* the characters taken */
    size_t ncr;
    char esc[16];               /* the escapes taken, "\\" then one of them */
    bool hex4;                  /* "\\u" and four hex digits taken */
    bool empty;                 /* "" taken */
    struct strbuf chars_note;
};

enum outcome { ACCEPTED, REJECTED, UNDECIDED, STOPPED };

/* ---- tokens and classes ------------------------------------------------------ */

static enum kind kind_of(unsigned char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')
        return K_WORD;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
        return K_SPACE;
    return K_OTHER;
}

static uint32_t find(struct st *S, uint32_t c)
{
    while (S->cls[c].parent != c) {
        S->cls[c].parent = S->cls[S->cls[c].parent].parent;
        c = S->cls[c].parent;
    }
    return c;
}

static const char *tok_text(const struct st *S, size_t s, size_t ti, size_t *len)
{
    const struct tok *t = &S->smp[s].t[ti];
    *len = t->to - t->from;
    return S->smp[s].text + t->from;
}

static const char *cls_text(const struct st *S, uint32_t c, size_t *len)
{
    return tok_text(S, S->cls[c].s, S->cls[c].ti, len);
}

/* The texts of class c (the classes of its tokens before merges, in
 * order), at most MAX_TEXTS in texts[]; returns how many there are. */
static size_t class_texts(struct st *S, uint32_t c, uint32_t *texts)
{
    size_t n = 0;
    for (uint32_t x = 0; x < S->ncls; x++)
        if (find(S, x) == c) {
            if (n < MAX_TEXTS)
                texts[n] = x;
            n++;
        }
    return n;
}

/* A string at text[i]: '"' up to the next '"' on the line, a
 * backslash escaping the character after it; its length, or 0 (no quote
 * there, or none closes it). */
static size_t quoted(const char *text, size_t len, size_t i)
{
    char q = text[i];
    if (q != '"')
        return 0;
    for (size_t j = i + 1; j < len && text[j] != '\n'; j++) {
        if (text[j] == '\\')
            j++;
        else if (text[j] == q)
            return j + 1 - i;
    }
    return 0;
}

/* The token at text[i]: its end, its kind in *k. */
static size_t token_end(const char *text, size_t len, size_t i, enum kind *k)
{
    *k = kind_of((unsigned char)text[i]);
    size_t j = i + 1;
    size_t q = *k == K_OTHER ? quoted(text, len, i) : 0;
    if (q) {
        *k = K_STRING;
        j = i + q;
    } else if (*k == K_OTHER) {
        uint32_t cp;
        size_t bytes = utf8_decode(text + i, len - i, &cp);
        j = i + (bytes ? bytes : 1);
    } else {
        while (j < len && kind_of((unsigned char)text[j]) == *k)
            j++;
    }
    return j;
}

static void cut(struct st *S, size_t s)
{
    struct smp *m = &S->smp[s];
    for (size_t i = 0; i < m->len;) {
        enum kind k;
        size_t j = token_end(m->text, m->len, i, &k);
        /* its class: the first of this kind and text, else a new one */
        uint32_t c = UINT32_MAX;
        for (uint32_t x = 0; x < S->ncls && c == UINT32_MAX; x++) {
            size_t len;
            const char *t = cls_text(S, x, &len);
            if (S->cls[x].kind == k && len == j - i && memcmp(t, m->text + i, len) == 0)
                c = x;
        }
        m->t = xgrow(m->t, &m->cap, m->n + 1, sizeof *m->t);
        m->t[m->n] = (struct tok){i, j, c, UINT32_MAX};
        if (c == UINT32_MAX) {
            S->cls = xgrow(S->cls, &S->cls_cap, S->ncls + 1, sizeof *S->cls);
            c = (uint32_t)S->ncls++;
            S->cls[c] = (struct cls){k, c, s, m->n, false, {0}, 0, STRBUF_INIT};
            m->t[m->n].cls = c;
        }
        m->n++;
        i = j;
    }
}

/* ---- queries ----------------------------------------------------------------- */

static const char *answer_word(enum membership_answer a)
{
    return a == MEMBERSHIP_YES ? "yes" : a == MEMBERSHIP_NO ? "no"
                                      : a == MEMBERSHIP_TIMEOUT ? "timeout" : "crash";
}

static void log_input(struct st *S, size_t number, enum membership_answer a, bool again,
                      const struct strbuf *in)
{
    strbuf_addf(&S->block, "  #%zu %s%s  ", number, answer_word(a),
                again ? " (asked before)" : "");
    size_t len = in->len > LOG_WHOLE ? LOG_WHOLE : in->len;
    grammar_lit_label(in->data, len, &S->block);
    if (len < in->len)
        strbuf_addf(&S->block, "... (%zu bytes)", in->len);
    strbuf_addch(&S->block, '\n');
}

/* Ask in[lo, hi): the fresh ones in one batch. */
static enum outcome ask_range(struct st *S, struct strbuf *in, size_t lo, size_t hi)
{
    size_t n = hi - lo;
    const char **texts = xcalloc(n ? n : 1, sizeof *texts);
    size_t *lens = xcalloc(n ? n : 1, sizeof *lens);
    size_t *which = xcalloc(n ? n : 1, sizeof *which);
    size_t nfresh = 0;
    for (size_t i = lo; i < hi; i++) {
        const char *d = in[i].data ? in[i].data : "";
        struct membership_key k = membership_key_of(d, in[i].len);
        struct query *q;
        HASH_FIND(hh, S->cache, &k, sizeof k, q);
        bool dup = false;
        for (size_t f = 0; f < nfresh && !dup; f++)
            dup = lens[f] == in[i].len && memcmp(texts[f], d, in[i].len) == 0;
        if (!q && !dup) {
            texts[nfresh] = d;
            lens[nfresh] = in[i].len;
            which[nfresh++] = i;
        }
    }
    enum outcome out = ACCEPTED;
    if (S->o->max_queries && S->res->queries + nfresh > S->o->max_queries) {
        S->res->limit_reached = true;
        S->stopped = true;
        out = STOPPED;
    }
    enum membership_answer *answers = xcalloc(nfresh ? nfresh : 1, sizeof *answers);
    if (out != STOPPED && nfresh &&
        !S->o->ask(S->o->ask_ctx, texts, lens, nfresh, answers, S->diags)) {
        S->failed = true;
        S->stopped = true;
        out = STOPPED;
    }
    if (out != STOPPED) {
        for (size_t f = 0; f < nfresh; f++) {
            struct query *q = xcalloc(1, sizeof *q);
            q->key = membership_key_of(texts[f], lens[f]);
            q->number = ++S->res->queries;
            q->answer = answers[f];
            HASH_ADD(hh, S->cache, key, sizeof q->key, q);
            S->res->accepted += answers[f] == MEMBERSHIP_YES;
            S->res->timeouts += answers[f] == MEMBERSHIP_TIMEOUT;
            S->res->crashes += answers[f] == MEMBERSHIP_CRASH;
        }
        for (size_t i = lo; i < hi; i++) {
            struct membership_key k = membership_key_of(in[i].data ? in[i].data : "", in[i].len);
            struct query *q;
            HASH_FIND(hh, S->cache, &k, sizeof k, q);
            bool fresh = false;
            for (size_t f = 0; f < nfresh; f++)
                fresh = fresh || which[f] == i;
            log_input(S, q->number, q->answer, !fresh, &in[i]);
            S->numbers = xgrow(S->numbers, &S->numbers_cap, S->nnumbers + 1, sizeof *S->numbers);
            S->answers = xrealloc(S->answers, S->numbers_cap * sizeof *S->answers);
            S->numbers[S->nnumbers] = q->number;
            S->answers[S->nnumbers++] = q->answer;
            if (q->answer == MEMBERSHIP_NO)
                out = REJECTED;
            else if (q->answer != MEMBERSHIP_YES && out == ACCEPTED)
                out = UNDECIDED;
        }
    }
    free(answers);
    free(texts);
    free(lens);
    free(which);
    return out;
}

/* The first input alone, then the others if it was a yes. */
static enum outcome ask_all(struct st *S, struct strbuf *in, size_t n)
{
    S->nnumbers = 0;
    if (!n)
        return ACCEPTED;
    enum outcome out = ask_range(S, in, 0, 1);
    if (out == ACCEPTED && n > 1)
        out = ask_range(S, in, 1, n);
    return out;
}

static void flush_block(struct st *S)
{
    if (S->block.len && S->o->log)
        S->o->log(S->o->log_ctx, S->block.data, S->block.len);
    strbuf_reset(&S->block);
}

static void conclude(struct st *S, enum outcome out, const char *taken)
{
    strbuf_addf(&S->block, "  -> %s\n",
                out == ACCEPTED ? taken : out == REJECTED ? "no" : out == UNDECIDED
                ? "undecided (a timeout or crash, no rejection)" : "stopped");
    flush_block(S);
}

static int compare_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* "#3, #7-#11" of the attempt just asked (all yes). */
static void add_numbers(struct st *S, struct strbuf *out)
{
    qsort(S->numbers, S->nnumbers, sizeof *S->numbers, compare_size);
    for (size_t i = 0; i < S->nnumbers;) {
        size_t j = i + 1;
        while (j < S->nnumbers && S->numbers[j] <= S->numbers[j - 1] + 1)
            j++;
        strbuf_addf(out, "%s%s#%zu", i ? ", " : "", i ? "" : "structure queries ",
                    S->numbers[i]);
        if (S->numbers[j - 1] != S->numbers[i])
            strbuf_addf(out, "-#%zu", S->numbers[j - 1]);
        i = j;
    }
}

static void label(const char *text, size_t len, struct strbuf *out)
{
    size_t n = len > 40 ? 40 : len;
    grammar_lit_label(text, n, out);
    if (n < len)
        strbuf_addstr(out, "...");
}

/* ---- 0. blanks ---------------------------------------------------------------- */

/* Append c to the set `set` (at most 7 characters, NUL-terminated). */
static void add_char(char *set, char c)
{
    size_t n = strlen(set);
    if (!strchr(set, c) && n < 7) {
        set[n] = c;
        set[n + 1] = '\0';
    }
}

/* Text without its blank runs, except a run between two word characters
 * (it separates two words) or in a string; each token start and the end
 * are boundaries (at[], byte offsets in out), those where a run was
 * removed flagged in had[]. */
static void strip(const char *text, size_t len, struct strbuf *out, size_t **at, bool **had,
                  size_t *nat, char *seen)
{
    size_t cap = 0, cap2 = 0;
    *at = NULL;
    *had = NULL;
    *nat = 0;
    bool removed = false;
    for (size_t i = 0; i <= len;) {
        enum kind k = K_OTHER;
        size_t j = i < len ? token_end(text, len, i, &k) : len + 1;
        if (i < len && k == K_SPACE) {
            bool words = i > 0 && j < len && kind_of((unsigned char)text[i - 1]) == K_WORD &&
                         kind_of((unsigned char)text[j]) == K_WORD;
            if (!words) {
                for (size_t c = i; c < j; c++)
                    add_char(seen, text[c]);
                removed = true;
                i = j;
                continue;
            }
        }
        /* a boundary: not next to a blank kept, not between two words */
        bool kept = (i < len && k == K_SPACE) ||
                    (out->len && kind_of((unsigned char)out->data[out->len - 1]) == K_SPACE);
        bool words = i < len && k == K_WORD && out->len &&
                     kind_of((unsigned char)out->data[out->len - 1]) == K_WORD;
        if (!kept && !words) {
            *at = xgrow(*at, &cap, *nat + 1, sizeof **at);
            *had = xgrow(*had, &cap2, *nat + 1, sizeof **had);
            (*at)[*nat] = out->len;
            (*had)[(*nat)++] = removed;
        }
        removed = false;
        if (i < len)
            strbuf_add(out, text + i, j - i);
        i = j;
    }
}

/* Text with `blank` inserted at the boundaries of `at` flagged in `on`
 * (all of them when on is NULL). */
static void with_blanks(const char *text, size_t len, const size_t *at, const bool *on,
                        size_t nat, const char *blank, struct strbuf *out)
{
    strbuf_reset(out);
    size_t from = 0;
    for (size_t b = 0; b < nat; b++) {
        if (on && !on[b])
            continue;
        strbuf_add(out, text + from, at[b] - from);
        strbuf_addstr(out, blank);
        from = at[b];
    }
    strbuf_add(out, text + from, len - from);
}

/* Blanks between tokens (JSON's, an expression's): when the oracle takes
 * every sample without its blanks, the structure is learned from those
 * texts, and blanks may stand where a " " inserted was taken (and where the
 * sample had them), as a run of the blank characters each taken at all
 * those places (one query per sample and character, and one more with all
 * of them at every place).  Otherwise the samples stay as they are. */
static void learn_blanks(struct st *S)
{
    size_t ns = S->ns;
    struct strbuf *own = xcalloc(ns ? ns : 1, sizeof *own);
    size_t **at = xcalloc(ns ? ns : 1, sizeof *at);
    bool **had = xcalloc(ns ? ns : 1, sizeof *had), **on = xcalloc(ns ? ns : 1, sizeof *on);
    size_t *nat = xcalloc(ns ? ns : 1, sizeof *nat);
    char seen[8] = " ";
    size_t total = 0;
    for (size_t s = 0; s < ns; s++) {
        strip(S->smp[s].text, S->smp[s].len, &own[s], &at[s], &had[s], &nat[s], seen);
        on[s] = xcalloc(nat[s] ? nat[s] : 1, sizeof **on);
        total += nat[s];
    }
    struct strbuf *in = xcalloc(total + ns + 1, sizeof *in);
    bool ok = true;
    size_t n = 0;
    for (size_t s = 0; s < ns; s++)
        if (own[s].len != S->smp[s].len)
            strbuf_add(&in[n++], own[s].data ? own[s].data : "", own[s].len);
    strbuf_addstr(&S->block, "structure: blanks: the samples without their blanks\n");
    enum outcome out = ask_all(S, in, n);
    conclude(S, out, "taken");
    ok = out == ACCEPTED;
    if (ok && S->nnumbers) {
        strbuf_addstr(&S->blank_note, "blanks: the samples without them: accepted ");
        add_numbers(S, &S->blank_note);
        strbuf_addch(&S->blank_note, '\n');
    }
    /* " " at each boundary the sample had no blank at */
    n = 0;
    for (size_t s = 0; s < ns && ok; s++)
        for (size_t b = 0; b < nat[s]; b++) {
            on[s][b] = had[s][b];
            if (had[s][b])
                continue;
            bool one[1] = {true};
            with_blanks(own[s].data ? own[s].data : "", own[s].len, &at[s][b], one, 1, " ",
                        &in[n++]);
        }
    if (ok && n) {
        strbuf_addstr(&S->block, "structure: blanks: a \" \" between two tokens\n");
        S->nnumbers = 0;
        out = ask_range(S, in, 0, n);
        conclude(S, out == STOPPED ? STOPPED : ACCEPTED, "the places taken");
        ok = out != STOPPED;
        size_t k = 0, yes = 0;
        for (size_t s = 0; s < ns && ok; s++)
            for (size_t b = 0; b < nat[s]; b++)
                if (!had[s][b]) {
                    on[s][b] = S->answers[k] == MEMBERSHIP_YES;
                    if (on[s][b])
                        S->numbers[yes++] = S->numbers[k];
                    k++;
                }
        S->nnumbers = yes;
        if (ok && yes) {
            strbuf_addf(&S->blank_note, "blanks: a \" \" at %zu places: accepted ", yes);
            add_numbers(S, &S->blank_note);
            strbuf_addch(&S->blank_note, '\n');
        }
    }
    bool any = false;
    for (size_t s = 0; s < ns && ok; s++)
        for (size_t b = 0; b < nat[s]; b++)
            any = any || on[s][b];
    ok = ok && any;
    /* which blank characters: each at every place taken, per sample */
    char chars[8] = "";
    const char *cands = " \t\n\r";
    for (const char *c = cands; *c && ok; c++) {
        char one[2] = {*c, '\0'};
        if (strchr(seen, *c)) {
            add_char(chars, *c);
            continue; /* " " was asked at each place; the samples' own are taken */
        }
        n = 0;
        for (size_t s = 0; s < ns; s++)
            with_blanks(own[s].data ? own[s].data : "", own[s].len, at[s], on[s], nat[s], one,
                        &in[n++]);
        strbuf_addstr(&S->block, "structure: blanks: ");
        label(one, 1, &S->block);
        strbuf_addstr(&S->block, " at every place taken\n");
        out = ask_all(S, in, n);
        conclude(S, out, "a blank");
        ok = out != STOPPED;
        if (out == ACCEPTED) {
            add_char(chars, *c);
            strbuf_addstr(&S->blank_note, "blanks: ");
            label(one, 1, &S->blank_note);
            strbuf_addstr(&S->blank_note, " at every place: accepted ");
            add_numbers(S, &S->blank_note);
            strbuf_addch(&S->blank_note, '\n');
        }
    }
    /* all of them (and " " twice) at every place at once */
    if (ok) {
        char all[10];
        snprintf(all, sizeof all, "%s ", chars);
        n = 0;
        for (size_t s = 0; s < ns; s++)
            with_blanks(own[s].data ? own[s].data : "", own[s].len, at[s], on[s], nat[s], all,
                        &in[n++]);
        strbuf_addstr(&S->block, "structure: blanks: all of them at every place taken\n");
        out = ask_all(S, in, n);
        conclude(S, out, "blanks between tokens");
        ok = out == ACCEPTED;
        if (ok) {
            strbuf_addstr(&S->blank_note, "blanks: all of them at every place: accepted ");
            add_numbers(S, &S->blank_note);
            strbuf_addch(&S->blank_note, '\n');
        }
    }
    if (ok) {
        snprintf(S->blanks, sizeof S->blanks, "%s", chars);
        for (size_t s = 0; s < ns; s++) {
            size_t len = own[s].len;
            S->smp[s].own = strbuf_detach(&own[s], NULL);
            if (!S->smp[s].own)
                S->smp[s].own = xcalloc(1, 1);
            S->smp[s].text = S->smp[s].own;
            S->smp[s].len = len;
            S->smp[s].blank = xcalloc(S->smp[s].len + 1, sizeof *S->smp[s].blank);
            for (size_t b = 0; b < nat[s]; b++)
                S->smp[s].blank[at[s][b]] = on[s][b];
        }
    } else {
        strbuf_reset(&S->blank_note);
    }
    for (size_t i = 0; i < total + ns + 1; i++)
        strbuf_free(&in[i]);
    free(in);
    for (size_t s = 0; s < ns; s++) {
        strbuf_free(&own[s]);
        free(at[s]);
        free(had[s]);
        free(on[s]);
    }
    free(own);
    free(at);
    free(had);
    free(on);
    free(nat);
}

static void replaced(const struct st *S, size_t s, size_t from, size_t to, const char *text,
                     size_t len, struct strbuf *out);

/* ---- 0b. strings --------------------------------------------------------------- */

/* A string's contents: the first two string tokens of the samples get, in
 * turn, each printable ASCII character, two non-ASCII ones, each escape of
 * \" \\ \/ \b \f \n \r \t and \u with four hex digits, and nothing, as
 * their contents (the first once, the second twice over); a probe whose two
 * queries are yes is taken.  The contents become a run of what was taken
 * (non-ASCII: all of it when both probes are), for every string. */
static void learn_strings(struct st *S)
{
    size_t ctx_s[2], ctx_t[2], nctx = 0;
    for (size_t s = 0; s < S->ns && nctx < 2; s++)
        for (size_t t = 0; t < S->smp[s].n && nctx < 2; t++)
            if (S->cls[S->smp[s].t[t].cls].kind == K_STRING) {
                ctx_s[nctx] = s;
                ctx_t[nctx++] = t;
            }
    if (!nctx)
        return;
    static const char *const escapes[] = {"\\\"", "\\\\", "\\/", "\\b", "\\f",
                                          "\\n", "\\r", "\\t"};
    const size_t nesc = sizeof escapes / sizeof *escapes;
    /* probes: 95 ASCII, 2 non-ASCII, the escapes, \u twice, "" */
    const size_t nprobe = 95 + 2 + nesc + 2 + 1;
    struct strbuf *in = xcalloc(2 * nprobe, sizeof *in);
    struct strbuf probe = STRBUF_INIT, twice = STRBUF_INIT;
    for (size_t k = 0; k < nprobe; k++) {
        strbuf_reset(&probe);
        if (k < 95)
            strbuf_addch(&probe, (char)(0x20 + k));
        else if (k == 95)
            strbuf_addstr(&probe, "\xc3\xa9");     /* U+00E9 */
        else if (k == 96)
            strbuf_addstr(&probe, "\xe4\xb8\xad"); /* U+4E2D */
        else if (k < 97 + nesc)
            strbuf_addstr(&probe, escapes[k - 97]);
        else if (k == 97 + nesc)
            strbuf_addstr(&probe, "\\u00e9");
        else if (k == 98 + nesc)
            strbuf_addstr(&probe, "\\uAbCd");
        for (size_t c = 0; c < 2; c++) {
            size_t cs = ctx_s[c < nctx ? c : 0], ct = ctx_t[c < nctx ? c : 0];
            const struct tok *t = &S->smp[cs].t[ct];
            strbuf_reset(&twice);
            strbuf_addch(&twice, '"');
            strbuf_add(&twice, probe.data ? probe.data : "", probe.len);
            if (c)
                strbuf_add(&twice, probe.data ? probe.data : "", probe.len);
            strbuf_addch(&twice, '"');
            replaced(S, cs, t->from, t->to, twice.data, twice.len, &in[2 * k + c]);
        }
    }
    strbuf_free(&probe);
    strbuf_free(&twice);
    strbuf_addstr(&S->block, "structure: strings: what a string's contents may be\n");
    S->nnumbers = 0;
    enum outcome out = ask_range(S, in, 0, 2 * nprobe);
    conclude(S, out == STOPPED ? STOPPED : ACCEPTED, "the probes taken");
    if (out != STOPPED) {
        size_t yes = 0;
        bool nonascii = true;
        for (size_t k = 0; k < nprobe; k++) {
            bool ok = S->answers[2 * k] == MEMBERSHIP_YES && S->answers[2 * k + 1] == MEMBERSHIP_YES;
            if (ok) {
                S->numbers[yes++] = S->numbers[2 * k];
                S->numbers[yes++] = S->numbers[2 * k + 1];
            }
            if (k < 95 && ok) {
                uint32_t cp = (uint32_t)(0x20 + k);
                if (S->ncr && S->cr[S->ncr - 1].hi + 1 == cp)
                    S->cr[S->ncr - 1].hi = cp;
                else
                    S->cr[S->ncr++] = (struct class_range){cp, cp};
            } else if (k == 95 || k == 96) {
                nonascii = nonascii && ok;
            } else if (k < 97 + nesc && ok) {
                size_t e = strlen(S->esc);
                S->esc[e] = escapes[k - 97][1];
                S->esc[e + 1] = '\0';
            } else if (k == 97 + nesc || k == 98 + nesc) {
                S->hex4 = (k == 97 + nesc || S->hex4) && ok;
            } else if (k == nprobe - 1) {
                S->empty = ok;
            }
        }
        if (nonascii)
            S->cr[S->ncr++] = (struct class_range){0x80, 0x10FFFF};
        S->nnumbers = yes;
        S->chars = S->ncr > 0;
        if (S->chars) {
            strbuf_addf(&S->chars_note, "strings: %zu probes of a string's contents: accepted ",
                        yes / 2);
            add_numbers(S, &S->chars_note);
            strbuf_addch(&S->chars_note, '\n');
        }
    }
    for (size_t k = 0; k < 2 * nprobe; k++)
        strbuf_free(&in[k]);
    free(in);
}

/* ---- occurrences ------------------------------------------------------------- */

struct occ {
    size_t s, from, to; /* bytes */
    int rank;           /* the order they are asked in */
};

static int compare_occ(const void *a, const void *b)
{
    const struct occ *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank - y->rank;
    if (x->s != y->s)
        return x->s < y->s ? -1 : 1;
    return x->from < y->from ? -1 : x->from > y->from;
}

/* Where class c occurs (tokens, accepted spans), ordered: whole samples,
 * other samples than `s`, outside [from, to) in s, inside it. */
static struct occ *occurrences(struct st *S, uint32_t c, size_t s, size_t from, size_t to,
                               size_t *n)
{
    struct occ *o = NULL;
    size_t len = 0, cap = 0;
    for (size_t x = 0; x < S->ns; x++)
        for (size_t t = 0; t < S->smp[x].n; t++)
            if (find(S, S->smp[x].t[t].cls) == c ||
                (S->smp[x].t[t].up != UINT32_MAX && find(S, S->smp[x].t[t].up) == c)) {
                o = xgrow(o, &cap, len + 1, sizeof *o);
                o[len++] = (struct occ){x, S->smp[x].t[t].from, S->smp[x].t[t].to, 0};
            }
    for (size_t k = 0; k < S->nspans; k++) {
        const struct span *p = &S->spans[k];
        if (p->cls == CLS_ROOT || find(S, p->cls) != c)
            continue;
        o = xgrow(o, &cap, len + 1, sizeof *o);
        o[len++] = (struct occ){p->s, S->smp[p->s].t[p->i].from, S->smp[p->s].t[p->j - 1].to, 0};
    }
    for (size_t k = 0; k < len; k++) {
        bool whole = o[k].from == 0 && o[k].to == S->smp[o[k].s].len;
        bool inside = o[k].s == s && o[k].from >= from && o[k].to <= to;
        bool overlap = o[k].s == s && o[k].from < to && o[k].to > from;
        o[k].rank = whole ? 0 : o[k].s != s ? 1 : !overlap ? 2 : inside ? 3 : 4;
    }
    qsort(o, len, sizeof *o, compare_occ);
    /* the span itself and overlapping ones are no context */
    size_t m = 0;
    for (size_t k = 0; k < len; k++)
        if (o[k].rank != 4 && !(o[k].s == s && o[k].from == from && o[k].to == to))
            o[m++] = o[k];
    *n = m;
    return o;
}

/* Sample s with bytes [from, to) replaced by text. */
static void replaced(const struct st *S, size_t s, size_t from, size_t to, const char *text,
                     size_t len, struct strbuf *out)
{
    strbuf_reset(out);
    strbuf_add(out, S->smp[s].text, from);
    strbuf_add(out, text, len);
    strbuf_add(out, S->smp[s].text + to, S->smp[s].len - to);
}

/* Keep the first `want` of o (in rank order), spread over samples: per
 * rank, one of each sample in turn.  Returns how many are kept. */
static size_t pick(struct occ *o, size_t n, size_t want)
{
    bool *taken = xcalloc(n ? n : 1, sizeof *taken);
    struct occ *out = xmalloc((want ? want : 1) * sizeof *out);
    size_t m = 0;
    for (int r = 0; r <= 3 && m < want; r++) {
        bool any = true;
        while (any && m < want) {
            any = false;
            size_t last = SIZE_MAX;
            for (size_t k = 0; k < n && m < want; k++) {
                if (taken[k] || o[k].rank != r || o[k].s == last)
                    continue;
                taken[k] = true;
                out[m++] = o[k];
                last = o[k].s;
                any = true;
            }
        }
    }
    memcpy(o, out, m * sizeof *o);
    free(out);
    free(taken);
    return m;
}

/* ---- 1. classes -------------------------------------------------------------- */

/* The shape of a class's text: 1 digits, 2 lower case, 3 upper case (with
 * digits and "_"), 0 anything else. */
static int shape_of(const struct st *S, uint32_t c)
{
    size_t len;
    const char *t = cls_text(S, c, &len);
    if (S->cls[c].kind != K_WORD)
        return 0;
    bool digit = true, lower = true, upper = true;
    for (size_t i = 0; i < len; i++) {
        char ch = t[i];
        bool d = ch >= '0' && ch <= '9';
        digit = digit && d;
        lower = lower && (d || ch == '_' || (ch >= 'a' && ch <= 'z'));
        upper = upper && (d || ch == '_' || (ch >= 'A' && ch <= 'Z'));
    }
    return digit ? 1 : lower ? 2 : upper ? 3 : 0;
}

/* Before the pairs: all texts of one shape at once (many numbers in a
 * large sample would otherwise cost a merge each): up to `contexts`
 * occurrences of other texts get the first one's, as many of the first's
 * get the others' in turn. */
static void merge_shapes(struct st *S, struct strbuf *in)
{
    for (int shape = 1; shape <= 3 && !S->stopped; shape++) {
        uint32_t first = UINT32_MAX;
        size_t members = 0;
        for (uint32_t c = 0; c < S->ncls; c++)
            if (find(S, c) == c && shape_of(S, c) == shape) {
                first = first == UINT32_MAX ? c : first;
                members++;
            }
        if (members < 3)
            continue; /* the pairs do it */
        size_t flen;
        const char *ftext = cls_text(S, first, &flen);
        size_t n = 0, taken = 0;
        for (uint32_t c = first + 1; c < S->ncls && taken < S->o->contexts; c++) {
            if (find(S, c) != c || shape_of(S, c) != shape)
                continue;
            const struct tok *t = &S->smp[S->cls[c].s].t[S->cls[c].ti];
            replaced(S, S->cls[c].s, t->from, t->to, ftext, flen, &in[n++]);
            taken++;
        }
        size_t nf;
        struct occ *of = occurrences(S, first, SIZE_MAX, 0, 0, &nf);
        nf = pick(of, nf, S->o->contexts);
        uint32_t other = first;
        for (size_t k = 0; k < nf; k++) {
            do
                other = (other + 1) % (uint32_t)S->ncls;
            while (find(S, other) != other || shape_of(S, other) != shape || other == first);
            size_t olen;
            const char *otext = cls_text(S, other, &olen);
            replaced(S, of[k].s, of[k].from, of[k].to, otext, olen, &in[n++]);
        }
        free(of);
        strbuf_addf(&S->block, "structure: class: the %zu %s texts replace each other\n",
                    members, shape == 1 ? "digit" : shape == 2 ? "lower-case" : "upper-case");
        enum outcome out = ask_all(S, in, n);
        conclude(S, out, "one class");
        if (out != ACCEPTED)
            continue;
        struct strbuf *note = &S->cls[first].note;
        strbuf_addf(note, "class: the %zu %s texts replace each other: accepted ", members,
                    shape == 1 ? "digit" : shape == 2 ? "lower-case" : "upper-case");
        add_numbers(S, note);
        strbuf_addch(note, '\n');
        for (uint32_t c = first + 1; c < S->ncls; c++)
            if (find(S, c) == c && shape_of(S, c) == shape) {
                S->cls[c].parent = first;
                S->res->classes++;
            }
    }
}

/* Occurrences asked per direction of a merge of classes of kind k: every
 * occurrence of a separator (up to SEPARATOR_CONTEXTS times `contexts`),
 * since a separator's meaning is in where it stands ("/" and "." replace
 * each other in a URL's path, not in its host). */
#define SEPARATOR_CONTEXTS 4
static size_t merge_contexts(const struct st *S, enum kind k)
{
    return (size_t)S->o->contexts * (k == K_OTHER ? SEPARATOR_CONTEXTS : 1);
}

static void merge_classes(struct st *S)
{
    size_t nin = 2 * (size_t)S->o->contexts * SEPARATOR_CONTEXTS + 2;
    struct strbuf *in = xcalloc(nin, sizeof *in);
    merge_shapes(S, in);
    for (uint32_t b = 1; b < S->ncls && !S->stopped; b++) {
        for (uint32_t a = 0; a < b && !S->stopped; a++) {
            if (find(S, a) != a || find(S, b) != b || S->cls[a].kind != S->cls[b].kind)
                continue;
            size_t alen, blen;
            const char *at = cls_text(S, a, &alen), *bt = cls_text(S, b, &blen);
            size_t na, nb;
            struct occ *oa = occurrences(S, a, SIZE_MAX, 0, 0, &na);
            struct occ *ob = occurrences(S, b, SIZE_MAX, 0, 0, &nb);
            size_t n = 0;
            size_t want = merge_contexts(S, S->cls[a].kind);
            size_t pa = pick(oa, na, want), pb = pick(ob, nb, want);
            for (size_t k = 0; k < pb || k < pa; k++) {
                if (k < pb)
                    replaced(S, ob[k].s, ob[k].from, ob[k].to, at, alen, &in[n++]);
                if (k < pa)
                    replaced(S, oa[k].s, oa[k].from, oa[k].to, bt, blen, &in[n++]);
            }
            free(oa);
            free(ob);
            strbuf_addstr(&S->block, "structure: class: ");
            label(bt, blen, &S->block);
            strbuf_addstr(&S->block, " and ");
            label(at, alen, &S->block);
            strbuf_addstr(&S->block, " replace each other\n");
            enum outcome out = ask_all(S, in, n);
            conclude(S, out, "one class");
            if (out != ACCEPTED)
                continue;
            S->cls[b].parent = a;
            S->res->classes++;
            struct strbuf *note = &S->cls[a].note;
            strbuf_addstr(note, "class: ");
            label(bt, blen, note);
            strbuf_addstr(note, " and ");
            label(at, alen, note);
            strbuf_addstr(note, " replace each other: accepted ");
            add_numbers(S, note);
            strbuf_addch(note, '\n');
            strbuf_add(note, S->cls[b].note.data, S->cls[b].note.len);
            strbuf_reset(&S->cls[b].note);
        }
    }
    for (size_t i = 0; i < nin; i++)
        strbuf_free(&in[i]);
    free(in);
}

/* ---- patterns ---------------------------------------------------------------- */

/* The longest accepted span of sample s starting at token i inside [i, j)
 * and not [i, j) itself: its index, or SIZE_MAX. */
static size_t span_at(const struct st *S, size_t s, size_t i, size_t j, size_t from_i,
                      size_t to_j)
{
    size_t best = SIZE_MAX;
    if (i >= S->smp[s].n)
        return best;
    for (size_t k = S->smp[s].head[i]; k != SIZE_MAX; k = S->spans[k].next) {
        const struct span *p = &S->spans[k];
        if (p->j > j || p->cls == CLS_ROOT ||
            (p->i == from_i && p->j == to_j))
            continue;
        if (best == SIZE_MAX || p->j > S->spans[best].j)
            best = k;
    }
    return best;
}

/* Tokens [i, j) of sample s as items: inner accepted spans as their class. */
static size_t pattern(struct st *S, size_t s, size_t i, size_t j, struct item **items)
{
    size_t n = 0, cap = 0;
    *items = NULL;
    for (size_t p = i; p < j;) {
        size_t k = span_at(S, s, p, j, i, j);
        /* no span right after an item of its own class: "1" "+2" would read
         * "1+2" as two values side by side, not as value "+" value */
        if (k != SIZE_MAX && n && (*items)[n - 1].cls == find(S, S->spans[k].cls))
            k = SIZE_MAX;
        *items = xgrow(*items, &cap, n + 1, sizeof **items);
        if (k != SIZE_MAX) {
            const struct span *sp = &S->spans[k];
            (*items)[n++] = (struct item){find(S, sp->cls), S->smp[s].t[sp->i].from,
                                          S->smp[s].t[sp->j - 1].to, 0};
            p = sp->j;
        } else {
            const struct tok *t = &S->smp[s].t[p];
            (*items)[n++] = (struct item){find(S, t->up != UINT32_MAX ? t->up : t->cls), t->from,
                                          t->to, 0};
            p++;
        }
    }
    return n;
}

/* A span's items, with the texts of their classes they hold. */
static bool separators(struct st *S, uint32_t c);

static size_t span_pattern(struct st *S, const struct span *p, struct item **items)
{
    size_t n = pattern(S, p->s, p->i, p->j, items);
    size_t from = S->smp[p->s].t[p->i].from;
    for (size_t k = 0; k < MAX_SUB && p->sub[k].texts; k++)
        for (size_t q = 0; q < n; q++)
            if ((*items)[q].from == from + p->sub[k].at && separators(S, (*items)[q].cls))
                (*items)[q].sub = p->sub[k].texts;
    return n;
}

static size_t key_of_items(const struct item *it, size_t n, const struct group *g, uint32_t ng,
                           uint32_t **key)
{
    *key = xmalloc((3 * n + 3 * (size_t)ng + 1) * sizeof **key);
    size_t m = 0;
    for (size_t p = 0; p < n;) {
        const struct group *in = NULL;
        for (uint32_t x = 0; x < ng; x++)
            if (g[x].at == p)
                in = &g[x];
        if (in) {
            (*key)[m++] = KEY_GROUP;
            (*key)[m++] = in->len;
            for (uint32_t q = 0; q < in->len; q++)
                (*key)[m++] = it[p + q].cls;
            p += (size_t)in->len * in->reps;
        } else if (it[p].sub) {
            (*key)[m++] = KEY_SUB;
            (*key)[m++] = it[p].cls;
            (*key)[m++] = it[p++].sub;
        } else {
            (*key)[m++] = it[p++].cls;
        }
    }
    return m;
}

static struct tried *tried_find(struct st *S, uint32_t c, const uint32_t *key, size_t n)
{
    for (size_t k = 0; k < S->ntried; k++)
        if (S->tried[k].cls == c && S->tried[k].n == n &&
            memcmp(S->tried[k].key, key, n * sizeof *key) == 0)
            return &S->tried[k];
    return NULL;
}

static void tried_add(struct st *S, uint32_t c, uint32_t *key, size_t n, bool accepted)
{
    S->tried = xgrow(S->tried, &S->tried_cap, S->ntried + 1, sizeof *S->tried);
    S->tried[S->ntried++] = (struct tried){c, key, n, accepted, {{0, 0}}};
}

static void add_span(struct st *S, size_t s, size_t i, size_t j, uint32_t c)
{
    S->spans = xgrow(S->spans, &S->spans_cap, S->nspans + 1, sizeof *S->spans);
    struct span *p = &S->spans[S->nspans++];
    memset(p, 0, sizeof *p);
    p->s = s;
    p->i = i;
    p->j = j;
    p->cls = c;
    p->next = SIZE_MAX;
    if (i < S->smp[s].n) {
        p->next = S->smp[s].head[i];
        S->smp[s].head[i] = S->nspans - 1;
    }
}

static void other_text(const struct st *S, uint32_t c, size_t s, size_t from, size_t to,
                       struct strbuf *out);

/* ---- 2. recursion ------------------------------------------------------------ */

static bool nonterminal_kind(const struct st *S, uint32_t c)
{
    return S->cls[c].kind == K_WORD || S->cls[c].kind == K_STRING || S->cls[c].spans;
}

/* A class of separators (single characters, no spans) with two to
 * MAX_TEXTS texts: in a span, each of its texts is asked on its own. */
static bool separators(struct st *S, uint32_t c)
{
    uint32_t texts[MAX_TEXTS];
    size_t n = class_texts(S, c, texts);
    return S->cls[c].kind == K_OTHER && !S->cls[c].spans && !S->cls[c].nincl && n >= 2 &&
           n <= MAX_TEXTS;
}

/* A span just taken (its text [from, to) of sample s, items it[0..n)):
 * each item of a class of separators is asked with each other text of its
 * class, in the span's place and in its first other context (o0); the
 * texts taken are the item's (sub[q], 0 when all are), so "-" and "+"
 * stand before a number where "*" and "/" do not. */
static enum outcome ask_texts(struct st *S, size_t s, const struct item *it, size_t n,
                              size_t from, size_t to, const struct occ *o0, struct sub *sub,
                              struct strbuf *in, struct strbuf *note)
{
    size_t nsub = 0;
    if (n > MAX_SUB)
        return ACCEPTED;
    const char *text = S->smp[s].text + from;
    for (size_t q = 0; q < n; q++) {
        if (!separators(S, it[q].cls))
            continue;
        uint32_t texts[MAX_TEXTS];
        size_t nt = class_texts(S, it[q].cls, texts);
        uint32_t taken = 0;
        bool asked = false;
        for (size_t k = 0; k < nt; k++) {
            size_t len;
            const char *t = cls_text(S, texts[k], &len);
            if (len == it[q].to - it[q].from && memcmp(t, S->smp[s].text + it[q].from, len) == 0) {
                taken |= 1u << k;
                continue;
            }
            struct strbuf var = STRBUF_INIT;
            strbuf_add(&var, text, it[q].from - from);
            strbuf_add(&var, t, len);
            strbuf_add(&var, S->smp[s].text + it[q].to, to - it[q].to);
            size_t nin = 0;
            replaced(S, s, from, to, var.data, var.len, &in[nin++]);
            if (o0)
                replaced(S, o0->s, o0->from, o0->to, var.data, var.len, &in[nin++]);
            strbuf_free(&var);
            strbuf_addstr(&S->block, "structure: recursion: ");
            label(t, len, &S->block);
            strbuf_addstr(&S->block, " in place of ");
            label(S->smp[s].text + it[q].from, it[q].to - it[q].from, &S->block);
            strbuf_addstr(&S->block, " there\n");
            enum outcome out = ask_all(S, in, nin);
            conclude(S, out, "taken");
            if (out == STOPPED)
                return out;
            asked = true;
            if (out != ACCEPTED)
                continue;
            taken |= 1u << k;
            strbuf_addstr(note, "recursion: ");
            label(t, len, note);
            strbuf_addstr(note, " in place of ");
            label(S->smp[s].text + it[q].from, it[q].to - it[q].from, note);
            strbuf_addstr(note, " there: accepted ");
            add_numbers(S, note);
            strbuf_addch(note, '\n');
        }
        uint32_t all = nt >= 32 ? UINT32_MAX : (1u << nt) - 1;
        if (asked && taken != all)
            sub[nsub++] = (struct sub){it[q].from - from, taken};
    }
    return ACCEPTED;
}

/* Whether what ends right before token i of sample s is of class c (a
 * token or an accepted span): a span of c there would stand beside one,
 * so "+2" in "1+2" is no value even where "-7" is one. */
static bool after_own(struct st *S, size_t s, size_t i, uint32_t c)
{
    if (i == 0)
        return false;
    const struct tok *t = &S->smp[s].t[i - 1];
    if (find(S, t->cls) == c || (t->up != UINT32_MAX && find(S, t->up) == c))
        return true;
    for (size_t k = 0; k < S->nspans; k++) {
        const struct span *p = &S->spans[k];
        if (p->s == s && p->j == i && p->cls != CLS_ROOT && find(S, p->cls) == c)
            return true;
    }
    return false;
}

/* Whether the items it[0..n) of a span at byte `from` have texts its
 * pattern's subs hold (a pattern taken for "+2" is no "*3"). */
static bool holds(struct st *S, size_t s, const struct item *it, size_t n, size_t from,
                  const struct sub *sub)
{
    for (size_t k = 0; k < MAX_SUB && sub[k].texts; k++)
        for (size_t q = 0; q < n; q++) {
            if (it[q].from != from + sub[k].at)
                continue;
            uint32_t texts[MAX_TEXTS];
            size_t nt = class_texts(S, it[q].cls, texts);
            bool in = false;
            for (size_t x = 0; x < nt && x < MAX_TEXTS && !in; x++) {
                size_t len;
                const char *t = cls_text(S, texts[x], &len);
                in = (sub[k].texts & (1u << x)) && len == it[q].to - it[q].from &&
                     memcmp(t, S->smp[s].text + it[q].from, len) == 0;
            }
            if (!in)
                return false;
        }
    return true;
}

/* Try tokens [i, j) of sample s as an alternative of the classes among
 * its items; true when taken by one. */
static bool try_span(struct st *S, size_t s, size_t i, size_t j, struct strbuf *in)
{
    /* blanks at a span's edge are no structure (" \"a\"" replaces a JSON
     * string anywhere, and would make the string class recursive) */
    const struct smp *m = &S->smp[s];
    if ((i > 0 && S->cls[m->t[i].cls].kind == K_SPACE) ||
        (j < m->n && S->cls[m->t[j - 1].cls].kind == K_SPACE))
        return false;
    struct item *it;
    size_t n = pattern(S, s, i, j, &it);
    if (n < 2) {
        free(it);
        return false;
    }
    size_t from = S->smp[s].t[i].from, to = S->smp[s].t[j - 1].to;
    const char *text = S->smp[s].text + from;
    bool taken = false;
    /* the classes among its items; without one, the recursive classes
     * (so "[]" can be tried as a value) */
    uint32_t *cands = xmalloc((n + S->ncls) * sizeof *cands);
    size_t ncands = 0;
    for (size_t x = 0; x < n; x++) {
        bool seen = false;
        for (size_t y = 0; y < ncands && !seen; y++)
            seen = cands[y] == it[x].cls;
        if (!seen && nonterminal_kind(S, it[x].cls))
            cands[ncands++] = it[x].cls;
    }
    for (uint32_t c = 0; c < S->ncls && !ncands; c++)
        if (find(S, c) == c && S->cls[c].spans)
            cands[ncands++] = c;
    for (size_t x = 0; x < ncands && !taken && !S->stopped; x++) {
        uint32_t c = cands[x];
        if (after_own(S, s, i, c))
            continue;
        uint32_t *key;
        size_t nkey = key_of_items(it, n, NULL, 0, &key);
        struct tried *t = tried_find(S, c, key, nkey);
        if (t) {
            free(key);
            if (t->accepted && holds(S, s, it, n, from, t->sub)) {
                add_span(S, s, i, j, c);
                memcpy(S->spans[S->nspans - 1].sub, t->sub, sizeof t->sub);
                taken = true;
            }
            continue;
        }
        size_t clen;
        const char *ctext = cls_text(S, c, &clen);
        size_t nocc;
        struct occ *o = occurrences(S, c, s, from, to, &nocc);
        size_t nin = 0;
        replaced(S, s, from, to, ctext, clen, &in[nin++]);
        size_t npick = pick(o, nocc, S->o->contexts);
        for (size_t k = 0; k < npick; k++)
            replaced(S, o[k].s, o[k].from, o[k].to, text, to - from, &in[nin++]);
        /* the span with another text of a class among its items, where the
         * span itself was asked (in its place and in the first other
         * context): "+2" is no value for "*" in the class of "+" */
        size_t nvar = 0;
        for (size_t q = 0; q < n && nvar < MAX_VARIANTS; q++) {
            if (separators(S, it[q].cls) && n <= MAX_SUB)
                continue; /* its texts are asked one by one below */
            struct strbuf alt = STRBUF_INIT;
            other_text(S, it[q].cls, s, it[q].from, it[q].to, &alt);
            bool same = alt.len == it[q].to - it[q].from &&
                        memcmp(alt.data, S->smp[s].text + it[q].from, alt.len) == 0;
            if (!same) {
                struct strbuf var = STRBUF_INIT;
                strbuf_add(&var, text, it[q].from - from);
                strbuf_add(&var, alt.data, alt.len);
                strbuf_add(&var, S->smp[s].text + it[q].to, to - it[q].to);
                replaced(S, s, from, to, var.data, var.len, &in[nin++]);
                if (npick)
                    replaced(S, o[0].s, o[0].from, o[0].to, var.data, var.len, &in[nin++]);
                strbuf_free(&var);
                nvar++;
            }
            strbuf_free(&alt);
        }
        struct occ o0 = npick ? o[0] : (struct occ){0, 0, 0, 0};
        free(o);
        strbuf_addstr(&S->block, "structure: recursion: ");
        label(text, to - from, &S->block);
        strbuf_addf(&S->block, " (%s) in the class of ", S->smp[s].name);
        label(ctext, clen, &S->block);
        strbuf_addch(&S->block, '\n');
        enum outcome out = ask_all(S, in, nin);
        conclude(S, out, "an alternative of the class");
        if (out == STOPPED) {
            free(key);
            break;
        }
        struct strbuf subnote = STRBUF_INIT;
        struct sub sub[MAX_SUB] = {{0, 0}};
        if (out == ACCEPTED)
            out = ask_texts(S, s, it, n, from, to, npick ? &o0 : NULL, sub, in, &subnote);
        if (out == STOPPED) {
            strbuf_free(&subnote);
            free(key);
            break;
        }
        tried_add(S, c, key, nkey, out == ACCEPTED);
        memcpy(S->tried[S->ntried - 1].sub, sub, sizeof sub);
        if (out != ACCEPTED) {
            strbuf_free(&subnote);
            continue;
        }
        add_span(S, s, i, j, c);
        memcpy(S->spans[S->nspans - 1].sub, sub, sizeof sub);
        S->cls[c].spans = true;
        S->res->recursions++;
        taken = true;
        struct strbuf *note = &S->cls[c].note;
        strbuf_addstr(note, "recursion: ");
        label(text, to - from, note);
        strbuf_addf(note, " (%s) replaces ", S->smp[s].name);
        label(ctext, clen, note);
        strbuf_addstr(note, " and its class in other contexts: accepted ");
        add_numbers(S, note);
        strbuf_addch(note, '\n');
        strbuf_add(note, subnote.data, subnote.len);
        strbuf_free(&subnote);
    }
    free(cands);
    free(it);
    return taken;
}

static void find_recursion(struct st *S)
{
    struct strbuf *in = xcalloc((size_t)S->o->contexts + 1 + 2 * MAX_VARIANTS, sizeof *in);
    /* whole samples first: their contexts are the strictest */
    for (size_t s = 0; s < S->ns; s++)
        if (S->stopped || !try_span(S, s, 0, S->smp[s].n, in))
            add_span(S, s, 0, S->smp[s].n, CLS_ROOT);
    size_t longest = 0;
    for (size_t s = 0; s < S->ns; s++)
        longest = S->smp[s].n > longest ? S->smp[s].n : longest;
    size_t max = S->o->max_span < longest ? S->o->max_span : longest;
    for (size_t len = 2; len <= max && !S->stopped; len++)
        for (size_t s = 0; s < S->ns && !S->stopped; s++)
            for (size_t i = 0; i + len <= S->smp[s].n && !S->stopped; i++) {
                if (len == S->smp[s].n)
                    continue;
                bool known = false;
                for (size_t k = S->smp[s].head[i]; k != SIZE_MAX && !known;
                     k = S->spans[k].next)
                    known = S->spans[k].j == i + len;
                if (!known)
                    try_span(S, s, i, i + len, in);
            }
    for (size_t i = 0; i < (size_t)S->o->contexts + 1 + 2 * MAX_VARIANTS; i++)
        strbuf_free(&in[i]);
    free(in);
}

/* ---- 2b. inclusion ----------------------------------------------------------- */

/* The number of tokens that are texts of class c. */
static size_t members(struct st *S, uint32_t c)
{
    size_t n = 0;
    for (size_t s = 0; s < S->ns; s++)
        for (size_t t = 0; t < S->smp[s].n; t++)
            n += find(S, S->smp[s].t[t].cls) == c;
    return n;
}

static bool includes(struct st *S, uint32_t a, uint32_t b)
{
    for (uint32_t k = 0; k < S->cls[a].nincl; k++)
        if (find(S, S->cls[a].incl[k]) == b)
            return true;
    return false;
}

/* Class b inside class a (a JSON string among the values, while a key is
 * a string and no value): up to `contexts` occurrences of a get b's texts
 * in turn, each its own query; all yes makes b an alternative of a.  Then
 * each token of b is asked with a's texts (its representative and its
 * shortest span) in its place: all yes, the token stands for a there, so
 * ["x",1] is "[" value "," value "]", not "[" string "," value "]". */
static void include(struct st *S)
{
    struct strbuf *in = xcalloc((size_t)S->o->contexts + 2, sizeof *in);
    struct strbuf text = STRBUF_INIT;
    for (uint32_t a = 0; a < S->ncls && !S->stopped; a++) {
        if (find(S, a) != a || !S->cls[a].spans)
            continue;
        for (uint32_t b = 0; b < S->ncls && !S->stopped && S->cls[a].nincl < MAX_INCL; b++) {
            if (b == a || find(S, b) != b || !nonterminal_kind(S, b) || includes(S, a, b) ||
                includes(S, b, a) || !members(S, b))
                continue;
            size_t nocc;
            struct occ *o = occurrences(S, a, SIZE_MAX, 0, 0, &nocc);
            size_t npick = pick(o, nocc, S->o->contexts), nin = 0;
            /* b's texts in turn: its tokens' distinct texts */
            size_t nb = 0, *bsm = xmalloc(npick * sizeof *bsm + 1), *btk = xmalloc(npick * sizeof *btk + 1);
            for (size_t x = 0; x < S->ns && nb < npick; x++)
                for (size_t t = 0; t < S->smp[x].n && nb < npick; t++) {
                    uint32_t c = S->smp[x].t[t].cls;
                    if (find(S, c) == b && S->cls[c].s == x && S->cls[c].ti == t) {
                        bsm[nb] = x;
                        btk[nb++] = t;
                    }
                }
            for (size_t k = 0; k < npick && nb; k++) {
                size_t len;
                const char *t = tok_text(S, bsm[k % nb], btk[k % nb], &len);
                replaced(S, o[k].s, o[k].from, o[k].to, t, len, &in[nin++]);
            }
            free(bsm);
            free(btk);
            free(o);
            if (!nin)
                continue;
            size_t alen, blen;
            const char *at = cls_text(S, a, &alen), *btext = cls_text(S, b, &blen);
            strbuf_addstr(&S->block, "structure: inclusion: the class of ");
            label(btext, blen, &S->block);
            strbuf_addstr(&S->block, " where the class of ");
            label(at, alen, &S->block);
            strbuf_addstr(&S->block, " is\n");
            enum outcome out = ask_all(S, in, nin);
            conclude(S, out, "an alternative of the class");
            if (out != ACCEPTED)
                continue;
            S->cls[a].incl[S->cls[a].nincl++] = b;
            S->res->classes++;
            struct strbuf *note = &S->cls[a].note;
            strbuf_addstr(note, "inclusion: the class of ");
            label(btext, blen, note);
            strbuf_addstr(note, " where the class of ");
            label(at, alen, note);
            strbuf_addstr(note, " is: accepted ");
            add_numbers(S, note);
            strbuf_addch(note, '\n');
            /* its tokens standing for a: a's text and its shortest span's */
            strbuf_reset(&text);
            other_text(S, a, S->cls[a].s, 0, 0, &text);
            for (size_t s = 0; s < S->ns && !S->stopped; s++)
                for (size_t t = 0; t < S->smp[s].n && !S->stopped; t++) {
                    struct tok *tk = &S->smp[s].t[t];
                    if (find(S, tk->cls) != b || tk->up != UINT32_MAX)
                        continue;
                    replaced(S, s, tk->from, tk->to, at, alen, &in[0]);
                    replaced(S, s, tk->from, tk->to, text.data, text.len, &in[1]);
                    strbuf_addstr(&S->block, "structure: inclusion: ");
                    label(S->smp[s].text + tk->from, tk->to - tk->from, &S->block);
                    strbuf_addf(&S->block, " (%s, byte %zu) as the class of ", S->smp[s].name,
                                tk->from);
                    label(at, alen, &S->block);
                    strbuf_addch(&S->block, '\n');
                    out = ask_all(S, in, 2);
                    conclude(S, out, "stands for the class");
                    if (out != ACCEPTED)
                        continue;
                    tk->up = a;
                    strbuf_addstr(note, "inclusion: ");
                    label(S->smp[s].text + tk->from, tk->to - tk->from, note);
                    strbuf_addf(note, " (%s, byte %zu) stands for the class: accepted ",
                                S->smp[s].name, tk->from);
                    add_numbers(S, note);
                    strbuf_addch(note, '\n');
                }
        }
    }
    strbuf_free(&text);
    for (size_t i = 0; i < (size_t)S->o->contexts + 2; i++)
        strbuf_free(&in[i]);
    free(in);
}

/* ---- 3. repetitions ---------------------------------------------------------- */

/* Another text of class c than [from, to) of sample s: a member token's,
 * else the shortest accepted span's; the same text when there is none. */
static void other_text(const struct st *S, uint32_t c, size_t s, size_t from, size_t to,
                       struct strbuf *out)
{
    const char *own = S->smp[s].text + from;
    size_t olen = to - from;
    for (size_t x = 0; x < S->ns; x++)
        for (size_t t = 0; t < S->smp[x].n; t++) {
            if (find((struct st *)S, S->smp[x].t[t].cls) != c)
                continue;
            size_t len;
            const char *text = tok_text(S, x, t, &len);
            if (len != olen || memcmp(text, own, len) != 0) {
                strbuf_add(out, text, len);
                return;
            }
        }
    const struct span *best = NULL;
    size_t blen = 0;
    for (size_t k = 0; k < S->nspans; k++) {
        const struct span *p = &S->spans[k];
        if (p->cls == CLS_ROOT || find((struct st *)S, p->cls) != c)
            continue;
        size_t f = S->smp[p->s].t[p->i].from, len = S->smp[p->s].t[p->j - 1].to - f;
        if ((len != olen || memcmp(S->smp[p->s].text + f, own, len) != 0) &&
            (!best || len < blen)) {
            best = p;
            blen = len;
        }
    }
    if (best)
        strbuf_add(out, S->smp[best->s].text + S->smp[best->s].t[best->i].from, blen);
    else
        strbuf_add(out, own, olen);
}

static bool same_items(const struct item *it, size_t a, size_t b, size_t len)
{
    for (size_t q = 0; q < len; q++)
        if (it[a + q].cls != it[b + q].cls)
            return false;
    return true;
}

static void try_groups(struct st *S, struct span *p, struct strbuf *in)
{
    struct item *it;
    size_t n = span_pattern(S, p, &it);
    const struct smp *m = &S->smp[p->s];
    bool *covered = xcalloc(n ? n : 1, sizeof *covered);
    struct strbuf copy = STRBUF_INIT;
    for (size_t len = 1; len <= S->o->max_group && len < n && !S->stopped; len++)
        for (size_t at = 0; at + len <= n && p->ng < MAX_GROUPS && !S->stopped; at++) {
            bool busy = false;
            for (size_t q = at; q < at + len; q++)
                busy = busy || covered[q];
            if (busy)
                continue;
            size_t from = it[at].from, to = it[at + len - 1].to;
            strbuf_reset(&copy);
            for (size_t q = at; q < at + len; q++) {
                /* another text of its class, so the whole class is asked */
                if (it[q].sub)
                    strbuf_add(&copy, m->text + it[q].from, it[q].to - it[q].from);
                else
                    other_text(S, it[q].cls, p->s, it[q].from, it[q].to, &copy);
                /* what lies between items (nothing: items are adjacent) */
            }
            /* a copy that would run into the group as one word says nothing */
            if (copy.len && kind_of((unsigned char)m->text[to - 1]) == K_WORD &&
                kind_of((unsigned char)copy.data[0]) == K_WORD)
                continue;
            if (copy.len && kind_of((unsigned char)copy.data[copy.len - 1]) == K_WORD &&
                kind_of((unsigned char)m->text[from]) == K_WORD)
                continue;
            /* twice: the group, then its copy; three times: group, copy, group */
            for (int k = 0; k < 2; k++) {
                strbuf_reset(&in[k]);
                strbuf_add(&in[k], m->text, to);
                strbuf_add(&in[k], copy.data, copy.len);
                if (k)
                    strbuf_add(&in[k], m->text + from, to - from);
                strbuf_add(&in[k], m->text + to, m->len - to);
            }
            strbuf_addstr(&S->block, "structure: repetition: ");
            label(m->text + from, to - from, &S->block);
            strbuf_addf(&S->block, " (%s) twice and three times\n", m->name);
            enum outcome out = ask_all(S, in, 2);
            conclude(S, out, "a repetition");
            if (out != ACCEPTED)
                continue;
            uint32_t reps = 1;
            while (at + (size_t)len * (reps + 1) <= n &&
                   same_items(it, at, at + (size_t)len * reps, len))
                reps++;
            struct group grp = {(uint32_t)at, (uint32_t)len, reps};
            if (reps > 1) {
                /* the sample had it more than once: once must hold too for
                 * (group)+, else the first stays as it is, (group)+ after it */
                size_t end = it[at + (size_t)len * reps - 1].to;
                strbuf_reset(&in[0]);
                strbuf_add(&in[0], m->text, to);
                strbuf_add(&in[0], m->text + end, m->len - end);
                strbuf_addstr(&S->block, "structure: repetition: once\n");
                size_t before = S->nnumbers;
                size_t *keep = xmalloc((before ? before : 1) * sizeof *keep);
                enum membership_answer *kept = xmalloc((before ? before : 1) * sizeof *kept);
                memcpy(keep, S->numbers, before * sizeof *keep);
                memcpy(kept, S->answers, before * sizeof *kept);
                enum outcome once = ask_all(S, in, 1);
                conclude(S, once, "(group)+");
                if (once == ACCEPTED) {
                    keep = xrealloc(keep, (before + 1) * sizeof *keep);
                    keep[before++] = S->numbers[0];
                } else {
                    grp = (struct group){(uint32_t)(at + len), (uint32_t)len, reps - 1};
                }
                S->numbers = xgrow(S->numbers, &S->numbers_cap, before, sizeof *S->numbers);
                S->answers = xrealloc(S->answers, S->numbers_cap * sizeof *S->answers);
                memcpy(S->numbers, keep, before * sizeof *keep);
                memcpy(S->answers, kept, (once == ACCEPTED ? before - 1 : before) * sizeof *kept);
                S->nnumbers = before;
                free(keep);
                free(kept);
                if (once == STOPPED)
                    continue;
            }
            p->g[p->ng++] = grp;
            for (size_t q = at; q < at + (size_t)len * reps; q++)
                covered[q] = true;
            S->res->repetitions++;
            uint32_t owner = p->cls == CLS_ROOT ? UINT32_MAX : find(S, p->cls);
            if (owner != UINT32_MAX) {
                struct strbuf *note = &S->cls[owner].note;
                strbuf_addstr(note, "repetition: ");
                label(m->text + from, to - from, note);
                strbuf_addf(note, " (%s) twice and three times: accepted ", m->name);
                add_numbers(S, note);
                strbuf_addch(note, '\n');
            }
        }
    strbuf_free(&copy);
    free(covered);
    free(it);
}

static void find_repetitions(struct st *S, struct strbuf *start_note)
{
    struct strbuf in[2] = {STRBUF_INIT, STRBUF_INIT};
    for (size_t k = 0; k < S->nspans && !S->stopped; k++) {
        struct span *p = &S->spans[k];
        /* one try per pattern: a span with the pattern of one tried takes its groups */
        struct item *it;
        size_t n = span_pattern(S, p, &it);
        uint32_t *key;
        size_t nkey = key_of_items(it, n, NULL, 0, &key);
        free(it);
        uint32_t c = p->cls == CLS_ROOT ? CLS_ROOT : find(S, p->cls);
        const struct span *twin = NULL;
        for (size_t x = 0; x < k && !twin; x++) {
            const struct span *q = &S->spans[x];
            uint32_t qc = q->cls == CLS_ROOT ? CLS_ROOT : find(S, q->cls);
            if (qc != c || !q->grouped)
                continue;
            struct item *qi;
            size_t qn = span_pattern(S, q, &qi);
            uint32_t *qkey;
            size_t nq = key_of_items(qi, qn, NULL, 0, &qkey);
            if (nq == nkey && memcmp(qkey, key, nkey * sizeof *key) == 0)
                twin = q;
            free(qkey);
            free(qi);
        }
        free(key);
        if (twin) {
            memcpy(p->g, twin->g, sizeof p->g);
            p->ng = twin->ng;
        } else {
            size_t before = S->res->repetitions;
            try_groups(S, p, in);
            if (p->cls == CLS_ROOT && S->res->repetitions > before) {
                strbuf_addf(start_note, "repetition in %s: accepted ", S->smp[p->s].name);
                add_numbers(S, start_note);
                strbuf_addch(start_note, '\n');
            }
        }
        p->grouped = true;
    }
    strbuf_free(&in[0]);
    strbuf_free(&in[1]);
}

/* ---- the grammar ------------------------------------------------------------- */

struct out {
    struct grammar *g;
    char **names; /* per class: its rule's name, or NULL */
    bool *used;
    uint32_t *queue;
    size_t nqueue;
    bool ws; /* the rule ws is referred to */
    const struct st *st;
    bool chars; /* the rule chars is referred to */
};

static bool is_rule(struct st *S, uint32_t c)
{
    if (S->cls[c].spans || S->cls[c].nincl)
        return true;
    for (size_t s = 0; s < S->ns; s++)
        for (size_t t = 0; t < S->smp[s].n; t++) {
            uint32_t x = S->smp[s].t[t].cls;
            if (find(S, x) == c && x != c)
                return true;
        }
    return false;
}

/* A token's text: a string as its quotes and its contents apart, so
 * generalize widens the contents ("a" to [a-z]+) and keeps the quotes. */
static struct expr *text_expr(struct out *O, enum kind k, const char *text, size_t len)
{
    struct src_pos none = {0, 0};
    if (k == K_STRING && O->st->chars) {
        O->chars = true;
        struct expr *chars = gb_ref(O->g, "chars", 5, none, none);
        if (O->st->empty)
            chars = gb_quant(O->g, chars, 0, 1, none, none);
        struct expr *parts[3] = {gb_lit(O->g, "\"", 1, none, none), chars,
                                 gb_lit(O->g, "\"", 1, none, none)};
        return gb_seq(O->g, parts, 3, none, none);
    }
    if (k != K_STRING || len < 3)
        return gb_lit(O->g, text, len, none, none);
    struct expr *parts[3] = {gb_lit(O->g, text, 1, none, none),
                             gb_lit(O->g, text + 1, len - 2, none, none),
                             gb_lit(O->g, text + len - 1, 1, none, none)};
    return gb_seq(O->g, parts, 3, none, none);
}

static struct expr *item_expr(struct st *S, struct out *O, const struct item *it)
{
    struct src_pos none = {0, 0};
    if (it->sub) {
        uint32_t texts[MAX_TEXTS];
        size_t nt = class_texts(S, it->cls, texts);
        struct expr_list alts = {0};
        for (size_t k = 0; k < nt; k++)
            if (it->sub & (1u << k)) {
                size_t len;
                const char *text = cls_text(S, texts[k], &len);
                expr_list_push(&alts, text_expr(O, S->cls[texts[k]].kind, text, len));
            }
        struct expr *e = gb_alt(O->g, alts.items, alts.len, NULL, none, none);
        expr_list_free(&alts);
        return e;
    }
    if (O->names[it->cls]) {
        if (!O->used[it->cls]) {
            O->used[it->cls] = true;
            O->queue[O->nqueue++] = it->cls;
        }
        return gb_ref(O->g, O->names[it->cls], strlen(O->names[it->cls]), none, none);
    }
    size_t len;
    const char *text = cls_text(S, it->cls, &len);
    return text_expr(O, S->cls[it->cls].kind, text, len);
}

/* Blanks may stand at byte `at` of sample s (see learn_blanks). */
static bool blank_at(const struct st *S, size_t s, size_t at)
{
    return S->smp[s].blank && at <= S->smp[s].len && S->smp[s].blank[at];
}

static struct expr *ws_expr(struct out *O)
{
    struct src_pos none = {0, 0};
    O->ws = true;
    return gb_ref(O->g, "ws", 2, none, none);
}

/* A span's items, blanks (a reference to ws) after each item where the
 * sample may have them inside the span, and at its edges for a whole
 * sample; in a repetition, blanks after its last item stand between its
 * copies and after the last one. */
static struct expr *span_expr(struct st *S, struct out *O, const struct span *p)
{
    struct src_pos none = {0, 0};
    struct item *it;
    size_t n = span_pattern(S, p, &it);
    struct expr_list items = {0};
    bool whole = p->cls == CLS_ROOT;
    size_t end = p->j > p->i ? S->smp[p->s].t[p->j - 1].to : 0;
    if (whole && n && blank_at(S, p->s, it[0].from))
        expr_list_push(&items, ws_expr(O));
    for (size_t q = 0; q < n;) {
        const struct group *g = NULL;
        for (uint32_t x = 0; x < p->ng; x++)
            if (p->g[x].at == q)
                g = &p->g[x];
        if (g) {
            struct expr_list in = {0};
            bool trailing = false;
            for (uint32_t k = 0; k < g->len; k++) {
                expr_list_push(&in, item_expr(S, O, &it[q + k]));
                size_t after = it[q + k].to;
                if (after < end && blank_at(S, p->s, after)) {
                    expr_list_push(&in, ws_expr(O));
                    trailing = k + 1 == g->len;
                }
            }
            struct expr *seq = gb_seq(O->g, in.items, in.len, none, none);
            expr_list_push(&items, gb_quant(O->g, seq, 1, QUANT_INFINITE, none, none));
            expr_list_free(&in);
            q += (size_t)g->len * g->reps;
            size_t after = it[q - 1].to;
            if (!trailing && after < end && blank_at(S, p->s, after))
                expr_list_push(&items, ws_expr(O));
        } else {
            expr_list_push(&items, item_expr(S, O, &it[q]));
            size_t after = it[q++].to;
            if (after < end && blank_at(S, p->s, after))
                expr_list_push(&items, ws_expr(O));
        }
    }
    if (whole && n && blank_at(S, p->s, end))
        expr_list_push(&items, ws_expr(O));
    struct expr *e = gb_seq(O->g, items.items, items.len, none, none);
    expr_list_free(&items);
    free(it);
    return e;
}

static void span_key(struct st *S, const struct span *p, uint32_t **key, size_t *n)
{
    struct item *it;
    size_t ni = span_pattern(S, p, &it);
    *n = key_of_items(it, ni, p->g, p->ng, key);
    free(it);
}

/* Alternatives of span patterns of class c (CLS_ROOT: the samples in no
 * class), each pattern once. */
static void span_alts(struct st *S, struct out *O, uint32_t c, struct expr_list *alts)
{
    uint32_t **keys = NULL;
    size_t *nkeys = NULL, nk = 0, cap = 0, cap2 = 0;
    for (size_t k = 0; k < S->nspans; k++) {
        const struct span *p = &S->spans[k];
        uint32_t pc = p->cls == CLS_ROOT ? CLS_ROOT : find(S, p->cls);
        if (pc != c)
            continue;
        uint32_t *key;
        size_t n;
        span_key(S, p, &key, &n);
        bool seen = false;
        for (size_t x = 0; x < nk && !seen; x++)
            seen = nkeys[x] == n && memcmp(keys[x], key, n * sizeof *key) == 0;
        if (seen) {
            free(key);
            continue;
        }
        keys = xgrow(keys, &cap, nk + 1, sizeof *keys);
        nkeys = xgrow(nkeys, &cap2, nk + 1, sizeof *nkeys);
        keys[nk] = key;
        nkeys[nk++] = n;
        expr_list_push(alts, span_expr(S, O, p));
    }
    for (size_t x = 0; x < nk; x++)
        free(keys[x]);
    free(keys);
    free(nkeys);
}

static void set_note(struct structure_result *res, uint32_t rule, const struct strbuf *text)
{
    if (!text->len)
        return;
    if (rule >= res->nnotes) {
        res->notes = xrealloc(res->notes, ((size_t)rule + 1) * sizeof *res->notes);
        for (uint32_t i = res->nnotes; i <= rule; i++)
            res->notes[i] = NULL;
        res->nnotes = rule + 1;
    }
    free(res->notes[rule]);
    /* without the last newline */
    res->notes[rule] = xmalloc(text->len);
    memcpy(res->notes[rule], text->data, text->len - 1);
    res->notes[rule][text->len - 1] = '\0';
}

/* A sequence whose items include a reference to `name` (an input rule's
 * "ws value ws"). */
static bool seen_ref(const struct expr *e, const char *name)
{
    if (e->kind != EXPR_CAT)
        return false;
    for (uint32_t i = 0; i < e->nchildren; i++)
        if (e->children[i]->kind == EXPR_REF && strcmp(e->children[i]->u.ref.name, name) == 0)
            return true;
    return false;
}

static struct grammar *build(struct st *S, const char *file, struct strbuf *start_note)
{
    struct src_pos none = {0, 0};
    struct out O = {grammar_new(file), xcalloc(S->ncls, sizeof(char *)),
                    xcalloc(S->ncls, sizeof(bool)), xcalloc(S->ncls, sizeof(uint32_t)), 0, false,
                    S, false};
    unsigned nvalue = 0, nword = 0, nsym = 0, nstring = 0;
    for (uint32_t c = 0; c < S->ncls; c++) {
        if (find(S, c) != c || !is_rule(S, c))
            continue;
        struct strbuf name = STRBUF_INIT;
        enum kind k = S->cls[c].kind;
        unsigned *count = S->cls[c].spans ? &nvalue : k == K_WORD ? &nword
                          : k == K_STRING ? &nstring : &nsym;
        const char *base = S->cls[c].spans ? "value" : k == K_WORD ? "word"
                           : k == K_STRING ? "string" : "symbol";
        if ((*count)++)
            strbuf_addf(&name, "%s%u", base, *count);
        else
            strbuf_addstr(&name, base);
        O.names[c] = strbuf_detach(&name, NULL);
    }
    uint32_t start = gb_add_rule(O.g, "input", none, gb_lit(O.g, "", 0, none, none));
    struct expr_list alts = {0};
    for (size_t s = 0; s < S->ns; s++) {
        /* a sample in a class: that class */
        uint32_t c = CLS_ROOT;
        for (size_t k = 0; k < S->nspans && c == CLS_ROOT; k++)
            if (S->spans[k].s == s && S->spans[k].i == 0 && S->spans[k].j == S->smp[s].n &&
                S->spans[k].cls != CLS_ROOT)
                c = find(S, S->spans[k].cls);
        if (c == CLS_ROOT || !O.names[c])
            continue;
        bool seen = false;
        for (size_t a = 0; a < alts.len && !seen; a++)
            seen = (alts.items[a]->kind == EXPR_REF &&
                    strcmp(alts.items[a]->u.ref.name, O.names[c]) == 0) ||
                   seen_ref(alts.items[a], O.names[c]);
        if (!seen) {
            struct item it = {c, 0, 0, 0};
            struct expr *parts[3];
            size_t np = 0;
            if (blank_at(S, s, 0))
                parts[np++] = ws_expr(&O);
            parts[np++] = item_expr(S, &O, &it);
            if (blank_at(S, s, S->smp[s].len))
                parts[np++] = ws_expr(&O);
            expr_list_push(&alts, gb_seq(O.g, parts, np, none, none));
        }
    }
    span_alts(S, &O, CLS_ROOT, &alts);
    if (!alts.len)
        expr_list_push(&alts, gb_lit(O.g, "", 0, none, none));
    O.g->rules[start].rhs = gb_alt(O.g, alts.items, alts.len, NULL, none, none);
    alts.len = 0;
    set_note(S->res, start, start_note);
    for (size_t q = 0; q < O.nqueue; q++) {
        uint32_t c = O.queue[q];
        /* its token texts, each once, in the order seen */
        unsigned once = 0;
        for (size_t s = 0; s < S->ns; s++)
            for (size_t t = 0; t < S->smp[s].n; t++) {
                uint32_t x = S->smp[s].t[t].cls;
                if (find(S, x) != c || S->cls[x].s != s || S->cls[x].ti != t)
                    continue;
                size_t len;
                const char *text = tok_text(S, s, t, &len);
                if (S->cls[c].kind == K_STRING && S->chars && once++)
                    continue; /* one alternative holds them all */
                expr_list_push(&alts, text_expr(&O, S->cls[c].kind, text, len));
            }
        span_alts(S, &O, c, &alts);
        for (uint32_t k = 0; k < S->cls[c].nincl; k++) {
            struct item it = {find(S, S->cls[c].incl[k]), 0, 0, 0};
            expr_list_push(&alts, item_expr(S, &O, &it));
        }
        uint32_t r = gb_add_rule(O.g, O.names[c], none,
                                 gb_alt(O.g, alts.items, alts.len, NULL, none, none));
        alts.len = 0;
        set_note(S->res, r, &S->cls[c].note);
    }
    if (O.chars) {
        struct expr_list parts = {0};
        expr_list_push(&parts, gb_class(O.g, S->cr, S->ncr, false, none, none));
        if (S->esc[0]) {
            struct class_range r[16];
            size_t nr = 0;
            for (const char *c = S->esc; *c; c++)
                r[nr++] = (struct class_range){(unsigned char)*c, (unsigned char)*c};
            nr = gb_normalize_ranges(r, nr);
            struct expr *e[2] = {gb_lit(O.g, "\\", 1, none, none),
                                 gb_class(O.g, r, nr, false, none, none)};
            expr_list_push(&parts, gb_seq(O.g, e, 2, none, none));
        }
        if (S->hex4) {
            struct class_range r[3] = {{'0', '9'}, {'A', 'F'}, {'a', 'f'}};
            struct expr *e[2] = {gb_lit(O.g, "\\u", 2, none, none),
                                 gb_quant(O.g, gb_class(O.g, r, 3, false, none, none), 4, 4,
                                          none, none)};
            expr_list_push(&parts, gb_seq(O.g, e, 2, none, none));
        }
        struct expr *one = gb_alt(O.g, parts.items, parts.len, NULL, none, none);
        expr_list_free(&parts);
        uint32_t r = gb_add_rule(O.g, "chars", none,
                                 gb_quant(O.g, one, 1, QUANT_INFINITE, none, none));
        set_note(S->res, r, &S->chars_note);
    }
    if (O.ws) {
        struct class_range r[8];
        size_t nr = 0;
        for (const char *c = S->blanks; *c; c++)
            r[nr++] = (struct class_range){(unsigned char)*c, (unsigned char)*c};
        nr = gb_normalize_ranges(r, nr);
        struct expr *blank = gb_class(O.g, r, nr, false, none, none);
        uint32_t w = gb_add_rule(O.g, "ws", none,
                                 gb_quant(O.g, blank, 0, QUANT_INFINITE, none, none));
        set_note(S->res, w, &S->blank_note);
    }
    expr_list_free(&alts);
    for (uint32_t c = 0; c < S->ncls; c++)
        free(O.names[c]);
    free(O.names);
    free(O.used);
    free(O.queue);
    return O.g;
}

/* ---- the whole --------------------------------------------------------------- */

void structure_options_default(struct structure_options *o)
{
    memset(o, 0, sizeof *o);
    o->max_queries = GENERALIZE_DEFAULT_MAX_QUERIES;
    o->contexts = 5;
    o->max_span = 12;
    o->max_group = 6;
}

struct grammar *structure_learn(const char *file, const struct generalize_sample *samples,
                                size_t n, const struct structure_options *o,
                                struct structure_result *res, struct diag_list *diags)
{
    memset(res, 0, sizeof *res);
    size_t errors = diags->errors;
    for (size_t s = 0; s < n; s++)
        gb_check_utf8(samples[s].name, samples[s].text, samples[s].len, diags);
    if (diags->errors != errors)
        return NULL;
    struct st S = {.o = o, .res = res, .diags = diags, .ns = n};
    S.block = (struct strbuf)STRBUF_INIT;
    S.smp = xcalloc(n ? n : 1, sizeof *S.smp);
    S.blank_note = (struct strbuf)STRBUF_INIT;
    S.chars_note = (struct strbuf)STRBUF_INIT;
    for (size_t s = 0; s < n; s++) {
        S.smp[s].name = samples[s].name;
        S.smp[s].text = samples[s].text;
        S.smp[s].len = samples[s].len;
    }
    learn_blanks(&S);
    for (size_t s = 0; s < n && !S.failed; s++) {
        cut(&S, s);
        S.smp[s].head = xmalloc((S.smp[s].n ? S.smp[s].n : 1) * sizeof *S.smp[s].head);
        for (size_t t = 0; t < S.smp[s].n; t++)
            S.smp[s].head[t] = SIZE_MAX;
    }
    struct strbuf start_note = STRBUF_INIT;
    if (!S.failed)
        learn_strings(&S);
    if (!S.failed)
        merge_classes(&S);
    if (!S.failed)
        find_recursion(&S);
    if (!S.failed)
        include(&S);
    if (!S.failed)
        find_repetitions(&S, &start_note);
    struct grammar *g = NULL;
    if (!S.failed) {
        g = build(&S, file, &start_note);
        struct grammar_options go = {.start = "input"};
        if (!grammar_finish(g, &go, diags)) {
            grammar_free(g);
            g = NULL;
        }
    }
    strbuf_free(&start_note);
    flush_block(&S);
    strbuf_free(&S.block);
    struct query *q, *tmp;
    HASH_ITER(hh, S.cache, q, tmp) {
        HASH_DEL(S.cache, q);
        free(q);
    }
    for (size_t k = 0; k < S.ntried; k++)
        free(S.tried[k].key);
    free(S.tried);
    for (size_t c = 0; c < S.ncls; c++)
        strbuf_free(&S.cls[c].note);
    free(S.cls);
    for (size_t s = 0; s < n; s++) {
        free(S.smp[s].t);
        free(S.smp[s].head);
        free(S.smp[s].own);
        free(S.smp[s].blank);
    }
    strbuf_free(&S.blank_note);
    strbuf_free(&S.chars_note);
    free(S.smp);
    free(S.spans);
    free(S.numbers);
    free(S.answers);
    if (!g)
        structure_result_free(res);
    return g;
}

void structure_result_free(struct structure_result *res)
{
    for (uint32_t i = 0; i < res->nnotes; i++)
        free(res->notes[i]);
    free(res->notes);
    res->notes = NULL;
    res->nnotes = 0;
}
