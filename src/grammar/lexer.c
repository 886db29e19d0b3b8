/* lexer: ANTLR's lexer as a Thompson automaton per mode (contract in
 * lexer.h).  Each token rule becomes a fragment of states ending in an
 * accepting state tagged with the rule; a mode's start state splits into
 * the fragments of its rules in priority order.  Matching simulates the
 * automaton over ordered state sets, as ANTLR's LexerATNSimulator does over
 * its ordered configurations: a member is a state and whether the path to
 * it went through a non-greedy loop's decision, kept in priority order (the
 * order of a depth-first walk of the split states, first branch first).
 * The cost is the text's length times the states alive; the longest
 * accepted end is remembered (ties: the lowest rule index, the rule
 * defined first). */
#include "grammar/lexer.h"

#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/xalloc.h"

#define NO_STATE UINT32_MAX
#define MAX_STATES 2000000u /* a bound on the automaton, not on the input */
#define MAX_DEPTH 1000      /* nesting of exprs and inlined fragments together */
#define MAX_COPIES 64       /* copies of a quantified atom for {n,m} */
#define MAX_RECURSION 8     /* levels of a lexer rule that refers to itself */

enum state_kind {
    S_EPS,    /* to next */
    S_SPLIT,  /* to next, then (lower priority) to next2 */
    S_RANGE,  /* a code point in [lo, hi], to next */
    S_CLASS,  /* a member of cls, to next */
    S_EOF,    /* to next, only at the end of the text */
    S_ACCEPT, /* token rule `rule` matched */
};

struct state {
    enum state_kind kind;
    uint32_t next, next2;
    uint32_t lo, hi;
    const struct expr *cls;
    uint32_t rule; /* the token rule this state belongs to (S_ACCEPT: matched) */
    bool lazy;     /* a non-greedy loop's decision: paths through it are marked */
};

struct mode {
    const char *name; /* NULL: the default mode */
    uint32_t start;   /* NO_STATE: a mode without token rules */
};

struct lexer {
    const struct grammar *g;
    const struct lexer_spec *spec;
    struct state *states;
    uint32_t nstates;
    size_t states_cap;
    struct mode *modes;
    uint32_t nmodes;
    size_t modes_cap;
    uint32_t *rule_mode;   /* per spec rule: index in modes */
    uint32_t *rule_enters; /* per spec rule: the mode it enters, or NO_STATE */
    uint32_t *rule_type;   /* per spec rule: the rule it counts as */
    uint32_t *active;      /* per spec rule: how many times it is being inlined */
    const char *file;
    struct diag_list *diags;
    bool failed;
    /* Per mode, the separators it skips (lexer_separate): a blank, then a
     * newline, each read there as one hidden token that leaves the mode as
     * it is. */
    const char *(*seps)[2];
    uint8_t *nseps;
};

/* A piece of automaton: enter at start, leave from end (an S_EPS whose next
 * is still NO_STATE). */
struct piece {
    uint32_t start, end;
};

static uint32_t new_state(struct lexer *lx, enum state_kind kind, uint32_t rule)
{
    if (lx->nstates >= MAX_STATES) {
        if (!lx->failed)
            diag_add(lx->diags, DIAG_ERROR, lx->file, 0, 0,
                     "the lexer rules make more than %u automaton states", MAX_STATES);
        lx->failed = true;
        return 0; /* state 0 exists once anything was made; the result is discarded */
    }
    lx->states = xgrow(lx->states, &lx->states_cap, (size_t)lx->nstates + 1, sizeof *lx->states);
    lx->states[lx->nstates] = (struct state){kind, NO_STATE, NO_STATE, 0, 0, NULL, rule, false};
    return lx->nstates++;
}

static void link_to(struct lexer *lx, uint32_t from_end, uint32_t to)
{
    if (!lx->failed)
        lx->states[from_end].next = to;
}

static bool same_mode_name(const char *a, const char *b)
{
    bool a_default = !a || strcmp(a, "DEFAULT_MODE") == 0;
    bool b_default = !b || strcmp(b, "DEFAULT_MODE") == 0;
    if (a_default || b_default)
        return a_default && b_default;
    return strcmp(a, b) == 0;
}

static uint32_t mode_of(struct lexer *lx, const char *name)
{
    for (uint32_t m = 0; m < lx->nmodes; m++)
        if (same_mode_name(lx->modes[m].name, name))
            return m;
    lx->modes = xgrow(lx->modes, &lx->modes_cap, (size_t)lx->nmodes + 1, sizeof *lx->modes);
    lx->modes[lx->nmodes] = (struct mode){name, NO_STATE};
    return lx->nmodes++;
}

