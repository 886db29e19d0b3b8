/* collect_node: the functions a Node.js program ran, from V8's own coverage
 * (see collect.h).  NODE_V8_COVERAGE makes node write one JSON file per
 * process into {run}/v8 when it exits; a function ran when the count of its
 * first range (the whole function) is positive.  Only scripts loaded from
 * files count (node's internals are not the program under test), and
 * anonymous functions have no name to report. */
#include "run/collect.h"

#include <stdlib.h>
#include <string.h>

#include "base/json_read.h"
#include "base/samples.h"
#include "base/xalloc.h"

static void node_env(const struct collector *c, struct str_list *env)
{
    (void)c;
    str_list_add(env, "NODE_V8_COVERAGE={run}/v8");
}

static void add_script(const struct json_value *script, struct str_list *out)
{
    const char *url = json_string(json_get(script, "url"));
    if (!url || strncmp(url, "file:", 5) != 0)
        return;
    const struct json_value *fns = json_get(script, "functions");
    for (size_t i = 0; fns && fns->type == JSON_ARRAY && i < fns->u.array.len; i++) {
        const struct json_value *fn = fns->u.array.items[i];
        const char *name = json_string(json_get(fn, "functionName"));
        const struct json_value *ranges = json_get(fn, "ranges");
        if (!name || !*name || !ranges || ranges->type != JSON_ARRAY || !ranges->u.array.len)
            continue;
        const struct json_value *count = json_get(ranges->u.array.items[0], "count");
        if (count && count->type == JSON_NUMBER && count->u.number.value > 0)
            str_list_addf(out, "fn:%s", name);
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
        struct json_doc doc;
        memset(&doc, 0, sizeof doc);
        ok = samples_read(files.items[f], (size_t)1 << 30, &text, diags) &&
             json_parse(&doc, files.items[f], 1, text.data ? text.data : "", text.len, diags);
        const struct json_value *result = ok ? json_get(doc.root, "result") : NULL;
        for (size_t i = 0; result && result->type == JSON_ARRAY && i < result->u.array.len; i++)
            add_script(result->u.array.items[i], out);
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
