/* _XOPEN_SOURCE: realpath. */
#define _XOPEN_SOURCE 700
/* collect_gcov: functions and lines a run of a program built with --coverage
 * executed (see collect.h).  The .gcno files (what the compiler knows) stay
 * in BUILD_DIR; each run's .gcda files (its counters) land below
 * {run}/gcov/ABSOLUTE-OBJECT-DIR.  Two ways to read them, with the same
 * features:
 *  - the notes read once and each run's counters read directly
 *    (gcov_data.h), no process per run: the default;
 *  - a helper run of `gcov --json-format --stdout` on them, beside
 *    symbolic links to their .gcno files: for notes of a GCC whose format
 *    gcov_data does not read, or of C++ (gcov demangles names), said once
 *    when the collector is made.
 * A run killed by a signal writes no counters and so has no gcov
 * features. */
#include "run/collect.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/escape.h"
#include "base/json_read.h"
#include "base/samples.h"
#include "base/xalloc.h"
#include "run/gcov_data.h"

struct gcov_state {
    struct str_list gcno; /* absolute paths of BUILD_DIR's .gcno files */
    struct gcov_notes **notes; /* gcno's, read; NULL when gcov is run */
    bool lines;
};

static void gcov_env(const struct collector *c, struct str_list *env)
{
    (void)c;
    str_list_add(env, "GCOV_PREFIX={run}/gcov");
    str_list_add(env, "GCOV_PREFIX_STRIP=0");
}

/* Make the directories of `path` (not its last component). */
static bool make_parents(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        bool ok = mkdir(path, 0700) == 0 || errno == EEXIST;
        *p = '/';
        if (!ok)
            return false;
    }
    return true;
}

/* The counters one run wrote for the object of GCNO (GCOV_PREFIX puts them
 * under the run's directory): their path in *gcda; false when there are none. */
static bool run_gcda(const struct collect_run *run, const char *gcno, struct strbuf *gcda)
{
    strbuf_reset(gcda);
    strbuf_addf(gcda, "%s/gcov", run->result->dir);
    strbuf_add(gcda, gcno, strlen(gcno) - strlen(".gcno"));
    strbuf_addstr(gcda, ".gcda");
    struct stat sb;
    return stat(gcda->data, &sb) == 0;
}

static bool gcov_helper(const struct collector *c, const struct collect_run *run,
                        struct str_list *argv, struct str_list *env)
{
    (void)env;
    const struct gcov_state *st = c->state;
    struct strbuf gcda = STRBUF_INIT, link = STRBUF_INIT;
    for (size_t i = 0; i < st->gcno.len; i++) {
        const char *gcno = st->gcno.items[i];
        if (!run_gcda(run, gcno, &gcda))
            continue;
        strbuf_reset(&link);
        strbuf_add(&link, gcda.data, gcda.len - strlen(".gcda"));
        strbuf_addstr(&link, ".gcno");
        if (make_parents(link.data) && (symlink(gcno, link.data) == 0 || errno == EEXIST)) {
            if (!argv->len) {
                str_list_add(argv, "gcov");
                str_list_add(argv, "--json-format");
                str_list_add(argv, "--stdout");
            }
            str_list_add(argv, gcda.data);
        }
    }
    strbuf_free(&gcda);
    strbuf_free(&link);
    return argv->len > 0;
}

/* A function gcov reported. */
struct gcov_fn {
    const char *name, *file; /* borrowed from the JSON documents */
    unsigned long long line;
    bool ran;
};

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

/* One JSON document of gcov's output: its functions (all of them, to find
 * names that several share) and the lines that ran. */
