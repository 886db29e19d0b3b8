/* session: struct ui set up and freed, the workspace it shows, focus and
 * overlays, what the panes ask for, the autosave, quitting and the theme
 * (session.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sha256.h"
#include "formats/grammar_write.h"
#include "base/xalloc.h"
#include "job.h"
#include "lesson.h"
#include "messages.h"
#include "session.h"
#include "ui.h"
#include "workspace/workspace_file.h"

void ui_workspace_changed(struct ui *ui)
{
    ui->grows_stale = true;
    ui->prows_stale = true;
    ui->text.graph = NULL;
    free(ui->search_node_match);
    ui->search_node_match = NULL;
}

static void graph_state_init(struct ui *ui)
{
    const struct graph *g = ui->ws->graph;
    free(ui->owner);
    free(ui->expanded);
    ui->owner = xmalloc(((size_t)g->nnodes + 1) * sizeof *ui->owner);
    ui->expanded = xcalloc((size_t)g->nnodes + 1, sizeof *ui->expanded);
    /* A node's parent in the tree view is the node that created it when ids
     * were given: its one parent, or for a rule's node the reference with
     * the smallest id.  Every other reference to the rule is a back edge. */
    for (uint32_t n = 0; n < g->nnodes; n++) {
        uint32_t best = NODE_NONE;
        const uint32_t *ps = graph_parents(g, n);
        for (uint32_t i = 0; i < g->nodes[n].nparents; i++)
            if (ps[i] < n && ps[i] < best)
                best = ps[i];
        ui->owner[n] = n == 0 ? NODE_NONE : best;
    }
    /* Small graphs start fully expanded; large ones show the first levels. */
    bool all = g->nnodes <= 120;
    for (uint32_t n = 0; n < g->nnodes; n++) {
        uint32_t depth = 0;
        for (uint32_t a = ui->owner[n]; a != NODE_NONE && depth < 4; a = ui->owner[a])
            depth++;
        ui->expanded[n] = all || depth < 3;
    }
    ui->list[PANE_GRAPH] = (struct list_state){0, 0, 0, 0};
    ui_workspace_changed(ui);
}

void ui_init(struct ui *ui, struct workspace *ws)
{
    memset(ui, 0, sizeof *ui);
    ui->ws = ws;
    theme_builtin(&ui->theme);
    ui->focus = PANE_KPATHS;
    ui->slot_b = PANE_KPATHS;
    ui->slot_c = PANE_PROBS;
    ui->detail_of = PANE_KPATHS;
    ui->filter = WS_UNCOVERED;
    ui->cursor_x = ui->cursor_y = -1;
    graph_state_init(ui);
}

void ui_set_workspace(struct ui *ui, struct workspace *ws)
{
    ui_job_stop(ui, NULL);
    ui_jobs_forget(ui); /* the jobs' state of the old workspace */
    workspace_free(ui->ws);
    ui->ws = ws;
    for (int p = 0; p < NPANES; p++)
        ui->list[p] = (struct list_state){0, 0, 0, 0};
    ui->preview_top = 0;
    ui->preview_hl_sig = 0;
    /* every new graph comes through here (:load, :dup, :undup); a freed
     * graph's address can be the next one's, so the pointer alone cannot
     * tell that the hidden k-paths are of another graph */
    skip_paths_free(&ui->skip);
    ui->skip_graph = NULL;
    if (ui->growth_valid)
        growth_free(&ui->growth);
    if (ui->compare_valid)
        gen_compare_free(&ui->compare);
    ui->compare_valid = false;
    ui->growth_valid = false;
    ui->saved_changes = ws->changes;
    graph_state_init(ui);
    ui_autosave_rekey(ui);
}

void ui_free(struct ui *ui)
{
    if (ui->why_valid)
        why_report_free(&ui->why);
    if (ui->growth_valid)
        growth_free(&ui->growth);
    if (ui->compare_valid)
        gen_compare_free(&ui->compare);
    ui->compare_valid = false;
    workspace_free(ui->ws);
    screen_free(&ui->scr);
    free(ui->owner);
    free(ui->expanded);
    free(ui->grows);
    strbuf_free(&ui->text.buf);
    free(ui->text.tokens);
    free(ui->text.lines);
    free(ui->prows);
    sample_list_free(&ui->job_files);
    diag_list_free(&ui->job_diags);
    ui_jobs_free(ui);
    free(ui->search);
    free(ui->search_node_match);
    free(ui->search_matches);
    free(ui->narrow);
    free(ui->narrow_pos);
    skip_paths_free(&ui->skip);
    free(ui->message);
    for (size_t i = 0; i < ui->nlog; i++)
        free(ui->log[i].text);
    free(ui->log);
    free(ui->question);
    free(ui->pending_export);
    free(ui->cmd_prompt);
    free(ui->cmd_text);
    free(ui->cmd_hint);
    free(ui->exe_dir);
    free(ui->autosave_path);
    free(ui->state_dir);
    lesson_free(ui->lesson);
    free(ui->cmdline_want_prompt);
    free(ui->cmdline_want_text);
    memset(ui, 0, sizeof *ui);
}

