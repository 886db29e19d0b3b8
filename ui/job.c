/* job: the registered jobs and running the current one through its
 * struct job_ops (job.h). */
#include "job.h"
#include "ui.h"

/* The one registration of each job. */
const struct job_ops *const job_table[NJOBS] = {
    [JOB_RUN] = &run_job_ops,
    [JOB_SEARCH] = &search_job_ops,
    [JOB_WHY] = &why_job_ops,
    [JOB_SAMPLES] = &samples_job_ops,
    [JOB_CAMPAIGN] = &campaign_job_ops,
    [JOB_RESTORE] = &restore_job_ops,
    [JOB_RUNS_REPORT] = &runs_report_job_ops,
    [JOB_FEATURES] = &features_job_ops,
    [JOB_GENERALIZE] = &generalize_job_ops,
    [JOB_SHRINK] = &shrink_job_ops,
};

void ui_job_slice(struct ui *ui, double budget)
{
    if (!ui->job)
        return;
    const struct job_ops *ops = job_table[ui->job];
    if (ops->slice && ops->slice(ui, ui_now() + budget))
        return;
    ui->job = JOB_NONE;
    if (ops->finished)
        ops->finished(ui);
}

void ui_job_stop(struct ui *ui, const char *why)
{
    if (!ui->job)
        return;
    const struct job_ops *ops = job_table[ui->job];
    ui->job = JOB_NONE;
    if (ops->stop)
        ops->stop(ui, why);
}

bool ui_job_status(struct ui *ui, int width, struct strbuf *out, int *style)
{
    const struct job_ops *ops = ui->job ? job_table[ui->job] : NULL;
    if (!ops || !ops->status)
        return false;
    ops->status(ui, width, out);
    *style = ops->status_style;
    return true;
}

void ui_jobs_forget(struct ui *ui)
{
    for (int k = 1; k < NJOBS; k++)
        if (job_table[k]->forget)
            job_table[k]->forget(ui);
}

void ui_jobs_free(struct ui *ui)
{
    for (int k = 1; k < NJOBS; k++)
        if (job_table[k]->free)
            job_table[k]->free(ui);
}
