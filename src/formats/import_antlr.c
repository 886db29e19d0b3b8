/* import_antlr: ANTLR 4 grammars (.g4) as kpath grammars.
 *
 * kpath parses character by character, so the ANTLR lexer's tokens become
 * character-level rules and the parser rules refer to them.  What it reads:
 *   - combined grammars, `parser grammar` + `lexer grammar` pairs
 *     (options { tokenVocab = L; } reads L.g4 from the same directory), and
 *     `import A, B;` (A.g4, B.g4 there too; a rule of the importing grammar
 *     wins over an imported one of the same name, as in ANTLR);
 *   - rules, fragments, literals, sets [a-z] with ANTLR's escapes, ranges
 *     'a'..'z', `~` (complement of a set, a one-character literal, a range or
 *     a parenthesized union of those, or a lexer rule that is such a set,
 *     resolved once every rule is read), `.`, ? * + and their non-greedy forms
 *     (the same language), labels (x= x+= # Label), element options <...>,
 *     arguments, returns, locals, throws, exception handlers (skipped);
 *   - actions and semantic predicates: ignored, one warning with their count;
 *   - options { caseInsensitive = true; } for the grammar or a rule: each
 *     ASCII letter of a literal becomes a class of both cases, sets get both;
 *   - lexer commands: skip and channel(...) (not DEFAULT_TOKEN_CHANNEL) make the token a
 *     "skip token" (one that changes the mode: see skip_back_rule);
 *     `more` joins the token's text to the token it leads to (see
 *     join_more_tokens); pushMode(X), mode(X) and popMode say which mode
 *     the lexer is in after the token (skip tokens per mode, below); type
 *     and others: a warning naming the rule and line (ignored).  `mode
 *     NAME;`: a warning, its tokens are rules like the others (whatever the
 *     mode where a parser rule names them).  \p{...} and \P{...} in sets:
 *     the Unicode property's characters (base/unicode_props.h); an unknown
 *     name is an error.
 *   - EOF is dropped (kpath always matches the whole input).
 *
 * Skip tokens (whitespace, comments) may come between any two tokens of the
 * parser rules.  The construction: a rule `_skip := (S1 | S2 | ...)*` over
 * the skip tokens; in every parser rule a reference `_skip` follows each
 * token (a literal or a reference to a token rule), and the start rule begins
 * with `_skip` (through a rule `_start := _skip START` when the start rule is
 * itself referenced).  So between two tokens there is exactly one `_skip`,
 * and none anywhere else.  A skip token written as X+ (or X*, X?) is read as
 * X: in (X+)* a run of two blanks would be one token of two or two of one,
 * while X* reads it one way only; the star of `_skip` does the repeating.
 * With lexer modes the rule after a token holds the skip tokens of the mode
 * the lexer is in after it: `_skip` for the default mode (where the input
 * begins), `_skip_M` for mode M (see skip_rule_of and modes_after; where
 * the mode cannot be told from the token, a warning and the union).
 *
 * Positions: every expr carries the line and column of its text in the file
 * it came from; a diagnostic names that file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/grammar_build.h"
#include "grammar/grammar_file.h"
#include "grammar/lexer.h"
#include "formats/import.h"
#include "base/strbuf.h"
#include "base/unicode_props.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "base/number.h"

#define MAX_NESTING 200   /* parentheses; deeper is an error, not a crash */
#define MAX_FILES 64      /* grammars one import may read */
#define START_WRAPPER GRAMMAR_START_WRAPPER

enum tk {
    T_EOF, T_ERROR, T_ID, T_STRING, T_SET, T_ACTION, T_ARG, T_INT,
    T_COLON, T_COLONCOLON, T_SEMI, T_PIPE, T_LPAREN, T_RPAREN, T_QUEST, T_STAR,
    T_PLUS, T_PLUS_ASSIGN, T_ASSIGN, T_TILDE, T_DOT, T_RANGE, T_ARROW, T_COMMA,
    T_POUND, T_AT, T_LT, T_GT, T_RBRACE, T_OTHER,
};

struct tok {
    enum tk kind;
    struct src_pos pos, end;
    size_t start, stop;          /* byte offsets */
    char *text;                  /* STRING: decoded (arena); ID: the name */
    size_t len;
    struct class_range *ranges;  /* SET (arena) */
    size_t nranges;
    bool negated_set;            /* SET: only for a \P{..} approximation */
};

/* A warning said alike of several rules (a lexer command kpath ignores, a
 * popMode it cannot follow, ...): said once, naming the rules, at the first
 * one's position, so that a grammar with many such rules gets one line per
 * kind, not one per rule (see warn_alike). */
struct alike_rule {
    const char *name;   /* in the grammar's arena */
    const char *file;   /* in the grammar's arena */
    struct src_pos at;
};

struct alike_warning {
    char *one;          /* the sentence for a rule alone (owned) */
    char *many;         /* for several, without count and names; the key (owned) */
    struct alike_rule *rules; /* owned */
    size_t nrules, rules_cap;
};

/* What the importer knows about each rule beyond the grammar (parallel to
 * grammar.rules while importing). */
struct rule_info {
    bool lexer, fragment, skip;
    bool main_file;   /* defined in the file given, not an imported one */
    bool more;        /* -> more: its text leads into the next token's */
    const char *mode; /* the lexer mode it is defined in (NULL: default) */
    const char *enters; /* the mode its pushMode(X) or mode(X) enters */
    bool pushes;      /* enters by pushMode (popMode comes back) */
    bool pops;        /* -> popMode */
    bool warned_pop;  /* modes_after said why it cannot tell */
    bool ends_input;  /* a parser rule that names EOF: an entry point */
    const char *type; /* -> type(X): X (for the lexer, grammar/lexer.h) */
    bool mode_followed; /* a skip token whose mode change a skip rule follows */
    /* Code in a lexer rule: a predicate guards it (predicated); code comes
     * before its first element or more than once (no_alias: no parser
     * literal names it, as ANTLR aliases only `'x'`, `'x' {code}` and
     * `'x' {pred}?`, commands allowed). */
    bool predicated, no_alias;
};

/* A name declared in `tokens { ... }`: a token type with no rule, which
 * the grammar's actions emit (Python's INDENT and DEDENT). */
struct declared_token {
    const char *name;   /* in the grammar's arena */
    const char *file;   /* in the grammar's arena */
    struct src_pos at;
};

struct importer {
    struct grammar *g;
    struct diag_list *diags;
    const struct grammar_options *opts;
    struct rule_info *info;
    size_t info_cap;
    char *dir;                   /* of the main file, with '/' (or "") */
    char **loaded;               /* grammar names read so far */
    size_t nloaded;
    char **pending;              /* grammar names to read (imports, vocab) */
    size_t npending, pending_cap;
    struct src_pos *pending_pos; /* where each was named, and in which file */
    const char **pending_file;
    struct declared_token *declared; /* tokens { A, B } */
    size_t ndeclared, declared_cap;
    size_t actions, predicates;
    struct src_pos first_action;
    const char *first_action_file;
    struct alike_rule *code_at;  /* where each predicate and action is (name: which) */
    size_t ncode_at, code_at_cap;
    struct expr **any_tokens;    /* '.' or '~' in parser rules: ALTs to fill */
    char ***any_excluded;        /* per any_tokens: NULL-ended names left out */
    size_t nany, any_cap, any_excluded_cap;
    struct ci_literal *ci_literals; /* CATs that are one case-insensitive literal */
    size_t nci, ci_cap;
    struct not_rule *not_rules;  /* ~RULE in lexer rules, resolved at the end */
    size_t nnot_rules, not_rules_cap;
    const char **modes;          /* the lexer modes, [0] the default (NULL) */
    size_t nmodes, modes_cap;
    struct src_pos skip_at;      /* where the skip rules say they are from */
    const struct expr **eofs;    /* followed by EOF in a lexer rule (lexer_spec.eofs) */
    size_t neofs, eofs_cap;
    const struct expr **lazies;  /* non-greedy quantifiers in lexer rules (lexer_spec.lazies) */
    size_t nlazies, lazies_cap;
    struct alike_warning *alike; /* see warn_alike */
    size_t nalike, alike_cap;
};

/* A literal of a case-insensitive grammar (or rule) that holds a letter:
 * a CAT of classes [Xx] and literals, and the text as written. */
struct ci_literal {
    struct expr *e;
    const char *text;            /* in the grammar's arena */
    size_t len;
};

/* A `~(... RULE ...)` in a lexer rule: the class `cls` holds the
 * complement of the sets written out; the rules named are added to it once
 * every rule is known (resolve_not_rules). */
struct not_rule {
    struct expr *cls;
    char **names;                /* owned */
    size_t nnames;
    struct src_pos pos;
    const char *file;            /* in the grammar's arena */
};

struct name_list {
    char **names;
    size_t n, cap;
};

/* One file being parsed. */
struct afile {
    struct importer *im;
    const char *file;            /* in the grammar's arena */
    struct text_cursor c;
    struct tok tok, peek;
    bool has_peek;
    struct text_cursor peek_from; /* where the peeked token starts */
    bool in_lexer_rule;          /* '[' is a set, not an argument */
    bool case_insensitive;       /* the grammar's option */
    bool rule_ci;                /* the current rule's (or the grammar's) */
    bool is_main;
    bool token_option;           /* a --token definition: it replaces a rule of that name */
    uint32_t cur_rule;
    const char *cur_rule_name;
    uint32_t rule_items, rule_code; /* elements and code read in the current rule */
    bool rule_code_first, rule_predicated; /* code before any element; a predicate */
    const char *cur_mode;        /* after `mode NAME;` (arena), else NULL */
    int depth;
    bool failed_rule;
};

