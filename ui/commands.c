/* commands: the ':' command line, with the CLI's vocabulary (commands.h).
 * One table (COMMAND_TABLE, command_table.h) gives each command's
 * arguments, completion and help; Tab completion reads it here, the help
 * overlay through command_table.c.  Errors go to the status line and never
 * end the program.  The app layer (see ui.h): commands reach the panes
 * through their helpers and ops, and are run from the top (ui_command). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file_hint.h"
#include "formats/grammar_write.h"
#include "lesson.h"
#include "base/number.h"
#include "base/outdir.h"
#include "parse/parse.h"
#include "graph/pattern.h"
#include "app_jobs.h"
#include "command_table.h"
#include "commands.h"
#include "draw.h"
#include "features_job.h"
#include "generalize_view.h"
#include "job.h"
#include "lessons.h"
#include "messages.h"
#include "runs_job.h"
#include "runs_shrink.h"
#include "session.h"
#include "svg.h"
#include "graph/layout.h"
#include "graph/picture.h"
#include "base/xalloc.h"
#include "workspace/workspace_export.h"
#include "workspace/workspace_file.h"

enum arg_kind {
    ARG_NONE, ARG_FILE, ARG_RULE, ARG_NODE, ARG_STRATEGY, ARG_CLOSEOFF, ARG_THEME, ARG_FILTER,
    ARG_LESSON
};

struct cmd_args {
    int argc;
    char **argv;      /* argv[0] is the command name */
    const char *rest; /* the text after the name, as typed */
    bool force;       /* the name ended with '!' */
};

typedef void cmd_fn(struct ui *ui, const struct cmd_args *a);

#define DECLARE(name, fn, args, kind, help) static cmd_fn fn;
COMMAND_TABLE(DECLARE)
#undef DECLARE

static const struct command {
    const char *name;
    cmd_fn *fn;
    const char *args;
    enum arg_kind kind;
    const char *help;
} commands[] = {
#define ENTRY(name, fn, args, kind, help) {name, fn, args, kind, help},
    COMMAND_TABLE(ENTRY)
#undef ENTRY
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const struct command *find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* ---- arguments ------------------------------------------------------------------- */

static void split(const char *line, struct cmd_args *a)
{
    size_t cap = 0;
    const char *p = line;
    a->argc = 0;
    a->argv = NULL;
    a->rest = "";
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        if (a->argc == 1)
            a->rest = p;
        struct strbuf w = STRBUF_INIT;
        char quote = 0;
        while (*p && (quote || (*p != ' ' && *p != '\t'))) {
            if (quote) {
                if (*p == quote) {
                    quote = 0;
                    p++;
                    continue;
                }
                if (*p == '\\' && quote == '"' && p[1]) {
                    p++;
                }
            } else if (*p == '"' || *p == '\'') {
                quote = *p++;
                continue;
            }
            strbuf_addch(&w, *p++);
        }
        if (!w.data)
            strbuf_addstr(&w, "");
        a->argv = xgrow(a->argv, &cap, (size_t)a->argc + 2, sizeof *a->argv);
        a->argv[a->argc++] = strbuf_detach(&w, NULL);
    }
    a->argv = xgrow(a->argv, &cap, (size_t)a->argc + 1, sizeof *a->argv);
    a->argv[a->argc] = NULL;
}

static void args_free(struct cmd_args *a)
{
    for (int i = 0; i < a->argc; i++)
        free(a->argv[i]);
    free(a->argv);
}

static bool arg_u32(struct ui *ui, const char *what, const char *s, uint32_t min, uint32_t max,
                    uint32_t *out)
{
    uint64_t v;
    if (!s || !number_parse_u64(s, &v) || v < min || v > max) {
        ui_error(ui, "%s must be a number from %u to %u", what, min, max);
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

static bool need_args(struct ui *ui, const struct cmd_args *a, int min, int max)
{
    int n = a->argc - 1;
    if (n >= min && n <= max)
        return true;
    const struct command *c = find(a->argv[0]);
    ui_error(ui, "usage: :%s %s", a->argv[0], c ? c->args : "");
    return false;
}

static void changed(struct ui *ui)
{
    ui_workspace_changed(ui);
}

/* ---- commands ------------------------------------------------------------------------ */

static void cmd_k(struct ui *ui, const struct cmd_args *a)
{
    uint32_t k;
    if (!need_args(ui, a, 1, 1) || !arg_u32(ui, "k", a->argv[1], 1, KPATH_MAX_K, &k))
        return;
    struct diag_list d = DIAG_LIST_INIT;
    if (!workspace_set_k(ui->ws, k, &d)) {
        ui_diags(ui, &d);
        return;
    }
    diag_list_free(&d);
    changed(ui);
    struct workspace *ws = ui->ws;
    if (ws->space.saturated)
        ui_message(ui, "k=%u: more than 2^64 k-paths", k);
    else
        ui_message(ui, "k=%u: %" PRIu64 " k-paths, %" PRIu64 " covered", k, ws->space.total,
                   ws->covered.size);
}

static void cmd_load(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 1, 1))
        return;
    if (ui->ws->dirty && !a->force) {
        ui_error(ui, "unsaved work: :save FILE first, or :load! %s", a->argv[1]);
        return;
    }
    /* a typo or a directory: said as on the command line, with a
     * did-you-mean among the files next to it (file_hint.h) */
    struct strbuf why = STRBUF_INIT;
    if (file_hint_missing(a->argv[1], NULL, "; ", &why)) {
        ui_error(ui, "%s", strbuf_str(&why));
        strbuf_free(&why);
        return;
    }
    strbuf_free(&why);
    struct diag_list d = DIAG_LIST_INIT;
    struct workspace *ws = workspace_new(a->argv[1], NULL, &d);
    if (!ws) {
        ui_diags(ui, &d);
        return;
    }
    ui_set_workspace(ui, ws);
    if (d.len)
        ui_diags(ui, &d);
    else
        ui_message(ui, "loaded %s: %u rules, %u nodes", a->argv[1], ws->grammar->nrules,
                   ws->graph->nnodes);
    diag_list_free(&d);
}

static void cmd_samples(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 1, 1000))
        return;
    ui_start_samples(ui, a->argv + 1, (size_t)a->argc - 1);
}

static void start_job(struct ui *ui, uint32_t count)
{
    struct diag_list d = DIAG_LIST_INIT;
    if (!workspace_gen_start(ui->ws, count, &d)) {
        ui_diags(ui, &d);
        return;
    }
    diag_list_free(&d);
    ui->job = JOB_RUN;
    ui->job_inputs_before = ui->ws->ninputs;
    ui->job_started = ui_now();
    ui_job_slice(ui, 0.02);
}

