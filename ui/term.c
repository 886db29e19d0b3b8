/* term: the explorer in a terminal.  curses shows the frame ui_draw made and
 * reads keys; readline edits the command line.
 *
 * Readline inside curses, the known traps and what is done about them:
 *  - readline must not touch the terminal: rl_prep_term_function and
 *    rl_deprep_term_function do nothing, rl_outstream is /dev/null (no
 *    output behind curses' back, no bell), rl_change_environment = 0 (it
 *    would export LINES and COLUMNS), and it catches no signals
 *    (rl_catch_signals = rl_catch_sigwinch = 0): curses owns SIGWINCH.
 *  - keys come from curses: rl_getc_function hands readline the bytes of the
 *    key curses read, one rl_callback_read_char() at a time (callback mode,
 *    so the main loop never blocks inside readline); cursor and editing keys
 *    that curses decoded are mapped to readline's functions directly.
 *  - readline's redisplay draws into the frame's bottom line
 *    (rl_redisplay_function), completion lists go to a hint line
 *    (rl_completion_display_matches_hook), and the terminal cursor is put
 *    where the frame says (columns counted in characters, not bytes).
 *  - a resize while the command line is open redraws the frame with the
 *    line as it is.
 *
 * Signals only set flags; the loop acts on them.  The terminal is restored
 * on every way out: normal exit, q, SIGTERM/SIGHUP (after an autosave),
 * Ctrl-C twice, and crashes (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT:
 * restore, then die by the same signal).
 *
 * A front end (the top layer, see ui.h): the only file with curses or
 * readline.  It drives the app through app.h (keys, command lines, frames,
 * job slices) and takes what the app leaves for it after each call (the
 * command line to open, a repaint, a new theme); the app never calls it. */
#define NCURSES_WIDECHAR 1
#include "term.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <readline/history.h>
#include <readline/readline.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "app.h"
#include "base/utf8.h"
#include "base/xalloc.h"

static struct ui *the_ui;
static bool curses_on;
static struct termios saved_termios;
static bool have_termios;
static volatile sig_atomic_t got_term, got_int;
static int ncolors;
static bool colour;
static unsigned shown_attrs[NELEMENTS]; /* the theme's, plus what 8 colours need */

/* ---- restoring the terminal ------------------------------------------------------ */

static void emergency_restore(void)
{
    /* attributes off, mouse reporting off, cursor keys and keypad back to
     * normal mode (what curses' keypad() turned on: DECCKM and DECKPAM),
     * cursor shown, the main screen back */
    static const char reset[] = "\033[0m\033[?1000l\033[?1002l\033[?1006l\033[?1l\033>"
                                "\033[?25h\033[?1049l\r\n";
    if (have_termios)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
    ssize_t ignored = write(STDOUT_FILENO, reset, sizeof reset - 1);
    (void)ignored;
}

static void crash_handler(int sig)
{
    emergency_restore();
    static const char msg[] = "kpath: crashed; the terminal was restored\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
    signal(sig, SIG_DFL);
    raise(sig);
}

static void term_handler(int sig)
{
    got_term = sig;
}

static void int_handler(int sig)
{
    (void)sig;
    if (got_int) {
        /* a second Ctrl-C before the loop saw the first: get out now */
        emergency_restore();
        _exit(130);
    }
    got_int = 1;
}

static void at_exit(void)
{
    if (curses_on) {
        endwin();
        curses_on = false;
    }
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = term_handler;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_handler = int_handler;
    sigaction(SIGINT, &sa, NULL);
    sa.sa_handler = crash_handler;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
    sigaction(SIGILL, &sa, NULL);
    sigaction(SIGABRT, &sa, NULL);
}

/* ---- colours and drawing -------------------------------------------------------------- */