uint32_t lexer_rule_index(const struct lexer *lx, const char *name)
{
    for (uint32_t r = 0; r < lx->spec->nrules; r++)
        if (!lx->spec->rules[r].implicit && strcmp(lx->spec->rules[r].name, name) == 0)
            return r;
    return RULE_NONE;
}

static bool is_eof(const struct lexer *lx, const struct expr *e)
{
    for (uint32_t k = 0; k < lx->spec->neofs; k++)
        if (lx->spec->eofs[k] == e)
            return true;
    return false;
}

static bool is_lazy(const struct lexer *lx, const struct expr *e)
{
    for (uint32_t k = 0; k < lx->spec->nlazies; k++)
        if (lx->spec->lazies[k] == e)
            return true;
    return false;
}

/* The decision of a quantifier: to the body, then to the exit; a
 * non-greedy one (as ANTLR builds it) to the exit first, and marked. */
static void set_decision(struct lexer *lx, uint32_t split, uint32_t body, uint32_t out, bool lazy)
{
    lx->states[split].next = lazy ? out : body;
    lx->states[split].next2 = lazy ? body : out;
    lx->states[split].lazy = lazy;
}

static struct piece build(struct lexer *lx, const struct expr *e, uint32_t owner, int depth);

static struct piece empty_piece(struct lexer *lx, uint32_t owner)
{
    uint32_t s = new_state(lx, S_EPS, owner);
    return (struct piece){s, s};
}

static struct piece then(struct lexer *lx, struct piece a, struct piece b)
{
    link_to(lx, a.end, b.start);
    return (struct piece){a.start, b.end};
}

/* e{min,max} from copies of e. */
static struct piece build_quant(struct lexer *lx, const struct expr *e, uint32_t owner, int depth)
{
    uint32_t min = e->u.quant.min, max = e->u.quant.max;
    const struct expr *atom = e->children[0];
    /* `x+?` reads its first x unmarked: ANTLR's decision is after it. */
    bool lazy = is_lazy(lx, e);
    uint32_t copies = max == QUANT_INFINITE ? min + 1 : max;
    if (copies > MAX_COPIES) {
        diag_add(lx->diags, DIAG_ERROR, lx->file, e->pos.line, e->pos.col,
                 "a repetition of more than %d copies in a lexer rule", MAX_COPIES);
        lx->failed = true;
        return empty_piece(lx, owner);
    }
    struct piece p = empty_piece(lx, owner);
    for (uint32_t i = 0; i < min && !lx->failed; i++)
        p = then(lx, p, build(lx, atom, owner, depth + 1));
    if (max == QUANT_INFINITE) {
        struct piece body = build(lx, atom, owner, depth + 1);
        uint32_t split = new_state(lx, S_SPLIT, owner);
        uint32_t out = new_state(lx, S_EPS, owner);
        if (!lx->failed)
            set_decision(lx, split, body.start, out, lazy);
        link_to(lx, body.end, split);
        return then(lx, p, (struct piece){split, out});
    }
    /* (e (e (...)?)?)? for the optional copies */
    uint32_t out = new_state(lx, S_EPS, owner);
    for (uint32_t i = min; i < max && !lx->failed; i++) {
        struct piece body = build(lx, atom, owner, depth + 1);
        uint32_t split = new_state(lx, S_SPLIT, owner);
        if (lx->failed)
            break;
        set_decision(lx, split, body.start, out, lazy);
        link_to(lx, p.end, split);
        p.end = body.end;
    }
    link_to(lx, p.end, out);
    p.end = out;
    return p;
}

static struct piece build_expr(struct lexer *lx, const struct expr *e, uint32_t owner, int depth);

/* e, then the end of the text when e is followed by EOF in its rule. */
static struct piece build(struct lexer *lx, const struct expr *e, uint32_t owner, int depth)
{
    struct piece p = build_expr(lx, e, owner, depth);
    if (lx->failed || !is_eof(lx, e))
        return p;
    uint32_t s = new_state(lx, S_EOF, owner);
    uint32_t out = new_state(lx, S_EPS, owner);
    link_to(lx, s, out);
    return then(lx, p, (struct piece){s, out});
}

