/* write_file_atomic replaces regular files only.  Every check here goes
 * through a temporary directory, so a regression replaces a link in it, never
 * a device of the machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/grammar_write.h"
#include "harness.h"

TEST(write_file_atomic_keeps_devices_links_and_refuses_directories)
{
    char dir[] = "/tmp/kpath-write-XXXXXX";
    if (!CHECK(mkdtemp(dir) != NULL))
        return;
    char devlink[256], target[256], filelink[256];
    snprintf(devlink, sizeof devlink, "%s/devlink", dir);
    snprintf(target, sizeof target, "%s/target.txt", dir);
    snprintf(filelink, sizeof filelink, "%s/filelink", dir);
    CHECK(symlink("/dev/null", devlink) == 0);
    struct diag_list d = DIAG_LIST_INIT;
    /* Through a link to a device: written in place, the link stays a link. */
    CHECK(write_file_atomic(devlink, "x", 1, &d));
    struct stat st;
    CHECK(lstat(devlink, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(stat(devlink, &st) == 0 && S_ISCHR(st.st_mode));
    /* A link to a regular file: the file is replaced, the link kept. */
    FILE *f = fopen(target, "w");
    if (CHECK(f != NULL)) {
        fputs("old", f);
        fclose(f);
    }
    CHECK(symlink("target.txt", filelink) == 0);
    CHECK(write_file_atomic(filelink, "new", 3, &d));
    CHECK(lstat(filelink, &st) == 0 && S_ISLNK(st.st_mode));
    char buf[8] = {0};
    f = fopen(target, "r");
    if (CHECK(f != NULL)) {
        CHECK_INT(fread(buf, 1, sizeof buf - 1, f), 3);
        fclose(f);
    }
    CHECK_STR(buf, "new");
    CHECK_INT(d.errors, 0);
    /* A directory is an error, and stays a directory. */
    CHECK(!write_file_atomic(dir, "x", 1, &d));
    CHECK_INT(d.errors, 1);
    if (d.len)
        CHECK_STR(d.items[d.len - 1].message, "cannot write: it is a directory");
    CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
    diag_list_free(&d);
    unlink(devlink);
    unlink(filelink);
    unlink(target);
    rmdir(dir);
}
