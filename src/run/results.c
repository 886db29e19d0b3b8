#include "run/results.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file_kinds.h"
#include "formats/grammar_write.h"
#include "base/json.h"
#include "base/json_read.h"
#include "base/samples.h"
#include "base/xalloc.h"

#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#define uthash_fatal(msg) abort()
#include <uthash.h>

/* Results files grow with the runs; a line is one input's features.  The
 * limits only guard against reading something that is not a results file. */
#define RESULTS_MAX_FILE_SIZE ((size_t)4 << 30)

struct feature_index {
    const char *name; /* results.features[index] */
    uint32_t index;
    UT_hash_handle hh;
};

struct input_index {
    size_t record; /* index into results.records (whose input is the key) */
    UT_hash_handle hh;
};

void results_init(struct results *r)
{
    memset(r, 0, sizeof *r);
}

static void free_strings(char **v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void header_free(struct results_header *h)
{
    free(h->kpath_version);
    free(h->grammar);
    free(h->start);
    free_strings(h->command, h->ncommand);
    free_strings(h->collect, h->ncollect);
    memset(h, 0, sizeof *h);
}

void run_record_free(struct run_record *record)
{
    free(record->input);
    free(record->outcome);
    free(record->out.first_line);
    free(record->err.first_line);
    free(record->features);
    memset(record, 0, sizeof *record);
}

void results_free(struct results *r)
{
    header_free(&r->header);
    for (size_t i = 0; i < r->nrecords; i++)
        run_record_free(&r->records[i]);
    free(r->records);
    struct feature_index *e, *tmp;
    HASH_ITER(hh, r->index, e, tmp) {
        HASH_DEL(r->index, e);
        free(e);
    }
    struct input_index *ie, *itmp;
    HASH_ITER(hh, r->inputs, ie, itmp) {
        HASH_DEL(r->inputs, ie);
        free(ie);
    }
    free_strings(r->features, r->nfeatures);
    memset(r, 0, sizeof *r);
}

uint32_t results_find_feature(const struct results *r, const char *name)
{
    struct feature_index *e;
    HASH_FIND_STR(r->index, name, e);
    return e ? e->index : UINT32_MAX;
}

uint32_t results_intern(struct results *r, const char *name)
{
    uint32_t found = results_find_feature(r, name);
    if (found != UINT32_MAX)
        return found;
    size_t cap = r->features_cap;
    r->features = xgrow(r->features, &cap, (size_t)r->nfeatures + 1, sizeof *r->features);
    r->features_cap = (uint32_t)cap;
    struct feature_index *e = xmalloc(sizeof *e);
    e->index = r->nfeatures;
    e->name = r->features[r->nfeatures++] = xstrdup(name);
    HASH_ADD_KEYPTR(hh, r->index, e->name, strlen(e->name), e);
    return e->index;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

void results_add(struct results *r, struct run_record *record)
{
    if (record->nfeatures) {
        qsort(record->features, record->nfeatures, sizeof *record->features, compare_u32);
        uint32_t n = 1;
        for (uint32_t i = 1; i < record->nfeatures; i++)
            if (record->features[i] != record->features[n - 1])
                record->features[n++] = record->features[i];
        record->nfeatures = n;
    }
    r->records = xgrow(r->records, &r->records_cap, r->nrecords + 1, sizeof *r->records);
    r->records[r->nrecords] = *record;
    memset(record, 0, sizeof *record);
    const char *input = r->records[r->nrecords].input;
    struct input_index *e;
    HASH_FIND_STR(r->inputs, input, e);
    if (!e) { /* the first record of an input is the one found */
        e = xmalloc(sizeof *e);
        e->record = r->nrecords;
        HASH_ADD_KEYPTR(hh, r->inputs, input, strlen(input), e);
    }
    r->nrecords++;
}

const struct run_record *results_find_input(const struct results *r, const char *input)
{
    struct input_index *e;
    HASH_FIND_STR(r->inputs, input, e);
    return e ? &r->records[e->record] : NULL;
}

bool results_record_has(const struct results *r, const struct run_record *record, uint32_t index)
{
    (void)r;
    return record->nfeatures &&
           bsearch(&index, record->features, record->nfeatures, sizeof *record->features,
                   compare_u32) != NULL;
}

/* ---- writing ------------------------------------------------------------ */

static void add_string_array(struct strbuf *out, char *const *v, uint32_t n)
{
    strbuf_addch(out, '[');
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            strbuf_addch(out, ',');
        json_add_cstring(out, v[i]);
    }
    strbuf_addch(out, ']');
}

void results_format_header(const struct results_header *h, struct strbuf *out)
{
    strbuf_addf(out, "{\"kpath_results\":%d,\"kpath_version\":", RESULTS_SCHEMA);
    json_add_cstring(out, h->kpath_version ? h->kpath_version : KPATH_VERSION);
    strbuf_addstr(out, ",\"grammar\":");
    json_add_cstring(out, h->grammar ? h->grammar : "");
    strbuf_addf(out, ",\"grammar_sha256\":\"%s\"", h->grammar_sha256);
    if (h->start && *h->start) {
        strbuf_addstr(out, ",\"start\":");
        json_add_cstring(out, h->start);
    }
    strbuf_addstr(out, ",\"command\":");
    add_string_array(out, h->command, h->ncommand);
    strbuf_addstr(out, ",\"collect\":");
    add_string_array(out, h->collect, h->ncollect);
    strbuf_addstr(out, "}\n");
}

static void add_stream(struct strbuf *out, const char *name, const struct run_stream *s)
{
    strbuf_addf(out, ",\"%s\":{\"size\":%llu,\"sha256\":\"%s\",\"first_line\":", name,
                (unsigned long long)s->size, s->sha256);
    json_add_cstring(out, s->first_line ? s->first_line : "");
    strbuf_addch(out, '}');
}

static const struct results *sort_names; /* qsort has no context argument */

static int compare_by_name(const void *a, const void *b)
{
    return strcmp(sort_names->features[*(const uint32_t *)a],
                  sort_names->features[*(const uint32_t *)b]);
}

void results_format_record(const struct results *r, const struct run_record *record,
                           struct strbuf *out)
{
    strbuf_addstr(out, "{\"input\":");
    json_add_cstring(out, record->input);
    strbuf_addf(out, ",\"input_sha256\":\"%s\",\"input_size\":%llu,\"outcome\":",
                record->input_sha256, (unsigned long long)record->input_size);
    json_add_cstring(out, record->outcome ? record->outcome : "");
    strbuf_addf(out, ",\"wall_ms\":%.3f,\"cpu_ms\":%.3f,\"max_rss_kb\":%llu", record->wall_ms,
                record->cpu_ms, (unsigned long long)record->max_rss_kb);
    add_stream(out, "stdout", &record->out);
    add_stream(out, "stderr", &record->err);
    strbuf_addstr(out, ",\"features\":[");
    uint32_t *order = xcalloc((size_t)record->nfeatures + 1, sizeof *order);
    if (record->nfeatures)
        memcpy(order, record->features, (size_t)record->nfeatures * sizeof *order);
    sort_names = r;
    qsort(order, record->nfeatures, sizeof *order, compare_by_name);
    sort_names = NULL;
    for (uint32_t i = 0; i < record->nfeatures; i++) {
        if (i)
            strbuf_addch(out, ',');
        json_add_cstring(out, r->features[order[i]]);
    }
    free(order);
    strbuf_addstr(out, "]}\n");
}

/* ---- reading ------------------------------------------------------------ */

struct line_reader {
    const char *path;
    uint32_t line;
    struct diag_list *diags;
};

static bool field_error(struct line_reader *lr, const struct json_value *at, const char *field,
                        const char *what)
{
    diag_add(lr->diags, DIAG_ERROR, lr->path, lr->line, at ? at->col : 1,
             "\"%s\" must be %s", field, what);
    return false;
}

static bool get_string(struct line_reader *lr, const struct json_value *obj, const char *field,
                       bool required, char **out)
{
    const struct json_value *v = json_get(obj, field);
    if (!v) {
        if (!required) {
            *out = xstrdup("");
            return true;
        }
        diag_add(lr->diags, DIAG_ERROR, lr->path, lr->line, obj->col, "missing \"%s\"", field);
        return false;
    }
    if (v->type != JSON_STRING)
        return field_error(lr, v, field, "a string");
    *out = xstrndup(v->u.string.data, v->u.string.len);
    return true;
}

static bool get_hex(struct line_reader *lr, const struct json_value *obj, const char *field,
                    char hex[SHA256_HEX_SIZE])
{
    const struct json_value *v = json_get(obj, field);
    hex[0] = '\0';
    if (!v)
        return true;
    /* "" stands for a hash not taken. */
    if (v->type != JSON_STRING ||
        (v->u.string.len != SHA256_HEX_SIZE - 1 && v->u.string.len != 0))
        return field_error(lr, v, field, "64 hexadecimal digits");
    memcpy(hex, v->u.string.data, SHA256_HEX_SIZE);
    return true;
}

static bool get_number(struct line_reader *lr, const struct json_value *obj, const char *field,
                       double *out)
{
    const struct json_value *v = json_get(obj, field);
    *out = 0;
    if (!v)
        return true;
    if (v->type != JSON_NUMBER)
        return field_error(lr, v, field, "a number");
    *out = v->u.number.value;
    return true;
}

static bool get_count(struct line_reader *lr, const struct json_value *obj, const char *field,
                      uint64_t *out)
{
    const struct json_value *v = json_get(obj, field);
    *out = 0;
    if (!v)
        return true;
    if (v->type != JSON_NUMBER || !v->u.number.is_uint)
        return field_error(lr, v, field, "a whole number");
    *out = v->u.number.uint;
    return true;
}

static bool get_string_array(struct line_reader *lr, const struct json_value *obj,
                             const char *field, char ***out, uint32_t *n)
{
    const struct json_value *v = json_get(obj, field);
    *out = NULL;
    *n = 0;
    if (!v)
        return true;
    if (v->type != JSON_ARRAY)
        return field_error(lr, v, field, "an array of strings");
    for (size_t i = 0; i < v->u.array.len; i++)
        if (v->u.array.items[i]->type != JSON_STRING)
            return field_error(lr, v->u.array.items[i], field, "an array of strings");
    *out = xcalloc(v->u.array.len + 1, sizeof **out);
    for (size_t i = 0; i < v->u.array.len; i++)
        (*out)[i] = xstrdup(v->u.array.items[i]->u.string.data);
    *n = (uint32_t)v->u.array.len;
    return true;
}

static bool read_header(struct line_reader *lr, const struct json_value *obj,
                        struct results_header *h)
{
    const struct json_value *schema = json_get(obj, "kpath_results");
    if (!schema || schema->type != JSON_NUMBER) {
        diag_add(lr->diags, DIAG_ERROR, lr->path, lr->line, 1,
                 "not a kpath results file (its first line has no \"kpath_results\")");
        return false;
    }
    if (!schema->u.number.is_uint || schema->u.number.uint != RESULTS_SCHEMA) {
        diag_add(lr->diags, DIAG_ERROR, lr->path, lr->line, schema->col,
                 "results schema %g is not supported (this kpath reads %d)",
                 schema->u.number.value, RESULTS_SCHEMA);
        return false;
    }
    return get_string(lr, obj, "kpath_version", false, &h->kpath_version) &&
           get_string(lr, obj, "grammar", false, &h->grammar) &&
           get_hex(lr, obj, "grammar_sha256", h->grammar_sha256) &&
           get_string(lr, obj, "start", false, &h->start) &&
           get_string_array(lr, obj, "command", &h->command, &h->ncommand) &&
           get_string_array(lr, obj, "collect", &h->collect, &h->ncollect);
}

static bool read_stream(struct line_reader *lr, const struct json_value *obj, const char *field,
                        struct run_stream *s)
{
    const struct json_value *v = json_get(obj, field);
    if (!v) {
        s->first_line = xstrdup("");
        return true;
    }
    if (v->type != JSON_OBJECT)
        return field_error(lr, v, field, "an object");
    return get_count(lr, v, "size", &s->size) && get_hex(lr, v, "sha256", s->sha256) &&
           get_string(lr, v, "first_line", false, &s->first_line);
}

static bool read_record(struct line_reader *lr, const struct json_value *obj, struct results *r)
{
    struct run_record rec = {0};
    bool ok = obj->type == JSON_OBJECT;
    if (!ok)
        diag_add(lr->diags, DIAG_ERROR, lr->path, lr->line, obj->col,
                 "a record must be an object, not %s", json_type_name(obj->type));
    ok = ok && get_string(lr, obj, "input", true, &rec.input) &&
         get_hex(lr, obj, "input_sha256", rec.input_sha256) &&
         get_count(lr, obj, "input_size", &rec.input_size) &&
         get_string(lr, obj, "outcome", true, &rec.outcome) &&
         get_number(lr, obj, "wall_ms", &rec.wall_ms) &&
         get_number(lr, obj, "cpu_ms", &rec.cpu_ms) &&
         get_count(lr, obj, "max_rss_kb", &rec.max_rss_kb) &&
         read_stream(lr, obj, "stdout", &rec.out) && read_stream(lr, obj, "stderr", &rec.err);
    const struct json_value *features = ok ? json_get(obj, "features") : NULL;
    if (ok && features) {
        if (features->type != JSON_ARRAY) {
            ok = field_error(lr, features, "features", "an array of strings");
        } else {
            rec.features = xcalloc(features->u.array.len + 1, sizeof *rec.features);
            for (size_t i = 0; ok && i < features->u.array.len; i++) {
                const struct json_value *f = features->u.array.items[i];
                if (f->type != JSON_STRING)
                    ok = field_error(lr, f, "features", "an array of strings");
                else
                    rec.features[rec.nfeatures++] = results_intern(r, f->u.string.data);
            }
        }
    }
    if (ok)
        results_add(r, &rec);
    else
        run_record_free(&rec);
    return ok;
}

/* Parse the text of a results file into r.  A rest after the last newline is
 * a line cut short: warned about and ignored. */
static struct results *results_init_for(struct results *r)
{
    results_init(r);
    return r;
}

static bool parse_results(const char *path, const char *text, size_t len, struct results *r,
                          struct diag_list *diags)
{
    struct line_reader lr = {.path = path, .diags = diags};
    size_t pos = 0;
    bool ok = true, have_header = false;
    while (ok && pos < len) {
        lr.line++;
        const char *nl = memchr(text + pos, '\n', len - pos);
        if (!nl) {
            diag_add(diags, DIAG_WARNING, path, lr.line, 1,
                     "the last line is cut short (an interrupted run?): ignored");
            break;
        }
        size_t line_len = (size_t)(nl - (text + pos));
        bool blank = true;
        for (size_t i = 0; i < line_len && blank; i++)
            blank = text[pos + i] == ' ' || text[pos + i] == '\t' || text[pos + i] == '\r';
        if (!blank) {
            struct json_doc doc;
            ok = json_parse(&doc, path, lr.line, text + pos, line_len, diags);
            if (ok && !have_header) {
                ok = read_header(&lr, doc.root, &r->header);
                have_header = true;
            } else if (ok) {
                ok = read_record(&lr, doc.root, r);
            }
            json_doc_free(&doc);
        }
        pos += line_len + 1;
    }
    if (ok && !have_header) {
        diag_add(diags, DIAG_ERROR, path, 0, 0, "not a kpath results file (it is empty)");
        ok = false;
    }
    return ok;
}

bool results_file_is(const char *path)
{
    return samples_file_starts_with(path, RESULTS_FIRST_BYTES);
}

bool results_load(const char *path, struct results *r, struct diag_list *diags)
{
    results_init(r);
    struct strbuf text = STRBUF_INIT;
    bool ok = samples_read(path, RESULTS_MAX_FILE_SIZE, &text, diags) &&
              parse_results(path, strbuf_str(&text), text.len, r, diags);
    strbuf_free(&text);
    if (!ok)
        results_free(r);
    return ok;
}

/* ---- comparing, appending, merging ------------------------------------- */

static bool same_strings(char *const *a, uint32_t na, char *const *b, uint32_t nb)
{
    if (na != nb)
        return false;
    for (uint32_t i = 0; i < na; i++)
        if (strcmp(a[i], b[i]) != 0)
            return false;
    return true;
}

bool results_headers_match(const struct results_header *a, const struct results_header *b,
                           const char *file, const char *hint, struct diag_list *diags)
{
    const char *differs = NULL;
    if (strcmp(a->grammar_sha256, b->grammar_sha256) != 0)
        differs = "another grammar (its grammar_sha256 differs)";
    else if (strcmp(a->start ? a->start : "", b->start ? b->start : "") != 0)
        differs = "another start rule";
    else if (!same_strings(a->command, a->ncommand, b->command, b->ncommand))
        differs = "another command";
    else if (!same_strings(a->collect, a->ncollect, b->collect, b->ncollect))
        differs = "other feature collectors (\"collect\")";
    if (differs)
        diag_add(diags, DIAG_ERROR, file, 0, 0, "results of %s: they cannot be combined%s%s",
                 differs, hint ? "; " : "", hint ? hint : "");
    return differs == NULL;
}

static char **copy_strings(char *const *v, uint32_t n)
{
    char **copy = xcalloc((size_t)n + 1, sizeof *copy);
    for (uint32_t i = 0; i < n; i++)
        copy[i] = xstrdup(v[i]);
    return copy;
}

void results_header_copy(struct results_header *to, const struct results_header *from)
{
    to->kpath_version = xstrdup(from->kpath_version ? from->kpath_version : KPATH_VERSION);
    to->grammar = xstrdup(from->grammar ? from->grammar : "");
    memcpy(to->grammar_sha256, from->grammar_sha256, SHA256_HEX_SIZE);
    to->start = xstrdup(from->start ? from->start : "");
    to->command = copy_strings(from->command, from->ncommand);
    to->ncommand = from->ncommand;
    to->collect = copy_strings(from->collect, from->ncollect);
    to->ncollect = from->ncollect;
}

static bool write_all_fd(int fd, const char *data, size_t len)
{
    while (len) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        len -= (size_t)n;
    }
    return true;
}