static void error_at(struct afile *F, struct src_pos p, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void error_at(struct afile *F, struct src_pos p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(F->im->diags, DIAG_ERROR, F->file, p.line, p.col, fmt, ap);
    va_end(ap);
}

/* A sentence formatted into a new string (the caller frees it). */
static char *sentence(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *sentence(const char *fmt, ...)
{
    struct strbuf sb = STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    strbuf_vaddf(&sb, fmt, ap);
    va_end(ap);
    return strbuf_detach(&sb, NULL);
}

/* Warns about `rule` at file:at, taking `one` (the sentence for this rule
 * alone) and `many` (the same said of several rules, to follow a count and
 * be followed by their names).  Rules with the same `many` share one
 * warning, said by say_alike_warnings when the import is done. */
static void warn_alike(struct importer *im, const char *file, struct src_pos at,
                       const char *rule, char *one, char *many)
{
    struct alike_warning *w = NULL;
    for (size_t k = 0; k < im->nalike && !w; k++)
        if (strcmp(im->alike[k].many, many) == 0)
            w = &im->alike[k];
    if (w) {
        free(one); /* said of several: `many` it is */
        free(many);
    } else {
        im->alike = xgrow(im->alike, &im->alike_cap, im->nalike + 1, sizeof *im->alike);
        w = &im->alike[im->nalike++];
        *w = (struct alike_warning){one, many, NULL, 0, 0};
    }
    w->rules = xgrow(w->rules, &w->rules_cap, w->nrules + 1, sizeof *w->rules);
    w->rules[w->nrules++] = (struct alike_rule){rule, file, at};
}

static int alike_rule_cmp(const void *pa, const void *pb)
{
    const struct alike_rule *a = pa, *b = pb;
    int c = strcmp(a->file, b->file);
    if (c)
        return c;
    if (a->at.line != b->at.line)
        return a->at.line < b->at.line ? -1 : 1;
    return a->at.col < b->at.col ? -1 : a->at.col > b->at.col;
}

#define ALIKE_NAMED 10 /* rules named in a warning said of several */

/* Each warning once, at its first rule in the file (as diag_sort orders),
 * naming the rules in the file's order: the importer meets them in the
 * order it needs them (popMode tokens where the parser rules use them). */
static void say_alike_warnings(struct importer *im)
{
    for (size_t k = 0; k < im->nalike; k++) {
        struct alike_warning *w = &im->alike[k];
        qsort(w->rules, w->nrules, sizeof *w->rules, alike_rule_cmp);
        const struct alike_rule *first = &w->rules[0];
        if (w->nrules == 1) {
            diag_add(im->diags, DIAG_WARNING, first->file, first->at.line, first->at.col, "%s",
                     w->one);
        } else {
            struct strbuf names = STRBUF_INIT;
            for (size_t i = 0; i < w->nrules && i < ALIKE_NAMED; i++)
                strbuf_addf(&names, "%s%s", i ? ", " : "", w->rules[i].name);
            if (w->nrules > ALIKE_NAMED)
                strbuf_addf(&names, " and %zu more", w->nrules - ALIKE_NAMED);
            diag_add(im->diags, DIAG_WARNING, first->file, first->at.line, first->at.col,
                     "%zu %s: %s (the first is here)", w->nrules, w->many, strbuf_str(&names));
            strbuf_free(&names);
        }
        free(w->one);
        free(w->many);
        free(w->rules);
    }
    free(im->alike);
    im->alike = NULL;
    im->nalike = im->alike_cap = 0;
}

/* ---- lexer -------------------------------------------------------------- */

static bool is_id_start(uint32_t c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c >= 0x80;
}

static bool is_id_char(uint32_t c)
{
    return is_id_start(c) || (c >= '0' && c <= '9');
}

static uint32_t peek_at(const struct text_cursor *c, size_t ahead)
{
    size_t i = c->i + ahead;
    return i < c->len ? (unsigned char)c->src[i] : 0;
}

/* Skip blanks and comments; false after an unterminated comment. */
static bool skip_blank(struct afile *F)
{
    struct text_cursor *c = &F->c;
    for (;;) {
        uint32_t ch = peek_at(c, 0);
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f') {
            text_cursor_next(c);
        } else if (ch == '/' && peek_at(c, 1) == '/') {
            while (c->i < c->len && peek_at(c, 0) != '\n')
                text_cursor_next(c);
        } else if (ch == '/' && peek_at(c, 1) == '*') {
            struct src_pos at = text_cursor_pos(c);
            text_cursor_next(c);
            text_cursor_next(c);
            while (c->i < c->len && !(peek_at(c, 0) == '*' && peek_at(c, 1) == '/'))
                text_cursor_next(c);
            if (c->i >= c->len) {
                error_at(F, at, "unterminated comment");
                return false;
            }
            text_cursor_next(c);
            text_cursor_next(c);
        } else {
            return true;
        }
    }
}

/* An escape after a backslash (already consumed) in a literal or set:
 * true with the code point; `property` is set for \p and \P (the caller
 * reads the name). */
static bool lex_escape(struct afile *F, struct src_pos at, bool in_set, uint32_t *cp,
                       int *property)
{
    struct text_cursor *c = &F->c;
    uint32_t e = text_cursor_next(c);
    *property = 0;
    switch (e) {
    case 'n': *cp = '\n'; return true;
    case 'r': *cp = '\r'; return true;
    case 't': *cp = '\t'; return true;
    case 'b': *cp = '\b'; return true;
    case 'f': *cp = '\f'; return true;
    case 'u': {
        uint32_t v = 0;
        int digits = 0;
        if (peek_at(c, 0) == '{') {
            text_cursor_next(c);
            while (number_hex_digit(peek_at(c, 0)) >= 0 && digits < 8) {
                v = v * 16 + (uint32_t)number_hex_digit(text_cursor_next(c));
                digits++;
            }
            if (peek_at(c, 0) != '}' || !digits) {
                error_at(F, at, "invalid escape '\\u{': write 1 to 6 hex digits and '}'");
                return false;
            }
            text_cursor_next(c);
        } else {
            while (digits < 4 && number_hex_digit(peek_at(c, 0)) >= 0) {
                v = v * 16 + (uint32_t)number_hex_digit(text_cursor_next(c));
                digits++;
            }
            if (digits < 4) {
                error_at(F, at, "invalid escape '\\u': write four hex digits, as in \\u00E9");
                return false;
            }
        }
        if (v > UTF8_MAX_CODEPOINT) {
            error_at(F, at, "invalid code point U+%X in escape", (unsigned)v);
            return false;
        }
        *cp = v;
        return true;
    }
    case 'p': case 'P':
        if (in_set || peek_at(c, 0) == '{') {
            *property = e == 'p' ? 1 : -1;
            return true;
        }
        break;
    case 0:
        return false;
    default:
        break;
    }
    /* \\ \' \" \] \- and any other escaped character stand for themselves. */
    *cp = e;
    return true;
}

/* The characters of a Unicode property \p{NAME} (sign > 0) or \P{NAME}
 * (sign < 0), after the 'p' (read here), from the Unicode tables (see
 * base/unicode_props.h), appended to *r; an unknown name is an error. */
static bool property_ranges(struct afile *F, struct src_pos at, int sign, struct class_range **r,
                            size_t *n, size_t *cap)
{
    struct text_cursor *c = &F->c;
    struct strbuf name = STRBUF_INIT;
    if (peek_at(c, 0) != '{') {
        error_at(F, at, "\\%c needs a property name in braces, as in \\%c{L}", sign > 0 ? 'p' : 'P',
                 sign > 0 ? 'p' : 'P');
        return false;
    }
    text_cursor_next(c);
    while (c->i < c->len && peek_at(c, 0) != '}' && peek_at(c, 0) != '\n' && peek_at(c, 0) != ']')
        strbuf_add_utf8(&name, text_cursor_next(c));
    if (peek_at(c, 0) != '}') {
        error_at(F, at, "unterminated \\%c{%s", sign > 0 ? 'p' : 'P', strbuf_str(&name));
        strbuf_free(&name);
        return false;
    }
    text_cursor_next(c);
    const uint32_t *pairs;
    size_t count;
    if (!unicode_property(strbuf_str(&name), name.len, &pairs, &count)) {
        error_at(F, at, "unknown Unicode property \\%c{%s} (kpath knows the general categories, "
                 "binary properties, scripts, blocks (In...) and Grapheme_Cluster_Break=... "
                 "of Unicode %s)", sign > 0 ? 'p' : 'P', strbuf_str(&name),
                 unicode_tables_version());
        strbuf_free(&name);
        return false;
    }
    strbuf_free(&name);
    *r = xgrow(*r, cap, *n + count + 1, sizeof **r);
    if (sign > 0) {
        for (size_t i = 0; i < count; i++)
            (*r)[(*n)++] = (struct class_range){pairs[2 * i], pairs[2 * i + 1]};
        return true;
    }
    uint32_t next = 0;   /* the complement: the gaps between the pairs */
    for (size_t i = 0; i < count; i++) {
        if (pairs[2 * i] > next)
            (*r)[(*n)++] = (struct class_range){next, pairs[2 * i] - 1};
        next = pairs[2 * i + 1] + 1;
    }
    if (next <= UTF8_MAX_CODEPOINT)
        (*r)[(*n)++] = (struct class_range){next, UTF8_MAX_CODEPOINT};
    return true;
}

static void lex_string(struct afile *F, struct tok *t)
{
    struct text_cursor *c = &F->c;
    struct strbuf sb = STRBUF_INIT;
    text_cursor_next(c); /* ' */
    for (;;) {
        uint32_t ch = text_cursor_peek(c);
        if (c->i >= c->len || ch == '\n' || ch == '\r') {
            error_at(F, t->pos, "unterminated literal");
            t->kind = T_ERROR;
            strbuf_free(&sb);
            return;
        }
        if (ch == '\'') {
            text_cursor_next(c);
            break;
        }
        if (ch == '\\') {
            struct src_pos at = text_cursor_pos(c);
            text_cursor_next(c);
            uint32_t cp;
            int prop;
            if (lex_escape(F, at, false, &cp, &prop)) {
                if (prop) {
                    error_at(F, at, "a Unicode property (\\p{...}) cannot be inside a literal");
                } else {
                    strbuf_add_utf8(&sb, cp);
                }
            }
            continue;
        }
        strbuf_add_utf8(&sb, text_cursor_next(c));
    }
    t->kind = T_STRING;
    t->len = sb.len;
    t->text = arena_strndup(&F->im->g->arena, strbuf_str(&sb), sb.len);
    strbuf_free(&sb);
}

static void lex_set(struct afile *F, struct tok *t)
{
    struct text_cursor *c = &F->c;
    struct class_range *r = NULL;
    size_t n = 0, cap = 0;
    text_cursor_next(c); /* [ */
    bool ok = true;
    for (;;) {
        uint32_t ch = text_cursor_peek(c);
        if (c->i >= c->len || ch == '\n' || ch == '\r') {
            error_at(F, t->pos, "unterminated set");
            t->kind = T_ERROR;
            free(r);
            return;
        }
        if (ch == ']') {
            text_cursor_next(c);
            break;
        }
        struct src_pos at = text_cursor_pos(c);
        uint32_t lo, hi;
        int prop = 0;
        if (ch == '\\') {
            text_cursor_next(c);
            if (!lex_escape(F, at, true, &lo, &prop)) {
                ok = false;
                continue;
            }
        } else {
            lo = text_cursor_next(c);
        }
        if (prop) {
            if (!property_ranges(F, at, prop, &r, &n, &cap))
                ok = false;
            continue;
        }
        hi = lo;
        uint32_t after = peek_at(c, 1);
        if (peek_at(c, 0) == '-' && after != ']' && after != '\n' && after != '\r' && after) {
            text_cursor_next(c);
            struct src_pos hat = text_cursor_pos(c);
            if (peek_at(c, 0) == '\\') {
                text_cursor_next(c);
                if (!lex_escape(F, hat, true, &hi, &prop) || prop) {
                    ok = false;
                    continue;
                }
            } else {
                hi = text_cursor_next(c);
            }
            if (hi < lo) {
                error_at(F, at, "inverted range in set");
                ok = false;
                continue;
            }
        }
        r = xgrow(r, &cap, n + 1, sizeof *r);
        r[n++] = (struct class_range){lo, hi};
    }
    if (!n && ok) {
        error_at(F, t->pos, "empty set []");
        ok = false;
    }
    if (!ok) {
        t->kind = T_ERROR;
        free(r);
        return;
    }
    t->kind = T_SET;
    n = gb_normalize_ranges(r, n);
    t->ranges = arena_alloc(&F->im->g->arena, n * sizeof *r);
    memcpy(t->ranges, r, n * sizeof *r);
    t->nranges = n;
    free(r);
}

/* A balanced {...} or [...] (actions, arguments): strings, character
 * literals and comments inside are skipped whole. */
static void lex_balanced(struct afile *F, struct tok *t, uint32_t open, uint32_t close)
{
    struct text_cursor *c = &F->c;
    size_t depth = 0;
    for (;;) {
        if (c->i >= c->len) {
            error_at(F, t->pos, "unterminated %s", open == '{' ? "action" : "argument");
            t->kind = T_ERROR;
            return;
        }
        uint32_t ch = text_cursor_next(c);
        if (ch == open) {
            depth++;
        } else if (ch == close) {
            if (--depth == 0)
                return;
        } else if (ch == '"' || ch == '\'') {
            while (c->i < c->len && peek_at(c, 0) != ch && peek_at(c, 0) != '\n') {
                if (peek_at(c, 0) == '\\')
                    text_cursor_next(c);
                text_cursor_next(c);
            }
            if (peek_at(c, 0) == ch)
                text_cursor_next(c);
        } else if (ch == '/' && peek_at(c, 0) == '/') {
            while (c->i < c->len && peek_at(c, 0) != '\n')
                text_cursor_next(c);
        } else if (ch == '/' && peek_at(c, 0) == '*') {
            while (c->i < c->len && !(peek_at(c, 0) == '*' && peek_at(c, 1) == '/'))
                text_cursor_next(c);
            text_cursor_next(c);
            text_cursor_next(c);
        }
    }
}

static void lex(struct afile *F, struct tok *t)
{
    memset(t, 0, sizeof *t);
    struct text_cursor *c = &F->c;
    if (!skip_blank(F)) {
        t->kind = T_EOF;
        t->pos = t->end = text_cursor_pos(c);
        return;
    }
    t->pos = text_cursor_pos(c);
    t->start = c->i;
    uint32_t ch = text_cursor_peek(c);
    if (c->i >= c->len) {
        t->kind = T_EOF;
    } else if (is_id_start(ch)) {
        while (c->i < c->len && is_id_char(text_cursor_peek(c)))
            text_cursor_next(c);
        t->kind = T_ID;
        t->len = c->i - t->start;
        t->text = arena_strndup(&F->im->g->arena, c->src + t->start, t->len);
    } else if (ch >= '0' && ch <= '9') {
        while (peek_at(c, 0) >= '0' && peek_at(c, 0) <= '9')
            text_cursor_next(c);
        t->kind = T_INT;
    } else if (ch == '\'') {
        lex_string(F, t);
    } else if (ch == '[') {
        if (F->in_lexer_rule) {
            lex_set(F, t);
        } else {
            t->kind = T_ARG;
            lex_balanced(F, t, '[', ']');
        }
    } else if (ch == '{') {
        t->kind = T_ACTION;
        lex_balanced(F, t, '{', '}');
    } else {
        text_cursor_next(c);
        uint32_t n = peek_at(c, 0);
        switch (ch) {
        case ':':
            t->kind = T_COLON;
            if (n == ':') {
                text_cursor_next(c);
                t->kind = T_COLONCOLON;
            }
            break;
        case ';': t->kind = T_SEMI; break;
        case '|': t->kind = T_PIPE; break;
        case '(': t->kind = T_LPAREN; break;
        case ')': t->kind = T_RPAREN; break;
        case '?': t->kind = T_QUEST; break;
        case '*': t->kind = T_STAR; break;
        case '+':
            t->kind = T_PLUS;
            if (n == '=') {
                text_cursor_next(c);
                t->kind = T_PLUS_ASSIGN;
            }
            break;
        case '=': t->kind = T_ASSIGN; break;
        case '~': t->kind = T_TILDE; break;
        case '.':
            t->kind = T_DOT;
            if (n == '.') {
                text_cursor_next(c);
                t->kind = T_RANGE;
            }
            break;
        case '-':
            t->kind = T_OTHER;
            if (n == '>') {
                text_cursor_next(c);
                t->kind = T_ARROW;
            }
            break;
        case ',': t->kind = T_COMMA; break;
        case '#': t->kind = T_POUND; break;
        case '@': t->kind = T_AT; break;
        case '<': t->kind = T_LT; break;
        case '>': t->kind = T_GT; break;
        case '}': t->kind = T_RBRACE; break;
        default: t->kind = T_OTHER; break;
        }
    }
    t->stop = c->i;
    t->end = text_cursor_pos(c);
}

static void next(struct afile *F)
{
    if (F->has_peek) {
        F->tok = F->peek;
        F->has_peek = false;
    } else {
        lex(F, &F->tok);
    }
}

static const struct tok *peek(struct afile *F)
{
    if (!F->has_peek) {
        F->peek_from = F->c;
        lex(F, &F->peek);
        F->has_peek = true;
    }
    return &F->peek;
}

/* The lexer context changed ('[' means something else now): lex the peeked
 * token again. */
static void relex_peek(struct afile *F)
{
    if (F->has_peek) {
        F->c = F->peek_from;
        F->has_peek = false;
    }
}

static bool is_word(const struct tok *t, const char *w)
{
    return t->kind == T_ID && strcmp(t->text, w) == 0;
}

static void describe(const struct afile *F, const struct tok *t, struct strbuf *sb)
{
    if (t->kind == T_EOF)
        strbuf_addstr(sb, "end of file");
    else
        strbuf_addf(sb, "'%.*s'", (int)(t->stop - t->start > 20 ? 20 : t->stop - t->start),
                    F->c.src + t->start);
}

static void expected(struct afile *F, const char *what)
{
    if (F->tok.kind == T_ERROR)
        return;
    struct strbuf sb = STRBUF_INIT;
    describe(F, &F->tok, &sb);
    error_at(F, F->tok.pos, "expected %s, found %s", what, strbuf_str(&sb));
    strbuf_free(&sb);
}

/* Skip to just past the next ';' at the top level (after an error). */
static void recover(struct afile *F)
{
    while (F->tok.kind != T_EOF && F->tok.kind != T_SEMI)
        next(F);
    if (F->tok.kind == T_SEMI)
        next(F);
}

/* ---- building ----------------------------------------------------------- */

/* The names of `tokens { A, B }`, F->tok being the braces (T_ACTION). */
static void note_declared_tokens(struct afile *F)
{
    struct importer *im = F->im;
    const char *src = F->c.src;
    struct src_pos at = F->tok.pos;
    for (size_t i = F->tok.start; i < F->tok.stop && i < F->c.len;) {
        char ch = src[i];
        bool word = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_';
        if (!word) {
            if (ch == '\n') {
                at.line++;
                at.col = 1;
            } else {
                at.col++;
            }
            i++;
            continue;
        }
        size_t j = i;
        while (j < F->tok.stop && ((src[j] >= 'A' && src[j] <= 'Z') || (src[j] >= 'a' && src[j] <= 'z') ||
                                   (src[j] >= '0' && src[j] <= '9') || src[j] == '_'))
            j++;
        im->declared = xgrow(im->declared, &im->declared_cap, im->ndeclared + 1, sizeof *im->declared);
        im->declared[im->ndeclared++] = (struct declared_token){
            arena_strndup(&im->g->arena, src + i, j - i), F->file, at};
        at.col += (uint32_t)(j - i);
        i = j;
    }
}

/* Declared tokens (tokens {}) that no rule defines but a rule names: an
 * error each, at the first reference, saying what they are.  True when
 * there is none. */
static bool check_declared_tokens(struct importer *im)
{
    struct grammar *g = im->g;
    bool ok = true;
    for (size_t d = 0; d < im->ndeclared; d++) {
        const struct declared_token *dt = &im->declared[d];
        if (grammar_find_rule(g, dt->name) != RULE_NONE)
            continue;
        bool said = false;
        for (size_t k = 0; k < d && !said; k++)
            said = strcmp(im->declared[k].name, dt->name) == 0;
        const struct expr *first = NULL;
        uint32_t first_rule = RULE_NONE;
        const struct expr **stack = NULL;
        size_t cap = 0;
        for (uint32_t r = 0; r < g->nrules && !first && !said; r++) {
            size_t depth = 0;
            stack = xgrow(stack, &cap, 1, sizeof *stack);
            stack[depth++] = g->rules[r].rhs;
            while (depth && !first) {
                const struct expr *e = stack[--depth];
                if (e->kind == EXPR_REF && strcmp(e->u.ref.name, dt->name) == 0) {
                    first = e;
                    first_rule = r;
                }
                stack = xgrow(stack, &cap, depth + e->nchildren, sizeof *stack);
                for (uint32_t c = e->nchildren; c-- > 0;)
                    stack[depth++] = e->children[c];
            }
        }
        free(stack);
        if (!first)
            continue;
        const char *file = g->rules[first_rule].file ? g->rules[first_rule].file : g->file;
        diag_add(im->diags, DIAG_ERROR, file, first->pos.line, first->pos.col,
                 "token '%s' is declared in tokens { } (%s:%u:%u) and no lexer rule defines it: "
                 "the grammar's actions emit it, which kpath does not run; define it in a lexer "
                 "rule of your own to read this grammar",
                 dt->name, dt->file, (unsigned)dt->at.line, (unsigned)dt->at.col);
        ok = false;
    }
    return ok;
}

/* An action or a predicate at `at` (its '{'). */
static void note_action(struct afile *F, bool predicate, struct src_pos at)
{
    struct importer *im = F->im;
    if (!im->actions && !im->predicates) {
        im->first_action = at;
        im->first_action_file = F->file;
    }
    if (predicate)
        im->predicates++;
    else
        im->actions++;
    if (F->in_lexer_rule) {
        F->rule_code_first = F->rule_code_first || !F->rule_items;
        F->rule_code++;
        F->rule_predicated = F->rule_predicated || predicate;
    }
    im->code_at = xgrow(im->code_at, &im->code_at_cap, im->ncode_at + 1, sizeof *im->code_at);
    im->code_at[im->ncode_at++] = (struct alike_rule){predicate ? "predicate" : "action", F->file,
                                                      at};
}

static bool is_ascii_letter(uint32_t c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* A literal; with case-insensitivity, letters become classes of both cases
 * and the pieces between them stay literals. */
static struct expr *make_literal(struct afile *F, const char *text, size_t len, struct src_pos pos,
                                 struct src_pos end)
{
    struct grammar *g = F->im->g;
    bool any_letter = false;
    for (size_t k = 0; k < len; k++)
        any_letter = any_letter || is_ascii_letter((unsigned char)text[k]);
    if (!F->rule_ci || !any_letter)
        return gb_lit(g, text, len, pos, end);
    struct expr_list items = {0};
    size_t run = 0;
    for (size_t k = 0; k <= len; k++) {
        unsigned char ch = k < len ? (unsigned char)text[k] : 0;
        if (k == len || is_ascii_letter(ch)) {
            if (k > run)
                expr_list_push(&items, gb_lit(g, text + run, k - run, pos, end));
            if (k < len) {
                uint32_t lower = ch | 0x20, upper = ch & ~0x20u;
                struct class_range r[2] = {{upper, upper}, {lower, lower}};
                expr_list_push(&items, gb_class(g, r, 2, false, pos, end));
            }
            run = k + 1;
        }
    }
    struct expr *e = gb_seq(g, items.items, items.len, pos, end);
    expr_list_free(&items);
    if (e->kind == EXPR_CAT) {
        struct importer *im = F->im;
        im->ci_literals = xgrow(im->ci_literals, &im->ci_cap, im->nci + 1, sizeof *im->ci_literals);
        im->ci_literals[im->nci++] =
            (struct ci_literal){e, arena_strndup(&g->arena, text, len), len};
    }
    return e;
}

/* With case-insensitivity, the ASCII letters of a set get their other case. */
static struct expr *make_set(struct afile *F, const struct class_range *r, size_t n, bool negated,
                             struct src_pos pos, struct src_pos end)
{
    if (!F->rule_ci)
        return gb_class(F->im->g, r, n, negated, pos, end);
    struct class_range *all = xmalloc((3 * n + 1) * sizeof *all);
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        all[m++] = r[k];
        for (uint32_t base = 'A'; base <= 'a'; base += 'a' - 'A') {
            uint32_t lo = r[k].lo > base ? r[k].lo : base;
            uint32_t hi = r[k].hi < base + 25 ? r[k].hi : base + 25;
            if (lo <= hi)
                all[m++] = (struct class_range){lo ^ 0x20, hi ^ 0x20};
        }
    }
    struct expr *e = gb_class(F->im->g, all, m, negated, pos, end);
    free(all);
    return e;
}

/* The ranges of a one-character literal (false, reported, for longer). */
static bool char_of_literal(struct afile *F, const struct tok *t, uint32_t *cp)
{
    uint32_t v = 0;
    size_t n = t->len ? utf8_decode(t->text, t->len, &v) : 0;
    if (!n || n != t->len) {
        error_at(F, t->pos, "a literal in a set or range must be one character, not '%.*s'",
                 (int)t->len, t->text);
        return false;
    }
    *cp = v;
    return true;
}

/* After '~' (consumed): the set operand, as ranges.  One of: [set],
 * 'c', 'a'..'z', or ( operand | operand ... ). */
static bool set_operand(struct afile *F, struct class_range **r, size_t *n, size_t *cap,
                        struct name_list *names)
{
    if (F->tok.kind == T_SET) {
        *r = xgrow(*r, cap, *n + F->tok.nranges, sizeof **r);
        memcpy(*r + *n, F->tok.ranges, F->tok.nranges * sizeof **r);
        *n += F->tok.nranges;
        next(F);
        return true;
    }
    if (F->tok.kind == T_STRING) {
        uint32_t lo, hi;
        if (!char_of_literal(F, &F->tok, &lo))
            return false;
        hi = lo;
        next(F);
        if (F->tok.kind == T_RANGE) {
            next(F);
            if (F->tok.kind != T_STRING) {
                expected(F, "a literal after '..'");
                return false;
            }
            if (!char_of_literal(F, &F->tok, &hi))
                return false;
            next(F);
        }
        *r = xgrow(*r, cap, *n + 1, sizeof **r);
        (*r)[(*n)++] = (struct class_range){lo, hi};
        return true;
    }
    if (F->tok.kind == T_LPAREN) {
        next(F);
        for (;;) {
            if (!set_operand(F, r, n, cap, names))
                return false;
            if (F->tok.kind == T_PIPE) {
                next(F);
                continue;
            }
            if (F->tok.kind != T_RPAREN) {
                expected(F, "'|' or ')' in a set after '~'");
                return false;
            }
            next(F);
            return true;
        }
    }
    if (F->tok.kind == T_ID) {
        /* A lexer rule that is a set: known once every rule is read. */
        names->names = xgrow(names->names, &names->cap, names->n + 1, sizeof *names->names);
        names->names[names->n++] = xstrdup(F->tok.text);
        next(F);
        return true;
    }
    expected(F, "a set, a one-character literal, a range or a rule that is a set after '~'");
    return false;
}

static void skip_element_options(struct afile *F)
{
    if (F->tok.kind != T_LT)
        return;
    while (F->tok.kind != T_GT && F->tok.kind != T_EOF && F->tok.kind != T_SEMI)
        next(F);
    if (F->tok.kind == T_GT)
        next(F);
}

/* '.' or '~X' in a parser rule: any token (but those named).  An empty
 * ALT stands in until every token is known (finish_structure fills it with
 * a reference to each token that is neither a fragment nor skipped). */
static struct expr *any_token(struct afile *F, char **excluded, struct src_pos pos,
                              struct src_pos end)
{
    struct importer *im = F->im;
    struct expr *e = grammar_new_expr(im->g, EXPR_ALT, RULE_NONE);
    e->pos = pos;
    e->end = end;
    im->any_tokens = xgrow(im->any_tokens, &im->any_cap, im->nany + 1, sizeof *im->any_tokens);
    im->any_excluded =
        xgrow(im->any_excluded, &im->any_excluded_cap, im->nany + 1, sizeof *im->any_excluded);
    im->any_tokens[im->nany] = e;
    im->any_excluded[im->nany++] = excluded;
    return e;
}

/* After '~' in a parser rule: TOKEN, 'literal' or ( one | two ... ). */
static struct expr *not_tokens(struct afile *F, struct src_pos pos)
{
    char **names = NULL;
    size_t n = 0;
    bool group = F->tok.kind == T_LPAREN, ok = true;
    if (group)
        next(F);
    for (;;) {
        if (F->tok.kind == T_ID && F->tok.text[0] >= 'A' && F->tok.text[0] <= 'Z') {
            names = xrealloc(names, (n + 2) * sizeof *names);
            names[n++] = xstrdup(F->tok.text);
            names[n] = NULL;
        } else if (F->tok.kind == T_STRING) {
            /* A literal stands for its token: only a token rule of exactly
             * that literal is left out (kpath has no implicit tokens). */
            names = xrealloc(names, (n + 2) * sizeof *names);
            struct strbuf sb = STRBUF_INIT;
            strbuf_addch(&sb, '\'');
            strbuf_add(&sb, F->tok.text, F->tok.len);
            names[n++] = strbuf_detach(&sb, NULL);
            names[n] = NULL;
        } else {
            expected(F, "a token name or literal after '~' in a parser rule");
            ok = false;
            break;
        }
        struct src_pos end = F->tok.end;
        next(F);
        if (!group)
            return any_token(F, names, pos, end);
        if (F->tok.kind == T_PIPE) {
            next(F);
            continue;
        }
        if (F->tok.kind != T_RPAREN) {
            expected(F, "'|' or ')' after '~('");
            ok = false;
            break;
        }
        end = F->tok.end;
        next(F);
        return any_token(F, names, pos, end);
    }
    for (size_t k = 0; k < n; k++)
        free(names[k]);
    free(names);
    (void)ok;
    return NULL;
}

static struct expr *parse_alternatives(struct afile *F);

/* Is `cmd` the lexer command `name`?  ANTLR finds a command's handler by
 * its name with the first letter capitalized, so `Channel(X)` is
 * `channel(X)` and `PushMode(M)` is `pushMode(M)`. */
static bool is_command(const char *cmd, const char *name)
{
    char first = cmd[0] >= 'A' && cmd[0] <= 'Z' ? (char)(cmd[0] - 'A' + 'a') : cmd[0];
    return first == name[0] && strcmp(cmd + 1, name + 1) == 0;
}

/* Lexer commands after '->' (consumed), for the current rule. */
static void parse_commands(struct afile *F)
{
    struct importer *im = F->im;
    for (;;) {
        if (F->tok.kind != T_ID) {
            expected(F, "a lexer command");
            return;
        }
        struct tok cmd = F->tok;
        const char *arg = NULL;
        bool arg_zero = false;
        next(F);
        if (F->tok.kind == T_LPAREN) {
            next(F);
            if (F->tok.kind == T_ID)
                arg = F->tok.text;
            arg_zero = F->tok.kind == T_INT && F->tok.stop - F->tok.start == 1 &&
                       F->c.src[F->tok.start] == '0';
            while (F->tok.kind != T_RPAREN && F->tok.kind != T_EOF && F->tok.kind != T_SEMI)
                next(F);
            if (F->tok.kind == T_RPAREN)
                next(F);
        }
        struct rule_info *info = F->cur_rule != RULE_NONE ? &im->info[F->cur_rule] : NULL;
        if (is_command(cmd.text, "channel") &&
            (arg_zero || (arg && strcmp(arg, "DEFAULT_TOKEN_CHANNEL") == 0))) {
            /* the parser's own channel: a token like any other */
        } else if (is_command(cmd.text, "skip") || is_command(cmd.text, "channel")) {
            if (info)
                info->skip = true;
        } else if (is_command(cmd.text, "more")) {
            if (info)
                info->more = true;
        } else if ((is_command(cmd.text, "pushMode") || is_command(cmd.text, "mode")) && arg) {
            if (info) {
                info->enters = arg;
                info->pushes = is_command(cmd.text, "pushMode");
            }
        } else if (is_command(cmd.text, "popMode")) {
            /* Where it returns to: see skip_modes_after. */
            if (info)
                info->pops = true;
        } else {
            if (is_command(cmd.text, "type") && arg && info)
                info->type = arg; /* kpath's lexer follows it (grammar/lexer.h) */
            const char *why = "kpath reads one character-level grammar, without modes or "
                              "token types";
            warn_alike(im, F->file, cmd.pos, F->cur_rule_name,
                       sentence("lexer command '%s' of rule '%s' is not supported and is "
                                "ignored (%s)", cmd.text, F->cur_rule_name, why),
                       sentence("lexer rules use the lexer command '%s', which is not "
                                "supported and is ignored (%s)", cmd.text, why));
        }
        if (F->tok.kind != T_COMMA)
            return;
        next(F);
    }
}

/* One alternative: elements up to '|', ')' or ';' (and its # label and
 * lexer commands). */
static struct expr *parse_alternative(struct afile *F)
{
    struct grammar *g = F->im->g;
    struct expr_list items = {0};
    struct src_pos start = F->tok.pos;
    bool ok = true;
    bool eof_last = false; /* in a lexer rule, EOF ends the alternative */
    skip_element_options(F);
    for (;;) {
        struct tok t = F->tok;
        struct expr *e = NULL;
        bool dropped = false;
        if (t.kind == T_ID && (peek(F)->kind == T_ASSIGN || peek(F)->kind == T_PLUS_ASSIGN)) {
            next(F); /* the label */
            next(F); /* = or += */
            continue;
        }
        switch (t.kind) {
        case T_ID:
            next(F);
            skip_element_options(F);
            if (F->tok.kind == T_ARG)
                next(F);
            if (strcmp(t.text, "EOF") == 0) {
                dropped = true;
                eof_last = F->in_lexer_rule;
                if (F->cur_rule != RULE_NONE)
                    F->im->info[F->cur_rule].ends_input = true;
            } else
                e = gb_ref(g, t.text, t.len, t.pos, t.end);
            break;
        case T_STRING:
            next(F);
            if (F->tok.kind == T_RANGE) {
                next(F);
                uint32_t lo, hi;
                if (F->tok.kind != T_STRING) {
                    expected(F, "a literal after '..'");
                    ok = false;
                    break;
                }
                if (!char_of_literal(F, &t, &lo) || !char_of_literal(F, &F->tok, &hi)) {
                    ok = false;
                    break;
                }
                if (hi < lo) {
                    error_at(F, t.pos, "inverted range '%s'..'%s'", t.text, F->tok.text);
                    ok = false;
                    break;
                }
                struct class_range r = {lo, hi};
                e = make_set(F, &r, 1, false, t.pos, F->tok.end);
                next(F);
            } else {
                if (!t.len) {
                    error_at(F, t.pos, "empty literal ''");
                    ok = false;
                    break;
                }
                e = make_literal(F, t.text, t.len, t.pos, t.end);
            }
            skip_element_options(F);
            break;
        case T_SET:
            e = make_set(F, t.ranges, t.nranges, false, t.pos, t.end);
            next(F);
            break;
        case T_DOT:
            if (!F->in_lexer_rule) {
                e = any_token(F, NULL, t.pos, t.end);
            } else {
                struct class_range all = {0, UTF8_MAX_CODEPOINT};
                e = gb_class(g, &all, 1, false, t.pos, t.end);
            }
            next(F);
            break;
        case T_TILDE: {
            if (!F->in_lexer_rule) {
                next(F);
                e = not_tokens(F, t.pos);
                ok = e != NULL;
                break;
            }
            next(F);
            struct class_range *r = NULL;
            size_t n = 0, cap = 0;
            struct name_list names = {0};
            if (set_operand(F, &r, &n, &cap, &names)) {
                n = gb_normalize_ranges(r, n);
                e = make_set(F, r, n, true, t.pos, F->tok.pos);
                if (names.n) {
                    struct importer *im = F->im;
                    im->not_rules = xgrow(im->not_rules, &im->not_rules_cap, im->nnot_rules + 1,
                                          sizeof *im->not_rules);
                    im->not_rules[im->nnot_rules++] =
                        (struct not_rule){e, names.names, names.n, t.pos, F->file};
                    names.names = NULL;
                }
            } else {
                ok = false;
            }
            for (size_t k = 0; names.names && k < names.n; k++)
                free(names.names[k]);
            free(names.names);
            free(r);
            break;
        }
        case T_LPAREN:
            if (F->depth >= MAX_NESTING) {
                error_at(F, t.pos, "parentheses nested deeper than %d", MAX_NESTING);
                ok = false;
                break;
            }
            next(F);
            if (is_word(&F->tok, "options")) { /* ( options {...} : ... ) */
                next(F);
                if (F->tok.kind == T_ACTION)
                    next(F);
                if (F->tok.kind == T_COLON)
                    next(F);
            } else if (F->tok.kind == T_COLON) { /* ( : ... ): no options, the same */
                next(F);
            }
            F->depth++;
            e = parse_alternatives(F);
            F->depth--;
            if (!e) {
                ok = false;
                break;
            }
            if (F->tok.kind != T_RPAREN) {
                struct strbuf what = STRBUF_INIT;
                strbuf_addf(&what, "')' to close the '(' at %u:%u", (unsigned)t.pos.line,
                            (unsigned)t.pos.col);
                expected(F, strbuf_str(&what));
                strbuf_free(&what);
                ok = false;
                break;
            }
            next(F);
            break;
        case T_ACTION:
            next(F);
            if (F->tok.kind == T_QUEST) {
                note_action(F, true, t.pos);
                next(F);
            } else {
                note_action(F, false, t.pos);
            }
            continue;
        default:
            break;
        }
        if (!ok)
            break;
        if (!e && !dropped)
            break; /* the alternative ends here */
        if (F->tok.kind == T_QUEST || F->tok.kind == T_STAR || F->tok.kind == T_PLUS) {
            enum tk q = F->tok.kind;
            struct src_pos qend = F->tok.end;
            next(F);
            bool lazy = false;
            if (F->tok.kind == T_QUEST) { /* non-greedy: the same language */
                qend = F->tok.end;
                next(F);
                lazy = F->in_lexer_rule && F->cur_rule != RULE_NONE;
            }
            if (e)
                e = gb_quant(g, e, q == T_PLUS ? 1 : 0, q == T_QUEST ? 1 : QUANT_INFINITE, t.pos,
                             qend);
            if (e && lazy) { /* the lexer reads it as ANTLR does */
                struct importer *im = F->im;
                im->lazies = xgrow(im->lazies, &im->lazies_cap, im->nlazies + 1, sizeof *im->lazies);
                im->lazies[im->nlazies++] = e;
            }
        }
        if (e) {
            expr_list_push(&items, e);
            eof_last = false;
            F->rule_items++;
        }
    }
    struct expr *seq = NULL;
    if (ok) {
        if (F->tok.kind == T_POUND) {
            next(F);
            if (F->tok.kind == T_ID)
                next(F);
        }
        if (F->tok.kind == T_ARROW) {
            next(F);
            parse_commands(F);
        }
        seq = gb_seq(g, items.items, items.len, start, F->tok.pos);
        if (eof_last) {
            struct importer *im = F->im;
            im->eofs = xgrow(im->eofs, &im->eofs_cap, im->neofs + 1, sizeof *im->eofs);
            im->eofs[im->neofs++] = seq;
        }
    }
    expr_list_free(&items);
    return seq;
}

static struct expr *parse_alternatives(struct afile *F)
{
    struct expr_list alts = {0};
    struct src_pos start = F->tok.pos;
    struct expr *result = NULL;
    for (;;) {
        struct expr *a = parse_alternative(F);
        if (!a)
            goto done;
        expr_list_push(&alts, a);
        if (F->tok.kind != T_PIPE)
            break;
        next(F);
    }
    if (F->tok.kind != T_SEMI && F->tok.kind != T_RPAREN) {
        expected(F, "an element, '|', ')' or ';'");
        goto done;
    }
    result = gb_alt(F->im->g, alts.items, alts.len, NULL, start, F->tok.pos);
done:
    expr_list_free(&alts);
    return result;
}

/* ---- grammar structure -------------------------------------------------- */

static void add_pending(struct afile *F, const char *name, struct src_pos at)
{
    struct importer *im = F->im;
    for (size_t k = 0; k < im->npending; k++)
        if (strcmp(im->pending[k], name) == 0)
            return;
    im->pending = xgrow(im->pending, &im->pending_cap, im->npending + 1, sizeof *im->pending);
    im->pending_pos = xrealloc(im->pending_pos, im->pending_cap * sizeof *im->pending_pos);
    im->pending_file = xrealloc(im->pending_file, im->pending_cap * sizeof *im->pending_file);
    im->pending_pos[im->npending] = at;
    im->pending_file[im->npending] = F->file;
    im->pending[im->npending++] = xstrdup(name);
}

/* options { name = value; ... } at the grammar or rule level. */
static void parse_options(struct afile *F, bool grammar_level)
{
    /* The lexer took the braces as one action: read its inside as options. */
    struct tok block = F->tok;
    next(F);
    if (block.kind != T_ACTION)
        return;
    struct afile sub = *F;
    sub.has_peek = false;
    sub.c.len = block.stop - 1;
    sub.c.i = block.start + 1;
    sub.c.line = block.pos.line;
    sub.c.col = block.pos.col + 1;
    lex(&sub, &sub.tok);
    while (sub.tok.kind == T_ID) {
        struct tok name = sub.tok;
        lex(&sub, &sub.tok);
        if (sub.tok.kind != T_ASSIGN)
            break;
        lex(&sub, &sub.tok);
        struct tok value = sub.tok;
        if (strcmp(name.text, "tokenVocab") == 0 && value.kind == T_ID) {
            add_pending(F, value.text, value.pos);
        } else if (strcmp(name.text, "caseInsensitive") == 0 && value.kind == T_ID) {
            bool on = strcmp(value.text, "true") == 0;
            if (grammar_level)
                F->case_insensitive = on;
            F->rule_ci = on;
        }
        while (sub.tok.kind != T_SEMI && sub.tok.kind != T_EOF)
            lex(&sub, &sub.tok);
        lex(&sub, &sub.tok);
    }
}

static void parse_rule(struct afile *F)
{
    struct importer *im = F->im;
    bool fragment = false;
    while (is_word(&F->tok, "fragment") || is_word(&F->tok, "public") ||
           is_word(&F->tok, "private") || is_word(&F->tok, "protected")) {
        fragment = fragment || is_word(&F->tok, "fragment");
        next(F);
    }
    if (F->tok.kind != T_ID) {
        expected(F, "a rule name");
        recover(F);
        return;
    }
    struct tok name = F->tok;
    bool lexer = name.text[0] >= 'A' && name.text[0] <= 'Z';
    F->in_lexer_rule = lexer;
    relex_peek(F);
    next(F);
    F->rule_ci = F->case_insensitive;
    F->cur_rule_name = name.text;
    F->cur_rule = RULE_NONE;
    F->rule_items = F->rule_code = 0;
    F->rule_code_first = F->rule_predicated = false;
    uint32_t existing = grammar_find_rule(im->g, name.text);
    if (existing == RULE_NONE) {
        struct expr *placeholder = gb_lit(im->g, "", 0, name.pos, name.pos);
        F->cur_rule = gb_add_rule(im->g, name.text, name.pos, placeholder);
        im->info = xgrow(im->info, &im->info_cap, im->g->nrules, sizeof *im->info);
        im->info[F->cur_rule] = (struct rule_info){lexer, fragment, false, F->is_main, false,
                                                   F->cur_mode, NULL, false, false, false, false,
                                                   NULL, false, false, false};
        if (!F->is_main || F->token_option)
            im->g->rules[F->cur_rule].file = F->file;
    } else if (F->token_option) {
        /* --token NAME=...: the rule keeps its place (its priority) and its
         * mode; its definition and commands are the option's. */
        F->cur_rule = existing;
        struct rule_info *ri = &im->info[existing];
        *ri = (struct rule_info){true, false, false, ri->main_file, false, ri->mode, NULL,
                                 false, false, false, false, NULL, false, false, false};
    } else if (F->is_main && im->info[existing].main_file) {
        struct src_pos p = im->g->rules[existing].pos;
        error_at(F, name.pos, "rule '%s' is defined twice (first at %u:%u)", name.text,
                 (unsigned)p.line, (unsigned)p.col);
    }
    /* else: an imported rule that the importing grammar overrides */
    if (F->tok.kind == T_ARG)
        next(F);
    for (;;) {
        if (is_word(&F->tok, "returns") || is_word(&F->tok, "locals")) {
            next(F);
            if (F->tok.kind == T_ARG)
                next(F);
        } else if (is_word(&F->tok, "throws")) {
            next(F);
            while (F->tok.kind == T_ID || F->tok.kind == T_COMMA)
                next(F);
        } else if (is_word(&F->tok, "options")) {
            next(F);
            parse_options(F, false);
        } else if (F->tok.kind == T_AT) {
            next(F);
            if (F->tok.kind == T_ID)
                next(F);
            if (F->tok.kind == T_ACTION) {
                note_action(F, false, F->tok.pos);
                next(F);
            }
        } else {
            break;
        }
    }
    if (F->tok.kind != T_COLON) {
        struct strbuf what = STRBUF_INIT;
        strbuf_addf(&what, "':' after the rule name '%s'", name.text);
        expected(F, strbuf_str(&what));
        strbuf_free(&what);
        recover(F);
        return;
    }
    next(F);
    F->depth = 0;
    struct expr *rhs = parse_alternatives(F);
    if (!rhs) {
        recover(F);
        return;
    }
    if (F->tok.kind != T_SEMI) {
        expected(F, "';' at the end of the rule");
        recover(F);
        return;
    }
    next(F);
    while (is_word(&F->tok, "catch") || is_word(&F->tok, "finally")) {
        next(F);
        if (F->tok.kind == T_ARG)
            next(F);
        if (F->tok.kind == T_ACTION)
            next(F);
    }
    if (F->cur_rule != RULE_NONE) {
        im->g->rules[F->cur_rule].rhs = rhs;
        im->info[F->cur_rule].predicated = F->rule_predicated;
        im->info[F->cur_rule].no_alias = F->rule_code_first || F->rule_code > 1;
    }
}

/* A whole file: header, prequel, rules and modes. */
static void parse_file(struct afile *F)
{
    lex(F, &F->tok);
    if (is_word(&F->tok, "lexer") || is_word(&F->tok, "parser"))
        next(F);
    if (!is_word(&F->tok, "grammar")) {
        expected(F, "'grammar NAME;' (an ANTLR 4 grammar starts with it)");
        return;
    }
    next(F);
    if (F->tok.kind == T_ID)
        next(F);
    if (F->tok.kind != T_SEMI) {
        expected(F, "';' after the grammar's name");
        return;
    }
    next(F);
    while (F->tok.kind != T_EOF) {
        struct tok t = F->tok;
        if (is_word(&t, "options") && peek(F)->kind == T_ACTION) {
            next(F);
            parse_options(F, true);
        } else if (is_word(&t, "import") && peek(F)->kind == T_ID) {
            next(F);
            while (F->tok.kind == T_ID) {
                struct tok first = F->tok;
                next(F);
                if (F->tok.kind == T_ASSIGN) { /* import X = Y;  Y is the file */
                    next(F);
                    if (F->tok.kind == T_ID) {
                        first = F->tok;
                        next(F);
                    }
                }
                add_pending(F, first.text, first.pos);
                if (F->tok.kind != T_COMMA)
                    break;
                next(F);
            }
            if (F->tok.kind != T_SEMI)
                expected(F, "';' after the imports");
            recover(F);
        } else if ((is_word(&t, "tokens") || is_word(&t, "channels")) &&
                   peek(F)->kind == T_ACTION) {
            next(F);
            if (is_word(&t, "tokens"))
                note_declared_tokens(F);
            next(F);
        } else if (t.kind == T_AT) {
            next(F);
            while (F->tok.kind == T_ID || F->tok.kind == T_COLONCOLON)
                next(F);
            if (F->tok.kind == T_ACTION) {
                note_action(F, false, F->tok.pos);
                next(F);
            }
            else
                expected(F, "an action '{...}' after '@NAME'");
        } else if (is_word(&t, "mode") && peek(F)->kind == T_ID) {
            next(F);
            const char *how = "read like the others (each a rule the parser rules name, "
                              "whatever the mode there); between two tokens the skip tokens of "
                              "the mode after the first are allowed; `more` is joined to the "
                              "token it leads to";
            warn_alike(F->im, F->file, t.pos, F->tok.text,
                       sentence("lexer mode '%s': its tokens are %s", F->tok.text, how),
                       sentence("lexer modes, whose tokens are %s", how));
            F->cur_mode = F->tok.text;
            next(F);
            if (F->tok.kind == T_SEMI)
                next(F);
        } else {
            parse_rule(F);
        }
    }
}

/* ---- after parsing ------------------------------------------------------ */

static int ci_cmp(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const struct ci_literal *)a)->e;
    uintptr_t y = (uintptr_t)((const struct ci_literal *)b)->e;
    return x < y ? -1 : x > y;
}

