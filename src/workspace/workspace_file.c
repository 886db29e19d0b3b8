/* workspace_file: see workspace_file.h.  A file is read whole and split into
 * lines of words first; then the header, the grammar and its duplications
 * are loaded (begin), every other line in slices (step), and marks and
 * probabilities last (finish): marks need the inputs, learned counts the
 * samples. */
#include "workspace/workspace_file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/number.h"
#include "base/samples.h"
#include "base/xalloc.h"
#include "formats/grammar_write.h"
#include "graph/written.h"

/* ---- saving ---------------------------------------------------------------------- */

static void add_quoted(struct strbuf *out, const char *s, size_t len)
{
    strbuf_addch(out, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '\\': strbuf_addstr(out, "\\\\"); break;
        case '"': strbuf_addstr(out, "\\\""); break;
        case '\n': strbuf_addstr(out, "\\n"); break;
        case '\r': strbuf_addstr(out, "\\r"); break;
        case '\t': strbuf_addstr(out, "\\t"); break;
        default:
            if (c < 0x20 || c >= 0x7f)
                strbuf_addf(out, "\\x%02x", c);
            else
                strbuf_addch(out, (char)c);
        }
    }
    strbuf_addch(out, '"');
}

/* ---- paths, relative to the workspace file ------------------------------------------ */

/* The directory part of `path` with its slash ("" for a bare name). */
static void dir_of(const char *path, struct strbuf *out)
{
    const char *slash = strrchr(path, '/');
    if (slash)
        strbuf_add(out, path, (size_t)(slash - path) + 1);
}

/* `path` made absolute (from the current directory) and normalized by
 * its text alone: no ".", "..", doubled or trailing slashes.  Symbolic
 * links are kept as named, as a shell's `cd` keeps them.  With dir_only,
 * the directory `path` is in.  NULL when the current directory is unknown. */
static char *absolute(const char *path, bool dir_only)
{
    struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
    if (path[0] != '/') {
        char *cwd = getcwd(NULL, 0);
        if (!cwd)
            return NULL;
        strbuf_addstr(&in, cwd);
        strbuf_addch(&in, '/');
        free(cwd);
    }
    if (dir_only)
        dir_of(path, &in);
    else
        strbuf_addstr(&in, path);
    strbuf_addch(&in, '/');
    size_t *starts = NULL, nstarts = 0, cap = 0; /* where each component begins in out */
    for (char *p = in.data; *p;) {
        char *slash = strchr(p, '/');
        size_t len = (size_t)(slash - p);
        if (len == 2 && p[0] == '.' && p[1] == '.') {
            if (nstarts)
                out.len = starts[--nstarts], out.data[out.len] = '\0';
        } else if (len && !(len == 1 && p[0] == '.')) {
            starts = xgrow(starts, &cap, nstarts + 1, sizeof *starts);
            starts[nstarts++] = out.len;
            strbuf_addch(&out, '/');
            strbuf_add(&out, p, len);
        }
        p = slash + 1;
    }
    free(starts);
    strbuf_free(&in);
    if (!out.len)
        strbuf_addch(&out, '/');
    return strbuf_detach(&out, NULL);
}

/* `file` as seen from directory `dir`, both absolute and resolved (as
 * realpath gives them: no ".", "..", doubled or trailing slashes): "../x/f". */
static char *relative_from(const char *dir, const char *file)
{
    if (strcmp(dir, "/") == 0)
        return xstrdup(file + 1);
    size_t dl = strlen(dir), i = 0, common = 0;
    while (i < dl && dir[i] == file[i])
        i++;
    if (i == dl && file[i] == '/') {
        common = dl; /* the file is below dir */
    } else {
        for (size_t j = 0; j < i; j++) /* the last boundary both share */
            if (dir[j] == '/')
                common = j;
    }
    struct strbuf out = STRBUF_INIT;
    for (size_t j = common; j < dl; j++)
        if (dir[j] == '/')
            strbuf_addstr(&out, "../");
    strbuf_addstr(&out, file + common + 1);
    return strbuf_detach(&out, NULL);
}

/* How a path (to the grammar, a sample, the results) is written into the
 * workspace file at `ws_path`: relative to that file's directory, so that
 * the workspace can be moved with what it names or opened from anywhere.
 * An absolute path stays absolute.  Without ws_path (the autosave), as it
 * is. */
static char *path_for_file(const char *path, const char *ws_path)
{
    if (!ws_path || path[0] == '/' || strcmp(path, "-") == 0)
        return xstrdup(path);
    char *file = absolute(path, false), *dir = absolute(ws_path, true);
    char *r = file && dir ? relative_from(dir, file) : xstrdup(path);
    free(file);
    free(dir);
    return r;
}

