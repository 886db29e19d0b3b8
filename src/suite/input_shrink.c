#include "suite/input_shrink.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "base/sha256.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "graph/derivation.h"
#include "graph/written.h"
#include "suite/tree_edit.h"

/* An answer, by the text's SHA-256. */
struct answer {
    uint8_t key[SHA256_DIGEST_SIZE];
    bool keeps;
    UT_hash_handle hh;
};

enum stage { STAGE_START, STAGE_CHARS, STAGE_TREE, STAGE_DONE };
enum tree_op { OP_SMALLEST, OP_HOIST, OP_DROP, OP_NEXT };

struct input_shrink {
    const struct graph *g; /* borrowed; NULL: characters only */
    struct parse_options po;
    bool chars_only;
    enum stage stage;
    struct strbuf cur;      /* the smallest input that keeps the behaviour */
    struct answer *answers; /* uthash */
    struct input_shrink_stats stats;
    /* The candidate handed out, waiting for its answer. */
    struct strbuf cand;
    uint8_t cand_key[SHA256_DIGEST_SIZE];
    bool pending;
    /* ddmin: cur split in n parts, part i next. */
    size_t n, i;
    /* The tree search. */
    struct tree_editor ed;
    struct derivation tree, cand_tree;
    bool have_tree, have_cand_tree;
    size_t p;               /* pre-order position */
    enum tree_op op;
    size_t q;               /* hoist: pre-order position of the next descendant */
    uint64_t last_offset, last_chars; /* hoist: the text span tried last */
    uint32_t chunk, c;      /* drop: repetitions per try, first one of the next try */
    bool pass_kept;
    bool exhaustive;        /* this pass prunes nothing (see tree_refused) */
    size_t hoist_at;        /* hoist: pre-order position of the descendant proposed */
    struct tree_edit pending_edit; /* the edit whose candidate waits for its answer */
};

static void key_of(const char *text, size_t len, uint8_t key[SHA256_DIGEST_SIZE])
{
    struct sha256 h;
    sha256_init(&h);
    sha256_update(&h, text, len);
    sha256_final(&h, key);
}

static struct answer *find_answer(struct input_shrink *s, const uint8_t key[SHA256_DIGEST_SIZE])
{
    struct answer *a = NULL;
    HASH_FIND(hh, s->answers, key, SHA256_DIGEST_SIZE, a);
    return a;
}

static void add_answer(struct input_shrink *s, const uint8_t key[SHA256_DIGEST_SIZE], bool keeps)
{
    if (find_answer(s, key))
        return;
    struct answer *a = xcalloc(1, sizeof *a);
    memcpy(a->key, key, SHA256_DIGEST_SIZE);
    a->keeps = keeps;
    HASH_ADD(hh, s->answers, key, SHA256_DIGEST_SIZE, a);
}

/* Parse cur into s->tree; false when the grammar does not parse it. */
static bool parse_current(struct input_shrink *s)
{
    struct diag_list diags = DIAG_LIST_INIT;
    struct forest *f = parse_text(s->g, "input", strbuf_str(&s->cur), s->cur.len, &s->po, &diags);
    diag_list_free(&diags);
    if (!f)
        return false;
    bool ok = forest_first_tree(f, &s->tree);
    forest_free(f);
    if (!ok) {
        derivation_free(&s->tree);
        return false;
    }
    s->have_tree = true;
    return true;
}

struct input_shrink *input_shrink_new(const struct graph *g, const struct parse_options *po,
                                      const char *text, size_t len, bool chars)
{
    struct input_shrink *s = xcalloc(1, sizeof *s);
    s->g = g;
    if (po)
        s->po = *po;
    else
        s->po.max_input_size = PARSE_DEFAULT_MAX_INPUT;
    s->chars_only = chars || !g;
    strbuf_add(&s->cur, text, len);
    uint8_t key[SHA256_DIGEST_SIZE];
    key_of(text, len, key);
    add_answer(s, key, true);
    if (g)
        tree_editor_init(&s->ed, g, NULL, UINT32_MAX);
    return s;
}

void input_shrink_free(struct input_shrink *s)
{
    if (!s)
        return;
    struct answer *a, *tmp;
    HASH_ITER(hh, s->answers, a, tmp) {
        HASH_DEL(s->answers, a);
        free(a);
    }
    strbuf_free(&s->cur);
    strbuf_free(&s->cand);
    if (s->have_tree)
        derivation_free(&s->tree);
    if (s->have_cand_tree)
        derivation_free(&s->cand_tree);
    if (s->g)
        tree_editor_free(&s->ed);
    free(s);
}

/* ---- characters ----------------------------------------------------------- */

