/* generalize_view: the generalization view (W, or :generalize alone), an
 * overlay over the panes: the state and the learned grammar with its #:
 * notes (which queries justified each change), then the query log grouped
 * by attempt like the paper's Figure 5 (each input, yes (valid) or no
 * (invalid), the conclusion).
 *
 * Pane layer: it reads the job (struct generalize_job, generalize_view.h)
 * and gives the app its lines, title and footer keys through struct
 * overlay_ops; it never calls the app.  The job itself, :generalize and
 * :learned are generalize_job.c. */
#include <stdlib.h>
#include <string.h>

#include "generalize_view.h"
#include "ui.h"

/* One line with its marker, wrapped at `width` columns (continuations
 * indented by 4), so a long #: note or input can be read in full. */
static void add_line(struct strbuf *lines, char mark, const char *p, size_t len, int width)
{
    int w = width > 20 ? width : 20;
    bool first = true;
    do {
        size_t next, take = text_wrap_line(p, len, first ? w : w - 4, &next);
        strbuf_addch(lines, mark);
        if (!first)
            strbuf_addstr(lines, "    ");
        strbuf_add(lines, p, take);
        strbuf_addch(lines, '\n');
        p += next;
        len -= next;
        first = false;
    } while (len);
}

/* Each line of text (several, '\n'-separated) with a marker; `no_mark`
 * instead for a log line of an input the program rejected. */
static void add_lines(struct strbuf *lines, char mark, char no_mark, const char *text, size_t len,
                      int width)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
        /* "    #12   no   ..." */
        bool no = l > 14 && p[4] == '#' && memcmp(p + 10, " no ", 4) == 0;
        add_line(lines, no ? no_mark : mark, p, l, width);
        p += l + 1;
    }
}

void generalize_view_lines(struct ui *ui, int width, struct strbuf *lines)
{
    struct generalize_job *j = ui->gz;
    if (!j) {
        strbuf_addstr(lines, "\x05(no generalization yet: :generalize SAMPLE... -- COMMAND)\n");
        return;
    }
    static const char *const states[] = {"running", "done", "failed", "stopped"};
    size_t q = j->res.queries;
    struct strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "%s, %s: %zu quer%s (%zu accepted), %zu change%s", j->grammar_name,
                states[j->state], q, q == 1 ? "y" : "ies", j->res.accepted, j->res.changes,
                j->res.changes == 1 ? "" : "s");
    add_line(lines, '\x01', sb.data, sb.len, width);
    strbuf_reset(&sb);
    strbuf_addf(&sb, "oracle: %s", j->command);
    add_line(lines, '\x05', sb.data, sb.len, width);
    strbuf_reset(&sb);
    strbuf_addstr(&sb, "samples:");
    for (size_t i = 0; i < j->nsamples; i++)
        strbuf_addf(&sb, " %s", j->samples[i].name);
    add_line(lines, '\x05', sb.data, sb.len, width);
    if (j->state == GZ_DONE || j->state == GZ_STOPPED) {
        strbuf_reset(&sb);
        strbuf_addf(&sb, "The learned grammar%s (#: the change, the queries that justified it)",
                    j->state == GZ_STOPPED ? " so far" : "");
        add_line(lines, '\x01', sb.data, sb.len, width);
        add_lines(lines, '\x05', '\x05', j->learned.data ? j->learned.data : "", j->learned.len,
                  width);
        strbuf_reset(&sb);
        if (j->out && j->state == GZ_DONE)
            strbuf_addf(&sb, "written to %s: :learned (or :load %s) explores it", j->out, j->out);
        else
            strbuf_addstr(&sb, ":learned FILE writes it and explores it");
        add_line(lines, '\x05', sb.data, sb.len, width);
    }
    strbuf_reset(&sb);
    strbuf_addstr(&sb, "Query log: per attempt each input, yes (valid) or no (invalid), then "
                       "the conclusion");
    add_line(lines, '\x01', sb.data, sb.len, width);
    strbuf_free(&sb);
    for (size_t b = 0; b < j->nblocks; b++) {
        /* the attempt's first line as a heading, the rest under it */
        const struct strbuf *blk = &j->blocks[b];
        const char *nl = memchr(blk->data, '\n', blk->len);
        size_t head = nl ? (size_t)(nl - blk->data) + 1 : blk->len;
        add_lines(lines, '\x01', '\x01', blk->data, head, width);
        add_lines(lines, '\x05', '\x04', blk->data + head, blk->len - head, width);
    }
    if (j->state == GZ_RUNNING)
        strbuf_addstr(lines, "\x05...\n");
}

/* The keys the view takes (app.c's overlay_key), for the footer. */
static const struct footer_key footer[] = {
    {ACT_DOWN, "scroll"}, {ACT_BOTTOM, "end"}, {ACT_SEARCH, "search"}, {ACT_SEARCH_NEXT, "next"},
    {ACT_GENERALIZE_VIEW, "close"}, {ACT_CANCEL, "close"}, {ACT_NONE, NULL},
};

const struct overlay_ops generalize_overlay_ops = {
    " Generalization (j/k scroll, / searches, W or Esc closes)", generalize_view_lines, footer, NULL,
};

