/* generalize_view: :generalize as a job (generalize_job.c, the app layer)
 * and the generalization view, an overlay (generalize_view.c, the pane
 * layer); struct generalize_job is what the job makes and the view shows.
 * Kept apart from ui.h so that the explorer's other parts only see these
 * few entry points. */
#ifndef KPATH_UI_GENERALIZE_VIEW_H
#define KPATH_UI_GENERALIZE_VIEW_H

#include <stdbool.h>

#include "infer/generalize.h"
#include "infer/lattice.h"
#include "infer/membership.h"
#include "base/samples.h"
#include "base/strbuf.h"

enum gz_state { GZ_RUNNING, GZ_DONE, GZ_FAILED, GZ_STOPPED };

struct generalize_job {
    enum gz_state state;
    struct grammar *g;            /* being generalized, then the learned grammar */
    char *grammar_name;           /* the explored grammar's file, for the view */
    char *command;                /* the command line, for the view */
    char *out;                    /* -o FILE, or NULL */
    struct lattice lattice;
    bool have_lattice;
    char *lattice_path;
    struct sample_list files;
    struct strbuf *texts;
    struct generalize_sample *samples;
    size_t nsamples;
    struct generalize_options o;
    struct generalize_result res;
    struct diag_list diags;
    struct generalize *z;         /* NULL once finished */
    struct membership *m;
    bool asking;                  /* the membership has the questions */
    struct strbuf *blocks;        /* the log, one block per attempt */
    size_t nblocks, blocks_cap;
    struct strbuf learned;        /* the learned grammar with its notes (when over) */
    char *pending_path;           /* :learned FILE waiting for a yes */
    bool pending_force;
};


struct ui;

/* :generalize with these words (options and samples, -- COMMAND); no words
 * shows the last generalization.  force: -o may replace a file.  The job is
 * generalize_job_ops (job.h): a slice steps the generalization, a key stops
 * it (every run killed, the changes concluded so far kept). */
void generalize_job_start(struct ui *ui, char **words, int n, bool force);
/* Open the view (OVERLAY_GENERALIZE). */
void generalize_view_show(struct ui *ui);
/* The overlay's lines (markers as overlay_lines in app.c); the view's
 * struct overlay_ops is generalize_overlay_ops (ui.h). */
void generalize_view_lines(struct ui *ui, int width, struct strbuf *lines);
/* :learned [FILE]: write the learned grammar to FILE (asking before
 * replacing one) and explore it; force drops unsaved work. */
void generalize_learned(struct ui *ui, const char *path, bool force);

#endif
