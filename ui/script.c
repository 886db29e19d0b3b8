/* script: script mode.  `kpath --script FILE GRAMMAR` reads FILE instead of
 * the terminal: one key or command per line —
 *     j                 a key (a character)
 *     <Tab> <C-d> <Up>  named keys; several keys on one line, blank-separated
 *     <Click X Y>       mouse: a click at column X, row Y (0-based);
 *     <WheelUp X Y>     also <WheelDown X Y>
 *     :COMMAND          a command line, run as typed after ':'
 *     /TEXT             a search, as typed after '/'
 *     # comment         and blank lines are skipped
 * The keys ':' and '/' open the terminal's command line (readline, see
 * term_script_begin), which then takes the keys (a line ':' or '/' alone is
 * the key).  Before each line, work the previous one started (a run, a
 * search) is finished, so a script's result does not depend on timing.
 * The screen is 100x30 unless --size WxH or :resize says otherwise; :dump
 * FILE writes it as text.
 *
 * A front end (the top layer): it reads lines and hands each to the app
 * through app.h (ui_script_line, which lessons use too); the app never
 * calls back into it. */
#include "script.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "base/xalloc.h"

int script_run(struct ui *ui, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "kpath: cannot open script %s\n", path);
        return 2;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned number = 0;
    int status = 0;
    ui_draw(ui);
    while (!ui->quit && (n = getline(&line, &cap, f)) >= 0) {
        number++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' ||
                         line[n - 1] == '\t'))
            line[--n] = '\0';
        char where[4200];
        snprintf(where, sizeof where, "%s:%u", path, number);
        if (!ui_script_line(ui, line, where)) {
            status = 2;
            break;
        }
    }
    free(line);
    fclose(f);
    return status;
}
