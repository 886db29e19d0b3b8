/* app: the top of the app layer: key dispatch, script lines, the lesson's
 * steps, and the command lines and actions the panes ask for
 * (ui_request).  It calls the rest of the app layer (commands, draw,
 * search, overlays, lessons, jobs, session), the panes through their ops
 * and the widgets, never a front end; the front ends call it through app.h.  Going
 * to a lesson's step runs script lines, so it is here, above the commands
 * (lessons.h).  No curses here. */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "formats/grammar_write.h"
#include "lesson.h"
#include "base/number.h"
#include "app.h"
#include "overlays.h"
#include "search.h"
#include "base/samples.h"
#include "base/xalloc.h"
#include "workspace/workspace_file.h"

const struct pane_ops *const pane_ops[NPANES] = {
    &graph_pane_ops, &kpaths_pane_ops, &probs_pane_ops,
    &stepper_pane_ops, &inputs_pane_ops, &detail_pane_ops,
};


/* What a command (or opening a lesson) left for the top: going to the
 * first step of the lesson it opened (lessons.h). */
static void start_lesson(struct ui *ui)
{
    if (!ui->lesson_start)
        return;
    ui->lesson_start = false;
    ui_lesson_goto(ui, 0);
}

void ui_command(struct ui *ui, const char *line)
{
    commands_run(ui, line);
    start_lesson(ui);
}

bool ui_lesson_open(struct ui *ui, const char *name)
{
    if (!lessons_open(ui, name))
        return false;
    start_lesson(ui);
    return true;
}

void ui_lesson_goto(struct ui *ui, size_t i)
{
    struct lesson *l = ui->lesson;
    if (!l || i >= l->nsteps)
        return;
    ui->lesson = NULL; /* the setup lines run as typed, with no caption */
    /* from the view a fresh start has, so toggles (z, p) replay the same */
    ui->zoom = false;
    ui->show_patterns = false;
    ui->text_view = false;
    ui->filter = WS_UNCOVERED;
    ui->overlay = OVERLAY_NONE;
    ui->search_highlight = false;
    ui->slot_b = PANE_KPATHS;
    ui->slot_c = PANE_PROBS;
    ui_focus(ui, PANE_KPATHS);
    bool ok = true;
    for (size_t s = 0; s <= i && ok; s++)
        for (size_t j = 0; j < l->steps[s].nsetup && ok; j++) {
            char where[4200];
            snprintf(where, sizeof where, "%s:%u", l->path, l->steps[s].setup[j].number);
            ok = ui_script_line(ui, l->steps[s].setup[j].text, where);
        }
    if (ui->lesson) /* a setup line opened another lesson */
        lesson_free(ui->lesson);
    ui->lesson = l;
    ui->lesson_step = i;
    free(ui->message);
    ui->message = NULL;
    if (!ok)
        ui_error(ui, "the lesson's step %zu has a line that is not a key (M shows it)", i + 1);
}


/* ---- keys ------------------------------------------------------------------------------------ */

static void list_action(struct ui *ui, enum pane_id p, enum action a)
{
    struct list_state *l = &ui->list[p];
    uint64_t rows = pane_ops[p]->rows(ui);
    uint64_t h = l->height > 0 ? (uint64_t)l->height : 1;
    uint64_t half = h / 2 ? h / 2 : 1;
    switch (a) {
    case ACT_DOWN: l->cursor++; break;
    case ACT_UP: l->cursor = l->cursor ? l->cursor - 1 : 0; break;
    case ACT_HALF_DOWN: l->cursor += half; l->top += half; break;
    case ACT_HALF_UP:
        l->cursor = l->cursor > half ? l->cursor - half : 0;
        l->top = l->top > half ? l->top - half : 0;
        break;
    case ACT_PAGE_DOWN: l->cursor += h; l->top += h; break;
    case ACT_PAGE_UP:
        l->cursor = l->cursor > h ? l->cursor - h : 0;
        l->top = l->top > h ? l->top - h : 0;
        break;
    case ACT_TOP: l->cursor = 0; break;
    case ACT_BOTTOM: l->cursor = rows ? rows - 1 : 0; break;
    default: break;
    }
    if (rows && l->cursor >= rows)
        l->cursor = rows - 1;
    if (rows > h && l->top > rows - h)
        l->top = rows - h;
    list_scroll_into_view(l, rows);
}

