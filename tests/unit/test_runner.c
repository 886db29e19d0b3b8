/* runner, campaign, run_report: children run through the step API end the
 * way they should (exit, signal, timeout, cannot start), their streams are
 * hashed and their first lines kept, the input reaches them unchanged;
 * directories a program leaves are removed however deep; a campaign step
 * returns without waiting for a run; Pearson's r on hand-computed values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../support/load.h"
#include "run/campaign.h"
#include "run/collect.h"
#include "harness.h"
#include "parse/input_kpaths.h"
#include "parse/parse.h"
#include "run/results.h"
#include "run/run_report.h"
#include "run/runner.h"
#include "base/samples.h"
#include "base/sha256.h"

/* Run argv to its end through runner_poll; the result (free it). */
static struct runner_result *run_one(char *const *argv, const char *input, uint64_t timeout_ms)
{
    struct runner_options o = {.jobs = 1, .timeout_ms = timeout_ms, .max_memory = 1u << 30};
    struct runner *r = runner_new(&o);
    struct diag_list diags = DIAG_LIST_INIT;
    struct runner_job job = {.argv = argv, .input_name = input ? "in.txt" : NULL,
                             .input = input, .input_len = input ? strlen(input) : 0};
    struct runner_result *res = NULL;
    if (CHECK(runner_start(r, &job, &diags)))
        while (!(res = runner_poll(r, 50)))
            ;
    CHECK_INT(diags.len, 0);
    diag_list_free(&diags);
    runner_free(r);
    return res;
}

static char *outcome_of(const struct runner_result *res)
{
    struct strbuf sb = STRBUF_INIT;
    runner_outcome(res, &sb);
    return strbuf_detach(&sb, NULL);
}

TEST(runner_exit_status_and_streams)
{
    char *argv[] = {"sh", "-c", "printf 'first\\nsecond'; printf oops >&2; exit 3", NULL};
    struct runner_result *res = run_one(argv, NULL, 0);
    char *outcome = outcome_of(res);
    CHECK_STR(outcome, "exit:3");
    CHECK_INT(res->out.size, 12);
    CHECK_STR(res->out.first_line, "first");
    char hex[SHA256_HEX_SIZE];
    sha256_hex("first\nsecond", 12, hex);
    CHECK_STR(res->out.sha256, hex);
    CHECK_INT(res->err.size, 4);
    CHECK_STR(res->err.first_line, "oops");
    /* The run directory exists until the result is freed. */
    struct stat st;
    CHECK(stat(res->dir, &st) == 0 && S_ISDIR(st.st_mode));
    char *dir = strdup(res->dir);
    runner_result_free(res);
    CHECK(stat(dir, &st) != 0);
    free(dir);
    free(outcome);
}

TEST(runner_input_on_stdin_and_as_a_read_only_copy)
{
    char *cat[] = {"cat", NULL};
    struct runner_result *res = run_one(cat, "1+2\n", 0);
    CHECK_STR(res->out.first_line, "1+2");
    CHECK_INT(res->out.size, 4);
    runner_result_free(res);
    /* {} is the copy's path: readable, not writable, named like the input. */
    char *path[] = {"sh", "-c", "basename \"$0\"; stat -c %a \"$0\"; cat \"$0\"", "{}", NULL};
    res = run_one(path, "x", 0);
    CHECK_STR(res->out.first_line, "in.txt");
    char hex[SHA256_HEX_SIZE];
    sha256_hex("in.txt\n444\nx", strlen("in.txt\n444\nx"), hex);
    CHECK_STR(res->out.sha256, hex);
    runner_result_free(res);
}

