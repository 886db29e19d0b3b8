/* lesson: see lesson.h.  The file is read line by line:
 *     # a comment                 (and blank lines)
 *     title TEXT                  the lesson's title (once, first)
 *     step TEXT                   a new step and its title
 *     do LINE                     a setup line of the step: keys, :command, /search
 *     say TEXT                    caption text (several say lines make one paragraph)
 */
#include "lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

void lesson_free(struct lesson *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->nsteps; i++) {
        struct lesson_step *s = &l->steps[i];
        free(s->title);
        for (size_t j = 0; j < s->nsetup; j++)
            free(s->setup[j].text);
        free(s->setup);
        free(s->caption);
    }
    free(l->steps);
    free(l->title);
    free(l->path);
    free(l);
}

/* `text` with every {data} replaced by `data`. */
static char *expand(const char *text, const char *data)
{
    struct strbuf sb = STRBUF_INIT;
    const char *p = text, *hit;
    while ((hit = strstr(p, "{data}"))) {
        strbuf_add(&sb, p, (size_t)(hit - p));
        strbuf_addstr(&sb, data);
        p = hit + 6;
    }
    strbuf_addstr(&sb, p);
    return strbuf_detach(&sb, NULL);
}

struct lesson *lesson_load(const char *path, const char *data, struct diag_list *diags)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot open the lesson");
        return NULL;
    }
    struct lesson *l = xcalloc(1, sizeof *l);
    l->path = xstrdup(path);
    size_t steps_cap = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    unsigned number = 0;
    bool ok = true;
    while ((n = getline(&line, &cap, f)) >= 0 && ok) {
        number++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
            line[--n] = '\0';
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            continue;
        const char *sp = strchr(p, ' ');
        size_t klen = sp ? (size_t)(sp - p) : strlen(p);
        const char *rest = sp ? sp + 1 : "";
        while (*rest == ' ')
            rest++;
        struct lesson_step *cur = l->nsteps ? &l->steps[l->nsteps - 1] : NULL;
        if (klen == 5 && memcmp(p, "title", 5) == 0 && !l->title && !cur) {
            l->title = xstrdup(rest);
        } else if (klen == 4 && memcmp(p, "step", 4) == 0 && *rest) {
            l->steps = xgrow(l->steps, &steps_cap, l->nsteps + 1, sizeof *l->steps);
            l->steps[l->nsteps++] = (struct lesson_step){xstrdup(rest), NULL, 0, xstrdup("")};
        } else if (klen == 2 && memcmp(p, "do", 2) == 0 && cur && *rest) {
            cur->setup = xrealloc(cur->setup, (cur->nsetup + 1) * sizeof *cur->setup);
            cur->setup[cur->nsetup++] = (struct lesson_line){expand(rest, data), number};
        } else if (klen == 3 && memcmp(p, "say", 3) == 0 && cur) {
            struct strbuf sb = STRBUF_INIT;
            strbuf_addstr(&sb, cur->caption);
            if (sb.len && *rest)
                strbuf_addch(&sb, ' ');
            strbuf_addstr(&sb, rest);
            free(cur->caption);
            cur->caption = strbuf_detach(&sb, NULL);
        } else {
            diag_add(diags, DIAG_ERROR, path, number, (unsigned)(p - line) + 1,
                     !cur && klen != 5 ? "expected 'title TEXT' or 'step TEXT' first"
                                       : "expected 'step TEXT', 'do LINE' or 'say TEXT'");
            ok = false;
        }
    }
    free(line);
    fclose(f);
    if (ok && !l->nsteps) {
        diag_add(diags, DIAG_ERROR, path, number ? number : 1, 1, "the lesson has no steps");
        ok = false;
    }
    if (!ok) {
        lesson_free(l);
        return NULL;
    }
    if (!l->title)
        l->title = xstrdup(l->steps[0].title);
    return l;
}
