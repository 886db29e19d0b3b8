/* tui: from the options kpath's main read (struct tui_args), the workspace
 * to start with, locale and theme, autosave, then script mode or the
 * terminal.  A front end (the top layer, see ui.h):
 * it sets the app up through app.h and hands it to script.c or term.c. */
#include "tui.h"

#include <errno.h>
#include <inttypes.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/file_hint.h"
#include "formats/grammar_load.h"
#include "base/number.h"
#include "script.h"
#include "term.h"
#include "app.h"
#include "base/xalloc.h"
#include "workspace/workspace_file.h"

/* Why the grammar file cannot be opened, on stderr (file_hint.h), with a
 * did-you-mean among the files next to it and the bundled grammars; false
 * when it can. */
static bool grammar_missing(const char *path, const char *bundled_dir)
{
    struct strbuf why = STRBUF_INIT;
    bool missing = file_hint_missing(path, bundled_dir, "\nkpath: ", &why);
    if (missing)
        fprintf(stderr, "kpath: %s\n", strbuf_str(&why));
    strbuf_free(&why);
    return missing;
}

/* roff: a hyphen is a minus sign, a backslash is \e, a leading dot is text */
static void roff(FILE *out, const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (i == 0 && (c == '.' || c == '\''))
            fputs("\\&", out);
        if (c == '\\')
            fputs("\\e", out);
        else if (c == '-')
            fputs("\\-", out);
        else
            fputc(c, out);
    }
}

void tui_man(FILE *out)
{
    for (int c = 0; c < NCONTEXTS; c++) {
        bool any = false;
        for (size_t i = 0; i < key_table_len; i++)
            any |= key_table[i].context == (enum key_context)c;
        if (!any)
            continue;
        fputs(".SS \"Keys: ", out);
        roff(out, key_context_titles[c], strlen(key_context_titles[c]));
        fputs("\"\n", out);
        for (size_t i = 0; i < key_table_len; i++) {
            if (key_table[i].context != (enum key_context)c)
                continue;
            fputs(".TP\n\\fB", out);
            roff(out, key_table[i].keys, strlen(key_table[i].keys));
            fputs("\\fR\n", out);
            roff(out, key_table[i].help, strlen(key_table[i].help));
            fputc('\n', out);
        }
    }
    fputs(".SS \"Commands (type : first)\"\n", out);
    struct strbuf lines = STRBUF_INIT;
    commands_help(&lines, 1000);
    for (const char *p = lines.data; p && *p;) {
        const char *nl = strchr(p, '\n');
        const char *mid = memchr(p, '\x03', (size_t)(nl - p));
        if (*p == '\x02' && mid) {
            fputs(".TP\n\\fB", out);
            roff(out, p + 1, (size_t)(mid - p - 1));
            fputs("\\fR\n", out);
            roff(out, mid + 1, (size_t)(nl - mid - 1));
            fputc('\n', out);
        }
        p = nl + 1;
    }
    strbuf_free(&lines);
}

static char *dir_of_executable(void)
{
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    return xstrdup(buf);
}

static char *default_grammar(const char *exe_dir)
{
    char path[PATH_MAX + 64];
    struct stat st;
    if (exe_dir) { /* build/kpath and build/san/kpath in a source tree */
        snprintf(path, sizeof path, "%s/../grammars/expr.ebnf", exe_dir);
        if (stat(path, &st) == 0)
            return xstrdup(path);
        snprintf(path, sizeof path, "%s/../../grammars/expr.ebnf", exe_dir);
        if (stat(path, &st) == 0)
            return xstrdup(path);
    }
    snprintf(path, sizeof path, "%s/grammars/expr.ebnf", KPATH_DATADIR);
    if (stat(path, &st) == 0)
        return xstrdup(path);
    return xstrdup("grammars/expr.ebnf");
}

/* $XDG_STATE_HOME/kpath (or ~/.local/state/kpath), created; NULL if it
 * cannot be. */
/* Whether TERM names a terminal curses can draw a full screen on: not
 * unset, "dumb" (Emacs' shell, some CI logs) or "unknown", which would
 * leave a blank screen. */
static bool term_usable(void)
{
    const char *term = getenv("TERM");
    return term && *term && strcmp(term, "dumb") != 0 && strcmp(term, "unknown") != 0;
}