static void chars_begin(struct input_shrink *s)
{
    s->stage = STAGE_CHARS;
    s->stats.chars = true;
    s->n = 2;
    s->i = 0;
}

/* The candidate of ddmin's state into s->cand; false when ddmin is over. */
static bool chars_candidate(struct input_shrink *s)
{
    size_t len = s->cur.len;
    if (!len)
        return false;
    if (s->n > len)
        s->n = len;
    if (s->i >= s->n) {
        if (s->n >= len)
            return false;
        s->n = s->n * 2 > len ? len : s->n * 2;
        s->i = 0;
    }
    size_t from = s->i * len / s->n, to = (s->i + 1) * len / s->n;
    strbuf_reset(&s->cand);
    strbuf_add(&s->cand, s->cur.data, from);
    strbuf_add(&s->cand, s->cur.data + to, len - to);
    return true;
}

static void chars_answer(struct input_shrink *s, bool keeps)
{
    if (keeps) {
        strbuf_reset(&s->cur);
        strbuf_add(&s->cur, strbuf_str(&s->cand), s->cand.len);
        s->stats.kept_chars++;
        s->n = s->n > 2 ? s->n - 1 : 2;
        s->i = 0;
    } else {
        s->i++;
    }
}

/* ---- the tree ------------------------------------------------------------- */

static void tree_begin(struct input_shrink *s)
{
    s->stage = STAGE_TREE;
    s->stats.parsed = true;
    s->stats.passes = 1;
    tree_edit_measure(&s->ed, &s->tree);
    s->p = 0;
    s->op = OP_SMALLEST;
    s->pass_kept = false;
}

/* The drop runs of the quantifier instance e: the repetitions above the
 * minimum (0 when e is no quantifier). */
static uint32_t droppable(const struct input_shrink *s, uint32_t e)
{
    const struct graph_node *node = &s->g->nodes[s->tree.insts[e].node];
    if (node->kind != NODE_QUANT)
        return 0;
    uint32_t have = s->tree.insts[e].nchildren, min = node->expr->u.quant.min;
    return have > min ? have - min : 0;
}

static void drop_begin(struct input_shrink *s, uint32_t e)
{
    s->op = OP_DROP;
    s->chunk = droppable(s, e);
    s->c = s->tree.insts[e].nchildren;
}

/* The next edit of the cursor, advancing it; false at the end of the pass. */
static bool next_edit(struct input_shrink *s, struct tree_edit *edit)
{
    while (s->p < s->tree.len) {
        uint32_t e = s->ed.preorder[s->p];
        uint32_t n = s->tree.insts[e].node;
        memset(edit, 0, sizeof *edit);
        edit->at = e;
        edit->count = 1;
        switch (s->op) {
        case OP_SMALLEST:
            s->op = OP_HOIST;
            s->q = s->p + 1;
            s->last_offset = s->last_chars = UINT64_MAX;
            if (s->ed.weight[e] >> 32 > tree_edit_smallest_weight(&s->ed, n, UINT32_MAX) >> 32) {
                edit->kind = TREE_EDIT_SMALLEST;
                return true;
            }
            break;
        case OP_HOIST:
            while (s->q < s->p + s->ed.subtree[e]) {
                uint32_t f = s->ed.preorder[s->q++];
                uint64_t chars = s->ed.weight[f] >> 32;
                /* Shorter than e's text, and not the text of the one before. */
                if (chars >= s->ed.weight[e] >> 32 ||
                    (s->ed.offset[f] == s->last_offset && chars == s->last_chars) ||
                    !tree_edit_unit_route(&s->ed, n, s->tree.insts[f].node))
                    continue;
                s->last_offset = s->ed.offset[f];
                s->last_chars = chars;
                s->hoist_at = s->q - 1;
                edit->kind = TREE_EDIT_HOIST;
                edit->arg = f;
                return true;
            }
            drop_begin(s, e);
            break;
        case OP_DROP: {
            uint32_t d = droppable(s, e);
            if (s->chunk > d)
                s->chunk = d;
            if (s->chunk && s->c < s->chunk) {
                s->chunk /= 2;
                s->c = s->tree.insts[e].nchildren;
            }
            if (!s->chunk) {
                s->op = OP_NEXT;
                break;
            }
            s->c -= s->chunk;
            edit->kind = TREE_EDIT_DROP;
            edit->arg = s->c;
            edit->count = s->chunk;
            return true;
        }
        case OP_NEXT:
            s->p++;
            s->op = OP_SMALLEST;
            break;
        }
    }
    return false;
}

/* The current tree becomes the candidate's; the cursor moves on as the
 * header says. */
