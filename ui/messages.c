/* messages: the message line, the log and the question (messages.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "messages.h"
#include "ui.h"
#include "base/xalloc.h"

void ui_log(struct ui *ui, bool error, const char *text)
{
    if (ui->nlog == UI_LOG_MAX) { /* drop the oldest tenth */
        size_t drop = UI_LOG_MAX / 10;
        for (size_t i = 0; i < drop; i++)
            free(ui->log[i].text);
        memmove(ui->log, ui->log + drop, (ui->nlog - drop) * sizeof *ui->log);
        ui->nlog -= drop;
    }
    if (ui->nlog == ui->log_cap) {
        ui->log_cap = ui->log_cap ? 2 * ui->log_cap : 64;
        ui->log = xrealloc(ui->log, ui->log_cap * sizeof *ui->log);
    }
    ui->log[ui->nlog++] = (struct log_entry){xstrdup(text), error};
}

/* The message line shows the first line; the log keeps all of it. */
static void set_message(struct ui *ui, bool error, const char *fmt, va_list ap)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_vaddf(&sb, fmt, ap);
    ui_log(ui, error, strbuf_str(&sb));
    ui->message_more = false;
    for (size_t i = 0; i < sb.len; i++) {
        if (sb.data[i] == '\n') {
            sb.data[i] = '\0';
            sb.len = i;
            ui->message_more = true;
            break;
        }
        if (sb.data[i] == '\t')
            sb.data[i] = ' ';
    }
    free(ui->message);
    ui->message = strbuf_detach(&sb, NULL);
    ui->message_error = error;
}

void ui_message(struct ui *ui, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_message(ui, false, fmt, ap);
    va_end(ap);
}

void ui_error(struct ui *ui, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_message(ui, true, fmt, ap);
    va_end(ap);
}

void ui_diags(struct ui *ui, struct diag_list *diags)
{
    if (diags->len) {
        struct strbuf sb = STRBUF_INIT;
        /* errors first: the first error says what went wrong */
        size_t first = 0;
        for (size_t i = 0; i < diags->len; i++)
            if (diags->items[i].severity == DIAG_ERROR) {
                first = i;
                break;
            }
        /* every diagnostic goes to the log; the message line gets one */
        for (size_t i = 0; i < diags->len; i++) {
            if (i == first)
                continue;
            strbuf_reset(&sb);
            diag_format(&diags->items[i], &sb);
            ui_log(ui, diags->items[i].severity == DIAG_ERROR, strbuf_str(&sb));
        }
        strbuf_reset(&sb);
        diag_format(&diags->items[first], &sb);
        if (diags->len > 1)
            strbuf_addf(&sb, " (and %zu more)", diags->len - 1);
        if (diags->errors)
            ui_error(ui, "%s", strbuf_str(&sb));
        else
            ui_message(ui, "%s", strbuf_str(&sb));
        ui->message_more = diags->len > 1 || ui->message_more;
        strbuf_free(&sb);
    }
    diag_list_free(diags);
}

void ui_ask(struct ui *ui, const char *question, void (*on_yes)(struct ui *),
            void (*on_no)(struct ui *))
{
    free(ui->question);
    ui->question = xstrdup(question);
    ui_log(ui, false, question);
    ui->on_yes = on_yes;
    ui->on_no = on_no;
}
