/* main: kpath's entry point: global options and dispatch to a subcommand. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../ui/tui.h"
#include "cli.h"
#include "commands.h"
#include "docs.h"

#define COMMAND_ENTRY(name, fn) &fn##_command,
static const struct cli_command *const commands[] = {KPATH_COMMANDS(COMMAND_ENTRY)};
#undef COMMAND_ENTRY
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const struct cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i]->name, name) == 0)
            return commands[i];
    return NULL;
}

static bool is_command(const char *name)
{
    return find_command(name) != NULL;
}

static void print_main_help(FILE *out)
{
    fprintf(out,
            "Usage: kpath COMMAND [options] GRAMMAR ...\n"
            "       kpath [GRAMMAR]   the explorer, a full-screen TUI (GRAMMAR by default:\n"
            "                         grammars/expr.ebnf); 'kpath --script FILE [GRAMMAR]'\n"
            "                         runs it from a script\n"
            "\n"
            "Explore the k-path coverage of a grammar: its grammar graph, its k-paths\n"
            "(chains of k symbolic nodes, each reached from the one before through\n"
            "synthetic nodes only) and which of them inputs cover.\n"
            "\n"
            "Commands:\n");
    int width = 0; /* the longest name, so that the summaries line up */
    for (size_t i = 0; i < NCOMMANDS; i++)
        if ((int)strlen(commands[i]->name) > width)
            width = (int)strlen(commands[i]->name);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-*s  %s\n", width, commands[i]->name, commands[i]->summary);
    fprintf(out,
            "\n"
            "Options:\n"
            "  --version   print the version and exit\n"
            "  --man       print the manual page (roff), made from these tables\n"
            "  --completion bash|zsh   print a shell completion script\n"
            "  -h, --help  show this help and exit\n"
            "\n"
            "'kpath COMMAND --help' describes a command.  Exit status: 0 success,\n"
            "2 bad usage or invalid input, 1 any other failure.\n");
}

/* A large stdout buffer: listing millions of k-paths is mostly output.  But
 * where a command's stdout is seen as it is written, on a terminal or in the
 * same file or pipe as stderr (`2>&1 | tee log`), a line at a time, so that
 * reports and messages come in the order they were made.  The explorer
 * draws through ncurses and keeps the large buffer. */
static void buffer_stdout(bool explorer)
{
    static char outbuf[1 << 16];
    struct stat out, err;
    bool shared = fstat(STDOUT_FILENO, &out) == 0 && fstat(STDERR_FILENO, &err) == 0 &&
                  out.st_dev == err.st_dev && out.st_ino == err.st_ino;
    if (!explorer && (isatty(STDOUT_FILENO) || shared))
        setvbuf(stdout, NULL, _IOLBF, 0);
    else
        setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
}

int main(int argc, char **argv)
{
    /* No command, an explorer option, or a grammar file: the explorer. */
    bool explorer = tui_wanted(argc, argv, is_command);
    buffer_stdout(explorer);
    if (explorer)
        return tui_main(argc, argv);

    int status;
    if (argc < 2) {
        print_main_help(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        const struct cli_command *cmd = argc > 2 ? find_command(argv[2]) : NULL;
        if (cmd)
            cli_print_help(cmd);
        else
            print_main_help(stdout);
        status = EXIT_OK;
    } else if (strcmp(name, "--man") == 0) {
        docs_man(stdout, commands, NCOMMANDS);
        status = EXIT_OK;
    } else if (strcmp(name, "--completion") == 0) {
        status = docs_completion(stdout, argc > 2 ? argv[2] : NULL, commands, NCOMMANDS);
    } else if (strcmp(name, "--version") == 0) {
        printf("kpath %s\n", KPATH_VERSION);
        status = EXIT_OK;
    } else {
        const struct cli_command *cmd = find_command(name);
        if (!cmd) {
            fprintf(stderr, "kpath: unknown command '%s'\n"
                            "Try 'kpath --help' for the list of commands.\n", name);
            return EXIT_USAGE;
        }
        status = cli_run(cmd, argc - 1, argv + 1);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("kpath: writing output");
        return EXIT_FAILURE_OTHER;
    }
    return status;
}