static void tree_accept(struct input_shrink *s, const struct tree_edit *edit)
{
    derivation_free(&s->tree);
    s->tree = s->cand_tree;
    s->have_cand_tree = false;
    strbuf_reset(&s->cur);
    strbuf_add(&s->cur, strbuf_str(&s->cand), s->cand.len);
    tree_edit_measure(&s->ed, &s->tree);
    s->stats.kept_tree++;
    s->pass_kept = true;
    uint32_t e = s->ed.preorder[s->p];
    if (edit->kind == TREE_EDIT_SMALLEST) {
        s->p += s->ed.subtree[e];
        s->op = OP_SMALLEST;
    } else if (edit->kind == TREE_EDIT_HOIST) {
        s->op = OP_SMALLEST;
    } else {
        /* The same run length again, from the last repetition. */
        s->c = s->tree.insts[e].nchildren;
    }
}

/* An edit that did not keep the behaviour.  A hoisted subtree that does not
 * keep it alone rarely has a part that does: outside the exhaustive passes
 * the descendants of a refused hoist are not tried (the last pass, with
 * nothing skipped, still tries every edit). */
static void tree_refused(struct input_shrink *s, const struct tree_edit *edit)
{
    if (edit->kind == TREE_EDIT_HOIST && !s->exhaustive)
        s->q = s->hoist_at + s->ed.subtree[edit->arg];
}

static void drop_candidate_tree(struct input_shrink *s)
{
    if (s->have_cand_tree)
        derivation_free(&s->cand_tree);
    s->have_cand_tree = false;
}

/* Find the next tree candidate whose answer is not known, taking known
 * answers on the way; false when the tree search is over. */
static bool tree_candidate(struct input_shrink *s)
{
    for (;;) {
        struct tree_edit edit;
        if (!next_edit(s, &edit)) {
            /* A pass that kept nothing ends the search when it pruned
             * nothing; else one more pass, exhaustive. */
            if (!s->pass_kept && s->exhaustive)
                return false;
            s->exhaustive = !s->pass_kept;
            s->stats.passes++;
            s->p = 0;
            s->op = OP_SMALLEST;
            s->pass_kept = false;
            continue;
        }
        drop_candidate_tree(s);
        s->have_cand_tree = true;
        if (!tree_edit_apply(&s->ed, &s->tree, &edit, &s->cand_tree))
            continue;
        strbuf_reset(&s->cand);
        derivation_written_text(&s->cand_tree, &s->cand);
        if (s->cand.len >= s->cur.len)
            continue;
        key_of(strbuf_str(&s->cand), s->cand.len, s->cand_key);
        struct answer *a = find_answer(s, s->cand_key);
        if (!a) {
            s->stats.asked_by_edit[edit.kind]++;
            s->pending_edit = edit;
            return true;
        }
        s->stats.cached++;
        if (a->keeps)
            tree_accept(s, &edit);
        else
            tree_refused(s, &edit);
    }
}

/* ---- the steps ------------------------------------------------------------ */

bool input_shrink_next(struct input_shrink *s, const char **text, size_t *len)
{
    if (s->pending)
        abort(); /* a question waits for its answer */
    for (;;) {
        if (s->stage == STAGE_START) {
            if (!s->chars_only && parse_current(s))
                tree_begin(s);
            else
                chars_begin(s);
            continue;
        }
        if (s->stage == STAGE_DONE)
            return false;
        bool found;
        if (s->stage == STAGE_CHARS) {
            found = chars_candidate(s);
            if (found) {
                key_of(strbuf_str(&s->cand), s->cand.len, s->cand_key);
                struct answer *a = find_answer(s, s->cand_key);
                if (a) {
                    s->stats.cached++;
                    chars_answer(s, a->keeps);
                    continue;
                }
            } else {
                if (!s->chars_only && parse_current(s)) {
                    tree_begin(s);
                } else {
                    s->stage = STAGE_DONE;
                }
                continue;
            }
        } else {
            found = tree_candidate(s);
            if (!found) {
                s->stage = STAGE_DONE;
                continue;
            }
        }
        s->pending = true;
        s->stats.asked++;
        *text = strbuf_str(&s->cand);
        *len = s->cand.len;
        return true;
    }
}

void input_shrink_answer(struct input_shrink *s, bool keeps)
{
    if (!s->pending)
        return;
    s->pending = false;
    add_answer(s, s->cand_key, keeps);
    if (s->stage == STAGE_CHARS)
        chars_answer(s, keeps);
    else if (keeps)
        tree_accept(s, &s->pending_edit);
    else
        tree_refused(s, &s->pending_edit);
}

const char *input_shrink_result(const struct input_shrink *s, size_t *len)
{
    *len = s->cur.len;
    return strbuf_str(&s->cur);
}

void input_shrink_get_stats(const struct input_shrink *s, struct input_shrink_stats *out)
{
    *out = s->stats;
}