static void add_document(const struct gcov_state *st, const struct json_value *doc,
                         struct gcov_fn **fns, size_t *nfns, size_t *cap, struct str_list *out)
{
    const struct json_value *files = json_get(doc, "files");
    if (!files || files->type != JSON_ARRAY)
        return;
    for (size_t f = 0; f < files->u.array.len; f++) {
        const struct json_value *file = files->u.array.items[f];
        const char *name = json_string(json_get(file, "file"));
        const struct json_value *list = json_get(file, "functions");
        for (size_t i = 0; list && list->type == JSON_ARRAY && i < list->u.array.len; i++) {
            const struct json_value *fn = list->u.array.items[i];
            const struct json_value *count = json_get(fn, "execution_count");
            const struct json_value *start = json_get(fn, "start_line");
            const char *fname = json_string(json_get(fn, "demangled_name"));
            if (!fname)
                fname = json_string(json_get(fn, "name"));
            if (!fname)
                continue;
            *fns = xgrow(*fns, cap, *nfns + 1, sizeof **fns);
            (*fns)[(*nfns)++] = (struct gcov_fn){
                .name = fname, .file = name ? name : "",
                .line = start && start->type == JSON_NUMBER && start->u.number.is_uint
                            ? (unsigned long long)start->u.number.uint : 0,
                .ran = count && count->type == JSON_NUMBER && count->u.number.value > 0};
        }
        const struct json_value *lines = json_get(file, "lines");
        for (size_t i = 0; st->lines && name && lines && lines->type == JSON_ARRAY &&
                           i < lines->u.array.len; i++) {
            const struct json_value *line = lines->u.array.items[i];
            const struct json_value *count = json_get(line, "count");
            const struct json_value *number = json_get(line, "line_number");
            if (count && count->type == JSON_NUMBER && count->u.number.value > 0 && number &&
                number->type == JSON_NUMBER && number->u.number.is_uint)
                str_list_addf(out, "line:%s:%llu", name,
                              (unsigned long long)number->u.number.uint);
        }
    }
}

static int compare_fn_names(const void *a, const void *b)
{
    return strcmp(((const struct gcov_fn *)a)->name, ((const struct gcov_fn *)b)->name);
}

/* "fn:NAME" for each function that ran; when several functions of the
 * program share a name (static functions of different files), each of
 * them is "fn:NAME@FILE:LINE" (FILE's base name, the line it starts on).
 * gcov lists every function of every object file that wrote counters, run
 * or not, and a run that wrote counters wrote them for the whole program,
 * so the same function gets the same name in every run. */
static void name_functions(struct gcov_fn *fns, size_t n, struct str_list *out)
{
    if (n)
        qsort(fns, n, sizeof *fns, compare_fn_names);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && strcmp(fns[j].name, fns[i].name) == 0)
            j++;
        for (size_t k = i; k < j; k++) {
            if (!fns[k].ran)
                continue;
            if (j - i == 1)
                str_list_addf(out, "fn:%s", fns[k].name);
            else
                str_list_addf(out, "fn:%s@%s:%llu", fns[k].name, base_name(fns[k].file),
                              fns[k].line);
        }
        i = j;
    }
}

static bool gcov_collect(const struct collector *c, const struct collect_run *run,
                         const struct runner_result *helper, struct str_list *out,
                         struct diag_list *diags)
{
    const struct gcov_state *st = c->state;
    if (!helper)
        return true; /* no counters: the run ended before writing them */
    if (helper->end != RUNNER_EXITED || helper->code != 0 || helper->stdout_cut) {
        struct strbuf why = STRBUF_INIT, line = STRBUF_INIT;
        runner_outcome(helper, &why);
        escape_add(&line, helper->err.first_line, strlen(helper->err.first_line));
        diag_add(diags, DIAG_ERROR, run->input, 0, 0, "gcov failed (%s)%s%s", why.data,
                 line.len ? ": " : "", strbuf_str(&line));
        strbuf_free(&why);
        strbuf_free(&line);
        return false;
    }
    /* One JSON document per .gcda file, one per line; the functions of all
     * of them are named together. */
    const char *text = strbuf_str(&helper->stdout_kept);
    const char *end = text + helper->stdout_kept.len;
    uint32_t line = 1;
    bool ok = true;
    struct json_doc *docs = NULL;
    size_t ndocs = 0, docs_cap = 0, nfns = 0, fns_cap = 0;
    struct gcov_fn *fns = NULL;
    for (const char *p = text; ok && p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        if (stop > p) {
            docs = xgrow(docs, &docs_cap, ndocs + 1, sizeof *docs);
            struct json_doc *doc = &docs[ndocs++];
            memset(doc, 0, sizeof *doc);
            ok = json_parse(doc, "gcov output", line, p, (size_t)(stop - p), diags);
            if (ok)
                add_document(st, doc->root, &fns, &nfns, &fns_cap, out);
        }
        p = nl ? nl + 1 : end;
    }
    if (ok)
        name_functions(fns, nfns, out);
    free(fns);
    for (size_t i = 0; i < ndocs; i++)
        json_doc_free(&docs[i]);
    free(docs);
    return ok;
}

