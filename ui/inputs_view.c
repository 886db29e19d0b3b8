/* inputs_view: switching the inputs pane between its views (the inputs,
 * the runs of b, the behaviour features of w), each keeping its own list
 * state while another is shown.  Apart from the views (runs.c, features.c)
 * so that turning one on turns the other off without either calling the
 * other.  Pane layer; declared in ui.h (runs_toggle, features_toggle). */
#include <stdlib.h>
#include <string.h>

#include "features_view.h"
#include "ui.h"
#include "base/xalloc.h"

void runs_toggle(struct ui *ui, bool on)
{
    if (on == (ui->inputs_view == INPUTS_RUNS))
        return;
    if (on)
        features_toggle(ui, false);
    if (on && ui->runs_report_stopped)
        memset(ui->runs_key, 0, sizeof ui->runs_key); /* compute it again */
    struct list_state t = ui->list[PANE_INPUTS];
    ui->list[PANE_INPUTS] = ui->runs_list;
    ui->runs_list = t;
    /* on from any view but the features (turned off above), off back to
     * the list: the growth plot is left for the runs */
    ui->inputs_view = on ? INPUTS_RUNS : INPUTS_LIST;
}

void features_toggle(struct ui *ui, bool on)
{
    if (on == (ui->inputs_view == INPUTS_FEATURES))
        return;
    if (!ui->features)
        ui->features = xcalloc(1, sizeof *ui->features);
    struct features_view *fv = ui->features;
    if (on) {
        runs_toggle(ui, false);
        fv->other = ui->list[PANE_INPUTS];
        ui->list[PANE_INPUTS] = fv->list;
        if (fv->state == FV_STOPPED)
            memset(fv->key, 0, sizeof fv->key); /* learn again */
    } else {
        fv->list = ui->list[PANE_INPUTS];
        ui->list[PANE_INPUTS] = fv->other;
    }
    ui->inputs_view = on ? INPUTS_FEATURES : INPUTS_LIST;
}