TEST(runner_signal_timeout_and_start_failure)
{
    char *segv[] = {"sh", "-c", "kill -SEGV $$", NULL};
    struct runner_result *res = run_one(segv, NULL, 0);
    char *outcome = outcome_of(res);
    CHECK_STR(outcome, "signal:SIGSEGV");
    free(outcome);
    runner_result_free(res);

    char *hang[] = {"sh", "-c", "trap '' TERM; while :; do sleep 1; done", NULL};
    res = run_one(hang, NULL, 100);
    outcome = outcome_of(res);
    CHECK_STR(outcome, "timeout");
    free(outcome);
    runner_result_free(res);

    char *missing[] = {"/nonexistent/program", NULL};
    res = run_one(missing, NULL, 0);
    outcome = outcome_of(res);
    CHECK_STR(outcome, "error:/nonexistent/program: No such file or directory");
    free(outcome);
    runner_result_free(res);
}

TEST(runner_signal_names)
{
    char buf[16];
    CHECK_STR(runner_signal_name(11, buf), "SIGSEGV");
    CHECK_STR(runner_signal_name(6, buf), "SIGABRT");
    CHECK_STR(runner_signal_name(64, buf), "SIG64");
}

TEST(runner_check_command_says_why)
{
    char plain[] = "/tmp/kpath-test-plain-XXXXXX";
    int fd = mkstemp(plain);
    CHECK(fd >= 0);
    close(fd);
    struct diag_list diags = DIAG_LIST_INIT;
    CHECK(runner_check_command("sh", &diags));
    CHECK(!runner_check_command("/nonexistent/x", &diags));
    CHECK(!runner_check_command(plain, &diags));
    CHECK(!runner_check_command("/tmp", &diags));
    CHECK(!runner_check_command("kpath-no-such-command", &diags));
    if (CHECK_INT(diags.len, 4)) {
        CHECK_STR(diags.items[0].message, "/nonexistent/x: no such command");
        struct strbuf want = STRBUF_INIT;
        strbuf_addf(&want, "%s: is not executable", plain);
        CHECK_STR(diags.items[1].message, want.data);
        strbuf_free(&want);
        CHECK_STR(diags.items[2].message, "/tmp: is a directory, not a command");
        CHECK_STR(diags.items[3].message, "kpath-no-such-command: command not found in PATH");
    }
    diag_list_free(&diags);
    unlink(plain);
}

TEST(runner_remove_tree_deep_and_locked)
{
    char root[] = "/tmp/kpath-test-tree-XXXXXX";
    if (!CHECK(mkdtemp(root) != NULL))
        return;
    /* 400 levels: deeper than any recursion should go on input control. */
    char *path = malloc(400 * 3 + sizeof root + 8);
    strcpy(path, root);
    for (int i = 0; i < 400; i++) {
        strcat(path, "/d");
        CHECK(mkdir(path, 0700) == 0);
    }
    strcat(path, "/file");
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f)
        fclose(f);
    /* A directory without any permission, with a file inside. */
    char locked[sizeof root + 16];
    snprintf(locked, sizeof locked, "%s/locked", root);
    CHECK(mkdir(locked, 0700) == 0);
    char inner[sizeof root + 32];
    snprintf(inner, sizeof inner, "%s/f", locked);
    f = fopen(inner, "w");
    if (f)
        fclose(f);
    CHECK(chmod(locked, 0) == 0);
    CHECK(runner_remove_tree(root));
    struct stat st;
    CHECK(stat(root, &st) != 0);
    free(path);
}

/* A run directory is reused, and the next run finds it as new: whatever the
 * first program left (files, a locked directory, an extra input, a file
 * beside cwd/, cwd/ itself without permissions) is gone; the base goes with
 * the runner and its last result.  Below /tmp (a disk: scanned) and below
 * /dev/shm (tmpfs: three lstat say whether a directory is as made, so each
 * kind of leftover must change what they see). */
static struct runner_result *wait_run(struct runner *r, char *const *argv, const char *name,
                                      const char *input, bool input_file)
{
    struct diag_list diags = DIAG_LIST_INIT;
    struct runner_job job = {.argv = argv, .input_name = name, .input = input,
                             .input_len = strlen(input), .input_file = input_file,
                             .keep_stdout = 4096};
    struct runner_result *res = NULL;
    if (CHECK(runner_start(r, &job, &diags)))
        while (!(res = runner_poll(r, 50)))
            ;
    CHECK_INT(diags.len, 0);
    diag_list_free(&diags);
    return res;
}