static void cmd_gen(struct ui *ui, const struct cmd_args *a)
{
    uint32_t n;
    if (!need_args(ui, a, 1, 2) || !arg_u32(ui, "N", a->argv[1], 1, 10000000, &n))
        return;
    if (a->argc == 3 && !gen_strategy_parse(a->argv[2], &ui->ws->gen_opts.strategy)) {
        ui_error(ui, "no strategy '%s' (kpath, random, coverage, prob)", a->argv[2]);
        return;
    }
    start_job(ui, n);
}

static void cmd_cover(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 0, 0))
        return;
    enum gen_strategy before = ui->ws->gen_opts.strategy;
    ui->ws->gen_opts.strategy = GEN_KPATH;
    /* covering takes the k-path strategy; the one chosen before (prob after
     * U) comes back when the run ends, and its message says so */
    ui->cover_restores = before != GEN_KPATH;
    ui->cover_strategy = before;
    start_job(ui, 0);
    if (ui->cover_restores && ui->job != JOB_RUN) { /* it did not start */
        ui->cover_restores = false;
        ui->ws->gen_opts.strategy = before;
    }
}

static void cmd_step(struct ui *ui, const struct cmd_args *a)
{
    uint32_t n = 1;
    if (!need_args(ui, a, 0, 1) || (a->argc == 2 && !arg_u32(ui, "N", a->argv[1], 1, 100000000, &n)))
        return;
    ui_focus(ui, PANE_STEPPER);
    for (uint32_t i = 0; i < n; i++)
        if (!workspace_gen_step(ui->ws))
            break;
    if (ui->ws->gen_error)
        ui_error(ui, "%s", ui->ws->gen_error);
}

/* :run [--gcov DIR [--lines]] [--timeout S] [-j N] [--max-memory N]
 * [--results FILE] [--] COMMAND [ARG...]: kpath run on the workspace's
 * inputs, as a job (runs.c). */
static void cmd_run(struct ui *ui, const struct cmd_args *a)
{
    runs_start(ui, a->argv + 1, a->argc - 1, a->force);
}

/* :shrink [--timeout S] [--max-memory N]: kpath shrink on the input of the
 * runs view's selected failed run, keeping its outcome, as a job
 * (runs_shrink.c); Z does the same. */
static void cmd_shrink(struct ui *ui, const struct cmd_args *a)
{
    runs_shrink_start(ui, a->argv + 1, a->argc - 1);
}

/* :generalize [OPTIONS] SAMPLE|DIR... -- COMMAND [ARG...]: kpath generalize
 * on the explored grammar's file, as a job (generalize_view.c); alone, it
 * shows the last one.  :learned [FILE] explores what it learned. */
static void cmd_generalize(struct ui *ui, const struct cmd_args *a)
{
    generalize_job_start(ui, a->argv + 1, a->argc - 1, a->force);
}

static void cmd_learned(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 0, 1))
        return;
    generalize_learned(ui, a->argc == 2 ? a->argv[1] : NULL, a->force);
}

static void cmd_learn(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 0, 0))
        return;
    struct workspace *ws = ui->ws;
    if (!workspace_probs_learn(ws)) {
        ui_error(ui, "no samples to learn from: :samples FILE|DIR loads some");
        return;
    }
    ui->prows_stale = true;
    ui_message(ui, "learned from %zu sample%s%s", ws->learned.samples,
               ws->learned.samples == 1 ? "" : "s",
               ws->learned.ambiguous ? " (ambiguous ones: their first tree)" : "");
}

static void cmd_invert(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 0, 0))
        return;
    if (!probs_invertible(ui->ws)) {
        ui_error(ui, PROBS_NOTHING_TO_INVERT);
        return;
    }
    workspace_probs_invert(ui->ws);
    ui->prows_stale = true;
    ui_message(ui, "probabilities inverted");
}

static void cmd_probs(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 0, 1))
        return;
    workspace_probs_reset(ui->ws);
    ui->prows_stale = true;
    ui_message(ui, "probabilities: the grammar's own");
}

static void cmd_prob(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 3, 3))
        return;
    struct workspace *ws = ui->ws;
    uint32_t rule = grammar_find_rule(ws->grammar, a->argv[1]);
    if (rule == RULE_NONE) {
        ui_error(ui, "no rule '%s'", a->argv[1]);
        return;
    }
    uint32_t which = 1, alt;
    const char *dot = strchr(a->argv[2], '.');
    char altbuf[32];
    snprintf(altbuf, sizeof altbuf, "%s", dot ? dot + 1 : a->argv[2]);
    if (dot) {
        char wb[32];
        snprintf(wb, sizeof wb, "%.*s", (int)(dot - a->argv[2]), a->argv[2]);
        if (!arg_u32(ui, "the alternation number", wb, 1, 1000000, &which))
            return;
    }
    if (!arg_u32(ui, "ALT", altbuf, 1, 1000000, &alt))
        return;
    uint32_t node = workspace_rule_alt_node(ws, rule, which);
    if (node == NODE_NONE) {
        ui_error(ui, "%s has no alternation %u", a->argv[1], which);
        return;
    }
    if (alt > ws->graph->nodes[node].nchildren) {
        ui_error(ui, "%s has %u alternatives there", a->argv[1], ws->graph->nodes[node].nchildren);
        return;
    }
    char *end;
    errno = 0;
    double v = strtod(a->argv[3], &end);
    if (end != a->argv[3] && *end == '%' && end[1] == '\0') {
        v /= 100.0;
    } else if (end == a->argv[3] || *end || errno) {
        ui_error(ui, "VALUE must be a probability: 0.3 or 30%%");
        return;
    }
    if (!workspace_probs_set(ws, node, alt - 1, v)) {
        ui_error(ui, "a probability is between 0 and 1 (0%% and 100%%)");
        return;
    }
    ui->prows_stale = true;
    ui_message(ui, "%s alternative %s: %.1f%%", a->argv[1], a->argv[2], v * 100.0);
}

/* After :dup or :undup gave the workspace a new graph: the panes' per-node
 * state starts over. */
static struct workspace *reattach_workspace(struct ui *ui)
{
    struct workspace *ws = ui->ws;
    ui->ws = NULL;
    ui_set_workspace(ui, ws);
    return ws;
}

