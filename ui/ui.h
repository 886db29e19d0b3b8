/* ui: the explorer's state and the panes' side of it (the pane layer).
 *
 * The TUI is a front end over one workspace (src/workspace/workspace.h), in layers
 * that read top-down (docs/design/ui.md; tests/layers/run.sh keeps
 * them so):
 *     front ends  term.c (curses, readline), script.c, tui.c   -> app.h
 *     app         app.c, commands.c, draw.c, search.c, overlays.c, lessons.c,
 *                 generalize_job.c, runs_job.c, features_job.c,
 *                 app_jobs.c, session.c: key dispatch, commands,
 *                 drawing, jobs, focus                          -> ui.h
 *     panes       pane_*.c, generalize_view.c, runs.c, features.c,
 *                 request.c, messages.c, job.c                  -> widget.h
 *     widgets     widget.c, plot.c, screen.c, theme.c, keys.c,
 *                 command_table.c, svg.c, lesson.c
 * This header is what the panes see: struct ui, each pane's struct
 * pane_ops (tig's view_ops in spirit: a title, a row count for the generic
 * list navigation, a draw function, an action handler for its own keys),
 * the overlays' struct overlay_ops, and struct pane_request, which is how a
 * pane asks the app for anything (a message, a focus, a command line): it
 * returns one and the app carries it out.  Panes never include app.h.
 *
 * Everything here is independent of curses: panes draw into a `struct
 * screen`, keys arrive as ints (keys.h), and the front end feeds them in
 * and shows the frame, so every pane, key and command runs the same way in
 * a terminal and in the script-mode tests.  A pane draws only its visible
 * rows, so lists of any length (a million k-paths) cost the same to draw.
 *
 * Long work (running the generator, searching a long list) is a job
 * (job.h): the main loop does a bounded slice of it between input polls,
 * so the UI stays responsive and any key stops it. */
#ifndef KPATH_UI_UI_H
#define KPATH_UI_UI_H

#include <stdbool.h>
#include <stdint.h>

#include "run/campaign.h"
#include "graph/skip_paths.h"
#include "workspace/growth.h"
#include "run/run_report.h"
#include "keys.h"
#include "base/samples.h"
#include "screen.h"
#include "base/strbuf.h"
#include "theme.h"
#include "explain/why.h"
#include "widget.h"
#include "plot.h"
#include "workspace/workspace.h"

enum pane_id { PANE_GRAPH, PANE_KPATHS, PANE_PROBS, PANE_STEPPER, PANE_INPUTS, PANE_DETAIL, NPANES };

/* Smallest terminal the layout works in; below it a message is shown. */
#define UI_MIN_W 60
#define UI_MIN_H 16
#define UI_LOG_MAX 5000
#define UI_SEARCH_MATCHES_MAX (1u << 20)

struct ui;
struct view_keys;
struct generalize_job;

/* What a pane asks the app to do.  A pane never calls the app (app.h): its
 * action returns one of these and the app carries it out after the pane
 * returns (ui_request), as tig's views return a request to its loop.
 * REQ_NOT_MINE: the pane does not take the key (the app tries the key's
 * global meaning); REQ_DONE: done, nothing more to do; REQ_MESSAGE and
 * REQ_ERROR: show `text` on the message line (it goes to the log too);
 * REQ_FOCUS: focus pane `pane`, then show `text` if any; REQ_CMDLINE: open
 * the command line with `text` typed (a front end without one, script mode,
 * shows `fallback` instead); REQ_COMMAND: run `text` as a command line;
 * REQ_ACTION: the app carries out `action` itself, for the pane (an action
 * that needs the app: a job, messages along the way: pane_action in app.c);
 * REQ_SELECT_PATH: select the k-path `path` (npath nodes) in the graph and,
 * when the k-path list can show it, there too, then show `text` (it is in
 * the list) or `fallback` (only in the graph): a view selects in other panes
 * without calling them.
 * `changed` says first that the workspace changed shape (derived rows are
 * rebuilt: ui_workspace_changed); then `log` goes to the message log, then
 * the request is carried out. */
enum request_kind { REQ_NOT_MINE, REQ_DONE, REQ_MESSAGE, REQ_ERROR, REQ_FOCUS, REQ_CMDLINE,
                    REQ_COMMAND, REQ_ACTION, REQ_SELECT_PATH };
/* An entry of the message log. */
struct log_entry {
    char *text;          /* owned; may have several lines */
    bool error;
};

