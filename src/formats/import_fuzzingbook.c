/* import_fuzzingbook: fuzzingbook grammars as kpath grammars.
 *
 * The file is the JSON a user gets with json.dump(GRAMMAR): an object whose
 * keys are nonterminals ("<expr>") and whose values are lists of expansions.
 * An expansion is a string, or a list [string, {options}] (a Python tuple in
 * JSON) whose option "prob" becomes the alternative's weight.  In a string,
 * <name> (no blanks or angle brackets inside) is a nonterminal and
 * everything else is literal text.  fuzzingbook's EBNF shorthands, as its
 * convert_ebnf_grammar reads them: <x>? <x>* <x>+, and a parenthesized group
 * without parentheses inside followed by ? * or + ("(a|<b>)*"), whose '|'
 * separates alternatives.  A '(' that does not start such a group is text.
 *
 * The start rule is "<start>" when the grammar has it, else the first key,
 * unless --start names another.  Rule names keep their angle brackets.
 * Positions: a string's diagnostics point at the string in the file, plus
 * the character offset inside it (exact when the string has no escapes);
 * lines end as in every reader (base/line_end.h).  Text that is not UTF-8
 * is refused at its first bad byte. */
#include <stdlib.h>
#include <string.h>

#include "grammar/grammar_build.h"
#include "formats/import.h"
#include "base/json_read.h"
#include "base/xalloc.h"

struct fb_import {
    struct grammar *g;
    struct diag_list *diags;
    const char *file;
    size_t errors;
};