/* An absolute path as short as it can be said from the current directory:
 * relative when it lies below it. */
static char *from_cwd(const char *abs)
{
    char *cwd = absolute(".", false);
    size_t n = cwd ? strlen(cwd) : 0;
    char *r = cwd && n > 1 && strncmp(abs, cwd, n) == 0 && abs[n] == '/' ? xstrdup(abs + n + 1) : xstrdup(abs);
    free(cwd);
    return r;
}

/* A path read from the workspace file at `ws_path`, made usable from the
 * current directory: relative to the workspace file's directory. */
static char *path_from_file(const char *stored, const char *ws_path)
{
    if (stored[0] == '/' || !strchr(ws_path, '/') || strcmp(stored, "-") == 0)
        return xstrdup(stored);
    struct strbuf p = STRBUF_INIT;
    dir_of(ws_path, &p);
    strbuf_addstr(&p, stored);
    char *abs = absolute(p.data, false);
    strbuf_free(&p);
    if (!abs)
        return xstrdup(stored);
    char *r = from_cwd(abs);
    free(abs);
    return r;
}

static void add_path_line(struct strbuf *out, const char *key, const char *path, const char *ws_path)
{
    char *p = path_for_file(path, ws_path);
    strbuf_addstr(out, key);
    strbuf_addch(out, ' ');
    add_quoted(out, p, strlen(p));
    free(p);
}

/* The decisions that rebuild a tree with derivation_replay. */
static void tree_decisions(const struct derivation *t, struct strbuf *out)
{
    size_t n;
    uint32_t *d = derivation_decisions(t, &n);
    for (size_t i = 0; i < n; i++)
        strbuf_addf(out, " %u", d[i]);
    free(d);
}

void workspace_serialize(const struct workspace *ws, struct strbuf *out)
{
    workspace_serialize_to(ws, NULL, out);
}

void workspace_serialize_to(const struct workspace *ws, const char *ws_path, struct strbuf *out)
{
    const struct gen_options *o = &ws->gen_opts;
    strbuf_addf(out, "kpath-workspace %d\n", WORKSPACE_FORMAT_VERSION);
    add_path_line(out, "grammar", ws->grammar_path, ws_path);
    /* the fallback when the workspace file moves without the grammar */
    char *abs = ws->grammar_path[0] != '/' ? absolute(ws->grammar_path, false) : NULL;
    if (abs) {
        strbuf_addstr(out, "\ngrammar-absolute ");
        add_quoted(out, abs, strlen(abs));
        free(abs);
    }
    strbuf_addf(out, "\nsha256 %s\n", ws->grammar_sha256[0] ? ws->grammar_sha256 : "-");
    if (ws->start) {
        strbuf_addstr(out, "start ");
        add_quoted(out, ws->start, strlen(ws->start));
        strbuf_addch(out, '\n');
    }
    if (ws->format != GRAMMAR_FORMAT_AUTO)
        strbuf_addf(out, "format %s\n", grammar_format_name(ws->format));
    for (size_t i = 0; i < ws->ndups; i++) {
        strbuf_addstr(out, "dup ");
        add_quoted(out, ws->dups[i].rule, strlen(ws->dups[i].rule));
        strbuf_addf(out, " %u %u\n", ws->dups[i].alternative, ws->dups[i].depth);
    }
    strbuf_addf(out, "k %u\nstrategy %s\nclose-off %s\nseed %" PRIu64 "\nmax-depth %u\n"
                     "max-repetitions %u\nmax-size %u\ncount %u\n",
                ws->k, gen_strategy_name(o->strategy), gen_closeoff_name(o->closeoff), o->seed,
                o->max_depth, o->max_repetitions, o->max_size, o->count);
    for (size_t i = 0; i < ws->pins.len; i++) {
        struct strbuf p = STRBUF_INIT;
        pin_format(ws->graph, &ws->pins.pins[i], &p);
        strbuf_addstr(out, "pin ");
        add_quoted(out, p.data, p.len);
        strbuf_addch(out, '\n');
        strbuf_free(&p);
    }
    const struct graph *g = ws->graph;
    for (uint32_t n = 0; n < g->nnodes; n++) {
        const struct graph_node *node = &g->nodes[n];
        if (node->kind == NODE_ALT) {
            strbuf_addf(out, "prob %u %s", n, ws_prob_source_name(ws->prob_source[n]));
            for (uint32_t i = 0; i < node->nchildren; i++)
                strbuf_addf(out, " %.17g", ws->probs[node->first_child + i]);
            strbuf_addch(out, '\n');
        } else if (node->kind == NODE_QUANT && ws->probs[node->first_child] >= 0.0) {
            strbuf_addf(out, "repeat %u %s %.17g\n", n, ws_prob_source_name(ws->prob_source[n]),
                        ws->probs[node->first_child]);
        }
    }
    for (size_t i = 0; i < ws->ninputs; i++) {
        const struct ws_input *in = &ws->inputs[i];
        if (in->sample) {
            add_path_line(out, "sample", in->sample, ws_path);
            strbuf_addch(out, ' ');
            add_quoted(out, in->text, in->len);
        } else {
            strbuf_addstr(out, "input ");
            add_quoted(out, in->text, in->len);
            if (in->has_tree)
                tree_decisions(&in->tree, out);
            if (in->target) {
                strbuf_addstr(out, "\ntarget");
                for (uint32_t j = 0; j < in->target_k; j++)
                    strbuf_addf(out, " %u", in->target[j]);
            }
            if (in->origin) {
                strbuf_addstr(out, "\norigin ");
                add_quoted(out, in->origin, strlen(in->origin));
            }
        }
        strbuf_addch(out, '\n');
    }
    if (workspace_marked(ws)) {
        strbuf_addstr(out, "marked");
        for (size_t i = 0; i < ws->ninputs; i++)
            if (ws->inputs[i].marked)
                strbuf_addf(out, " %zu", i);
        strbuf_addch(out, '\n');
    }
    if (ws->results_path) {
        add_path_line(out, "results", ws->results_path, ws_path);
        strbuf_addch(out, '\n');
    }
    strbuf_addstr(out, "end\n");
}