static attr_t attrs_of(unsigned a)
{
    attr_t r = A_NORMAL;
    if (a & ATTR_BOLD)
        r |= A_BOLD;
    if (a & ATTR_DIM)
        r |= A_DIM;
    if (a & ATTR_UNDERLINE)
        r |= A_UNDERLINE;
    if (a & ATTR_REVERSE)
        r |= A_REVERSE;
    if (a & ATTR_ITALIC)
        r |= A_ITALIC;
    if (a & ATTR_BLINK)
        r |= A_BLINK;
    if (a & ATTR_STANDOUT)
        r |= A_STANDOUT;
    return r;
}

static void setup_colours(struct ui *ui)
{
    colour = !ui->mono && has_colors();
    if (!colour)
        return;
    start_color();
    use_default_colors();
    ncolors = ui->ncolors = COLORS;
    for (int e = 0; e < NELEMENTS; e++) {
        struct theme_shown t = theme_show(&ui->theme.el[e], ncolors);
        shown_attrs[e] = t.attrs;
        init_pair((short)(e + 1), (short)t.fg, (short)t.bg);
    }
}

static void flush_frame(struct ui *ui)
{
    struct screen *s = &ui->scr;
    for (int y = 0; y < s->h && y < LINES; y++) {
        for (int x = 0; x < s->w && x < COLS; x++) {
            const struct cell *c = &s->cells[(size_t)y * (size_t)s->w + (size_t)x];
            int e = c->style & STYLE_ELEMENT_MASK;
            attr_t a = attrs_of(colour ? shown_attrs[e] : ui->theme.el[e].mono);
            if (c->style & STYLE_SELECTED)
                a ^= A_REVERSE;
            if (c->style & STYLE_SELECTED_BLUR)
                a |= A_UNDERLINE;
            wchar_t wc[2] = {(wchar_t)c->ch, 0};
            cchar_t cc;
            setcchar(&cc, wc, a, colour ? (short)(e + 1) : 0, NULL);
            mvadd_wch(y, x, &cc);
        }
    }
    if (ui->cursor_y >= 0) {
        curs_set(1);
        move(ui->cursor_y, ui->cursor_x);
    } else {
        curs_set(0);
    }
    if (ui->redraw_all) {
        clearok(curscr, TRUE);
        ui->redraw_all = false;
    }
    refresh();
}

static void redraw(struct ui *ui)
{
    screen_resize(&ui->scr, COLS, LINES);
    ui_draw(ui);
    flush_frame(ui);
}

/* ---- readline ------------------------------------------------------------------------- */

static unsigned char rl_queue[16];
static int rl_queue_len, rl_queue_pos;
static char *rl_done_line;
static bool rl_line_ready;
static char **completions;
static size_t completion_index;
static FILE *devnull;

static int rl_getc_from_queue(FILE *f)
{
    (void)f;
    if (rl_queue_pos < rl_queue_len)
        return rl_queue[rl_queue_pos++];
    return 0;
}

static int rl_input_available(void)
{
    return rl_queue_pos < rl_queue_len;
}

static void rl_noop_prep(int meta)
{
    (void)meta;
}

static void rl_noop_deprep(void)
{
}

static void sync_cmdline(struct ui *ui)
{
    free(ui->cmd_text);
    ui->cmd_text = xstrdup(rl_line_buffer ? rl_line_buffer : "");
    int point = rl_point;
    if (point < 0 || (size_t)point > strlen(ui->cmd_text))
        point = (int)strlen(ui->cmd_text);
    ui->cmd_point = point;
}

static void rl_redisplay_into_frame(void)
{
    if (!the_ui || !the_ui->cmdline)
        return;
    sync_cmdline(the_ui);
    redraw(the_ui);
}

static void line_handler(char *line)
{
    rl_done_line = line;
    rl_line_ready = true;
    rl_callback_handler_remove();
}

static char *completion_generator(const char *text, int state)
{
    (void)text;
    if (state == 0)
        completion_index = 0;
    if (!completions || !completions[completion_index])
        return NULL;
    return xstrdup(completions[completion_index++]);
}