/* ---- stepping back ------------------------------------------------------
 * Generation is seeded, so the generator started again from the same
 * workspace takes the same steps: a step back replays all steps but the
 * last.  The steps are counted when every step of the generator came from
 * s or S (the generator as the last of them left it, still there); any
 * other change (r, :gen, R, a new grammar) ends the count until R. */
static bool step_record_holds(const struct ui *ui)
{
    const struct generator *gen = ui->ws->gen;
    return ui->step_known && gen == ui->step_gen &&
           (!gen || (gen->tree.len == ui->step_tree_len && gen->ninputs == ui->step_ninputs &&
                     gen->last.inst == ui->step_last));
}

static void step_record(struct ui *ui, uint64_t count)
{
    const struct generator *gen = ui->ws->gen;
    ui->step_gen = gen;
    ui->step_count = count;
    ui->step_tree_len = gen ? gen->tree.len : 0;
    ui->step_ninputs = gen ? gen->ninputs : 0;
    ui->step_last = gen ? gen->last.inst : 0;
}

/* Before a step of s or S: a generator that is not there yet starts the
 * count; one the count does not hold for (made or moved by something
 * else) leaves it unknown. */
static void step_count_before(struct ui *ui)
{
    if (!ui->ws->gen) {
        ui->step_known = true;
        step_record(ui, 0);
    } else if (!step_record_holds(ui)) {
        ui->step_known = false;
    }
}

static void step_count_after(struct ui *ui, uint64_t steps)
{
    if (ui->step_known)
        step_record(ui, ui->step_count + steps);
}

static void step_back(struct ui *ui)
{
    struct workspace *ws = ui->ws;
    if (!ws->gen || !step_record_holds(ui) || ui->step_count == 0) {
        ui_error(ui, ws->gen ? "<BS> steps back over the steps of s and S only (R starts over)"
                             : "no step to go back over: s steps");
        return;
    }
    uint64_t n = ui->step_count - 1;
    workspace_gen_reset(ws, true);
    for (uint64_t i = 0; i < n; i++)
        if (!workspace_gen_step(ws))
            break;
    step_record(ui, n);
    ui->stepper_sig = 0;
    ui_workspace_changed(ui);
    if (n)
        ui_message(ui, "one step back: %" PRIu64 " step%s of this generation", n, n == 1 ? "" : "s");
    else
        ui_message(ui, "one step back: before the first step");
}

/* A key for a command that needs something typed: the command line opens
 * with the command in it; without one (script mode) the message says what
 * to type. */
static void command_prompt(struct ui *ui, const char *initial, const char *usage)
{
    if (!ui_cmdline_open(ui, ":", initial))
        ui_message(ui, "type :%s", usage);
}

static void export_prompt(struct ui *ui)
{
    command_prompt(ui, "export ", "export DIR");
}

/* D: :dup of the rule of the node selected in the graph (or shown in the
 * detail pane), else of a rule to type. */
static void dup_prompt(struct ui *ui)
{
    struct strbuf line = STRBUF_INIT;
    strbuf_addstr(&line, "dup ");
    uint32_t n = NODE_NONE;
    if (ui->focus == PANE_GRAPH || (ui->focus == PANE_DETAIL && ui->detail_of == PANE_GRAPH))
        n = graph_selected_node(ui);
    if (n != NODE_NONE) {
        const struct grammar *g = ui->ws->grammar;
        uint32_t r = ui->ws->graph->nodes[n].rule;
        if (r < g->nrules)
            strbuf_addf(&line, "%s ", g->rules[r].name);
    }
    struct strbuf usage = STRBUF_INIT;
    strbuf_addf(&usage, "%s%s[ALT] [DEPTH]", strbuf_str(&line), n == NODE_NONE ? "RULE " : "");
    command_prompt(ui, strbuf_str(&line), strbuf_str(&usage));
    strbuf_free(&usage);
    strbuf_free(&line);
}

