/* lattice: see lattice.h. */
#include "infer/lattice.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/parse.h"
#include "base/xalloc.h"
#include "grammar/grammar_file.h"

static const char EXAMPLES[] = ".examples", GENERALIZES[] = ".generalizes";

/* Does `name` end in `suffix`?  Then *base_len is what comes before it. */
static bool has_suffix(const char *name, const char *suffix, size_t *base_len)
{
    size_t n = strlen(name), s = strlen(suffix);
    if (n <= s || strcmp(name + n - s, suffix) != 0)
        return false;
    *base_len = n - s;
    return true;
}

static size_t find_item(const struct lattice *l, const char *name, size_t len)
{
    for (size_t i = 0; i < l->nitems; i++)
        if (strlen(l->items[i].name) == len && strncmp(l->items[i].name, name, len) == 0)
            return i;
    return SIZE_MAX;
}

/* The first reference under e (an explicit stack: no recursion), or NULL. */
static const struct expr *first_reference(const struct expr *e)
{
    const struct expr **stack = NULL;
    size_t depth = 0, cap = 0;
    const struct expr *found = NULL;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = e;
    while (depth && !found) {
        const struct expr *x = stack[--depth];
        if (x->kind == EXPR_REF) {
            found = x;
            break;
        }
        stack = xgrow(stack, &cap, depth + x->nchildren, sizeof *stack);
        for (uint32_t c = 0; c < x->nchildren; c++)
            stack[depth++] = x->children[c];
    }
    free(stack);
    return found;
}

/* The alternatives of a rule's right-hand side: itself when not an ALT. */
static void alternatives(const struct expr *rhs, struct expr *const **alts, uint32_t *n,
                         const struct expr **single)
{
    if (rhs->kind == EXPR_ALT) {
        *alts = rhs->children;
        *n = rhs->nchildren;
    } else {
        *single = rhs;
        *alts = (struct expr *const *)single;
        *n = 1;
    }
}

bool lattice_contains(const struct lattice *l, size_t item, const char *text, size_t len)
{
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT,
                               .max_memory = (size_t)256 << 20};
    struct diag_list ignored = DIAG_LIST_INIT;
    struct forest *f = parse_text(l->items[item].graph, "string", text, len, &po, &ignored);
    diag_list_free(&ignored);
    forest_free(f);
    return f != NULL;
}

bool lattice_generalizes(const struct lattice *l, size_t upper, size_t lower)
{
    const struct lattice_item *it = &l->items[upper];
    for (size_t i = 0; i < it->nbelow; i++)
        if (it->below[i] == lower)
            return true;
    return false;
}

static size_t find_item_from(const struct lattice *l, size_t from, const char *name, size_t len)
{
    size_t i = find_item(l, name, len);
    return i != SIZE_MAX && i >= from ? i : SIZE_MAX;
}

/* Free items [from, nitems) and forget them. */
static void drop_items(struct lattice *l, size_t from)
{
    for (size_t i = from; i < l->nitems; i++) {
        graph_free(l->items[i].graph);
        free(l->items[i].examples);
        free(l->items[i].below);
    }
    l->nitems = from;
}

/* Does a line of text[0..len) start with `name` and then ":="?  (Such a
 * file takes a name the lattice has: an error of read_items's.) */
static bool defines(const char *text, size_t len, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i + n <= len; i++) {
        if ((i && text[i - 1] != '\n') || memcmp(text + i, name, n) != 0)
            continue;
        size_t j = i + n;
        while (j < len && (text[j] == ' ' || text[j] == '\t'))
            j++;
        if (j + 1 < len && text[j] == ':' && text[j + 1] == '=')
            return true;
    }
    return false;
}

/* Read the file's items after those of l; its grammar in *gout.  False with
 * diagnostics (the items read are dropped, *gout freed). */
