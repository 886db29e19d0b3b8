/* docs: the manual page and the shell completion, generated from the same
 * tables as --help (the command table, each command's options, the
 * explorer's keys and : commands), so they cannot disagree with it.
 * `kpath --man` prints kpath.1 (roff), `kpath --completion bash|zsh` the
 * completion script; `make` builds kpath.1 and `make install` installs
 * both. */
#ifndef KPATH_DOCS_H
#define KPATH_DOCS_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"

/* Text with roff's special characters escaped (backslash, a leading dot or
 * quote, hyphens as minus signs). */
void docs_roff_text(FILE *out, const char *text);
void docs_man(FILE *out, const struct cli_command *const *commands, size_t n);
/* Returns 0, or 2 (after a message on stderr) for a shell it does not know. */
int docs_completion(FILE *out, const char *shell, const struct cli_command *const *commands,
                    size_t n);

#endif
