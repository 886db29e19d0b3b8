/* reduce_marks: see reduce_marks.h. */
#include "workspace/reduce_marks.h"

#include <stdlib.h>

#include "parse/input_kpaths.h"
#include "suite/reduce.h"
#include "base/xalloc.h"

void reduce_marks(struct workspace *ws, uint32_t k, struct reduce_marks_report *rep)
{
    *rep = (struct reduce_marks_report){.k = k, .inputs = ws->ninputs};
    rep->covered = xcalloc(k + 1, sizeof *rep->covered);
    struct kpath_space *sp = xcalloc(k, sizeof *sp);
    struct kpath_set *sets = xcalloc(k, sizeof *sets);
    struct kpath_set **ptrs = xcalloc(k, sizeof *ptrs);
    for (uint32_t j = 0; j < k; j++) {
        kpath_space_init(&sp[j], ws->graph, j + 1);
        kpath_set_init(&sets[j], &sp[j]);
        ptrs[j] = &sets[j];
    }
    struct reduce red;
    reduce_init(&red, k);
    /* reduce's input i is workspace input which[i] (unparsed ones are left out). */
    size_t *which = xcalloc(ws->ninputs + 1, sizeof *which);
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT,
                               .max_memory = PARSE_DEFAULT_MAX_MEMORY};
    for (size_t i = 0; i < ws->ninputs; i++) {
        const struct ws_input *in = &ws->inputs[i];
        rep->bytes += in->len;
        for (uint32_t j = 0; j < k; j++)
            kpath_set_clear(&sets[j]);
        struct diag_list diags = DIAG_LIST_INIT;
        bool ok = input_kpaths_text(ws->graph, "input", in->text, in->len, &po, ptrs, k, NULL,
                                    NULL, &diags);
        diag_list_free(&diags);
        if (!ok) {
            rep->unparsed++;
            continue;
        }
        which[red.ninputs] = i;
        reduce_add_input(&red, in->sample ? in->sample : "generated", in->len,
                         (const struct kpath_set *const *)ptrs, NULL, 0);
    }
    struct setcover_options so;
    setcover_options_default(&so);
    struct setcover_result res;
    reduce_solve(&red, &so, &res);
    for (size_t i = 0; i < ws->ninputs; i++)
        ws->inputs[i].marked = false;
    for (uint32_t c = 0; c < res.nchosen; c++) {
        struct ws_input *in = &ws->inputs[which[res.chosen[c]]];
        in->marked = true;
        rep->marked++;
        rep->marked_bytes += in->len;
    }
    reduce_coverage(&red, res.chosen, res.nchosen, rep->covered);
    rep->optimal = res.optimal;
    setcover_result_free(&res);
    reduce_free(&red);
    free(which);
    for (uint32_t j = 0; j < k; j++) {
        kpath_set_free(&sets[j]);
        kpath_space_free(&sp[j]);
    }
    free(ptrs);
    free(sets);
    free(sp);
}

void reduce_marks_report_free(struct reduce_marks_report *rep)
{
    free(rep->covered);
    rep->covered = NULL;
}