/* P: pin what is selected: the graph's node when the graph (or the detail
 * pane showing its node) is focused, else the selected k-path. */
static void pin_selection(struct ui *ui)
{
    struct workspace *ws = ui->ws;
    struct strbuf text = STRBUF_INIT;
    uint32_t *path = xmalloc((ws->k + 1) * sizeof *path);
    if (ui->focus == PANE_GRAPH || (ui->focus == PANE_DETAIL && ui->detail_of == PANE_GRAPH)) {
        uint32_t n = graph_selected_node(ui);
        if (n != NODE_NONE)
            graph_node_name(ws->graph, n, &text);
    } else if (kpaths_selected(ui, path, NULL)) {
        workspace_path_name(ws, path, ws->k, " ", &text);
    }
    free(path);
    if (text.len) {
        struct strbuf cmd = STRBUF_INIT;
        strbuf_addf(&cmd, "pin %s", strbuf_str(&text));
        ui_command(ui, strbuf_str(&cmd));
        strbuf_free(&cmd);
    } else {
        ui_error(ui, "nothing selected to pin");
    }
    strbuf_free(&text);
}

static void global_action(struct ui *ui, enum action a, int key)
{
    struct workspace *ws = ui->ws;
    switch (a) {
    case ACT_HELP: ui_overlay(ui, OVERLAY_HELP); break;
    case ACT_QUIT: ui_request_quit(ui, false); break;
    case ACT_INTERRUPT: ui_request_quit(ui, false); break;
    case ACT_COMMAND:
    case ACT_SEARCH:
        if (!ui_cmdline_open(ui, a == ACT_COMMAND ? ":" : "/", ""))
            ui_error(ui, "the command line needs a terminal; scripts use :COMMAND and /TEXT lines");
        break;
    case ACT_SEARCH_NEXT: ui_search(ui, "", ui->search_backward); break;
    /* N goes against the search's direction without changing it (vim, less) */
    case ACT_SEARCH_PREV: ui_search(ui, "", !ui->search_backward); break;
    case ACT_NEXT_PANE:
    case ACT_PREV_PANE: {
        /* every pane in turn, also those the layout does not show now:
         * focusing a pane puts it on screen (ui_focus) */
        int step = a == ACT_NEXT_PANE ? 1 : NPANES - 1;
        ui_focus(ui, (enum pane_id)(((int)ui->focus + step) % NPANES));
        break;
    }
    case ACT_PANE1: case ACT_PANE2: case ACT_PANE3:
    case ACT_PANE4: case ACT_PANE5: case ACT_PANE6:
        ui_focus(ui, (enum pane_id)(a - ACT_PANE1));
        break;
    case ACT_ZOOM: ui->zoom = !ui->zoom; break;
    case ACT_K_MORE:
    case ACT_K_LESS: {
        char cmd[32];
        uint32_t k = a == ACT_K_MORE ? ws->k + 1 : ws->k - 1;
        if (k < 1) {
            ui_error(ui, "k is at least 1");
            break;
        }
        snprintf(cmd, sizeof cmd, "k %u", k);
        ui_command(ui, cmd);
        break;
    }
    case ACT_STEP: {
        /* the stepper shows what the step did: on screen and focused at
         * every size, so the keys that follow go where the eyes are */
        ui_focus(ui, PANE_STEPPER);
        step_count_before(ui);
        bool more = workspace_gen_step(ws);
        step_count_after(ui, 1);
        if (!more && ws->gen_error)
            ui_error(ui, "%s", ws->gen_error);
        else if (ws->gen && ws->gen->phase == GEN_PHASE_DONE)
            ui_message(ui, "generation is over: R resets, r runs again");
        break;
    }
    case ACT_FINISH_TREE: {
        ui_focus(ui, PANE_STEPPER);
        step_count_before(ui);
        bool more = true;
        uint64_t steps = 0;
        do
            more = workspace_gen_step(ws), steps++;
        while (more && !(ws->gen->events & GEN_EVENT_TREE_FINISHED));
        step_count_after(ui, steps);
        if (!more && ws->gen_error)
            ui_error(ui, "%s", ws->gen_error);
        break;
    }
    case ACT_STEP_BACK: ui_focus(ui, PANE_STEPPER); step_back(ui); break;
    case ACT_RUN: ui_focus(ui, PANE_STEPPER); ui_start_run(ui); break;
    case ACT_RESET: {
        size_t before = ws->ninputs;
        bool had = ws->gen != NULL;
        workspace_gen_reset(ws, true);
        ui_workspace_changed(ui);
        if (had)
            ui_message(ui, "generator reset; %zu input%s of its run removed", before - ws->ninputs,
                       before - ws->ninputs == 1 ? "" : "s");
        else
            ui_message(ui, "no generator to reset");
        break;
    }
    case ACT_EXPORT: export_prompt(ui); break;
    case ACT_SAMPLES: command_prompt(ui, "samples ", "samples FILE|DIR..."); break;
    case ACT_DUP: dup_prompt(ui); break;
    case ACT_SAVE:
        if (ws->file)
            ui_command(ui, "save");
        else
            command_prompt(ui, "save ", "save FILE");
        break;
    case ACT_OPEN: command_prompt(ui, "open ", "open FILE"); break;
    case ACT_COVER: {
        uint32_t *path = xmalloc((ws->k + 1) * sizeof *path);
        if (ui->focus != PANE_GRAPH && ui->focus != PANE_INPUTS &&
            !(ui->focus == PANE_DETAIL && ui->detail_of != PANE_KPATHS) &&
            kpaths_selected(ui, path, NULL))
            ui_cover_path(ui, path);
        else
            ui_error(ui, "C covers the k-path selected in pane 2 (k-paths) or shown in pane 6");
        free(path);
        break;
    }
    case ACT_PIN: pin_selection(ui); break;
    case ACT_MESSAGES: ui_overlay(ui, OVERLAY_MESSAGES); break;
    case ACT_GENERALIZE_VIEW: generalize_view_show(ui); break;
    case ACT_LESSON_NEXT:
    case ACT_LESSON_PREV:
        if (!ui->lesson) {
            ui_error(ui, "no lesson open: :lesson lists them, :lesson NAME opens one");
        } else if (a == ACT_LESSON_NEXT ? ui->lesson_step + 1 >= ui->lesson->nsteps
                                        : ui->lesson_step == 0) {
            ui_message(ui, "%s step of the lesson", a == ACT_LESSON_NEXT ? "the last" : "the first");
        } else {
            ui_lesson_goto(ui, a == ACT_LESSON_NEXT ? ui->lesson_step + 1 : ui->lesson_step - 1);
        }
        break;
    case ACT_CANCEL: {
        /* F's narrowing goes too, when nothing else was there to cancel */
        bool nothing = !ui->message && !ui->zoom && !ui->search_highlight;
        free(ui->message);
        ui->message = NULL;
        ui->zoom = false;
        ui->search_highlight = false;
        if (nothing && ui->narrow && ui->focus == PANE_KPATHS) {
            char *was = xstrdup(ui->narrow);
            ui_request(ui, kpaths_narrow(ui, NULL));
            ui_message(ui, "not narrowed to \"%s\" any more: every %s k-path", was,
                       ws_filter_name(ui->filter));
            free(was);
        }
        break;
    }
    case ACT_REDRAW: ui->redraw_all = true; break;
    default: {
        struct strbuf name = STRBUF_INIT;
        keys_name(key, &name);
        ui_error(ui, "%s does nothing here; ? lists the keys", strbuf_str(&name));
        strbuf_free(&name);
    }
    }
}

