/* script: script mode.  `kpath --script FILE GRAMMAR` reads FILE instead of
 * the terminal: one key or command per line —
 *     j                 a key (a character)
 *     <Tab> <C-d> <Up>  named keys; several keys on one line, blank-separated
 *     <Click X Y>       mouse: a click at column X, row Y (0-based);
 *     <WheelUp X Y>     also <WheelDown X Y>
 *     :COMMAND          a command line, run as typed after ':'
 *     /TEXT             a search, as typed after '/'
 *     # comment         and blank lines are skipped
 * Readline is bypassed.  Before each line, work the previous one started (a
 * run, a search) is finished, so a script's result does not depend on timing.
 * The screen is 100x30 unless --size WxH or :resize says otherwise; :dump
 * FILE writes it as text. */
#include "script.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "xalloc.h"

static void finish_jobs(struct ui *ui)
{
    while (ui->job)
        ui_job_slice(ui, 1.0);
}

static bool mouse_token(struct ui *ui, const char *tok, size_t len)
{
    char buf[64];
    if (len >= sizeof buf)
        return false;
    memcpy(buf, tok, len);
    buf[len] = '\0';
    char name[16];
    int x, y;
    char close;
    if (sscanf(buf, "<%15s %d %d%c", name, &x, &y, &close) != 4 || close != '>')
        return false;
    if (strcmp(name, "Click") == 0)
        ui->mouse.kind = MOUSE_CLICK;
    else if (strcmp(name, "WheelUp") == 0)
        ui->mouse.kind = MOUSE_WHEEL_UP;
    else if (strcmp(name, "WheelDown") == 0)
        ui->mouse.kind = MOUSE_WHEEL_DOWN;
    else
        return false;
    ui->mouse.x = x;
    ui->mouse.y = y;
    return true;
}

bool script_line(struct ui *ui, const char *line, const char *where)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p || *p == '#')
        return true;
    finish_jobs(ui);
    if (*p == ':' && p[1]) {
        ui_command(ui, p + 1);
    } else if (*p == '/' && p[1]) {
        ui_search(ui, p + 1, false);
    } else {
        /* keys, blank-separated; <...> may hold blanks (mouse) */
        while (*p) {
            while (*p == ' ' || *p == '\t')
                p++;
            if (!*p)
                break;
            const char *end = p + 1;
            if (*p == '<' && strchr(p, '>'))
                end = strchr(p, '>') + 1;
            else
                while (*end && ((unsigned char)*end & 0xc0) == 0x80)
                    end++;
            int key;
            if (mouse_token(ui, p, (size_t)(end - p))) {
                ui_draw(ui); /* clicks land where the last frame put things */
                ui_key(ui, K_MOUSE);
            } else if (keys_parse(p, (size_t)(end - p), &key)) {
                ui_key(ui, key);
            } else {
                if (ui->script_mode) {
                    fprintf(stderr, "%s: not a key: '%.*s'\n", where, (int)(end - p), p);
                } else { /* the terminal belongs to curses: say it in the log */
                    struct strbuf sb = STRBUF_INIT;
                    strbuf_addf(&sb, "%s: not a key: '%.*s'", where, (int)(end - p), p);
                    ui_log(ui, true, strbuf_str(&sb));
                    strbuf_free(&sb);
                }
                return false;
            }
            finish_jobs(ui);
            ui_draw(ui);
            p = end;
        }
    }
    finish_jobs(ui);
    ui_draw(ui);
    return true;
}

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
        if (!script_line(ui, line, where)) {
            status = 2;
            break;
        }
    }
    free(line);
    fclose(f);
    return status;
}