static void cmd_dup(struct ui *ui, const struct cmd_args *a)
{
    uint32_t alt = 0, depth = 0;
    if (!need_args(ui, a, 1, 3) ||
        (a->argc >= 3 && !arg_u32(ui, "ALT", a->argv[2], 0, 1000000, &alt)) ||
        (a->argc >= 4 && !arg_u32(ui, "DEPTH", a->argv[3], 0, 1000000, &depth)))
        return;
    struct diag_list d = DIAG_LIST_INIT;
    uint32_t before = ui->ws->grammar->nrules;
    if (!workspace_dup(ui->ws, a->argv[1], alt, depth, &d)) {
        ui_diags(ui, &d);
        return;
    }
    diag_list_free(&d);
    struct workspace *ws = reattach_workspace(ui);
    struct strbuf count = STRBUF_INIT;
    number_add_count(&count, ws->space.saturated ? UINT64_MAX : ws->space.total);
    ui_message(ui, "duplicated: %u rules (was %u), %s %u-paths; inputs parsed again (:undup undoes)",
               ws->grammar->nrules, before, strbuf_str(&count), ws->k);
    strbuf_free(&count);
}

static void cmd_undup(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 0, 0))
        return;
    struct diag_list d = DIAG_LIST_INIT;
    uint32_t before = ui->ws->grammar->nrules;
    if (!workspace_undup(ui->ws, &d)) {
        ui_diags(ui, &d);
        return;
    }
    diag_list_free(&d);
    struct workspace *ws = reattach_workspace(ui);
    ui_message(ui, "duplication undone: %u rules (was %u), %zu duplication%s left; inputs parsed again",
               ws->grammar->nrules, before, ws->ndups, ws->ndups == 1 ? "" : "s");
}

static void cmd_pin(struct ui *ui, const struct cmd_args *a)
{
    struct workspace *ws = ui->ws;
    struct strbuf text = STRBUF_INIT;
    if (a->argc > 1) {
        strbuf_addstr(&text, a->rest);
    } else if (ui->detail_of == PANE_GRAPH) {
        uint32_t n = graph_selected_node(ui);
        if (n != NODE_NONE)
            graph_node_name(ws->graph, n, &text);
    } else {
        uint32_t *path = xmalloc((ws->k + 1) * sizeof *path);
        if (kpaths_selected(ui, path, NULL))
            workspace_path_name(ws, path, ws->k, " ", &text);
        free(path);
    }
    if (!text.len) {
        ui_error(ui, "usage: :pin PATH (or select a k-path or node)");
        return;
    }
    struct diag_list d = DIAG_LIST_INIT;
    if (workspace_pin(ws, strbuf_str(&text), &d) && (ui_workspace_changed(ui), true))
        ui_message(ui, "pinned %s: %" PRIu64 " k-paths under the pins, %" PRIu64
                       " covered in context", strbuf_str(&text), workspace_count(ws, WS_ALL),
                   workspace_count(ws, WS_COVERED));
    else
        ui_diags(ui, &d);
    diag_list_free(&d);
    strbuf_free(&text);
}

/* "1 A_3 -> B_5; 2 C_7": the active pins, numbered as :unpin N takes them. */
static void add_pin_list(const struct workspace *ws, struct strbuf *out)
{
    for (size_t i = 0; i < ws->pins.len; i++) {
        strbuf_addf(out, "%s%zu ", i ? "; " : "", i + 1);
        pin_format(ws->graph, &ws->pins.pins[i], out);
    }
}

static void cmd_pins(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 0, 0))
        return;
    if (!ui->ws->pins.len) {
        ui_message(ui, "no pins: P pins the selection, :pin PATH a context");
        return;
    }
    struct strbuf list = STRBUF_INIT;
    add_pin_list(ui->ws, &list);
    ui_message(ui, "pins: %s (:unpin N removes one)", strbuf_str(&list));
    strbuf_free(&list);
}

static void cmd_unpin(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 0, 1))
        return;
    if (a->argc > 1) {
        char *end = NULL;
        unsigned long n = strtoul(a->argv[1], &end, 10);
        size_t len = ui->ws->pins.len;
        if (!*a->argv[1] || *end || n == 0 || n > len) {
            if (len)
                ui_error(ui, "no pin '%s': the pins are 1 to %zu (:pins lists them)", a->argv[1], len);
            else
                ui_error(ui, "no pin '%s': there are no pins", a->argv[1]);
            return;
        }
        struct strbuf gone = STRBUF_INIT;
        pin_format(ui->ws->graph, &ui->ws->pins.pins[n - 1], &gone);
        workspace_unpin_at(ui->ws, n - 1);
        ui_workspace_changed(ui);
        struct strbuf left = STRBUF_INIT;
        add_pin_list(ui->ws, &left);
        ui_message(ui, "pin %lu (%s) removed; %s%s", n, strbuf_str(&gone),
                   left.len ? "pins left: " : "", left.len ? strbuf_str(&left) : "no pins left");
        strbuf_free(&gone);
        strbuf_free(&left);
        return;
    }
    size_t n = ui->ws->pins.len;
    workspace_unpin(ui->ws);
    ui_workspace_changed(ui);
    ui_message(ui, "%zu pin%s removed", n, n == 1 ? "" : "s");
}

/* The path of PATH arguments, or the selected k-path. */
static bool path_arg(struct ui *ui, const struct cmd_args *a, uint32_t **path, uint32_t *len)
{
    struct workspace *ws = ui->ws;
    if (a->argc > 1) {
        struct diag_list d = DIAG_LIST_INIT;
        if (!workspace_parse_path(ws, a->rest, path, len, &d)) {
            ui_diags(ui, &d);
            return false;
        }
        diag_list_free(&d);
        return true;
    }
    *path = xmalloc((ws->k + 1) * sizeof **path);
    *len = ws->k;
    if (!kpaths_selected(ui, *path, NULL)) {
        free(*path);
        ui_error(ui, "no k-path selected");
        return false;
    }
    return true;
}

static void cmd_pattern(struct ui *ui, const struct cmd_args *a)
{
    uint32_t *path, len;
    if (!path_arg(ui, a, &path, &len))
        return;
    struct strbuf out = STRBUF_INIT;
    struct diag_list d = DIAG_LIST_INIT;
    struct pattern_options marked = {.mark = true};
    if (pattern_render(ui->ws->graph, path, len, &marked, &out, &d))
        ui_message(ui, "pattern: %s", strbuf_str(&out));
    else
        ui_diags(ui, &d);
    diag_list_free(&d);
    strbuf_free(&out);
    free(path);
}