static struct piece build_expr(struct lexer *lx, const struct expr *e, uint32_t owner, int depth)
{
    if (lx->failed)
        return (struct piece){0, 0};
    if (depth > MAX_DEPTH) {
        diag_add(lx->diags, DIAG_ERROR, lx->file, e->pos.line, e->pos.col,
                 "lexer rules nested deeper than %d levels (through their fragments)",
                 MAX_DEPTH);
        lx->failed = true;
        return (struct piece){0, 0};
    }
    switch (e->kind) {
    case EXPR_LIT: {
        struct piece p = empty_piece(lx, owner);
        size_t i = 0;
        while (i < e->u.lit.len && !lx->failed) {
            uint32_t cp;
            size_t n = utf8_decode(e->u.lit.text + i, e->u.lit.len - i, &cp);
            if (n == 0)
                n = 1;
            i += n;
            uint32_t s = new_state(lx, S_RANGE, owner);
            uint32_t out = new_state(lx, S_EPS, owner);
            if (lx->failed)
                break;
            lx->states[s].lo = lx->states[s].hi = cp;
            lx->states[s].next = out;
            p = then(lx, p, (struct piece){s, out});
        }
        return p;
    }
    case EXPR_CLASS: {
        uint32_t s = new_state(lx, S_CLASS, owner);
        uint32_t out = new_state(lx, S_EPS, owner);
        if (!lx->failed) {
            lx->states[s].cls = e;
            lx->states[s].next = out;
        }
        return (struct piece){s, out};
    }
    case EXPR_CAT: {
        struct piece p = build(lx, e->children[0], owner, depth + 1);
        for (uint32_t i = 1; i < e->nchildren && !lx->failed; i++)
            p = then(lx, p, build(lx, e->children[i], owner, depth + 1));
        return p;
    }
    case EXPR_ALT: {
        uint32_t out = new_state(lx, S_EPS, owner);
        uint32_t start = NO_STATE, last_split = NO_STATE;
        for (uint32_t i = 0; i < e->nchildren && !lx->failed; i++) {
            struct piece a = build(lx, e->children[i], owner, depth + 1);
            link_to(lx, a.end, out);
            uint32_t entry = a.start;
            if (i + 1 < e->nchildren) {
                entry = new_state(lx, S_SPLIT, owner);
                if (!lx->failed)
                    lx->states[entry].next = a.start;
            }
            if (lx->failed)
                break;
            if (last_split == NO_STATE)
                start = entry;
            else
                lx->states[last_split].next2 = entry;
            last_split = i + 1 < e->nchildren ? entry : NO_STATE;
        }
        return (struct piece){start == NO_STATE ? out : start, out};
    }
    case EXPR_QUANT:
        return build_quant(lx, e, owner, depth);
    case EXPR_REF: {
        uint32_t r = lexer_rule_index(lx, e->u.ref.name);
        if (r == RULE_NONE) {
            diag_add(lx->diags, DIAG_ERROR, lx->file, e->pos.line, e->pos.col,
                     "lexer rule refers to '%s', which is no lexer rule", e->u.ref.name);
            lx->failed = true;
            return (struct piece){0, 0};
        }
        if (lx->active[r] >= MAX_RECURSION) {
            /* A rule that refers to itself (Lua's long brackets: fragment
             * NESTED_STR : '=' NESTED_STR '=' | '[' .*? ']') is not regular:
             * it is read to MAX_RECURSION levels, deeper matches nothing. */
            uint32_t s = new_state(lx, S_RANGE, owner);
            uint32_t out = new_state(lx, S_EPS, owner);
            if (!lx->failed) {
                lx->states[s].lo = 1;
                lx->states[s].hi = 0;
                lx->states[s].next = out;
            }
            return (struct piece){s, out};
        }
        lx->active[r]++;
        struct piece p = build(lx, lx->spec->rules[r].rhs, owner, depth + 1);
        lx->active[r]--;
        return p;
    }
    }
    return empty_piece(lx, owner);
}

static bool is_separator(const struct lexer *lx, uint32_t mode, const char *sep);

