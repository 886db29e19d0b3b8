/* tui: the explorer's entry point, called by kpath's main when it is run
 * without a command: `kpath`, `kpath GRAMMAR`, `kpath --script FILE GRAMMAR`,
 * `kpath --workspace FILE`, `kpath --theme NAME GRAMMAR`.  This header has
 * no curses in it: cli/main.c includes it. */
#ifndef KPATH_UI_TUI_H
#define KPATH_UI_TUI_H

#include <stdbool.h>
#include <stdio.h>

/* Does argv[1] ask for the explorer (no argument, an explorer option, or
 * an existing file that is not a command name)? */
bool tui_wanted(int argc, char **argv, bool (*is_command)(const char *name));
/* The explorer's options (NULL-terminated), for shell completion. */
const char *const *tui_options(void);
/* The manual page's sections about the explorer (roff): how to start it,
 * its keys and its : commands, from the tables the help overlay shows. */
void tui_man(FILE *out);
/* Run the explorer; returns the exit status. */
int tui_main(int argc, char **argv);

#endif