static void cmd_why(struct ui *ui, const struct cmd_args *a)
{
    struct workspace *ws = ui->ws;
    uint32_t *path, len;
    if (!path_arg(ui, a, &path, &len))
        return;
    uint64_t rank;
    if (len != ws->k || !kpath_rank(&ws->space, path, &rank)) {
        ui_error(ui, "not a %u-path of the grammar", ws->k);
        free(path);
        return;
    }
    free(path);
    if (!workspace_rank_covered(ws, rank))
        ui->filter = WS_UNCOVERED;
    else if (ui->filter == WS_UNCOVERED)
        ui->filter = WS_ALL;
    ui_carry_out(ui, kpaths_narrow(ui, NULL)); /* the k-path asked for must be in the list */
    ui->list[PANE_KPATHS].cursor = workspace_position(ws, ui->filter, rank);
    ui->list[PANE_KPATHS].top = ui->list[PANE_KPATHS].cursor;
    ui->detail_of = PANE_KPATHS;
    ui_focus(ui, PANE_DETAIL);
    ui->list[PANE_DETAIL].cursor = 0;
}

/* The inputs export writes: the marked ones, or the selected one. */
static size_t export_which(struct ui *ui, size_t **which, bool *selected_only)
{
    struct workspace *ws = ui->ws;
    size_t n = 0;
    *which = xmalloc((ws->ninputs + 1) * sizeof **which);
    for (size_t i = 0; i < ws->ninputs; i++)
        if (ws->inputs[i].marked)
            (*which)[n++] = i;
    *selected_only = n == 0;
    if (*selected_only) {
        size_t sel = inputs_selected(ui); /* in the list of inputs or of runs */
        if (sel != SIZE_MAX)
            (*which)[n++] = sel;
    }
    return n;
}

/* What export! into dir would do to the test cases there (outdir.h: the
 * numbered cases this run does not write are removed, those it writes are
 * replaced); false when dir is no directory. */
static bool export_plan(const char *dir, size_t n, size_t *replaced, size_t *removed)
{
    *replaced = *removed = 0;
    DIR *d = opendir(dir);
    if (!d)
        return false;
    struct dirent *e;
    struct strbuf name = STRBUF_INIT;
    while ((e = readdir(d))) {
        if (!outdir_is_case_name(e->d_name, ".txt"))
            continue;
        bool written = false;
        for (size_t i = 0; i < n && !written; i++) {
            strbuf_reset(&name);
            outdir_case_name(&name, i + 1, n, ".txt");
            written = strcmp(strbuf_str(&name), e->d_name) == 0;
        }
        ++*(written ? replaced : removed);
    }
    strbuf_free(&name);
    closedir(d);
    return true;
}

static void export_now(struct ui *ui, const char *dir, bool force)
{
    struct workspace *ws = ui->ws;
    bool selected_only;
    size_t *which, n = export_which(ui, &which, &selected_only);
    size_t replaced = 0, removed = 0;
    if (force)
        export_plan(dir, n, &replaced, &removed);
    struct strbuf report = STRBUF_INIT;
    struct diag_list d = DIAG_LIST_INIT;
    bool ok = workspace_export(ws, dir, which, n, force, &report, &d);
    free(which);
    if (ok) {
        if (!selected_only)
            ui->marks_exported = true;
        if (removed)
            strbuf_addf(&report, "; removed %zu old test case%s", removed, removed == 1 ? "" : "s");
        ui_message(ui, "%s%s", strbuf_str(&report), selected_only ? " (the selected input: none marked)" : "");
    } else {
        struct strbuf first = STRBUF_INIT;
        if (d.len)
            diag_format(&d.items[0], &first);
        ui_error(ui, "%s%s%s%s", strbuf_str(&first), report.len ? "; " : "", strbuf_str(&report),
                 strstr(strbuf_str(&first), "not empty") ? " (:export! DIR replaces them)" : "");
        strbuf_free(&first);
    }
    diag_list_free(&d);
    strbuf_free(&report);
}

static void export_confirmed(struct ui *ui)
{
    char *dir = ui->pending_export;
    ui->pending_export = NULL;
    if (dir)
        export_now(ui, dir, true);
    free(dir);
}

static void export_declined(struct ui *ui)
{
    free(ui->pending_export);
    ui->pending_export = NULL;
    ui_message(ui, "export cancelled; nothing was written");
}

static void cmd_export(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 1, 2))
        return;
    struct workspace *ws = ui->ws;
    bool force = a->force || (a->argc == 3 && strcmp(a->argv[2], "--force") == 0);
    if (a->argc == 3 && !force) {
        ui_error(ui, "usage: :export DIR [--force]");
        return;
    }
    if (!ws->ninputs) {
        ui_error(ui, "no inputs to export");
        return;
    }
    size_t replaced = 0, removed = 0;
    bool selected_only;
    size_t *which, n = export_which(ui, &which, &selected_only);
    free(which);
    if (n == 0) {
        ui_error(ui, "the selected run's input is no longer in the workspace: nothing to export");
        return;
    }
    if (force && export_plan(a->argv[1], n, &replaced, &removed) && (replaced || removed)) {
        /* export! replaces a suite: say what goes, and ask (scripts answer
         * with a y or n line, like a user) */
        struct strbuf q = STRBUF_INIT;
        strbuf_addf(&q, "export! writes %zu file%s to %s: %zu replaced, %zu removed. Go on? (y/n)", n,
                    n == 1 ? "" : "s", a->argv[1], replaced, removed);
        free(ui->pending_export);
        ui->pending_export = xstrdup(a->argv[1]);
        ui_ask(ui, strbuf_str(&q), export_confirmed, export_declined);
        strbuf_free(&q);
        return;
    }
    export_now(ui, a->argv[1], force);
}

static void cmd_theme(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 1, 1))
        return;
    ui_set_theme(ui, a->argv[1], false);
}

static void reset_generator(struct ui *ui)
{
    workspace_gen_reset(ui->ws, false);
}

static void cmd_seed(struct ui *ui, const struct cmd_args *a)
{
    uint64_t v;
    if (!need_args(ui, a, 1, 1))
        return;
    if (!number_parse_u64(a->argv[1], &v)) {
        ui_error(ui, "the seed is a number");
        return;
    }
    ui->ws->gen_opts.seed = v;
    reset_generator(ui);
    ui_message(ui, "seed %" PRIu64, v);
}

static void cmd_depth(struct ui *ui, const struct cmd_args *a)
{
    uint32_t v;
    if (!need_args(ui, a, 1, 1) || !arg_u32(ui, "the depth limit", a->argv[1], 1, 100000, &v))
        return;
    ui->ws->gen_opts.max_depth = v;
    reset_generator(ui);
    ui_message(ui, "depth limit %u", v);
}