struct lexer *lexer_compile(const struct grammar *g, const struct lexer_spec *spec,
                            const char *file, struct diag_list *diags)
{
    struct lexer *lx = xcalloc(1, sizeof *lx);
    lx->g = g;
    lx->spec = spec;
    lx->file = file;
    lx->diags = diags;
    uint32_t n = spec->nrules;
    lx->rule_mode = xcalloc(n ? n : 1, sizeof *lx->rule_mode);
    lx->rule_enters = xcalloc(n ? n : 1, sizeof *lx->rule_enters);
    lx->rule_type = xcalloc(n ? n : 1, sizeof *lx->rule_type);
    lx->active = xcalloc(n ? n : 1, sizeof *lx->active);
    mode_of(lx, NULL); /* the default mode is modes[0]: the text begins in it */
    for (uint32_t r = 0; r < n; r++) {
        const struct lexer_rule *lr = &spec->rules[r];
        lx->rule_mode[r] = mode_of(lx, lr->mode);
        lx->rule_enters[r] = lr->enters ? mode_of(lx, lr->enters) : NO_STATE;
        lx->rule_type[r] = r;
        if (lr->type) {
            uint32_t t = lexer_rule_index(lx, lr->type);
            lx->rule_type[r] = t;
        }
    }
    /* Per mode: a chain of splits into its token rules, in priority order. */
    uint32_t *last_split = xmalloc((size_t)lx->nmodes * sizeof *last_split);
    for (uint32_t m = 0; m < lx->nmodes; m++)
        last_split[m] = NO_STATE;
    for (uint32_t r = 0; r < n && !lx->failed; r++) {
        const struct lexer_rule *lr = &spec->rules[r];
        if (lr->fragment)
            continue;
        lx->active[r]++;
        struct piece p = build(lx, lr->rhs, r, 0);
        lx->active[r]--;
        uint32_t acc = new_state(lx, S_ACCEPT, r);
        link_to(lx, p.end, acc);
        uint32_t split = new_state(lx, S_SPLIT, r);
        if (lx->failed)
            break;
        lx->states[split].next = p.start;
        uint32_t m = lx->rule_mode[r];
        if (last_split[m] == NO_STATE)
            lx->modes[m].start = split;
        else
            lx->states[last_split[m]].next2 = split;
        last_split[m] = split;
    }
    free(last_split);
    if (lx->failed) {
        lexer_free(lx);
        return NULL;
    }
    lx->seps = xcalloc(lx->nmodes, sizeof *lx->seps);
    lx->nseps = xcalloc(lx->nmodes, sizeof *lx->nseps);
    for (uint32_t m = 0; m < lx->nmodes; m++) {
        if (is_separator(lx, m, " "))
            lx->seps[m][lx->nseps[m]++] = " ";
        if (is_separator(lx, m, "\n"))
            lx->seps[m][lx->nseps[m]++] = "\n";
        else if (is_separator(lx, m, "\r\n"))
            lx->seps[m][lx->nseps[m]++] = "\r\n";
    }
    return lx;
}

void lexer_free(struct lexer *lx)
{
    if (!lx)
        return;
    free(lx->states);
    free(lx->modes);
    free(lx->rule_mode);
    free(lx->rule_enters);
    free(lx->rule_type);
    free(lx->active);
    free(lx->seps);
    free(lx->nseps);
    free(lx);
}

const struct lexer_spec *lexer_spec_of(const struct lexer *lx)
{
    return lx->spec;
}

/* ---- simulation ------------------------------------------------------- */

/* A member of a state set: state << 1 | marked, where marked says that the
 * path to the state went through a non-greedy loop's decision (ANTLR's
 * passedThroughNonGreedyDecision). */
#define MEMBER(q, marked) ((q) << 1 | (uint32_t)(marked))
#define MEMBER_STATE(x) ((x) >> 1)
#define MEMBER_MARKED(x) (((x) & 1u) != 0)

struct state_set {
    uint32_t *items; /* members in priority order */
    uint32_t n;
    uint32_t *mark; /* per member: the generation it was added in */
    uint32_t gen;
};

struct sim {
    const struct lexer *lx;
    struct state_set cur, nxt;
    uint32_t *stack;
};

static void set_clear(struct state_set *s)
{
    s->n = 0;
    s->gen++;
}

/* Add to s the states reached from state `from` (a path marked or not)
 * without reading a character, in priority order: a depth-first walk,
 * the first branch of a split first.  As ANTLR's closure: once the walk
 * reaches the accepting state of `ended` (the rule of `from`, or
 * RULE_NONE), marked states of that rule are no longer added.  True when
 * the rule of `from` has ended, before or in this walk. */
static bool add_closure(struct sim *sim, struct state_set *s, uint32_t from, bool marked,
                        bool at_end, uint32_t ended)
{
    const struct state *st = sim->lx->states;
    if (from == NO_STATE)
        return ended != RULE_NONE;
    uint32_t from_rule = st[from].rule;
    uint32_t top = 0;
    sim->stack[top++] = MEMBER(from, marked);
    while (top) {
        uint32_t x = sim->stack[--top];
        uint32_t q = MEMBER_STATE(x);
        bool m = MEMBER_MARKED(x) || st[q].lazy;
        x = MEMBER(q, m);
        if (s->mark[x] == s->gen)
            continue;
        s->mark[x] = s->gen;
        /* successors pushed in reverse: the first is walked first */
        uint32_t succ[2] = {NO_STATE, NO_STATE};
        switch (st[q].kind) {
        case S_EPS:
            succ[0] = st[q].next;
            break;
        case S_SPLIT:
            succ[0] = st[q].next, succ[1] = st[q].next2;
            break;
        case S_EOF:
            if (at_end)
                succ[0] = st[q].next;
            break;
        case S_ACCEPT:
            s->items[s->n++] = x;
            ended = st[q].rule;
            break;
        case S_RANGE:
        case S_CLASS:
            if (!(m && st[q].rule == ended))
                s->items[s->n++] = x;
            break;
        }
        for (int j = 1; j >= 0; j--)
            if (succ[j] != NO_STATE)
                sim->stack[top++] = MEMBER(succ[j], m);
    }
    return ended != RULE_NONE && ended == from_rule;
}