static void reuse_after(const char *parent_template, const char *mess_script)
{
    char parent[64];
    snprintf(parent, sizeof parent, "%s", parent_template);
    if (!CHECK(mkdtemp(parent) != NULL))
        return;
    struct runner_options o = {.jobs = 1, .timeout_ms = 60000, .tmp_parent = parent};
    struct runner *r = runner_new(&o);
    char *mess[] = {"sh", "-c", (char *)mess_script, NULL};
    struct runner_result *first = wait_run(r, mess, "in.txt", "one", true);
    char *dir = first ? strdup(first->dir) : NULL;
    if (first)
        CHECK_STR(strbuf_str(&first->stdout_kept), "one");
    runner_result_free(first);
    char *look[] = {"sh", "-c",
                    "ls -A .; echo --; ls -A ../in; echo --; ls -A ..; stat -c %a . ../in; cat",
                    NULL};
    struct runner_result *second = wait_run(r, look, "other.txt", "two", true);
    if (second && dir) {
        CHECK_STR(second->dir, dir);
        CHECK_STR(strbuf_str(&second->stdout_kept), "--\nother.txt\n--\ncwd\nin\n700\n700\ntwo");
    }
    runner_free(r);
    /* The result outlives its runner; then the base goes too. */
    runner_result_free(second);
    free(dir);
    CHECK(rmdir(parent) == 0);
}

TEST(runner_reuses_an_emptied_directory)
{
    static const char *const messes[] = {
        "echo x >left; mkdir -p deep/er; touch deep/er/f; chmod 0 deep; "
        "touch ../in/extra ../stray; mkdir ../gcov; chmod 0 .; cat",
        /* One leftover at a time: each alone must be seen. */
        "touch left; cat",            /* a file in cwd/: its size, not its links */
        "mkdir sub; cat",             /* a directory in cwd/ */
        "touch ../in/extra; cat",     /* a file beside the input */
        "touch ../stray; cat",        /* a file beside cwd/ */
        "chmod 0750 .; cat",          /* cwd/'s mode */
        "mv ../in ../gone; mkdir -m 0700 ../in; cat", /* in/ made again: gone/ stays */
    };
    for (size_t i = 0; i < sizeof messes / sizeof *messes; i++) {
        reuse_after("/tmp/kpath-test-pool-XXXXXX", messes[i]);
        struct stat st;
        if (stat("/dev/shm", &st) == 0 && access("/dev/shm", W_OK) == 0)
            reuse_after("/dev/shm/kpath-test-pool-XXXXXX", messes[i]);
    }
}

/* Standard input alone: the input is sealed in memory, not a file of the
 * run directory; the program reads it, cannot write or truncate it (not
 * even by opening /proc/self/fd/0 again), and in/ stays empty. */
TEST(runner_input_on_stdin_is_sealed_in_memory)
{
    char *prog[] = {"sh", "-c",
                    "ls -A ../in; cat; echo; (echo x >&0) 2>/dev/null && echo wrote; "
                    "(echo y >/proc/self/fd/0) 2>/dev/null && echo truncated; cat /proc/self/fd/0",
                    NULL};
    struct runner_result *res = run_one(prog, "1+2", 0);
    if (CHECK(res != NULL)) {
        char hex[SHA256_HEX_SIZE];
        sha256_hex("1+2\n1+2", strlen("1+2\n1+2"), hex);
        CHECK_STR(res->out.sha256, hex);
        CHECK_STR(res->out.first_line, "1+2");
    }
    runner_result_free(res);
}

/* Two runners at once (the explorer's jobs): the end of a run of one, which
 * kills what escaped its runs, leaves the other's runs alone. */
