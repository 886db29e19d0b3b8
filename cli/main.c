/* main: kpath's entry point: global options and dispatch to a subcommand,
 * or the explorer's options (its table below) handed to tui_main. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../ui/tui.h"
#include "formats/grammar_load.h"
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

/* The explorer's options, in the order its --help shows them: main reads
 * the command line by this table, and its --help, the man page and
 * completion are made from it (docs.h says how). */
enum {
    X_WORKSPACE, X_SCRIPT, X_LESSON, X_THEME, X_START, X_FORMAT, X_SIZE, X_ASCII, X_LIST_KEYS,
    NEXPLORER
};
static const struct docs_explorer_option explorer_options[NEXPLORER] = {
    [X_WORKSPACE] = {{"workspace", 0, "FILE", "open a saved exploration"}, "FILE", NULL},
    [X_SCRIPT] = {{"script", 0, "FILE", "run keys and :commands from FILE"},
                  "FILE [GRAMMAR]", NULL},
    [X_LESSON] = {{"lesson", 0, "[NAME]", "a lesson, step by step (< and > move)"},
                  "[NAME]", NULL},
    [X_THEME] = {{"theme", 0, "NAME", "the colour theme (default: $KPATH_THEME, else "
                                      "default)"}, NULL, NULL},
    [X_START] = {{"start", 0, "RULE", "the start rule"}, NULL, NULL},
    [X_FORMAT] = {CLI_FORMAT_OPTION, NULL,
                  "ebnf, g4, fuzzingbook, tribble or fandango; default: by the grammar's "
                  "extension"},
    [X_SIZE] = {{"size", 0, "WxH", "the screen of script mode (default 100x30)"}, NULL,
                "script mode"},
    [X_ASCII] = {{"ascii", 0, NULL, "draw with ASCII characters only"}, NULL, NULL},
    [X_LIST_KEYS] = {{"list-keys", 0, NULL, "print the key table and exit"}, NULL,
                     "print the key table"},
};

/* Which of explorer_options the argument `a` names ("--NAME"), or NEXPLORER. */
static int explorer_option(const char *a)
{
    if (a[0] != '-' || a[1] != '-')
        return NEXPLORER;
    int o = 0;
    while (o < NEXPLORER && strcmp(a + 2, explorer_options[o].option.name) != 0)
        o++;
    return o;
}

enum { HELP_WIDTH = 80, HELP_INDENT = 9 /* under "Options: " */ };

/* Add n bytes of text to the --help paragraph whose last line is len
 * columns long, on a new line when they would pass HELP_WIDTH; the last
 * line's new length. */
static size_t help_add(FILE *out, size_t len, const char *text, size_t n)
{
    if (len > HELP_INDENT && len + 1 + n > HELP_WIDTH) {
        fprintf(out, "\n%*s", HELP_INDENT, "");
        len = HELP_INDENT;
    } else if (len > HELP_INDENT) {
        fputc(' ', out);
        len++;
    }
    fwrite(text, 1, n, out);
    return len + n;
}

/* The explorer's --help: a usage line for each way to start it, then its
 * other options in a paragraph, each one kept on one line (word by word
 * only when no line can hold it). */
static void explorer_usage(FILE *out)
{
    fprintf(out, "Usage: %-35s%s\n", "kpath [GRAMMAR]", "the explorer (default grammars/expr.ebnf)");
    for (size_t i = 0; i < NEXPLORER; i++) {
        const struct docs_explorer_option *x = &explorer_options[i];
        if (!x->usage)
            continue;
        char form[128];
        snprintf(form, sizeof form, "kpath --%s %s", x->option.name, x->usage);
        fprintf(out, "       %-35s%s\n", form, x->option.help);
    }
    fputs("Options: ", out);
    size_t len = HELP_INDENT;
    for (size_t i = 0; i < NEXPLORER; i++) {
        const struct docs_explorer_option *x = &explorer_options[i];
        if (x->usage)
            continue;
        bool more = false; /* a comma, unless it is the last one listed */
        for (size_t j = i + 1; j < NEXPLORER; j++)
            more |= !explorer_options[j].usage;
        char item[256];
        int n = snprintf(item, sizeof item, "--%s%s%s%s%s%s%s", x->option.name,
                         x->option.arg ? " " : "", x->option.arg ? x->option.arg : "",
                         x->note ? " (" : "", x->note ? x->note : "", x->note ? ")" : "",
                         more ? "," : "");
        if (HELP_INDENT + (size_t)n <= HELP_WIDTH) {
            len = help_add(out, len, item, (size_t)n);
            continue;
        }
        for (const char *w = item; *w;) {
            size_t wn = strcspn(w, " ");
            len = help_add(out, len, w, wn);
            w += wn + (w[wn] == ' ');
        }
    }
    fputs("\nInside: ? lists every key, :help every command, q quits.\n", out);
}

