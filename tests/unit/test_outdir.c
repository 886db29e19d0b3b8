/* outdir: creating the directory, refusing to overwrite, --force replacing
 * and removing only stale numbered cases, and a failure half-way that leaves
 * the files written before intact and no temporary file behind, and the
 * order of the durability steps (through the trace seam of outdir.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "base/outdir.h"
#include "base/strbuf.h"

/* ---- helpers: a scratch directory, files, listings --------------------- */

static bool make_scratch(char *path, size_t size)
{
    snprintf(path, size, "/tmp/kpath-outdir-XXXXXX");
    return mkdtemp(path) != NULL;
}

static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            struct strbuf child = STRBUF_INIT;
            strbuf_addf(&child, "%s/%s", path, e->d_name);
            remove_tree(child.data);
            strbuf_free(&child);
        }
        if (d)
            closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

static bool put_file(const char *dir, const char *name, const char *text)
{
    struct strbuf p = STRBUF_INIT;
    strbuf_addf(&p, "%s/%s", dir, name);
    FILE *f = fopen(p.data, "wb");
    strbuf_free(&p);
    if (!f)
        return false;
    fputs(text, f);
    return fclose(f) == 0;
}

/* The file's contents, or "<missing>". */
static const char *file_text(const char *dir, const char *name)
{
    static char buf[256];
    struct strbuf p = STRBUF_INIT;
    strbuf_addf(&p, "%s/%s", dir, name);
    FILE *f = fopen(p.data, "rb");
    strbuf_free(&p);
    if (!f)
        return "<missing>";
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of `dir` (hidden ones too, directories marked with '/'),
 * sorted and separated by spaces. */
static const char *listing(const char *dir)
{
    static char buf[1024];
    char *names[64];
    size_t n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && n < 64) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        struct strbuf p = STRBUF_INIT;
        struct stat st;
        strbuf_addf(&p, "%s/%s", dir, e->d_name);
        bool is_dir = lstat(p.data, &st) == 0 && S_ISDIR(st.st_mode);
        strbuf_reset(&p);
        strbuf_addf(&p, "%s%s", e->d_name, is_dir ? "/" : "");
        names[n++] = strbuf_detach(&p, NULL);
    }
    if (d)
        closedir(d);
    qsort(names, n, sizeof names[0], compare_strings);
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (i)
            strncat(buf, " ", sizeof buf - strlen(buf) - 1);
        strncat(buf, names[i], sizeof buf - strlen(buf) - 1);
        free(names[i]);
    }
    return buf;
}

static bool write_str(struct outdir *od, const char *name, const char *text,
                      struct diag_list *diags)
{
    return outdir_write(od, name, text, strlen(text), diags);
}

/* ---- tests -------------------------------------------------------------- */

TEST(outdir_case_names_have_at_least_four_digits)
{
    struct strbuf s = STRBUF_INIT;
    outdir_case_name(&s, 1, 10, ".txt");
    CHECK_STR(strbuf_str(&s), "0001.txt");
    strbuf_reset(&s);
    outdir_case_name(&s, 9999, 9999, ".txt");
    CHECK_STR(strbuf_str(&s), "9999.txt");
    strbuf_reset(&s);
    outdir_case_name(&s, 7, 10000, ".txt");
    CHECK_STR(strbuf_str(&s), "00007.txt");
    strbuf_reset(&s);
    outdir_case_name(&s, 12, 123456, "");
    CHECK_STR(strbuf_str(&s), "000012");
    strbuf_free(&s);

    CHECK(outdir_is_case_name("0001.txt", ".txt"));
    CHECK(outdir_is_case_name("12345.txt", ".txt"));
    CHECK(outdir_is_case_name("0001", ""));
    CHECK(!outdir_is_case_name("001.txt", ".txt"));
    CHECK(!outdir_is_case_name("0001.txt", ".in"));
    CHECK(!outdir_is_case_name("0001.txt.bak", ".txt"));
    CHECK(!outdir_is_case_name("x0001.txt", ".txt"));
    CHECK(!outdir_is_case_name(".0001.txt.1-2.tmp", ".txt"));
    CHECK(!outdir_is_case_name("manifest.json", ".json"));
}

