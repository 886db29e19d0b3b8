/* hostile: a program under test that misbehaves on purpose, for the tests of
 * `kpath run` (tests/cli/scripts/run-*.sh).  Its input (standard input, or
 * the file named by its first argument) says what to do:
 *   exit N        exit with status N
 *   segv          die of SIGSEGV
 *   hang          sleep forever (the timeout must end it)
 *   ignore-term   ignore SIGTERM and SIGINT, then sleep forever
 *   fork FILE     fork a child that writes its pid to FILE and sleeps
 *                 forever, then exit 0 at once (the child must be killed)
 *   fork-hang FILE  fork a child that writes its pid to FILE and sleeps
 *                 forever, then sleep forever too (for killing kpath
 *                 under it: neither may survive)
 *   daemon FILE   become a daemon the usual way (fork, setsid, fork again,
 *                 the middle one exits): the daemon writes its pid to FILE
 *                 and sleeps forever; exit 0 once FILE is written (the
 *                 daemon has left the run's process group and session)
 *   flood N       write N MiB to stdout, then exit 0
 *   tty           exit 0 when it has no terminal (/dev/tty cannot be
 *                 opened), 1 when it has one
 *   fill N        write N MiB into a file of its working directory (exit 0 when
 *                 all of it was written, 1 when a write failed)
 *   alloc N       allocate and touch N MiB (exit 5 when the allocation fails)
 *   echo          copy the input to stdout */
#define _POSIX_C_SOURCE 200809L
#include <sys/types.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A child that writes its pid to file `path`, then waits forever. */
static void spawn_pid_writer(const char *path)
{
    if (fork() == 0) {
        FILE *f = fopen(path, "w");
        if (f) {
            fprintf(f, "%ld\n", (long)getpid());
            fclose(f);
        }
        for (;;)
            pause();
    }
}

int main(int argc, char **argv)
{
    char buf[4096];
    FILE *in = argc > 1 ? fopen(argv[1], "r") : stdin;
    if (!in)
        return 99;
    size_t n = fread(buf, 1, sizeof buf - 1, in);
    buf[n] = '\0';
    char word[64] = "", arg[4000] = "";
    sscanf(buf, "%63s %3999s", word, arg);
    if (strcmp(word, "exit") == 0)
        return atoi(arg);
    if (strcmp(word, "segv") == 0)
        raise(SIGSEGV);
    if (strcmp(word, "hang") == 0)
        for (;;)
            pause();
    if (strcmp(word, "ignore-term") == 0) {
        signal(SIGTERM, SIG_IGN);
        signal(SIGINT, SIG_IGN);
        for (;;)
            pause();
    }
    if (strcmp(word, "fork") == 0) {
        spawn_pid_writer(arg);
        /* Give the child time to write its pid before the parent exits. */
        for (int i = 0; i < 500 && access(arg, F_OK) != 0; i++)
            sleep_ms(2);
        sleep_ms(20);
        return 0;
    }
    if (strcmp(word, "fork-hang") == 0) {
        spawn_pid_writer(arg);
        for (;;)
            pause();
    }
    if (strcmp(word, "daemon") == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            setsid();
            if (fork() == 0) {
                char tmp[4100];
                snprintf(tmp, sizeof tmp, "%s.tmp", arg);
                FILE *f = fopen(tmp, "w");
                if (f) {
                    fprintf(f, "%ld\n", (long)getpid());
                    fclose(f);
                    rename(tmp, arg);
                }
                for (;;)
                    pause();
            }
            _exit(0);
        }
        waitpid(pid, NULL, 0);
        for (int i = 0; i < 2500 && access(arg, F_OK) != 0; i++)
            sleep_ms(2);
        return 0;
    }
    if (strcmp(word, "flood") == 0) {
        static char block[1 << 20];
        memset(block, 'x', sizeof block);
        for (int i = 0; i < atoi(arg); i++)
            if (fwrite(block, 1, sizeof block, stdout) != sizeof block)
                return 1;
        return 0;
    }
    if (strcmp(word, "fill") == 0) {
        static char block[1 << 20];
        FILE *f = fopen("junk", "w");
        if (!f)
            return 1;
        for (int i = 0; i < atoi(arg); i++)
            if (fwrite(block, 1, sizeof block, f) != sizeof block)
                return 1;
        return fclose(f) == 0 ? 0 : 1;
    }
    if (strcmp(word, "alloc") == 0) {
        size_t size = (size_t)atoi(arg) << 20;
        char *p = malloc(size);
        if (!p)
            return 5;
        memset(p, 1, size);
        return p[size - 1] == 1 ? 0 : 6;
    }
    if (strcmp(word, "tty") == 0)
        return open("/dev/tty", O_RDWR) < 0 ? 0 : 1;
    if (strcmp(word, "echo") == 0) {
        fputs(buf, stdout);
        return 0;
    }
    return 98;
}