void ui_focus(struct ui *ui, enum pane_id p)
{
    if (p == PANE_KPATHS || p == PANE_STEPPER)
        ui->slot_b = p;
    if (p == PANE_PROBS || p == PANE_INPUTS)
        ui->slot_c = p;
    if (p == PANE_GRAPH || p == PANE_KPATHS || p == PANE_INPUTS)
        ui->detail_of = p;
    ui->focus = p;
}

void ui_overlay(struct ui *ui, enum overlay_kind kind)
{
    ui->overlay = kind;
    ui->overlay_match = 0;
    /* help from its top; the log at its end, where the newest message is */
    ui->help_top = kind == OVERLAY_MESSAGES ? UINT64_MAX / 2 : 0;
}

const struct view_keys *ui_focused_keys(struct ui *ui)
{
    const struct pane_ops *ops = pane_ops[ui->focus];
    return ops->keys ? ops->keys(ui) : NULL;
}

bool ui_cmdline_open(struct ui *ui, const char *prompt, const char *initial)
{
    if (!ui->front_cmdline)
        return false;
    free(ui->cmdline_want_prompt);
    free(ui->cmdline_want_text);
    ui->cmdline_want_prompt = xstrdup(prompt);
    ui->cmdline_want_text = xstrdup(initial ? initial : "");
    return true;
}

bool ui_carry_out(struct ui *ui, struct pane_request r)
{
    if (r.changed)
        ui_workspace_changed(ui);
    for (size_t i = 0; i < r.nlog; i++)
        ui_log(ui, r.log[i].error, r.log[i].text);
    switch (r.kind) {
    case REQ_NOT_MINE: pane_request_free(&r); return false;
    case REQ_DONE: break;
    case REQ_MESSAGE: ui_message(ui, "%s", r.text); break;
    case REQ_ERROR: ui_error(ui, "%s", r.text); break;
    case REQ_FOCUS:
        ui_focus(ui, (enum pane_id)r.pane);
        if (r.text)
            ui_message(ui, "%s", r.text);
        break;
    case REQ_CMDLINE:
        if (!ui_cmdline_open(ui, ":", r.text))
            ui_message(ui, "%s", r.fallback);
        break;
    case REQ_COMMAND: /* the top's (ui_request) */
    case REQ_ACTION: break;
    case REQ_SELECT_PATH:
        graph_reveal(ui, r.path[r.npath - 1]);
        ui_message(ui, "%s", kpaths_select_path(ui, r.path, r.npath) ? r.text : r.fallback);
        break;
    }
    pane_request_free(&r);
    return true;
}

void ui_autosave(struct ui *ui, bool force)
{
    if (!ui->autosave_path || (!force && ui->ws->changes == ui->saved_changes))
        return;
    struct strbuf out = STRBUF_INIT;
    workspace_serialize(ui->ws, &out);
    struct diag_list d = DIAG_LIST_INIT;
    if (write_file_atomic(ui->autosave_path, out.data, out.len, &d))
        ui->saved_changes = ui->ws->changes;
    diag_list_free(&d);
    strbuf_free(&out);
}

void ui_autosave_rekey(struct ui *ui)
{
    if (!ui->state_dir)
        return;
    const char *of = ui->ws->file ? ui->ws->file : ui->ws->grammar_path;
    char real[PATH_MAX];
    const char *key = realpath(of, real) ? real : of;
    char hex[SHA256_HEX_SIZE];
    sha256_hex(key, strlen(key), hex);
    const char *base = strrchr(key, '/');
    struct strbuf p = STRBUF_INIT;
    strbuf_addf(&p, "%s/autosave-%s-%.12s.kpw", ui->state_dir, base ? base + 1 : key, hex);
    if (ui->autosave_path && strcmp(ui->autosave_path, strbuf_str(&p)) != 0)
        unlink(ui->autosave_path);
    free(ui->autosave_path);
    ui->autosave_path = strbuf_detach(&p, NULL);
}

void ui_quit_yes(struct ui *ui)
{
    ui->quit = true;
}

void ui_request_quit(struct ui *ui, bool force)
{
    struct workspace *ws = ui->ws;
    /* marks saved in the workspace file are not lost: no question then */
    bool marks_safe = ui->marks_exported || (ws->file && !ws->dirty);
    size_t marked = marks_safe ? 0 : workspace_marked(ws);
    if (force || (!ws->dirty && marked == 0)) {
        ui->quit = true;
        return;
    }
    struct strbuf q = STRBUF_INIT;
    if (ws->dirty)
        strbuf_addstr(&q, "Unsaved work (:save FILE keeps it)");
    if (marked)
        strbuf_addf(&q, "%s%zu marked input%s (e exports them)", ws->dirty ? "; " : "", marked,
                    marked == 1 ? "" : "s");
    strbuf_addstr(&q, ". Quit anyway? (y/n)");
    ui_ask(ui, strbuf_str(&q), ui_quit_yes, NULL);
    strbuf_free(&q);
}

bool ui_set_theme(struct ui *ui, const char *name, bool quiet)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct theme t;
    bool ok = theme_load(&t, name, ui->exe_dir, &d);
    if (ok) {
        ui->theme = t;
        ui->theme_generation++;
    }
    ui->redraw_all = true;
    if (d.len)
        ui_diags(ui, &d);
    else if (ok && !quiet)
        ui_message(ui, "theme %s", t.name);
    diag_list_free(&d);
    return ok;
}