/* The case-insensitive literal e is, or NULL. */
static const struct ci_literal *ci_literal_of(const struct importer *im, const struct expr *e)
{
    if (e->kind != EXPR_CAT || !im->nci)
        return NULL;
    struct ci_literal key = {(struct expr *)e, NULL, 0};
    return bsearch(&key, im->ci_literals, im->nci, sizeof *im->ci_literals, ci_cmp);
}

/* The text of a literal as written (true), a case-insensitive one
 * included; false for anything else and for the empty literal. */
static bool literal_text(const struct importer *im, const struct expr *e, const char **text,
                         size_t *len)
{
    if (e->kind == EXPR_LIT) {
        *text = e->u.lit.text, *len = e->u.lit.len;
        return *len > 0;
    }
    const struct ci_literal *ci = ci_literal_of(im, e);
    if (!ci)
        return false;
    *text = ci->text, *len = ci->len;
    return true;
}

static bool is_terminal(const struct importer *im, const struct expr *e)
{
    if (e->kind == EXPR_LIT)
        return e->u.lit.len > 0; /* an empty alternative is no token */
    if (e->kind == EXPR_CLASS)
        return true;
    if (e->kind == EXPR_REF) {
        uint32_t r = grammar_find_rule(im->g, e->u.ref.name);
        return r != RULE_NONE && r < im->g->nrules && im->info[r].lexer;
    }
    /* a case-insensitive literal: a CAT of classes and literals */
    return ci_literal_of(im, e) != NULL;
}

