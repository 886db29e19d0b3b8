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

/* On a crash or a fatal signal the terminal is put back from the signal
 * handler, with async-signal-safe calls only: tcsetattr with the termios
 * saved before curses started (the shell's own modes: icanon, echo, ...),
 * and one write(2) of a precomputed string.  Then the signal is raised
 * again with its default action, so the exit status (and a core dump) say
 * what happened.  Sanitizers end the process with _exit, not a signal: the
 * same restore runs from their death callback. */
static void emergency_restore(void)
{
    /* attributes off, mouse reporting off (every mode curses or a terminal
     * may have on: 9, 1000, 1002, 1003, 1005, 1006, 1015), bracketed paste
     * off, cursor keys and keypad back to normal mode (what keypad() turned
     * on: DECCKM and DECKPAM), cursor shown, the main screen back */
    static const char reset[] = "\033[0m"
                                "\033[?9l\033[?1000l\033[?1002l\033[?1003l\033[?1005l"
                                "\033[?1006l\033[?1015l\033[?2004l"
                                "\033[?1l\033>\033[?25h\033[?1049l\r\n";
    if (have_termios)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
    ssize_t ignored = write(STDOUT_FILENO, reset, sizeof reset - 1);
    (void)ignored;
}

static void die_by(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig); /* a signal whose default action is not to end */
}

static void crash_handler(int sig)
{
    emergency_restore();
    static const char msg[] = "kpath: crashed; the terminal was restored\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
    die_by(sig);
}

/* Signals that end the process by default and that kpath does not use
 * (SIGTERM, SIGHUP and SIGINT are asked to end the loop, which autosaves). */
static void fatal_handler(int sig)
{
    emergency_restore();
    die_by(sig);
}

