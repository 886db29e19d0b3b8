/* docs: the manual page and the shell completion, generated from the same
 * tables as --help (the command table, each command's options, the
 * explorer's options, keys and : commands), so they cannot disagree with it.
 * `kpath --man` prints kpath.1 (roff), `kpath --completion bash|zsh` the
 * completion script; `make` builds kpath.1 and `make install` installs
 * both. */
#ifndef KPATH_DOCS_H
#define KPATH_DOCS_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"

/* One of the explorer's options (`kpath [options] [GRAMMAR]`, the table in
 * cli/main.c).  `option` is as a command's: main reads the command line by
 * it, and the man page and completion list it as they list a command's; an
 * `arg` in brackets is optional ("[NAME]").  The explorer's --help is a
 * summary: an option with a `usage` (the arguments after "kpath --NAME")
 * is a way to start the explorer and gets a usage line, its help beside it;
 * the others are listed after "Options:", with `note` (may be NULL) in
 * parentheses. */
struct docs_explorer_option {
    struct cli_option option;
    const char *usage;
    const char *note;
};

/* Text with roff's special characters escaped (backslash, a leading dot or
 * quote, hyphens as minus signs). */
void docs_roff_text(FILE *out, const char *text);
/* The explorer's options: explorer[0..nexplorer). */
void docs_man(FILE *out, const struct cli_command *const *commands, size_t n,
              const struct docs_explorer_option *explorer, size_t nexplorer);
/* Returns 0, or 2 (after a message on stderr) for a shell it does not know. */
int docs_completion(FILE *out, const char *shell, const struct cli_command *const *commands,
                    size_t n, const struct docs_explorer_option *explorer, size_t nexplorer);

#endif
