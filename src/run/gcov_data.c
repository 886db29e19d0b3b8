/* gcov_data: see gcov_data.h.  Written from the format as gcov-io.h
 * describes it and from what gcov --json-format reports; no code of GCC's. */
#define _POSIX_C_SOURCE 200809L
#include "run/gcov_data.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"

/* Tags and flags of the format (gcov-io.h). */
#define MAGIC_NOTES 0x67636e6fu /* "gcno" */
#define MAGIC_DATA 0x67636461u  /* "gcda" */
#define TAG_FUNCTION 0x01000000u
#define TAG_BLOCKS 0x01410000u
#define TAG_ARCS 0x01430000u
#define TAG_LINES 0x01450000u
#define TAG_COUNTER_ARCS 0x01a10000u
#define ARC_ON_TREE 1u
/* GCC 12's versions are "B2" followed by the minor version and a status. */
#define VERSION_FAMILY(v) ((v) >> 16)
#define VERSION_GCC12 ((uint32_t)'B' << 8 | '2')
/* More blocks than this in one function is a corrupt file, not a program. */
#define MAX_BLOCKS ((uint32_t)1 << 22)
#define NONE UINT32_MAX

struct fn {
    char *name;
    uint32_t ident, lineno_checksum, cfg_checksum;
    uint32_t src, start_line, start_column, end_line;
    uint32_t order;                  /* place in the notes file */
    bool artificial, group, kept, has_blocks;
    uint32_t block_base, nblocks;    /* into the notes' blocks */
    uint32_t arc_base, narcs;        /* into the notes' arcs, by source block */
    uint32_t counter_base, ncounters;
};

struct arc {
    uint32_t src, dst; /* global block indices */
    uint32_t counter;  /* its counter, or NONE for an arc on the spanning tree */
};

/* A line as gcov reports it: of a source file, or of a function that
 * shares its start line with another (a "group" function). */
struct line_entry {
    uint32_t src, number;
    bool attached;     /* blocks end on it: count the arcs that enter them */
    bool cycle;        /* those blocks have a cycle among them */
    uint32_t first, n; /* refs: arcs (attached) or blocks (not) */
    uint32_t att_first, natt; /* the distinct attached blocks, for cycles */
};

struct gcov_notes {
    char *path;
    uint32_t version, stamp;
    char **sources; /* canonical names, in order of first mention */
    size_t nsources, sources_cap;
    struct fn *fns;
    size_t nfns, fns_cap;
    uint32_t *by_ident; /* function indices sorted by ident, last of equals kept */
    size_t nidents;
    uint32_t nblocks, narcs, ncounters;
    struct arc *arcs;
    uint32_t *succ_start, *succ; /* per block: its successor arcs (global indices) */
    uint32_t *pred_start, *pred;
    uint32_t *fn_order; /* kept functions in gcov's order */
    size_t nkept;
    struct line_entry *lines;
    size_t nlines;
    uint32_t *refs, *att;
    uint32_t *mark; /* per block, 0 but within has_cycle and build_lines */
    /* One run's state. */
    uint64_t *counters, *arc_count, *block_count;
    unsigned char *arc_known, *block_known;
    uint32_t *unknown_in, *unknown_out, *stack;
    unsigned char *buf;
    size_t buf_cap;
};

/* ---- reading ------------------------------------------------------------ */

struct reader {
    const unsigned char *p;
    size_t len, pos;
};

static bool get_u32(struct reader *r, uint32_t *v)
{
    if (r->len - r->pos < 4)
        return false;
    memcpy(v, r->p + r->pos, 4);
    r->pos += 4;
    return true;
}

/* A string: its byte length (0: none), then its bytes ending in NUL. */
static bool get_string(struct reader *r, const char **s)
{
    uint32_t n;
    if (!get_u32(r, &n))
        return false;
    *s = NULL;
    if (!n)
        return true;
    if (r->len - r->pos < n || r->p[r->pos + n - 1] != '\0')
        return false;
    *s = (const char *)r->p + r->pos;
    r->pos += n;
    return true;
}