/* The longest match of mode m's rules at text[pos..): its rule and end, or
 * false when none matches a non-empty text. */
static bool longest_match(struct sim *sim, uint32_t m, bool bottom, const char *text, size_t len,
                          size_t pos, uint32_t *rule, size_t *end)
{
    const struct lexer *lx = sim->lx;
    const struct state *st = lx->states;
    uint32_t start = lx->modes[m].start;
    if (start == NO_STATE)
        return false;
    set_clear(&sim->cur);
    /* ANTLR walks each rule from the start on its own: an empty match of
     * one rule drops nothing of the next, whose states have another rule. */
    add_closure(sim, &sim->cur, start, false, pos == len, RULE_NONE);
    bool found = false;
    size_t i = pos;
    for (;;) {
        /* Accepting states here: the best of this length is the lowest rule. */
        uint32_t best = RULE_NONE;
        for (uint32_t k = 0; k < sim->cur.n; k++) {
            const struct state *q = &st[MEMBER_STATE(sim->cur.items[k])];
            /* A predicate that guards a popMode must be false where no
             * mode was pushed (ANTLR's lexer would fail on the pop). */
            if (q->kind == S_ACCEPT && q->rule < best &&
                !(bottom && lx->spec->rules[q->rule].pops && lx->spec->rules[q->rule].predicated))
                best = q->rule;
        }
        /* An empty match only as a last resort, and only one that changes
         * the mode (golang's `OTHER: -> mode(DEFAULT_MODE), channel(HIDDEN)`
         * leaves its mode where none of its tokens fits): ANTLR takes it
         * and goes on in the new mode; one that stays would repeat forever. */
        if (best != RULE_NONE &&
            (i > pos || (!lx->spec->rules[best].more &&
                         (lx->spec->rules[best].pops || lx->rule_enters[best] != NO_STATE)))) {
            *rule = best;
            *end = i;
            found = true;
        }
        if (i >= len || sim->cur.n == 0)
            break;
        uint32_t cp;
        size_t w = utf8_decode(text + i, len - i, &cp);
        if (w == 0)
            w = 1;
        set_clear(&sim->nxt);
        bool at_end = i + w == len;
        /* ANTLR's getReachableConfigSet: once a member's step ends its
         * rule, the marked members of that rule after it are dropped. */
        uint32_t ended = RULE_NONE;
        for (uint32_t k = 0; k < sim->cur.n; k++) {
            uint32_t x = sim->cur.items[k];
            const struct state *q = &st[MEMBER_STATE(x)];
            if (MEMBER_MARKED(x) && q->rule == ended)
                continue;
            bool step = (q->kind == S_RANGE && cp >= q->lo && cp <= q->hi) ||
                        (q->kind == S_CLASS && grammar_class_matches(q->cls, cp));
            if (step && add_closure(sim, &sim->nxt, q->next, MEMBER_MARKED(x), at_end,
                                    q->rule == ended ? ended : RULE_NONE))
                ended = q->rule;
        }
        struct state_set tmp = sim->cur;
        sim->cur = sim->nxt;
        sim->nxt = tmp;
        i += w;
        if (sim->cur.n == 0)
            break;
    }
    return found;
}

static void sim_init(struct sim *sim, const struct lexer *lx)
{
    memset(sim, 0, sizeof *sim);
    sim->lx = lx;
    size_t ns = lx->nstates ? lx->nstates : 1;
    sim->cur.items = xmalloc(2 * ns * sizeof *sim->cur.items);
    sim->nxt.items = xmalloc(2 * ns * sizeof *sim->nxt.items);
    sim->cur.mark = xcalloc(2 * ns, sizeof *sim->cur.mark);
    sim->nxt.mark = xcalloc(2 * ns, sizeof *sim->nxt.mark);
    sim->stack = xmalloc((4 * ns + 1) * sizeof *sim->stack);
}

static void sim_free(struct sim *sim)
{
    free(sim->cur.items);
    free(sim->nxt.items);
    free(sim->cur.mark);
    free(sim->nxt.mark);
    free(sim->stack);
}

/* Where the lexer is between two tokens: its position, mode and mode stack,
 * and where a `more` token being continued began. */