static void term_handler(int sig)
{
    if (got_term) {
        /* a second one before the loop got to the first (it is busy):
         * restore the terminal and go, the autosave as it was last saved */
        emergency_restore();
        die_by(sig);
    }
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

/* AddressSanitizer and the other sanitizers report, then _exit: a weak
 * reference, so that the plain build links without them. */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static void sanitizer_death(void)
{
    if (curses_on)
        emergency_restore();
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
    static const int crashes[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof crashes / sizeof *crashes; i++)
        sigaction(crashes[i], &sa, NULL);
    sa.sa_handler = fatal_handler;
    static const int fatal[] = {SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
                                SIGPROF, SIGXCPU, SIGXFSZ, SIGPIPE};
    for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++) {
        struct sigaction old;
        /* one ignored by whoever started kpath (nohup, a shell) stays so */
        if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(fatal[i], &sa, NULL);
    }
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(sanitizer_death);
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

static void sync_cmdline(struct ui *ui);
static bool cmdline_dirty; /* the line changed since it was copied into ui->cmd_text */

static void redraw(struct ui *ui)
{
    if (ui->cmdline && cmdline_dirty) {
        sync_cmdline(ui);
        cmdline_dirty = false;
    }
    screen_resize(&ui->scr, COLS, LINES);
    ui_draw(ui);
    flush_frame(ui);
}

/* ---- readline ------------------------------------------------------------------------- */

static unsigned char rl_queue[16];
static int rl_queue_len, rl_queue_pos;
static int rl_last_fed; /* the last byte readline was given */
static char *rl_done_line;
static bool rl_line_ready;
static char **completions;
static size_t completion_index;
static FILE *devnull;

/* The most the command line holds, in bytes: a command line with a file
 * name or a pattern fits with room to spare; more is a paste gone wrong. */
#define CMDLINE_MAX 8192
#define CMDLINE_TOO_LONG "too long: the command line holds 8192 bytes, the rest was dropped"
static bool cmdline_overflow; /* the last key was dropped: the line is full */
/* The most a history search string (C-r) is given, in bytes */
#define SEARCH_MAX 256
#define SEARCH_TOO_LONG "too long: a history search takes 256 bytes, the rest was dropped"
static const char *overflow_hint = CMDLINE_TOO_LONG;
static size_t search_typed; /* characters typed into the current search */

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

/* Readline asks for a redisplay after every key it edits with.  Drawing
 * the frame (and copying the line into it) each time made a paste cost a
 * frame per byte; the line is copied and the frame drawn when the loop
 * gets to it: after the keys that arrived together (term_run), or after
 * each key of a script (script_key). */
static void rl_redisplay_into_frame(void)
{
    cmdline_dirty = true;
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
    /* words break at blanks and quotes only: rule names like <expr>, a=b
     * and x>y complete whole (readline's default breaks at < > = too) */
    static char word_breaks[] = " \t\n\"'";
    rl_completer_word_break_characters = word_breaks;
    if (!devnull)
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

/* The end of readline: the history's lines and the undo lists readline
 * keeps in their `data` (rl_clear_history frees both; clear_history would
 * leak the undo lists). */
static void finish_readline(void)
{
    rl_clear_history();
    if (devnull)
        fclose(devnull);
    devnull = NULL;
    free(rl_done_line);
    rl_done_line = NULL;
}

static void term_cmdline_begin(struct ui *ui, const char *prompt, const char *initial)
{
    ui->cmdline = true;
    cmdline_overflow = false;
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
    rl_last_fed = (unsigned char)bytes[n - 1];
    rl_queue_len = n;
    rl_queue_pos = 0;
    while (rl_queue_pos < rl_queue_len && !rl_line_ready)
        rl_callback_read_char();
    rl_queue_len = rl_queue_pos = 0;
}

/* Closing the command line without running it (Esc, Ctrl-C, Backspace on
 * an empty line).  Readline has no call for abandoning a line in callback
 * mode, so this does what its own end of a line does (Enter):
 *  - a line recalled from the history and edited has its undo list in the
 *    history entry's `data`, and rl_undo_list points into it.  Undo the
 *    edits (rl_revert_line keeps the entry's `data` in step while it frees
 *    the list), so the entry holds its own text again and no undo list;
 *  - before that, end what a half-typed key sequence, an incremental
 *    search or a numeric argument left (rl_callback_sigcleanup), and after
 *    it free what is left of the undo list and the line's state
 *    (rl_free_line_state).
 * Only emptying the buffer and removing the handler, as before, left
 * rl_undo_list pointing into the entry's list: the next line's edits were
 * added to it, and the next Enter freed it twice (abort, exit 134). */
static void cmdline_cancel(struct ui *ui)
{
    /* a quoted insert (C-v, C-q) or a character search (C-]) waiting for
     * its character: give it one, or rl_callback_sigcleanup forgets the
     * data it holds (a leak) */
    if (rl_last_fed == 0x16 || rl_last_fed == 0x11 || RL_ISSTATE(RL_STATE_CHARSEARCH))
        feed_bytes("\x07", 1);
    /* first the search (C-r): its state points at history lines that the
     * revert below replaces (a use after free the other way round) */
    rl_callback_sigcleanup();
    if (current_history() && rl_undo_list) {
        rl_revert_line(1, 0);
        HIST_ENTRY *old = replace_history_entry(where_history(), rl_line_buffer, NULL);
        if (old)
            free_history_entry(old); /* its data was the undo list, freed above */
    }
    rl_free_line_state();
    rl_replace_line("", 0);
    rl_callback_handler_remove();
    ui->cmdline = false;
    cmdline_overflow = false;
    free(ui->cmd_hint);
    ui->cmd_hint = NULL;
}

/* A character for the line, unless the line would grow past
 * CMDLINE_MAX bytes: then the rest of a paste is dropped and the hint line
 * says so. */
static void cmdline_insert(struct ui *ui, int key)
{
    char buf[4];
    size_t n = utf8_encode((uint32_t)key, buf);
    if (key >= ' ' && key != 127 && (size_t)rl_end + n > CMDLINE_MAX) {
        cmdline_overflow = true;
        overflow_hint = CMDLINE_TOO_LONG;
        return;
    }
    /* In a history search (C-r) the characters go to the search string,
     * which readline shows and looks for again at each one: a paste there
     * took minutes for 9 KB (fuzz-keys seed 1110).  It gets SEARCH_MAX. */
    if (RL_ISSTATE(RL_STATE_ISEARCH | RL_STATE_NSEARCH)) {
        if (search_typed + n > SEARCH_MAX) {
            cmdline_overflow = true;
            overflow_hint = SEARCH_TOO_LONG;
            return;
        }
        search_typed += n;
    }
    feed_bytes(buf, (int)n);
    (void)ui;
}

static void cmdline_after_edit(struct ui *ui);

/* A key while the command line is open. */
static void cmdline_key(struct ui *ui, int key)
{
    free(ui->cmd_hint);
    ui->cmd_hint = NULL;
    cmdline_overflow = false;
    /* Readline 8.2 in callback mode crashes (a NULL call in
     * rl_callback_read_char) at the key after an incremental search (C-r)
     * that C-x ended, the start of a key sequence (fuzz-keys seed 1006).
     * End the search first with Esc, its terminator, as typing Esc C-x
     * would; the line found stays. */
    if (key == 24 && RL_ISSTATE(RL_STATE_ISEARCH))
        feed_bytes("\x1b", 1);
    /* The keys below that call readline's functions directly (history,
     * cursor) end a search first, as readline does for a key that is not
     * the search's: a history move under the search freed the line the
     * search holds, read when it ended (fuzz-keys seed 305). */
    if (key > K_SPECIAL && RL_ISSTATE(RL_STATE_ISEARCH | RL_STATE_NSEARCH))
        feed_bytes("\x1b", 1);
    if (!RL_ISSTATE(RL_STATE_ISEARCH | RL_STATE_NSEARCH))
        search_typed = 0;
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
        if (key > 0 && key < K_SPECIAL)
            cmdline_insert(ui, key);
    }
    cmdline_after_edit(ui);
}

/* After an edit: the hint, the line when Enter ended it, narrowing. */
static void cmdline_after_edit(struct ui *ui)
{
    cmdline_dirty = true;
    if (cmdline_overflow && !rl_line_ready)
        ui->cmd_hint = xstrdup(overflow_hint);
    if (rl_line_ready) {
        char *line = rl_done_line;
        rl_done_line = NULL;
        rl_line_ready = false;
        ui->cmdline = false;
        cmdline_overflow = false;
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
}

/* Characters that came together (a paste) into the line at once: one
 * insertion and one undo step instead of a readline key each.  What would
 * grow the line past CMDLINE_MAX is dropped (at a character's start). */
static void cmdline_insert_block(struct ui *ui, const char *text, size_t len)
{
    free(ui->cmd_hint);
    ui->cmd_hint = NULL;
    cmdline_overflow = false;
    size_t room = CMDLINE_MAX - ((size_t)rl_end < CMDLINE_MAX ? (size_t)rl_end : CMDLINE_MAX);
    if (len > room) {
        cmdline_overflow = true;
        overflow_hint = CMDLINE_TOO_LONG;
        len = room;
        while (len > 0 && ((unsigned char)text[len] & 0xc0) == 0x80)
            len--;
    }
    if (len) {
        char *s = xmalloc(len + 1);
        memcpy(s, text, len);
        s[len] = '\0';
        rl_insert_text(s);
        free(s);
    }
    cmdline_after_edit(ui);
}

/* A key for the explorer: to the command line when it is open, else to the
 * app; then what the app asked for (a command line to open). */
static void front_key(struct ui *ui, int key)
{
    if (ui->cmdline)
        cmdline_key(ui, key);
    else
        ui_key(ui, key);
    take_requests(ui);
}

/* ---- script mode's command line ------------------------------------------------------------ */

/* Script mode's keys, one at a time (ui->front_key): the line is copied
 * into the frame after each, since the app draws after each. */
static void script_key(struct ui *ui, int key)
{
    front_key(ui, key);
    if (ui->cmdline) {
        sync_cmdline(ui);
        cmdline_dirty = false;
    }
}

void term_script_begin(struct ui *ui)
{
    the_ui = ui;
    setup_readline(NULL);
    ui->front_cmdline = true;
    ui->front_key = script_key;
}

void term_script_end(struct ui *ui)
{
    if (ui->cmdline)
        cmdline_cancel(ui);
    ui->front_cmdline = false;
    ui->front_key = NULL;
    finish_readline();
    the_ui = NULL;
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

/* The command line overflowed (a paste longer than CMDLINE_MAX): the rest
 * of the paste, the input that keeps coming without a pause of 30 ms, is
 * dropped, Enter included, so that a line break in it runs nothing; an Esc
 * (which a pasted text hardly holds) stops that and closes the line.  What
 * curses already read is taken key by key; the rest is read from the
 * terminal in blocks, past curses (its queue is empty by then): a key at a
 * time through curses costs some 25 us a byte, a minute for a few MB. */
static void drop_waiting_keys(struct ui *ui)
{
    timeout(0);
    wint_t wc;
    int r;
    while ((r = get_wch(&wc)) != ERR)
        if (r == OK && wc == K_ESC) {
            cmdline_cancel(ui);
            return;
        }
    static char block[65536];
    struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
    while (poll(&pfd, 1, 30) > 0) {
        ssize_t n = read(STDIN_FILENO, block, sizeof block);
        if (n <= 0)
            return;
        if (memchr(block, K_ESC, (size_t)n)) {
            cmdline_cancel(ui);
            return;
        }
    }
}

static bool is_text(int key)
{
    return key >= ' ' && key != 127 && key < K_SPECIAL;
}

/* Readline between two commands, inserting what is typed as it is: not in
 * a search, a key sequence, a numeric argument, overwrite or vi mode. */
static bool readline_plain(void)
{
    return !RL_ISSTATE(RL_STATE_ISEARCH | RL_STATE_NSEARCH | RL_STATE_MULTIKEY |
                       RL_STATE_NUMERICARG | RL_STATE_CHARSEARCH | RL_STATE_VIMOTION |
                       RL_STATE_METANEXT | RL_STATE_MOREINPUT | RL_STATE_MACROINPUT |
                       RL_STATE_MACRODEF | RL_STATE_INPUTPENDING | RL_STATE_COMPLETING) &&
           rl_insert_mode == 1 /* insert */ && rl_editing_mode == 1 /* emacs */ &&
           rl_line_ready == false;
}

/* The text keys already waiting after a text key (a paste) go into the
 * line as one block, as readline's bracketed paste would; returns the first
 * key that is not text (it is for front_key), or 0. */
static int text_block(struct ui *ui)
{
    static char block[CMDLINE_MAX + 8];
    size_t len = 0;
    int next = 0;
    timeout(0);
    wint_t wc;
    int r;
    while (len <= CMDLINE_MAX && (r = get_wch(&wc)) != ERR) {
        int key = translate(r, wc, ui);
        if (!is_text(key)) {
            next = key;
            break;
        }
        len += utf8_encode((uint32_t)key, block + len);
    }
    if (len)
        cmdline_insert_block(ui, block, len);
    return next;
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
    ui->front_key = front_key;
    ui->parse_should_stop = parse_should_stop;
    atexit(at_exit);
    install_signals();
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    /* Home and End as terminals other than the one TERM names send them
     * (tmux, screen, rxvt, the Linux console): without these, \e[1~ was
     * read as Esc, closing the command line, and then '[', '1', '~' */
    static const char *const home[] = {"\033[1~", "\033[7~", "\033[H", "\033OH"};
    static const char *const end[] = {"\033[4~", "\033[8~", "\033[F", "\033OF"};
    for (size_t i = 0; i < sizeof home / sizeof *home; i++) {
        define_key(home[i], KEY_HOME);
        define_key(end[i], KEY_END);
    }
    mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
                  | BUTTON5_PRESSED
#endif
              ,
              NULL);
    mouseinterval(0);
    setup_colours(ui);
    setup_readline(history_path);
    double last_autosave = ui_now(), last_draw = 0;
    unsigned applied = ui->theme_generation;
    /* Keys that arrive together (a paste, a key held down) are handled
     * together: the frame is drawn when none is waiting, or every 50 ms,
     * not once per key. */
    bool keys_waiting = false;
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
        if (!keys_waiting || ui_now() - last_draw >= 0.05) {
            redraw(ui);
            last_draw = ui_now();
        }
        timeout(keys_waiting || ui->job ? 0 : 250);
        wint_t wc;
        int r = get_wch(&wc);
        if (r == ERR) {
            if (keys_waiting) { /* the keys that came together are done: draw */
                keys_waiting = false;
                continue;
            }
            /* idle (no key for a quarter second): save what changed now, so
             * a kill -9 right after a command loses nothing; while a job
             * runs (no wait for keys) every 3 seconds */
            if (!ui->job || ui_now() - last_autosave > 3.0) {
                ui_autosave(ui, false);
                last_autosave = ui_now();
            }
            continue;
        }
        keys_waiting = true;
        int key = translate(r, wc, ui);
        while (key) {
            int next = 0;
            if (key == K_RESIZE) {
                ui->redraw_all = true;
            } else if (key == 26) { /* Ctrl-Z */
                suspend(ui);
            } else {
                front_key(ui, key);
                if (is_text(key) && ui->cmdline && readline_plain())
                    next = text_block(ui);
            }
            if (cmdline_overflow && ui->cmdline) {
                drop_waiting_keys(ui);
                next = 0;
            }
            key = next;
        }
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
    ui->front_key = NULL;
    if (history_path)
        write_history(history_path);
    finish_readline();
    /* A clean quit leaves no autosave behind; a kill, or quitting a restore
     * of it, keeps it for next time. */
    if (ui->autosave_path && !got_term && !ui->keep_autosave)
        unlink(ui->autosave_path);
    the_ui = NULL;
    return ui->exit_status;
}