/* The reader's way: each .gcda file the run wrote, read with its notes. */
struct reader_ctx {
    struct gcov_fn *fns;
    size_t nfns, cap;
    struct str_list *out;
};

static void reader_fn(void *ctx, const char *name, const char *file, uint32_t line, bool ran)
{
    struct reader_ctx *r = ctx;
    r->fns = xgrow(r->fns, &r->cap, r->nfns + 1, sizeof *r->fns);
    r->fns[r->nfns++] = (struct gcov_fn){.name = name, .file = file, .line = line, .ran = ran};
}

static void reader_line(void *ctx, const char *file, uint32_t number)
{
    struct reader_ctx *r = ctx;
    str_list_addf(r->out, "line:%s:%u", file, number);
}

static bool reader_collect(const struct collector *c, const struct collect_run *run,
                           const struct runner_result *helper, struct str_list *out,
                           struct diag_list *diags)
{
    (void)helper;
    const struct gcov_state *st = c->state;
    struct strbuf gcda = STRBUF_INIT, shown = STRBUF_INIT;
    struct reader_ctx r = {.out = out};
    bool ok = true;
    for (size_t i = 0; ok && i < st->gcno.len; i++) {
        const char *gcno = st->gcno.items[i];
        size_t stem = strlen(gcno) - strlen(".gcno");
        if (!run_gcda(run, gcno, &gcda))
            continue; /* this object's code did not run to the end */
        strbuf_reset(&shown);
        strbuf_add(&shown, gcno, stem);
        strbuf_addf(&shown, ".gcda (the run of %s)", run->input);
        ok = gcov_notes_read_counts(st->notes[i], gcda.data, shown.data, diags);
        if (ok && st->lines)
            gcov_notes_lines(st->notes[i], reader_line, &r);
        if (ok)
            gcov_notes_functions(st->notes[i], reader_fn, &r);
    }
    if (ok)
        name_functions(r.fns, r.nfns, out);
    free(r.fns);
    strbuf_free(&gcda);
    strbuf_free(&shown);
    return ok;
}

static void gcov_free(struct collector *c)
{
    struct gcov_state *st = c->state;
    for (size_t i = 0; st->notes && i < st->gcno.len; i++)
        gcov_notes_free(st->notes[i]);
    free(st->notes);
    str_list_free(&st->gcno);
    free(st);
}

static const struct collector_ops gcov_ops = {
    .env = gcov_env, .helper = gcov_helper, .collect = gcov_collect, .free = gcov_free};

static const struct collector_ops reader_ops = {
    .env = gcov_env, .collect = reader_collect, .free = gcov_free};

/* Read every notes file; false (st->notes NULL) when gcov must be run
 * instead, saying why in `why`; an unreadable notes file is an error. */