static struct expr *skip_ref(struct grammar *g, const char *name, struct src_pos at)
{
    return gb_ref(g, name, strlen(name), at, at);
}

static const char *skip_rule_after(struct importer *im, const struct expr *token);

/* e followed by the skip rule of the mode after it; e itself when that
 * mode has no skip tokens. */
static struct expr *with_skip(struct importer *im, struct expr *e)
{
    const char *name = skip_rule_after(im, e);
    if (!name)
        return e;
    struct expr *pair[2] = {e, skip_ref(im->g, name, e->end)};
    return gb_seq(im->g, pair, 2, e->pos, e->end);
}

/* In a parser rule, each token is followed by the skip rule of the mode
 * the lexer is in after it (see the header). */
static void insert_skips(struct importer *im, uint32_t rule)
{
    struct grammar *g = im->g;
    struct rule *r = &g->rules[rule];
    if (is_terminal(im, r->rhs)) {
        r->rhs = with_skip(im, r->rhs);
        return;
    }
    struct expr_list stack = {0};
    expr_list_push(&stack, r->rhs);
    while (stack.len) {
        struct expr *e = stack.items[--stack.len];
        if (is_terminal(im, e))
            continue; /* a case-insensitive literal, already handled above it */
        for (uint32_t k = 0; k < e->nchildren; k++)
            expr_list_push(&stack, e->children[k]);
        if (e->kind == EXPR_CAT) {
            struct expr_list kids = {0};
            for (uint32_t k = 0; k < e->nchildren; k++) {
                expr_list_push(&kids, e->children[k]);
                const char *name =
                    is_terminal(im, e->children[k]) ? skip_rule_after(im, e->children[k]) : NULL;
                if (name)
                    expr_list_push(&kids, skip_ref(g, name, e->children[k]->end));
            }
            if (kids.len != e->nchildren) {
                e->children = arena_alloc(&g->arena, kids.len * sizeof *e->children);
                memcpy(e->children, kids.items, kids.len * sizeof *e->children);
                e->nchildren = (uint32_t)kids.len;
                for (uint32_t k = 0; k < e->nchildren; k++)
                    e->children[k]->parent = e;
            }
            expr_list_free(&kids);
        } else {
            for (uint32_t k = 0; k < e->nchildren; k++) {
                if (is_terminal(im, e->children[k])) {
                    e->children[k] = with_skip(im, e->children[k]);
                    e->children[k]->parent = e;
                }
            }
        }
    }
    expr_list_free(&stack);
}

