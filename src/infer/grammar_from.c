/* grammar_from: see grammar_from.h. */
#include "infer/grammar_from.h"

#include <stdlib.h>
#include <string.h>

#include "grammar/grammar_build.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"

enum token_kind { TOKEN_LETTERS, TOKEN_DIGITS, TOKEN_SPACE, TOKEN_OTHER };

struct token {
    enum token_kind kind;
    size_t from, to; /* bytes of the sample */
};

struct cut {
    struct token *tokens;
    size_t n, cap;
};

static enum token_kind kind_of(unsigned char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
        return TOKEN_LETTERS;
    if (c >= '0' && c <= '9')
        return TOKEN_DIGITS;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
        return TOKEN_SPACE;
    return TOKEN_OTHER;
}

/* Cut valid UTF-8 text into tokens: runs of one kind, other characters alone. */
static void cut_tokens(const char *text, size_t len, struct cut *out)
{
    for (size_t i = 0; i < len;) {
        enum token_kind k = kind_of((unsigned char)text[i]);
        size_t j = i + 1;
        if (k == TOKEN_OTHER) {
            uint32_t cp;
            size_t bytes = utf8_decode(text + i, len - i, &cp);
            j = i + (bytes ? bytes : 1);
        } else {
            while (j < len && kind_of((unsigned char)text[j]) == k)
                j++;
        }
        out->tokens = xgrow(out->tokens, &out->cap, out->n + 1, sizeof *out->tokens);
        out->tokens[out->n++] = (struct token){k, i, j};
        i = j;
    }
}

/* Same shape: the same kinds, and the same text where a token is "other". */
static bool same_shape(const struct grammar_from_sample *a, const struct cut *ca,
                       const struct grammar_from_sample *b, const struct cut *cb)
{
    if (ca->n != cb->n)
        return false;
    for (size_t i = 0; i < ca->n; i++) {
        const struct token *x = &ca->tokens[i], *y = &cb->tokens[i];
        if (x->kind != y->kind)
            return false;
        if (x->kind == TOKEN_OTHER &&
            (x->to - x->from != y->to - y->from ||
             memcmp(a->text + x->from, b->text + y->from, x->to - x->from) != 0))
            return false;
    }
    return true;
}

static void set_note(struct grammar_from_notes *notes, uint32_t rule, struct strbuf *text)
{
    if (!notes)
        return;
    if (rule >= notes->n) {
        notes->notes = xrealloc(notes->notes, ((size_t)rule + 1) * sizeof *notes->notes);
        for (uint32_t i = notes->n; i <= rule; i++)
            notes->notes[i] = NULL;
        notes->n = rule + 1;
    }
    notes->notes[rule] = strbuf_detach(text, NULL);
}

struct grammar *grammar_from_samples(const char *file, const struct grammar_from_sample *samples,
                                     size_t n, struct grammar_from_notes *notes,
                                     struct diag_list *diags)
{
    if (notes)
        memset(notes, 0, sizeof *notes);
    size_t errors = diags->errors;
    for (size_t s = 0; s < n; s++)
        gb_check_utf8(samples[s].name, samples[s].text, samples[s].len, diags);
    if (diags->errors != errors)
        return NULL;
    struct cut *cuts = xcalloc(n ? n : 1, sizeof *cuts);
    size_t *shape = xmalloc((n ? n : 1) * sizeof *shape); /* the first sample of its shape */
    for (size_t s = 0; s < n; s++) {
        cut_tokens(samples[s].text, samples[s].len, &cuts[s]);
        shape[s] = s;
        for (size_t t = 0; t < s; t++)
            if (shape[t] == t && same_shape(&samples[t], &cuts[t], &samples[s], &cuts[s])) {
                shape[s] = t;
                break;
            }
    }
    struct grammar *g = grammar_new(file);
    struct src_pos none = {0, 0};
    struct expr_list starts = {0};
    struct strbuf name = STRBUF_INIT, note = STRBUF_INIT;
    /* The start rule first, so the file reads from the top. */
    uint32_t start_rule = gb_add_rule(g, "input", none, gb_lit(g, "", 0, none, none));
    for (size_t s = 0; s < n; s++) {
        if (shape[s] != s)
            continue;
        const struct cut *c = &cuts[s];
        struct expr_list items = {0};
        strbuf_reset(&note);
        strbuf_addstr(&note, "from ");
        for (size_t t = s; t < n; t++)
            if (shape[t] == s)
                strbuf_addf(&note, "%s%s", t == s ? "" : ", ", samples[t].name);
        for (size_t i = 0; i < c->n; i++) {
            /* The texts of token i over this shape's samples, each once. */
            struct expr_list texts = {0};
            for (size_t t = s; t < n; t++) {
                if (shape[t] != s)
                    continue;
                const struct token *tok = &cuts[t].tokens[i];
                const char *text = samples[t].text + tok->from;
                size_t len = tok->to - tok->from;
                bool seen = false;
                for (size_t k = 0; k < texts.len && !seen; k++)
                    seen = texts.items[k]->u.lit.len == len &&
                           memcmp(texts.items[k]->u.lit.text, text, len) == 0;
                if (!seen)
                    expr_list_push(&texts, gb_lit(g, text, len, none, none));
            }
            expr_list_push(&items, gb_alt(g, texts.items, texts.len, NULL, none, none));
            expr_list_free(&texts);
        }
        strbuf_reset(&name);
        strbuf_addf(&name, "sample%zu", s + 1);
        uint32_t r = gb_add_rule(g, name.data, none, gb_seq(g, items.items, items.len, none, none));
        set_note(notes, r, &note);
        expr_list_push(&starts, gb_ref(g, name.data, name.len, none, none));
        expr_list_free(&items);
    }
    if (starts.len)
        g->rules[start_rule].rhs = gb_alt(g, starts.items, starts.len, NULL, none, none);
    strbuf_reset(&note);
    strbuf_addf(&note, "made by kpath grammar-from from %zu sample%s: a concrete grammar for "
                       "kpath generalize", n, n == 1 ? "" : "s");
    set_note(notes, start_rule, &note);
    expr_list_free(&starts);
    strbuf_free(&name);
    strbuf_free(&note);
    for (size_t s = 0; s < n; s++)
        free(cuts[s].tokens);
    free(cuts);
    free(shape);
    struct grammar_options go = {.start = "input"};
    if (!grammar_finish(g, &go, diags)) {
        grammar_free(g);
        grammar_from_notes_free(notes);
        return NULL;
    }
    return g;
}

void grammar_from_notes_free(struct grammar_from_notes *notes)
{
    if (!notes)
        return;
    for (uint32_t i = 0; i < notes->n; i++)
        free(notes->notes[i]);
    free(notes->notes);
    memset(notes, 0, sizeof *notes);
}
