/* request: what a pane asks the app to do (struct pane_request, ui.h),
 * built here and carried out by the app (ui_request, app.c).  Part of the
 * pane layer: it knows nothing of the app. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "base/xalloc.h"

struct pane_request req_text(enum request_kind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct strbuf sb = STRBUF_INIT;
    strbuf_vaddf(&sb, fmt, ap);
    va_end(ap);
    return (struct pane_request){.kind = kind, .text = strbuf_detach(&sb, NULL)};
}

struct pane_request req_focus(int pane)
{
    return (struct pane_request){.kind = REQ_FOCUS, .pane = pane};
}

struct pane_request req_cmdline(const char *initial, const char *fallback)
{
    return (struct pane_request){.kind = REQ_CMDLINE, .text = xstrdup(initial),
                                 .fallback = xstrdup(fallback)};
}

struct pane_request req_command(const char *line)
{
    return (struct pane_request){.kind = REQ_COMMAND, .text = xstrdup(line)};
}

struct pane_request req_action(enum action a)
{
    return (struct pane_request){.kind = REQ_ACTION, .action = a};
}

struct pane_request req_select_path(const uint32_t *path, uint32_t n, const char *listed,
                                    const char *unlisted)
{
    uint32_t *copy = xmalloc(((size_t)n + 1) * sizeof *copy);
    memcpy(copy, path, (size_t)n * sizeof *copy);
    return (struct pane_request){.kind = REQ_SELECT_PATH, .path = copy, .npath = n,
                                 .text = xstrdup(listed), .fallback = xstrdup(unlisted)};
}

void req_log(struct pane_request *r, bool error, const char *text)
{
    r->log = xgrow(r->log, &r->log_cap, r->nlog + 1, sizeof *r->log);
    r->log[r->nlog++] = (struct log_entry){xstrdup(text), error};
}

void pane_request_free(struct pane_request *r)
{
    free(r->text);
    free(r->fallback);
    free(r->path);
    for (size_t i = 0; i < r->nlog; i++)
        free(r->log[i].text);
    free(r->log);
    *r = (struct pane_request){.kind = r->kind};
}
