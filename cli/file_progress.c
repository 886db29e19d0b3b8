/* file_progress: see file_progress.h. */
#include "file_progress.h"

#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/number.h"
#include "base/strbuf.h"

/* Quiet for the first second: most runs are over by then, and a line that
 * flashes up and goes would only be noise. */
#define FILE_PROGRESS_AFTER 1.0
#define FILE_PROGRESS_TICK_NS 250000000L

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The line, cut to the terminal's width so that it never wraps (a wrapped
 * line would not be cleared by "\r\033[K"); the path loses its start first. */
static void draw(struct file_progress *fp, double now)
{
    struct strbuf head = STRBUF_INIT, tail = STRBUF_INIT;
    strbuf_addf(&head, "%s: ", fp->cmd);
    number_add_count(&head, fp->done);
    strbuf_addf(&head, " file%s done; on ", plural_s(fp->done));
    if (fp->size >= 0) {
        strbuf_addstr(&tail, " (");
        number_add_count(&tail, (uint64_t)fp->size);
        strbuf_addf(&tail, " byte%s)", plural_s((uint64_t)fp->size));
    }
    strbuf_addf(&tail, " for %.0f s", now - fp->since);
    struct winsize ws;
    size_t width = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col ? ws.ws_col : 80;
    size_t room = width > head.len + tail.len + 1 ? width - 1 - head.len - tail.len : 0;
    strbuf_add_tail(&head, fp->name, room);
    strbuf_addstr(&head, strbuf_str(&tail));
    /* Written when it says something new (the seconds go up once a second). */
    if (!fp->shown || strcmp(strbuf_str(&head), strbuf_str(&fp->line)) != 0) {
        fprintf(stderr, "\r%s\033[K", strbuf_str(&head));
        fflush(stderr);
        fp->shown = true;
        strbuf_reset(&fp->line);
        strbuf_addstr(&fp->line, strbuf_str(&head));
    }
    strbuf_free(&head);
    strbuf_free(&tail);
}

static void clear(struct file_progress *fp)
{
    if (fp->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        fp->shown = false;
    }
}

static void *watch(void *arg)
{
    struct file_progress *fp = arg;
    pthread_mutex_lock(&fp->lock);
    while (!fp->stop) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += FILE_PROGRESS_TICK_NS;
        if (until.tv_nsec >= 1000000000L)
            until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&fp->wake, &fp->lock, &until);
        double now = monotonic_seconds();
        if (!fp->stop && !fp->held && fp->name && now - fp->start >= FILE_PROGRESS_AFTER)
            draw(fp, now);
    }
    pthread_mutex_unlock(&fp->lock);
    return NULL;
}

void file_progress_start(struct file_progress *fp, const char *cmd)
{
    *fp = (struct file_progress){.cmd = cmd, .size = -1};
    if (!isatty(STDERR_FILENO))
        return;
    fp->start = fp->since = monotonic_seconds();
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&fp->wake, &attr);
    pthread_condattr_destroy(&attr);
    pthread_mutex_init(&fp->lock, NULL);
    if (pthread_create(&fp->thread, NULL, watch, fp) != 0) {
        /* No thread to be had: the run goes on without the line. */
        pthread_cond_destroy(&fp->wake);
        pthread_mutex_destroy(&fp->lock);
        return;
    }
    fp->on = true;
}

void file_progress_file(struct file_progress *fp, const char *path, const char *name,
                        size_t done)
{
    if (!fp->on)
        return;
    struct stat st;
    long long size = path && strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode)
                         ? (long long)st.st_size
                         : -1;
    pthread_mutex_lock(&fp->lock);
    fp->name = path ? name : NULL;
    fp->size = size;
    fp->done = done;
    fp->since = monotonic_seconds();
    pthread_mutex_unlock(&fp->lock);
}

void file_progress_hold(struct file_progress *fp)
{
    if (!fp->on)
        return;
    pthread_mutex_lock(&fp->lock);
    clear(fp);
    fp->held = true;
    pthread_mutex_unlock(&fp->lock);
}

void file_progress_release(struct file_progress *fp)
{
    if (!fp->on)
        return;
    pthread_mutex_lock(&fp->lock);
    fp->held = false;
    pthread_mutex_unlock(&fp->lock);
}

void file_progress_stop(struct file_progress *fp)
{
    if (!fp->on)
        return;
    pthread_mutex_lock(&fp->lock);
    fp->stop = true;
    pthread_cond_signal(&fp->wake);
    pthread_mutex_unlock(&fp->lock);
    pthread_join(fp->thread, NULL);
    clear(fp);
    pthread_cond_destroy(&fp->wake);
    pthread_mutex_destroy(&fp->lock);
    strbuf_free(&fp->line);
    fp->on = false;
}