static bool read_notes(struct gcov_state *st, struct strbuf *why, bool *failed,
                       struct diag_list *diags)
{
    st->notes = xcalloc(st->gcno.len + 1, sizeof *st->notes);
    for (size_t i = 0; i < st->gcno.len; i++) {
        char version[5];
        enum gcov_read_status rs = gcov_notes_read(st->gcno.items[i], &st->notes[i], version, diags);
        const char *mangled = rs == GCOV_READ_OK ? gcov_notes_mangled(st->notes[i]) : NULL;
        if (rs == GCOV_READ_OK && !mangled)
            continue;
        if (rs == GCOV_READ_ERROR)
            *failed = true;
        else if (rs == GCOV_READ_OTHER_VERSION)
            strbuf_addf(why, "%s is of a GCC (version '%s') whose format kpath does not read",
                        st->gcno.items[i], version);
        else
            strbuf_addf(why, "%s has C++ names (%s), which gcov demangles", st->gcno.items[i],
                        mangled);
        for (size_t j = 0; j < st->gcno.len; j++)
            gcov_notes_free(st->notes[j]);
        free(st->notes);
        st->notes = NULL;
        return false;
    }
    return true;
}

static bool make_gcov(struct collector *c, const char *build_dir, bool lines, bool spawn,
                      struct diag_list *diags)
{
    memset(c, 0, sizeof *c);
    char *abs = realpath(build_dir, NULL);
    if (!abs) {
        diag_add(diags, DIAG_ERROR, build_dir, 0, 0, "cannot open the build directory: %s",
                 strerror(errno));
        return false;
    }
    struct sample_list files = SAMPLE_LIST_INIT;
    struct diag_list walk = DIAG_LIST_INIT;
    const char *arg = abs;
    samples_expand(&arg, 1, false, &files, &walk);
    diag_list_free(&walk);
    struct gcov_state *st = xcalloc(1, sizeof *st);
    st->lines = lines;
    for (size_t i = 0; i < files.len; i++) {
        size_t len = strlen(files.paths[i]);
        if (len > 5 && strcmp(files.paths[i] + len - 5, ".gcno") == 0)
            str_list_add(&st->gcno, files.paths[i]);
    }
    sample_list_free(&files);
    free(abs);
    if (!st->gcno.len) {
        diag_add(diags, DIAG_ERROR, build_dir, 0, 0,
                 "no .gcno file below it: build the program with --coverage");
        free(st);
        return false;
    }
    struct strbuf why = STRBUF_INIT;
    bool failed = false;
    if (!spawn && read_notes(st, &why, &failed, diags)) {
        strbuf_free(&why);
        c->ops = &reader_ops;
        c->name = xstrdup(lines ? "gcov-lines" : "gcov");
        c->state = st;
        return true;
    }
    if (failed) {
        strbuf_free(&why);
        gcov_free(&(struct collector){.state = st});
        return false;
    }
    struct diag_list which = DIAG_LIST_INIT;
    bool have_gcov = runner_check_command("gcov", &which);
    diag_list_free(&which);
    if (!have_gcov) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "--gcov needs gcov (GCC's), not found in PATH%s%s",
                 why.len ? ": " : "", strbuf_str(&why));
        strbuf_free(&why);
        gcov_free(&(struct collector){.state = st});
        return false;
    }
    if (why.len)
        diag_add(diags, DIAG_NOTE, NULL, 0, 0,
                 "--gcov: %s, so gcov runs after each run to read its counters (slower)",
                 why.data);
    strbuf_free(&why);
    c->ops = &gcov_ops;
    c->name = xstrdup(lines ? "gcov-lines" : "gcov");
    c->state = st;
    return true;
}

bool collector_gcov(struct collector *c, const char *build_dir, bool lines,
                    struct diag_list *diags)
{
    return make_gcov(c, build_dir, lines, false, diags);
}

bool collector_gcov_spawn(struct collector *c, const char *build_dir, bool lines,
                          struct diag_list *diags)
{
    return make_gcov(c, build_dir, lines, true, diags);
}