static void cmd_repetitions(struct ui *ui, const struct cmd_args *a)
{
    uint32_t v;
    if (!need_args(ui, a, 1, 1) || !arg_u32(ui, "the repetition limit", a->argv[1], 1, 100000, &v))
        return;
    ui->ws->gen_opts.max_repetitions = v;
    reset_generator(ui);
    ui_message(ui, "at most %u repetitions", v);
}

static void cmd_strategy(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 1, 1))
        return;
    if (!gen_strategy_parse(a->argv[1], &ui->ws->gen_opts.strategy)) {
        ui_error(ui, "no strategy '%s' (kpath, random, coverage, prob)", a->argv[1]);
        return;
    }
    reset_generator(ui);
    ui_message(ui, "strategy %s", a->argv[1]);
}

static void cmd_closeoff(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 1, 1))
        return;
    if (!gen_closeoff_parse(a->argv[1], &ui->ws->gen_opts.closeoff)) {
        ui_error(ui, "no close-off '%s' (shortest, random, greedy)", a->argv[1]);
        return;
    }
    reset_generator(ui);
    ui_message(ui, "close-off %s", a->argv[1]);
}

static void cmd_filter(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 1, 1))
        return;
    const char *w = a->argv[1];
    if (strcmp(w, "uncovered") == 0)
        ui->filter = WS_UNCOVERED;
    else if (strcmp(w, "covered") == 0)
        ui->filter = WS_COVERED;
    else if (strcmp(w, "all") == 0)
        ui->filter = WS_ALL;
    else {
        ui_error(ui, "filter: uncovered, covered or all");
        return;
    }
    ui->list[PANE_KPATHS].cursor = ui->list[PANE_KPATHS].top = 0;
    ui_message(ui, "showing %s k-paths", w);
}

/* As typed: the terminal runs it again at every key while the command line
 * reads "narrow ..." (F starts it), so the list narrows as you type. */
static void cmd_narrow(struct ui *ui, const struct cmd_args *a)
{
    const char *text = a->rest;
    while (*text == ' ')
        text++;
    struct pane_request narrowed = kpaths_narrow(ui, text);
    if (narrowed.kind == REQ_ERROR) {
        ui_carry_out(ui, narrowed);
        return;
    }
    pane_request_free(&narrowed);
    ui_focus(ui, PANE_KPATHS);
    if (*text)
        ui_message(ui, "%" PRIu64 " k-path%s containing \"%s\" (:narrow alone shows all)",
                   kpaths_count(ui), kpaths_count(ui) == 1 ? "" : "s", text);
    else
        ui_message(ui, "showing every %s k-path", ws_filter_name(ui->filter));
}

static void cmd_coverage(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 0, 0))
        return;
    struct workspace *ws = ui->ws;
    struct strbuf sb = STRBUF_INIT;
    for (uint32_t j = 1; j <= ws->k && j <= 8; j++) {
        struct kpath_space sp;
        kpath_space_init(&sp, ws->graph, j);
        struct kpath_set set;
        kpath_set_init(&set, &sp);
        for (size_t i = 0; i < ws->ninputs; i++) {
            const struct ws_input *in = &ws->inputs[i];
            if (in->forest)
                forest_add_kpaths(in->forest, &set);
            else if (in->has_tree)
                derivation_add_kpaths(&in->tree, &set);
        }
        strbuf_addf(&sb, "%sk=%u %" PRIu64 "/", j > 1 ? ", " : "", j, set.size);
        number_add_count(&sb, sp.saturated ? UINT64_MAX : sp.total);
        kpath_set_free(&set);
        kpath_space_free(&sp);
    }
    ui_message(ui, "coverage: %s", strbuf_str(&sb));
    strbuf_free(&sb);
}

static void cmd_clear(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 0, 0))
        return;
    struct workspace *ws = ui->ws;
    workspace_gen_reset(ws, false);
    bool *keep = xmalloc((ws->ninputs + 1) * sizeof *keep);
    size_t removed = 0;
    for (size_t i = 0; i < ws->ninputs; i++) {
        keep[i] = ws->inputs[i].sample != NULL;
        removed += !keep[i];
    }
    workspace_remove_inputs(ws, keep);
    free(keep);
    changed(ui);
    ui_message(ui, "%zu generated input%s removed", removed, removed == 1 ? "" : "s");
}

static void cmd_save(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 0, 1))
        return;
    const char *path = a->argc == 2 ? a->argv[1] : ui->ws->file;
    if (!path) {
        ui_error(ui, "usage: :save FILE (this workspace has no file yet)");
        return;
    }
    char *copy = xstrdup(path);
    struct diag_list d = DIAG_LIST_INIT;
    if (workspace_save(ui->ws, copy, &d)) {
        ui_message(ui, "saved %s", copy);
        ui_autosave_rekey(ui); /* from now on the autosave is of this file */
    } else
        ui_diags(ui, &d);
    diag_list_free(&d);
    free(copy);
}

static void cmd_open(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 1, 1))
        return;
    if (ui->ws->dirty && !a->force) {
        ui_error(ui, "unsaved work: :save FILE first, or :open! %s", a->argv[1]);
        return;
    }
    struct diag_list d = DIAG_LIST_INIT;
    struct workspace *ws = workspace_open(a->argv[1], &d);
    if (!ws) {
        ui_diags(ui, &d);
        return;
    }
    ui_set_workspace(ui, ws);
    if (d.len)
        ui_diags(ui, &d);
    else
        ui_message(ui, "opened %s: %zu input%s, k=%u", a->argv[1], ws->ninputs,
                   ws->ninputs == 1 ? "" : "s", ws->k);
    diag_list_free(&d);
}

static bool write_whole(struct ui *ui, const char *path, const struct strbuf *sb)
{
    struct diag_list d = DIAG_LIST_INIT;
    bool ok = write_file_atomic(path, sb->data ? sb->data : "", sb->len, &d);
    if (!ok)
        ui_diags(ui, &d);
    diag_list_free(&d);
    return ok;
}

