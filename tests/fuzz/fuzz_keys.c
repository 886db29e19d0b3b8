/* fuzz-keys: random key sequences through the explorer's script mode.
 *
 *     fuzz-keys [--seconds S] [--seed N] [--cases C] [--keys K]
 *               [--timeout T] [--out DIR] [--keep] KPATH GRAMMAR...
 *
 * Case number i (0, 1, ...) uses seed N+i: a splitmix64 stream picks a
 * grammar among the GRAMMARs and K keys (default 300), one per script line,
 * weighted towards what breaks editors: ':' and '/' open the command line
 * (readline, as in the terminal), then history (Up/Down), cursor keys,
 * Backspace and Delete, Esc, Enter, Tab completion, control keys, UTF-8,
 * clicks and wheel turns at random places, and now and then :resize.  The
 * same seed gives the same keys on every machine.
 *
 * Each case runs `KPATH --script CASE GRAMMAR` in a fresh directory (the
 * GRAMMAR files linked in) with the environment pinned as tests/tui/run.sh
 * does.  A case fails when kpath dies by a signal, exits other than 0 or 1,
 * prints a sanitizer report ("ERROR: AddressSanitizer", "runtime error:",
 * "LeakSanitizer") or runs over T seconds (default 60): the seed and the keys
 * are printed, and the script is kept as DIR/seed-N.script (default
 * tests/fuzz/crashes-keys), ready to run again with kpath --script.
 * Runs until S seconds have passed (default 60) or C cases have run; exit
 * status 1 when a case failed.  Meant for an AddressSanitizer build (make
 * fuzz builds one); a plain kpath finds only crashes.
 *
 * Keys that quit (q, :q) end a case early; keys that would start jobs of
 * minutes are not excluded, the timeout catches them (a case never waits
 * on the terminal: script mode has none). */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t rng;
static volatile sig_atomic_t stop; /* SIGINT or SIGTERM: end after this case */

static void on_stop(int sig)
{
    (void)sig;
    stop = 1;
}

static uint64_t next(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static unsigned below(unsigned n)
{
    return (unsigned)(next() % n);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *const editing[] = {
    "<Enter>", "<Esc>", "<BS>", "<Up>", "<Down>", "<Left>", "<Right>", "<Home>", "<End>",
    "<Tab>", "<Delete>", "<Up>", "<Up>", "<Enter>", "<Esc>", "<BS>",
};
static const char *const other[] = {"<PgUp>", "<PgDn>", "<S-Tab>", "<F1>", "<Insert>", "<Resize>"};
/* what the command line may be given: command names and their pieces */
static const char *const words[] = {
    "k", "gen", "narrow ", "pattern ", "pin ", "search", "help", "samples ", "strategy ",
    "theme ", "footer", "coverage", "dup ", "load ", "export ", "save", "1", "2", "3",
    "AddExpr_0", "x", "..", "/", "*", " ", "\"", "\\", "'", "tests/", "grammars/",
};
static const char *const utf8[] = {"é", "中", "ß", "🙂", "\xe2\x80\x8b", "ﬁ", "Ω"};
/* keys with a name in script mode (ui/keys.c): a character the script
 * line would read otherwise */
static const char *const controls = "abdefghklnoprtuvwxy"; /* <C-X> */

/* One key (or a :resize line) as a script line, appended to `out`. */
static void key_line(FILE *out, int w, int h)
{
    unsigned r = below(1000);
    if (r < 90) { /* open the command line or a search */
        fputs(below(3) ? ":\n" : "/\n", out);
    } else if (r < 380) {
        fprintf(out, "%s\n", editing[below(sizeof editing / sizeof *editing)]);
    } else if (r < 700) { /* a printable ASCII character, as a key */
        int c = ' ' + (int)below(95);
        if (c == ' ')
            fputs("<Space>\n", out);
        else if (c == '<')
            fputs("<lt>\n", out);
        else if (c == '#')
            fputs("<Space>\n", out); /* a line "#" is a comment */
        else
            fprintf(out, "%c\n", c);
    } else if (r < 800) { /* a word, key by key, on one line */
        const char *word = words[below(sizeof words / sizeof *words)];
        for (const char *p = word; *p; p++) {
            if (*p == ' ')
                fputs("<Space> ", out);
            else if (*p == '<')
                fputs("<lt> ", out);
            else
                fprintf(out, "%c ", *p);
        }
        /* a line starting with ':' or '/' and more is a command or a search */
        fputs(word[0] == '/' || word[0] == ':' ? "<Esc>\n" : "\n", out);
    } else if (r < 850) {
        fprintf(out, "<C-%c>\n", controls[below((unsigned)strlen(controls))]);
    } else if (r < 880) {
        fprintf(out, "%s\n", utf8[below(sizeof utf8 / sizeof *utf8)]);
    } else if (r < 930) {
        static const char *const mouse[] = {"Click", "Click", "WheelUp", "WheelDown"};
        fprintf(out, "<%s %u %u>\n", mouse[below(4)], below((unsigned)w + 2), below((unsigned)h + 2));
    } else if (r < 990) {
        fprintf(out, "%s\n", other[below(sizeof other / sizeof *other)]);
    } else if (r < 995) { /* a long line: a paste */
        unsigned n = 100 + below(9000);
        for (unsigned i = 0; i < n; i++)
            fputs(i + 1 < n ? "y " : "y\n", out);
    } else {
        fprintf(out, ":resize %u %u\n", 1 + below(140), 1 + below(50));
    }
}

static void write_case(const char *path, uint64_t seed, unsigned nkeys, const char *grammar)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(2);
    }
    fprintf(f, "# fuzz-keys seed %llu, %u keys, on %s\n", (unsigned long long)seed, nkeys, grammar);
    for (unsigned i = 0; i < nkeys; i++)
        key_line(f, 100, 30);
    fclose(f);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    size_t n;
    while (s && (n = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap)
            s = realloc(s, cap *= 2);
    }
    fclose(f);
    if (s)
        s[len] = '\0';
    return s;
}