bool workspace_save(struct workspace *ws, const char *path, struct diag_list *diags)
{
    struct strbuf out = STRBUF_INIT;
    workspace_serialize_to(ws, path, &out);
    bool ok = write_file_atomic(path, out.data, out.len, diags);
    strbuf_free(&out);
    if (ok) {
        ws->dirty = false;
        if (ws->file != path) {
            free(ws->file);
            ws->file = xstrdup(path);
        }
    }
    return ok;
}

/* ---- opening --------------------------------------------------------------------- */

/* Words of a line: bare words and "quoted strings" (escapes decoded). */
struct words {
    char **w;
    size_t *len;
    size_t n, cap, lcap;
};

static void words_free(struct words *ws)
{
    for (size_t i = 0; i < ws->n; i++)
        free(ws->w[i]);
    free(ws->w);
    free(ws->len);
    memset(ws, 0, sizeof *ws);
}

/* False on an unterminated string or a bad escape. */
static bool split_words(const char *line, struct words *out)
{
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return true;
        struct strbuf w = STRBUF_INIT;
        if (*p == '"') {
            p++;
            for (;;) {
                if (!*p) {
                    strbuf_free(&w);
                    return false;
                }
                if (*p == '"') {
                    p++;
                    break;
                }
                if (*p != '\\') {
                    strbuf_addch(&w, *p++);
                    continue;
                }
                p++;
                switch (*p) {
                case '\\': strbuf_addch(&w, '\\'); p++; break;
                case '"': strbuf_addch(&w, '"'); p++; break;
                case 'n': strbuf_addch(&w, '\n'); p++; break;
                case 'r': strbuf_addch(&w, '\r'); p++; break;
                case 't': strbuf_addch(&w, '\t'); p++; break;
                case 'x': {
                    int a = number_hex_digit(p[1]), b = a < 0 ? -1 : number_hex_digit(p[2]);
                    if (b < 0) {
                        strbuf_free(&w);
                        return false;
                    }
                    strbuf_addch(&w, (char)(a * 16 + b));
                    p += 3;
                    break;
                }
                default:
                    strbuf_free(&w);
                    return false;
                }
            }
        } else {
            while (*p && *p != ' ' && *p != '\t')
                strbuf_addch(&w, *p++);
        }
        if (!w.data)
            strbuf_addstr(&w, "");
        out->w = xgrow(out->w, &out->cap, out->n + 1, sizeof *out->w);
        out->len = xgrow(out->len, &out->lcap, out->n + 1, sizeof *out->len);
        out->w[out->n] = strbuf_detach(&w, &out->len[out->n]);
        out->n++;
    }
}

static bool parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno)
        return false;
    *out = v;
    return true;
}

static bool parse_prob_source(const char *s, enum ws_prob_source *out)
{
    for (int i = WS_PROB_UNIFORM; i <= WS_PROB_EDITED; i++)
        if (strcmp(s, ws_prob_source_name((enum ws_prob_source)i)) == 0) {
            *out = (enum ws_prob_source)i;
            return true;
        }
    return false;
}

struct line {
    uint32_t number;
    struct words w;
};