static void cmd_dump(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 1, 1))
        return;
    ui_draw(ui);
    struct strbuf sb = STRBUF_INIT;
    screen_dump(&ui->scr, &sb);
    /* What text cannot show: the selected rows (0-based screen rows). */
    strbuf_addstr(&sb, "-- selected:");
    const struct screen *s = &ui->scr;
    for (int y = 0; y < s->h; y++) {
        int flags = 0;
        for (int x = 0; x < s->w; x++)
            flags |= s->cells[(size_t)y * (size_t)s->w + (size_t)x].style;
        if (flags & STYLE_SELECTED)
            strbuf_addf(&sb, " %d (focused)", y);
        else if (flags & STYLE_SELECTED_BLUR)
            strbuf_addf(&sb, " %d", y);
    }
    strbuf_addch(&sb, '\n');
    /* and what only colour shows: the highlighted tab, the focused pane's
     * title (the first row drawn in each style) */
    static const struct {
        const char *label;
        int style;
    } marks[] = {{"-- tab:", EL_TAB_ACTIVE}, {"-- focused title:", EL_TITLE_FOCUS},
                 {"-- search highlight:", EL_SEARCH}};
    for (size_t m = 0; m < sizeof marks / sizeof marks[0]; m++) {
        strbuf_addstr(&sb, marks[m].label);
        for (int y = 0; y < s->h; y++) {
            bool found = false;
            struct strbuf run = STRBUF_INIT;
            /* the runs of the style on this row, as text up to a gap */
            for (int x = 0; x <= s->w; x++) {
                const struct cell *c = x < s->w ? &s->cells[(size_t)y * (size_t)s->w + (size_t)x] : NULL;
                if (c && (c->style & STYLE_ELEMENT_MASK) == marks[m].style) {
                    strbuf_add_utf8(&run, c->ch);
                    continue;
                }
                if (!run.len)
                    continue;
                char *gap = strstr(run.data + 1, "  ");
                if (gap)
                    *gap = '\0';
                strbuf_addf(&sb, " [%s]", run.data);
                strbuf_reset(&run);
                found = true;
            }
            strbuf_free(&run);
            if (found)
                break;
        }
        strbuf_addch(&sb, '\n');
    }
    write_whole(ui, a->argv[1], &sb);
    strbuf_free(&sb);
}

static void cmd_svg(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 1, 1))
        return;
    ui_draw(ui);
    struct strbuf sb = STRBUF_INIT;
    svg_render(&ui->scr, &ui->theme, &sb);
    if (write_whole(ui, a->argv[1], &sb))
        ui_message(ui, "wrote %s", a->argv[1]);
    strbuf_free(&sb);
}

/* ---- :compare: random against k-path generation ------------------------------------- */

#define COMPARE_MAX 1000 /* inputs per strategy: generated at once, in the foreground */

static void compare_draw(struct ui *ui, struct rect r)
{
    if (ui->compare_valid)
        plot_compare(&ui->scr, r, &ui->compare, ui->compare_by_input);
}

/* The curves' points (what search reads, and what :compare N FILE.csv
 * writes): per input, one line per input count; per byte, one line per
 * total of bytes at which either strategy's inputs end, up to the span. */
static void compare_points(const struct gen_compare *c, bool by_input, struct strbuf *out)
{
    if (by_input) {
        strbuf_addf(out, "inputs,random,kpath,total\n");
        for (size_t i = 0; i <= c->n; i++)
            strbuf_addf(out, "%zu,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", i,
                        gen_compare_at_input(c, COMPARE_RANDOM, i),
                        gen_compare_at_input(c, COMPARE_KPATH, i), c->total);
        return;
    }
    strbuf_addf(out, "bytes,random,kpath,total\n");
    size_t at[COMPARE_NSTRATEGIES] = {0};
    uint64_t b = 0;
    for (;;) {
        strbuf_addf(out, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", b,
                    gen_compare_at_bytes(c, COMPARE_RANDOM, b),
                    gen_compare_at_bytes(c, COMPARE_KPATH, b), c->total);
        /* the next total of bytes past b at which an input ends */
        uint64_t next = UINT64_MAX;
        for (int s = 0; s < COMPARE_NSTRATEGIES; s++) {
            while (at[s] < c->made[s] && c->bytes[s][at[s] + 1] <= b)
                at[s]++;
            if (at[s] < c->made[s] && c->bytes[s][at[s] + 1] < next)
                next = c->bytes[s][at[s] + 1];
        }
        if (next > c->span)
            break;
        b = next;
    }
}

static void compare_lines(struct ui *ui, int width, struct strbuf *out)
{
    (void)width;
    if (ui->compare_valid)
        compare_points(&ui->compare, ui->compare_by_input, out);
}

/* The keys the plot takes (app.c's overlay_key), for the footer. */
static const struct footer_key compare_footer[] = {
    {ACT_COMPARE_AXIS, "axis"}, {ACT_CANCEL, "close"}, {ACT_NONE, NULL},
};

const struct overlay_ops compare_overlay_ops = {
    " Coverage: random (r) vs k-path (k) generation (B switches axis, Esc closes)",
    compare_lines, compare_footer, compare_draw,
};

/* What the plot reads at the end of its axis, on the message line. */
static void compare_message(struct ui *ui)
{
    const struct gen_compare *c = &ui->compare;
    if (ui->compare_by_input)
        ui_message(ui, "after %zu inputs: random %" PRIu64 ", kpath %" PRIu64 " of %" PRIu64
                       " %u-paths (B: per byte)",
                   c->n, gen_compare_at_input(c, COMPARE_RANDOM, c->n),
                   gen_compare_at_input(c, COMPARE_KPATH, c->n), c->total, c->k);
    else
        ui_message(ui, "after %" PRIu64 " bytes: random %" PRIu64 ", kpath %" PRIu64 " of %" PRIu64
                       " %u-paths (B: per input)",
                   c->span, gen_compare_at_bytes(c, COMPARE_RANDOM, c->span),
                   gen_compare_at_bytes(c, COMPARE_KPATH, c->span), c->total, c->k);
}

void ui_compare_axis(struct ui *ui)
{
    ui->compare_by_input = !ui->compare_by_input;
    if (ui->compare_valid)
        compare_message(ui);
}

/* :compare N [FILE.svg|FILE.csv]: N inputs of each strategy from the
 * generator's settings (seed, depth, size, packing, close-off) at the
 * current k, the two curves on one plot, against bytes written or (B)
 * inputs; FILE gets the plot as SVG or the points as CSV, on that axis. */