/* The whole file at `path` into *buf. */
static bool slurp(const char *path, unsigned char **buf, size_t *cap, size_t *len,
                  const char *shown, struct diag_list *diags)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        diag_add(diags, DIAG_ERROR, shown, 0, 0, "cannot read it: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return false;
    }
    size_t want = sb.st_size > 0 ? (size_t)sb.st_size : 0;
    *buf = xgrow(*buf, cap, want + 1, 1);
    size_t got = 0;
    while (got < want) {
        ssize_t k = read(fd, *buf + got, want - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(fd);
    *len = got;
    return true;
}

/* ---- source names --------------------------------------------------------- */

/* gcov's canonical form of a file name: empty and "." components dropped,
 * "D/.." dropped where D (so far) is an existing directory that stat
 * reaches; where it is not, ".." stays and is never elided past. */
static char *canonical_name(const char *name)
{
    size_t len = strlen(name);
    char *out = xmalloc(len + 1);
    size_t w = 0, floor = 0; /* out[0..w); nothing before `floor` is elided */
    bool sep = false;        /* a '/' goes before the next component */
    const char *p = name;
    while (*p) {
        const char *end = p;
        while (*end && *end != '/')
            end++;
        size_t n = (size_t)(end - p);
        bool regular = true;
        if (n == 1 && p[0] == '.') {
            regular = false;
        } else if (n == 2 && p[0] == '.' && p[1] == '.') {
            out[w] = '\0';
            struct stat sb;
            /* A relative prefix is looked up where gcov runs: a fresh run
             * directory, where it does not exist. */
            bool can = w != floor && out[0] == '/' && stat(out, &sb) == 0;
            if (can) {
                while (w != floor && out[w] != '/')
                    w--;
                sep = w != 0;
                regular = false;
            } else {
                floor = w + 2 + (sep ? 1 : 0);
            }
        }
        if (regular) {
            if (sep)
                out[w++] = '/';
            memcpy(out + w, p, n);
            w += n;
            sep = true;
        }
        p = end;
        while (*p == '/')
            p++;
    }
    out[w] = '\0';
    return out;
}

static uint32_t find_source(struct gcov_notes *n, const char *raw)
{
    char *canon = canonical_name(raw ? raw : "<unknown>");
    for (size_t i = n->nsources; i-- > 0;)
        if (strcmp(n->sources[i], canon) == 0) {
            free(canon);
            return (uint32_t)i;
        }
    n->sources = xgrow(n->sources, &n->sources_cap, n->nsources + 1, sizeof *n->sources);
    n->sources[n->nsources] = canon;
    return (uint32_t)n->nsources++;
}

/* ---- the notes file --------------------------------------------------------- */

/* What the records give before it is arranged by block. */
struct raw_arc {
    uint32_t fn, block, seq, dst, flags;
};
struct raw_loc {
    uint32_t fn, block, seq, src, first, n; /* lines: raw_lines[first..first+n) */
};

/* qsort, for arrays that may be empty (and NULL). */
static void sort_some(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n)
        qsort(base, n, size, cmp);
}