static void free_completions(void)
{
    if (completions)
        for (size_t i = 0; completions[i]; i++)
            free(completions[i]);
    free(completions);
    completions = NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)end;
    free_completions();
    if (!the_ui || strcmp(the_ui->cmd_prompt ? the_ui->cmd_prompt : ":", ":") != 0) {
        rl_attempted_completion_over = 1;
        return NULL;
    }
    completions = commands_complete(the_ui, rl_line_buffer, start, text);
    if (!completions) {
        rl_attempted_completion_over = 0; /* file names: readline's own */
        return NULL;
    }
    rl_attempted_completion_over = 1;
    char **m = rl_completion_matches(text, completion_generator);
    free_completions();
    return m;
}

static void display_matches(char **matches, int num, int max)
{
    (void)max;
    struct strbuf sb = STRBUF_INIT;
    for (int i = 1; i <= num; i++) {
        const char *m = matches[i];
        const char *slash = strrchr(m, '/');
        if (slash && slash[1])
            m = slash + 1;
        strbuf_addf(&sb, "%s%s", i > 1 ? "  " : "", m);
    }
    free(the_ui->cmd_hint);
    the_ui->cmd_hint = strbuf_detach(&sb, NULL);
    rl_forced_update_display();
}

static void setup_readline(const char *history_path)
{
    rl_readline_name = "kpath";
    rl_change_environment = 0;
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_prep_term_function = rl_noop_prep;
    rl_deprep_term_function = rl_noop_deprep;
    rl_getc_function = rl_getc_from_queue;
    rl_input_available_hook = rl_input_available;
    rl_redisplay_function = rl_redisplay_into_frame;
    rl_attempted_completion_function = complete;
    rl_completion_display_matches_hook = display_matches;
    devnull = fopen("/dev/null", "w");
    rl_outstream = devnull;
    rl_instream = stdin;
    rl_variable_bind("bell-style", "none");
    rl_variable_bind("horizontal-scroll-mode", "on");
    /* ambiguous completions list at once, on the hint line */
    rl_variable_bind("show-all-if-ambiguous", "on");
    using_history();
    stifle_history(1000);
    if (history_path)
        read_history(history_path);
}

static void term_cmdline_begin(struct ui *ui, const char *prompt, const char *initial)
{
    ui->cmdline = true;
    free(ui->cmd_prompt);
    ui->cmd_prompt = xstrdup(prompt);
    free(ui->cmd_hint);
    ui->cmd_hint = NULL;
    rl_line_ready = false;
    rl_callback_handler_install(prompt, line_handler);
    if (initial && *initial) {
        rl_insert_text(initial);
        rl_point = rl_end;
    }
    sync_cmdline(ui);
}

/* What the app left for the front end after a key or a command line: the
 * command line to open (ui_cmdline_open). */
static void take_requests(struct ui *ui)
{
    if (ui->cmdline_want_prompt) {
        term_cmdline_begin(ui, ui->cmdline_want_prompt, ui->cmdline_want_text);
        free(ui->cmdline_want_prompt);
        free(ui->cmdline_want_text);
        ui->cmdline_want_prompt = ui->cmdline_want_text = NULL;
    }
}

static void feed_bytes(const char *bytes, int n)
{
    if (n > (int)sizeof rl_queue)
        n = (int)sizeof rl_queue;
    memcpy(rl_queue, bytes, (size_t)n);
    rl_queue_len = n;
    rl_queue_pos = 0;
    while (rl_queue_pos < rl_queue_len && !rl_line_ready)
        rl_callback_read_char();
    rl_queue_len = rl_queue_pos = 0;
}

static void cmdline_cancel(struct ui *ui)
{
    rl_replace_line("", 0);
    rl_callback_handler_remove();
    ui->cmdline = false;
    free(ui->cmd_hint);
    ui->cmd_hint = NULL;
}

