/* campaign_loop: the CLI's loop over a campaign's step API (cmd_run.c), shared
 * by every command that runs a program on inputs (run, check-oracle).  It
 * prints diagnostics as they come, draws a progress bar when stderr is a
 * terminal, and turns Ctrl-C, SIGTERM or SIGHUP (whose handlers only set a
 * flag) into killing every child and keeping the records so far. */
#ifndef KPATH_CLI_CAMPAIGN_LOOP_H
#define KPATH_CLI_CAMPAIGN_LOOP_H

#include <signal.h>

#include "campaign.h"
#include "cli.h"

/* Run c to its end.  CAMPAIGN_DONE or CAMPAIGN_FAILED as campaign_step says;
 * CAMPAIGN_RUNNING when interrupted (the children are killed then).  *p is
 * the final progress. */
enum campaign_state cli_run_campaign(const struct cli_command *cmd, struct campaign *c,
                                     struct campaign_progress *p);
/* The signal that interrupted the last cli_run_campaign. */
const char *cli_interrupt_name(void);

/* For a command with a loop of its own over runs (generalize): catch
 * SIGINT, SIGTERM and SIGHUP into a flag (on), or restore the defaults (off).
 * The flag is non-zero once one arrived; cli_interrupt_name names it. */
void cli_catch_interrupts(bool on);
volatile sig_atomic_t *cli_interrupt_flag(void);

/* "10" (seconds) or "250ms": false for 0 or anything else. */
bool cli_parse_timeout(const char *text, uint64_t *ms);

#endif