static char *state_dir(void)
{
    const char *xdg = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    struct strbuf p = STRBUF_INIT;
    if (xdg && *xdg)
        strbuf_addstr(&p, xdg);
    else if (home && *home)
        strbuf_addf(&p, "%s/.local/state", home);
    else
        return NULL;
    strbuf_addstr(&p, "/kpath");
    /* mkdir -p, iteratively */
    for (size_t i = 1; i <= p.len; i++) {
        if (i == p.len || p.data[i] == '/') {
            char c = p.data[i];
            p.data[i] = '\0';
            if (mkdir(p.data, 0700) != 0 && errno != EEXIST) {
                strbuf_free(&p);
                return NULL;
            }
            p.data[i] = c;
        }
    }
    return strbuf_detach(&p, NULL);
}

static void restore_yes(struct ui *ui)
{
    ui_start_restore(ui); /* a job: a big session loads without blocking */
}

static void restore_no(struct ui *ui)
{
    unlink(ui->autosave_path);
    ui_message(ui, "autosave discarded");
}

void tui_list_keys(void)
{
    struct strbuf sb = STRBUF_INIT;
    keys_list(&sb);
    fputs(strbuf_str(&sb), stdout);
    strbuf_free(&sb);
}

int tui_main(const struct tui_args *args)
{
    const char *script = args->script, *workspace = args->workspace;
    const char *grammar = args->grammar, *lesson = args->lesson, *start = args->start;
    const char *theme = args->theme ? args->theme : getenv("KPATH_THEME");
    enum grammar_format format = args->format;
    int width = args->width, height = args->height;
    bool force_ascii = args->ascii;
    const char *bad = keys_check_table();
    if (bad) {
        fprintf(stderr, "kpath: internal error: bad or clashing keys in '%s'\n", bad);
        return 1;
    }
    if (grammar && !workspace) {
        /* a missing file or a directory: say so first, with a did-you-mean */
        char *dir = dir_of_executable();
        char *fallback = default_grammar(dir);
        char *slash = strrchr(fallback, '/');
        if (slash)
            *slash = '\0';
        char real[PATH_MAX];
        bool missing = grammar_missing(grammar, !slash ? NULL
                                                : realpath(fallback, real) ? real : fallback);
        free(fallback);
        free(dir);
        if (missing)
            return 2;
    }
    if (!script && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
        fprintf(stderr, "kpath: the explorer needs a terminal; 'kpath --help' lists the "
                        "commands, 'kpath --script FILE' runs the explorer from a script\n");
        return 2;
    }
    /* Characters only: curses and readline need the user's LC_CTYPE for
     * UTF-8, but numbers in saved workspaces, manifests and messages must not
     * turn into "0,5" under a locale with a decimal comma. */
    setlocale(LC_CTYPE, "");
    const char *codeset = nl_langinfo(CODESET);
    bool ascii = force_ascii || !codeset || strcmp(codeset, "UTF-8") != 0;

    char *exe_dir = dir_of_executable();
    char *grammar_path = grammar ? xstrdup(grammar) : default_grammar(exe_dir);

    struct diag_list d = DIAG_LIST_INIT;
    struct workspace *ws = workspace ? workspace_open(workspace, &d)
                                     : workspace_new_format(grammar_path, start, format, &d);
    if (!ws || (script && d.len)) {
        struct strbuf sb = STRBUF_INIT;
        diag_list_cap(&d, DIAG_ERRORS_SHOWN, workspace ? workspace : grammar_path);
        for (size_t i = 0; i < d.len; i++) {
            strbuf_reset(&sb);
            diag_format(&d.items[i], &sb);
            fprintf(stderr, "kpath: %s\n", strbuf_str(&sb));
        }
        strbuf_free(&sb);
        /* the loader picks the format by the extension; one it does not
         * know was read as EBNF: say so, and where the formats are */
        const char *dot = strrchr(grammar_path, '.');
        if (!ws && !workspace && format == GRAMMAR_FORMAT_AUTO &&
            grammar_format_of_path(grammar_path) == GRAMMAR_FORMAT_EBNF &&
            (!dot || strcmp(dot, ".ebnf") != 0))
            fprintf(stderr, "kpath: note: %s was read as kpath's EBNF (its name says no other "
                            "format); 'kpath check --help' lists the formats kpath reads\n",
                    grammar_path);
        if (!ws) {
            diag_list_free(&d);
            free(grammar_path);
            free(exe_dir);
            return 2;
        }
    }
    static struct ui ui;
    ui_init(&ui, ws);
    ui.exe_dir = exe_dir;
    ui.ascii = ascii;
    ui.scr.ascii = ascii;
    ui.script_mode = script != NULL;
    const char *no_color = getenv("NO_COLOR");
    ui.mono = no_color && *no_color;
    /* the theme's problems and the grammar's warnings stay on the message
     * line (the log has all of them); "theme default" does not */
    ui_set_theme(&ui, theme && *theme ? theme : "default", true);
    if (d.len) {
        char *theme_message = ui.message;
        bool theme_error = ui.message_error;
        ui.message = NULL;
        ui_diags(&ui, &d);
        if (theme_message) { /* both: say the theme's first, the log has the rest */
            free(ui.message);
            ui.message = theme_message;
            ui.message_error = theme_error;
            ui.message_more = true;
        }
    }
    diag_list_free(&d);
    if (!ui.message) {
        /* the file's name (the status bar's), the path is in the log */
        const char *base = strrchr(ws->grammar_path, '/');
        struct strbuf full = STRBUF_INIT;
        strbuf_addf(&full, "grammar %s", ws->grammar_path);
        ui_log(&ui, false, strbuf_str(&full));
        strbuf_free(&full);
        struct strbuf count = STRBUF_INIT;
        number_add_count(&count, ws->space.saturated ? UINT64_MAX : ws->space.total);
        ui_message(&ui, "%s: %u rules, %s %u-paths; Tab moves between the panes",
                   base ? base + 1 : ws->grammar_path, ws->grammar->nrules, strbuf_str(&count), ws->k);
        strbuf_free(&count);
    }

    /* a lesson's setup lines run on a screen of the size they will show on */
    if (script) {
        screen_resize(&ui.scr, width, height);
    } else {
        struct winsize wsz;
        if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &wsz) == 0 && wsz.ws_col && wsz.ws_row)
            screen_resize(&ui.scr, wsz.ws_col, wsz.ws_row);
    }
    if (lesson && !ui_lesson_open(&ui, lesson) && script) {
        fprintf(stderr, "kpath: %s\n", ui.message ? ui.message : "cannot open the lesson");
        ui_free(&ui);
        free(grammar_path);
        return 2;
    }
    int status;
    if (script) {
        term_script_begin(&ui);
        status = script_run(&ui, script);
        term_script_end(&ui);
    } else if (!term_usable()) {
        const char *term = getenv("TERM");
        fprintf(stderr, "kpath: the explorer needs a terminal that can move its cursor, and "
                        "TERM=%s cannot; run it in a terminal (TERM=xterm-256color, say), or use "
                        "the commands: kpath --help\n", term ? term : "");
        status = 2;
    } else {
        char *state = state_dir();
        char *history = NULL;
        if (state) {
            struct strbuf h = STRBUF_INIT;
            strbuf_addf(&h, "%s/history", state);
            history = strbuf_detach(&h, NULL);
            {
                ui.state_dir = xstrdup(state);
                ui_autosave_rekey(&ui);
                struct stat st;
                if (stat(ui.autosave_path, &st) == 0 && st.st_size > 0) {
                    char when[64];
                    strftime(when, sizeof when, "%Y-%m-%d %H:%M", localtime(&st.st_mtime));
                    /* an error of the start (--theme nosuch) stays in view
                     * in front of the question that would replace it */
                    struct strbuf q = STRBUF_INIT;
                    if (ui.message && ui.message_error)
                        strbuf_addf(&q, "%s. ", ui.message);
                    strbuf_addf(&q, "An autosaved session of this %s from %s exists. "
                                    "Restore it? (y/n)", workspace ? "workspace" : "grammar", when);
                    ui_ask(&ui, strbuf_str(&q), restore_yes, restore_no);
                    strbuf_free(&q);
                }
            }
        }
        status = term_run(&ui, history);
        free(history);
        free(state);
    }
    if (status == 0)
        status = ui.exit_status;
    ui_free(&ui);
    free(grammar_path);
    return status;
}