struct lex_run {
    size_t pos, more_start; /* more_start: SIZE_MAX when none */
    uint32_t mode;
    uint32_t *stack;        /* owned: the modes below the current one */
    size_t depth, cap;
    uint32_t empties;       /* empty tokens in a row at pos (see longest_match) */
};

/* More empty tokens in a row than this are a loop of modes: an error. */
#define MAX_EMPTY_TOKENS 8

#define LEX_RUN_START {0, SIZE_MAX, 0, NULL, 0, 0, 0}

static void lex_run_copy(struct lex_run *dst, const struct lex_run *src)
{
    uint32_t *stack = dst->stack;
    size_t cap = dst->cap;
    stack = xgrow(stack, &cap, src->depth + 1, sizeof *stack);
    if (src->depth)
        memcpy(stack, src->stack, src->depth * sizeof *stack);
    *dst = *src;
    dst->stack = stack;
    dst->cap = cap;
}

/* The next token at run->pos (hidden ones too; `more` texts joined into the
 * token they lead to), advancing run: 1 with *tok, 0 at the end of the text,
 * -1 with *error_at when no rule matches (or the text ends inside `more`). */
static int next_token(struct sim *sim, struct lex_run *run, const char *text, size_t len,
                      struct lexer_token *tok, size_t *error_at)
{
    const struct lexer *lx = sim->lx;
    while (run->pos < len) {
        uint32_t r = 0;
        size_t end = run->pos;
        if (!longest_match(sim, run->mode, run->depth == 0, text, len, run->pos, &r, &end) ||
            (end == run->pos && ++run->empties > MAX_EMPTY_TOKENS)) {
            *error_at = run->more_start != SIZE_MAX ? run->more_start : run->pos;
            return -1;
        }
        if (end > run->pos)
            run->empties = 0;
        const struct lexer_rule *lr = &lx->spec->rules[r];
        if (lr->pops) {
            run->mode = run->depth ? run->stack[--run->depth] : run->mode;
        } else if (lx->rule_enters[r] != NO_STATE) {
            if (lr->pushes) {
                run->stack = xgrow(run->stack, &run->cap, run->depth + 1, sizeof *run->stack);
                run->stack[run->depth++] = run->mode;
            }
            run->mode = lx->rule_enters[r];
        }
        size_t start = run->pos;
        run->pos = end;
        if (lr->more) {
            if (run->more_start == SIZE_MAX)
                run->more_start = start;
            continue;
        }
        *tok = (struct lexer_token){r, lx->rule_type[r],
                                    run->more_start != SIZE_MAX ? run->more_start : start, end,
                                    lr->skip};
        run->more_start = SIZE_MAX;
        return 1;
    }
    if (run->more_start != SIZE_MAX) {
        *error_at = run->more_start;
        return -1;
    }
    return 0;
}

bool lexer_run(const struct lexer *lx, const char *text, size_t len, struct lexer_token **out,
               size_t *nout, size_t *error_at)
{
    struct sim sim;
    sim_init(&sim, lx);
    struct lexer_token *toks = NULL;
    size_t n = 0, cap = 0;
    struct lex_run run = LEX_RUN_START;
    struct lexer_token tok;
    int got;
    while ((got = next_token(&sim, &run, text, len, &tok, error_at)) == 1) {
        toks = xgrow(toks, &cap, n + 1, sizeof *toks);
        toks[n++] = tok;
    }
    free(run.stack);
    sim_free(&sim);
    *out = toks;
    *nout = n;
    return got == 0;
}

/* ---- text that the lexer reads back ------------------------------------ */

static int ci_cmp(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const struct lexer_literal *)a)->e;
    uintptr_t y = (uintptr_t)((const struct lexer_literal *)b)->e;
    return x < y ? -1 : x > y;
}

/* The text of e when it is a literal (a case-insensitive one included) and
 * not empty. */
static bool literal_text(const struct lexer_spec *spec, const struct expr *e, const char **text,
                         size_t *len)
{
    if (e->kind == EXPR_LIT) {
        *text = e->u.lit.text, *len = e->u.lit.len;
        return *len > 0;
    }
    if (e->kind != EXPR_CAT || !spec->nci)
        return false;
    struct lexer_literal key = {e, NULL, 0};
    const struct lexer_literal *ci =
        bsearch(&key, spec->ci_literals, spec->nci, sizeof *spec->ci_literals, ci_cmp);
    if (!ci)
        return false;
    *text = ci->text, *len = ci->len;
    return true;
}

