#include "parse/input_kpaths.h"

#include <string.h>

#include "base/samples.h"
#include "base/sha256.h"

bool input_kpaths_text(const struct graph *g, const char *name, const char *text, size_t len,
                       const struct parse_options *po, struct kpath_set *const *sets,
                       size_t nsets, const struct pin_set *pins, struct input_kpaths_info *info,
                       struct diag_list *diags)
{
    if (!pins || !pins->len) {
        /* No pinned contexts to recognize (they need the ancestors of every
         * node): k-paths, expansions and tree counts while parsing, no forest. */
        uint64_t trees = 0;
        bool infinite = false;
        if (!parse_kpaths(g, name, text, len, po, sets, nsets, info ? info->expansions : NULL,
                          info ? &trees : NULL, &infinite, diags))
            return false;
        if (info)
            info->trees = trees, info->infinite = infinite;
        return true;
    }
    struct forest *f = parse_text(g, name, text, len, po, diags);
    if (!f)
        return false;
    if (info) {
        info->infinite = false;
        info->trees = forest_count_trees(f, &info->infinite);
        if (info->expansions)
            forest_add_expansions(f, info->expansions);
    }
    forest_add_kpaths_pinned(f, sets, nsets, pins);
    forest_free(f);
    return true;
}

bool input_kpaths_file(const struct graph *g, const char *path, const struct parse_options *po,
                       struct kpath_set *const *sets, size_t nsets, const struct pin_set *pins,
                       struct strbuf *text, struct input_kpaths_info *info,
                       struct diag_list *diags)
{
    if (!samples_read(path, po->max_input_size, text, diags))
        return false;
    return input_kpaths_text(g, samples_display_name(path), strbuf_str(text), text->len, po,
                             sets, nsets, pins, info, diags);
}

bool input_kpaths_as_ran(const struct graph *g, const char *path, const char *expected_sha256,
                         const struct parse_options *po, struct kpath_set *const *sets,
                         size_t nsets, struct strbuf *text, struct diag_list *diags)
{
    if (!samples_read(path, po->max_input_size, text, diags))
        return false;
    /* Before parsing: a changed input that no longer parses has changed,
     * which is what the user needs to hear, not where it stops parsing. */
    if (expected_sha256[0]) {
        char hex[SHA256_HEX_SIZE];
        sha256_hex(text->data ? text->data : "", text->len, hex);
        if (strcmp(hex, expected_sha256) != 0) {
            diag_add(diags, DIAG_ERROR, path, 0, 0, "changed since it ran");
            return false;
        }
    }
    return input_kpaths_text(g, samples_display_name(path), strbuf_str(text), text->len, po,
                             sets, nsets, NULL, NULL, diags);
}