TEST(outdir_creates_missing_directory_and_parents)
{
    char base[64];
    if (!CHECK(make_scratch(base, sizeof base)))
        return;
    struct strbuf dir = STRBUF_INIT;
    strbuf_addf(&dir, "%s/a/b//c/", base);
    struct diag_list diags = DIAG_LIST_INIT;
    struct outdir od;
    CHECK_INT(outdir_open(&od, dir.data, false, &diags), OUTDIR_OK);
    CHECK(od.created);
    CHECK(write_str(&od, "0001.txt", "hello\n", &diags));
    CHECK(outdir_write(&od, "0002.txt", "a\0b", 3, &diags));
    CHECK(outdir_finish(&od, ".txt", &diags));
    CHECK_INT(od.written, 2);
    CHECK_INT(diags.len, 0);
    outdir_close(&od);
    CHECK_STR(listing(dir.data), "0001.txt 0002.txt");
    CHECK_STR(file_text(dir.data, "0001.txt"), "hello\n");
    struct stat st;
    strbuf_addstr(&dir, "0002.txt");
    CHECK(stat(dir.data, &st) == 0 && st.st_size == 3);
    diag_list_free(&diags);
    strbuf_free(&dir);
    remove_tree(base);
}

TEST(outdir_new_files_get_the_usual_permissions)
{
    char base[64];
    if (!CHECK(make_scratch(base, sizeof base)))
        return;
    mode_t old = umask(022);
    struct diag_list diags = DIAG_LIST_INIT;
    struct outdir od;
    CHECK_INT(outdir_open(&od, base, false, &diags), OUTDIR_OK);
    CHECK(!od.created);
    CHECK(write_str(&od, "0001.txt", "x", &diags));
    outdir_close(&od);
    umask(old);
    struct strbuf p = STRBUF_INIT;
    strbuf_addf(&p, "%s/0001.txt", base);
    struct stat st;
    CHECK(stat(p.data, &st) == 0);
    CHECK_INT(st.st_mode & 0777, 0644);
    strbuf_free(&p);
    diag_list_free(&diags);
    remove_tree(base);
}

TEST(outdir_refuses_non_empty_directory_and_non_directories)
{
    char base[64];
    if (!CHECK(make_scratch(base, sizeof base)))
        return;
    struct diag_list diags = DIAG_LIST_INIT;
    struct outdir od;

    /* A hidden file is enough to make it non-empty. */
    CHECK(put_file(base, ".keep", "mine"));
    CHECK_INT(outdir_open(&od, base, false, &diags), OUTDIR_REFUSED);
    outdir_close(&od);
    if (CHECK_INT(diags.len, 1)) {
        CHECK(diags.items[0].severity == DIAG_ERROR);
        CHECK(strstr(diags.items[0].message, "is not empty") != NULL);
        CHECK(strstr(diags.items[0].message, "--force") != NULL);
        CHECK(strstr(diags.items[0].message, base) != NULL);
    }
    CHECK_STR(listing(base), ".keep");
    CHECK_STR(file_text(base, ".keep"), "mine");
    diag_list_free(&diags);

    /* A regular file is refused even with force. */
    struct strbuf file = STRBUF_INIT;
    strbuf_addf(&file, "%s/.keep", base);
    CHECK_INT(outdir_open(&od, file.data, true, &diags), OUTDIR_REFUSED);
    outdir_close(&od);
    CHECK(diags.len == 1 && strstr(diags.items[0].message, "not a directory"));
    CHECK_STR(file_text(base, ".keep"), "mine");
    diag_list_free(&diags);
    strbuf_free(&file);

    /* With force the same directory opens. */
    CHECK_INT(outdir_open(&od, base, true, &diags), OUTDIR_OK);
    CHECK(!od.was_empty);
    outdir_close(&od);
    CHECK_INT(diags.len, 0);

    /* A zeroed outdir closes without touching descriptor 0. */
    struct outdir zero = {0};
    outdir_close(&zero);
    diag_list_free(&diags);
    remove_tree(base);
}