uint32_t lexer_token_for(const struct lexer *lx, const struct grammar *g, const struct expr *e)
{
    if (e->rule >= g->nrules || lexer_rule_index(lx, g->rules[e->rule].name) != RULE_NONE)
        return RULE_NONE; /* inside a lexer rule: part of a token */
    const struct lexer_spec *spec = lx->spec;
    if (e->kind == EXPR_REF) {
        uint32_t r = lexer_rule_index(lx, e->u.ref.name);
        return r != RULE_NONE && !spec->rules[r].fragment ? r : RULE_NONE;
    }
    const char *text, *rtext;
    size_t len, rlen;
    if (!literal_text(spec, e, &text, &len))
        return RULE_NONE;
    for (uint32_t r = 0; r < spec->nrules; r++) {
        const struct lexer_rule *lr = &spec->rules[r];
        if (!lr->fragment && !lr->no_alias && literal_text(spec, lr->rhs, &rtext, &rlen) &&
            rlen == len &&
            memcmp(rtext, text, len) == 0)
            return r;
    }
    return RULE_NONE;
}

/* Does the lexer read `sep` alone, from mode `mode`, as one hidden token
 * that leaves it in that mode? */
static bool is_separator(const struct lexer *lx, uint32_t mode, const char *sep)
{
    struct sim sim;
    sim_init(&sim, lx);
    struct lex_run run = LEX_RUN_START;
    run.mode = mode;
    struct lexer_token t;
    size_t err = 0, len = strlen(sep);
    bool ok = next_token(&sim, &run, sep, len, &t, &err) == 1 && t.hidden && t.end == len &&
              run.mode == mode && run.depth == 0;
    free(run.stack);
    sim_free(&sim);
    return ok;
}

/* The candidate text of lexer_separate from span f on: the raw text with
 * seps[mode[i]][level[i]-1] before spans[i] (mode[i]: the lexer mode there);
 * pre[i] and at[i] say where that separator and spans[i] begin in it.  Every
 * span, skip tokens included, can take a separator: a token that runs into
 * a skipped comment ('-' then '--x') is mended between the two. */
struct candidate {
    const char *text;           /* raw */
    size_t len;
    const struct lexer_span *spans;
    size_t n;
    uint8_t *level;
    uint32_t *mode;
    size_t *pre, *at;
    struct strbuf cand;
};

static void rebuild_from(struct candidate *c, const char *const (*seps)[2], size_t f)
{
    if (f == 0) {
        c->cand.len = 0;
        strbuf_add(&c->cand, c->text, c->n ? c->spans[0].start : c->len);
    } else {
        c->cand.len = c->pre[f];
    }
    for (size_t i = f; i < c->n; i++) {
        c->pre[i] = c->cand.len;
        if (c->level[i])
            strbuf_addstr(&c->cand, seps[c->mode[i]][c->level[i] - 1]);
        c->at[i] = c->cand.len;
        size_t to = i + 1 < c->n ? c->spans[i + 1].start : c->len;
        strbuf_add(&c->cand, c->text + c->spans[i].start, to - c->spans[i].start);
    }
}

/* The lexer's mode and the top of its mode stack (its mode when the stack is
 * empty) before a token: enough for mode_after. */
struct mode_point {
    uint32_t mode, below;
    bool stacked;
};

static struct mode_point mode_point_of(const struct lex_run *run)
{
    return (struct mode_point){run->mode, run->depth ? run->stack[run->depth - 1] : run->mode,
                               run->depth > 0};
}

/* The mode after token rule r, read from the point `from`. */
static uint32_t mode_after(const struct lexer *lx, struct mode_point from, uint32_t r)
{
    const struct lexer_rule *lr = &lx->spec->rules[r];
    if (lr->pops)
        return from.stacked ? from.below : from.mode;
    return lx->rule_enters[r] != NO_STATE ? lx->rule_enters[r] : from.mode;
}

/* The first span that begins after byte `pos` of the candidate (c->n: none). */
static size_t span_after(const struct candidate *c, size_t pos)
{
    size_t lo = 0, hi = c->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->at[mid] > pos)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