static void cmd_compare(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 1, 2))
        return;
    uint32_t n;
    if (!number_parse_u32(a->argv[1], &n) || n == 0 || n > COMPARE_MAX) {
        ui_error(ui, ":compare takes a number of inputs from 1 to %u, not %s", COMPARE_MAX,
                 a->argv[1]);
        return;
    }
    const char *file = a->argc > 2 ? a->argv[2] : NULL, *dot = file ? strrchr(file, '.') : NULL;
    bool svg = dot && strcmp(dot, ".svg") == 0, csv = dot && strcmp(dot, ".csv") == 0;
    if (file && !svg && !csv) {
        ui_error(ui, "%s: :compare writes FILE.svg or FILE.csv", file);
        return;
    }
    struct workspace *ws = ui->ws;
    struct gen_options o = ws->gen_opts;
    o.k = ws->k;
    o.probabilities = NULL;
    o.pins = NULL;
    struct gen_compare c;
    char *error = NULL;
    if (!gen_compare_run(ws->graph, &o, n, &c, &error)) {
        ui_error(ui, ":compare: %s", error ? error : "the generator cannot start");
        free(error);
        return;
    }
    if (ui->compare_valid)
        gen_compare_free(&ui->compare);
    ui->compare = c;
    ui->compare_valid = true;
    ui_overlay(ui, OVERLAY_COMPARE);
    if (file) {
        struct strbuf sb = STRBUF_INIT;
        if (csv) {
            compare_points(&c, ui->compare_by_input, &sb);
        } else {
            struct screen off = {0};
            screen_resize(&off, 100, 30);
            screen_clear(&off, EL_NORMAL);
            plot_compare(&off, (struct rect){1, 1, 98, 28}, &c, ui->compare_by_input);
            svg_render(&off, &ui->theme, &sb);
            screen_free(&off);
        }
        if (write_whole(ui, file, &sb))
            ui_message(ui, "wrote %s", file);
        strbuf_free(&sb);
        return;
    }
    compare_message(ui);
}

/* :graph FILE: the nodes the tree view shows (its expanded nodes), laid
 * out as `kpath graph --svg` lays out the whole graph, or as DOT. */
static void cmd_graph_file(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 1, 1))
        return;
    const char *file = a->argv[1], *dot = strrchr(file, '.');
    bool svg = dot && strcmp(dot, ".svg") == 0;
    if (!svg && !(dot && strcmp(dot, ".dot") == 0)) {
        ui_error(ui, "%s: :graph writes FILE.svg or FILE.dot", file);
        return;
    }
    const struct graph *g = ui->ws->graph;
    uint32_t *widths = xcalloc(g->nnodes ? g->nnodes : 1, sizeof *widths);
    picture_widths(g, widths);
    struct graph_layout l;
    layout_compute(g, widths, ui->expanded, 2, &l);
    struct strbuf sb = STRBUF_INIT;
    if (svg)
        picture_svg(g, &l, &sb);
    else
        picture_dot(g, l.shown, &sb);
    if (write_whole(ui, file, &sb))
        ui_message(ui, "wrote %s: %u of %u nodes", file, l.nshown, g->nnodes);
    strbuf_free(&sb);
    layout_free(&l);
    free(widths);
}

/* How the theme shows on a terminal of N colours: one line per element,
 * its colours as the terminal gets them (palette indexes) and attributes. */
static void cmd_colours(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 0, 2))
        return;
    int n = ui->ncolors;
    const char *file = NULL;
    for (int i = 1; i < a->argc; i++) {
        uint32_t v;
        if (number_parse_u32(a->argv[i], &v) && (v == 8 || v == 16 || v == 88 || v == 256))
            n = (int)v;
        else if (strspn(a->argv[i], "0123456789") == strlen(a->argv[i])) {
            ui_error(ui, "a terminal has 8, 16, 88 or 256 colours, not %s", a->argv[i]);
            return;
        } else
            file = a->argv[i];
    }
    if (n <= 0) {
        ui_error(ui, ui->mono ? "no colours here (NO_COLOR, or the terminal has none): the mono lines apply"
                              : "this terminal's colours are not known here: :colours 8 (or 16, 256)");
        return;
    }
    static const char *const attr_names[] = {"bold", "dim", "underline", "reverse", "italic", "blink", "standout"};
    struct strbuf sb = STRBUF_INIT;
    int adjusted = 0;
    for (int e = 0; e < NELEMENTS; e++) {
        struct theme_shown t = theme_show(&ui->theme.el[e], n);
        size_t start = sb.len;
        strbuf_addf(&sb, "%-12s fg ", theme_element_names[e]);
        if (t.fg < 0)
            strbuf_addstr(&sb, "default");
        else
            strbuf_addf(&sb, "%d", t.fg);
        strbuf_addstr(&sb, " bg ");
        if (t.bg < 0)
            strbuf_addstr(&sb, "default");
        else
            strbuf_addf(&sb, "%d", t.bg);
        bool any = false;
        for (int b = 0; b < 7; b++)
            if (t.attrs & (1u << b)) {
                strbuf_addstr(&sb, any ? "," : " ");
                strbuf_addstr(&sb, attr_names[b]);
                any = true;
            }
        if (t.adjusted) {
            strbuf_addstr(&sb, " (changed to stay readable)");
            adjusted++;
        }
        if (!file)
            ui_log(ui, false, sb.data + start);
        strbuf_addch(&sb, '\n');
    }
    if (file) {
        if (write_whole(ui, file, &sb))
            ui_message(ui, "wrote %s", file);
    } else {
        ui_message(ui, "theme %s on %d colours: %d element%s changed to stay readable (M: which)",
                   ui->theme.name, n, adjusted, adjusted == 1 ? "" : "s");
    }
    strbuf_free(&sb);
}

static void cmd_resize(struct ui *ui, const struct cmd_args *a)
{
    uint32_t w, h;
    if (!need_args(ui, a, 2, 2) || !arg_u32(ui, "W", a->argv[1], 1, 1000, &w) ||
        !arg_u32(ui, "H", a->argv[2], 1, 1000, &h))
        return;
    if (!ui->script_mode) {
        ui_error(ui, ":resize is for scripts; resize the terminal instead");
        return;
    }
    screen_resize(&ui->scr, (int)w, (int)h);
}

static void cmd_messages(struct ui *ui, const struct cmd_args *a)
{
    if (need_args(ui, a, 0, 0))
        ui_overlay(ui, OVERLAY_MESSAGES);
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void cmd_lesson(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 0, 1))
        return;
    if (a->argc == 2 && strcmp(a->argv[1], "off") == 0) {
        lesson_free(ui->lesson);
        ui->lesson = NULL;
        ui_message(ui, "lesson closed");
        return;
    }
    if (a->argc == 2) {
        lessons_open(ui, a->argv[1]);
        return;
    }
    /* the bundled lessons, by name */
    char *dir = ui_lessons_dir(ui);
    DIR *d = dir ? opendir(dir) : NULL;
    struct strbuf names = STRBUF_INIT;
    char **list = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len > 7 && strcmp(e->d_name + len - 7, ".lesson") == 0) {
            list = xgrow(list, &cap, n + 1, sizeof *list);
            list[n++] = xmemdup(e->d_name, len - 7 + 1);
            list[n - 1][len - 7] = '\0';
        }
    }
    if (d)
        closedir(d);
    qsort(list, n, sizeof *list, compare_strings);
    for (size_t i = 0; i < n; i++) {
        strbuf_addf(&names, "%s%s", i ? ", " : "", list[i]);
        free(list[i]);
    }
    free(list);
    if (n)
        ui_message(ui, "lessons: %s (:lesson NAME opens one)", strbuf_str(&names));
    else
        ui_error(ui, "no lessons found%s%s", dir ? " in " : "", dir ? dir : "");
    strbuf_free(&names);
    free(dir);
}