int results_append_open(const char *path, const struct results_header *h,
                        struct results *existing, struct diag_list *diags)
{
    int fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot open for appending: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        diag_add(diags, DIAG_ERROR, path, 0, 0, "results go to a regular file");
        close(fd);
        return -1;
    }
    if (st.st_size == 0) {
        struct strbuf line = STRBUF_INIT;
        results_format_header(h, &line);
        bool ok = results_append_line(fd, path, &line, diags);
        strbuf_free(&line);
        if (existing)
            results_header_copy(&existing->header, h);
        if (!ok) {
            close(fd);
            return -1;
        }
        return fd;
    }
    struct results have;
    struct strbuf text = STRBUF_INIT;
    bool ok = samples_read(path, RESULTS_MAX_FILE_SIZE, &text, diags) &&
              parse_results(path, strbuf_str(&text), text.len, results_init_for(&have), diags) &&
              results_headers_match(&have.header, h, path,
                                    "choose another --results, or remove this file", diags);
    /* A record cut short by a crash would glue onto the next line: cut it off. */
    if (ok && text.data[text.len - 1] != '\n') {
        size_t keep = text.len;
        while (keep && text.data[keep - 1] != '\n')
            keep--;
        if (ftruncate(fd, (off_t)keep) != 0) {
            diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot cut off the last line: %s",
                     strerror(errno));
            ok = false;
        }
    }
    strbuf_free(&text);
    if (ok && existing)
        *existing = have;
    else
        results_free(&have);
    if (!ok) {
        close(fd);
        return -1;
    }
    return fd;
}