bool lexer_separate(const struct lexer *lx, const char *text, size_t len,
                    const struct lexer_span *spans, size_t n, struct strbuf *out)
{
    const char *const (*seps)[2] = lx->seps;
    struct candidate c = {text, len, spans, n, NULL, NULL, NULL, NULL, STRBUF_INIT};
    /* The parser's tokens: the spans that are not skip tokens (widx: their
     * index in spans). */
    size_t *widx = xmalloc((n ? n : 1) * sizeof *widx), nwant = 0;
    for (size_t i = 0; i < n; i++)
        if (!lx->spec->rules[spans[i].rule].skip)
            widx[nwant++] = i;
    c.level = xcalloc(n + 1, 1);
    c.mode = xcalloc(n + 1, sizeof *c.mode);
    uint32_t *mode_before = xcalloc(nwant + 1, sizeof *mode_before); /* want m read in it */
    c.pre = xmalloc((n + 1) * sizeof *c.pre);
    c.at = xmalloc((n + 1) * sizeof *c.at);
    rebuild_from(&c, seps, 0);
    /* One pass of the lexer over the candidate; where it reads the tokens
     * otherwise than written, a separator (or the next one) goes in, and
     * the pass resumes from the lexer's state after the last parser token
     * read right (ck), so a text is lexed about once, whatever it needs. */
    struct sim sim;
    sim_init(&sim, lx);
    struct lex_run run = LEX_RUN_START, ck = LEX_RUN_START;
    size_t m = 0, ck_m = 0, mends = 0; /* m: parser token m (spans[widx[m]]) is next */
    bool ok = false;
    for (;;) {
        struct lexer_token t;
        size_t err = SIZE_MAX;
        struct mode_point before = mode_point_of(&run);
        int got = next_token(&sim, &run, strbuf_str(&c.cand), c.cand.len, &t, &err);
        size_t sm = m < nwant ? widx[m] : n; /* the span of the next parser token */
        size_t fix = sm;                     /* the span to put a separator before */
        if (got == 1 && t.hidden) {
            if (m == nwant || t.end <= c.at[sm])
                continue;
            /* a hidden token (a line comment) swallows the next parser
             * token: mend right after where it begins */
            fix = span_after(&c, t.start);
        } else if (got == 1 && m < nwant) {
            size_t wend = c.at[sm] + (spans[sm].end - spans[sm].start);
            if (t.start == c.at[sm] && t.end == wend && t.type == lx->rule_type[spans[sm].rule]) {
                lex_run_copy(&ck, &run);
                ck_m = ++m;
                mode_before[m] = run.mode;
                continue;
            }
            if (t.end > wend || t.start < c.at[sm])
                fix = span_after(&c, t.start); /* ran into what follows: mend between */
        } else if (got == 1 || (got == 0 && m == nwant)) {
            if (got == 0) {
                ok = true;
                break;
            }
            fix = nwant ? widx[nwant - 1] : 0; /* something after the last token */
        }
        /* got == -1 (no token here) or 0 (the text ended before the next
         * parser token): mend before that token. */
        if (nwant == 0)
            break;
        /* The mode the lexer is in where the separator goes. */
        uint32_t at_mode = fix == sm ? mode_before[m]
                           : got == 1 && fix > 0 && c.at[fix - 1] == t.start
                               ? mode_after(lx, before, spans[fix - 1].rule)
                               : before.mode;
        if (fix < n && c.level[fix] < lx->nseps[c.level[fix] ? c.mode[fix] : at_mode]) {
            if (!c.level[fix]++)
                c.mode[fix] = at_mode;
        } else if (m < nwant && fix != sm &&
                   c.level[sm] < lx->nseps[c.level[sm] ? c.mode[sm] : mode_before[m]]) {
            fix = sm;
            if (!c.level[sm]++)
                c.mode[sm] = mode_before[m];
        } else {
            break; /* no separator helps here */
        }
        mends++;
        rebuild_from(&c, seps, fix);
        size_t ck_span = ck_m ? widx[ck_m - 1] + 1 : 0;
        if (fix >= ck_span) {
            lex_run_copy(&run, &ck);
            m = ck_m;
        } else {
            run.pos = 0, run.more_start = SIZE_MAX, run.mode = 0, run.depth = 0;
            ck.pos = 0, ck.more_start = SIZE_MAX, ck.mode = 0, ck.depth = 0;
            m = ck_m = 0;
        }
    }
    if (ok && mends) {
        /* Resuming assumed the tokens before a mend read alike after it:
         * check the whole text once. */
        size_t i = 0, err = SIZE_MAX;
        struct lexer_token t;
        int got;
        run.pos = 0, run.more_start = SIZE_MAX, run.mode = 0, run.depth = 0;
        while (ok && (got = next_token(&sim, &run, strbuf_str(&c.cand), c.cand.len, &t, &err)) != 0) {
            if (got < 0) {
                ok = false;
            } else if (!t.hidden) {
                ok = i < nwant && t.start == c.at[widx[i]] &&
                     t.end == c.at[widx[i]] + (spans[widx[i]].end - spans[widx[i]].start) &&
                     t.type == lx->rule_type[spans[widx[i]].rule];
                i++;
            }
        }
        ok = ok && i == nwant;
    }
    free(run.stack);
    free(ck.stack);
    sim_free(&sim);
    strbuf_add(out, strbuf_str(&c.cand), c.cand.len);
    strbuf_free(&c.cand);
    free(widx);
    free(c.level);
    free(c.mode);
    free(mode_before);
    free(c.pre);
    free(c.at);
    return ok;
}