TEST(outdir_force_replaces_and_removes_only_stale_numbered_cases)
{
    char base[64];
    if (!CHECK(make_scratch(base, sizeof base)))
        return;
    /* An earlier run of five cases (and one of 10000+, 5 digits), plus files
     * that are not numbered cases of this suffix. */
    static const char *const old[] = {"0001.txt", "0002.txt", "0003.txt", "0004.txt",
                                      "0005.txt", "00006.txt", "manifest.json", "notes.txt",
                                      "0001.json", "001.txt", "x0002.txt", "0002.txt.bak"};
    for (size_t i = 0; i < sizeof old / sizeof old[0]; i++)
        CHECK(put_file(base, old[i], "old"));
    struct strbuf sub = STRBUF_INIT;
    strbuf_addf(&sub, "%s/0009.txt", base);
    CHECK(mkdir(sub.data, 0777) == 0);

    struct diag_list diags = DIAG_LIST_INIT;
    struct outdir od;
    CHECK_INT(outdir_open(&od, base, true, &diags), OUTDIR_OK);
    CHECK(write_str(&od, "0001.txt", "new 1", &diags));
    CHECK(write_str(&od, "0002.txt", "new 2", &diags));
    CHECK(write_str(&od, "manifest.json", "{}", &diags));
    CHECK_INT(diags.len, 0);
    /* Nothing is removed before the run is finished. */
    CHECK_STR(file_text(base, "0003.txt"), "old");
    CHECK(outdir_finish(&od, ".txt", &diags));
    CHECK_INT(od.written, 3);
    outdir_close(&od);

    CHECK_STR(listing(base), "0001.json 0001.txt 0002.txt 0002.txt.bak 0009.txt/ 001.txt "
                             "manifest.json notes.txt x0002.txt");
    CHECK_STR(file_text(base, "0001.txt"), "new 1");
    CHECK_STR(file_text(base, "0002.txt"), "new 2");
    CHECK_STR(file_text(base, "manifest.json"), "{}");
    CHECK_STR(file_text(base, "notes.txt"), "old");
    CHECK_STR(file_text(base, "0001.json"), "old");
    /* The directory named like a stale case stays, with a warning. */
    if (CHECK_INT(diags.len, 1)) {
        CHECK(diags.items[0].severity == DIAG_WARNING);
        CHECK_STR(diags.items[0].file, sub.data);
    }
    CHECK_INT(diags.errors, 0);
    diag_list_free(&diags);
    strbuf_free(&sub);
    remove_tree(base);
}

TEST(outdir_failure_half_way_keeps_earlier_files_and_no_temporaries)
{
    char base[64];
    if (!CHECK(make_scratch(base, sizeof base)))
        return;
    struct diag_list diags = DIAG_LIST_INIT;
    struct outdir od;
    CHECK_INT(outdir_open(&od, base, false, &diags), OUTDIR_OK);
    CHECK(write_str(&od, "0001.txt", "one", &diags));
    CHECK(write_str(&od, "0002.txt", "two", &diags));
    /* Someone puts a directory where the third file must go: the rename
     * over it fails. */
    struct strbuf blocker = STRBUF_INIT;
    strbuf_addf(&blocker, "%s/0003.txt", base);
    CHECK(mkdir(blocker.data, 0777) == 0);
    CHECK(!write_str(&od, "0003.txt", "three", &diags));
    CHECK_INT(od.written, 2);
    if (CHECK_INT(diags.len, 1)) {
        CHECK_STR(diags.items[0].file, blocker.data);
        CHECK(strstr(diags.items[0].message, "cannot put the new file in place") != NULL);
    }
    outdir_close(&od);
    /* The two files are whole, the blocker is untouched, and there is no
     * temporary file (no hidden entry at all). */
    CHECK_STR(listing(base), "0001.txt 0002.txt 0003.txt/");
    CHECK_STR(file_text(base, "0001.txt"), "one");
    CHECK_STR(file_text(base, "0002.txt"), "two");
    CHECK_STR(listing(blocker.data), "");

    /* Names that are not plain file names are refused. */
    diag_list_free(&diags);
    CHECK_INT(outdir_open(&od, base, true, &diags), OUTDIR_OK);
    CHECK(!write_str(&od, "../escape", "x", &diags));
    CHECK(!write_str(&od, "", "x", &diags));
    CHECK_INT(od.written, 0);
    CHECK_INT(diags.errors, 2);
    outdir_close(&od);
    CHECK_STR(listing(base), "0001.txt 0002.txt 0003.txt/");

    diag_list_free(&diags);
    strbuf_free(&blocker);
    remove_tree(base);
}