/* Every reference's target, by name (RULE_NONE when undefined). */
static void resolve_all(struct grammar *g)
{
    struct expr_list stack = {0};
    for (uint32_t r = 0; r < g->nrules; r++) {
        expr_list_push(&stack, g->rules[r].rhs);
        while (stack.len) {
            struct expr *e = stack.items[--stack.len];
            if (e->kind == EXPR_REF)
                e->u.ref.target = grammar_find_rule(g, e->u.ref.name);
            for (uint32_t k = 0; k < e->nchildren; k++)
                expr_list_push(&stack, e->children[k]);
        }
    }
    expr_list_free(&stack);
}

/* Rules reachable from the roots marked in `keep` (marked too). */
static void mark_reachable(struct grammar *g, bool *keep)
{
    uint32_t *queue = xmalloc(((size_t)g->nrules + 1) * sizeof *queue);
    size_t head = 0, tail = 0;
    for (uint32_t r = 0; r < g->nrules; r++)
        if (keep[r])
            queue[tail++] = r;
    struct expr_list stack = {0};
    while (head < tail) {
        uint32_t r = queue[head++];
        expr_list_push(&stack, g->rules[r].rhs);
        while (stack.len) {
            struct expr *e = stack.items[--stack.len];
            if (e->kind == EXPR_REF && e->u.ref.target != RULE_NONE && !keep[e->u.ref.target]) {
                keep[e->u.ref.target] = true;
                queue[tail++] = e->u.ref.target;
            }
            for (uint32_t k = 0; k < e->nchildren; k++)
                expr_list_push(&stack, e->children[k]);
        }
    }
    expr_list_free(&stack);
    free(queue);
}

static bool referenced_elsewhere(const struct grammar *g, uint32_t target, uint32_t except)
{
    struct expr_list stack = {0};
    bool found = false;
    for (uint32_t r = 0; r < g->nrules && !found; r++) {
        if (r == except)
            continue;
        expr_list_push(&stack, g->rules[r].rhs);
        while (stack.len && !found) {
            struct expr *e = stack.items[--stack.len];
            found = e->kind == EXPR_REF && e->u.ref.target == target;
            for (uint32_t k = 0; k < e->nchildren; k++)
                expr_list_push(&stack, e->children[k]);
        }
        stack.len = 0;
    }
    expr_list_free(&stack);
    return found;
}

/* Which rules another rule refers to (a rule's references to itself do not
 * count).  Walks every right-hand side with a stack: no recursion on the
 * grammar's nesting. */
static bool *referenced_by_others(const struct grammar *g)
{
    bool *referenced = xcalloc(g->nrules + 1, sizeof *referenced);
    const struct expr **work = NULL;
    size_t nwork = 0, wcap = 0;
    for (uint32_t r = 0; r < g->nrules; r++) {
        if (!g->rules[r].rhs)
            continue;
        work = xgrow(work, &wcap, nwork + 1, sizeof *work);
        work[nwork++] = g->rules[r].rhs;
        while (nwork) {
            const struct expr *e = work[--nwork];
            if (e->kind == EXPR_REF) {
                uint32_t t = e->u.ref.target;
                if (t != RULE_NONE && t < g->nrules && t != r)
                    referenced[t] = true;
                continue;
            }
            work = xgrow(work, &wcap, nwork + e->nchildren, sizeof *work);
            for (uint32_t k = 0; k < e->nchildren; k++)
                work[nwork++] = e->children[k];
        }
    }
    free(work);
    return referenced;
}

/* The start rule: --start; else the first parser rule of the main file when
 * it names EOF (ANTLR grammars put their entry point first, and it ends with
 * EOF even where another rule uses it, as Hive's `statement`); else the
 * first parser rule that names EOF and that no other rule refers to (a
 * grammar may put its helpers first, as grammars-v4's semver puts `tag`
 * before `semver`; a helper like `eol : NEWLINE+ | EOF ;` names EOF too but
 * other rules use it); else the first parser rule; else the first lexer
 * rule that is not a fragment. */
/* The entry point that grammars-v4's desc.xml beside the grammar names
 * (<entry-point>NAME</entry-point>, the first), when it is a parser rule. */
static uint32_t desc_xml_start(struct importer *im)
{
    struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
    strbuf_addf(&path, "%sdesc.xml", im->dir);
    struct diag_list ignored = DIAG_LIST_INIT; /* no desc.xml: nothing to read */
    uint32_t found = RULE_NONE;
    if (grammar_read_file(strbuf_str(&path), NULL, &text, &ignored)) {
        const char *open = "<entry-point>";
        const char *at = strstr(strbuf_str(&text), open);
        const char *end = at ? strstr(at, "</entry-point>") : NULL;
        if (at && end) {
            at += strlen(open);
            while (at < end && (*at == ' ' || *at == '\t' || *at == '\n' || *at == '\r'))
                at++;
            size_t n = (size_t)(end - at);
            while (n && (at[n - 1] == ' ' || at[n - 1] == '\t' || at[n - 1] == '\n' ||
                         at[n - 1] == '\r'))
                n--;
            char *name = xstrndup(at, n);
            uint32_t r = grammar_find_rule(im->g, name);
            if (r != RULE_NONE && !im->info[r].lexer)
                found = r;
            free(name);
        }
    }
    diag_list_free(&ignored);
    strbuf_free(&path);
    strbuf_free(&text);
    return found;
}

static uint32_t choose_start(struct importer *im)
{
    struct grammar *g = im->g;
    if (im->opts && im->opts->start)
        return grammar_find_rule(g, im->opts->start);
    uint32_t described = desc_xml_start(im);
    if (described != RULE_NONE)
        return described;
    uint32_t first = RULE_NONE;
    for (uint32_t r = 0; r < g->nrules && first == RULE_NONE; r++)
        if (im->info[r].main_file && !im->info[r].lexer)
            first = r;
    if (first != RULE_NONE && im->info[first].ends_input)
        return first;
    bool *referenced = referenced_by_others(g);
    uint32_t entry = RULE_NONE;
    for (uint32_t r = 0; r < g->nrules && entry == RULE_NONE; r++)
        if (im->info[r].main_file && !im->info[r].lexer && im->info[r].ends_input &&
            !referenced[r])
            entry = r;
    /* Else the first parser rule when nothing else refers to it, else the
     * first that nothing refers to. */
    for (uint32_t r = 0; r < g->nrules && entry == RULE_NONE && first != RULE_NONE &&
                         referenced[first]; r++)
        if (im->info[r].main_file && !im->info[r].lexer && !referenced[r])
            entry = r;
    free(referenced);
    if (entry != RULE_NONE)
        return entry;
    if (first != RULE_NONE)
        return first;
    for (uint32_t r = 0; r < g->nrules; r++)
        if (im->info[r].main_file && !im->info[r].fragment)
            return r;
    return g->nrules ? 0 : RULE_NONE;
}