struct outcome {
    int status;     /* exit status, or -1 */
    int signal;     /* killed by, or 0 */
    bool timed_out;
    bool sanitizer; /* a report on stderr */
};

static struct outcome run_case(const char *kpath, const char *dir, const char *script,
                               const char *grammar, double timeout)
{
    struct outcome o = {-1, 0, false, false};
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(126);
        int out = open(".out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(".err", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int in = open("/dev/null", O_RDONLY);
        if (out < 0 || err < 0 || in < 0)
            _exit(126);
        dup2(in, 0);
        dup2(out, 1);
        dup2(err, 2);
        setpgid(0, 0);
        char home[300], state[300], config[300], path[8192];
        snprintf(home, sizeof home, "HOME=%s/home", dir);
        snprintf(state, sizeof state, "XDG_STATE_HOME=%s/state", dir);
        snprintf(config, sizeof config, "XDG_CONFIG_HOME=%s/config", dir);
        snprintf(path, sizeof path, "PATH=%.8000s", getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
        const char *asan = getenv("ASAN_OPTIONS");
        char asan_env[1024];
        snprintf(asan_env, sizeof asan_env, "ASAN_OPTIONS=%s", asan ? asan : "detect_leaks=1");
        char *env[] = {path, "TERM=xterm-256color", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", home,
                       "INPUTRC=/dev/null", "TZ=UTC", state, config, asan_env,
                       "UBSAN_OPTIONS=print_stacktrace=1", NULL};
        char *argv[] = {(char *)kpath, "--script", (char *)script, (char *)grammar, NULL};
        execve(kpath, argv, env);
        _exit(127);
    }
    double start = now();
    int ws;
    for (;;) {
        pid_t r = waitpid(pid, &ws, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR) {
            perror("waitpid");
            exit(2);
        }
        if (now() - start > timeout) {
            kill(-pid, SIGKILL);
            waitpid(pid, &ws, 0);
            o.timed_out = true;
            return o;
        }
        nanosleep(&(struct timespec){0, 2000000}, NULL);
    }
    kill(-pid, SIGKILL); /* programs it started, if any */
    if (WIFEXITED(ws))
        o.status = WEXITSTATUS(ws);
    else if (WIFSIGNALED(ws))
        o.signal = WTERMSIG(ws);
    char errpath[300];
    snprintf(errpath, sizeof errpath, "%s/.err", dir);
    char *err = slurp(errpath);
    if (err && (strstr(err, "ERROR: AddressSanitizer") || strstr(err, "runtime error:") ||
                strstr(err, "LeakSanitizer")))
        o.sanitizer = true;
    free(err);
    return o;
}

static void print_keys(const char *script)
{
    FILE *f = fopen(script, "r");
    if (!f)
        return;
    char line[65536];
    fputs("  keys:", stderr);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        line[strcspn(line, "\n")] = '\0';
        if (strlen(line) > 200)
            fprintf(stderr, " [%zu bytes of keys]", strlen(line));
        else
            fprintf(stderr, " %s", line);
    }
    fputc('\n', stderr);
    fclose(f);
}

static int run_cmd(const char *fmt, const char *a, const char *b)
{
    char cmd[20000];
    snprintf(cmd, sizeof cmd, fmt, a, b);
    return system(cmd);
}