static void mouse_event(struct ui *ui)
{
    for (int p = 0; p < NPANES; p++) {
        struct rect r = ui->pane_rect[p];
        if (r.w == 0 || ui->mouse.x < r.x || ui->mouse.x >= r.x + r.w || ui->mouse.y < r.y ||
            ui->mouse.y >= r.y + r.h)
            continue;
        struct list_state *l = &ui->list[p];
        uint64_t rows = pane_ops[p]->rows(ui);
        if (ui->mouse.kind == MOUSE_WHEEL_UP || ui->mouse.kind == MOUSE_WHEEL_DOWN) {
            for (int i = 0; i < 3; i++)
                list_action(ui, (enum pane_id)p, ui->mouse.kind == MOUSE_WHEEL_UP ? ACT_UP : ACT_DOWN);
            return;
        }
        ui_focus(ui, (enum pane_id)p);
        int row = ui->mouse.y - l->first_y;
        if (row >= 0 && row < l->height && l->top + (uint64_t)row < rows) {
            l->cursor = l->top + (uint64_t)row;
            if (pane_ops[p]->clicked)
                pane_ops[p]->clicked(ui);
        }
        return;
    }
    if (ui->mouse.y == 0) {
        for (int p = 0; p < NPANES; p++)
            if (ui->mouse.x >= ui->tab_x[p] && ui->mouse.x < ui->tab_x[p + 1]) {
                ui_focus(ui, (enum pane_id)p);
                return;
            }
    }
}