/* A key while the command line is open. */
static void cmdline_key(struct ui *ui, int key)
{
    free(ui->cmd_hint);
    ui->cmd_hint = NULL;
    switch (key) {
    case K_ESC:
    case 3: /* Ctrl-C */
        cmdline_cancel(ui);
        return;
    case K_RESIZE: return;
    case K_MOUSE: return;
    case K_ENTER: feed_bytes("\r", 1); break;
    case K_LEFT: rl_backward_char(1, 0); break;
    case K_RIGHT: rl_forward_char(1, 0); break;
    case K_HOME: rl_beg_of_line(1, 0); break;
    case K_END: rl_end_of_line(1, 0); break;
    case K_UP: rl_get_previous_history(1, 0); break;
    case K_DOWN: rl_get_next_history(1, 0); break;
    case K_DELETE: rl_delete(1, 0); break;
    case K_BACKSPACE:
        if (rl_end == 0) { /* backspace on an empty line closes it, as in vim */
            cmdline_cancel(ui);
            return;
        }
        feed_bytes("\x7f", 1);
        break;
    default:
        if (key > 0 && key < K_SPECIAL) {
            char buf[4];
            size_t n = utf8_encode((uint32_t)key, buf);
            feed_bytes(buf, (int)n);
        }
    }
    if (rl_line_ready) {
        char *line = rl_done_line;
        rl_done_line = NULL;
        rl_line_ready = false;
        ui->cmdline = false;
        bool search = ui->cmd_prompt && strcmp(ui->cmd_prompt, "/") == 0;
        if (!line) {
            /* Ctrl-D on an empty line */
            return;
        }
        if (*line)
            add_history(line);
        if (search)
            ui_search(ui, line, false);
        else
            ui_command(ui, line);
        free(line);
        return;
    }
    /* narrowing as you type: every key applies the text so far */
    if (ui->cmd_prompt && strcmp(ui->cmd_prompt, ":") == 0 && rl_line_buffer &&
        strncmp(rl_line_buffer, "narrow ", 7) == 0)
        ui_narrow(ui, rl_line_buffer + 7);
    sync_cmdline(ui);
}

/* ---- keys ------------------------------------------------------------------------------ */

static int translate(int r, wint_t wc, struct ui *ui)
{
    if (r == OK) {
        if (wc == '\r' || wc == '\n')
            return K_ENTER;
        if (wc == 8 || wc == 127)
            return K_BACKSPACE;
        return (int)wc;
    }
    switch (wc) {
    case KEY_UP: return K_UP;
    case KEY_DOWN: return K_DOWN;
    case KEY_LEFT: return K_LEFT;
    case KEY_RIGHT: return K_RIGHT;
    case KEY_HOME: return K_HOME;
    case KEY_END: return K_END;
    case KEY_PPAGE: return K_PGUP;
    case KEY_NPAGE: return K_PGDN;
    case KEY_BTAB: return K_BTAB;
    case KEY_DC: return K_DELETE;
    case KEY_IC: return K_INSERT;
    case KEY_BACKSPACE: return K_BACKSPACE;
    case KEY_ENTER: return K_ENTER;
    case KEY_F(1): return K_F1;
    case KEY_RESIZE: return K_RESIZE;
    case KEY_MOUSE: {
        MEVENT ev;
        if (getmouse(&ev) != OK)
            return 0;
        ui->mouse.x = ev.x;
        ui->mouse.y = ev.y;
        if (ev.bstate & BUTTON4_PRESSED)
            ui->mouse.kind = MOUSE_WHEEL_UP;
#ifdef BUTTON5_PRESSED
        else if (ev.bstate & BUTTON5_PRESSED)
            ui->mouse.kind = MOUSE_WHEEL_DOWN;
#endif
        else if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_RELEASED))
            ui->mouse.kind = MOUSE_CLICK;
        else
            return 0;
        if ((ev.bstate & BUTTON1_RELEASED) && !(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
            return 0;
        return K_MOUSE;
    }
    default: return 0;
    }
}

