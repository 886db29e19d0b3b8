/* ui: the explorer's state and what its parts share.
 *
 * The TUI is a front end over one workspace (src/workspace.h).  Everything
 * here is independent of curses: panes draw into a `struct screen`, keys
 * arrive as ints (keys.h), and the terminal back end (term.c) or script mode
 * (script.c) feeds them in and shows the frame.  So every pane, key and
 * command runs the same way in a terminal and in the script-mode tests.
 *
 * Panes (tig's view_ops in spirit): each has a struct pane_ops with a title,
 * a row count for the generic list navigation, a draw function and an action
 * handler for its own keys.  A pane draws only its visible rows, so lists of
 * any length (a million k-paths) cost the same to draw.
 *
 * Long work (running the generator, searching a long list) is a job: the
 * main loop does a bounded slice of it between input polls, so the UI stays
 * responsive and any key stops it. */
#ifndef KPATH_UI_UI_H
#define KPATH_UI_UI_H

#include <stdbool.h>
#include <stdint.h>

#include "campaign.h"
#include "generalize_view.h"
#include "growth.h"
#include "run_report.h"
#include "keys.h"
#include "samples.h"
#include "screen.h"
#include "strbuf.h"
#include "theme.h"
#include "why.h"
#include "workspace.h"

enum pane_id { PANE_GRAPH, PANE_KPATHS, PANE_PROBS, PANE_STEPPER, PANE_INPUTS, PANE_DETAIL, NPANES };

/* Smallest terminal the layout works in; below it a message is shown. */
#define UI_MIN_W 60
#define UI_MIN_H 16
#define UI_LOG_MAX 5000
#define UI_SEARCH_MATCHES_MAX (1u << 20)

struct list_state {
    uint64_t cursor, top;
    int height;  /* visible rows at the last draw */
    int first_y; /* screen row of the first visible row at the last draw */
};

struct ui;

struct pane_ops {
    const char *title;
    enum key_context context;
    uint64_t (*rows)(struct ui *ui);
    /* Draw into r (the title line is drawn by the caller, r is the body). */
    void (*draw)(struct ui *ui, struct rect r, bool focused);
    /* Handle a pane action; false when the pane does not take it. */
    bool (*action)(struct ui *ui, enum action a);
    /* The row was clicked (after the cursor moved there). */
    void (*clicked)(struct ui *ui);
    /* Text of a row, for search; NULL when the pane has no searchable rows. */
    void (*row_text)(struct ui *ui, uint64_t row, struct strbuf *out);
    /* What the title line says after the pane's name. */
    void (*summary)(struct ui *ui, struct strbuf *out);
};

/* JOB_WHY: the detail pane's explanation of a k-path on a large grammar,
 * computed after the frame is shown; any key drops it.  JOB_SAMPLES: loading
 * samples, a few files per slice, so the UI answers while they parse.
 * JOB_CAMPAIGN: :run, the workspace's inputs through a program, a few
 * campaign_steps per slice; any key stops it and kills the runs (runs.c).
 * JOB_RESTORE: loading the autosaved session, some lines per slice; it
 * replaces the workspace when done (keys wait: half a session is no use).
 * JOB_RUNS_REPORT: the runs view's report, an input per unit (runs.c).
 * JOB_FEATURES: learning the behaviour features view's trees (features.c).
 * Any key stops either; the view says how to start it again. */
enum job_kind { JOB_NONE, JOB_RUN, JOB_SEARCH, JOB_WHY, JOB_SAMPLES, JOB_CAMPAIGN, JOB_RESTORE,
                JOB_RUNS_REPORT, JOB_FEATURES, JOB_GENERALIZE /* :generalize (generalize_view.c) */ };

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

struct ui {
    struct workspace *ws;
    struct screen scr;
    struct theme theme;
    unsigned theme_generation; /* counts theme changes, for the terminal */
    bool mono;               /* NO_COLOR or a terminal without colours */
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
    uint64_t narrow_key[5];
    bool narrow_valid;

    /* probabilities pane */
    struct prob_row *prows;  /* owned */
    size_t nprows, prows_cap;
    bool prows_stale;

    /* inputs pane */
    uint64_t preview_top;
    int preview_height;
    bool marks_exported;     /* the marked inputs were exported since marked */
    bool inputs_plot;        /* the pane shows the coverage growth plot (v) */
    struct coverage_growth growth; /* the plot's curve, for growth_key */
    bool growth_valid;
    uint64_t growth_key[4];