static void overlay_key(struct ui *ui, int key)
{
    if (ui->overlay == OVERLAY_COMPARE && keys_lookup(key, CTX_COMPARE, false) == ACT_COMPARE_AXIS) {
        ui_compare_axis(ui);
        return;
    }
    enum action a = keys_lookup(key, CTX_LIST, true);
    uint64_t h = ui->help_height > 0 ? (uint64_t)ui->help_height : 1;
    switch (a) {
    case ACT_DOWN: ui->help_top++; break;
    case ACT_UP: ui->help_top = ui->help_top ? ui->help_top - 1 : 0; break;
    /* a page is the rows shown (as in the lists), half of it for C-d/C-u */
    case ACT_PAGE_DOWN: ui->help_top += h; break;
    case ACT_HALF_DOWN: ui->help_top += h / 2; break;
    case ACT_PAGE_UP: ui->help_top = ui->help_top > h ? ui->help_top - h : 0; break;
    case ACT_HALF_UP: ui->help_top = ui->help_top > h / 2 ? ui->help_top - h / 2 : 0; break;
    case ACT_TOP: ui->help_top = 0; break;
    case ACT_BOTTOM: ui->help_top = UINT64_MAX / 2; break;
    case ACT_SEARCH:
        if (!ui_cmdline_open(ui, "/", ""))
            ui_error(ui, "scripts search with /TEXT lines");
        break;
    case ACT_SEARCH_NEXT: ui_search(ui, "", ui->search_backward); break;
    case ACT_SEARCH_PREV: ui_search(ui, "", !ui->search_backward); break;
    case ACT_HELP: ui_overlay(ui, ui->overlay == OVERLAY_HELP ? OVERLAY_NONE : OVERLAY_HELP); break;
    case ACT_MESSAGES:
        ui_overlay(ui, ui->overlay == OVERLAY_MESSAGES ? OVERLAY_NONE : OVERLAY_MESSAGES);
        break;
    case ACT_GENERALIZE_VIEW:
        if (ui->overlay == OVERLAY_GENERALIZE)
            ui->overlay = OVERLAY_NONE;
        else
            generalize_view_show(ui);
        break;
    case ACT_CANCEL: case ACT_QUIT: case ACT_INTERRUPT: ui->overlay = OVERLAY_NONE; break;
    default: break;
    }
}