TEST(runner_two_runners_leave_each_other_alone)
{
    struct runner_options o = {.jobs = 1, .timeout_ms = 60000};
    struct runner *a = runner_new(&o), *b = runner_new(&o);
    struct diag_list diags = DIAG_LIST_INIT;
    char *slow[] = {"sh", "-c", "sleep 0.3; exit 7", NULL};
    struct runner_job job = {.argv = slow};
    CHECK(runner_start(a, &job, &diags));
    char *quick[] = {"true", NULL};
    struct runner_result *q = wait_run(b, quick, "x", "", false);
    if (q)
        CHECK_INT(q->end, RUNNER_EXITED);
    runner_result_free(q);
    struct runner_result *res = NULL;
    while (!(res = runner_poll(a, 50)))
        ;
    char *outcome = outcome_of(res);
    CHECK_STR(outcome, "exit:7");
    free(outcome);
    CHECK_INT(runner_escaped(a), 0);
    CHECK_INT(runner_escaped(b), 0);
    runner_result_free(res);
    diag_list_free(&diags);
    runner_free(a);
    runner_free(b);
}

TEST(pearson_on_hand_computed_values)
{
    double x[] = {1, 2, 3, 4}, up[] = {2, 4, 6, 8}, down[] = {4, 3, 2, 1}, mixed[] = {1, 3, 2, 4};
    CHECK(fabs(run_report_pearson(x, up, 4) - 1.0) < 1e-12);
    CHECK(fabs(run_report_pearson(x, down, 4) + 1.0) < 1e-12);
    /* dx = dy' = (-1.5,-.5,.5,1.5), dy = (-1.5,.5,-.5,1.5): 4 / sqrt(5 * 5) */
    CHECK(fabs(run_report_pearson(x, mixed, 4) - 0.8) < 1e-12);
    double flat[] = {5, 5, 5, 5};
    CHECK(isnan(run_report_pearson(x, flat, 4)));
    CHECK(isnan(run_report_pearson(x, up, 1)));
}

/* The report in steps (the explorer's job) is the report at once: inputs
 * measured one per step, then one k per step; a changed input is counted
 * as not measured; a job given up halfway leaks nothing. */
TEST(run_report_in_steps_equals_at_once)
{
    struct loaded l;
    if (!test_load_file("grammars/expr.ebnf", &l))
        return;
    char dir[] = "/tmp/kpath-report-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    static const char *texts[] = {"x", "y*x", "(x)+y", "x"};
    struct strbuf json = STRBUF_INIT;
    strbuf_addstr(&json, "{\"kpath_results\":1}\n");
    for (int i = 0; i < 4; i++) {
        char path[300], hex[SHA256_HEX_SIZE];
        snprintf(path, sizeof path, "%s/%d.txt", dir, i);
        FILE *f = fopen(path, "w");
        fputs(texts[i], f);
        fclose(f);
        /* the last input changed since it ran: another hash */
        sha256_hex(i == 3 ? "y" : texts[i], strlen(texts[i]), hex);
        strbuf_addf(&json, "{\"input\":\"%s\",\"input_sha256\":\"%s\",\"outcome\":\"exit:0\","
                           "\"features\":[\"exit:0\"%s]}\n", path, hex,
                    i == 1 ? ",\"fn:mul\"" : i == 2 ? ",\"fn:add\",\"fn:group\"" : "");
    }
    char rpath[300];
    snprintf(rpath, sizeof rpath, "%s/r.jsonl", dir);
    FILE *f = fopen(rpath, "w");
    fputs(strbuf_str(&json), f);
    fclose(f);
    strbuf_free(&json);
    struct results r;
    results_init(&r);
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(results_load(rpath, &r, &d));
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT,
                               .max_memory = PARSE_DEFAULT_MAX_MEMORY};
    struct run_report once, stepped;
    run_report_compute(&r, l.graph, 2, &po, 1, &once, &d);
    CHECK_INT(once.measured, 3);
    CHECK_INT(once.not_measured, 1);
    CHECK_INT(once.features, 4);
    struct run_report_job *j = run_report_begin(&r, l.graph, 2, &po, 1, &stepped);
    size_t steps = 1, done = 0, total = 0;
    while (run_report_step(j, 1, &d))
        steps++;
    run_report_progress(j, &done, &total);
    CHECK_INT(steps, 6); /* 4 inputs, 2 k */
    CHECK_INT(done, 6);
    CHECK_INT(total, 6);
    run_report_job_free(j);
    CHECK_INT(stepped.measured, 3);
    CHECK_INT(stepped.not_measured, 1);
    for (uint32_t k = 0; k < 2; k++) {
        CHECK(once.ks[k].covered == stepped.ks[k].covered && once.ks[k].covered > 0);
        CHECK_INT(once.ks[k].suite_size, stepped.ks[k].suite_size);
        CHECK_INT(once.ks[k].suite_features, stepped.ks[k].suite_features);
        CHECK(once.ks[k].random_features == stepped.ks[k].random_features);
        CHECK(once.ks[k].correlation == stepped.ks[k].correlation);
    }
    run_report_free(&stepped);
    j = run_report_begin(&r, l.graph, 2, &po, 1, &stepped);
    CHECK(run_report_step(j, 2, &d));
    run_report_job_free(j);
    run_report_free(&stepped);
    run_report_free(&once);
    results_free(&r);
    diag_list_free(&d);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_INT(system(cmd), 0);
    test_unload(&l);
}