static bool excluded(char **names, const struct expr *rhs, const char *name)
{
    for (size_t k = 0; names && names[k]; k++) {
        if (names[k][0] == '\'') {
            const char *lit = names[k] + 1;
            if (rhs->kind == EXPR_LIT && rhs->u.lit.len == strlen(lit) &&
                memcmp(rhs->u.lit.text, lit, rhs->u.lit.len) == 0)
                return true;
        } else if (strcmp(names[k], name) == 0) {
            return true;
        }
    }
    return false;
}

static void fill_any_tokens(struct importer *im)
{
    struct grammar *g = im->g;
    for (size_t a = 0; a < im->nany; a++) {
        struct expr *e = im->any_tokens[a];
        struct expr_list refs = {0};
        for (uint32_t r = 0; r < g->nrules; r++) {
            const struct rule_info *info = &im->info[r];
            if (!info->lexer || info->fragment || info->skip || info->more ||
                excluded(im->any_excluded[a], g->rules[r].rhs, g->rules[r].name))
                continue;
            expr_list_push(&refs, gb_ref(g, g->rules[r].name, strlen(g->rules[r].name), e->pos,
                                         e->end));
        }
        if (refs.len == 1) {
            /* One token: the reference itself (no alternation of one). */
            e->kind = EXPR_REF;
            e->u.ref = refs.items[0]->u.ref;
        } else if (refs.len == 0) {
            diag_add(im->diags, DIAG_ERROR, g->file, e->pos.line, e->pos.col,
                     "no token is left for this '~' or '.' to stand for");
        } else {
            e->children = arena_alloc(&g->arena, refs.len * sizeof *e->children);
            e->nchildren = (uint32_t)refs.len;
            for (size_t k = 0; k < refs.len; k++) {
                e->children[k] = refs.items[k];
                refs.items[k]->parent = e;
            }
        }
        expr_list_free(&refs);
    }
    resolve_all(g);
}

/* NULL and DEFAULT_MODE (ANTLR's name for it) are the default mode. */
static bool same_mode(const char *a, const char *b)
{
    bool a_default = !a || strcmp(a, "DEFAULT_MODE") == 0;
    bool b_default = !b || strcmp(b, "DEFAULT_MODE") == 0;
    if (a_default || b_default)
        return a_default && b_default;
    return strcmp(a, b) == 0;
}

/* `more`: ANTLR's lexer keeps the text of a `more` token and goes on, so
 * the next token's text begins with it.  Each token T (not `more`, not a
 * fragment) of mode M becomes
 *     (E1 | E2 ...)  (M1 | M2 ...)*  T
 * where the Ei are the `more` tokens that enter M (pushMode(M) or mode(M)),
 * required when every way into M is one of them and optional otherwise (no
 * part when there is none), and the Mi are the `more` tokens of M that stay
 * in it.  One level: a `more` token's own prefix is not added to it. */
static void join_more_tokens(struct importer *im)
{
    struct grammar *g = im->g;
    uint32_t n = g->nrules;
    bool any = false;
    for (uint32_t r = 0; r < n; r++)
        any = any || im->info[r].more;
    if (!any)
        return;
    struct expr_list enter = {0}, stay = {0}, items = {0};
    for (uint32_t r = 0; r < n; r++) {
        const struct rule_info *ri = &im->info[r];
        if (!ri->lexer || ri->fragment || ri->more)
            continue;
        enter.len = stay.len = items.len = 0;
        bool other_ways_in = ri->mode == NULL; /* the lexer starts in the default mode */
        for (uint32_t m = 0; m < n; m++) {
            const struct rule_info *mi = &im->info[m];
            struct rule *mr = &g->rules[m];
            if (mi->enters && same_mode(mi->enters, ri->mode) && !mi->more)
                other_ways_in = true;
            if (!mi->more)
                continue;
            struct expr *ref = gb_ref(g, mr->name, strlen(mr->name), mr->pos, mr->pos);
            if (mi->enters && !same_mode(mi->enters, mi->mode)) {
                if (same_mode(mi->enters, ri->mode))
                    expr_list_push(&enter, ref);
            } else if (same_mode(mi->mode, ri->mode)) {
                expr_list_push(&stay, ref);
            }
        }
        if (!enter.len && !stay.len)
            continue;
        struct src_pos at = g->rules[r].pos;
        if (enter.len) {
            struct expr *e = gb_alt(g, enter.items, enter.len, NULL, at, at);
            expr_list_push(&items, other_ways_in ? gb_quant(g, e, 0, 1, at, at) : e);
        }
        if (stay.len)
            expr_list_push(&items, gb_quant(g, gb_alt(g, stay.items, stay.len, NULL, at, at), 0,
                                            QUANT_INFINITE, at, at));
        expr_list_push(&items, g->rules[r].rhs);
        g->rules[r].rhs = gb_seq(g, items.items, items.len, at, at);
    }
    expr_list_free(&enter);
    expr_list_free(&stay);
    expr_list_free(&items);
}

#define SET_RULE_DEPTH 64 /* rules a set may name through one another */

/* The characters rule `r` matches when it is a set of single characters
 * (a set, a one-character literal, a range, an alternation of those, or a
 * rule that is one), added to *out; false when it is not one. */
static bool rule_char_set(const struct grammar *g, uint32_t r, struct class_range **out,
                          size_t *n, size_t *cap)
{
    struct rule_hop { const struct expr *e; int depth; } *work = NULL;
    size_t nwork = 0, wcap = 0;
    work = xgrow(work, &wcap, 1, sizeof *work);
    work[nwork++] = (struct rule_hop){g->rules[r].rhs, 0};
    bool ok = true;
    while (ok && nwork) {
        struct rule_hop h = work[--nwork];
        const struct expr *e = h.e;
        switch (e->kind) {
        case EXPR_CLASS: {
            struct class_range *c = e->u.cls.ranges;
            uint32_t m = e->u.cls.nranges;
            if (!e->u.cls.negated) {
                *out = xgrow(*out, cap, *n + m, sizeof **out);
                memcpy(*out + *n, c, m * sizeof *c);
                *n += m;
                break;
            }
            uint32_t from = 0;
            for (uint32_t k = 0; k <= m; k++) {
                uint32_t to = k < m ? c[k].lo : UTF8_MAX_CODEPOINT + 1;
                if (to > from) {
                    *out = xgrow(*out, cap, *n + 1, sizeof **out);
                    (*out)[(*n)++] = (struct class_range){from, to - 1};
                }
                if (k < m)
                    from = c[k].hi + 1;
            }
            break;
        }
        case EXPR_LIT: {
            uint32_t cp;
            size_t len = utf8_decode(e->u.lit.text, e->u.lit.len, &cp);
            if (!len || len != e->u.lit.len) {
                ok = false;
                break;
            }
            *out = xgrow(*out, cap, *n + 1, sizeof **out);
            (*out)[(*n)++] = (struct class_range){cp, cp};
            break;
        }
        case EXPR_ALT:
            work = xgrow(work, &wcap, nwork + e->nchildren, sizeof *work);
            for (uint32_t k = 0; k < e->nchildren; k++)
                work[nwork++] = (struct rule_hop){e->children[k], h.depth};
            break;
        case EXPR_REF: {
            uint32_t t = grammar_find_rule(g, e->u.ref.name);
            if (t == RULE_NONE || h.depth >= SET_RULE_DEPTH) {
                ok = false;
                break;
            }
            work = xgrow(work, &wcap, nwork + 1, sizeof *work);
            work[nwork++] = (struct rule_hop){g->rules[t].rhs, h.depth + 1};
            break;
        }
        default: ok = false; break;
        }
    }
    free(work);
    return ok;
}

/* ~RULE: the rules' characters join the sets written out, then the class
 * is their complement.  A rule that is not a set is an error. */
static void resolve_not_rules(struct importer *im)
{
    struct grammar *g = im->g;
    for (size_t k = 0; k < im->nnot_rules; k++) {
        struct not_rule *nr = &im->not_rules[k];
        struct expr *cls = nr->cls;
        size_t n = cls->u.cls.nranges, cap = n;
        struct class_range *r = xmalloc((n ? n : 1) * sizeof *r);
        memcpy(r, cls->u.cls.ranges, n * sizeof *r);
        bool ok = true;
        for (size_t i = 0; ok && i < nr->nnames; i++) {
            uint32_t t = grammar_find_rule(g, nr->names[i]);
            if (t == RULE_NONE) {
                diag_add(im->diags, DIAG_ERROR, nr->file, nr->pos.line, nr->pos.col,
                         "'~%s': there is no rule '%s'", nr->names[i], nr->names[i]);
                ok = false;
            } else if (!rule_char_set(g, t, &r, &n, &cap)) {
                diag_add(im->diags, DIAG_ERROR, nr->file, nr->pos.line, nr->pos.col,
                         "'~%s': rule '%s' is not a set of single characters, so its "
                         "complement cannot be expressed",
                         nr->names[i], nr->names[i]);
                ok = false;
            }
        }
        if (ok) {
            n = gb_normalize_ranges(r, n);
            struct expr *fresh = gb_class(g, r, n, true, cls->pos, cls->end);
            cls->u.cls = fresh->u.cls;
        }
        free(r);
    }
}

/* ---- skip tokens per lexer mode -----------------------------------------
 * ANTLR's lexer drops the skip tokens of the mode it is in.  Between two
 * tokens of a parser rule that is the mode after the first: the mode it
 * enters (pushMode(X), mode(X)), the mode it returns to (popMode: the mode
 * of the tokens that push its mode), else its own.  Each set of modes gets
 * a rule over their skip tokens, `_skip` for the default mode and
 * `_skip_M` for mode M (`_skip_A_B` when a popMode can return to A or B),
 * made when first needed. */

static size_t mode_index(struct importer *im, const char *mode)
{
    for (size_t k = 0; k < im->nmodes; k++)
        if (same_mode(im->modes[k], mode))
            return k;
    im->modes = xgrow(im->modes, &im->modes_cap, im->nmodes + 1, sizeof *im->modes);
    im->modes[im->nmodes] = mode;
    return im->nmodes++;
}

/* warn_alike at rule r's definition. */
static void warn_rule(struct importer *im, uint32_t r, char *one, char *many)
{
    const struct rule *rule = &im->g->rules[r];
    warn_alike(im, rule->file ? rule->file : im->g->file, rule->pos, rule->name, one, many);
}

/* The token rule a literal of a parser rule is: the lexer rule that is
 * exactly that literal, as ANTLR takes it; else RULE_NONE (an implicit
 * token, of the default mode). */
static uint32_t literal_token_rule(const struct importer *im, const struct expr *lit)
{
    const struct grammar *g = im->g;
    const char *text, *rtext;
    size_t len, rlen;
    if (!literal_text(im, lit, &text, &len))
        return RULE_NONE;
    for (uint32_t r = 0; r < g->nrules; r++) {
        const struct expr *e = g->rules[r].rhs;
        if (im->info[r].lexer && !im->info[r].fragment && !im->info[r].no_alias &&
            literal_text(im, e, &rtext, &rlen) &&
            rlen == len && memcmp(rtext, text, len) == 0)
            return r;
    }
    return RULE_NONE;
}

static void modes_after_rule(struct importer *im, uint32_t r, bool *in);

/* Marks in[] the modes the lexer can be in after `token`.  A token of a
 * parser rule is also every token that `-> type(X)` makes one of its type (JavaScript's `BackTickInside: '`' -> type(BackTick),
 * popMode` ends a template that BackTick, which pushes, began): the modes
 * after any of them. */
static void modes_after(struct importer *im, const struct expr *token, bool *in)
{
    struct grammar *g = im->g;
    uint32_t r = RULE_NONE;
    if (token->kind == EXPR_REF)
        r = grammar_find_rule(g, token->u.ref.name);
    else
        r = literal_token_rule(im, token);
    if (r == RULE_NONE || r >= g->nrules || !im->info[r].lexer) {
        in[0] = true;
        return;
    }
    modes_after_rule(im, r, in);
    for (uint32_t t = 0; t < g->nrules; t++)
        if (t != r && im->info[t].lexer && !im->info[t].fragment && im->info[t].type &&
            strcmp(im->info[t].type, g->rules[r].name) == 0)
            modes_after_rule(im, t, in);
}

static void modes_after_rule(struct importer *im, uint32_t r, bool *in)
{
    struct grammar *g = im->g;
    struct rule_info *info = &im->info[r];
    if (info->enters || !info->pops) {
        in[mode_index(im, info->enters ? info->enters : info->mode)] = true;
        return;
    }
    /* popMode: back to where the mode was pushed from. */
    const char *mode = info->mode ? info->mode : "DEFAULT_MODE";
    size_t back = 0;
    struct strbuf names = STRBUF_INIT;
    for (uint32_t m = 0; m < g->nrules; m++) {
        const struct rule_info *mi = &im->info[m];
        if (!mi->lexer || !mi->pushes || !same_mode(mi->enters, info->mode))
            continue;
        size_t k = mode_index(im, mi->mode);
        if (in[k])
            continue;
        in[k] = true;
        strbuf_addf(&names, "%s'%s'", back++ ? " or " : "", mi->mode ? mi->mode : "DEFAULT_MODE");
    }
    if (back == 0) {
        in[0] = true;
        if (!info->warned_pop)
            warn_rule(im, r,
                      sentence("token '%s' pops the lexer mode, but no token pushes its mode "
                               "'%s': kpath allows the skip tokens of the default mode after it",
                               g->rules[r].name, mode),
                      sentence("tokens pop the lexer mode '%s', which no token pushes: kpath "
                               "allows the skip tokens of the default mode after them", mode));
    } else if (back > 1 && !info->warned_pop) {
        warn_rule(im, r,
                  sentence("token '%s' pops the lexer mode back to %s, whichever pushed "
                           "'%s' (it depends on the input before it, which a context-free "
                           "grammar cannot follow here): kpath allows the skip tokens of all of "
                           "them after it",
                           g->rules[r].name, strbuf_str(&names), mode),
                  sentence("tokens pop the lexer mode back to %s, whichever pushed '%s' (it "
                           "depends on the input before them, which a context-free grammar "
                           "cannot follow here): kpath allows the skip tokens of all of those "
                           "modes after them",
                           strbuf_str(&names), mode));
    }
    info->warned_pop = true;
    strbuf_free(&names);
}