/* The grammar a workspace file names: relative to the workspace file's
 * directory (how it is saved), else at its absolute path when it was saved
 * (the workspace moved without the grammar), else from the current
 * directory (files saved before paths were relative to the workspace).
 * NULL, with an error naming the workspace file, when none exists. */
static char *resolve_grammar(const char *ws_path, uint32_t line, const char *grammar,
                             const char *absolute_path, struct diag_list *diags)
{
    struct stat st;
    if (strcmp(grammar, "-") == 0)
        return xstrdup(grammar);
    char *next_to = path_from_file(grammar, ws_path);
    if (stat(next_to, &st) == 0)
        return next_to;
    if (absolute_path && stat(absolute_path, &st) == 0) {
        free(next_to);
        return from_cwd(absolute_path);
    }
    if (stat(grammar, &st) == 0) {
        free(next_to);
        return xstrdup(grammar);
    }
    struct strbuf tried = STRBUF_INIT;
    strbuf_addf(&tried, "the grammar \"%s\" is not there: not %s", grammar, next_to);
    if (absolute_path && strcmp(absolute_path, next_to) != 0)
        strbuf_addf(&tried, ", nor %s (where it was when saved)", absolute_path);
    if (strcmp(grammar, next_to) != 0)
        strbuf_addf(&tried, ", nor %s from the current directory", grammar);
    diag_add(diags, DIAG_ERROR, ws_path, line, 1, "%s", strbuf_str(&tried));
    strbuf_free(&tried);
    free(next_to);
    return NULL;
}

static bool apply_setting(struct workspace *ws, const char *file, const struct line *l,
                          struct diag_list *diags)
{
    const char *key = l->w.w[0];
    const char *v = l->w.n > 1 ? l->w.w[1] : "";
    struct gen_options *o = &ws->gen_opts;
    bool ok = l->w.n == 2;
    if (ok) {
        if (strcmp(key, "strategy") == 0)
            ok = gen_strategy_parse(v, &o->strategy);
        else if (strcmp(key, "close-off") == 0)
            ok = gen_closeoff_parse(v, &o->closeoff);
        else if (strcmp(key, "seed") == 0)
            ok = number_parse_u64(v, &o->seed);
        else if (strcmp(key, "max-depth") == 0)
            ok = number_parse_u32(v, &o->max_depth);
        else if (strcmp(key, "max-repetitions") == 0)
            ok = number_parse_u32(v, &o->max_repetitions);
        else if (strcmp(key, "max-size") == 0)
            ok = number_parse_u32(v, &o->max_size);
        else if (strcmp(key, "count") == 0)
            ok = number_parse_u32(v, &o->count);
        else
            return false;
    }
    if (!ok)
        diag_add(diags, DIAG_WARNING, file, l->number, 1, "bad value for %s; ignored", key);
    return true;
}


/* Workspace files hold the inputs' texts; far more than any one sample. */
#define WORKSPACE_MAX_FILE ((size_t)1 << 30)

/* Stands for a damaged input or sample line (not a word a file can hold). */
#define DROPPED_INPUT "#dropped-input"

/* Lines of the workspace file that were not taken as written: warnings with
 * the file's name and a line number. */
static size_t count_dropped(const struct diag_list *diags, const char *path)
{
    size_t n = 0;
    for (size_t i = 0; i < diags->len; i++)
        n += diags->items[i].severity == DIAG_WARNING && diags->items[i].line > 0 &&
             diags->items[i].file && strcmp(diags->items[i].file, path) == 0;
    return n;
}

/* A damaged workspace is kept as PATH.damaged (or .damaged.2 ...) before
 * anything can save over it: a hard link, so it costs nothing and the next
 * atomic save replaces only the name PATH; a copy where links do not work.
 * Opening the same damaged file again finds its link and keeps no second. */
static void keep_damaged(const char *path, struct diag_list *diags)
{
    struct stat st, kept;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    struct strbuf name = STRBUF_INIT;
    for (int n = 1; n < 100; n++) {
        strbuf_reset(&name);
        strbuf_addf(&name, n == 1 ? "%s.damaged" : "%s.damaged.%d", path, n);
        if (stat(name.data, &kept) == 0) {
            if (kept.st_dev == st.st_dev && kept.st_ino == st.st_ino)
                break; /* kept already */
            continue;
        }
        bool ok = link(path, name.data) == 0;
        if (!ok && errno != EEXIST) {
            struct strbuf copy = STRBUF_INIT;
            struct diag_list ignored = DIAG_LIST_INIT;
            ok = samples_read(path, WORKSPACE_MAX_FILE, &copy, &ignored) &&
                 write_file_atomic(name.data, copy.data ? copy.data : "", copy.len, &ignored);
            strbuf_free(&copy);
            diag_list_free(&ignored);
        }
        if (ok)
            diag_add(diags, DIAG_WARNING, path, 0, 0,
                     "the file as it was is kept as %s; saving writes only what was loaded",
                     name.data);
        else
            diag_add(diags, DIAG_WARNING, path, 0, 0,
                     "cannot keep a copy of the damaged file (%s): saving over it loses "
                     "what could not be loaded", strerror(errno));
        break;
    }
    strbuf_free(&name);
}

