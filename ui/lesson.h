/* lesson: a short sequence of steps for a classroom, read from a plain text
 * file (lessons/NAME.lesson; the format is in lessons/README.md).  Each step
 * sets up the screen with script lines (keys and :commands, as in script
 * mode) and says in a caption what to look at.
 *
 * Going to step i runs the setup lines of steps 1..i in order, so every
 * step can be reached forwards and backwards and always looks the same (a
 * lesson starts with :load! to begin from a known state).  The lesson owns
 * its strings; the explorer owns the lesson (ui->lesson). */
#ifndef KPATH_UI_LESSON_H
#define KPATH_UI_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

struct lesson_line {
    char *text;      /* owned; a script line with {data} replaced */
    unsigned number; /* its line in the file */
};

struct lesson_step {
    char *title;                /* owned */
    struct lesson_line *setup;  /* owned */
    size_t nsetup;
    char *caption;              /* owned; the `say` lines joined by blanks */
};

struct lesson {
    char *path;                 /* owned */
    char *title;                /* owned */
    struct lesson_step *steps;  /* owned */
    size_t nsteps;
};

/* Read a lesson file; `data` replaces {data} in setup lines (the directory
 * holding grammars/ and lessons/).  NULL with FILE:LINE:COL diagnostics. */
struct lesson *lesson_load(const char *path, const char *data, struct diag_list *diags);
void lesson_free(struct lesson *l);

#endif
