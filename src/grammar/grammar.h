/* grammar: the syntax tree of a grammar, and what every reader of one
 * promises.  Three modules stand behind this header, from the bottom: the
 * tree itself (grammar.c), the checks every grammar passes (grammar_check.c,
 * with grammar_finish) and the reader of kpath's own format, .ebnf
 * (ebnf_reader.c, with grammar_load_string).
 *
 * Contract: grammar_load_* reads a grammar, appends every diagnostic it finds
 * (several per run where possible) to `diags`, and returns the grammar, or NULL
 * when there was at least one error.  A returned grammar is valid: every
 * reference is resolved, no rule is defined twice, every rule is productive,
 * weights are in range, and `start` names the start rule.  Warnings (start rule
 * guessed, unreachable rules) are appended but do not fail the load.
 *
 * Ownership: the grammar owns everything reachable from it; all syntax nodes
 * live in its arena and die with grammar_free.  Nothing here recurses on the
 * nesting depth of the input, so deep grammars cannot overflow the stack. */
#ifndef KPATH_GRAMMAR_H
#define KPATH_GRAMMAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"

#define QUANT_INFINITE UINT32_MAX
#define RULE_NONE UINT32_MAX

enum expr_kind {
    EXPR_ALT,   /* two or more alternatives */
    EXPR_CAT,   /* a sequence of two or more items */
    EXPR_QUANT, /* an atom with a quantifier */
    EXPR_LIT,   /* a string literal; "" is epsilon */
    EXPR_CLASS, /* a character class: matches one character */
    EXPR_REF,   /* a reference to a rule */
};

struct src_pos {
    uint32_t line, col; /* 1-based; col counts characters */
};

struct class_range {
    uint32_t lo, hi; /* inclusive code points */
};

/* A node of a right-hand side.  Parenthesized groups have no node of their own:
 * "(a | b)" is an EXPR_ALT, "(a b)" an EXPR_CAT, "(a)" just the atom.  An
 * alternation with one alternative, or a sequence with one item, is never
 * built: the single child stands in. */
struct expr {
    enum expr_kind kind;
    struct src_pos pos;      /* where the element starts in the file */
    struct src_pos end;      /* just past its last character */
    struct expr *parent;     /* NULL for a rule's right-hand side */
    uint32_t rule;           /* index of the rule whose right-hand side holds it */
    uint32_t nchildren;      /* ALT: alternatives; CAT: items; QUANT: 1; else 0 */
    struct expr **children;
    union {
        struct {
            /* Per alternative: the annotated probability in [0,1] (from "40%"
             * or "@@ 0.4"), or a negative value when not annotated.  NULL when
             * no alternative of this alternation is annotated. */
            double *weights;
        } alt;
        struct {
            uint32_t min, max; /* max == QUANT_INFINITE for *, + and {n,} */
        } quant;
        struct {
            char *text; /* UTF-8, NUL-terminated; may contain NUL (see len) */
            size_t len; /* bytes */
        } lit;
        struct {
            struct class_range *ranges; /* sorted, merged, as written (before negation) */
            uint32_t nranges;
            bool negated;
            char *source; /* the class as written, e.g. "[^\"\\\\]" */
        } cls;
        struct {
            char *name;      /* as written, angle brackets included ("<int>") */
            uint32_t target; /* index into grammar.rules */
        } ref;
    } u;
};

struct rule {
    char *name;          /* as written, angle brackets included */
    struct src_pos pos;  /* of the name in the definition */
    struct expr *rhs;
    const char *file;    /* where it was read when not grammar.file (an
                          * imported grammar), else NULL; for diagnostics */
    bool reachable;      /* from the start rule */
    /* Where the rule is written in grammar.source, as byte offsets (all 0 for
     * a rule that was not loaded, see grammar_rule_has_source):
     *   src_gap    start of what lies between the previous rule and this one
     *              (0 for the first rule, whose gap is the file's header
     *              [0, source_head));
     *   src_begin  start of the comment lines directly above the rule (no
     *              blank line between them and the name), else of the line of
     *              the name;
     *   src_name   the name;
     *   src_stop   just past the ';';
     *   src_end    past the rest of the last line (blanks, comments, the
     *              newline) when only that follows the ';' there, else src_stop.
     * [src_begin, src_end) is the rule's own text, written verbatim when the
     * rule is saved untouched; [src_gap, src_begin) is the spacing and the
     * comments before it. */
    size_t src_gap, src_begin, src_name, src_stop, src_end;
    /* Set by whoever changes rhs after loading: the source no longer says
     * what the rule is, so a writer prints it from the syntax tree. */
    bool edited;
};

struct rule_index; /* uthash table name -> rule index, private */
struct lexer_spec; /* grammar/lexer.h */

struct grammar {
    char *file;          /* as given to the loader */
    struct rule *rules;  /* in file order */
    uint32_t nrules;
    uint32_t start;      /* index of the start rule */
    struct arena arena;  /* owns every expr, name and string */
    struct rule_index *index;
    char *source;        /* the text loaded (in the arena, NUL-terminated) */
    size_t source_len;   /* bytes, without the terminating NUL */
    size_t source_head;  /* where the text before the first rule ends */
    size_t source_tail;  /* where the text after the last rule starts */
    size_t rules_cap;    /* allocated entries of rules */
    /* ANTLR's lexer for a grammar imported from .g4 (in the arena), else
     * NULL: see grammar/lexer.h. */
    const struct lexer_spec *lexer;
    /* Code the grammar's own tool runs and kpath does not (an ANTLR
     * grammar's semantic predicates and actions, which can change its
     * language): how many, and where the first are ("predicates at 3:5;
     * actions at 7:2, ...", in the arena; NULL when there is none). */
    uint32_t npredicates, nactions;
    const char *code_places;
};