static int cmp_raw_arc(const void *a, const void *b)
{
    const struct raw_arc *x = a, *y = b;
    if (x->fn != y->fn)
        return x->fn < y->fn ? -1 : 1;
    if (x->block != y->block)
        return x->block < y->block ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_raw_loc(const void *a, const void *b)
{
    const struct raw_loc *x = a, *y = b;
    if (x->fn != y->fn)
        return x->fn < y->fn ? -1 : 1;
    if (x->block != y->block)
        return x->block < y->block ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static const struct gcov_notes *sort_notes; /* for the comparisons below */

static int cmp_ident(const void *a, const void *b)
{
    const struct fn *x = &sort_notes->fns[*(const uint32_t *)a];
    const struct fn *y = &sort_notes->fns[*(const uint32_t *)b];
    if (x->ident != y->ident)
        return x->ident < y->ident ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* gcov's order of functions: by file, start line, start column. */
static int cmp_fn_place(const void *a, const void *b)
{
    const struct fn *x = &sort_notes->fns[*(const uint32_t *)a];
    const struct fn *y = &sort_notes->fns[*(const uint32_t *)b];
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->start_line != y->start_line)
        return x->start_line < y->start_line ? -1 : 1;
    if (x->start_column != y->start_column)
        return x->start_column < y->start_column ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* One (line, block) pair on the way to line entries.  Lines of a group
 * function come at its start line, before the file's own line there. */
struct line_ref {
    uint32_t src, at, kind, rank, number; /* kind 0: a group function's line, 1: the file's */
    uint32_t block;                       /* global */
    bool attach;                          /* the block ends on it (else: it is in the block) */
};

static int cmp_line_ref(const void *a, const void *b)
{
    const struct line_ref *x = a, *y = b;
    const uint32_t kx[5] = {x->src, x->at, x->kind, x->rank, x->number};
    const uint32_t ky[5] = {y->src, y->at, y->kind, y->rank, y->number};
    for (int i = 0; i < 5; i++)
        if (kx[i] != ky[i])
            return kx[i] < ky[i] ? -1 : 1;
    return 0;
}

static bool same_line(const struct line_ref *x, const struct line_ref *y)
{
    return x->src == y->src && x->at == y->at && x->kind == y->kind && x->rank == y->rank &&
           x->number == y->number;
}

/* Has the graph of blocks `set` (arcs between them with positive `live`
 * counts, all arcs when live is NULL) a cycle?  Blocks with no arc in from
 * the set are peeled off, one after another (Kahn's order); a cycle is
 * what cannot be peeled.  n->mark must be 0 for every block on entry and
 * is so again on return. */
static bool has_cycle(const struct gcov_notes *n, const uint32_t *set, uint32_t k,
                      const uint64_t *live)
{
    uint32_t *indeg = xcalloc((size_t)k + 1, sizeof *indeg);
    uint32_t *queue = xcalloc((size_t)k + 1, sizeof *queue);
    for (uint32_t i = 0; i < k; i++)
        n->mark[set[i]] = i + 1;
    for (uint32_t i = 0; i < k; i++)
        for (uint32_t j = n->pred_start[set[i]]; j < n->pred_start[set[i] + 1]; j++)
            if (n->mark[n->arcs[n->pred[j]].src] && (!live || (int64_t)live[n->pred[j]] > 0))
                indeg[i]++;
    uint32_t head = 0, tail = 0;
    for (uint32_t i = 0; i < k; i++)
        if (!indeg[i])
            queue[tail++] = i;
    while (head < tail) {
        uint32_t b = set[queue[head++]];
        for (uint32_t j = n->succ_start[b]; j < n->succ_start[b + 1]; j++) {
            uint32_t m = n->mark[n->arcs[n->succ[j]].dst];
            if (m && (!live || (int64_t)live[n->succ[j]] > 0) && --indeg[m - 1] == 0)
                queue[tail++] = m - 1;
        }
    }
    for (uint32_t i = 0; i < k; i++)
        n->mark[set[i]] = 0;
    free(indeg);
    free(queue);
    return tail < k;
}

/* From (line, block) pairs to line entries: refs are the arcs that enter
 * an attached line's blocks from elsewhere, or a plain line's blocks. */
static void build_lines(struct gcov_notes *n, struct line_ref *refs, size_t nrefs)
{
    sort_some(refs, nrefs, sizeof *refs, cmp_line_ref);
    size_t refs_cap = 0, att_cap = 0, lines_cap = 0, nr = 0, na = 0;
    uint32_t *att_all = NULL;
    for (size_t i = 0; i < nrefs;) {
        size_t j = i;
        while (j < nrefs && same_line(&refs[i], &refs[j]))
            j++;
        struct line_entry e = {.src = refs[i].src, .number = refs[i].number};
        for (size_t k = i; k < j; k++)
            e.attached |= refs[k].attach;
        e.att_first = (uint32_t)na;
        for (size_t k = i; k < j; k++)
            if (refs[k].attach && !n->mark[refs[k].block]) {
                n->mark[refs[k].block] = 1;
                att_all = xgrow(att_all, &att_cap, na + 1, sizeof *att_all);
                att_all[na++] = refs[k].block;
                e.natt++;
            }
        e.first = (uint32_t)nr;
        for (size_t k = i; k < j; k++) {
            if (e.attached != refs[k].attach)
                continue;
            uint32_t b = refs[k].block;
            if (!e.attached) {
                n->refs = xgrow(n->refs, &refs_cap, nr + 1, sizeof *n->refs);
                n->refs[nr++] = b;
                continue;
            }
            for (uint32_t p = n->pred_start[b]; p < n->pred_start[b + 1]; p++)
                if (!n->mark[n->arcs[n->pred[p]].src]) {
                    n->refs = xgrow(n->refs, &refs_cap, nr + 1, sizeof *n->refs);
                    n->refs[nr++] = n->pred[p];
                }
        }
        e.n = (uint32_t)nr - e.first;
        for (uint32_t k = 0; k < e.natt; k++)
            n->mark[att_all[e.att_first + k]] = 0;
        e.cycle = e.attached && has_cycle(n, att_all + e.att_first, e.natt, NULL);
        n->lines = xgrow(n->lines, &lines_cap, n->nlines + 1, sizeof *n->lines);
        n->lines[n->nlines++] = e;
        i = j;
    }
    n->att = att_all;
}

static bool corrupt(struct diag_list *diags, const char *path, size_t at, const char *what)
{
    diag_add(diags, DIAG_ERROR, path, 0, 0, "corrupt gcov notes at byte %zu: %s", at, what);
    return false;
}

/* Arrange what the records gave: arcs and locations by block, counters,
 * the kept functions and their lines, as gcov does. */
static void arrange(struct gcov_notes *n, struct raw_arc *ra, size_t nra, struct raw_loc *rl,
                    size_t nrl, const uint32_t *raw_lines)
{
    sort_notes = n;
    /* Blocks, arcs and counters. */
    sort_some(ra, nra, sizeof *ra, cmp_raw_arc);
    n->arcs = xcalloc(nra + 1, sizeof *n->arcs);
    n->succ_start = xcalloc((size_t)n->nblocks + 1, sizeof *n->succ_start);
    n->pred_start = xcalloc((size_t)n->nblocks + 1, sizeof *n->pred_start);
    n->succ = xcalloc(nra + 1, sizeof *n->succ);
    n->pred = xcalloc(nra + 1, sizeof *n->pred);
    n->mark = xcalloc((size_t)n->nblocks + 1, sizeof *n->mark);
    size_t a = 0;
    for (size_t f = 0; f < n->nfns; f++) {
        struct fn *fn = &n->fns[f];
        fn->arc_base = (uint32_t)a;
        fn->counter_base = n->ncounters;
        for (; a < nra && ra[a].fn == f; a++) {
            struct arc *arc = &n->arcs[a];
            arc->src = fn->block_base + ra[a].block;
            arc->dst = fn->block_base + ra[a].dst;
            arc->counter = ra[a].flags & ARC_ON_TREE ? NONE : fn->counter_base + fn->ncounters++;
            n->succ_start[arc->src + 1]++;
            n->pred_start[arc->dst + 1]++;
        }
        fn->narcs = (uint32_t)a - fn->arc_base;
        n->ncounters += fn->ncounters;
    }
    n->narcs = (uint32_t)nra;
    for (uint32_t b = 0; b < n->nblocks; b++) {
        n->succ_start[b + 1] += n->succ_start[b];
        n->pred_start[b + 1] += n->pred_start[b];
    }
    uint32_t *fill = xcalloc((size_t)n->nblocks + 1, sizeof *fill);
    for (uint32_t i = 0; i < n->narcs; i++) /* arcs are by source block already */
        n->succ[i] = i;
    for (uint32_t i = 0; i < n->narcs; i++) {
        uint32_t d = n->arcs[i].dst;
        n->pred[n->pred_start[d] + fill[d]++] = i;
    }
    free(fill);
    /* Functions: group ones share a file and start line; artificial ones
     * and ones without a counter are not reported. */
    uint32_t *place = xcalloc(n->nfns + 1, sizeof *place);
    size_t nplace = 0;
    for (size_t f = 0; f < n->nfns; f++)
        if (!n->fns[f].artificial)
            place[nplace++] = (uint32_t)f;
    sort_some(place, nplace, sizeof *place, cmp_fn_place);
    for (size_t i = 1; i < nplace; i++) {
        struct fn *x = &n->fns[place[i - 1]], *y = &n->fns[place[i]];
        if (x->src == y->src && x->start_line == y->start_line)
            x->group = y->group = true;
    }
    n->fn_order = xcalloc(nplace + 1, sizeof *n->fn_order);
    for (size_t i = 0; i < nplace; i++) {
        struct fn *fn = &n->fns[place[i]];
        fn->kept = fn->ncounters > 0;
        if (fn->kept)
            n->fn_order[n->nkept++] = place[i];
    }
    free(place);
    /* Lines: each location's lines sorted; a block ends on the last line
     * of each of its locations (entry and last block excepted). */
    sort_some(rl, nrl, sizeof *rl, cmp_raw_loc);
    uint32_t *rank = xcalloc(n->nfns + 1, sizeof *rank);
    for (size_t i = 0; i < n->nkept; i++)
        rank[n->fn_order[i]] = (uint32_t)i;
    struct line_ref *refs = NULL;
    size_t nrefs = 0, refs_cap = 0;
    uint32_t *sorted = NULL;
    size_t sorted_cap = 0;
    for (size_t i = 0; i < nrl;) {
        const struct fn *fn = &n->fns[rl[i].fn];
        uint32_t block = rl[i].block;
        size_t j = i;
        bool have_last = false;
        struct line_ref last = {0};
        for (; j < nrl && rl[j].fn == rl[i].fn && rl[j].block == block; j++) {
            if (!fn->kept)
                continue;
            sorted = xgrow(sorted, &sorted_cap, (size_t)rl[j].n + 1, sizeof *sorted);
            if (rl[j].n)
                memcpy(sorted, raw_lines + rl[j].first, (size_t)rl[j].n * sizeof *sorted);
            sort_some(sorted, rl[j].n, sizeof *sorted, cmp_u32);
            for (uint32_t k = 0; k < rl[j].n; k++) {
                uint32_t ln = sorted[k];
                struct line_ref r = {.src = rl[j].src, .at = ln, .kind = 1, .number = ln,
                                     .block = fn->block_base + block};
                if (fn->group && rl[j].src == fn->src && fn->start_line <= ln &&
                    ln <= fn->end_line) {
                    r.at = fn->start_line;
                    r.kind = 0;
                    r.rank = rank[rl[j].fn];
                }
                refs = xgrow(refs, &refs_cap, nrefs + 1, sizeof *refs);
                refs[nrefs++] = r;
                last = r;
                have_last = true;
            }
            if (have_last && block != 0 && block + 1 != fn->nblocks) {
                last.attach = true;
                refs = xgrow(refs, &refs_cap, nrefs + 1, sizeof *refs);
                refs[nrefs++] = last;
            }
        }
        i = j;
    }
    free(sorted);
    free(rank);
    build_lines(n, refs, nrefs);
    free(refs);
    /* Functions by ident, for the data files. */
    n->by_ident = xcalloc(n->nfns + 1, sizeof *n->by_ident);
    for (size_t f = 0; f < n->nfns; f++)
        n->by_ident[f] = (uint32_t)f;
    sort_some(n->by_ident, n->nfns, sizeof *n->by_ident, cmp_ident);
    for (size_t i = 0; i < n->nfns; i++) { /* the last of equal idents wins, as in gcov */
        if (n->nidents && n->fns[n->by_ident[n->nidents - 1]].ident == n->fns[n->by_ident[i]].ident)
            n->nidents--;
        n->by_ident[n->nidents++] = n->by_ident[i];
    }
    /* One run's arrays. */
    size_t nb = (size_t)n->nblocks + 1, na = (size_t)n->narcs + 1;
    n->counters = xcalloc((size_t)n->ncounters + 1, sizeof *n->counters);
    n->arc_count = xcalloc(na, sizeof *n->arc_count);
    n->block_count = xcalloc(nb, sizeof *n->block_count);
    n->arc_known = xcalloc(na, 1);
    n->block_known = xcalloc(nb, 1);
    n->unknown_in = xcalloc(nb, sizeof *n->unknown_in);
    n->unknown_out = xcalloc(nb, sizeof *n->unknown_out);
    n->stack = xcalloc(nb + 2 * na, sizeof *n->stack);
}

enum gcov_read_status gcov_notes_read(const char *path, struct gcov_notes **out,
                                      char version[5], struct diag_list *diags)
{
    *out = NULL;
    struct gcov_notes *n = xcalloc(1, sizeof *n);
    n->path = xstrdup(path);
    size_t len = 0;
    if (!slurp(path, &n->buf, &n->buf_cap, &len, path, diags)) {
        gcov_notes_free(n);
        return GCOV_READ_ERROR;
    }
    struct reader r = {n->buf, len, 0};
    uint32_t magic = 0, checksum, unexecuted;
    const char *cwd;
    if (!get_u32(&r, &magic) || magic != MAGIC_NOTES) {
        diag_add(diags, DIAG_ERROR, path, 0, 0, "not a gcov notes file%s",
                 magic == 0x6f6e6367u ? " of this machine's byte order" : "");
        gcov_notes_free(n);
        return GCOV_READ_ERROR;
    }
    if (!get_u32(&r, &n->version)) {
        corrupt(diags, path, r.pos, "the header is cut short");
        gcov_notes_free(n);
        return GCOV_READ_ERROR;
    }
    if (VERSION_FAMILY(n->version) != VERSION_GCC12) {
        for (int i = 0; i < 4; i++) {
            char c = (char)(n->version >> (24 - 8 * i));
            version[i] = c >= 0x20 && c < 0x7f ? c : '?';
        }
        version[4] = '\0';
        gcov_notes_free(n);
        return GCOV_READ_OTHER_VERSION;
    }
    bool ok = get_u32(&r, &n->stamp) && get_u32(&r, &checksum) && get_string(&r, &cwd) &&
              get_u32(&r, &unexecuted);
    if (!ok)
        corrupt(diags, path, r.pos, "the header is cut short");
    struct raw_arc *ra = NULL;
    struct raw_loc *rl = NULL;
    uint32_t *raw_lines = NULL;
    size_t nra = 0, ra_cap = 0, nrl = 0, rl_cap = 0, nlines = 0, lines_cap = 0;
    uint32_t seq = 0;
    unsigned char *seen = NULL; /* blocks whose arcs were given */
    size_t seen_cap = 0, seen_len = 0;
    struct fn *fn = NULL;
    while (ok && r.pos < r.len) {
        size_t at = r.pos;
        uint32_t tag, length;
        if (!get_u32(&r, &tag) || tag == 0)
            break;
        if (!get_u32(&r, &length) || r.len - r.pos < length) {
            ok = corrupt(diags, path, at, "a record runs past the end of the file");
            break;
        }
        struct reader rec = {r.p, r.pos + length, r.pos};
        r.pos += length;
        if (tag == TAG_FUNCTION) {
            const char *name, *source;
            uint32_t artificial, start_col, end_line, end_col;
            struct fn f = {0};
            ok = get_u32(&rec, &f.ident) && get_u32(&rec, &f.lineno_checksum) &&
                 get_u32(&rec, &f.cfg_checksum) && get_string(&rec, &name) &&
                 get_u32(&rec, &artificial) && get_string(&rec, &source) &&
                 get_u32(&rec, &f.start_line) && get_u32(&rec, &start_col) &&
                 get_u32(&rec, &end_line) && get_u32(&rec, &end_col);
            if (!ok) {
                corrupt(diags, path, at, "a function record is cut short");
                break;
            }
            f.name = xstrdup(name ? name : "");
            f.artificial = artificial != 0;
            f.src = find_source(n, source);
            f.start_column = start_col;
            f.end_line = end_line;
            f.order = (uint32_t)n->nfns;
            n->fns = xgrow(n->fns, &n->fns_cap, n->nfns + 1, sizeof *n->fns);
            n->fns[n->nfns] = f;
            fn = &n->fns[n->nfns++];
        } else if (fn && tag == TAG_BLOCKS) {
            uint32_t count;
            /* Every block but the last has an arcs record of 16 bytes or more. */
            if (fn->has_blocks || !get_u32(&rec, &count) || count > MAX_BLOCKS ||
                count > r.len / 16 + 2 ||
                n->nblocks > UINT32_MAX - count - 1) {
                ok = corrupt(diags, path, at, "a function's blocks are given twice or are too many");
                break;
            }
            fn->has_blocks = true;
            fn->block_base = n->nblocks;
            fn->nblocks = count;
            n->nblocks += count;
        } else if (fn && tag == TAG_ARCS) {
            uint32_t src;
            if (!get_u32(&rec, &src) || src >= fn->nblocks) {
                ok = corrupt(diags, path, at, "arcs from a block the function does not have");
                break;
            }
            /* One arcs record per block. */
            seen = xgrow(seen, &seen_cap, n->nblocks, 1);
            if (seen_len < n->nblocks) {
                memset(seen + seen_len, 0, n->nblocks - seen_len);
                seen_len = n->nblocks;
            }
            if (seen[fn->block_base + src])
                ok = false;
            seen[fn->block_base + src] = 1;
            while (ok && rec.len - rec.pos >= 8) {
                uint32_t dst = 0, flags = 0;
                get_u32(&rec, &dst);
                get_u32(&rec, &flags);
                if (dst >= fn->nblocks) {
                    ok = false;
                    break;
                }
                ra = xgrow(ra, &ra_cap, nra + 1, sizeof *ra);
                ra[nra++] = (struct raw_arc){(uint32_t)(fn - n->fns), src, seq++, dst, flags};
            }
            if (!ok)
                corrupt(diags, path, at, "an arc to a block the function does not have, or "
                                         "a block's arcs given twice");
        } else if (fn && tag == TAG_LINES) {
            uint32_t block;
            if (!get_u32(&rec, &block) || block >= fn->nblocks) {
                ok = corrupt(diags, path, at, "lines of a block the function does not have");
                break;
            }
            struct raw_loc *loc = NULL;
            for (;;) {
                uint32_t number;
                const char *file;
                if (!get_u32(&rec, &number)) {
                    ok = false;
                    break;
                }
                if (number) {
                    if (!loc) {
                        ok = false;
                        break;
                    }
                    raw_lines = xgrow(raw_lines, &lines_cap, nlines + 1, sizeof *raw_lines);
                    raw_lines[nlines++] = number;
                    loc->n++;
                    continue;
                }
                if (!get_string(&rec, &file)) {
                    ok = false;
                    break;
                }
                if (!file)
                    break;
                rl = xgrow(rl, &rl_cap, nrl + 1, sizeof *rl);
                rl[nrl] = (struct raw_loc){(uint32_t)(fn - n->fns), block, seq++,
                                           find_source(n, file), (uint32_t)nlines, 0};
                loc = &rl[nrl++];
            }
            if (!ok)
                corrupt(diags, path, at, "a lines record is cut short or has a line before "
                                         "its file");
        } else if (!((tag & 0xff00ffffu) == TAG_FUNCTION && (tag & 0x00010000u))) {
            fn = NULL; /* a record of its own, not a function's */
        }
    }
    if (ok)
        arrange(n, ra, nra, rl, nrl, raw_lines);
    free(ra);
    free(rl);
    free(raw_lines);
    free(seen);
    if (!ok) {
        gcov_notes_free(n);
        return GCOV_READ_ERROR;
    }
    *out = n;
    return GCOV_READ_OK;
}

void gcov_notes_free(struct gcov_notes *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->nsources; i++)
        free(n->sources[i]);
    for (size_t i = 0; i < n->nfns; i++)
        free(n->fns[i].name);
    void *arrays[] = {n->path, n->sources, n->fns, n->by_ident, n->arcs, n->succ_start,
                      n->succ, n->pred_start, n->pred, n->fn_order, n->lines, n->refs, n->att,
                      n->counters, n->arc_count, n->block_count, n->arc_known, n->block_known,
                      n->unknown_in, n->unknown_out, n->stack, n->buf, n->mark};
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
        free(arrays[i]);
    free(n);
}

const char *gcov_notes_mangled(const struct gcov_notes *n)
{
    for (size_t i = 0; i < n->nkept; i++) {
        const char *name = n->fns[n->fn_order[i]].name;
        if (name[0] == '_' && name[1] == 'Z')
            return name;
    }
    return NULL;
}

/* ---- a run's counts ------------------------------------------------------------ */

static struct fn *fn_by_ident(const struct gcov_notes *n, uint32_t ident)
{
    size_t lo = 0, hi = n->nidents;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t v = n->fns[n->by_ident[mid]].ident;
        if (v == ident)
            return &n->fns[n->by_ident[mid]];
        if (v < ident)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static void push(const struct gcov_notes *n, uint32_t *top, uint32_t block)
{
    n->stack[(*top)++] = block;
}

/* Every arc's and block's count of `fn` from its counters: a block's count
 * is the sum of its arcs in and the sum of its arcs out (the entry block
 * has only the second, the last block without successors only the first);
 * one unknown arc of a known block follows. */
static void solve(struct gcov_notes *n, const struct fn *fn)
{
    uint32_t b0 = fn->block_base, b1 = fn->block_base + fn->nblocks;
    bool any = false;
    for (uint32_t i = 0; i < fn->ncounters; i++)
        any |= n->counters[fn->counter_base + i] != 0;
    for (uint32_t a = fn->arc_base; a < fn->arc_base + fn->narcs; a++) {
        uint32_t c = n->arcs[a].counter;
        n->arc_known[a] = c != NONE || !any;
        n->arc_count[a] = c != NONE ? n->counters[c] : 0;
    }
    for (uint32_t b = b0; b < b1; b++) {
        n->block_count[b] = 0;
        n->block_known[b] = !any;
    }
    if (!any)
        return;
    uint32_t top = 0;
    for (uint32_t b = b0; b < b1; b++) {
        uint32_t in = 0, out = 0;
        for (uint32_t j = n->pred_start[b]; j < n->pred_start[b + 1]; j++)
            in += !n->arc_known[n->pred[j]];
        for (uint32_t j = n->succ_start[b]; j < n->succ_start[b + 1]; j++)
            out += !n->arc_known[n->succ[j]];
        bool no_in = n->pred_start[b] == n->pred_start[b + 1];
        bool no_out = n->succ_start[b] == n->succ_start[b + 1];
        n->unknown_in[b] = b == b0 && no_in ? NONE : in;
        n->unknown_out[b] = b == b0 + 1 && no_out ? NONE : out;
        push(n, &top, b);
    }
    while (top) {
        uint32_t b = n->stack[--top];
        if (!n->block_known[b]) {
            const uint32_t *list = NULL;
            uint32_t from = 0, to = 0;
            if (n->unknown_out[b] == 0) {
                list = n->succ, from = n->succ_start[b], to = n->succ_start[b + 1];
            } else if (n->unknown_in[b] == 0) {
                list = n->pred, from = n->pred_start[b], to = n->pred_start[b + 1];
            } else {
                continue;
            }
            uint64_t sum = 0;
            for (uint32_t j = from; j < to; j++)
                sum += n->arc_count[list[j]];
            n->block_count[b] = sum;
            n->block_known[b] = 1;
        }
        for (int side = 0; side < 2; side++) {
            bool out = side == 0;
            if ((out ? n->unknown_out[b] : n->unknown_in[b]) != 1)
                continue;
            const uint32_t *list = out ? n->succ : n->pred;
            uint32_t from = out ? n->succ_start[b] : n->pred_start[b];
            uint32_t to = out ? n->succ_start[b + 1] : n->pred_start[b + 1];
            uint64_t rest = n->block_count[b];
            uint32_t unknown = NONE;
            for (uint32_t j = from; j < to; j++) {
                if (n->arc_known[list[j]])
                    rest -= n->arc_count[list[j]];
                else
                    unknown = list[j];
            }
            n->arc_count[unknown] = rest;
            n->arc_known[unknown] = 1;
            const struct arc *a = &n->arcs[unknown];
            n->unknown_out[a->src] -= n->unknown_out[a->src] != NONE;
            n->unknown_in[a->dst] -= n->unknown_in[a->dst] != NONE;
            push(n, &top, out ? a->dst : a->src);
            push(n, &top, b);
        }
    }
}

static bool data_error(struct diag_list *diags, const char *shown, size_t at, const char *what)
{
    diag_add(diags, DIAG_ERROR, shown, 0, 0, "corrupt gcov counters at byte %zu: %s", at, what);
    return false;
}

bool gcov_notes_read_counts(struct gcov_notes *n, const char *path, const char *shown,
                            struct diag_list *diags)
{
    size_t len = 0;
    if (!slurp(path, &n->buf, &n->buf_cap, &len, shown, diags))
        return false;
    memset(n->counters, 0, ((size_t)n->ncounters + 1) * sizeof *n->counters);
    struct reader r = {n->buf, len, 0};
    uint32_t magic = 0, version = 0, stamp = 0, checksum;
    if (!get_u32(&r, &magic) || magic != MAGIC_DATA)
        return data_error(diags, shown, 0, "not a gcov data file");
    if (!get_u32(&r, &version) || !get_u32(&r, &stamp) || !get_u32(&r, &checksum))
        return data_error(diags, shown, r.pos, "the header is cut short");
    if (version != n->version || stamp != n->stamp) {
        diag_add(diags, DIAG_ERROR, shown, 0, 0,
                 "these counters are not of the build whose notes are %s (%s differs): "
                 "rebuild, or give --gcov the program's build directory", n->path,
                 version != n->version ? "GCC's version" : "the stamp");
        return false;
    }
    struct fn *fn = NULL;
    while (r.pos < r.len) {
        size_t at = r.pos;
        uint32_t tag, length;
        if (!get_u32(&r, &tag) || tag == 0)
            break;
        if (!get_u32(&r, &length))
            return data_error(diags, shown, at, "a record header is cut short");
        int32_t signed_length = (int32_t)length;
        size_t payload = signed_length < 0 ? 0 : length;
        if (r.len - r.pos < payload)
            return data_error(diags, shown, at, "a record runs past the end of the file");
        struct reader rec = {r.p, r.pos + payload, r.pos};
        r.pos += payload;
        if (tag == TAG_FUNCTION && length == 12) {
            uint32_t ident = 0, c1 = 0, c2 = 0;
            get_u32(&rec, &ident);
            get_u32(&rec, &c1);
            get_u32(&rec, &c2);
            fn = fn_by_ident(n, ident);
            if (fn && (c1 != fn->lineno_checksum || c2 != fn->cfg_checksum)) {
                diag_add(diags, DIAG_ERROR, shown, 0, 0,
                         "the counters of '%s' are not of the build whose notes are %s "
                         "(its checksums differ): rebuild", fn->name, n->path);
                return false;
            }
        } else if (tag == TAG_COUNTER_ARCS && fn) {
            uint64_t bytes = signed_length < 0 ? (uint64_t)(-(int64_t)signed_length) : length;
            if (bytes != (uint64_t)fn->ncounters * 8) {
                diag_add(diags, DIAG_ERROR, shown, 0, 0,
                         "corrupt gcov counters at byte %zu: %llu bytes of counters for '%s', "
                         "whose notes have %u", at, (unsigned long long)bytes, fn->name,
                         fn->ncounters);
                return false;
            }
            for (uint32_t i = 0; signed_length > 0 && i < fn->ncounters; i++) {
                uint32_t lo = 0, hi = 0;
                get_u32(&rec, &lo);
                get_u32(&rec, &hi);
                n->counters[fn->counter_base + i] += (uint64_t)hi << 32 | lo;
            }
        }
    }
    for (size_t i = 0; i < n->nkept; i++)
        solve(n, &n->fns[n->fn_order[i]]);
    return true;
}

void gcov_notes_functions(const struct gcov_notes *n,
                          void (*fn)(void *ctx, const char *name, const char *file,
                                     uint32_t start_line, bool ran),
                          void *ctx)
{
    for (size_t i = 0; i < n->nkept; i++) {
        const struct fn *f = &n->fns[n->fn_order[i]];
        bool ran = f->nblocks && (int64_t)n->block_count[f->block_base] > 0;
        fn(ctx, f->name, n->sources[f->src], f->start_line, ran);
    }
}

void gcov_notes_lines(const struct gcov_notes *n,
                      void (*line)(void *ctx, const char *file, uint32_t number), void *ctx)
{
    for (size_t i = 0; i < n->nlines; i++) {
        const struct line_entry *e = &n->lines[i];
        uint64_t sum = 0;
        for (uint32_t k = e->first; k < e->first + e->n; k++)
            sum += e->attached ? n->arc_count[n->refs[k]] : n->block_count[n->refs[k]];
        bool ran = (int64_t)sum > 0 ||
                   (e->cycle && has_cycle(n, n->att + e->att_first, e->natt, n->arc_count));
        if (ran)
            line(ctx, n->sources[e->src], e->number);
    }
}