struct pane_request {
    enum request_kind kind;
    char *text;      /* owned */
    char *fallback;  /* owned; REQ_CMDLINE */
    int pane;        /* REQ_FOCUS: an enum pane_id */
    enum action action; /* REQ_ACTION */
    uint32_t *path;     /* owned; REQ_SELECT_PATH */
    uint32_t npath;
    bool changed;
    struct log_entry *log; /* owned; lines for the message log only */
    size_t nlog, log_cap;
};
#define REQ_NONE_OF_MINE ((struct pane_request){.kind = REQ_NOT_MINE})
#define REQ_HANDLED ((struct pane_request){.kind = REQ_DONE})
/* request.c: the requests, built (printf formats for the text).  A request
 * with text (REQ_MESSAGE, REQ_ERROR): req_message and req_error. */
struct pane_request req_text(enum request_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
#define req_message(...) req_text(REQ_MESSAGE, __VA_ARGS__)
#define req_error(...) req_text(REQ_ERROR, __VA_ARGS__)
struct pane_request req_focus(int pane);
struct pane_request req_cmdline(const char *initial, const char *fallback);
struct pane_request req_command(const char *line);
struct pane_request req_action(enum action a);
struct pane_request req_select_path(const uint32_t *path, uint32_t n, const char *listed,
                                    const char *unlisted);
/* Add a line for the message log to r (it keeps a copy). */
void req_log(struct pane_request *r, bool error, const char *text);
void pane_request_free(struct pane_request *r);

struct pane_ops {
    const char *title;
    enum key_context context;
    uint64_t (*rows)(struct ui *ui);
    /* Draw into r (the title line is drawn by the caller, r is the body). */
    void (*draw)(struct ui *ui, struct rect r, bool focused);
    /* Handle a pane action; what the app is to do next (REQ_NOT_MINE when
     * the pane does not take it). */
    struct pane_request (*action)(struct ui *ui, enum action a);
    /* The row was clicked (after the cursor moved there). */
    void (*clicked)(struct ui *ui);
    /* Text of a row, for search; NULL when the pane has no searchable rows. */
    void (*row_text)(struct ui *ui, uint64_t row, struct strbuf *out);
    /* What the title line says after the pane's name. */
    void (*summary)(struct ui *ui, struct strbuf *out);
    /* The keys of the view the pane shows now, for the footer and the top
     * of help (a pane with several views: the inputs pane's list, plot,
     * runs and features); NULL, or a NULL result: the bindings of the
     * pane's context with a footer word. */
    const struct view_keys *(*keys)(struct ui *ui);
};

/* JOB_RUN: the generator (:gen, :cover, r; app.c).  JOB_SEARCH: a search of
 * a long list, then counting its matches (app.c).  JOB_WHY: the detail
 * pane's explanation of a k-path on a large grammar, computed after the
 * frame is shown; any key drops it (pane_detail.c).  JOB_SAMPLES: loading
 * samples, a few files per slice, so the UI answers while they parse
 * (app.c).  JOB_CAMPAIGN: :run, the workspace's inputs through a program, a
 * few campaign_steps per slice; any key stops it and kills the runs
 * (runs_job.c).  JOB_RESTORE: loading the autosaved session, some lines per
 * slice; it replaces the workspace when done (keys wait: half a session is
 * no use; app.c).  JOB_RUNS_REPORT: the runs view's report, an input per
 * unit (runs_job.c).  JOB_FEATURES: learning the behaviour features view's
 * trees (features_job.c).  JOB_GENERALIZE: :generalize (generalize_job.c).
 * JOB_SHRINK: Z or :shrink, a failed run's input made smaller, a run at a
 * time (runs_shrink.c).
 * Any key stops the report or the learning; the view says how to start it
 * again. */
enum job_kind { JOB_NONE, JOB_RUN, JOB_SEARCH, JOB_WHY, JOB_SAMPLES, JOB_CAMPAIGN, JOB_RESTORE,
                JOB_RUNS_REPORT, JOB_FEATURES, JOB_GENERALIZE, JOB_SHRINK, NJOBS };

struct graph_row {
    uint32_t node;
    uint32_t depth;
};

struct text_token {
    uint32_t start, len; /* into text_view.buf */
    uint32_t node;       /* NODE_NONE for punctuation */
};

struct text_line {
    uint32_t first_token, ntokens;
    uint32_t indent;
};

struct prob_row {
    enum { PROB_RULE, PROB_ALT_HEADER, PROB_ALTERNATIVE, PROB_REPEAT } kind;
    uint32_t rule, node, index;
};

/* The views of the inputs pane, one at a time: the list of inputs, the
 * coverage growth plot (v; it shares the list's cursor), the runs of :run
 * (b; runs.c) and the behaviour features learned from them (w;
 * features.c).  The runs and the features keep their own list state while
 * another view is shown (inputs_view.c swaps them in). */
enum inputs_view { INPUTS_LIST, INPUTS_PLOT, INPUTS_RUNS, INPUTS_FEATURES, NINPUTS_VIEWS };

struct ui {
    struct workspace *ws;
    struct screen scr;
    struct theme theme;
    unsigned theme_generation; /* counts theme changes, for the terminal */
    bool mono;               /* NO_COLOR or a terminal without colours */
    int ncolors;             /* the terminal's colours (0: script mode, not known) */
    bool ascii;              /* non-UTF-8 locale: ASCII glyphs */
    char *exe_dir;           /* owned; for themes */
    bool script_mode;

    enum pane_id focus;
    enum pane_id slot_b;     /* k-paths or stepper */
    enum pane_id slot_c;     /* probabilities or inputs */
    enum pane_id detail_of;  /* graph, k-paths or inputs: what the detail pane explains */
    bool zoom;
    struct rect pane_rect[NPANES]; /* where each pane was drawn (w == 0: hidden) */
    int tab_x[NPANES + 1];   /* where each tab starts in the tab bar */
    struct list_state list[NPANES];

    /* graph pane */
    uint32_t *owner;         /* owned; per node: its parent in the tree view */
    bool *expanded;          /* owned; per node */
    struct graph_row *grows; /* owned */
    size_t ngrows, grows_cap;
    bool grows_stale;
    bool text_view;
    bool picture_view;       /* V: the tree drawn as a picture (pane_graph.c) */
    bool cover_restores;     /* :cover runs: give back cover_strategy at its end */
    int cover_strategy;      /* enum gen_strategy */
    uint32_t text_view_node; /* the tree's selected node when t showed the text */
    struct {
        struct strbuf buf;
        struct text_token *tokens;
        size_t ntokens, tokens_cap;
        struct text_line *lines;
        size_t nlines, lines_cap;
        int width;           /* built for this width */
        const struct graph *graph;
    } text;

    /* k-paths pane */
    enum ws_filter filter;
    bool show_patterns;
    /* narrowing (F, :narrow TEXT): only the k-paths whose names contain the
     * text, as positions in the filter's list (sorted), for narrow_key */
    char *narrow;            /* owned; NULL: not narrowed */
    uint64_t *narrow_pos;    /* owned */
    size_t nnarrow, narrow_cap;
    uint64_t narrow_key[6];
    bool narrow_valid;
    /* _skip: the k-paths through an ANTLR import's _skip rules are left out
     * of the list (and its patterns) unless show_skip; they are left out by
     * the narrowing above, for lists of at most UI_SEARCH_MATCHES_MAX */
    bool show_skip;
    struct skip_paths skip;        /* owned; of skip_graph */
    const struct graph *skip_graph;
    uint64_t skip_hidden;          /* rows of the filter's list left out */

    /* probabilities pane */
    struct prob_row *prows;  /* owned */
    size_t nprows, prows_cap;
    bool prows_stale;

    /* inputs pane */
    uint64_t preview_top;
    int preview_height;
    uint64_t preview_hl_sig; /* the input and k-path the preview last scrolled to */
    bool marks_exported;     /* the marked inputs were exported since marked */
    enum inputs_view inputs_view; /* which of its views the pane shows */
    struct coverage_growth growth; /* the plot's curve, for growth_key */
    bool growth_valid;
    struct gen_compare compare;    /* :compare's curves */
    bool compare_valid;
    bool compare_by_input;         /* its x axis: inputs (B switches), else bytes written */
    uint64_t growth_key[4];

    /* the runs view of the inputs pane (b; runs.c): the records of the
     * workspace's results file (ws->results_path), failures first, each tied
     * to its input by SHA-256, and the report relating them to k-paths */
    struct list_state runs_list;   /* the other view's list state, swapped in by b */
    struct results runs;           /* owned when runs_valid */
    size_t *runs_order;            /* owned; records, failures first */
    size_t *runs_input;            /* owned; per record: its workspace input, or SIZE_MAX */
    struct run_report runs_report; /* owned when runs_valid */
    struct run_report_job *runs_job; /* owned; the report while it is computed */
    bool runs_report_done;         /* runs_report is complete */
    bool runs_report_stopped;      /* a key stopped it (b twice starts it again) */
    bool runs_report_plot;         /* v: the report as a plot, not a table */
    char *runs_error;              /* owned; why the results cannot be shown */
    bool runs_valid;
    uint64_t runs_key[3];          /* the results and report are of these */
    uint64_t runs_changes;         /* ws->changes the rows were tied at */
    uint64_t runs_generation;      /* counts finished :runs (the file changed) */
    /* JOB_CAMPAIGN: what the campaign borrows, owned here while it runs */
    struct {
        struct campaign *campaign;
        struct collector *cols;
        size_t ncols;
        char **argv;               /* NULL-terminated, each owned */
        char **collect;            /* the collectors' names, borrowed from cols */
        struct results_header header; /* fields borrowed */
        struct sample_list inputs;
        char *results;             /* owned */
        struct diag_list diags;
        bool append;               /* T's runs of new inputs, appended (resume) */
        /* runs_append's caller, told when its runs are over (runs_job.h) */
        void (*then)(struct ui *ui, const struct results *all, const struct sample_list *ran,
                     bool stopped);
    } run;
    /* the words of the last :run that started (options, then the command),
     * each owned: T runs its new inputs with them */
    char **run_last;
    int run_last_n;
    struct runs_shrink *shrink;    /* owned; JOB_SHRINK's state (runs_shrink.c) */

    /* the behaviour features view of the inputs pane (w; features.c) */
    struct features_view *features; /* owned; NULL until first shown */

    /* stepper: what was shown last, to follow the slot just filled */
    uint64_t stepper_sig;
    /* stepper: the steps taken with s and S since the generator started
     * (step_known), and the generator as they left it, so that <BS> can
     * step back by replaying all but the last (app.c) */
    const void *step_gen;
    size_t step_tree_len, step_ninputs;
    uint32_t step_last;
    uint64_t step_count;
    bool step_known;

    /* detail pane: the explanation of the selected k-path, kept while the
     * selection and the workspace stay the same */
    uint64_t detail_lines;
    struct why_report why;
    bool why_valid;
    uint64_t why_key[5];

    /* search */
    char *search;            /* owned; the last search text */
    bool search_backward;      /* the direction of the last search typed */
    bool search_scan_backward; /* the direction of the scan under way (N: reversed) */
    enum pane_id search_pane;
    uint64_t search_pos, search_start, search_done;
    bool *search_node_match; /* owned; per node: its name contains the text
                                (NULL when the text has blanks or arrows) */
    bool search_highlight;   /* show the matching nodes (Esc hides them) */
    /* after a match is found, every match of the list is counted once (a
     * slice at a time): "match 3 of 40" */
    bool search_counting, search_counted;
    uint64_t search_key[6];    /* the list the count is of */
    uint64_t search_count_pos, search_total;
    uint64_t *search_matches;  /* owned; the matching rows, sorted (the first
                                  UI_SEARCH_MATCHES_MAX of search_total) */
    size_t search_nmatches, search_matches_cap;

    /* job */
    enum job_kind job;
    uint64_t job_inputs_before;
    double job_started;
    struct sample_list job_files; /* JOB_SAMPLES: the files, the next to read */
    size_t job_next, job_added;
    double job_file_since;        /* JOB_SAMPLES: when the file being read began */
    /* Set by the terminal's loop (NULL in script mode): asked during the
     * parse of a sample whether a key or a signal waits, which stops the
     * parse (a grammar whose tokens can end anywhere takes minutes on a few
     * kilobytes); the loop then reads the key, which stops the job. */
    bool (*parse_should_stop)(void *ui);
    bool parse_interrupted;       /* it said so, and the loop has not read the key yet */
    size_t job_stop_note;         /* JOB_SAMPLES: 1 + the index in job_diags of where a
                                     parse was stopped (a note), or 0 */
    struct diag_list job_diags;
    struct workspace_loader *job_loader; /* JOB_RESTORE */
    unsigned restore_keys_ignored;       /* keys pressed during it, said on its line */
    struct generalize_job *gz;           /* owned; :generalize, running or done */

    /* messages and prompts: the message line shows the last message, the
     * log keeps every message and every diagnostic of the session in full
     * (:messages, M), the oldest dropped past UI_LOG_MAX entries */
    char *message;           /* owned */
    bool message_error;
    bool message_more;       /* the log holds more than the message line shows */
    struct log_entry *log;   /* owned */
    size_t nlog, log_cap;
    /* an overlay over the panes: help or the message log; j/k scroll, / searches */
    enum overlay_kind { OVERLAY_NONE, OVERLAY_HELP, OVERLAY_MESSAGES,
                        OVERLAY_GENERALIZE /* generalize_view.c */,
                        OVERLAY_COMPARE /* :compare, commands.c */ } overlay;
    uint64_t help_top;
    int help_height;
    uint64_t overlay_match;  /* the line the last search in the overlay found + 1; 0: none */
    bool footer_hidden;      /* the line of the focused pane's keys (:footer toggles it) */
    /* a yes/no question: on 'y' run `on_yes` */
    char *question;          /* owned */
    void (*on_yes)(struct ui *ui);
    void (*on_no)(struct ui *ui);
    char *pending_export;    /* owned; the directory export! asks about */

    /* the command line (drawn from these; term.c keeps them current) */
    bool front_cmdline;      /* the front end has a command line (the terminal) */
    void (*front_key)(struct ui *ui, int key); /* set by the front end: a script
                                line's key goes there (its command line, when open) */
    char *cmdline_want_prompt, *cmdline_want_text; /* owned; ui_cmdline_open: the
                                front end opens the command line with these */
    bool cmdline;
    char *cmd_prompt;        /* owned */
    char *cmd_text;          /* owned */
    int cmd_point;           /* byte offset of the cursor in cmd_text */
    char *cmd_hint;          /* owned; completion matches */
    int cursor_x, cursor_y;  /* where the terminal cursor goes (-1: hidden) */

    struct {
        int x, y;
        enum { MOUSE_CLICK, MOUSE_WHEEL_UP, MOUSE_WHEEL_DOWN } kind;
    } mouse;

    /* a lesson (lesson.h): its caption is shown above the footer */
    struct lesson *lesson;   /* owned; NULL: none */
    size_t lesson_step;
    bool lesson_start;       /* lessons_open: the top goes to the first step */

    bool quit;
    bool redraw_all;         /* the terminal should be repainted from scratch */
    int exit_status;
    uint64_t saved_changes;  /* ws->changes at the last autosave */
    char *autosave_path;     /* owned; NULL: no autosave */
    bool keep_autosave;      /* quit while restoring it: it stays for next time */
    char *state_dir;         /* owned; where autosaves go (NULL: none) */
};

/* A key a view takes: the footer line names it by the first key the key
 * table binds to `action`, then `word` ("": help lists it, the footer does
 * not); help prints the key table's keys and text for it. */
struct footer_key {
    enum action action;
    const char *word;
};
/* The keys a pane's view takes, the most useful first (ended by ACT_NONE),
 * and the title help gives them (the footer and help are drawn from the
 * same list, so they cannot disagree with each other or the view). */
struct view_keys {
    const char *title;
    const struct footer_key *keys;
};

/* An overlay over the panes (help, the message log, the generalization
 * view): its title line, its lines (each ending in '\n' and starting with a
 * marker: \x01 a section title, \x02KEYS\x03TEXT a binding, \x04 an error
 * line, \x05 a plain line; the app draws, scrolls and searches them), and
 * the keys the footer names while it is open (ended by ACT_NONE; NULL: the
 * focused pane's, as help is about that pane). */
struct overlay_ops {
    const char *title;
    void (*lines)(struct ui *ui, int width, struct strbuf *out);
    const struct footer_key *footer;
    /* NULL, or it draws the overlay below its title in place of the lines
     * (which search still reads) */
    void (*draw)(struct ui *ui, struct rect r);
};
extern const struct overlay_ops compare_overlay_ops;
extern const struct overlay_ops generalize_overlay_ops;

extern const struct pane_ops *const pane_ops[NPANES];
extern const struct pane_ops graph_pane_ops, kpaths_pane_ops, probs_pane_ops, stepper_pane_ops,
    inputs_pane_ops, detail_pane_ops;

/* Draw a derivation tree (pre-order, indented) rows [top, top+h) into r;
 * returns the number of rows.  `mark` is highlighted (DTREE_NONE: none),
 * *mark_row set to its row; so are the instances i with hl[i] (hl may be
 * NULL: none), as the k-path they are on, *hl_row set to the first one's. */
uint64_t draw_tree(struct ui *ui, const struct derivation *t, struct rect r, uint64_t top,
                   uint32_t mark, uint64_t *mark_row, const bool *hl, uint64_t *hl_row);

/* ---- pane helpers used across files ---------------------------------------- */
/* The k-path list as shown (the filter, then the narrowing): its length, the
 * rank of row i, and the first row whose rank is >= r (the length: none). */
uint64_t kpaths_count(struct ui *ui);
uint64_t kpaths_rank(struct ui *ui, uint64_t row);
uint64_t kpaths_row_from(struct ui *ui, uint64_t rank);
/* Narrow the list to the k-paths whose names contain text (case ignored);
 * NULL or "" shows them all again.  REQ_ERROR when the list is too long to
 * narrow as you type, else REQ_DONE. */
struct pane_request kpaths_narrow(struct ui *ui, const char *text);
/* Select the k-path `path` (n nodes) in the k-path list, showing every
 * k-path when the filter hides it; false when the list cannot show it (n
 * is not k, or the list is too long to rank). */
bool kpaths_select_path(struct ui *ui, const uint32_t *path, uint32_t n);
/* The k-path selected in the k-paths pane (false when there is none). */
bool kpaths_selected(struct ui *ui, uint32_t *path, uint64_t *rank);
/* Is node n a match of the last search (or on a k-path of the selected
 * feature), to be highlighted?  (features.c, above the two panes asking.) */
bool node_highlighted(const struct ui *ui, uint32_t n);
void graph_rebuild(struct ui *ui);
void graph_reveal(struct ui *ui, uint32_t node);
uint32_t graph_selected_node(struct ui *ui);
/* Whether inverting the probabilities changes anything: some are learned,
 * annotated, edited or inverted (inverting equal shares gives them back). */
bool probs_invertible(const struct workspace *ws);
#define PROBS_NOTHING_TO_INVERT \
    "nothing to invert: every probability is an equal share (learn some: :samples FILE, then L)"
void probs_rebuild(struct ui *ui);
/* Build the rule text tokens for `node` (its subtree, references as names). */
void expr_tokens(const struct graph *g, uint32_t node, struct strbuf *buf,
                 struct text_token **tokens, size_t *ntokens, size_t *cap);
/* ---- runs.c: the runs view of the inputs pane (b; :run is runs_job.c, app.h) ------- */
/* Drop the runs view's rows and report (runs.c; runs_free calls it). */
void runs_view_free(struct ui *ui);
/* The runs view: rows, drawing, the title's summary, a row's text. */
uint64_t runs_rows(struct ui *ui);
void runs_draw(struct ui *ui, struct rect r, bool focused);
void runs_summary(struct ui *ui, struct strbuf *out);
void runs_row_text(struct ui *ui, uint64_t row, struct strbuf *out);
/* The keys the runs view takes (the inputs pane's keys while it is shown). */
const struct view_keys *runs_view_keys(struct ui *ui);
/* Switch the inputs pane between the inputs and the runs (inputs_view.c). */
void runs_toggle(struct ui *ui, bool on);
/* The record of runs-view row `row` (NULL when there is none). */
const struct run_record *runs_record(struct ui *ui, uint64_t row);
/* The workspace input the inputs pane has selected, in either view
 * (SIZE_MAX: none, or a run whose input is no longer in the workspace). */
size_t inputs_selected(struct ui *ui);

/* ---- features.c: the behaviour features view of the inputs pane (w; its job is
 * features_job.c, app.h) ---------------------------------------------------------------- */
/* Switch the inputs pane between the inputs and the features (inputs_view.c). */
void features_toggle(struct ui *ui, bool on);
uint64_t features_rows(struct ui *ui);
void features_draw(struct ui *ui, struct rect r, bool focused);
void features_summary(struct ui *ui, struct strbuf *out);
void features_row_text(struct ui *ui, uint64_t row, struct strbuf *out);
/* The view's keys (Enter; T, which the app carries out: REQ_ACTION; m and
 * d say they do not apply); REQ_NOT_MINE: not its. */
struct pane_request features_action(struct ui *ui, enum action a);
/* The keys the view takes (the inputs pane's keys while it is shown). */
extern const struct view_keys features_view_keys;
/* Is node n on a k-path of the selected rule (or feature)? */
bool features_node_highlighted(const struct ui *ui, uint32_t n);
/* The detail pane's paragraphs for the selected row: add(ctx, label, style)
 * gives the text of a new paragraph. */
typedef struct strbuf *(*detail_para_fn)(void *ctx, const char *label, int style);
void features_detail(struct ui *ui, detail_para_fn add, void *ctx);

#endif
