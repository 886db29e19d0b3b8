/* campaign_loop: the loop over a campaign's step API and the runner's
 * options, for every command that runs a program (campaign_loop.h). */
#include "campaign_loop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/samples.h"
#include "run/oracle_check.h"
#include "run/runner.h"

int cli_runner_option(const struct cli_command *cmd, const char *name, const char *value,
                      const char *memory_option, struct runner_options *o)
{
    if (strcmp(name, "jobs") == 0)
        return cli_parse_u32(cmd, "-j", value, 1, 1024, &o->jobs) ? CLI_CONTINUE : EXIT_USAGE;
    if (strcmp(name, "timeout") == 0)
        return runner_parse_timeout(value, &o->timeout_ms)
                   ? CLI_CONTINUE
                   : cli_usage_error(cmd, "--timeout takes whole seconds (3 or 3s), "
                                          "milliseconds (250ms) or minutes (2m), not 0, not '%s'", value);
    if (strcmp(name, memory_option) == 0) {
        size_t n;
        if (strcmp(value, "0") == 0)
            o->max_memory = 0;
        else if (samples_parse_size(value, &n))
            o->max_memory = n;
        else
            return cli_usage_error(cmd, "--%s takes a size like 512M or 0, not '%s'",
                                   memory_option, value);
        return CLI_CONTINUE;
    }
    return CLI_NOT_MINE;
}

int cli_oracle_option(const struct cli_command *cmd, const char *name, const char *value,
                      struct runner_options *ro, struct oracle_exits *exits)
{
    if (strcmp(name, "valid-exit") == 0)
        return oracle_exits_parse(value, exits)
                   ? CLI_CONTINUE
                   : cli_usage_error(cmd, "--valid-exit takes exit codes 0..255 separated by "
                                          "commas, like 0,1, not '%s'", value);
    return cli_runner_option(cmd, name, value, "max-memory", ro);
}

/* ---- signals: the handlers only set a flag -------------------------------- */

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

static void catch_signals(bool on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on ? on_signal : SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

void cli_catch_interrupts(bool on)
{
    if (on)
        interrupted = 0;
    catch_signals(on);
}

volatile sig_atomic_t *cli_interrupt_flag(void)
{
    return &interrupted;
}

/* ---- the loop --------------------------------------------------------------- */

static void progress_bar(const struct campaign_progress *p, bool final)
{
    size_t done = p->done + p->unreadable;
    double rate = p->elapsed_s > 0 ? (double)p->done / p->elapsed_s : 0;
    int width = 24, filled = p->total ? (int)((double)width * (double)done / (double)p->total) : 0;
    char bar[32];
    for (int i = 0; i < width; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\r[%s] %zu/%zu  %.1f runs/s", bar, done, p->total, rate);
    if (rate > 0 && done < p->total) {
        double eta = (double)(p->total - done) / rate;
        fprintf(stderr, "  ETA %d:%02d", (int)eta / 60, (int)eta % 60);
    }
    fprintf(stderr, "  failures %zu\033[K", p->failed);
    if (final)
        fputs("\r\033[K", stderr);
    fflush(stderr);
}

const char *cli_interrupt_name(void)
{
    return interrupted == SIGINT ? "SIGINT" : interrupted == SIGTERM ? "SIGTERM" : "SIGHUP";
}

enum campaign_state cli_run_campaign(const struct cli_command *cmd, struct campaign *c,
                                     struct campaign_progress *p)
{
    struct diag_list diags = DIAG_LIST_INIT;
    bool tty = isatty(2);
    const char *kill_after = getenv("KPATH_TEST_KILL_AFTER");
    const char *interrupt_after = getenv("KPATH_TEST_INTERRUPT_AFTER");
    interrupted = 0;
    catch_signals(true);
    enum campaign_state st = CAMPAIGN_RUNNING;
    double last_draw = -1;
    while (st == CAMPAIGN_RUNNING && !interrupted) {
        st = campaign_step(c, 100, &diags);
        if (diags.len) {
            if (tty)
                fputs("\r\033[K", stderr);
            cli_print_diags(cmd, &diags);
            diag_list_free(&diags);
        }
        campaign_get_progress(c, p);
        /* Test hooks: die or be interrupted at a chosen record, not by timing. */
        if (kill_after && p->done == strtoull(kill_after, NULL, 10))
            raise(SIGKILL);
        if (interrupt_after && p->done == strtoull(interrupt_after, NULL, 10))
            raise(SIGINT);
        if (tty && (p->elapsed_s - last_draw >= 0.1 || st != CAMPAIGN_RUNNING)) {
            progress_bar(p, false);
            last_draw = p->elapsed_s;
        }
    }
    campaign_get_progress(c, p);
    if (tty)
        progress_bar(p, true);
    if (interrupted) {
        campaign_stop(c);
        st = CAMPAIGN_RUNNING;
    }
    catch_signals(false);
    return st;
}
