/* lexer: ANTLR's lexer, run over a text, for grammars imported from .g4.
 *
 * kpath reads an ANTLR grammar as one character-level grammar (see
 * formats/import_antlr.c).  ANTLR itself first splits the text into tokens
 * and then parses the tokens; this module does the splitting exactly as
 * ANTLR's lexer does, so that what kpath generates and parses can be
 * checked against it:
 *   - at each position, every token rule of the current mode is tried; the
 *     longest match wins and, between matches of the same length, the rule
 *     defined first (implicit tokens, the literals of parser rules that no
 *     lexer rule spells, come before every lexer rule, as in ANTLR);
 *   - fragments are matched only through the rules that use them;
 *   - non-greedy loops (`.*?`, `+?`, `??`) as ANTLR's LexerATNSimulator
 *     reads them: the paths through a rule are ordered by priority (an
 *     earlier alternative first, a greedy loop's body before its exit, a
 *     non-greedy loop's exit before its body); once a path reaches the
 *     rule's end, the paths of that rule after it that went through a
 *     non-greedy loop are dropped, the others go on.  So a block comment
 *     `'/' '*' .*? '*' '/'` stops at its first end, and in
 *     `( '--[[' .*? ']]' | '--' ~'\n'* )` the second alternative still
 *     reads to the line end;
 *   - EOF inside a lexer rule matches only at the end of the text;
 *   - an empty match is taken only where no rule matches more and only
 *     when its rule changes the mode (ANTLR then goes on in the new mode;
 *     an empty token that stays would repeat forever);
 *   - commands: skip and channel(...) (the token is dropped from the
 *     parser's sequence, kept here as `hidden`), more (the text joins the
 *     next token), type(X) (the token counts as X), pushMode(M), popMode,
 *     mode(M).
 * What it does not do: actions and semantic predicates (code), which it
 * ignores as the importer does.
 *
 * The spec (struct lexer_spec) is filled by the importer and lives in the
 * grammar's arena (grammar.lexer); its exprs are the lexer rules as written,
 * before the importer joins `more` tokens into them.  A compiled lexer
 * (struct lexer) is owned by its caller and refers to the grammar, which
 * must outlive it.  Nothing here recurses on the input: fragments are
 * inlined to a bounded depth, the simulation is a loop over state sets.
 * A rule that refers to itself (not regular, so no automaton reads it
 * exactly; Lua's long brackets `[==[ ... ]==]`) is read to 8 levels of
 * itself (for Lua, 7 `=`): a text that nests deeper is no token of it. */
#ifndef KPATH_LEXER_H
#define KPATH_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "grammar/grammar.h"

/* One token rule or fragment, as the importer read it. */
struct lexer_rule {
    const char *name;        /* the rule's name; for an implicit token its literal */
    const struct expr *rhs;  /* as written (in the grammar's arena) */
    const char *mode;        /* the mode it is defined in; NULL: the default mode */
    const char *type;        /* -> type(X): the token it counts as; else NULL */
    const char *enters;      /* -> pushMode(M) or mode(M): M; else NULL */
    bool fragment, implicit; /* implicit: a parser literal no lexer rule spells */
    bool skip;               /* -> skip or -> channel(...): not a parser token */
    bool more, pushes, pops; /* -> more; enters by pushMode; -> popMode */
    bool predicated;         /* a semantic predicate guards it (not run) */
    bool no_alias;           /* no parser literal names it: code before its literal */
};

/* A literal of a case-insensitive grammar that holds a letter: the
 * importer writes it as a CAT of classes [Xx] and literals (e); its text
 * as written tells which token it is, as a literal's does. */
struct lexer_literal {
    const struct expr *e;
    const char *text;
    size_t len;
};

struct lexer_spec {
    struct lexer_rule *rules; /* ANTLR's priority order: implicit tokens, then file order */
    uint32_t nrules;
    const struct lexer_literal *ci_literals; /* sorted by e's address */
    uint32_t nci;
    /* The exprs that EOF follows in a lexer rule (the alternative before
     * it, or an empty literal for an alternative that is EOF alone): they
     * match only where the text ends right after them.  The character-level
     * grammar reads EOF as nothing. */
    const struct expr **eofs;
    uint32_t neofs;
    /* The quantifiers written non-greedy (`*?`, `+?`, `??`) in lexer rules. */
    const struct expr **lazies;
    uint32_t nlazies;
};

/* A token found in the text.  `rule` indexes spec.rules: the rule that
 * matched; `type` the rule it counts as (type(X), else rule itself;
 * RULE_NONE when X names no rule). */
struct lexer_token {
    uint32_t rule, type;
    size_t start, end; /* byte offsets; `more` prefixes included */
    bool hidden;       /* skip or channel: not seen by the parser */
};

struct lexer;

/* Compile spec's token rules.  NULL, with an error at `file` (the rule's
 * position), when a rule cannot be compiled (a reference to no lexer rule,
 * too many states). */
struct lexer *lexer_compile(const struct grammar *g, const struct lexer_spec *spec,
                            const char *file, struct diag_list *diags);
void lexer_free(struct lexer *lx);
const struct lexer_spec *lexer_spec_of(const struct lexer *lx);

/* The index in spec.rules of the token rule called `name`, or RULE_NONE. */
uint32_t lexer_rule_index(const struct lexer *lx, const char *name);

/* Split text[0..len) into tokens, hidden ones included, into *out (a
 * malloc'd array the caller frees, also on failure) and *nout.  True when
 * the whole text was split; false when no token rule matches at *error_at
 * (a byte offset; also when a rule matches only the empty text there and
 * changes no mode, or more than 8 such empty tokens come in a row, or when
 * the text ends inside a `more` token, then *error_at is its start).  An
 * empty token that changes the mode, where no rule matches more, is a
 * token (golang's `OTHER: -> mode(DEFAULT_MODE), channel(HIDDEN)`). */
bool lexer_run(const struct lexer *lx, const char *text, size_t len, struct lexer_token **out,
               size_t *nout, size_t *error_at);

/* ---- text that the lexer reads back ---------------------------------------
 * A generator writes a token's text by its rule; ANTLR's lexer may read two
 * such texts as one token ("WITH" "GROUPS"), a keyword as an identifier, or
 * a line comment as swallowing what follows.  These say which grammar
 * element writes a whole token, and mend a text by separators. */

/* The token (index in spec.rules) that element e of grammar g writes when
 * it is a token of a parser rule: a reference to a token rule, or a literal
 * (a case-insensitive one included: the implicit token or the lexer rule
 * that spells it); else RULE_NONE. */
uint32_t lexer_token_for(const struct lexer *lx, const struct grammar *g, const struct expr *e);

struct lexer_span {
    size_t start, end; /* bytes of the text */
    uint32_t rule;     /* index in spec.rules */
};

/* The text text[0..len), made of the tokens spans[0..n) (in order; skip
 * tokens among them), into `out` (appended) so that the lexer reads back
 * the same parser tokens (rule types and texts): where it would not, a
 * separator that the grammar skips (a blank, else a newline; a newline
 * after a line comment) goes before the token where the reading first
 * differs, or before the one after when two tokens ran together.  The
 * lexer runs over the text about once: after a mend it resumes from the
 * last token it read right (then one more run checks the whole result).
 * True when the lexer reads the result back; false when no separator helps
 * at some token (then out gets the text mended up to that token). */
bool lexer_separate(const struct lexer *lx, const char *text, size_t len,
                    const struct lexer_span *spans, size_t n, struct strbuf *out);

#endif
