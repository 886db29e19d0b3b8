/* workspace_export: see workspace_export.h.  The manifest is written last,
 * after the stale cases are gone, so a directory with a manifest is always a
 * whole suite. */
#include "workspace/workspace_export.h"

#include <inttypes.h>
#include <stdlib.h>

#include "base/json.h"
#include "base/outdir.h"
#include "base/xalloc.h"
#include "parse/parse.h"

static void add_ids(struct strbuf *out, const uint32_t *ids, uint32_t k)
{
    strbuf_addch(out, '[');
    for (uint32_t i = 0; i < k; i++)
        strbuf_addf(out, i ? ", %u" : "%u", ids[i]);
    strbuf_addch(out, ']');
}

struct export_paths {
    struct kpath_set *seen;
    struct strbuf *out;
    uint32_t k;
    size_t count;
};

static void export_new_path(const uint32_t *path, void *ctx)
{
    struct export_paths *e = ctx;
    if (!kpath_set_add(e->seen, path))
        return;
    if (e->count++)
        strbuf_addstr(e->out, ", ");
    add_ids(e->out, path, e->k);
}

static bool export_set_path(const uint32_t *path, void *ctx)
{
    export_new_path(path, ctx);
    return true;
}

/* An input's k-paths (in the pinned contexts, with pins) into set. */
static void input_add_to(const struct workspace *ws, const struct ws_input *in,
                         struct kpath_set *set)
{
    const struct pin_set *pins = ws->pins.len ? &ws->pins : NULL;
    struct kpath_set *sets = set;
    if (in->forest)
        forest_add_kpaths_pinned(in->forest, &sets, 1, pins);
    else if (in->has_tree)
        pin_add_kpaths(pins, &in->tree, set);
}

