/* collect_node: the functions a Node.js program ran, from V8's own coverage
 * (see collect.h).  NODE_V8_COVERAGE makes node write one JSON file per
 * process into {run}/v8 when it exits; a function ran when the count of its
 * first range (the whole function) is positive.  Only scripts loaded from
 * files count (node's internals are not the program under test), and
 * anonymous functions have no name to report.
 *
 * Names: a function is `fn:NAME` when no other function of the program's
 * scripts has its name, and `fn:NAME@FILE:LINE` (FILE the script's base
 * name, LINE where the function starts, from 1) for each of several with the
 * same name (two objects' `start` methods), so that distinct functions stay
 * distinct features.  The same function must get the same name in every
 * run, but V8 reports a function only once its enclosing function was
 * compiled (a `start` inside a function that never ran is missing): the
 * functions of a name are therefore counted both among those V8 reports and
 * among the definitions of the name in the script's source (`function
 * NAME`, `NAME(...) {`, `NAME: function`, `NAME = (...) =>`, ...), and the
 * larger count decides. */
#include "run/collect.h"

#include <stdlib.h>
#include <string.h>

#include "base/json_read.h"
#include "base/samples.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

static void node_env(const struct collector *c, struct str_list *env)
{
    (void)c;
    str_list_add(env, "NODE_V8_COVERAGE={run}/v8");
}

/* One named function V8 reported. */
struct node_fn {
    const char *name; /* borrowed from the JSON document */
    size_t script;    /* index into the scripts */
    double offset;    /* of its start, in UTF-16 code units */
    bool ran;
};

struct node_script {
    char *path;       /* owned; from the file: URL */
    struct strbuf text; /* its source, empty when unreadable */
};

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* "file:///a/b%20c.js" -> "/a/b c.js" */
static char *url_path(const char *url)
{
    const char *p = url + 5;
    if (strncmp(p, "//", 2) == 0)
        p = strchr(p + 2, '/') ? strchr(p + 2, '/') : p + strlen(p);
    struct strbuf out = STRBUF_INIT;
    for (; *p; p++) {
        if (*p == '%' && hexval(p[1]) >= 0 && hexval(p[2]) >= 0) {
            strbuf_addch(&out, (char)(hexval(p[1]) * 16 + hexval(p[2])));
            p += 2;
        } else {
            strbuf_addch(&out, *p);
        }
    }
    size_t len;
    char *path = strbuf_detach(&out, &len);
    return path ? path : xstrdup("");
}

/* The line (from 1) of a UTF-16 offset into UTF-8 text. */
static unsigned line_of(const struct strbuf *text, double offset)
{
    unsigned line = 1;
    double units = 0;
    for (size_t i = 0; i < text->len && units < offset; i++) {
        unsigned char c = (unsigned char)text->data[i];
        if (c == '\n')
            line++;
        if ((c & 0xc0) != 0x80) /* a lead byte: 2 units for 4-byte sequences */
            units += c >= 0xf0 ? 2 : 1;
    }
    return line;
}

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || (unsigned char)c >= 0x80;
}

static const char *skip_space(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

/* After an opening parenthesis at p: past its closing one (NULL if none). */
static const char *skip_parens(const char *p, const char *end)
{
    int depth = 0;
    for (; p < end; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')' && --depth == 0)
            return p + 1;
    }
    return NULL;
}

/* Definitions of `name` in a script's source, by their look: `function
 * name`, `name(...) {` (a declaration's or a method's head), `name: function`,
 * `name = function`, `name = async ...`, `name = (...) =>`, `name = x =>`. */
static size_t source_definitions(const struct strbuf *text, const char *name)
{
    size_t n = 0, len = strlen(name);
    const char *begin = text->data ? text->data : "", *end = begin + text->len;
    for (const char *p = begin; p + len <= end; p++) {
        if (memcmp(p, name, len) != 0 || (p > begin && (ident_char(p[-1]) || p[-1] == '.')) ||
            (p + len < end && ident_char(p[len])))
            continue;
        const char *q = p;
        while (q > begin && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '*'))
            q--;
        if (q - begin >= 8 && memcmp(q - 8, "function", 8) == 0 &&
            (q - 8 == begin || !ident_char(q[-9]))) {
            n++;
            continue;
        }
        const char *a = skip_space(p + len, end);
        if (a < end && *a == '(') {
            const char *b = skip_parens(a, end);
            if (b && (b = skip_space(b, end)) < end && *b == '{')
                n++;
            continue;
        }
        if (a < end && (*a == ':' || (*a == '=' && a + 1 < end && a[1] != '=' && a[1] != '>'))) {
            const char *b = skip_space(a + 1, end);
            if ((end - b >= 8 && memcmp(b, "function", 8) == 0) ||
                (end - b >= 5 && memcmp(b, "async", 5) == 0)) {
                n++;
                continue;
            }
            if (b < end && *b == '(')
                b = skip_parens(b, end);
            else
                while (b && b < end && ident_char(*b))
                    b++;
            if (b && (b = skip_space(b, end)) + 1 < end && b[0] == '=' && b[1] == '>')
                n++;
        }
    }
    return n;
}