void ui_key(struct ui *ui, int key)
{
    if (key == K_RESIZE) {
        ui->redraw_all = true;
        return;
    }
    if (ui->question) {
        /* y and n answer; Ctrl-C after a question about quitting leaves at
         * once (twice in a row); Esc, Enter and Ctrl-C put the question away
         * unanswered; any other key does too and then does what it does, so
         * keys typed after the question are not lost. */
        char *q = ui->question;
        void (*yes)(struct ui *) = ui->on_yes, (*no)(struct ui *) = ui->on_no;
        ui->question = NULL;
        free(q);
        if (key == 'y' || key == 'Y' || (key == 3 && yes == ui_quit_yes)) {
            if (yes)
                yes(ui);
            return;
        }
        if (key == 'n' || key == 'N') {
            if (no)
                no(ui);
            else
                ui_message(ui, "cancelled");
            return;
        }
        ui_message(ui, "cancelled");
        if (key == K_ESC || key == K_ENTER || key == 3 || key == K_RESIZE)
            return;
    }
    if (ui->job == JOB_RESTORE) {
        /* q or Ctrl-C: out, with the autosave left as it was (a clean quit
         * would remove it, and the session was never restored).  Any other
         * key would land on a half-restored session: it does nothing, and
         * the restore's line counts it, between two of its slices. */
        if (key == 'q' || key == 3) {
            ui_job_stop(ui, NULL);
            ui->keep_autosave = true;
            ui->quit = true;
            return;
        }
        ui->restore_keys_ignored++;
        return;
    }
    /* A message is about what the last key did: the next key takes it
     * away, so no stale line stays (the log keeps it: M). */
    if (key != K_MOUSE) {
        free(ui->message);
        ui->message = NULL;
        ui->message_more = false;
    }
    if (ui->job == JOB_WHY) {
        ui->job = JOB_NONE; /* not worth waiting for: the selection moves on */
    } else if (ui->job) {
        ui_job_stop(ui, NULL);
        return;
    }
    if (ui->overlay) {
        overlay_key(ui, key);
        return;
    }
    if (key == K_MOUSE) {
        mouse_event(ui);
        return;
    }
    if (ui->scr.w < UI_MIN_W || ui->scr.h < UI_MIN_H) {
        if (key == 'q' || key == 3)
            ui_request_quit(ui, false);
        return;
    }
    enum pane_id p = ui->focus;
    const struct pane_ops *ops = pane_ops[p];
    enum action a = keys_lookup(key, ops->context, true);
    if (a == ACT_NONE) {
        global_action(ui, ACT_NONE, key);
        return;
    }
    for (size_t i = 0; i < key_table_len; i++) {
        if (key_table[i].action != a)
            continue;
        enum key_context c = key_table[i].context;
        if (c == CTX_GLOBAL)
            global_action(ui, a, key);
        else if (c == CTX_LIST)
            list_action(ui, p, a);
        else if (!ops->action || !ui_request(ui, ops->action(ui, a)))
            global_action(ui, ACT_NONE, key);
        break;
    }
}

void ui_cover_path(struct ui *ui, const uint32_t *path)
{
    struct workspace *ws = ui->ws;
    struct diag_list d = DIAG_LIST_INIT;
    if (!workspace_cover_path(ws, path, &d)) {
        ui_diags(ui, &d);
        return;
    }
    diag_list_free(&d);
    const struct ws_input *in = &ws->inputs[ws->ninputs - 1];
    struct strbuf t = STRBUF_INIT;
    escape_text(in->text, in->len, 60, &t);
    ui_message(ui, "input %zu covers it: %s (%" PRIu64 " new k-path%s)", ws->ninputs,
               strbuf_str(&t), in->nnew, in->nnew == 1 ? "" : "s");
    strbuf_free(&t);
    ui->list[PANE_INPUTS].cursor = ws->ninputs - 1;
}

/* ---- the front ends' requests -------------------------------------------------------- */

