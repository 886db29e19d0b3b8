/* command_table: the commands' help, from the one table (command_table.h). */
#include "command_table.h"

static const struct {
    const char *name, *args, *help;
} command_help[] = {
#define HELP_ENTRY(name, fn, args, kind, help) {name, args, help},
    COMMAND_TABLE(HELP_ENTRY)
#undef HELP_ENTRY
};
#define NCOMMANDS (sizeof command_help / sizeof command_help[0])

void commands_help(struct strbuf *out, int width)
{
    (void)width;
    for (size_t i = 0; i < NCOMMANDS; i++)
        strbuf_addf(out, "\x02:%s %s\x03%s\n", command_help[i].name, command_help[i].args,
                    command_help[i].help);
}