    /* the runs view of the inputs pane (b; runs.c): the records of the
     * workspace's results file (ws->results_path), failures first, each tied
     * to its input by SHA-256, and the report relating them to k-paths */
    bool inputs_runs;
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
    } run;
    /* the words of the last :run that started (options, then the command),
     * each owned: T runs its new inputs with them */
    char **run_last;
    int run_last_n;

    /* the behaviour features view of the inputs pane (w; features.c) */
    bool inputs_features;
    struct features_view *features; /* owned; NULL until first shown */

    /* stepper: what was shown last, to follow the slot just filled */
    uint64_t stepper_sig;

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
    struct diag_list job_diags;
    struct workspace_loader *job_loader; /* JOB_RESTORE */
    struct generalize_job *gz;           /* owned; :generalize, running or done */

    /* messages and prompts: the message line shows the last message, the
     * log keeps every message and every diagnostic of the session in full
     * (:messages, M), the oldest dropped past UI_LOG_MAX entries */
    char *message;           /* owned */
    bool message_error;
    bool message_more;       /* the log holds more than the message line shows */
    struct log_entry {
        char *text;          /* owned; may have several lines */
        bool error;
    } *log;                  /* owned */
    size_t nlog, log_cap;
    /* an overlay over the panes: help or the message log; j/k scroll, / searches */
    enum overlay_kind { OVERLAY_NONE, OVERLAY_HELP, OVERLAY_MESSAGES,
                        OVERLAY_GENERALIZE /* generalize_view.c */ } overlay;
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

    bool quit;
    bool redraw_all;         /* the terminal should be repainted from scratch */
    int exit_status;
    uint64_t saved_changes;  /* ws->changes at the last autosave */
    char *autosave_path;     /* owned; NULL: no autosave */
    char *state_dir;         /* owned; where autosaves go (NULL: none) */
};

extern const struct pane_ops *const pane_ops[NPANES];
extern const struct pane_ops graph_pane_ops, kpaths_pane_ops, probs_pane_ops, stepper_pane_ops,
    inputs_pane_ops, detail_pane_ops;

/* ---- app.c ---------------------------------------------------------------- */
void ui_init(struct ui *ui, struct workspace *ws);
void ui_free(struct ui *ui);
/* Swap in a new workspace (after :load or :open); the old one is freed. */
void ui_set_workspace(struct ui *ui, struct workspace *ws);
/* Draw the whole frame into ui->scr (already sized). */
void ui_draw(struct ui *ui);
/* Handle one key (K_MOUSE: ui->mouse holds the event). */
void ui_key(struct ui *ui, int key);
/* Run a command line (without the ':'). */
void ui_command(struct ui *ui, const char *line);
/* Search for text in the focused list (or the k-paths); an empty text
 * repeats the last search in the given direction. */