bool results_append_line(int fd, const char *path, const struct strbuf *line,
                         struct diag_list *diags)
{
    /* A line written in part (a full disk) is cut off again, so that the
     * file holds whole records only and the count of records stays true. */
    struct stat st;
    bool sized = fstat(fd, &st) == 0;
    if (!write_all_fd(fd, strbuf_str(line), line->len)) {
        int e = errno;
        if (sized)
            (void)!ftruncate(fd, st.st_size);
        diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot write: %s", strerror(e));
        return false;
    }
    return true;
}

/* By input path; records of the same path keep their order in the file
 * (pointers into one array compare as positions), so the order is total. */
static int compare_record_inputs(const void *a, const void *b)
{
    const struct run_record *x = *(const struct run_record *const *)a;
    const struct run_record *y = *(const struct run_record *const *)b;
    int c = strcmp(x->input, y->input);
    return c ? c : (x > y) - (x < y);
}

size_t *results_input_order(const struct results *r)
{
    const struct run_record **by_input = xcalloc(r->nrecords + 1, sizeof *by_input);
    for (size_t i = 0; i < r->nrecords; i++)
        by_input[i] = &r->records[i];
    qsort(by_input, r->nrecords, sizeof *by_input, compare_record_inputs);
    size_t *order = xcalloc(r->nrecords + 1, sizeof *order);
    for (size_t i = 0; i < r->nrecords; i++)
        order[i] = (size_t)(by_input[i] - r->records);
    free(by_input);
    return order;
}