TEST(outdir_removes_the_old_manifest_before_the_first_file_changes)
{
    char base[64];
    if (!CHECK(make_scratch(base, sizeof base)))
        return;
    CHECK(put_file(base, "0001.txt", "old 1"));
    CHECK(put_file(base, "manifest.json", "{\"old\": true}"));
    struct diag_list diags = DIAG_LIST_INIT;
    struct outdir od;
    CHECK_INT(outdir_open(&od, base, true, &diags), OUTDIR_OK);
    CHECK(write_str(&od, "0001.txt", "new 1", &diags));
    /* Written but pending: the old suite, manifest included, is untouched. */
    CHECK_STR(file_text(base, "0001.txt"), "old 1");
    CHECK_STR(file_text(base, "manifest.json"), "{\"old\": true}");
    CHECK(outdir_commit(&od, &diags));
    /* Now a file changed, so the manifest describing the old one is gone. */
    CHECK_STR(file_text(base, "0001.txt"), "new 1");
    CHECK_STR(file_text(base, "manifest.json"), "<missing>");
    CHECK_INT(od.written, 1);
    CHECK(outdir_finish(&od, ".txt", &diags));
    CHECK(write_str(&od, OUTDIR_MANIFEST, "{\"new\": true}", &diags));
    CHECK_STR(file_text(base, "manifest.json"), "{\"new\": true}");
    CHECK_INT(od.written, 2);
    CHECK_INT(diags.len, 0);
    outdir_close(&od);
    CHECK_STR(listing(base), "0001.txt manifest.json");
    diag_list_free(&diags);
    remove_tree(base);
}

TEST(outdir_finish_removes_temporaries_of_dead_processes_only)
{
    char base[64];
    if (!CHECK(make_scratch(base, sizeof base)))
        return;
    /* A process that is surely gone: a child that exited and was reaped. */
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    if (!CHECK(child > 0))
        return;
    waitpid(child, NULL, 0);
    char dead[128], alive[128], own[128];
    snprintf(dead, sizeof dead, ".0003.txt.%ld-7.tmp", (long)child);
    snprintf(alive, sizeof alive, ".0004.txt.%ld-0.tmp", (long)getppid());
    snprintf(own, sizeof own, ".0005.txt.%ld-0.tmp", (long)getpid());
    CHECK(put_file(base, dead, "killed run"));
    CHECK(put_file(base, alive, "a live writer"));
    CHECK(put_file(base, own, "ours"));
    /* Not of outdir's kind: no PID-N, or not hidden. */
    CHECK(put_file(base, ".notes.tmp", "x"));
    CHECK(put_file(base, ".x.12a-1.tmp", "x"));
    CHECK(put_file(base, "0006.txt.1-1.tmp", "x"));
    struct diag_list diags = DIAG_LIST_INIT;
    struct outdir od;
    CHECK_INT(outdir_open(&od, base, true, &diags), OUTDIR_OK);
    CHECK(write_str(&od, "0001.txt", "one", &diags));
    CHECK(outdir_finish(&od, ".txt", &diags));
    CHECK_INT(diags.len, 0);
    outdir_close(&od);
    struct strbuf want = STRBUF_INIT;
    strbuf_addf(&want, "%s %s .notes.tmp .x.12a-1.tmp 0001.txt 0006.txt.1-1.tmp", alive, own);
    CHECK_STR(listing(base), strbuf_str(&want));
    strbuf_free(&want);
    diag_list_free(&diags);
    remove_tree(base);
}

/* ---- the order of durability steps (issue 17.6), through the trace seam -- */

struct trace_event {
    enum outdir_event event;
    char name[32];
    size_t bytes;
};

struct trace_log {
    struct trace_event *events;
    size_t len, cap;
};

static void record(void *ctx, enum outdir_event event, const char *name, size_t bytes)
{
    struct trace_log *log = ctx;
    if (log->len == log->cap) {
        log->cap = log->cap ? 2 * log->cap : 256;
        log->events = realloc(log->events, log->cap * sizeof *log->events);
    }
    struct trace_event *e = &log->events[log->len++];
    e->event = event;
    snprintf(e->name, sizeof e->name, "%s", name ? name : "");
    e->bytes = bytes;
}

/* The file number of a case name "0042.txt" (1..n), 0 for the manifest, -1
 * for anything else. */
static long file_index(const char *name, size_t n)
{
    if (strcmp(name, OUTDIR_MANIFEST) == 0)
        return 0;
    char *end;
    long i = strtol(name, &end, 10);
    return strcmp(end, ".txt") == 0 && i >= 1 && (size_t)i <= n ? i : -1;
}

/* What is wrong with a log of writing cases 1..n (case i holds `sizes[i]`
 * bytes, the manifest sizes[0]) then the manifest, over an old suite whose
 * manifest existed when `old_manifest`: "" when nothing is.  The contract of
 * outdir.h: no file is renamed into place before all its bytes were written
 * and made durable; the old manifest is removed, durably, before the first
 * file is renamed; the manifest is written only once every case is in place
 * and the directory synced, and goes last, synced too. */
