/* shrink_run: see shrink_run.h. */
#include "shrink_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

struct shrink_run {
    struct run_batch *batch;      /* borrowed */
    struct shrink_run_options o;  /* keep borrowed */
    char *text;                   /* owned: the input */
    size_t len;
    struct input_shrink *shrink;  /* owned; NULL until the input's run is recorded */
    char *outcome;                /* owned: the input's own */
    struct campaign *campaign;    /* the run under way (the batch's), or NULL */
    const char *path;             /* its input file (the batch's) */
    size_t runs;
    enum shrink_run_state state;
};

struct shrink_run *shrink_run_new(struct run_batch *b, const struct shrink_run_options *o,
                                  const char *text, size_t len)
{
    struct shrink_run *s = xcalloc(1, sizeof *s);
    s->batch = b;
    s->o = *o;
    s->text = xmalloc(len + 1);
    memcpy(s->text, text, len);
    s->text[len] = '\0';
    s->len = len;
    return s;
}

void shrink_run_free(struct shrink_run *s)
{
    if (!s)
        return;
    if (s->campaign) {
        struct diag_list d = DIAG_LIST_INIT;
        run_batch_finish(s->batch, &d); /* kills the run under way */
        diag_list_free(&d);
    }
    input_shrink_free(s->shrink);
    free(s->outcome);
    free(s->text);
    free(s);
}

static bool is_outcome(const char *b)
{
    return strncmp(b, "exit:", 5) == 0 || strncmp(b, "signal:", 7) == 0 ||
           strcmp(b, "timeout") == 0 || strncmp(b, "error:", 6) == 0;
}

/* Does the run `rec` show every behaviour of keep[0 .. n)? */
static bool shows(const struct results *r, const struct run_record *rec, const char *const *keep,
                  size_t n, const struct oracle_exits *exits)
{
    for (size_t i = 0; i < n; i++) {
        const char *b = keep[i];
        bool ok;
        if (is_outcome(b)) {
            ok = strcmp(rec->outcome, b) == 0;
        } else if (strcmp(b, "invalid") == 0 || strcmp(b, "valid") == 0) {
            ok = oracle_valid(rec->outcome, exits) == (b[0] == 'v');
        } else {
            ok = false;
            for (uint32_t f = 0; f < rec->nfeatures && !ok; f++)
                ok = strcmp(r->features[rec->features[f]], b) == 0;
        }
        if (!ok)
            return false;
    }
    return true;
}

/* The input's run is recorded: the behaviour to keep, and the search. */
static void first_answer(struct shrink_run *s, const struct run_record *rec)
{
    s->outcome = xstrdup(rec->outcome);
    if (!s->o.nkeep) {
        if (strcmp(s->outcome, "exit:0") == 0) {
            s->state = SHRINK_RUN_REFUSED;
            return;
        }
        s->o.keep = (const char *const *)&s->outcome;
        s->o.nkeep = 1;
    } else if (!shows(run_batch_results(s->batch), rec, s->o.keep, s->o.nkeep, &s->o.exits)) {
        s->state = SHRINK_RUN_REFUSED;
        return;
    }
    s->shrink = input_shrink_new(s->o.graph, NULL, s->text, s->len, s->o.chars);
}

enum shrink_run_state shrink_run_step(struct shrink_run *s, int wait_ms, struct diag_list *diags)
{
    if (s->state != SHRINK_RUN_RUNNING)
        return s->state;
    if (!s->campaign) {
        const char *text = s->text;
        size_t len = s->len;
        if (s->shrink && !input_shrink_next(s->shrink, &text, &len))
            return s->state = SHRINK_RUN_DONE;
        char label[32];
        snprintf(label, sizeof label, "%06zu", s->runs);
        char *texts[1] = {(char *)text};
        s->campaign = run_batch_start(s->batch, label, texts, &len, 1, &s->path, diags);
        if (!s->campaign)
            return s->state = SHRINK_RUN_FAILED;
    }
    enum campaign_state st = campaign_step(s->campaign, wait_ms, diags);
    if (st == CAMPAIGN_RUNNING)
        return s->state;
    s->campaign = NULL;
    bool ok = run_batch_finish(s->batch, diags);
    const struct run_record *rec = ok ? run_batch_record(s->batch, s->path) : NULL;
    if (!rec) {
        if (ok)
            diag_add(diags, DIAG_ERROR, s->path, 0, 0, "its run was not recorded");
        return s->state = SHRINK_RUN_FAILED;
    }
    s->runs++;
    if (!s->outcome)
        first_answer(s, rec);
    else
        input_shrink_answer(s->shrink, shows(run_batch_results(s->batch), rec, s->o.keep,
                                             s->o.nkeep, &s->o.exits));
    return s->state;
}

void shrink_run_stop(struct shrink_run *s)
{
    if (s->campaign) {
        campaign_stop(s->campaign);
        struct diag_list d = DIAG_LIST_INIT;
        run_batch_finish(s->batch, &d);
        diag_list_free(&d);
        s->campaign = NULL;
    }
    if (s->state == SHRINK_RUN_RUNNING)
        s->state = SHRINK_RUN_STOPPED;
}

enum shrink_run_state shrink_run_state(const struct shrink_run *s)
{
    return s->state;
}

size_t shrink_run_runs(const struct shrink_run *s)
{
    return s->runs;
}

const char *shrink_run_result(const struct shrink_run *s, size_t *len)
{
    if (s->shrink)
        return input_shrink_result(s->shrink, len);
    *len = s->len;
    return s->text;
}

const char *shrink_run_outcome(const struct shrink_run *s)
{
    return s->outcome;
}

void shrink_run_kept(const struct shrink_run *s, struct strbuf *out)
{
    if (!s->outcome)
        return;
    for (size_t i = 0; i < s->o.nkeep; i++)
        strbuf_addf(out, "%s%s", i ? ", " : "", s->o.keep[i]);
}

void shrink_run_get_stats(const struct shrink_run *s, struct input_shrink_stats *out)
{
    if (s->shrink)
        input_shrink_get_stats(s->shrink, out);
    else
        memset(out, 0, sizeof *out);
}