/* The check the runs report and explain make (input_kpaths_as_ran): the
 * input's SHA-256 must be the one recorded when it ran, checked before
 * parsing (a changed input that no longer parses has changed); a record
 * without the hash ("") is read unchecked. */
TEST(input_as_ran_checks_the_recorded_hash_unless_there_is_none)
{
    struct loaded l;
    if (!test_load_file("grammars/expr.ebnf", &l))
        return;
    char dir[] = "/tmp/kpath-as-ran-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[300], x_hex[SHA256_HEX_SIZE], y_hex[SHA256_HEX_SIZE];
    snprintf(path, sizeof path, "%s/in.txt", dir);
    sha256_hex("x", 1, x_hex);
    sha256_hex("y", 1, y_hex);
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT,
                               .max_memory = PARSE_DEFAULT_MAX_MEMORY};
    struct kpath_space space;
    kpath_space_init(&space, l.graph, 1);
    struct kpath_set set;
    kpath_set_init(&set, &space);
    struct kpath_set *sets[1] = {&set};
    struct strbuf text = STRBUF_INIT;
    struct diag_list d = DIAG_LIST_INIT;
    FILE *f = fopen(path, "w");
    fputs("x", f);
    fclose(f);
    CHECK(input_kpaths_as_ran(l.graph, path, x_hex, &po, sets, 1, &text, &d));
    CHECK_INT(d.len, 0);
    /* "x": AddExpr_0 MultExpr_2 UnaryExpr_8 Identifier_16 "x"_39 */
    CHECK_INT(set.size, 5);
    CHECK(input_kpaths_as_ran(l.graph, path, "", &po, sets, 1, &text, &d));
    CHECK_INT(d.len, 0);
    CHECK(!input_kpaths_as_ran(l.graph, path, y_hex, &po, sets, 1, &text, &d));
    CHECK(d.len == 1 && strcmp(d.items[0].message, "changed since it ran") == 0 &&
          strcmp(d.items[0].file, path) == 0 && d.items[0].severity == DIAG_ERROR);
    diag_list_free(&d);
    f = fopen(path, "w");
    fputs("x+", f); /* does not parse */
    fclose(f);
    CHECK(!input_kpaths_as_ran(l.graph, path, x_hex, &po, sets, 1, &text, &d));
    CHECK(d.len == 1 && strcmp(d.items[0].message, "changed since it ran") == 0);
    diag_list_free(&d);
    CHECK(!input_kpaths_as_ran(l.graph, path, "", &po, sets, 1, &text, &d));
    CHECK(d.len == 1 && strncmp(d.items[0].message, "no parse", 8) == 0);
    diag_list_free(&d);
    CHECK_INT(set.size, 5); /* failures add nothing */
    kpath_set_free(&set);
    kpath_space_free(&space);
    strbuf_free(&text);
    CHECK_INT(unlink(path), 0);
    CHECK_INT(rmdir(dir), 0);
    test_unload(&l);
}