void ui_search(struct ui *ui, const char *text, bool backward);
/* Do a slice of the current job (at most `budget` seconds). */
void ui_job_slice(struct ui *ui, double budget);
void ui_job_stop(struct ui *ui, const char *why);
void ui_message(struct ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ui_error(struct ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Shows the first error (or the first diagnostic) and how many more there
 * are, logs every one of them in full, and frees them. */
void ui_diags(struct ui *ui, struct diag_list *diags);
/* Add a line to the message log only (the message line is left alone). */
void ui_log(struct ui *ui, bool error, const char *text);
/* Open an overlay (help or the message log) at its top. */
void ui_overlay(struct ui *ui, enum overlay_kind kind);
void ui_ask(struct ui *ui, const char *question, void (*on_yes)(struct ui *),
            void (*on_no)(struct ui *));
void ui_focus(struct ui *ui, enum pane_id p);
/* The workspace changed shape (k, inputs, grammar): refresh derived rows. */
void ui_workspace_changed(struct ui *ui);
/* Ask to quit (checks unsaved work). */
void ui_request_quit(struct ui *ui, bool force);
/* Switch themes; problems are reported, success too unless `quiet`. */
bool ui_set_theme(struct ui *ui, const char *name, bool quiet);
double ui_now(void);
void ui_autosave(struct ui *ui, bool force);
/* File the autosave under what the session is about: the workspace file it
 * was opened from or saved to, else the grammar; an autosave filed under
 * the previous key is removed (its work was saved or given up). */
void ui_autosave_rekey(struct ui *ui);

/* list helpers */
void list_clamp(struct list_state *l, uint64_t rows);
void list_scroll_into_view(struct list_state *l, uint64_t rows);
/* Draw the selection style over row y of r. */
void draw_selected(struct ui *ui, struct rect r, int y, bool focused);
/* "12.5": a coverage percentage rounded down to tenths (only full
 * coverage, or nothing to cover, reads 100.0). */
void ui_add_percent(struct strbuf *out, uint64_t covered, uint64_t total);
/* Glyph strings, UTF-8 or ASCII. */
const char *glyph(const struct ui *ui, const char *utf8, const char *ascii);
/* Escape an input for one-line display: \n, \t, \r and \xHH for control
 * characters; a backslash stays one backslash (the text as written). */
void escape_text(const char *text, size_t len, size_t max, struct strbuf *out);
/* The k-path selected in the k-paths pane (false when there is none). */
bool ui_selected_kpath(struct ui *ui, uint32_t *path, uint64_t *rank);
/* Is node n a match of the last search, to be highlighted? */
bool ui_node_highlighted(const struct ui *ui, uint32_t n);
/* The mark that says a coverage style without colour: covered, partly,
 * uncovered (the k-path list and the graph use the same marks). */
const char *coverage_mark(const struct ui *ui, int style);
/* The coverage style of a symbolic node. */
int node_style(struct ui *ui, uint32_t node);
/* Draw a derivation tree (pre-order, indented) rows [top, top+h) into r;
 * returns the number of rows.  `mark` is highlighted (DTREE_NONE: none). */
uint64_t draw_tree(struct ui *ui, const struct dtree *t, struct rect r, uint64_t top,
                   uint32_t mark, uint64_t *mark_row);

/* ---- pane helpers used across files ---------------------------------------- */
/* The k-path list as shown (the filter, then the narrowing): its length, the
 * rank of row i, and the first row whose rank is >= r (the length: none). */
uint64_t kpaths_count(struct ui *ui);
uint64_t kpaths_rank(struct ui *ui, uint64_t row);
uint64_t kpaths_row_from(struct ui *ui, uint64_t rank);
/* Narrow the list to the k-paths whose names contain text (case ignored);
 * NULL or "" shows them all again.  False (with an error) when the list is
 * too long to narrow as you type. */
bool kpaths_narrow(struct ui *ui, const char *text);
/* Does hay contain needle, ignoring ASCII case? */
bool text_contains_nocase(const char *hay, const char *needle);
void graph_rebuild(struct ui *ui);
void graph_reveal(struct ui *ui, uint32_t node);
uint32_t graph_selected_node(struct ui *ui);
void probs_rebuild(struct ui *ui);
/* Build the rule text tokens for `node` (its subtree, references as names). */
void expr_tokens(const struct graph *g, uint32_t node, struct strbuf *buf,
                 struct text_token **tokens, size_t *ntokens, size_t *cap);
/* Load sample files as a job (JOB_SAMPLES), a few files per slice. */
void ui_start_samples(struct ui *ui, char *const *paths, size_t n);
/* Restore the autosaved session as a job (JOB_RESTORE). */
void ui_start_restore(struct ui *ui);
/* The deferred explanation (JOB_WHY): compute it for the selected k-path. */
void detail_explain_selected(struct ui *ui);
/* Generate a smallest input covering the k-path of rank r. */
void ui_cover_path(struct ui *ui, const uint32_t *path);

/* Open a lesson by name (lessons/NAME.lesson) or path at its first step;
 * false with an error message. */
bool ui_lesson_open(struct ui *ui, const char *name);
/* Go to step i of the open lesson (its setup lines and those before run). */
void ui_lesson_goto(struct ui *ui, size_t i);
/* The directory of the bundled lessons (owned string), or NULL. */
char *ui_lessons_dir(const struct ui *ui);

/* ---- runs.c: :run and the runs view of the inputs pane ------------------------------ */
/* Start :run with these words (options, then the command); errors are shown. */
void runs_start(struct ui *ui, char **words, int n, bool force);
/* Run the inputs first .. first+count-1 (0-based) as the last :run of this
 * session did, appending their records to the workspace's results file
 * (after checking that it describes the other inputs as they are): 1 when
 * the campaign started, 0 when it could not (the error is shown), -1 when
 * nothing was run in this session. */
int runs_append(struct ui *ui, size_t first, size_t count);
/* Forget the last :run (a workspace of its own was opened). */
void runs_forget(struct ui *ui);
/* An option of the runs a command typed in the explorer starts (-j/--jobs,
 * --timeout, --max-memory), word w with value v, as the CLI reads them:
 * 1 when set, 0 after an error naming `command` (shown), -1 when w is none
 * of them. */
int ui_runner_option(struct ui *ui, const char *command, const char *w, const char *v,
                     struct runner_options *ro);
/* A slice of the campaign; false when it is over (finished or failed). */
bool runs_slice(struct ui *ui, double deadline);
/* Stop the campaign (a key): kill every run, keep the records so far. */
void runs_stop(struct ui *ui);
/* The status line while it runs. */
void runs_status(struct ui *ui, struct strbuf *out);
void runs_free(struct ui *ui);
/* The runs view: rows, drawing, the title's summary, a row's text. */
uint64_t runs_rows(struct ui *ui);
void runs_draw(struct ui *ui, struct rect r, bool focused);
void runs_summary(struct ui *ui, struct strbuf *out);
void runs_row_text(struct ui *ui, uint64_t row, struct strbuf *out);
/* Switch the inputs pane between the inputs and the runs. */
void runs_toggle(struct ui *ui, bool on);
/* The record of runs-view row `row` (NULL when there is none). */
const struct run_record *runs_record(struct ui *ui, uint64_t row);
/* The workspace input the inputs pane has selected, in either view
 * (SIZE_MAX: none, or a run whose input is no longer in the workspace). */
size_t inputs_selected(struct ui *ui);

/* The runs view's report as a job (JOB_RUNS_REPORT): a slice (false when
 * done), stopped by a key, the status line while it runs. */
bool runs_report_slice(struct ui *ui, double deadline);
void runs_report_stop(struct ui *ui);
void runs_report_status(struct ui *ui, struct strbuf *out);

/* ---- features.c: the behaviour features view of the inputs pane (w) ---------------- */
void features_toggle(struct ui *ui, bool on);
uint64_t features_rows(struct ui *ui);
void features_draw(struct ui *ui, struct rect r, bool focused);
void features_summary(struct ui *ui, struct strbuf *out);
void features_row_text(struct ui *ui, uint64_t row, struct strbuf *out);
/* The view's keys (Enter, T; m and d say they do not apply); false: not its. */
bool features_action(struct ui *ui, enum action a);
/* Is node n on a k-path of the selected rule (or feature)? */
bool features_node_highlighted(const struct ui *ui, uint32_t n);
/* Learning as a job (JOB_FEATURES): a slice (false when done), stop, status. */
bool features_slice(struct ui *ui, double deadline);
void features_stop(struct ui *ui);
void features_status(struct ui *ui, struct strbuf *out);
void features_free(struct ui *ui);
/* The end of the runs T started (runs_append): all holds every record of
 * the results file, ran the new inputs' paths; the view learns again, then
 * selects the feature again and says how many of the new inputs reach it. */
void features_ran(struct ui *ui, const struct results *all, const struct sample_list *ran,
                  bool stopped);
/* The detail pane's paragraphs for the selected row: add(ctx, label, style)
 * gives the text of a new paragraph. */
typedef struct strbuf *(*detail_para_fn)(void *ctx, const char *label, int style);
void features_detail(struct ui *ui, detail_para_fn add, void *ctx);

/* ---- commands.c ---------------------------------------------------------------- */
/* Completion candidates for the command line `line` whose last word starts
 * at byte `start`: a NULL-terminated array of strings (caller frees), or NULL
 * for file-name completion. */
char **commands_complete(struct ui *ui, const char *line, int start, const char *word);
void commands_help(struct strbuf *out, int width);
size_t commands_help_lines(void);

/* ---- plot.c ------------------------------------------------------------------------ */
/* Horizontal bars: label i, then a bar of value[i] out of max (eighths of a
 * cell in UTF-8, '#' in ASCII) in style[i], then the value as written in
 * text[i]; one row each from r.y.  Returns the rows drawn. */
int plot_bars(struct ui *ui, struct rect r, const char *const *label, const double *value,
              const char *const *text, const int *style, size_t n, double max);
/* Draw the coverage growth chart into r; `selected` inputs are marked. */
void plot_growth(struct ui *ui, struct rect r, const struct coverage_growth *g, size_t selected);
/* The style of the curve of k. */
int plot_curve_style(uint32_t k);

/* ---- svg.c ----------------------------------------------------------------------- */
void svg_render(const struct screen *s, const struct theme *t, struct strbuf *out);

/* ---- term.c (the terminal; absent in script mode) ---------------------------------- */
/* Start the command line with a prompt (":" or "/") and initial text. */
void term_cmdline_begin(struct ui *ui, const char *prompt, const char *initial);
bool term_active(void);

#endif