/* A skip token that changes the lexer mode (objc's '#' -> mode(DIRECTIVE),
 * a directive line of skip tokens, then a newline -> mode(DEFAULT)) is
 * followed: after it come the skip tokens of the mode it enters, until one
 * that returns to a mode of in[] (the modes the skip rule is for).  The rule
 * `BASE_via_P` is that way from mode P: (the skip tokens that stay in P)*
 * then one that returns, or one that enters another mode Q followed by
 * BASE_via_Q.  A way that would come back to a mode already on it is not
 * taken (no recursion), and a mode with no way back gives NULL. */
static const char *skip_back_rule(struct importer *im, size_t p, const bool *in,
                                  const char *base, bool *on_way)
{
    struct grammar *g = im->g;
    struct strbuf name = STRBUF_INIT;
    strbuf_addf(&name, "%s_via_%s", base, p ? im->modes[p] : "DEFAULT_MODE");
    uint32_t found = grammar_find_rule(g, strbuf_str(&name));
    if (found != RULE_NONE || on_way[p]) {
        strbuf_free(&name);
        return found != RULE_NONE ? g->rules[found].name : NULL;
    }
    on_way[p] = true;
    struct expr_list stays = {0}, exits = {0};
    size_t nmodes = im->nmodes;
    bool *after = xcalloc(nmodes, sizeof *after);
    uint32_t nrules = g->nrules;
    for (uint32_t t = 0; t < nrules; t++) {
        const struct rule_info *ti = &im->info[t];
        if (!ti->skip || !ti->lexer || mode_index(im, ti->mode) != p)
            continue;
        struct rule *tr = &g->rules[t];
        memset(after, 0, nmodes * sizeof *after);
        modes_after_rule(im, t, after); /* this rule's own, not its type's */
        bool stays_here = true, returns = false;
        for (size_t q = 0; q < nmodes; q++) {
            if (!after[q] || q == p)
                continue;
            stays_here = false;
            if (in[q]) {
                returns = true;
                continue;
            }
            const char *via = skip_back_rule(im, q, in, base, on_way);
            if (via) {
                struct expr *pair[2] = {skip_ref(g, tr->name, tr->pos), skip_ref(g, via, tr->pos)};
                expr_list_push(&exits, gb_seq(g, pair, 2, tr->pos, tr->pos));
                im->info[t].mode_followed = true;
            }
        }
        if (returns) {
            expr_list_push(&exits, skip_ref(g, tr->name, tr->pos));
            im->info[t].mode_followed = true;
        } else if (stays_here) {
            expr_list_push(&stays, skip_ref(g, tr->name, tr->pos));
        }
    }
    free(after);
    on_way[p] = false;
    const char *made = NULL;
    if (exits.len) {
        struct src_pos at = im->skip_at;
        struct expr *items[2];
        size_t n = 0;
        if (stays.len)
            items[n++] = gb_quant(g, gb_alt(g, stays.items, stays.len, NULL, at, at), 0,
                                  QUANT_INFINITE, at, at);
        items[n++] = gb_alt(g, exits.items, exits.len, NULL, at, at);
        uint32_t r = gb_add_rule(g, strbuf_str(&name), at, gb_seq(g, items, n, at, at));
        im->info = xgrow(im->info, &im->info_cap, g->nrules, sizeof *im->info);
        im->info[r] = (struct rule_info){.main_file = true};
        made = g->rules[r].name;
    }
    expr_list_free(&stays);
    expr_list_free(&exits);
    strbuf_free(&name);
    return made;
}

/* The skip rule of the modes in[] (made now if it is new), or NULL when
 * they have no skip tokens. */
static const char *skip_rule_of(struct importer *im, const bool *in)
{
    struct grammar *g = im->g;
    struct strbuf name = STRBUF_INIT;
    strbuf_addstr(&name, ANTLR_SKIP_RULE);
    bool only_default = in[0];
    for (size_t k = 1; k < im->nmodes; k++)
        only_default = only_default && !in[k];
    for (size_t k = 0; k < im->nmodes && !only_default; k++)
        if (in[k])
            strbuf_addf(&name, "_%s", k ? im->modes[k] : "DEFAULT_MODE");
    uint32_t r = grammar_find_rule(g, strbuf_str(&name));
    if (r != RULE_NONE) {
        strbuf_free(&name);
        return g->rules[r].name;
    }
    struct expr_list refs = {0};
    struct src_pos at = g->rules[g->start < g->nrules ? g->start : 0].pos;
    size_t nmodes = im->nmodes;
    bool *after = xcalloc(nmodes, sizeof *after), *on_way = xcalloc(nmodes, sizeof *on_way);
    uint32_t nrules = g->nrules;
    for (uint32_t t = 0; t < nrules; t++) {
        if (!im->info[t].skip || !im->info[t].lexer || !in[mode_index(im, im->info[t].mode)])
            continue;
        struct rule *sr = &g->rules[t];
        struct expr *ref = gb_ref(g, sr->name, strlen(sr->name), sr->pos, sr->pos);
        bool leaves = false;
        if (im->info[t].enters || im->info[t].pops) {
            /* where it leads: other modes are followed back (skip_back_rule) */
            memset(after, 0, nmodes * sizeof *after);
            modes_after_rule(im, t, after); /* this rule's own, not its type's */
            for (size_t q = 0; q < nmodes; q++) {
                if (!after[q] || in[q])
                    continue;
                leaves = true;
                for (size_t k = 0; k < nmodes; k++)
                    on_way[k] = in[k];
                const char *via = skip_back_rule(im, q, in, strbuf_str(&name), on_way);
                if (via) {
                    struct expr *pair[2] = {ref, skip_ref(g, via, sr->pos)};
                    expr_list_push(&refs, gb_seq(g, pair, 2, sr->pos, sr->pos));
                    im->info[t].mode_followed = true;
                    ref = gb_ref(g, sr->name, strlen(sr->name), sr->pos, sr->pos);
                }
            }
        }
        if (!leaves || !im->info[t].mode_followed)
            expr_list_push(&refs, ref);
    }
    free(after);
    free(on_way);
    const char *made = NULL;
    if (refs.len) {
        at = im->skip_at;
        struct expr *alt = gb_alt(g, refs.items, refs.len, NULL, at, at);
        r = gb_add_rule(g, strbuf_str(&name), at, gb_quant(g, alt, 0, QUANT_INFINITE, at, at));
        im->info = xgrow(im->info, &im->info_cap, g->nrules, sizeof *im->info);
        im->info[r] = (struct rule_info){false, false, false, true, false, NULL, NULL, false,
                                         false, false, false, NULL, false, false, false};
        made = g->rules[r].name;
    }
    expr_list_free(&refs);
    strbuf_free(&name);
    return made;
}

static const char *skip_rule_after(struct importer *im, const struct expr *token)
{
    bool *in = xcalloc(im->nmodes, sizeof *in);
    modes_after(im, token, in);
    const char *name = skip_rule_of(im, in);
    free(in);
    return name;
}

/* Skip tokens, the `_skip` rule and the references to it; then the rules
 * nothing uses are dropped (tokens the parser never asks for).  Returns the
 * start rule's name (in the arena), or NULL when --start names no rule. */
/* grammar.lexer: ANTLR's lexer (grammar/lexer.h), taken before the lexer
 * rules are changed (join_more_tokens) or dropped (unused by the parser).
 * Implicit tokens first, in the order of their first use: each literal of a
 * parser rule that no lexer rule spells (ANTLR defines them before the
 * lexer rules, so 'if' beats an identifier rule of the same text). */
static void build_lexer_spec(struct importer *im)
{
    struct grammar *g = im->g;
    struct lexer_rule *rules = NULL;
    size_t *lens = NULL; /* per implicit rule: its text's length */
    size_t n = 0, cap = 0, lens_cap = 0;
    struct expr **stack = NULL;
    size_t top = 0, stack_cap = 0;
    for (uint32_t r = 0; r < g->nrules; r++) {
        if (im->info[r].lexer)
            continue;
        stack = xgrow(stack, &stack_cap, top + 1, sizeof *stack);
        stack[top++] = g->rules[r].rhs;
        while (top) {
            struct expr *e = stack[--top];
            const char *text;
            size_t len;
            if (literal_text(im, e, &text, &len)) {
                /* a token (a case-insensitive one is not its pieces) */
                if (literal_token_rule(im, e) != RULE_NONE)
                    continue;
                bool seen = false;
                for (size_t k = 0; k < n && !seen; k++)
                    seen = lens[k] == len && memcmp(rules[k].name, text, len) == 0;
                if (!seen) {
                    rules = xgrow(rules, &cap, n + 1, sizeof *rules);
                    lens = xgrow(lens, &lens_cap, n + 1, sizeof *lens);
                    lens[n] = len;
                    rules[n++] = (struct lexer_rule){.name = text, .rhs = e, .implicit = true};
                }
                continue;
            }
            /* children in reverse, so that the first is taken first */
            for (uint32_t j = e->nchildren; j-- > 0;) {
                stack = xgrow(stack, &stack_cap, top + 1, sizeof *stack);
                stack[top++] = e->children[j];
            }
        }
    }
    free(stack);
    free(lens);
    for (uint32_t r = 0; r < g->nrules; r++) {
        const struct rule_info *ri = &im->info[r];
        if (!ri->lexer)
            continue;
        rules = xgrow(rules, &cap, n + 1, sizeof *rules);
        rules[n++] = (struct lexer_rule){
            .name = g->rules[r].name, .rhs = g->rules[r].rhs, .mode = ri->mode, .type = ri->type,
            .enters = ri->enters, .fragment = ri->fragment, .skip = ri->skip, .more = ri->more,
            .pushes = ri->pushes, .pops = ri->pops, .predicated = ri->predicated,
            .no_alias = ri->no_alias};
    }
    struct lexer_spec *spec = arena_alloc(&g->arena, sizeof *spec);
    spec->nrules = (uint32_t)n;
    spec->rules = arena_alloc(&g->arena, (n ? n : 1) * sizeof *spec->rules);
    if (n)
        memcpy(spec->rules, rules, n * sizeof *rules);
    /* sorted by address as im->ci_literals (finish_structure) */
    struct lexer_literal *ci = arena_alloc(&g->arena, (im->nci ? im->nci : 1) * sizeof *ci);
    for (size_t k = 0; k < im->nci; k++)
        ci[k] = (struct lexer_literal){im->ci_literals[k].e, im->ci_literals[k].text,
                                       im->ci_literals[k].len};
    spec->ci_literals = ci;
    spec->nci = (uint32_t)im->nci;
    spec->neofs = (uint32_t)im->neofs;
    spec->eofs = arena_alloc(&g->arena, (im->neofs ? im->neofs : 1) * sizeof *spec->eofs);
    if (im->neofs)
        memcpy(spec->eofs, im->eofs, im->neofs * sizeof *im->eofs);
    spec->nlazies = (uint32_t)im->nlazies;
    spec->lazies = arena_alloc(&g->arena, (im->nlazies ? im->nlazies : 1) * sizeof *spec->lazies);
    if (im->nlazies)
        memcpy(spec->lazies, im->lazies, im->nlazies * sizeof *im->lazies);
    free(rules);
    g->lexer = spec;
}