static bool read_items(struct lattice *out, const char *path, struct grammar **gout,
                       struct diag_list *diags)
{
    *gout = NULL;
    struct grammar_options go = {0};
    struct diag_list loaded = DIAG_LIST_INIT;
    struct strbuf text = STRBUF_INIT;
    struct grammar *g = NULL;
    /* A file added to a lattice names the items read before: they are
     * declared after its text (as empty rules past its last line, never
     * items of this file) so that the loader resolves the names. */
    uint32_t stubs_from = UINT32_MAX;
    if (grammar_read_file(path, &go, &text, &loaded)) {
        if (out->nitems) {
            stubs_from = 2;
            for (size_t i = 0; i < text.len; i++)
                stubs_from += text.data[i] == '\n';
            strbuf_addstr(&text, "\n");
            size_t own = text.len;
            for (size_t i = 0; i < out->nitems; i++)
                if (!defines(text.data, own, out->items[i].name))
                    strbuf_addf(&text, "%s := \"\";\n", out->items[i].name);
        }
        g = grammar_load_string(path, text.data ? text.data : "", text.len, &go, &loaded);
    }
    strbuf_free(&text);
    /* The loader's warnings (a guessed start rule, rules nobody refers to)
     * are what a lattice file is made of: keep only its errors. */
    for (size_t i = 0; i < loaded.len; i++) {
        const struct diag *d = &loaded.items[i];
        if (d->severity == DIAG_ERROR)
            diag_add(diags, DIAG_ERROR, d->file, d->line, d->col, "%s", d->message);
    }
    diag_list_free(&loaded);
    if (!g)
        return false;
    size_t errors = diags->errors;
    size_t base, first = out->nitems;
    /* Items first: every rule without a suffix. */
    out->items = xrealloc(out->items, (first + g->nrules + 1) * sizeof *out->items);
    memset(out->items + first, 0, (g->nrules + 1) * sizeof *out->items);
    for (uint32_t r = 0; r < g->nrules; r++) {
        const struct rule *ru = &g->rules[r];
        if (has_suffix(ru->name, EXAMPLES, &base) || has_suffix(ru->name, GENERALIZES, &base) ||
            ru->pos.line >= stubs_from)
            continue;
        const struct expr *ref = first_reference(ru->rhs);
        if (ref) /* still an item, so what names it gives no second error */
            diag_add(diags, DIAG_ERROR, g->file, ref->pos.line, ref->pos.col,
                     "item %s refers to rule %s: an item is written with literals and "
                     "classes only", ru->name, ref->u.ref.name);
        if (find_item(out, ru->name, strlen(ru->name)) != SIZE_MAX)
            diag_add(diags, DIAG_ERROR, g->file, ru->pos.line, ru->pos.col,
                     "item %s is in the lattice already (from a file read before)", ru->name);
        struct lattice_item *it = &out->items[out->nitems++];
        it->name = ru->name;
        it->grammar = g;
        it->rule = r;
        uint32_t saved = g->start;
        g->start = r;
        it->graph = graph_build(g);
        g->start = saved;
    }
    /* Then what the suffixed rules say about them. */
    for (uint32_t r = 0; r < g->nrules; r++) {
        const struct rule *ru = &g->rules[r];
        bool examples = has_suffix(ru->name, EXAMPLES, &base);
        if (!examples && !has_suffix(ru->name, GENERALIZES, &base))
            continue;
        size_t item = find_item_from(out, first, ru->name, base);
        if (item == SIZE_MAX) {
            diag_add(diags, DIAG_ERROR, g->file, ru->pos.line, ru->pos.col,
                     "%s: there is no item %.*s in this file", ru->name, (int)base, ru->name);
            continue;
        }
        struct lattice_item *it = &out->items[item];
        struct expr *const *alts;
        uint32_t nalts;
        const struct expr *single;
        alternatives(ru->rhs, &alts, &nalts, &single);
        if (examples) {
            it->examples = xcalloc(nalts, sizeof *it->examples);
            for (uint32_t a = 0; a < nalts; a++) {
                const struct expr *e = alts[a];
                if (e->kind != EXPR_LIT) {
                    diag_add(diags, DIAG_ERROR, g->file, e->pos.line, e->pos.col,
                             "%s: an example is a string literal", ru->name);
                    continue;
                }
                if (!lattice_contains(out, item, e->u.lit.text, e->u.lit.len)) {
                    diag_add(diags, DIAG_ERROR, g->file, e->pos.line, e->pos.col,
                             "%s: this example is not in item %s", ru->name, it->name);
                    continue;
                }
                it->examples[it->nexamples++] = e;
            }
        } else {
            it->below = xcalloc(nalts, sizeof *it->below);
            for (uint32_t a = 0; a < nalts; a++) {
                const struct expr *e = alts[a];
                size_t lower = e->kind == EXPR_REF
                                   ? find_item(out, e->u.ref.name, strlen(e->u.ref.name))
                                   : SIZE_MAX;
                if (lower == SIZE_MAX) {
                    diag_add(diags, DIAG_ERROR, g->file, e->pos.line, e->pos.col,
                             "%s: name the items it generalizes, separated by |", ru->name);
                    continue;
                }
                if (lower >= item) {
                    diag_add(diags, DIAG_ERROR, g->file, e->pos.line, e->pos.col,
                             "%s: item %s is not written above %s (list items from the "
                             "most specific to the most general)", ru->name,
                             out->items[lower].name, it->name);
                    continue;
                }
                it->below[it->nbelow++] = (uint32_t)lower;
            }
        }
    }
    for (size_t i = first; i < out->nitems; i++)
        if (!out->items[i].nexamples && out->items[i].examples == NULL) {
            const struct rule *ru = &g->rules[out->items[i].rule];
            diag_add(diags, DIAG_ERROR, g->file, ru->pos.line, ru->pos.col,
                     "item %s has no examples (add a rule %s%s := \"...\" | ...;)", ru->name,
                     ru->name, EXAMPLES);
        }
    if (out->nitems == first && diags->errors == errors)
        diag_add(diags, DIAG_ERROR, g->file, 0, 0, "the lattice has no item");
    if (diags->errors != errors) {
        drop_items(out, first);
        grammar_free(g);
        return false;
    }
    *gout = g;
    return true;
}

