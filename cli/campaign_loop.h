/* campaign_loop: the CLI's loop over a campaign's step API, shared by every
 * command that runs a program on inputs (run, check-oracle, generalize, and
 * target and bonsai through run_cli).  It prints diagnostics as they come,
 * draws a progress bar when stderr is a terminal, and turns Ctrl-C, SIGTERM
 * or SIGHUP (whose handlers only set a flag) into killing every child and
 * keeping the records so far. */
#ifndef KPATH_CLI_CAMPAIGN_LOOP_H
#define KPATH_CLI_CAMPAIGN_LOOP_H

#include <signal.h>

#include "run/campaign.h"
#include "cli.h"

/* Run c to its end.  CAMPAIGN_DONE or CAMPAIGN_FAILED as campaign_step says;
 * CAMPAIGN_RUNNING when interrupted (the children are killed then).  *p is
 * the final progress. */
enum campaign_state cli_run_campaign(const struct cli_command *cmd, struct campaign *c,
                                     struct campaign_progress *p);
/* The signal that interrupted the last cli_run_campaign. */
const char *cli_interrupt_name(void);

/* The runner's options, the same for every command that runs a program:
 * --jobs (-j), --timeout and the address-space limit, whose option is named
 * memory_option ("max-memory", or "run-max-memory" where --max-memory
 * already bounds the parser), into o.  CLI_CONTINUE, EXIT_USAGE after a
 * message, or CLI_NOT_MINE for any other option. */
int cli_runner_option(const struct cli_command *cmd, const char *name, const char *value,
                      const char *memory_option, struct runner_options *o);

/* The options of a command that asks a program (the oracle) which inputs
 * are valid (check-oracle, generalize), for its option table: the exit
 * codes that mean valid and the runner's options; WHAT names what -j runs
 * at once. */
#define CLI_ORACLE_OPTIONS(WHAT)                                                       \
    {"valid-exit", 0, "CODES", "exit codes that mean valid, comma-separated "          \
                               "(default 0)"},                                          \
    {"jobs", 'j', "N", "run N " WHAT " at once (default: the number of cores)"},        \
    {"timeout", 0, "SECONDS", "a run that takes longer is killed and invalid; SECONDS " \
                              "(3 or 3s), 250ms or 2m (default 10)"},                         \
    {"max-memory", 0, "N", "address space of a run; K, M, G suffixes, 0 for no limit " \
                           "(default 4G)"}

struct oracle_exits;
/* The options of CLI_ORACLE_OPTIONS: --valid-exit into exits, the others
 * as cli_runner_option.  CLI_CONTINUE, EXIT_USAGE after a message, or
 * CLI_NOT_MINE for any other option. */
int cli_oracle_option(const struct cli_command *cmd, const char *name, const char *value,
                      struct runner_options *ro, struct oracle_exits *exits);

/* For a command with a loop of its own over runs (generalize): catch
 * SIGINT, SIGTERM and SIGHUP into a flag (on), or restore the defaults (off).
 * The flag is non-zero once one arrived; cli_interrupt_name names it. */
void cli_catch_interrupts(bool on);
volatile sig_atomic_t *cli_interrupt_flag(void);

#endif