/* Read the explorer's command line into *args: CLI_CONTINUE, or the exit
 * status to end with (after --help, --list-keys or a mistake). */
static int explorer_args(int argc, char **argv, struct tui_args *args)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        int o = explorer_option(a);
        /* A required argument ("[NAME]" is optional) is the next word; an
         * option last on the line, without it, says what it needs. */
        const char *arg = o < NEXPLORER ? explorer_options[o].option.arg : NULL;
        bool required = arg && arg[0] != '[';
        if (required && !has_value) {
            fprintf(stderr, "kpath: %s needs a value: %s %s\n", a, a, arg);
            explorer_usage(stderr);
            return EXIT_USAGE;
        }
        const char *value = o < NEXPLORER && required ? argv[++i] : NULL;
        switch (o) {
        case X_WORKSPACE: args->workspace = value; continue;
        case X_SCRIPT: args->script = value; continue;
        case X_THEME: args->theme = value; continue;
        case X_START: args->start = value; continue;
        case X_ASCII: args->ascii = true; continue;
        case X_LESSON:
            /* a NAME may follow; without one, the first lesson */
            args->lesson = has_value && argv[i + 1][0] != '-' ? argv[++i] : "paper";
            continue;
        case X_FORMAT:
            if (!grammar_format_parse(value, &args->format)) {
                fprintf(stderr, "kpath: unknown grammar format '%s' (expected ebnf, g4, "
                                "fuzzingbook, tribble or fandango)\n", value);
                return EXIT_USAGE;
            }
            continue;
        case X_SIZE:
            if (sscanf(value, "%dx%d", &args->width, &args->height) != 2 || args->width < 1 ||
                args->height < 1 || args->width > 1000 || args->height > 1000) {
                fprintf(stderr, "kpath: --size takes WxH, e.g. 100x30\n");
                return EXIT_USAGE;
            }
            continue;
        case X_LIST_KEYS:
            tui_list_keys();
            return EXIT_OK;
        default:
            break;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            explorer_usage(stdout);
            return EXIT_OK;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "kpath: unknown option '%s'\n", a);
            explorer_usage(stderr);
            return EXIT_USAGE;
        } else if (!args->grammar)
            args->grammar = a;
        else {
            fprintf(stderr, "kpath: one grammar at a time ('%s' and '%s')\n", args->grammar, a);
            return EXIT_USAGE;
        }
    }
    return CLI_CONTINUE;
}

static bool is_command(const char *name)
{
    return find_command(name) != NULL;
}

/* Does argv[1] ask for the explorer (no argument, an explorer option, or
 * an existing file that is not a command name)? */
static bool explorer_wanted(int argc, char **argv)
{
    if (argc < 2)
        return true;
    const char *a = argv[1];
    if (explorer_option(a) < NEXPLORER)
        return true;
    if (a[0] == '-' || is_command(a))
        return false;
    /* a file, or what looks like a path to one (a slash or an extension):
     * the explorer says what is wrong with it, not "unknown command" */
    struct stat st;
    if (stat(a, &st) == 0)
        return true;
    const char *base = strrchr(a, '/');
    return base || strchr(a, '.');
}

static int explorer(int argc, char **argv)
{
    struct tui_args args = TUI_ARGS_INIT;
    int status = explorer_args(argc, argv, &args);
    return status == CLI_CONTINUE ? tui_main(&args) : status;
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
    bool wanted = explorer_wanted(argc, argv);
    buffer_stdout(wanted);
    if (wanted)
        return explorer(argc, argv);

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
        docs_man(stdout, commands, NCOMMANDS, explorer_options, NEXPLORER);
        status = EXIT_OK;
    } else if (strcmp(name, "--completion") == 0) {
        status = docs_completion(stdout, argc > 2 ? argv[2] : NULL, commands, NCOMMANDS,
                                 explorer_options, NEXPLORER);
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
