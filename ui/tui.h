/* tui: the explorer's entry point, called by kpath's main when it is run
 * without a command: `kpath`, `kpath GRAMMAR`, `kpath --script FILE GRAMMAR`,
 * `kpath --workspace FILE`, `kpath --theme NAME GRAMMAR`.  kpath's main
 * reads those options (cli/main.c, from the explorer's option table, which
 * also makes its --help, the man page and completion) and hands them over
 * here as a struct tui_args: the command line is the program's, not the
 * explorer's.  This header has no curses in it: cli/main.c includes it. */
#ifndef KPATH_UI_TUI_H
#define KPATH_UI_TUI_H

#include <stdbool.h>
#include <stdio.h>

#include "formats/grammar_load.h"

/* What the explorer starts with; TUI_ARGS_INIT gives the defaults. */
struct tui_args {
    const char *grammar;   /* NULL: the bundled grammars/expr.ebnf */
    const char *workspace; /* a saved exploration to open instead of a grammar */
    const char *script;    /* run keys and :commands from this file, not a terminal */
    const char *theme;     /* NULL: $KPATH_THEME, else the default theme */
    const char *start;     /* the start rule; NULL: the grammar's */
    const char *lesson;    /* a lesson to open, or NULL */
    enum grammar_format format;
    int width, height;     /* the screen of script mode */
    bool ascii;            /* ASCII only, whatever the locale */
};
#define TUI_ARGS_INIT {.format = GRAMMAR_FORMAT_AUTO, .width = 100, .height = 30}

/* The manual page's sections about the explorer's keys and its : commands
 * (roff), from the tables the help overlay shows. */
void tui_man(FILE *out);
/* Print the key table (--list-keys) on stdout. */
void tui_list_keys(void);
/* Run the explorer; returns the exit status. */
int tui_main(const struct tui_args *args);

#endif
