/* lessons: the open lesson as the explorer shows it (its caption above the
 * footer) and opening one (lessons/NAME.lesson or a path).  Opening loads
 * the lesson and leaves its first step for the top of the app to go to
 * (ui->lesson_start, ui_lesson_goto in app.c), since going to a step runs
 * its setup lines as a script, commands included: :lesson, a command, thus
 * never runs commands from inside one.  The lesson file's format is
 * lesson.h's. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lesson.h"
#include "lessons.h"
#include "messages.h"
#include "base/xalloc.h"

/* Wrap text at w columns (text_wrap_line), drawing the lines when s is
 * given; returns how many there are, at most maxlines. */
static int wrap_lines(const char *text, int w, struct screen *s, int x, int y, int maxlines, int style)
{
    int lines = 0;
    size_t len = strlen(text), pos = 0, next;
    while (pos < len && lines < maxlines) {
        size_t take = text_wrap_line(text + pos, len - pos, w, &next);
        if (s)
            screen_put_fit(s, x, y + lines, w, text + pos, take, style);
        lines++;
        pos += next;
    }
    return lines;
}

/* How to move and how to leave: on the title row when it fits after the
 * whole title, else the title row says how to move and a row of its own
 * under the caption how to leave. */
#define LESSON_KEYS "  < > steps "
#define LESSON_KEYS_LEAVE "  < > steps  :lesson off leaves "
#define LESSON_LEAVE ":lesson off leaves the lesson "

static void caption_title(const struct ui *ui, struct strbuf *t)
{
    const struct lesson *l = ui->lesson;
    strbuf_addf(t, " %s: step %zu/%zu, %s", l->title, ui->lesson_step + 1, l->nsteps,
                l->steps[ui->lesson_step].title);
}

static bool leave_on_title(const struct ui *ui)
{
    struct strbuf t = STRBUF_INIT;
    caption_title(ui, &t);
    bool fits = text_columns(t.data, t.len) + (int)strlen(LESSON_KEYS_LEAVE) <= ui->scr.w;
    strbuf_free(&t);
    return fits;
}

int lessons_caption_height(struct ui *ui)
{
    const struct lesson_step *st = &ui->lesson->steps[ui->lesson_step];
    int text = wrap_lines(st->caption, ui->scr.w - 2, NULL, 0, 0, 6, 0);
    int h = 1 + text + !leave_on_title(ui);
    int most = ui->scr.h / 3; /* the panes keep two thirds */
    return h > most ? most : h;
}

void lessons_draw_caption(struct ui *ui, int y, int h)
{
    struct screen *s = &ui->scr;
    const struct lesson *l = ui->lesson;
    const struct lesson_step *st = &l->steps[ui->lesson_step];
    for (int i = 0; i < h; i++)
        screen_fill(s, 0, y + i, s->w, ' ', EL_NORMAL);
    screen_fill(s, 0, y, s->w, ' ', EL_TITLE);
    struct strbuf t = STRBUF_INIT;
    caption_title(ui, &t);
    bool on_title = leave_on_title(ui);
    const char *keys = on_title ? LESSON_KEYS_LEAVE : LESSON_KEYS;
    int kw = (int)strlen(keys);
    int used = screen_put_fit(s, 0, y, s->w - kw, t.data, t.len, EL_TITLE);
    screen_puts(s, s->w - kw > used ? s->w - kw : used, y, kw, keys, EL_TITLE);
    strbuf_free(&t);
    wrap_lines(st->caption, s->w - 2, s, 1, y + 1, h - 1 - !on_title, EL_NORMAL);
    if (!on_title && h > 1) {
        int lw = (int)strlen(LESSON_LEAVE);
        screen_puts(s, s->w > lw ? s->w - lw : 0, y + h - 1, lw, LESSON_LEAVE, EL_DIM);
    }
}

char *ui_lessons_dir(const struct ui *ui)
{
    struct strbuf p = STRBUF_INIT;
    const char *tries[] = {"%s/../lessons", "%s/../../lessons"};
    for (size_t i = 0; ui->exe_dir && i < 2; i++) {
        strbuf_reset(&p);
        strbuf_addf(&p, tries[i], ui->exe_dir);
        char real[PATH_MAX];
        if (realpath(strbuf_str(&p), real)) {
            strbuf_free(&p);
            return xstrdup(real);
        }
    }
    strbuf_reset(&p);
    strbuf_addf(&p, "%s/lessons", KPATH_DATADIR);
    if (access(strbuf_str(&p), R_OK) == 0)
        return strbuf_detach(&p, NULL);
    strbuf_free(&p);
    return NULL;
}

bool lessons_open(struct ui *ui, const char *name)
{
    char *dir = ui_lessons_dir(ui);
    struct strbuf path = STRBUF_INIT;
    if (strchr(name, '/') || !dir)
        strbuf_addstr(&path, name);
    else
        strbuf_addf(&path, "%s/%s.lesson", dir, name);
    /* {data}: the directory above lessons/, where grammars/ is */
    struct strbuf data = STRBUF_INIT;
    const char *slash = strrchr(strbuf_str(&path), '/');
    if (slash)
        strbuf_add(&data, path.data, (size_t)(slash - path.data));
    else
        strbuf_addstr(&data, ".");
    strbuf_addstr(&data, "/..");
    char real[PATH_MAX];
    struct diag_list d = DIAG_LIST_INIT;
    struct lesson *l = lesson_load(strbuf_str(&path),
                                   realpath(strbuf_str(&data), real) ? real : strbuf_str(&data), &d);
    strbuf_free(&path);
    strbuf_free(&data);
    free(dir);
    if (!l) {
        ui_diags(ui, &d);
        return false;
    }
    diag_list_free(&d);
    lesson_free(ui->lesson);
    ui->lesson = l;
    ui->lesson_start = true;
    return true;
}
