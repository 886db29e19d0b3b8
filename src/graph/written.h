/* written: the text of a derivation as it is written for a program to read.
 *
 * For most grammars that is derivation_text.  A grammar imported from an
 * ANTLR .g4 file with lexer rules (grammar.lexer) is read by ANTLR's lexer
 * before its parser: two tokens derived side by side may read as one
 * ("WITH" "GROUPS" as the identifier WITHGROUPS, '-' '-' as "--"), a keyword
 * as an identifier, a line comment as swallowing what follows.  For such a
 * grammar the text is mended by lexer_separate (grammar/lexer.h): a
 * separator that the grammar skips (a blank, else a newline) goes where the
 * lexer would otherwise read other tokens, so that the written text
 * tokenizes back to the tokens the tree was derived with.  The separators
 * are skip tokens, which the imported grammar allows between any two
 * tokens, so the written text still parses, with every k-path of the tree
 * (and, where a separator went, those of the skip rule holding it).
 *
 * Mending lexes the text (a few times where it needs separators), so it is
 * for texts that are written or run, once each, not for the texts a search
 * measures.  The lexer is compiled on the first call for a graph and kept
 * with it (graph.written, freed by graph_free); calls from several threads
 * are safe. */
#ifndef KPATH_WRITTEN_H
#define KPATH_WRITTEN_H

#include <stdbool.h>

#include "base/strbuf.h"
#include "graph/derivation.h"

/* Append the text of t as written to out.  Returns false when the grammar
 * has a lexer and no separator makes the lexer read back the tree's tokens
 * (the text is then appended as derived). */
bool derivation_written_text(const struct derivation *t, struct strbuf *out);

/* The lexer of g's grammar (NULL when it has none), compiled on first use
 * and kept with g as above, and in *node_token (when not NULL) per node the
 * token it writes (lexer_token_for; NULL without a lexer).  For the parser,
 * which reads a sample's tokens first (parse/token_bounds.h). */
struct lexer;
const struct lexer *graph_written_lexer(const struct graph *g, const uint32_t **node_token);

#endif