static void suspend(struct ui *ui)
{
    endwin();
    signal(SIGTSTP, SIG_DFL);
    raise(SIGTSTP);
    /* resumed */
    refresh();
    ui->redraw_all = true;
}

/* ---- the loop ---------------------------------------------------------------------------- */

/* Asked by the parser after every Earley set while a sample loads (the
 * parse is one step of the job, which may take minutes): every 50 ms it
 * looks whether a key or a signal waits, which stops the parse (the loop
 * then reads the key, which stops the job), and once a second it redraws,
 * so that the status line names the file and its clock goes on. */
static bool parse_should_stop(void *arg)
{
    struct ui *ui = arg;
    static double next_look, next_draw;
    double now = ui_now();
    if (now < next_look)
        return false;
    next_look = now + 0.05;
    struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
    if (got_term || got_int || poll(&pfd, 1, 0) > 0) {
        ui->parse_interrupted = true;
        return true;
    }
    if (now >= next_draw && now - ui->job_file_since >= 1.0) {
        next_draw = now + 1.0;
        redraw(ui);
    }
    return false;
}

int term_run(struct ui *ui, const char *history_path)
{
    the_ui = ui;
    if (tcgetattr(STDIN_FILENO, &saved_termios) == 0)
        have_termios = true;
    if (!newterm(NULL, stdout, stdin)) {
        fprintf(stderr, "kpath: cannot use this terminal (TERM=%s)\n",
                getenv("TERM") ? getenv("TERM") : "");
        return 2;
    }
    curses_on = true;
    ui->front_cmdline = true;
    ui->parse_should_stop = parse_should_stop;
    atexit(at_exit);
    install_signals();
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
                  | BUTTON5_PRESSED
#endif
              ,
              NULL);
    mouseinterval(0);
    setup_colours(ui);
    setup_readline(history_path);
    double last_autosave = ui_now();
    unsigned applied = ui->theme_generation;
    while (!ui->quit) {
        if (got_term) {
            ui_autosave(ui, false);
            ui->exit_status = 128 + (int)got_term;
            break;
        }
        if (got_int) {
            got_int = 0;
            if (ui->cmdline)
                cmdline_cancel(ui);
            else
                ui_key(ui, 3);
            take_requests(ui);
        }
        if (ui->job)
            ui_job_slice(ui, 0.02);
        if (applied != ui->theme_generation) {
            setup_colours(ui);
            applied = ui->theme_generation;
        }
        redraw(ui);
        timeout(ui->job ? 0 : 250);
        wint_t wc;
        int r = get_wch(&wc);
        if (r == ERR) {
            /* idle (no key for a quarter second): save what changed now, so
             * a kill -9 right after a command loses nothing; while a job
             * runs (no wait for keys) every 3 seconds */
            if (!ui->job || ui_now() - last_autosave > 3.0) {
                ui_autosave(ui, false);
                last_autosave = ui_now();
            }
            continue;
        }
        int key = translate(r, wc, ui);
        if (key == 0)
            continue;
        if (key == K_RESIZE) {
            ui->redraw_all = true;
            continue;
        }
        if (key == 26) { /* Ctrl-Z */
            suspend(ui);
            continue;
        }
        if (ui->cmdline)
            cmdline_key(ui, key);
        else
            ui_key(ui, key);
        take_requests(ui);
        if (ui_now() - last_autosave > 3.0) {
            ui_autosave(ui, false);
            last_autosave = ui_now();
        }
    }
    if (ui->cmdline)
        cmdline_cancel(ui);
    endwin();
    curses_on = false;
    ui->front_cmdline = false;
    if (history_path)
        write_history(history_path);
    /* A clean quit leaves no autosave behind; a kill, or quitting a restore
     * of it, keeps it for next time. */
    if (ui->autosave_path && !got_term && !ui->keep_autosave)
        unlink(ui->autosave_path);
    if (devnull)
        fclose(devnull);
    free(rl_done_line);
    the_ui = NULL;
    return ui->exit_status;
}