/* The step API never blocks longer than asked: with wait 0 a step returns
 * while a run is still going (nothing recorded yet), and stepping on records
 * every input once, in the results file too. */
TEST(campaign_steps_without_blocking)
{
    char dir[] = "/tmp/kpath-test-campaign-XXXXXX";
    if (!CHECK(mkdtemp(dir) != NULL))
        return;
    struct sample_list inputs = SAMPLE_LIST_INIT;
    for (int i = 0; i < 3; i++) {
        struct strbuf path = STRBUF_INIT;
        strbuf_addf(&path, "%s/%d.txt", dir, i);
        FILE *f = fopen(path.data, "w");
        if (f) {
            fprintf(f, "%d", i);
            fclose(f);
        }
        inputs.paths = realloc(inputs.paths, (inputs.len + 1) * sizeof *inputs.paths);
        inputs.paths[inputs.len++] = strbuf_detach(&path, NULL);
    }
    struct strbuf results = STRBUF_INIT;
    strbuf_addf(&results, "%s/r.jsonl", dir);
    /* The first input's run waits for a file that only appears once the test
     * has seen the campaign come back with nothing done. */
    struct strbuf gate = STRBUF_INIT, script = STRBUF_INIT;
    strbuf_addf(&gate, "%s/gate", dir);
    strbuf_addf(&script, "while [ ! -e %s ]; do sleep 0.01; done; cat", gate.data);
    char *argv[] = {"sh", "-c", script.data, NULL};
    struct collector outcome;
    collector_outcome(&outcome);
    char *collect[] = {outcome.name};
    struct results_header h = {.kpath_version = "test", .grammar = "g", .command = argv,
                               .ncommand = 3, .collect = collect, .ncollect = 1};
    memset(h.grammar_sha256, 'a', SHA256_HEX_SIZE - 1);
    struct campaign_options o = {.runner = {.jobs = 1, .timeout_ms = 60000},
                                 .argv = argv, .collectors = &outcome, .ncollectors = 1,
                                 .results_path = results.data, .header = &h,
                                 .max_input_size = 1024};
    struct diag_list diags = DIAG_LIST_INIT;
    struct campaign *c = campaign_open(&o, &inputs, &diags);
    if (CHECK(c != NULL)) {
        CHECK_INT(campaign_step(c, 0, &diags), CAMPAIGN_RUNNING);
        struct campaign_progress p;
        campaign_get_progress(c, &p);
        CHECK_INT(p.done, 0);
        CHECK_INT(p.total, 3);
        FILE *f = fopen(gate.data, "w");
        if (f)
            fclose(f);
        enum campaign_state st;
        while ((st = campaign_step(c, 50, &diags)) == CAMPAIGN_RUNNING)
            ;
        CHECK_INT(st, CAMPAIGN_DONE);
        campaign_get_progress(c, &p);
        CHECK_INT(p.done, 3);
        const struct results *r = campaign_results(c);
        CHECK_INT(r->nrecords, 3);
        for (size_t i = 0; i < r->nrecords; i++)
            CHECK_STR(r->records[i].outcome, "exit:0");
        campaign_free(c);
    }
    CHECK_INT(diags.len, 0);
    diag_list_free(&diags);
    struct results back;
    if (CHECK(results_load(results.data, &back, &diags))) {
        CHECK_INT(back.nrecords, 3);
        results_free(&back);
    }
    diag_list_free(&diags);
    collector_free(&outcome);
    for (size_t i = 0; i < inputs.len; i++)
        unlink(inputs.paths[i]);
    sample_list_free(&inputs);
    unlink(results.data);
    unlink(gate.data);
    rmdir(dir);
    strbuf_free(&results);
    strbuf_free(&gate);
    strbuf_free(&script);
}
