/* term: the terminal back end: curses for the screen and keys, readline for
 * the command line (see term.c). */
#ifndef KPATH_UI_TERM_H
#define KPATH_UI_TERM_H

struct ui;

/* Run the explorer in the terminal until it quits; returns the exit status.
 * The terminal is restored on every way out. */
int term_run(struct ui *ui, const char *history_path);

/* Script mode with the terminal's command line: between these, ':' and '/'
 * keys open readline's line as in the terminal, and the script's keys go
 * to it (ui->front_key); no curses, nothing is written to the terminal. */
void term_script_begin(struct ui *ui);
void term_script_end(struct ui *ui);

#endif
