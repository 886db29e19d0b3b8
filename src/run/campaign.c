#include "run/campaign.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/escape.h"
#include "base/sha256.h"
#include "base/xalloc.h"

/* One input between the start of its run and its record. */
struct active {
    size_t input;                  /* index into campaign.inputs */
    struct strbuf data;            /* the input's bytes */
    const char *name;              /* its base name */
    struct runner_result *main;    /* the program's run, once ended */
    double main_ended;             /* when it was handed over (seconds) */
    struct strbuf outcome;
    size_t collector;              /* the collector at work */
    bool helper_pending;           /* its helper waits for a free slot */
    struct str_list helper_argv, helper_env;
    struct str_list features;
    struct active *next;           /* in campaign.actives */
};

struct campaign {
    struct campaign_options opts;
    struct str_list main_env;      /* every collector's environment for the main run */
    char **inputs;                 /* borrowed from the sample list */
    size_t *todo;                  /* indices of inputs to run, in order */
    size_t ntodo, next_todo;
    struct runner *runner;
    struct results results;
    int fd;
    struct active *actives;
    struct campaign_progress progress;
    double started;
    /* The first runs, to notice a command that fails for every input. */
    size_t early_seen;
    bool early_alike;
    char *early_outcome;
    char early_stderr[SHA256_HEX_SIZE];
    char *early_stderr_line;
    bool stopping;                 /* failed alike early: no more inputs; the runs
                                    * under way finish, then the campaign fails */
    bool failed;
    bool helpers;                  /* some collector may ask for a helper run */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

static char *const *sorting_paths; /* qsort has no context argument */

static int compare_positions(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(sorting_paths[x], sorting_paths[y]);
    return c ? c : (x > y) - (x < y);
}

struct campaign *campaign_open(const struct campaign_options *opts,
                               const struct sample_list *inputs, struct diag_list *diags)
{
    struct campaign *c = xcalloc(1, sizeof *c);
    c->opts = *opts;
    c->early_alike = true;
    results_init(&c->results);
    c->fd = results_append_open(opts->results_path, opts->header, &c->results, diags);
    if (c->fd < 0) {
        results_free(&c->results);
        free(c);
        return NULL;
    }
    if (c->results.nrecords && !opts->resume) {
        diag_add(diags, DIAG_ERROR, opts->results_path, 0, 0,
                 "already records %zu run%s: --resume skips them, or choose another --results",
                 c->results.nrecords, c->results.nrecords == 1 ? "" : "s");
        campaign_free(c);
        return NULL;
    }
    c->inputs = inputs->paths;
    /* The same path given twice runs once, at its first position: sort the
     * positions by path (then position) and mark the later ones. */
    size_t *by_path = xcalloc(inputs->len + 1, sizeof *by_path);
    bool *repeated = xcalloc(inputs->len + 1, sizeof *repeated);
    for (size_t i = 0; i < inputs->len; i++)
        by_path[i] = i;
    sorting_paths = inputs->paths;
    qsort(by_path, inputs->len, sizeof *by_path, compare_positions);
    sorting_paths = NULL;
    for (size_t i = 1; i < inputs->len; i++)
        repeated[by_path[i]] = strcmp(inputs->paths[by_path[i]], inputs->paths[by_path[i - 1]]) == 0;
    free(by_path);
    struct stat results_st;
    if (fstat(c->fd, &results_st) != 0)
        memset(&results_st, 0, sizeof results_st);
    c->todo = xcalloc(inputs->len + 1, sizeof *c->todo);
    for (size_t i = 0; i < inputs->len; i++) {
        if (opts->shard_count > 1 && i % opts->shard_count != opts->shard_index - 1)
            continue;
        struct stat st;
        if (stat(inputs->paths[i], &st) == 0 && st.st_dev == results_st.st_dev &&
            st.st_ino == results_st.st_ino)
            continue; /* the results file itself, in a directory of inputs */
        if (results_find_input(&c->results, inputs->paths[i])) {
            c->progress.skipped++;
            continue;
        }
        if (!repeated[i])
            c->todo[c->ntodo++] = i;
    }
    free(repeated);
    c->progress.total = c->ntodo;
    for (size_t i = 0; i < opts->ncollectors; i++) {
        if (opts->collectors[i].ops->env)
            opts->collectors[i].ops->env(&opts->collectors[i], &c->main_env);
        c->helpers = c->helpers || opts->collectors[i].ops->helper;
    }
    c->runner = runner_new(&opts->runner);
    c->started = now_s();
    return c;
}

static void active_free(struct active *a)
{
    strbuf_free(&a->data);
    strbuf_free(&a->outcome);
    runner_result_free(a->main);
    str_list_free(&a->helper_argv);
    str_list_free(&a->helper_env);
    str_list_free(&a->features);
    free(a);
}

static void unlink_active(struct campaign *c, struct active *a)
{
    for (struct active **p = &c->actives; *p; p = &(*p)->next)
        if (*p == a) {
            *p = a->next;
            return;
        }
}

/* Start the next input's run; false when none could start. */
static bool start_next(struct campaign *c, struct diag_list *diags)
{
    while (c->next_todo < c->ntodo) {
        size_t index = c->todo[c->next_todo++];
        const char *path = c->inputs[index];
        struct active *a = xcalloc(1, sizeof *a);
        a->input = index;
        a->name = base_name(path);
        struct diag_list read = DIAG_LIST_INIT;
        if (!samples_read(path, c->opts.max_input_size, &a->data, &read)) {
            /* Not the program's fault: say so and go on with the others. */
            for (size_t i = 0; i < read.len; i++)
                diag_add(diags, DIAG_WARNING, read.items[i].file, 0, 0, "%s (not run)",
                         read.items[i].message);
            diag_list_free(&read);
            c->progress.unreadable++;
            active_free(a);
            continue;
        }
        diag_list_free(&read);
        /* A helper (--features-cmd's KPATH_INPUT_FILE) may read in/NAME. */
        struct runner_job job = {.argv = c->opts.argv, .env = c->main_env.items,
                                 .input_name = a->name, .input = a->data.data ? a->data.data : "",
                                 .input_len = a->data.len, .input_file = c->helpers, .user = a};
        if (!runner_start(c->runner, &job, diags)) {
            active_free(a);
            c->failed = true;
            return false;
        }
        a->next = c->actives;
        c->actives = a;
        return true;
    }
    return false;
}

static bool start_helper(struct campaign *c, struct active *a, struct diag_list *diags)
{
    struct runner_job job = {.argv = a->helper_argv.items, .env = a->helper_env.items,
                             .in_dir = a->main->dir, .keep_stdout = COLLECT_HELPER_STDOUT_MAX,
                             .user = a};
    if (!runner_start(c->runner, &job, diags)) {
        c->failed = true;
        return false;
    }
    a->helper_pending = false;
    return true;
}

/* Has the command failed the same way for each of the first CAMPAIGN_EARLY
 * runs?  Fewer runs are not evidence enough: two inputs that find the same
 * bug are the program's behaviour.  A command that cannot start at all
 * says so at once. */
static bool early_check(struct campaign *c, const struct active *a, struct diag_list *diags)
{
    if (c->opts.keep_going || c->early_seen >= CAMPAIGN_EARLY || !c->early_alike)
        return true;
    const char *outcome = a->outcome.data;
    bool failed = strcmp(outcome, "exit:0") != 0;
    if (c->early_seen == 0) {
        c->early_outcome = xstrdup(outcome);
        memcpy(c->early_stderr, a->main->err.sha256, SHA256_HEX_SIZE);
        c->early_stderr_line = xstrdup(a->main->err.first_line);
    }
    c->early_alike = failed && strcmp(c->early_outcome, outcome) == 0 &&
                     strcmp(c->early_stderr, a->main->err.sha256) == 0;
    c->early_seen++;
    bool cannot_start = strncmp(outcome, "error:", 6) == 0;
    if (!c->early_alike || (!cannot_start && c->early_seen < CAMPAIGN_EARLY))
        return true;
    /* Every input has run: nothing is left to spare, the run is complete;
     * say what it looks like all the same. */
    bool complete = !cannot_start && c->early_seen == c->ntodo;
    struct strbuf what = STRBUF_INIT;
    if (cannot_start)
        strbuf_addf(&what, "the command cannot be run: %s", outcome + 6);
    else
        strbuf_addf(&what, "the command failed for %s%zu input%s the same way: %s",
                    complete ? "all " : "each of the first ", c->early_seen,
                    c->early_seen == 1 ? "" : "s", outcome);
    if (c->early_stderr_line[0]) {
        /* The program's bytes: escaped, so that they cannot drive the terminal. */
        strbuf_addstr(&what, "; stderr: ");
        escape_add(&what, c->early_stderr_line, strlen(c->early_stderr_line));
    }
    diag_add(diags, complete ? DIAG_WARNING : DIAG_ERROR, NULL, 0, 0, "%s%s", what.data,
             cannot_start ? ""
             : complete   ? " (is the command line right?)"
                          : " (--keep-going runs the rest anyway)");
    strbuf_free(&what);
    return complete;
}

/* Record a finished input: one line appended, one record added. */
static bool record(struct campaign *c, struct active *a, struct diag_list *diags)
{
    struct run_record rec;
    memset(&rec, 0, sizeof rec);
    rec.input = xstrdup(c->inputs[a->input]);
    sha256_hex(a->data.data ? a->data.data : "", a->data.len, rec.input_sha256);
    rec.input_size = a->data.len;
    rec.outcome = xstrdup(a->outcome.data);
    rec.wall_ms = a->main->wall_ms;
    rec.cpu_ms = a->main->cpu_ms;
    rec.max_rss_kb = a->main->max_rss_kb;
    rec.out = a->main->out;
    rec.err = a->main->err;
    a->main->out.first_line = NULL;
    a->main->err.first_line = NULL;
    rec.features = xcalloc(a->features.len + 1, sizeof *rec.features);
    for (size_t i = 0; i < a->features.len; i++)
        rec.features[rec.nfeatures++] = results_intern(&c->results, a->features.items[i]);
    struct strbuf line = STRBUF_INIT;
    results_format_record(&c->results, &rec, &line);
    bool ok = results_append_line(c->fd, c->opts.results_path, &line, diags);
    strbuf_free(&line);
    if (!ok) {
        /* Not in the file: not recorded. */
        run_record_free(&rec);
        return false;
    }
    c->progress.done++;
    c->progress.start_ms += a->main->start_ms;
    c->progress.program_ms += a->main->wall_ms;
    c->progress.collect_ms += (now_s() - a->main_ended) * 1000.0;
    if (strcmp(rec.outcome, "exit:0") != 0)
        c->progress.failed++;
    results_add(&c->results, &rec);
    return true;
}

/* Run the collectors from a->collector on; a helper run suspends it. */
static bool advance(struct campaign *c, struct active *a, const struct runner_result *helper,
                    struct diag_list *diags)
{
    for (; a->collector < c->opts.ncollectors; a->collector++) {
        const struct collector *col = &c->opts.collectors[a->collector];
        struct collect_run run = {.input = c->inputs[a->input], .input_name = a->name,
                                  .outcome = a->outcome.data, .result = a->main};
        if (!helper && col->ops->helper) {
            str_list_free(&a->helper_argv);
            str_list_free(&a->helper_env);
            if (col->ops->helper(col, &run, &a->helper_argv, &a->helper_env)) {
                a->helper_pending = true;
                return true;
            }
        }
        if (!col->ops->collect(col, &run, helper, &a->features, diags))
            return false;
        helper = NULL;
    }
    unlink_active(c, a);
    bool ok = record(c, a, diags);
    active_free(a);
    return ok;
}

enum campaign_state campaign_step(struct campaign *c, int wait_ms, struct diag_list *diags)
{
    if (c->failed)
        return CAMPAIGN_FAILED;
    /* Helpers first: they finish inputs that already ran. */
    for (struct active *a = c->actives; a && runner_has_slot(c->runner); a = a->next)
        if (a->helper_pending && !start_helper(c, a, diags))
            return CAMPAIGN_FAILED;
    while (runner_has_slot(c->runner) && start_next(c, diags))
        ;
    if (c->failed)
        return CAMPAIGN_FAILED;
    struct runner_result *res = runner_poll(c->runner, wait_ms);
    if (res) {
        struct active *a = res->user;
        bool ok;
        if (!a->main) {
            a->main = res;
            a->main_ended = now_s();
            runner_outcome(res, &a->outcome);
            /* The run is recorded either way; a command failing alike stops after. */
            bool early_ok = early_check(c, a, diags);
            if (!early_ok && strncmp(a->outcome.data, "error:", 6)) {
                /* Start no more inputs, but let the runs under way finish:
                 * a run whose own program has ended may still need a
                 * collector's helper (gcov, --features-cmd) before it is
                 * recorded, and "failed for each of the first N inputs"
                 * must leave N records, not N - 1. */
                c->next_todo = c->ntodo;
                c->stopping = true;
                early_ok = true;
            }
            /* The next input's program runs while this one is collected,
             * recorded and its directory emptied (with -j 1 too).  Not when
             * a helper may follow: it goes first. */
            if (early_ok && !c->helpers) {
                while (runner_has_slot(c->runner) && start_next(c, diags))
                    ;
                a->main_ended = now_s(); /* that start is the next run's time */
            }
            bool started = !c->failed; /* the run that ended is recorded either way */
            ok = advance(c, a, NULL, diags) && early_ok && started;
        } else {
            ok = advance(c, a, res, diags); /* may free a */
            runner_result_free(res);
        }
        if (!ok) {
            c->failed = true;
            campaign_stop(c);
            return CAMPAIGN_FAILED;
        }
    }
    if (!c->actives && c->next_todo >= c->ntodo) {
        if (c->stopping)
            c->failed = true;
        return c->stopping ? CAMPAIGN_FAILED : CAMPAIGN_DONE;
    }
    return CAMPAIGN_RUNNING;
}

void campaign_stop(struct campaign *c)
{
    runner_kill_all(c->runner);
    while (c->actives) {
        struct active *a = c->actives;
        c->actives = a->next;
        active_free(a);
    }
    c->next_todo = c->ntodo;
}

void campaign_get_progress(const struct campaign *c, struct campaign_progress *p)
{
    *p = c->progress;
    p->escaped = runner_escaped(c->runner);
    p->elapsed_s = now_s() - c->started;
}

const struct results *campaign_results(const struct campaign *c)
{
    return &c->results;
}

void campaign_free(struct campaign *c)
{
    if (!c)
        return;
    if (c->runner) {
        campaign_stop(c);
        runner_free(c->runner);
    }
    if (c->fd >= 0)
        close(c->fd);
    results_free(&c->results);
    str_list_free(&c->main_env);
    free(c->todo);
    free(c->early_outcome);
    free(c->early_stderr_line);
    free(c);
}