bool workspace_export(struct workspace *ws, const char *dir, const size_t *which, size_t n,
                      bool force, struct strbuf *report, struct diag_list *diags)
{
    struct outdir od = {0};
    enum outdir_status os = outdir_open(&od, dir, force, diags);
    if (os != OUTDIR_OK) {
        outdir_close(&od);
        return false;
    }
    const char *suffix = ".txt";
    char **names = xcalloc(n + 1, sizeof *names);
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        struct strbuf name = STRBUF_INIT;
        outdir_case_name(&name, i + 1, n, suffix);
        names[i] = strbuf_detach(&name, NULL);
    }
    for (size_t i = 0; ok && i < n; i++) {
        const struct ws_input *in = &ws->inputs[which[i]];
        ok = outdir_write(&od, names[i], in->text, in->len, diags);
    }
    char hex[SHA256_HEX_SIZE] = "";
    if (ok)
        ok = sha256_file(ws->grammar_path, hex, diags);
    /* Stale cases first: when the manifest appears, the directory is the suite. */
    if (ok)
        ok = outdir_finish(&od, suffix, diags);
    if (ok) {
        const struct gen_options *o = &ws->gen_opts;
        uint32_t k = ws->k;
        struct strbuf m = STRBUF_INIT;
        strbuf_addstr(&m, "{\n  \"tool\": \"kpath\",\n  \"version\": ");
        json_add_cstring(&m, KPATH_VERSION);
        strbuf_addstr(&m, ",\n  \"command\": \"export\",\n  \"grammar\": {\"path\": ");
        json_add_cstring(&m, ws->grammar_path);
        strbuf_addstr(&m, ", \"sha256\": ");
        json_add_cstring(&m, hex);
        strbuf_addstr(&m, "},\n  \"start\": ");
        json_add_cstring(&m, ws->grammar->rules[grammar_user_start(ws->grammar)].name);
        if (ws->ndups) {
            strbuf_addstr(&m, ",\n  \"duplications\": [");
            for (size_t d = 0; d < ws->ndups; d++) {
                strbuf_addstr(&m, d ? ", {\"rule\": " : "{\"rule\": ");
                json_add_cstring(&m, ws->dups[d].rule);
                strbuf_addf(&m, ", \"alternative\": %u, \"depth\": %u}", ws->dups[d].alternative,
                            ws->dups[d].depth);
            }
            strbuf_addch(&m, ']');
        }
        strbuf_addf(&m, ",\n  \"strategy\": \"%s\"", gen_strategy_name(o->strategy));
        if (o->strategy == GEN_KPATH)
            strbuf_addf(&m, ",\n  \"close_off\": \"%s\"", gen_closeoff_name(o->closeoff));
        else
            strbuf_addstr(&m, ",\n  \"close_off\": null");
        strbuf_addf(&m, ",\n  \"k\": %u,\n  \"max_depth\": %u,\n  \"max_repetitions\": %u,"
                        "\n  \"max_size\": %u,\n  \"seed\": %" PRIu64 ",\n  \"count\": %zu",
                    k, o->max_depth, o->max_repetitions, o->max_size, o->seed, n);
        strbuf_addstr(&m, ",\n  \"suffix\": ");
        json_add_cstring(&m, suffix);
        strbuf_addstr(&m, ",\n  \"files\": [");
        struct kpath_set seen;
        kpath_set_init(&seen, &ws->space);
        uint64_t total_bytes = 0;
        for (size_t i = 0; i < n; i++) {
            const struct ws_input *in = &ws->inputs[which[i]];
            total_bytes += in->len;
            strbuf_addstr(&m, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
            json_add_cstring(&m, names[i]);
            strbuf_addf(&m, ", \"size\": %zu, \"depth\": %u", in->len, in->depth);
            if (in->sample) {
                strbuf_addstr(&m, ", \"sample\": ");
                json_add_cstring(&m, in->sample);
            }
            if (in->target && in->target_k == k) {
                strbuf_addstr(&m, ", \"target\": ");
                add_ids(&m, in->target, k);
            }
            strbuf_addstr(&m, ", \"origin\": ");
            if (in->sample) {
                strbuf_addstr(&m, "{\"made_by\": \"sample\", \"file\": ");
                json_add_cstring(&m, in->sample);
                strbuf_addch(&m, '}');
            } else {
                strbuf_addstr(&m, in->origin ? in->origin : "{\"made_by\": \"unknown\"}");
            }
            strbuf_addstr(&m, ", \"new_paths\": [");
            struct export_paths ep = {&seen, &m, k, 0};
            if (in->forest) {
                struct kpath_set mine;
                kpath_set_init(&mine, &ws->space);
                forest_add_kpaths(in->forest, &mine);
                kpath_set_foreach(&mine, export_set_path, &ep);
                kpath_set_free(&mine);
            } else if (in->has_tree) {
                derivation_foreach_kpath(&in->tree, k, export_new_path, &ep);
            }
            strbuf_addstr(&m, "]}");
        }
        kpath_set_free(&seen);
        strbuf_addstr(&m, n ? "\n  ],\n" : "],\n");
        strbuf_addf(&m, "  \"summary\": {\n    \"inputs\": %zu,\n    \"total_bytes\": %" PRIu64
                        ",\n    \"mean_bytes\": %.1f,\n    \"coverage\": [",
                    n, total_bytes, n ? (double)total_bytes / (double)n : 0.0);
        for (uint32_t j = 1; j <= k; j++) {
            struct kpath_space sp;
            kpath_space_init(&sp, ws->graph, j);
            struct kpath_set set;
            kpath_set_init(&set, &sp);
            for (size_t i = 0; i < n; i++)
                input_add_to(ws, &ws->inputs[which[i]], &set);
            strbuf_addf(&m, "%s\n      {\"k\": %u, \"covered\": %" PRIu64 ", \"total\": %" PRIu64
                            "%s}",
                        j > 1 ? "," : "", j, set.size, pin_count_under(&ws->pins, &sp),
                        sp.saturated ? ", \"saturated\": true" : "");
            kpath_set_free(&set);
            kpath_space_free(&sp);
        }
        strbuf_addstr(&m, "\n    ],\n    \"unreachable\": [],\n    \"agenda_left\": 0\n  },\n"
                          "  \"error\": null\n}\n");
        ok = outdir_write(&od, OUTDIR_MANIFEST, m.data, m.len, diags);
        strbuf_free(&m);
    }
    if (!ok)
        outdir_commit(&od, diags); /* what was written is in place, and counted */
    if (ok)
        strbuf_addf(report, "wrote %zu input file%s and manifest.json to %s", n,
                    n == 1 ? "" : "s", dir);
    else
        strbuf_addf(report, "%zu file%s written to %s before the error; %s intact", od.written,
                    od.written == 1 ? " was" : "s were", dir, od.written == 1 ? "it is" : "they are");
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    outdir_close(&od);
    return ok;
}