static void fb_error(struct fb_import *im, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fb_error(struct fb_import *im, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(im->diags, DIAG_ERROR, im->file, line, col, fmt, ap);
    va_end(ap);
    im->errors++;
}

/* Length of a nonterminal "<...>" at s[i..n), or 0. */
static size_t nonterminal_at(const char *s, size_t i, size_t n)
{
    if (s[i] != '<')
        return 0;
    for (size_t j = i + 1; j < n; j++) {
        if (s[j] == '>')
            return j - i + 1;
        if (s[j] == '<' || s[j] == ' ')
            return 0;
    }
    return 0;
}

/* Length of a group "(...)q" at s[i..n) (no parentheses inside), or 0. */
static size_t group_at(const char *s, size_t i, size_t n)
{
    if (s[i] != '(')
        return 0;
    for (size_t j = i + 1; j < n; j++) {
        if (s[j] == '(')
            return 0;
        if (s[j] == ')')
            return j + 1 < n && strchr("?*+", s[j + 1]) && s[j + 1] ? j - i + 2 : 0;
    }
    return 0;
}

static struct expr *quantify(struct grammar *g, struct expr *e, char q, struct src_pos pos)
{
    return gb_quant(g, e, q == '+' ? 1 : 0, q == '?' ? 1 : QUANT_INFINITE, pos, pos);
}

/* The items of s[from..to): nonterminals, quantified nonterminals, groups
 * (only when `groups`), and literal text between them. */
static struct expr *fb_sequence(struct fb_import *im, const char *s, size_t from, size_t to,
                                bool groups, uint32_t line, uint32_t col)
{
    struct grammar *g = im->g;
    struct expr_list items = {0};
    size_t text = from;
    struct src_pos start = {line, col + (uint32_t)from};
    for (size_t i = from; i < to;) {
        size_t nt = nonterminal_at(s, i, to);
        size_t gr = groups ? group_at(s, i, to) : 0;
        if (!nt && !gr) {
            i++;
            continue;
        }
        struct src_pos at = {line, col + (uint32_t)i};
        if (i > text)
            expr_list_push(&items, gb_lit(g, s + text, i - text,
                                          (struct src_pos){line, col + (uint32_t)text}, at));
        struct expr *e;
        size_t len;
        if (nt) {
            e = gb_ref(g, s + i, nt, at, at);
            len = nt;
            if (i + nt < to && s[i + nt] && strchr("?*+", s[i + nt])) {
                e = quantify(g, e, s[i + nt], at);
                len++;
            }
        } else {
            /* (a|b)q: alternatives split at '|'. */
            struct expr_list alts = {0};
            size_t close = i + gr - 2, a = i + 1;
            for (size_t j = i + 1; j <= close; j++) {
                if (j == close || s[j] == '|') {
                    expr_list_push(&alts, fb_sequence(im, s, a, j, false, line, col));
                    a = j + 1;
                }
            }
            e = gb_alt(g, alts.items, alts.len, NULL, at, at);
            expr_list_free(&alts);
            e = quantify(g, e, s[close + 1], at);
            len = gr;
        }
        expr_list_push(&items, e);
        i += len;
        text = i;
    }
    if (to > text)
        expr_list_push(&items, gb_lit(g, s + text, to - text,
                                      (struct src_pos){line, col + (uint32_t)text},
                                      (struct src_pos){line, col + (uint32_t)to}));
    struct expr *seq = gb_seq(g, items.items, items.len, start, start);
    expr_list_free(&items);
    return seq;
}

static struct expr *fb_expansions(struct fb_import *im, const struct json_member *m)
{
    const struct json_value *list = m->value;
    if (list->type != JSON_ARRAY || list->u.array.len == 0) {
        fb_error(im, list->line, list->col,
                 "the expansions of '%s' must be a non-empty list of strings, not %s", m->key,
                 list->type == JSON_ARRAY ? "an empty list" : json_type_name(list->type));
        return NULL;
    }
    struct expr_list alts = {0};
    double *weights = xmalloc(list->u.array.len * sizeof *weights);
    bool ok = true;
    for (size_t k = 0; k < list->u.array.len; k++) {
        const struct json_value *v = list->u.array.items[k];
        weights[k] = -1;
        if (v->type == JSON_ARRAY && v->u.array.len >= 1 &&
            v->u.array.items[0]->type == JSON_STRING) {
            const struct json_value *opts = v->u.array.len > 1 ? v->u.array.items[1] : NULL;
            const struct json_value *prob = json_get(opts, "prob");
            if (prob && (prob->type != JSON_NUMBER || prob->u.number.value < 0 ||
                         prob->u.number.value > 1)) {
                fb_error(im, prob->line, prob->col, "\"prob\" must be a number from 0 to 1");
                ok = false;
            } else if (prob) {
                weights[k] = prob->u.number.value;
            }
            v = v->u.array.items[0];
        }
        if (v->type != JSON_STRING) {
            fb_error(im, v->line, v->col, "an expansion of '%s' must be a string, not %s", m->key,
                     json_type_name(v->type));
            ok = false;
            continue;
        }
        /* +1: the column after the opening quote. */
        expr_list_push(&alts, fb_sequence(im, v->u.string.data, 0, v->u.string.len, true,
                                          v->line, v->col + 1));
    }
    struct expr *e = NULL;
    if (ok && alts.len) {
        struct src_pos at = {list->line, list->col};
        e = gb_alt(im->g, alts.items, alts.len, weights, at, at);
    }
    free(weights);
    expr_list_free(&alts);
    return e;
}

struct grammar *import_fuzzingbook(const char *path, const char *text, size_t len,
                                   const struct grammar_options *opts, struct diag_list *diags)
{
    /* Text that is not UTF-8 is refused, as every reader refuses it; a lone
     * CR ends a line, as in every reader (base/line_end.h). */
    char *unified;
    if (!gb_reader_text(path, &text, len, &unified, diags))
        return NULL;
    struct fb_import im = {grammar_new(path), diags, NULL, 0};
    im.file = im.g->file;
    struct json_doc doc = {0};
    size_t errors_before = diags->errors;
    bool ok = json_parse(&doc, im.file, 1, text, len, diags);
    if (ok && doc.root->type != JSON_OBJECT) {
        fb_error(&im, doc.root->line, doc.root->col,
                 "a fuzzingbook grammar is an object of \"<name>\": [expansions], not %s",
                 json_type_name(doc.root->type));
        ok = false;
    }
    if (ok) {
        const struct json_value *root = doc.root;
        for (size_t k = 0; k < root->u.object.len; k++) {
            const struct json_member *m = &root->u.object.members[k];
            struct src_pos at = {m->value->line, m->value->col};
            struct expr *rhs = fb_expansions(&im, m);
            if (!rhs)
                continue;
            if (gb_add_rule(im.g, m->key, at, rhs) == RULE_NONE)
                fb_error(&im, at.line, at.col, "'%s' is defined twice", m->key);
        }
        ok = im.errors == 0;
    }
    if (ok) {
        struct grammar_options o = {0};
        if (opts)
            o = *opts;
        if (!o.start && im.g->nrules)
            o.start = grammar_find_rule(im.g, "<start>") != RULE_NONE ? "<start>"
                                                                      : im.g->rules[0].name;
        ok = grammar_finish(im.g, &o, diags);
    }
    json_doc_free(&doc);
    free(unified);
    if (!ok || diags->errors > errors_before) {
        grammar_free(im.g);
        return NULL;
    }
    return im.g;
}
