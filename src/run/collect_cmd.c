/* collect_cmd: features from any tool, through a command run after each run
 * (see collect.h): `sh -c CMD` in the run's working directory, under the
 * runner's limits, one feature per non-empty line it prints.  A command that
 * does not exit 0 is an error, not an empty set of features. */
#include "run/collect.h"

#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/xalloc.h"

static bool cmd_helper(const struct collector *c, const struct collect_run *run,
                       struct str_list *argv, struct str_list *env)
{
    str_list_add(argv, "/bin/sh");
    str_list_add(argv, "-c");
    str_list_add(argv, c->state);
    str_list_addf(env, "KPATH_RUN_DIR=%s", run->result->dir);
    str_list_addf(env, "KPATH_INPUT=%s", run->input);
    str_list_addf(env, "KPATH_INPUT_FILE=%s/in/%s", run->result->dir, run->input_name);
    str_list_addf(env, "KPATH_OUTCOME=%s", run->outcome);
    str_list_addf(env, "KPATH_STDOUT_SHA256=%s", run->result->out.sha256);
    str_list_addf(env, "KPATH_STDERR_SHA256=%s", run->result->err.sha256);
    return true;
}

static bool cmd_collect(const struct collector *c, const struct collect_run *run,
                        const struct runner_result *helper, struct str_list *out,
                        struct diag_list *diags)
{
    if (!helper || helper->end != RUNNER_EXITED || helper->code != 0 || helper->stdout_cut) {
        struct strbuf why = STRBUF_INIT, line = STRBUF_INIT;
        if (helper)
            runner_outcome(helper, &why);
        if (helper) /* the helper's bytes, escaped: they cannot drive the terminal */
            escape_add(&line, helper->err.first_line, strlen(helper->err.first_line));
        diag_add(diags, DIAG_ERROR, run->input, 0, 0, "the feature command '%s' failed (%s)%s%s",
                 (const char *)c->state, helper ? why.data : "not run", line.len ? ": " : "",
                 strbuf_str(&line));
        strbuf_free(&why);
        strbuf_free(&line);
        return false;
    }
    const char *p = strbuf_str(&helper->stdout_kept), *end = p + helper->stdout_kept.len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        size_t len = (size_t)(stop - p);
        if (len && p[len - 1] == '\r')
            len--;
        if (len) {
            char *name = xstrndup(p, len);
            str_list_add(out, name);
            free(name);
        }
        p = nl ? nl + 1 : end;
    }
    return true;
}

static void cmd_free(struct collector *c)
{
    free(c->state);
}

static const struct collector_ops cmd_ops = {
    .helper = cmd_helper, .collect = cmd_collect, .free = cmd_free};

void collector_cmd(struct collector *c, const char *command)
{
    memset(c, 0, sizeof *c);
    c->ops = &cmd_ops;
    struct strbuf name = STRBUF_INIT;
    strbuf_addf(&name, "cmd:%s", command);
    c->name = strbuf_detach(&name, NULL);
    c->state = xstrdup(command);
}