static const char *finish_structure(struct importer *im)
{
    struct grammar *g = im->g;
    if (im->nci > 1)
        qsort(im->ci_literals, im->nci, sizeof *im->ci_literals, ci_cmp);
    build_lexer_spec(im);
    join_more_tokens(im);
    size_t errors_before = im->diags->errors;
    resolve_not_rules(im);
    if (im->diags->errors > errors_before)
        return NULL;
    resolve_all(g);
    uint32_t start = choose_start(im);
    if (start == RULE_NONE)
        return NULL;
    fill_any_tokens(im);
    bool parser_start = !im->info[start].lexer;
    uint32_t nskip = 0;
    for (uint32_t r = 0; r < g->nrules; r++)
        nskip += im->info[r].skip;
    if (nskip && parser_start && grammar_find_rule(g, ANTLR_SKIP_RULE) == RULE_NONE) {
        uint32_t nrules = g->nrules;
        mode_index(im, NULL); /* the default mode is modes[0] */
        for (uint32_t r = 0; r < nrules; r++) {
            if (im->info[r].lexer) {
                mode_index(im, im->info[r].mode);
                if (im->info[r].enters)
                    mode_index(im, im->info[r].enters);
            }
            if (!im->info[r].skip)
                continue;
            struct rule *sr = &g->rules[r];
            /* X+ (X*, X?) read as X: the star of _skip repeats it. */
            if (sr->rhs->kind == EXPR_QUANT && sr->rhs->u.quant.max != 1 &&
                sr->rhs->u.quant.min <= 1 && !referenced_elsewhere(g, r, RULE_NONE)) {
                sr->rhs = sr->rhs->children[0];
                sr->rhs->parent = NULL;
            } else if (sr->rhs->kind == EXPR_QUANT && sr->rhs->u.quant.max == 1 &&
                       !referenced_elsewhere(g, r, RULE_NONE)) {
                sr->rhs = sr->rhs->children[0];
                sr->rhs->parent = NULL;
            }
        }
        im->skip_at = g->rules[start].pos;
        /* The default mode's rule first: the input begins in that mode. */
        bool *in = xcalloc(im->nmodes, sizeof *in);
        in[0] = true;
        const char *first_skip = skip_rule_of(im, in);
        free(in);
        for (uint32_t r = 0; r < nrules; r++)
            if (!im->info[r].lexer)
                insert_skips(im, r);
        /* Skip tokens whose mode change no skip rule follows (see
         * skip_back_rule): where a mode has no way back by skip tokens, or
         * the modes after them are not asked for between tokens. */
        for (uint32_t r = 0; r < nrules; r++) {
            const struct rule_info *ri = &im->info[r];
            if (!ri->skip || !ri->lexer || !(ri->enters || ri->pops) || ri->mode_followed)
                continue;
            const char *change = ri->pops ? "popMode" : ri->enters;
            warn_rule(im, r,
                      sentence("skip token '%s' changes the lexer mode (%s) with no way back "
                               "by skip tokens: kpath allows it between tokens like the other "
                               "skip tokens of its mode, and does not follow the change",
                               g->rules[r].name, change),
                      sentence("skip tokens change the lexer mode (pushMode, mode or popMode) "
                               "with no way back by skip tokens: kpath allows them between "
                               "tokens like the other skip tokens of their mode, and does not "
                               "follow the change"));
        }
        /* The input may begin with skip tokens. */
        resolve_all(g);
        struct rule *sr = &g->rules[start];
        if (!first_skip) {
            /* the default mode has none */
        } else if (!referenced_elsewhere(g, start, RULE_NONE)) {
            struct expr *e = sr->rhs;
            struct expr_list kids = {0};
            expr_list_push(&kids, skip_ref(g, first_skip, e->pos));
            if (e->kind == EXPR_CAT)
                for (uint32_t j = 0; j < e->nchildren; j++)
                    expr_list_push(&kids, e->children[j]);
            else
                expr_list_push(&kids, e);
            sr->rhs = gb_seq(g, kids.items, kids.len, e->pos, e->end);
            sr->rhs->parent = NULL;
            expr_list_free(&kids);
        } else {
            struct expr *pair[2] = {skip_ref(g, first_skip, sr->pos),
                                    gb_ref(g, sr->name, strlen(sr->name), sr->pos, sr->pos)};
            uint32_t w = gb_add_rule(g, START_WRAPPER, sr->pos, gb_seq(g, pair, 2, sr->pos, sr->pos));
            if (w != RULE_NONE) {
                im->info = xgrow(im->info, &im->info_cap, g->nrules, sizeof *im->info);
                im->info[w] = (struct rule_info){false, false, false, true, false, NULL, NULL,
                                                 false, false, false, false, NULL, false, false, false};
                start = w;
            }
        }
        resolve_all(g);
    }
    /* Keep every parser rule, and the lexer rules something kept uses. */
    bool *keep = xcalloc(g->nrules, sizeof *keep);
    for (uint32_t r = 0; r < g->nrules; r++)
        keep[r] = !im->info[r].lexer || r == start;
    mark_reachable(g, keep);
    uint32_t *order = xmalloc(((size_t)g->nrules + 1) * sizeof *order);
    uint32_t n = 0;
    const char *start_name = g->rules[start].name;
    bool wrapped = strcmp(start_name, START_WRAPPER) == 0;
    if (wrapped)
        order[n++] = start; /* the wrapper reads best first */
    for (uint32_t r = 0; r < g->nrules; r++)
        if (keep[r] && !(wrapped && r == start))
            order[n++] = r;
    g->start = start;
    grammar_keep_rules(g, order, n);
    free(order);
    free(keep);
    return start_name;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? xstrndup(path, (size_t)(slash - path + 1)) : xstrdup("");
}

static void parse_text(struct importer *im, const char *file, const char *text, size_t len,
                       bool is_main)
{
    /* a lone CR ends a line, as in every reader (base/line_end.h); the text
     * read lives as long as the grammar, since names point into it */
    char *unified;
    if (!gb_reader_text(file, &text, len, &unified, im->diags))
        return;
    if (unified) {
        text = arena_strndup(&im->g->arena, unified, len);
        free(unified);
    }
    struct afile F = {0};
    F.im = im;
    F.file = file;
    F.is_main = is_main;
    F.cur_rule = RULE_NONE;
    F.cur_rule_name = "";
    text_cursor_init(&F.c, text, len);
    parse_file(&F);
}

/* The --token NAME=DEFINITION options: each read as the lexer rule
 * `NAME : DEFINITION ;` (ANTLR's syntax, commands included) that replaces
 * the rule NAME where there is one, else comes after every other rule.  An
 * empty DEFINITION is a token without text (Python's INDENT and DEDENT,
 * which actions emit): the parser reads it between any two tokens
 * (parse/token_bounds.h).  Diagnostics at "--token:1:COL", COL counting in
 * the option's value. */
static void parse_token_options(struct importer *im)
{
    if (!im->opts)
        return;
    for (size_t k = 0; k < im->opts->ntokens; k++) {
        const char *def = im->opts->tokens[k];
        const char *eq = strchr(def, '=');
        const char *file = "--token";
        size_t n = eq ? (size_t)(eq - def) : 0;
        bool named = n > 0 && def[0] >= 'A' && def[0] <= 'Z';
        for (size_t i = 0; named && i < n; i++)
            named = is_id_char((unsigned char)def[i]);
        if (!named) {
            diag_add(im->diags, DIAG_ERROR, file, 1, 1,
                     "expected NAME=DEFINITION, NAME a token name (a capital first), not '%s'",
                     def);
            continue;
        }
        /* "NAME:DEFINITION\n;" keeps the definition's columns. */
        struct strbuf text = STRBUF_INIT;
        strbuf_addf(&text, "%.*s:%s\n;", (int)n, def, eq + 1);
        const char *src = arena_strndup(&im->g->arena, strbuf_str(&text), text.len);
        struct afile F = {0};
        F.im = im;
        F.file = file;
        F.is_main = true;
        F.token_option = true;
        F.cur_rule = RULE_NONE;
        F.cur_rule_name = "";
        text_cursor_init(&F.c, src, text.len);
        lex(&F, &F.tok);
        parse_rule(&F);
        if (F.tok.kind != T_EOF)
            expected(&F, "the end of the definition");
        strbuf_free(&text);
    }
}

/* The imported grammars and the token vocabulary, each once. */
static void parse_pending(struct importer *im, const char *from)
{
    for (size_t k = 0; k < im->npending; k++) {
        const char *name = im->pending[k];
        bool seen = false;
        for (size_t j = 0; j < im->nloaded; j++)
            seen = seen || strcmp(im->loaded[j], name) == 0;
        if (seen)
            continue;
        if (im->nloaded >= MAX_FILES) {
            diag_add(im->diags, DIAG_ERROR, from, 0, 0, "more than %d grammars imported",
                     MAX_FILES);
            return;
        }
        im->loaded = xrealloc(im->loaded, (im->nloaded + 1) * sizeof *im->loaded);
        im->loaded[im->nloaded++] = xstrdup(name);
        struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
        strbuf_addf(&path, "%s%s.g4", im->dir, name);
        const char *file = arena_strndup(&im->g->arena, strbuf_str(&path), path.len);
        struct diag_list local = DIAG_LIST_INIT;
        if (grammar_read_file(file, NULL, &text, &local)) {
            parse_text(im, file, strbuf_str(&text), text.len, false);
        } else {
            /* Said where the grammar was named, with the reason. */
            struct src_pos at = im->pending_pos[k];
            diag_add(im->diags, DIAG_ERROR, im->pending_file[k], at.line, at.col,
                     "cannot read the grammar '%s' (%s): %s", name, file,
                     local.len ? local.items[0].message : "unknown error");
        }
        diag_list_free(&local);
        strbuf_free(&path);
        strbuf_free(&text);
    }
}

/* grammar_finish warns once per unreachable rule: a large grammar read from
 * the wrong start rule gets hundreds of lines.  Said once instead, at the
 * first, with the count and the first names. */
static void collapse_unreachable(struct diag_list *diags, size_t from)
{
    const char *head = "rule '", *mid = "' is unreachable from the start rule '";
    size_t count = 0, first = SIZE_MAX;
    for (size_t k = from; k < diags->len; k++) {
        const struct diag *d = &diags->items[k];
        if (d->severity == DIAG_WARNING && strncmp(d->message, head, strlen(head)) == 0 &&
            strstr(d->message, mid)) {
            count++;
            if (first == SIZE_MAX)
                first = k;
        }
    }
    if (count < 2)
        return;
    struct strbuf msg = STRBUF_INIT;
    const char *start = strstr(diags->items[first].message, mid) + strlen(mid);
    strbuf_addf(&msg, "%zu rules are unreachable from the start rule '%.*s' (give --start to "
                "choose another); the first is here: ",
                count, (int)(strlen(start) - 1), start);
    size_t named = 0, kept = from;
    for (size_t k = from; k < diags->len; k++) {
        struct diag *d = &diags->items[k];
        const char *at = strstr(d->message, mid);
        bool alike = d->severity == DIAG_WARNING &&
                     strncmp(d->message, head, strlen(head)) == 0 && at;
        if (alike && named < ALIKE_NAMED)
            strbuf_addf(&msg, "%s'%.*s'", named++ ? ", " : "",
                        (int)(at - d->message - strlen(head)), d->message + strlen(head));
        if (alike && k != first) {
            free(d->file);
            free(d->message);
            continue;
        }
        diags->items[kept++] = *d;
    }
    diags->len = kept;
    if (count > named)
        strbuf_addf(&msg, " and %zu more", count - named);
    for (size_t k = from; k < diags->len; k++) {
        if (diags->items[k].message && strstr(diags->items[k].message, mid) &&
            diags->items[k].severity == DIAG_WARNING) {
            free(diags->items[k].message);
            diags->items[k].message = strbuf_detach(&msg, NULL);
            break;
        }
    }
    strbuf_free(&msg);
}

struct grammar *import_antlr(const char *path, const char *text, size_t len,
                             const struct grammar_options *opts, struct diag_list *diags)
{
    struct importer im = {0};
    im.g = grammar_new(path);
    im.diags = diags;
    im.opts = opts;
    im.dir = dir_of(im.g->file);
    size_t errors_before = diags->errors;
    {
        /* The main grammar counts as loaded under its own name. */
        const char *base = strrchr(im.g->file, '/');
        base = base ? base + 1 : im.g->file;
        size_t n = strlen(base);
        if (n > 3 && strcmp(base + n - 3, ".g4") == 0)
            n -= 3;
        im.loaded = xmalloc(sizeof *im.loaded);
        im.loaded[im.nloaded++] = xstrndup(base, n);
    }
    parse_text(&im, im.g->file, text, len, true);
    if (diags->errors == errors_before)
        parse_pending(&im, im.g->file);
    if (diags->errors == errors_before)
        parse_token_options(&im);
    if (im.actions || im.predicates) {
        /* Where they are: the predicates first (they can change the language),
         * then the actions, each as LINE:COL (FILE:LINE:COL in another file). */
        struct strbuf where = STRBUF_INIT;
        size_t shown = 0;
        int listing = -1; /* the pass whose list is open */
        bool more = false;
        for (int pass = 0; pass < 2; pass++) {
            for (size_t k = 0; k < im.ncode_at; k++) {
                const struct alike_rule *a = &im.code_at[k];
                if ((a->name[0] == 'p') != (pass == 0))
                    continue;
                if (shown == ALIKE_NAMED) {
                    more = true;
                    continue;
                }
                if (listing != pass)
                    strbuf_addf(&where, "; %s at ", pass == 0 ? "predicates" : "actions");
                else
                    strbuf_addstr(&where, ", ");
                listing = pass;
                if (strcmp(a->file, im.first_action_file) != 0)
                    strbuf_addf(&where, "%s:", a->file);
                strbuf_addf(&where, "%u:%u", (unsigned)a->at.line, (unsigned)a->at.col);
                shown++;
            }
        }
        if (more)
            strbuf_addstr(&where, ", ...");
        diag_add(diags, DIAG_WARNING, im.first_action_file, im.first_action.line,
                 im.first_action.col,
                 "%zu action%s and %zu semantic predicate%s ignored (kpath reads the grammar "
                 "without running code; a predicate can make the language smaller)%s",
                 im.actions, im.actions == 1 ? "" : "s", im.predicates,
                 im.predicates == 1 ? "" : "s", strbuf_str(&where));
        /* for `kpath info` (the places without the leading "; ") */
        im.g->npredicates = (uint32_t)im.predicates;
        im.g->nactions = (uint32_t)im.actions;
        im.g->code_places = arena_strndup(&im.g->arena, strbuf_str(&where) + 2, where.len - 2);
        strbuf_free(&where);
    }
    bool ok = diags->errors == errors_before;
    ok = ok && check_declared_tokens(&im);
    if (ok && im.g->nrules) {
        const char *start = finish_structure(&im);
        struct grammar_options o = {0};
        if (opts)
            o = *opts;
        if (start)
            o.start = start;
        size_t diags_before = diags->len;
        ok = diags->errors == errors_before && grammar_finish(im.g, &o, diags);
        collapse_unreachable(diags, diags_before);
    } else if (ok) {
        diag_add(diags, DIAG_ERROR, im.g->file, 0, 0, "the grammar defines no rules");
        ok = false;
    }
    say_alike_warnings(&im);
    for (size_t k = 0; k < im.nloaded; k++)
        free(im.loaded[k]);
    free(im.loaded);
    for (size_t k = 0; k < im.npending; k++)
        free(im.pending[k]);
    free(im.pending);
    free(im.pending_pos);
    free(im.pending_file);
    free(im.info);
    free(im.declared);
    free(im.code_at);
    free(im.ci_literals);
    free(im.eofs);
    free(im.lazies);
    free(im.modes);
    for (size_t k = 0; k < im.nnot_rules; k++) {
        for (size_t i = 0; i < im.not_rules[k].nnames; i++)
            free(im.not_rules[k].names[i]);
        free(im.not_rules[k].names);
    }
    free(im.not_rules);
    for (size_t k = 0; k < im.nany; k++) {
        for (size_t j = 0; im.any_excluded[k] && im.any_excluded[k][j]; j++)
            free(im.any_excluded[k][j]);
        free(im.any_excluded[k]);
    }
    free(im.any_tokens);
    free(im.any_excluded);
    free(im.dir);
    if (!ok) {
        grammar_free(im.g);
        return NULL;
    }
    return im.g;
}