static const char *order_problem(const struct trace_log *log, const size_t *sizes, size_t n,
                                 bool old_manifest)
{
    static char why[160];
    /* per file: 0 nothing, 1 written, 2 durable, 3 renamed */
    unsigned char *state = calloc(n + 1, 1);
    bool dir_dirty = false, manifest_gone = !old_manifest, manifest_renamed = false;
    size_t renamed = 0;
    why[0] = '\0';
    for (size_t j = 0; j < log->len && !why[0]; j++) {
        const struct trace_event *e = &log->events[j];
        long i = e->name[0] ? file_index(e->name, n) : -2;
        switch (e->event) {
        case OUTDIR_EVENT_TEMP_WRITTEN:
            if (i < 0)
                snprintf(why, sizeof why, "event %zu: wrote an unknown file %s", j, e->name);
            else if (e->bytes != sizes[i])
                snprintf(why, sizeof why, "event %zu: %s half-written (%zu of %zu bytes)", j,
                         e->name, e->bytes, sizes[i]);
            else if (i == 0 && (renamed != n || dir_dirty))
                snprintf(why, sizeof why, "event %zu: manifest written with %zu of %zu files "
                         "in place%s", j, renamed, n, dir_dirty ? ", directory not synced" : "");
            else
                state[i] = 1;
            break;
        case OUTDIR_EVENT_DATA_SYNCED:
            for (size_t f = 0; f <= n; f++)
                if (state[f] == 1 && (i == -2 || (long)f == i))
                    state[f] = 2;
            break;
        case OUTDIR_EVENT_RENAMED:
            if (i < 0 || state[i] != 2)
                snprintf(why, sizeof why, "event %zu: %s renamed before its data was durable", j,
                         e->name);
            else if (!manifest_gone)
                snprintf(why, sizeof why, "event %zu: %s renamed while the old manifest was "
                         "there", j, e->name);
            else if (manifest_renamed)
                snprintf(why, sizeof why, "event %zu: %s renamed after the manifest", j, e->name);
            state[i] = 3;
            renamed += i > 0;
            manifest_renamed = manifest_renamed || i == 0;
            dir_dirty = true;
            break;
        case OUTDIR_EVENT_REMOVED:
            if (i == 0 && manifest_renamed)
                snprintf(why, sizeof why, "event %zu: the new manifest removed", j);
            else if (i == 0 && dir_dirty)
                snprintf(why, sizeof why, "event %zu: old manifest removed late", j);
            else if (manifest_renamed)
                snprintf(why, sizeof why, "event %zu: %s removed after the manifest", j, e->name);
            dir_dirty = true;
            /* Its removal counts once the directory is synced. */
            if (i == 0)
                manifest_gone = false;
            break;
        case OUTDIR_EVENT_DIR_SYNCED:
            dir_dirty = false;
            if (old_manifest && !manifest_gone && j > 0 &&
                log->events[j - 1].event == OUTDIR_EVENT_REMOVED &&
                strcmp(log->events[j - 1].name, OUTDIR_MANIFEST) == 0)
                manifest_gone = true;
            break;
        }
    }
    if (!why[0] && (!manifest_renamed || dir_dirty))
        snprintf(why, sizeof why, "the manifest is %s", manifest_renamed ? "not synced at the end"
                                                                         : "not in place");
    free(state);
    return why;
}

static size_t count_events(const struct trace_log *log, enum outdir_event event)
{
    size_t c = 0;
    for (size_t j = 0; j < log->len; j++)
        c += log->events[j].event == event;
    return c;
}

/* A suite of more files than one batch holds, written over an old suite with
 * --force: the log of durability steps keeps the contract (order_problem),
 * the data is flushed once per batch (not once per file: issue 17.6), and
 * the checker itself catches a rename before the sync, a half-written file
 * and a manifest written before the files are in place. */