static void cmd_footer(struct ui *ui, const struct cmd_args *a)
{
    if (!need_args(ui, a, 0, 0))
        return;
    ui->footer_hidden = !ui->footer_hidden;
    ui_message(ui, "footer %s", ui->footer_hidden ? "hidden (:footer shows it)" : "shown");
}

static void cmd_help(struct ui *ui, const struct cmd_args *a)
{
    (void)a;
    ui_overlay(ui, OVERLAY_HELP);
}

static void cmd_quit(struct ui *ui, const struct cmd_args *a)
{
    ui_request_quit(ui, a->force);
}

/* ---- running, help, completion ----------------------------------------------------------- */

void commands_run(struct ui *ui, const char *line)
{
    struct cmd_args a;
    split(line, &a);
    if (a.argc == 0) {
        args_free(&a);
        return;
    }
    size_t n = strlen(a.argv[0]);
    a.force = n > 1 && a.argv[0][n - 1] == '!';
    if (a.force)
        a.argv[0][n - 1] = '\0';
    const struct command *c = find(a.argv[0]);
    if (!c) {
        ui_error(ui, "no command ':%s'; :help lists them", a.argv[0]);
    } else {
        c->fn(ui, &a);
    }
    args_free(&a);
}

static int cmp_strp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char **matches_from(const char *const *cands, size_t n, const char *word)
{
    char **out = xcalloc(n + 1, sizeof *out);
    size_t m = 0, wl = strlen(word);
    for (size_t i = 0; i < n; i++)
        if (strncmp(cands[i], word, wl) == 0)
            out[m++] = xstrdup(cands[i]);
    out[m] = NULL;
    return out;
}

char **commands_complete(struct ui *ui, const char *line, int start, const char *word)
{
    const char *p = line;
    while (*p == ' ')
        p++;
    if ((int)(p - line) >= start) {
        const char **names = xmalloc(NCOMMANDS * sizeof *names);
        for (size_t i = 0; i < NCOMMANDS; i++)
            names[i] = commands[i].name;
        char **m = matches_from(names, NCOMMANDS, word);
        free(names);
        return m;
    }
    char name[32];
    size_t nl = strcspn(p, " ");
    snprintf(name, sizeof name, "%.*s", (int)(nl < 31 ? nl : 31), p);
    if (nl && name[strlen(name) - 1] == '!')
        name[strlen(name) - 1] = '\0';
    const struct command *c = find(name);
    if (!c)
        return xcalloc(1, sizeof(char *));
    /* only the first argument of :prob and :dup is a rule */
    int argi = 0;
    for (const char *q = p + nl; q < line + start; q++)
        if (*q != ' ' && (q[-1] == ' '))
            argi++;
    struct workspace *ws = ui->ws;
    switch (c->kind) {
    case ARG_FILE: return NULL;
    case ARG_RULE: {
        if (argi > 0)
            return xcalloc(1, sizeof(char *));
        const char **names = xmalloc((ws->grammar->nrules + 1) * sizeof *names);
        for (uint32_t r = 0; r < ws->grammar->nrules; r++)
            names[r] = ws->grammar->rules[r].name;
        char **m = matches_from(names, ws->grammar->nrules, word);
        free(names);
        return m;
    }
    case ARG_NODE: {
        const struct graph *g = ws->graph;
        char **all = xcalloc((size_t)g->nsymbolic + 1, sizeof *all);
        for (uint32_t s = 0; s < g->nsymbolic; s++) {
            struct strbuf nm = STRBUF_INIT;
            graph_node_name(g, g->symbolic[s], &nm);
            all[s] = strbuf_detach(&nm, NULL);
        }
        char **m = matches_from((const char *const *)all, g->nsymbolic, word);
        for (uint32_t s = 0; s < g->nsymbolic; s++)
            free(all[s]);
        free(all);
        return m;
    }
    case ARG_STRATEGY: {
        if (strcmp(c->name, "gen") == 0 && argi != 1)
            return xcalloc(1, sizeof(char *));
        static const char *const s[] = {"kpath", "random", "coverage", "prob"};
        return matches_from(s, 4, word);
    }
    case ARG_CLOSEOFF: {
        static const char *const s[] = {"shortest", "random", "greedy"};
        return matches_from(s, 3, word);
    }
    case ARG_FILTER: {
        static const char *const s[] = {"uncovered", "covered", "all"};
        return matches_from(s, 3, word);
    }
    case ARG_LESSON: {
        /* the bundled lessons' names and off; a path completes as a file */
        if (strchr(word, '/') || (word[0] == '.'))
            return NULL;
        char **all = xcalloc(2, sizeof *all);
        size_t n = 0, cap = 2;
        all[n++] = xstrdup("off");
        char *dir = ui_lessons_dir(ui);
        DIR *d = dir ? opendir(dir) : NULL;
        for (struct dirent *e; d && (e = readdir(d));) {
            size_t l = strlen(e->d_name);
            if (l > 7 && strcmp(e->d_name + l - 7, ".lesson") == 0) {
                all = xgrow(all, &cap, n + 2, sizeof *all);
                all[n++] = xstrndup(e->d_name, l - 7);
            }
        }
        if (d)
            closedir(d);
        free(dir);
        qsort(all, n, sizeof *all, cmp_strp);
        char **m = matches_from((const char *const *)all, n, word);
        for (size_t i = 0; i < n; i++)
            free(all[i]);
        free(all);
        if (!m[0]) { /* no lesson by that name: a file of one's own */
            free(m);
            return NULL;
        }
        return m;
    }
    case ARG_THEME: {
        char **themes = theme_list(ui->exe_dir);
        size_t n = 0;
        while (themes[n])
            n++;
        char **m = matches_from((const char *const *)themes, n, word);
        for (size_t i = 0; i < n; i++)
            free(themes[i]);
        free(themes);
        return m;
    }
    case ARG_NONE: return xcalloc(1, sizeof(char *));
    }
    return NULL;
}