struct workspace_loader {
    char *path;
    struct workspace *ws;     /* NULL once the header failed */
    struct line *lines;       /* the file's lines, split into words */
    size_t nlines, next;      /* next: the next line to load */
    bool changed;             /* the grammar changed: inputs are parsed again */
    size_t dropped_before;    /* warnings about dropped lines before this load */
    size_t *marked, nmarked, mcap;
    /* Per input or sample line of the file, its index among the loaded
     * inputs, or SIZE_MAX when dropped: 'marked' numbers the file's. */
    size_t *loaded, nloaded, loaded_cap;
};

static void loader_free(struct workspace_loader *ld)
{
    for (size_t i = 0; i < ld->nlines; i++)
        words_free(&ld->lines[i].w);
    free(ld->lines);
    free(ld->marked);
    free(ld->loaded);
    free(ld->path);
    free(ld);
}

struct workspace_loader *workspace_load_begin(const char *path, struct diag_list *diags)
{
    struct strbuf file = STRBUF_INIT;
    if (!samples_read(path, WORKSPACE_MAX_FILE, &file, diags)) {
        strbuf_free(&file);
        return NULL;
    }
    size_t len;
    char *text = strbuf_detach(&file, &len);
    size_t dropped_before = count_dropped(diags, path);
    struct line *lines = NULL;
    size_t nlines = 0, cap = 0;
    bool ok = true;
    uint32_t number = 0, end_line = 0, last_line = 0;
    /* Lines by length, not by NUL: a NUL byte damages its line, not the rest. */
    for (size_t at = 0; ok && at < len;) {
        char *line = text + at;
        char *nl = memchr(line, '\n', len - at);
        size_t ll = nl ? (size_t)(nl - line) : len - at;
        at += ll + (nl != NULL);
        line[ll] = '\0'; /* the newline, or the strbuf's terminator */
        number++;
        if (ll && line[ll - 1] == '\r')
            line[--ll] = '\0';
        const char *q = line;
        while (*q == ' ' || *q == '\t')
            q++;
        bool has_nul = memchr(line, '\0', ll) != NULL;
        if (!has_nul && (!*q || *q == '#'))
            continue;
        last_line = number;
        if (end_line) {
            diag_add(diags, DIAG_WARNING, path, number, 1,
                     "text after the 'end' line (line %u); ignored", (unsigned)end_line);
            continue;
        }
        struct line l = {number, {0}};
        bool damaged = has_nul || !split_words(line, &l.w);
        if (damaged && nlines < 2) { /* the header: without it, nothing can be read */
            words_free(&l.w);
            diag_add(diags, DIAG_ERROR, path, number, 1, has_nul ? "NUL byte" :
                     "unterminated string or bad escape");
            ok = false;
            break;
        }
        if (has_nul)
            diag_add(diags, DIAG_WARNING, path, number,
                     (uint32_t)((char *)memchr(line, '\0', ll) - line) + 1,
                     "NUL byte: the line is damaged; dropped");
        else if (damaged)
            diag_add(diags, DIAG_WARNING, path, number, 1,
                     "unterminated string or bad escape: the line is damaged; dropped");
        if (damaged) {
            /* A damaged input still counts where 'marked' numbers inputs. */
            words_free(&l.w);
            if (strncmp(q, "input", 5) != 0 && strncmp(q, "sample", 6) != 0)
                continue;
            struct strbuf w = STRBUF_INIT;
            strbuf_addstr(&w, DROPPED_INPUT);
            l.w.w = xgrow(l.w.w, &l.w.cap, 1, sizeof *l.w.w);
            l.w.len = xgrow(l.w.len, &l.w.lcap, 1, sizeof *l.w.len);
            l.w.w[0] = strbuf_detach(&w, &l.w.len[0]);
            l.w.n = 1;
        }
        if (strcmp(l.w.w[0], "end") == 0 && l.w.n == 1)
            end_line = number;
        lines = xgrow(lines, &cap, nlines + 1, sizeof *lines);
        lines[nlines++] = l;
    }
    if (ok && nlines >= 2 && !end_line)
        diag_add(diags, DIAG_WARNING, path, last_line ? last_line : 1, 1,
                 "no 'end' line: the file is cut short after line %u; what followed is lost",
                 (unsigned)last_line);
    free(text);
    struct workspace *ws = NULL;
    if (ok && (nlines < 2 || strcmp(lines[0].w.w[0], "kpath-workspace") != 0 ||
               lines[0].w.n != 2 || strcmp(lines[1].w.w[0], "grammar") != 0 ||
               lines[1].w.n != 2)) {
        diag_add(diags, DIAG_ERROR, path, nlines ? lines[0].number : 1, 1,
                 "not a kpath workspace (it must start with 'kpath-workspace 1' and 'grammar')");
        ok = false;
    }
    if (ok && strcmp(lines[0].w.w[1], "1") != 0) {
        diag_add(diags, DIAG_ERROR, path, lines[0].number, 1,
                 "workspace format %s is not supported (this kpath reads format 1)",
                 lines[0].w.w[1]);
        ok = false;
    }
    const char *start = NULL, *sha = NULL, *grammar_absolute = NULL;
    enum grammar_format format = GRAMMAR_FORMAT_AUTO;
    for (size_t i = 2; ok && i < nlines; i++) {
        if (strcmp(lines[i].w.w[0], "start") == 0 && lines[i].w.n == 2)
            start = lines[i].w.w[1];
        if (strcmp(lines[i].w.w[0], "format") == 0 && lines[i].w.n == 2 &&
            !grammar_format_parse(lines[i].w.w[1], &format)) {
            diag_add(diags, DIAG_ERROR, path, lines[i].number, 1,
                     "unknown grammar format '%s'", lines[i].w.w[1]);
            ok = false;
        }
        if (strcmp(lines[i].w.w[0], "sha256") == 0 && lines[i].w.n == 2)
            sha = lines[i].w.w[1];
        if (strcmp(lines[i].w.w[0], "grammar-absolute") == 0 && lines[i].w.n == 2)
            grammar_absolute = lines[i].w.w[1];
    }
    if (ok) {
        char *gpath = resolve_grammar(path, lines[1].number, lines[1].w.w[1], grammar_absolute, diags);
        ws = gpath ? workspace_new_format(gpath, start, format, diags) : NULL;
        if (gpath && !ws)
            diag_add(diags, DIAG_ERROR, path, lines[1].number, 1, "the grammar %s of this workspace does not load", gpath);
        free(gpath);
        ok = ws != NULL;
        /* The close-off default was shortest when format 1 began; a file
         * without a close-off line keeps the meaning it had then. */
        if (ok)
            ws->gen_opts.closeoff = GEN_CLOSE_SHORTEST;
    }
    bool changed = false;
    if (ok && sha && strcmp(sha, ws->grammar_sha256) != 0) {
        changed = true;
        diag_add(diags, DIAG_WARNING, path, 0, 0,
                 "%s changed since the workspace was saved; inputs are parsed again",
                 ws->grammar_path);
    }
    /* Duplications first: every id below refers to the duplicated grammar. */
    for (size_t i = 2; ok && i < nlines; i++) {
        const struct line *l = &lines[i];
        if (strcmp(l->w.w[0], "dup") != 0)
            continue;
        uint32_t alt, depth;
        if (l->w.n != 4 || !number_parse_u32(l->w.w[2], &alt) || !number_parse_u32(l->w.w[3], &depth)) {
            diag_add(diags, DIAG_ERROR, path, l->number, 1, "expected: dup \"RULE\" ALT DEPTH");
            ok = false;
        } else {
            ok = workspace_dup(ws, l->w.w[1], alt, depth, diags);
        }
    }
    struct workspace_loader *ld = xcalloc(1, sizeof *ld);
    ld->path = xstrdup(path);
    ld->lines = lines;
    ld->nlines = nlines;
    ld->next = 2;
    ld->changed = changed;
    ld->dropped_before = dropped_before;
    ld->ws = ws;
    if (!ok) {
        /* Nothing loaded; a damaged file is kept all the same. */
        if (count_dropped(diags, path) > dropped_before)
            keep_damaged(path, diags);
        workspace_free(ws);
        loader_free(ld);
        return NULL;
    }
    return ld;
}