/* Grammar files larger than this are refused before they are read. */
#define GRAMMAR_DEFAULT_MAX_SIZE ((size_t)16 << 20) /* bytes */

struct grammar_options {
    const char *start; /* --start NAME, or NULL to choose as documented */
    size_t max_size;   /* bytes; 0: GRAMMAR_DEFAULT_MAX_SIZE */
    /* grammar_load_file reads regular files only: a pipe (a FIFO, <(...) in
     * a shell), a device such as /dev/zero or /dev/tty, a socket or a
     * directory is an error that names --any-file.  True (--any-file): any
     * file that can be read but a directory, still at most max_size bytes. */
    bool any_file;
    /* --token NAME=DEFINITION (ANTLR grammars, formats/import_antlr.c): a
     * token rule the user defines, or one it replaces; borrowed, ntokens of
     * them. */
    const char *const *tokens;
    size_t ntokens;
};

/* `name` is used as FILE in diagnostics. */
struct grammar *grammar_load_string(const char *name, const char *text, size_t len,
                                    const struct grammar_options *opts,
                                    struct diag_list *diags);
void grammar_free(struct grammar *g);

/* ---- building a grammar (the importers of other formats) -----------------
 * grammar_new makes an empty grammar named `file` (no source text: its rules
 * are written from their syntax trees).  The importer adds rules with
 * grammar_add_rule and exprs with grammar_new_expr (positions in the original
 * file, children and reference names filled in; parents, `rule` and targets
 * are set by grammar_finish), then calls grammar_finish, which runs the
 * checks of grammar_check.h (references, start rule, reachability,
 * productivity) and returns false when it appended an error: the caller then
 * frees the grammar. */
struct grammar *grammar_new(const char *file);
bool grammar_finish(struct grammar *g, const struct grammar_options *opts,
                    struct diag_list *diags);

/* The file rule `rule` was read from (an importer reads several), for
 * diagnostics at its positions: rules[rule].file, else the grammar's file. */
const char *grammar_rule_file(const struct grammar *g, uint32_t rule);

/* Index of the rule called `name`, or RULE_NONE. */
uint32_t grammar_find_rule(const struct grammar *g, const char *name);

/* The rule an importer adds as the start rule when the input may begin with
 * skip tokens and the user's start rule S is also referenced by other rules
 * (so S itself cannot begin with them): `_start := _skip S` (ANTLR's
 * import).  No grammar file can define it: ANTLR names cannot start with
 * '_'. */
#define GRAMMAR_START_WRAPPER "_start"
/* The start rule as the user knows it: S when the start rule is that
 * wrapper, else the start rule.  What to show (kpath info, diagnostics)
 * where g->start would name a rule the user never wrote. */
uint32_t grammar_user_start(const struct grammar *g);

/* ---- changing a loaded grammar ------------------------------------------
 * For tools that rewrite grammars (kpath dup).  The caller keeps the grammar
 * valid: every reference resolved (target and name), every rule productive,
 * each expr in exactly one place. */

/* Was the rule loaded from grammar.source (and so has a span there)? */
static inline bool grammar_rule_has_source(const struct rule *r)
{
    return r->src_end > r->src_begin;
}
/* A zeroed expr in the grammar's arena (kind and rule set; the caller fills
 * in the rest). */
struct expr *grammar_new_expr(struct grammar *g, enum expr_kind kind, uint32_t rule);
/* Append a rule without source (the name is copied); returns its index, or
 * RULE_NONE when a rule of that name exists.  rhs->rule and the rule of
 * every expr below should be the new index (grammar_keep_rules fixes them). */
uint32_t grammar_add_rule(struct grammar *g, const char *name, struct expr *rhs);
/* Keep the rules order[0..n) (old indices, each at most once, the start rule
 * among them) in that order and drop every other.  Reference targets, the
 * `rule` of every expr, `start`, the name index and `reachable` are updated;
 * a reference to a dropped rule gets target RULE_NONE, so keep closed sets. */
void grammar_keep_rules(struct grammar *g, const uint32_t *order, uint32_t n);

/* Probability of alternative i of an EXPR_ALT: its annotation, or an equal
 * share of what the annotated alternatives leave. */
double grammar_alt_probability(const struct expr *alt, uint32_t i);

/* The quantifier as the graph shows it and the writer writes it: "?", "*",
 * "+", "{n}", "{n,}", "{,m}", "{n,m}". */
void grammar_quant_label(const struct expr *quant, struct strbuf *out);
/* A literal in double quotes with escapes, as the graph shows it: "a\"b\n". */
void grammar_lit_label(const char *text, size_t len, struct strbuf *out);
/* Does the class match code point cp? */
bool grammar_class_matches(const struct expr *cls, uint32_t cp);
/* Members of a class, negation applied, over U+0000..U+10FFFF less the
 * surrogates, in increasing order: how many, and the n-th (0-based). */
uint64_t grammar_class_size(const struct expr *cls);
uint32_t grammar_class_nth(const struct expr *cls, uint64_t n);
/* The character a terse input uses for the class: its smallest member in
 * printable ASCII ('!'..'~', then ' '), else its smallest member. */
uint32_t grammar_class_default_char(const struct expr *cls);

#endif