void ui_narrow(struct ui *ui, const char *text)
{
    ui_request(ui, kpaths_narrow(ui, text));
}

/* ---- one line as a script (or a lesson) gives it ------------------------------------ */

static void finish_jobs(struct ui *ui)
{
    while (ui->job)
        ui_job_slice(ui, 1.0);
}

static bool mouse_token(struct ui *ui, const char *tok, size_t len)
{
    char buf[64];
    if (len >= sizeof buf)
        return false;
    memcpy(buf, tok, len);
    buf[len] = '\0';
    char name[16];
    int x, y;
    char close;
    if (sscanf(buf, "<%15s %d %d%c", name, &x, &y, &close) != 4 || close != '>')
        return false;
    if (strcmp(name, "Click") == 0)
        ui->mouse.kind = MOUSE_CLICK;
    else if (strcmp(name, "WheelUp") == 0)
        ui->mouse.kind = MOUSE_WHEEL_UP;
    else if (strcmp(name, "WheelDown") == 0)
        ui->mouse.kind = MOUSE_WHEEL_DOWN;
    else
        return false;
    ui->mouse.x = x;
    ui->mouse.y = y;
    return true;
}

bool ui_script_line(struct ui *ui, const char *line, const char *where)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p || *p == '#')
        return true;
    finish_jobs(ui);
    if (*p == ':' && p[1]) {
        ui_command(ui, p + 1);
    } else if (*p == '/' && p[1]) {
        ui_search(ui, p + 1, false);
    } else {
        /* keys, blank-separated; <...> may hold blanks (mouse) */
        while (*p) {
            while (*p == ' ' || *p == '\t')
                p++;
            if (!*p)
                break;
            const char *end = p + 1;
            if (*p == '<' && strchr(p, '>'))
                end = strchr(p, '>') + 1;
            else
                while (*end && ((unsigned char)*end & 0xc0) == 0x80)
                    end++;
            int key;
            if (mouse_token(ui, p, (size_t)(end - p))) {
                ui_draw(ui); /* clicks land where the last frame put things */
                ui_key(ui, K_MOUSE);
            } else if (keys_parse(p, (size_t)(end - p), &key)) {
                if (ui->front_key)
                    ui->front_key(ui, key);
                else
                    ui_key(ui, key);
            } else {
                if (ui->script_mode) {
                    fprintf(stderr, "%s: not a key: '%.*s'\n", where, (int)(end - p), p);
                } else { /* the terminal belongs to curses: say it in the log */
                    struct strbuf sb = STRBUF_INIT;
                    strbuf_addf(&sb, "%s: not a key: '%.*s'", where, (int)(end - p), p);
                    ui_log(ui, true, strbuf_str(&sb));
                    strbuf_free(&sb);
                }
                return false;
            }
            finish_jobs(ui);
            ui_draw(ui);
            p = end;
        }
    }
    finish_jobs(ui);
    ui_draw(ui);
    return true;
}

/* ---- what the panes ask for ------------------------------------------------------------- */

/* A pane's action that only the app can carry out (REQ_ACTION). */
static void pane_action(struct ui *ui, enum action a)
{
    if (a == ACT_TARGET)
        features_target(ui);
    else if (a == ACT_SHRINK)
        runs_shrink_start(ui, NULL, 0);
}

bool ui_request(struct ui *ui, struct pane_request r)
{
    if (r.kind != REQ_COMMAND && r.kind != REQ_ACTION)
        return ui_carry_out(ui, r);
    /* a command line or an action runs here, at the top, after the rest of
     * the request (ui_carry_out: what changed, the log) */
    enum request_kind kind = r.kind;
    enum action a = r.action;
    char *line = r.text;
    r.text = NULL;
    r.kind = REQ_DONE;
    ui_carry_out(ui, r);
    if (kind == REQ_COMMAND)
        ui_command(ui, line);
    else
        pane_action(ui, a);
    free(line);
    return true;
}