static void add_script(const struct json_value *script, struct node_script **scripts,
                       size_t *nscripts, struct node_fn **fns_out, size_t *nfns, size_t *cap)
{
    const char *url = json_string(json_get(script, "url"));
    if (!url || strncmp(url, "file:", 5) != 0)
        return;
    char *path = url_path(url);
    size_t si = 0;
    while (si < *nscripts && strcmp((*scripts)[si].path, path) != 0)
        si++;
    if (si == *nscripts) {
        *scripts = xrealloc(*scripts, (*nscripts + 1) * sizeof **scripts);
        (*scripts)[si] = (struct node_script){path, STRBUF_INIT};
        struct diag_list ignore = DIAG_LIST_INIT;
        if (!samples_read(path, (size_t)1 << 28, &(*scripts)[si].text, &ignore))
            strbuf_reset(&(*scripts)[si].text);
        diag_list_free(&ignore);
        (*nscripts)++;
    } else {
        free(path);
    }
    const struct json_value *fns = json_get(script, "functions");
    for (size_t i = 0; fns && fns->type == JSON_ARRAY && i < fns->u.array.len; i++) {
        const struct json_value *fn = fns->u.array.items[i];
        const char *name = json_string(json_get(fn, "functionName"));
        const struct json_value *ranges = json_get(fn, "ranges");
        if (!name || !*name || !ranges || ranges->type != JSON_ARRAY || !ranges->u.array.len)
            continue;
        const struct json_value *count = json_get(ranges->u.array.items[0], "count");
        const struct json_value *start = json_get(ranges->u.array.items[0], "startOffset");
        *fns_out = xgrow(*fns_out, cap, *nfns + 1, sizeof **fns_out);
        (*fns_out)[(*nfns)++] = (struct node_fn){
            name, si, start && start->type == JSON_NUMBER ? start->u.number.value : 0,
            count && count->type == JSON_NUMBER && count->u.number.value > 0};
    }
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The features of the functions that ran, named as the top says. */
static void name_functions(const struct node_fn *fns, size_t n, const struct node_script *scripts,
                           size_t nscripts, struct str_list *out)
{
    for (size_t i = 0; i < n; i++) {
        if (!fns[i].ran)
            continue;
        size_t reported = 0, defined = 0;
        for (size_t j = 0; j < n; j++)
            reported += strcmp(fns[j].name, fns[i].name) == 0;
        for (size_t s = 0; s < nscripts; s++)
            defined += source_definitions(&scripts[s].text, fns[i].name);
        if (reported < 2 && defined < 2) {
            str_list_addf(out, "fn:%s", fns[i].name);
            continue;
        }
        const struct node_script *sc = &scripts[fns[i].script];
        str_list_addf(out, "fn:%s@%s:%u", fns[i].name, base_name(sc->path),
                      line_of(&sc->text, fns[i].offset));
    }
}

static bool node_collect(const struct collector *c, const struct collect_run *run,
                         const struct runner_result *helper, struct str_list *out,
                         struct diag_list *diags)
{
    (void)c, (void)helper;
    struct strbuf dir = STRBUF_INIT, text = STRBUF_INIT;
    strbuf_addf(&dir, "%s/v8", run->result->dir);
    struct str_list files = {0};
    collect_files_below(dir.data, ".json", &files);
    bool ok = true;
    for (size_t f = 0; ok && f < files.len; f++) {
        /* One file per process: names are decided within a process. */
        struct json_doc doc;
        memset(&doc, 0, sizeof doc);
        ok = samples_read(files.items[f], (size_t)1 << 30, &text, diags) &&
             json_parse(&doc, files.items[f], 1, text.data ? text.data : "", text.len, diags);
        const struct json_value *result = ok ? json_get(doc.root, "result") : NULL;
        struct node_script *scripts = NULL;
        struct node_fn *fns = NULL;
        size_t nscripts = 0, nfns = 0, cap = 0;
        for (size_t i = 0; result && result->type == JSON_ARRAY && i < result->u.array.len; i++)
            add_script(result->u.array.items[i], &scripts, &nscripts, &fns, &nfns, &cap);
        name_functions(fns, nfns, scripts, nscripts, out);
        for (size_t i = 0; i < nscripts; i++) {
            free(scripts[i].path);
            strbuf_free(&scripts[i].text);
        }
        free(scripts);
        free(fns);
        json_doc_free(&doc);
    }
    str_list_free(&files);
    strbuf_free(&dir);
    strbuf_free(&text);
    return ok;
}

static const struct collector_ops node_ops = {.env = node_env, .collect = node_collect};

bool collector_node(struct collector *c, struct diag_list *diags)
{
    memset(c, 0, sizeof *c);
    struct diag_list which = DIAG_LIST_INIT;
    bool have_node = runner_check_command("node", &which);
    diag_list_free(&which);
    if (!have_node) {
        diag_add(diags, DIAG_ERROR, NULL, 0, 0, "--node-coverage needs node, not found in PATH");
        return false;
    }
    c->ops = &node_ops;
    c->name = xstrdup("node");
    return true;
}
