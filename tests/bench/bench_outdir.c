/* Writing a suite with -o DIR: 5,000 small files through outdir (batched:
 * one syncfs per batch), next to the way it was done before (an fsync per
 * file, then its rename), in fresh directories under /tmp. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "base/outdir.h"
#include "base/strbuf.h"

enum { SUITE_FILES = 5000 };

static void remove_dir(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        struct strbuf p = STRBUF_INIT;
        strbuf_addf(&p, "%s/%s", path, e->d_name);
        unlink(p.data);
        strbuf_free(&p);
    }
    if (d)
        closedir(d);
    rmdir(path);
}

/* The way before: temporary, write, fsync, close, rename, for each file. */
static double write_fsync_each(const char *dir)
{
    double t0 = bench_now();
    struct strbuf tmp = STRBUF_INIT, name = STRBUF_INIT, text = STRBUF_INIT;
    for (size_t i = 0; i < SUITE_FILES; i++) {
        strbuf_reset(&name);
        strbuf_addf(&name, "%s/", dir);
        outdir_case_name(&name, i + 1, SUITE_FILES, ".txt");
        strbuf_reset(&tmp);
        strbuf_addf(&tmp, "%s/.%zu.tmp", dir, i);
        strbuf_reset(&text);
        strbuf_addf(&text, "{\"input\": %zu}\n", i);
        int fd = open(tmp.data, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 || write(fd, text.data, text.len) != (ssize_t)text.len || fsync(fd) != 0)
            printf("  (write failed)\n");
        if (fd >= 0)
            close(fd);
        rename(tmp.data, name.data);
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    strbuf_free(&tmp);
    strbuf_free(&name);
    strbuf_free(&text);
    return bench_now() - t0;
}

static double write_outdir(const char *dir, bool force)
{
    double t0 = bench_now();
    struct diag_list diags = DIAG_LIST_INIT;
    struct outdir od;
    struct strbuf name = STRBUF_INIT, text = STRBUF_INIT;
    bool ok = outdir_open(&od, dir, force, &diags) == OUTDIR_OK;
    for (size_t i = 0; ok && i < SUITE_FILES; i++) {
        strbuf_reset(&name);
        outdir_case_name(&name, i + 1, SUITE_FILES, ".txt");
        strbuf_reset(&text);
        strbuf_addf(&text, "{\"input\": %zu}\n", i);
        ok = outdir_write(&od, name.data, text.data, text.len, &diags);
    }
    ok = ok && outdir_finish(&od, ".txt", &diags) &&
         outdir_write(&od, OUTDIR_MANIFEST, "{}\n", 3, &diags);
    if (!ok)
        printf("  (outdir failed)\n");
    outdir_close(&od);
    diag_list_free(&diags);
    strbuf_free(&name);
    strbuf_free(&text);
    return bench_now() - t0;
}

void bench_output(const char *root)
{
    (void)root;
    printf("\n-o DIR: a suite of %d small files and a manifest, written durably (s)\n",
           SUITE_FILES);
    char a[] = "/tmp/kpath-bench-XXXXXX", b[] = "/tmp/kpath-bench-XXXXXX";
    if (!mkdtemp(a) || !mkdtemp(b)) {
        printf("  (cannot make a directory under /tmp)\n");
        return;
    }
    double each = write_fsync_each(a);
    double batched = write_outdir(b, false);
    double again = write_outdir(b, true);
    printf("  an fsync per file (as before)      %6.2f\n", each);
    printf("  outdir, batched syncs              %6.2f\n", batched);
    printf("  outdir, --force over that suite    %6.2f\n", again);
    remove_dir(a);
    remove_dir(b);
}
