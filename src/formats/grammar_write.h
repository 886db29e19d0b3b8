/* grammar_write: writing a grammar in kpath's own format (.ebnf).
 *
 * Contract: the text written loads back (grammar_load_string) to a grammar
 * with the same rules in the same order, the same syntax trees (so the same
 * graph, ids and k-paths) and the same weights, to five significant digits.
 *
 * A rule loaded from source and not changed since (rule.edited is false) is
 * written verbatim from its span in grammar.source: its comments, layout and
 * spelling stay as they were, and so does the text between rules, the file's
 * header and what follows the last rule.  A rule that is new (no source) or
 * edited is printed from its syntax tree:
 *
 *     Name := alt | alt;                 when it fits in `width` characters,
 *     Name := alt                        else one alternative per line
 *           | alt;
 *
 * with the rule's own comments kept above it.  Printing uses the grammar's
 * style of definition (":=", "::=" or "=", as its first rule has it),
 * parentheses only where the tree needs them, literals in double quotes with
 * the loader's escapes (grammar_lit_label), classes as written, quantifiers
 * as ? * + {n} {n,} {n,m} (grammar_quant_label), and weights as a prefix "N%".  A new rule is
 * written after the rule before it in grammar.rules, so the order of that
 * array is the order of the file.
 *
 * Probabilities: with `probabilities`, every alternative of every alternation
 * gets a prefix "N%" (every rule with an alternation is then printed from its
 * syntax tree).  The values come from, the first that is set:
 *   - probability(ctx, alt, i): alternative i of the EXPR_ALT `alt`; a
 *     negative value leaves that alternative unannotated (it then shares what
 *     the others leave, as the loader defines);
 *   - graph + edge_probability: a table indexed like graph->children, so the
 *     probability of alternative i of the alt node n is
 *     edge_probability[graph->nodes[n].first_child + i]; alternations of
 *     rules outside the graph (unreachable) keep the grammar's weights;
 *   - the grammar's own weights (grammar_alt_probability).
 * The printed percentages of one alternation never add up to more than 100%.
 *
 * Notes: `note(ctx, g, rule, out)` may append text about a rule (raw counts,
 * say); each of its lines is written directly above the rule as "#: LINE".
 * When `note` is set, the "#:" lines already directly above a rule are
 * dropped, so writing a file again replaces its notes instead of piling them.
 *
 * Nothing here recurses on the nesting depth of a rule. */
#ifndef KPATH_GRAMMAR_WRITE_H
#define KPATH_GRAMMAR_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "grammar/grammar.h"
#include "graph/graph.h"
#include "base/strbuf.h"

#define GRAMMAR_WRITE_WIDTH 80
#define GRAMMAR_WRITE_NOTE_PREFIX "#:"

struct grammar_write_options {
    /* Print every rule from its syntax tree, untouched rules too (their
     * comments are kept). */
    bool reprint;
    /* Give every alternative of every alternation a prefix "N%". */
    bool probabilities;
    double (*probability)(void *ctx, const struct expr *alt, uint32_t i);
    const struct graph *graph;           /* with edge_probability */
    const double *edge_probability;
    void (*note)(void *ctx, const struct grammar *g, uint32_t rule, struct strbuf *out);
    void *ctx;
    /* Line width for putting alternatives on lines of their own; 0 means
     * GRAMMAR_WRITE_WIDTH. */
    unsigned width;
};

/* The whole grammar, appended to `out`.  opts may be NULL (defaults). */
void grammar_write(const struct grammar *g, const struct grammar_write_options *opts,
                   struct strbuf *out);
/* One rule's definition, "Name := ...;", printed from its syntax tree, without
 * comments or a final newline (it may span lines). */
void grammar_write_rule(const struct grammar *g, uint32_t rule,
                        const struct grammar_write_options *opts, struct strbuf *out);
/* One element of a right-hand side as the writer prints it: (":" Port)? */
void grammar_write_expr(const struct grammar *g, const struct expr *e, struct strbuf *out);
/* Does `child` need parentheses below `parent` to be read back as the same
 * tree?  Groups make no node, so any alternation, sequence or quantifier
 * that is itself an item needs them (kpath's, ANTLR's, TRIBBLE's and
 * Fandango's operators apply to a symbol only: a name, a string or a
 * group); a sequence as an alternative does not.  Every writer asks this. */
bool grammar_write_needs_parens(const struct expr *parent, const struct expr *child);
/* grammar_write into the file `path`, atomically (see write_file_atomic). */
bool grammar_write_file(const struct grammar *g, const struct grammar_write_options *opts,
                        const char *path, struct diag_list *diags);

/* Put `len` bytes into the file `path` so that nobody ever sees a part of
 * them: they go to a new temporary file in the same directory, which is
 * fsync'd and renamed over `path` (keeping the permissions of a file that
 * was there).  On failure `path` is untouched, the temporary file is removed
 * and a diagnostic names the problem.  Only a regular file is ever replaced:
 * a device or pipe (/dev/null, /dev/stdout) is written in place, a symbolic
 * link keeps pointing at its file (which is the one replaced), and a
 * directory is an error. */
bool write_file_atomic(const char *path, const void *data, size_t len, struct diag_list *diags);

#endif