TEST(outdir_syncs_each_batch_before_renaming_and_the_manifest_last)
{
    char base[64];
    if (!CHECK(make_scratch(base, sizeof base)))
        return;
    CHECK(put_file(base, "0001.txt", "old 1"));
    CHECK(put_file(base, "99999.txt", "stale"));
    CHECK(put_file(base, "manifest.json", "{\"old\": true}"));
    size_t n = 25;
    size_t *sizes = calloc(n + 1, sizeof *sizes);
    struct diag_list diags = DIAG_LIST_INIT;
    struct outdir od;
    struct trace_log log = {0};
    CHECK_INT(outdir_open(&od, base, true, &diags), OUTDIR_OK);
    od.batch_files = 10; /* as OUTDIR_BATCH_FILES, but quicker to test */
    od.trace = record;
    od.trace_ctx = &log;
    bool ok = true;
    for (size_t i = 1; i <= n && ok; i++) {
        struct strbuf name = STRBUF_INIT, text = STRBUF_INIT;
        outdir_case_name(&name, i, n, ".txt");
        strbuf_addf(&text, "input %zu", i * 7919);
        sizes[i] = text.len;
        ok = outdir_write(&od, name.data, text.data, text.len, &diags);
        strbuf_free(&name);
        strbuf_free(&text);
    }
    CHECK(ok);
    CHECK(outdir_finish(&od, ".txt", &diags));
    const char *manifest = "{\"new\": true}";
    sizes[0] = strlen(manifest);
    CHECK(write_str(&od, OUTDIR_MANIFEST, manifest, &diags));
    outdir_close(&od);
    CHECK_INT(diags.len, 0);
    CHECK_STR(order_problem(&log, sizes, n, true), "");
#ifdef __linux__
    /* Batches of 10, 10 and 5 cases, then the manifest alone. */
    CHECK_INT(count_events(&log, OUTDIR_EVENT_DATA_SYNCED), 4);
#else
    CHECK_INT(count_events(&log, OUTDIR_EVENT_DATA_SYNCED), n + 1);
#endif
    CHECK_INT(count_events(&log, OUTDIR_EVENT_RENAMED), n + 1);
    CHECK_STR(file_text(base, "0025.txt"), "input 197975");
    CHECK_STR(file_text(base, "99999.txt"), "<missing>");
    CHECK_STR(file_text(base, OUTDIR_MANIFEST), manifest);

    /* The checker fails on logs that break the contract. */
    size_t first_rename = 0, first_sync = 0, manifest_write = 0;
    for (size_t j = 0; j < log.len; j++) {
        const struct trace_event *e = &log.events[j];
        if (!first_rename && e->event == OUTDIR_EVENT_RENAMED)
            first_rename = j;
        if (!first_sync && e->event == OUTDIR_EVENT_DATA_SYNCED)
            first_sync = j;
        if (e->event == OUTDIR_EVENT_TEMP_WRITTEN && strcmp(e->name, OUTDIR_MANIFEST) == 0)
            manifest_write = j;
    }
    if (CHECK(first_sync && first_rename > first_sync && manifest_write)) {
        struct trace_event keep = log.events[first_sync];
        log.events[first_sync] = log.events[first_rename]; /* a rename before the flush */
        log.events[first_rename] = keep;
        CHECK(strstr(order_problem(&log, sizes, n, true), "before its data was durable"));
        log.events[first_rename] = log.events[first_sync];
        log.events[first_sync] = keep;
        CHECK_STR(order_problem(&log, sizes, n, true), "");
        log.events[0].bytes--; /* a file cut short */
        CHECK(strstr(order_problem(&log, sizes, n, true), "half-written"));
        log.events[0].bytes++;
        /* The manifest written right after the first case. */
        struct trace_event m = log.events[manifest_write];
        memmove(&log.events[2], &log.events[1], (manifest_write - 1) * sizeof m);
        log.events[1] = m;
        CHECK(strstr(order_problem(&log, sizes, n, true), "manifest written with 0 of"));
    }

    /* The manifest written while cases are pending (no outdir_finish): they
     * go into place first, into an empty directory. */
    remove_tree(base);
    log.len = 0;
    n = 15;
    CHECK_INT(outdir_open(&od, base, false, &diags), OUTDIR_OK);
    od.batch_files = 10;
    od.trace = record;
    od.trace_ctx = &log;
    for (size_t i = 1; i <= n; i++) {
        struct strbuf name = STRBUF_INIT;
        outdir_case_name(&name, i, n, ".txt");
        CHECK(write_str(&od, name.data, "case", &diags));
        sizes[i] = 4;
        strbuf_free(&name);
    }
    CHECK(write_str(&od, OUTDIR_MANIFEST, manifest, &diags));
    outdir_close(&od);
    CHECK_INT(diags.len, 0);
    CHECK_STR(order_problem(&log, sizes, n, false), "");
    CHECK_STR(file_text(base, "0015.txt"), "case");
    free(log.events);
    free(sizes);
    diag_list_free(&diags);
    remove_tree(base);
}