size_t workspace_load_lines(const struct workspace_loader *ld, size_t *done)
{
    *done = ld->next;
    return ld->nlines;
}

bool workspace_load_step(struct workspace_loader *ld, size_t max_lines, struct diag_list *diags)
{
    struct workspace *ws = ld->ws;
    const char *path = ld->path;
    const struct line *lines = ld->lines;
    bool changed = ld->changed;
    size_t end = max_lines < ld->nlines - ld->next ? ld->next + max_lines : ld->nlines;
    for (size_t i = ld->next; i < end; i++) {
        const struct line *l = &lines[i];
        const char *key = l->w.w[0];
        size_t inputs_before = ws->ninputs;
        bool is_input = strcmp(key, "input") == 0 || strcmp(key, "sample") == 0 ||
                        strcmp(key, DROPPED_INPUT) == 0;
        if (is_input) {
            ld->loaded = xgrow(ld->loaded, &ld->loaded_cap, ld->nloaded + 1, sizeof *ld->loaded);
            ld->loaded[ld->nloaded++] = SIZE_MAX;
        }
        if (strcmp(key, DROPPED_INPUT) == 0) {
            /* reported when it was read */
        } else if (strcmp(key, "input") == 0 && l->w.n < 2) {
            diag_add(diags, DIAG_WARNING, path, l->number, 1, "input without text; dropped");
        } else if (strcmp(key, "k") == 0) {
            uint32_t k;
            if (l->w.n != 2 || !number_parse_u32(l->w.w[1], &k) || !workspace_set_k(ws, k, diags))
                diag_add(diags, DIAG_WARNING, path, l->number, 1, "bad value for k; ignored");
        } else if (strcmp(key, "pin") == 0) {
            if (l->w.n != 2 || !workspace_pin(ws, l->w.w[1], diags))
                diag_add(diags, DIAG_WARNING, path, l->number, 1, "bad pin; ignored");
        } else if (strcmp(key, "sample") == 0) {
            char *file = l->w.n == 3 ? path_from_file(l->w.w[1], path) : NULL;
            if (l->w.n != 3 || !workspace_add_sample(ws, file, l->w.w[2], l->w.len[2], diags))
                diag_add(diags, DIAG_WARNING, path, l->number, 1, "sample dropped");
            free(file);
        } else if (strcmp(key, "input") == 0 && l->w.n >= 2) {
            bool replayed = false;
            if (!changed) {
                size_t nd = l->w.n - 2;
                uint32_t *dec = xmalloc((nd + 1) * sizeof *dec);
                bool good = true;
                for (size_t d = 0; d < nd && good; d++)
                    good = number_parse_u32(l->w.w[2 + d], &dec[d]);
                struct derivation t;
                derivation_init(&t, ws->graph, 0);
                if (good && derivation_replay(&t, dec, nd, NULL) == (long)nd && derivation_complete(&t)) {
                    struct strbuf s = STRBUF_INIT;
                    derivation_written_text(&t, &s);
                    if (s.len == l->w.len[1] && memcmp(strbuf_str(&s), l->w.w[1], s.len) == 0) {
                        workspace_add_generated(ws, &t, NULL, 0);
                        replayed = true;
                    }
                    strbuf_free(&s);
                }
                derivation_free(&t);
                free(dec);
            }
            if (!replayed && !workspace_add_parsed(ws, l->w.w[1], l->w.len[1], diags))
                diag_add(diags, DIAG_WARNING, path, l->number, 1,
                         "input no longer derives from the grammar; dropped");
        } else if (strcmp(key, "target") == 0) {
            /* The target of the input just before, if that one was kept. */
            size_t n = l->w.n - 1;
            uint32_t *ids = xmalloc((n + 1) * sizeof *ids);
            bool good = n > 0 && ld->nloaded && ld->loaded[ld->nloaded - 1] != SIZE_MAX &&
                        !ws->inputs[ld->loaded[ld->nloaded - 1]].sample;
            for (size_t j = 0; j < n && good; j++)
                good = number_parse_u32(l->w.w[1 + j], &ids[j]) && ids[j] < ws->graph->nnodes;
            if (good && kpath_is_valid(ws->graph, ids, (uint32_t)n))
                ws_input_set_target(&ws->inputs[ld->loaded[ld->nloaded - 1]], ids, (uint32_t)n);
            else if (ld->nloaded && ld->loaded[ld->nloaded - 1] != SIZE_MAX)
                diag_add(diags, DIAG_WARNING, path, l->number, 1, "bad target; ignored");
            free(ids);
        } else if (strcmp(key, "origin") == 0) {
            /* How the input just before was made (kept in the manifest). */
            if (l->w.n == 2 && ws->ninputs && !ws->inputs[ws->ninputs - 1].sample &&
                !ws->inputs[ws->ninputs - 1].origin)
                ws->inputs[ws->ninputs - 1].origin = xmemdup(l->w.w[1], l->w.len[1] + 1);
            else
                diag_add(diags, DIAG_WARNING, path, l->number, 1, "origin without an input; ignored");
        } else if (strcmp(key, "results") == 0) {
            if (l->w.n == 2 && l->w.len[1] > 0 && !memchr(l->w.w[1], '\0', l->w.len[1])) {
                free(ws->results_path);
                ws->results_path = path_from_file(l->w.w[1], path);
            } else {
                diag_add(diags, DIAG_WARNING, path, l->number, 1, "bad results line; ignored");
            }
        } else if (strcmp(key, "marked") == 0) {
            for (size_t m = 1; m < l->w.n; m++) {
                uint64_t v;
                if (number_parse_u64(l->w.w[m], &v)) {
                    ld->marked = xgrow(ld->marked, &ld->mcap, ld->nmarked + 1, sizeof *ld->marked);
                    ld->marked[ld->nmarked++] = (size_t)v;
                } else {
                    diag_add(diags, DIAG_WARNING, path, l->number, 1,
                             "bad input number '%s' in marked; ignored", l->w.w[m]);
                }
            }
        } else if (strcmp(key, "prob") == 0 || strcmp(key, "repeat") == 0 ||
                   strcmp(key, "dup") == 0 || strcmp(key, "start") == 0 ||
                   strcmp(key, "format") == 0 || strcmp(key, "grammar-absolute") == 0 ||
                   strcmp(key, "sha256") == 0 || strcmp(key, "end") == 0) {
            /* handled before or after */
        } else if (!apply_setting(ws, path, l, diags)) {
            diag_add(diags, DIAG_WARNING, path, l->number, 1, "unknown line '%s'; ignored", key);
        }
        if (is_input && ws->ninputs > inputs_before)
            ld->loaded[ld->nloaded - 1] = inputs_before;
    }
    ld->next = end;
    return ld->next < ld->nlines;
}