bool lattice_load(const char *path, struct lattice *out, struct diag_list *diags)
{
    memset(out, 0, sizeof *out);
    if (!read_items(out, path, &out->grammar, diags)) {
        lattice_free(out);
        return false;
    }
    return true;
}

bool lattice_add(struct lattice *l, const char *path, struct diag_list *diags)
{
    struct grammar *g = NULL;
    if (!read_items(l, path, &g, diags))
        return false;
    l->more = xrealloc(l->more, (l->nmore + 1) * sizeof *l->more);
    l->more[l->nmore++] = g;
    return true;
}

void lattice_free(struct lattice *l)
{
    drop_items(l, 0);
    free(l->items);
    grammar_free(l->grammar);
    for (size_t i = 0; i < l->nmore; i++)
        grammar_free(l->more[i]);
    free(l->more);
    memset(l, 0, sizeof *l);
}

bool lattice_default_path(struct strbuf *path)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    struct stat st;
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        static const char *const up[] = {"/../", "/../../"};
        for (size_t i = 0; i < 2; i++) {
            strbuf_reset(path);
            strbuf_addf(path, "%s%s%s", exe, up[i], LATTICE_DEFAULT);
            if (stat(path->data, &st) == 0 && S_ISREG(st.st_mode))
                return true;
        }
    }
    strbuf_reset(path);
    strbuf_addf(path, "%s/%s", KPATH_DATADIR, LATTICE_DEFAULT);
    return stat(path->data, &st) == 0 && S_ISREG(st.st_mode);
}