bool results_merge(const char *const *paths, size_t npaths, const char *out_path,
                   struct diag_list *diags)
{
    if (!npaths) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "nothing to merge");
        return false;
    }
    struct results merged;
    results_init(&merged);
    bool ok = true;
    for (size_t f = 0; ok && f < npaths; f++) {
        struct results part;
        ok = results_load(paths[f], &part, diags);
        if (!ok)
            break;
        if (f == 0)
            results_header_copy(&merged.header, &part.header);
        else
            ok = results_headers_match(&merged.header, &part.header, paths[f], NULL, diags);
        for (size_t i = 0; ok && i < part.nrecords; i++) {
            struct run_record *rec = &part.records[i];
            if (results_find_input(&merged, rec->input))
                continue;
            /* Features are indices into part's table: re-intern by name. */
            for (uint32_t j = 0; j < rec->nfeatures; j++)
                rec->features[j] = results_intern(&merged, part.features[rec->features[j]]);
            results_add(&merged, rec);
        }
        results_free(&part);
    }
    if (ok) {
        size_t *order = results_input_order(&merged);
        struct strbuf text = STRBUF_INIT;
        results_format_header(&merged.header, &text);
        for (size_t i = 0; i < merged.nrecords; i++)
            results_format_record(&merged, &merged.records[order[i]], &text);
        free(order);
        ok = write_file_atomic(out_path, strbuf_str(&text), text.len, diags);
        strbuf_free(&text);
    }
    results_free(&merged);
    return ok;
}