int main(int argc, char **argv)
{
    double seconds = 60, timeout = 60;
    unsigned long long seed = 1, max_cases = 0;
    unsigned nkeys = 300;
    const char *outdir = "tests/fuzz/crashes-keys";
    bool keep = false;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--keep") == 0) {
            keep = true;
            continue;
        }
        if (!v)
            break;
        if (strcmp(a, "--seconds") == 0)
            seconds = atof(v);
        else if (strcmp(a, "--seed") == 0)
            seed = strtoull(v, NULL, 10);
        else if (strcmp(a, "--cases") == 0)
            max_cases = strtoull(v, NULL, 10);
        else if (strcmp(a, "--keys") == 0)
            nkeys = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(a, "--timeout") == 0)
            timeout = atof(v);
        else if (strcmp(a, "--out") == 0)
            outdir = v;
        else
            break;
        i++;
    }
    if (argc - i < 2) {
        fprintf(stderr, "usage: fuzz-keys [--seconds S] [--seed N] [--cases C] [--keys K] "
                        "[--timeout T] [--out DIR] [--keep] KPATH GRAMMAR...\n");
        return 2;
    }
    char kpath[4096];
    if (!realpath(argv[i], kpath)) {
        perror(argv[i]);
        return 2;
    }
    int ngrammars = argc - i - 1;
    char **grammars = argv + i + 1;
    char tmpl[] = "/tmp/fuzz-keys-XXXXXX";
    char *tmp = mkdtemp(tmpl);
    if (!tmp) {
        perror("mkdtemp");
        return 2;
    }
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
        return 2;
    mkdir(outdir, 0755);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    double start = now(), last_note = start;
    unsigned long long cases = 0, keys = 0, failures = 0, timeouts = 0;
    for (unsigned long long s = seed; (max_cases == 0 || cases < max_cases) &&
                                      now() - start < seconds && !stop;
         s++) {
        if (now() - last_note >= 60) { /* a line a minute: how far it got */
            last_note = now();
            fprintf(stderr, "fuzz-keys: %llu cases, %llu keys, %.0f s, %llu failed\n", cases, keys,
                    last_note - start, failures + timeouts);
        }
        rng = s;
        const char *grammar = grammars[below((unsigned)ngrammars)];
        char dir[128], script[128], gpath[8300];
        snprintf(dir, sizeof dir, "%s/case", tmp);
        run_cmd("rm -rf '%s'%s", dir, "");
        static const char *const sub[] = {"", "/home", "/state", "/config"};
        for (size_t k = 0; k < 4; k++) {
            char d[200];
            snprintf(d, sizeof d, "%s%s", dir, sub[k]);
            mkdir(d, 0755);
        }
        snprintf(gpath, sizeof gpath, "%s/%.4000s", cwd, grammar);
        char link[200];
        snprintf(link, sizeof link, "%s/grammar.%.16s", dir,
                 strrchr(grammar, '.') ? strrchr(grammar, '.') + 1 : "ebnf");
        if (symlink(gpath, link) != 0) {
            perror(link);
            return 2;
        }
        /* the repository's files, for :samples tests/..., :load grammars/... */
        run_cmd("ln -s '%s/tests' '%s/tests'", cwd, dir);
        run_cmd("ln -s '%s/grammars' '%s/grammars'", cwd, dir);
        snprintf(script, sizeof script, "%s/case.script", tmp);
        write_case(script, s, nkeys, grammar);
        struct outcome o = run_case(kpath, dir, script, strrchr(link, '/') + 1, timeout);
        cases++;
        keys += nkeys;
        bool failed = o.signal || o.sanitizer || o.timed_out || (o.status != 0 && o.status != 1);
        if (!failed)
            continue;
        if (o.timed_out)
            timeouts++;
        else
            failures++;
        char kept[4400];
        snprintf(kept, sizeof kept, "%.4000s/seed-%llu.script", outdir, s);
        run_cmd("cp '%s' '%s'", script, kept);
        fprintf(stderr, "fuzz-keys: seed %llu on %s: %s", s, grammar,
                o.timed_out ? "over the timeout" : o.sanitizer ? "sanitizer report" : "");
        if (o.signal)
            fprintf(stderr, "%skilled by signal %d", o.sanitizer ? ", " : "", o.signal);
        else if (!o.timed_out)
            fprintf(stderr, "%sexit status %d", o.sanitizer ? ", " : "", o.status);
        fprintf(stderr, "; kept as %s\n", kept);
        print_keys(script);
        char errpath[300];
        snprintf(errpath, sizeof errpath, "%s/.err", dir);
        if (!o.timed_out)
            run_cmd("head -c 3000 '%s' >&2; %s", errpath, "true");
    }
    if (!keep)
        run_cmd("rm -rf '%s'%s", tmp, "");
    printf("fuzz-keys: %llu cases (seeds %llu..%llu), %llu keys in %.0f s: %llu failed, "
           "%llu over the timeout\n",
           cases, seed, seed + cases - (cases > 0), keys, now() - start, failures, timeouts);
    return failures || timeouts ? 1 : 0;
}