void workspace_load_abort(struct workspace_loader *ld)
{
    if (!ld)
        return;
    workspace_free(ld->ws);
    loader_free(ld);
}

struct workspace *workspace_load_finish(struct workspace_loader *ld, struct diag_list *diags)
{
    while (workspace_load_step(ld, SIZE_MAX, diags))
        ;
    struct workspace *ws = ld->ws;
    const char *path = ld->path;
    const struct line *lines = ld->lines;
    size_t nlines = ld->nlines;
    bool changed = ld->changed, ok = true;
    size_t *marked = ld->marked, nmarked = ld->nmarked, *loaded = ld->loaded, nloaded = ld->nloaded;
    for (size_t m = 0; ok && m < nmarked; m++)
        if (marked[m] < nloaded && loaded[marked[m]] != SIZE_MAX)
            ws->inputs[loaded[marked[m]]].marked = true;
    /* Probabilities last: learned counts need the samples. */
    bool any_learned = false;
    for (size_t i = 2; ok && !changed && i < nlines; i++) {
        const struct line *l = &lines[i];
        bool is_prob = strcmp(l->w.w[0], "prob") == 0, is_repeat = strcmp(l->w.w[0], "repeat") == 0;
        if (!is_prob && !is_repeat)
            continue;
        const struct graph *g = ws->graph;
        uint32_t node;
        enum ws_prob_source src;
        bool good = l->w.n >= 4 && number_parse_u32(l->w.w[1], &node) && node < g->nnodes &&
                    parse_prob_source(l->w.w[2], &src) &&
                    g->nodes[node].kind == (is_prob ? NODE_ALT : NODE_QUANT) &&
                    l->w.n - 3 == (is_prob ? g->nodes[node].nchildren : 1);
        double *vals = xmalloc(l->w.n * sizeof *vals);
        for (size_t v = 3; good && v < l->w.n; v++)
            good = parse_double(l->w.w[v], &vals[v - 3]) && vals[v - 3] <= 1.0 &&
                   (vals[v - 3] >= 0.0 || is_repeat);
        if (good) {
            memcpy(ws->probs + g->nodes[node].first_child, vals, (l->w.n - 3) * sizeof *vals);
            ws->prob_source[node] = (uint8_t)src;
            any_learned |= src == WS_PROB_LEARNED || src == WS_PROB_UNSEEN || src == WS_PROB_INVERTED;
        } else {
            diag_add(diags, DIAG_WARNING, path, l->number, 1, "bad probabilities; ignored");
        }
        free(vals);
    }
    if (ok && any_learned)
        workspace_relearn(ws);
    if (count_dropped(diags, path) > ld->dropped_before)
        keep_damaged(path, diags);
    ws->dirty = false;
    ws->file = xstrdup(path);
    loader_free(ld);
    return ws;
}

struct workspace *workspace_open(const char *path, struct diag_list *diags)
{
    struct workspace_loader *ld = workspace_load_begin(path, diags);
    return ld ? workspace_load_finish(ld, diags) : NULL;
}
