/* harness: see harness.h. */
#define _GNU_SOURCE
#include "run/harness.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/sha256.h"
#include "base/xalloc.h"
#include "run/harness_driver.h"

extern char **environ;

/* ---- bytes with escapes ------------------------------------------------- */

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

bool harness_parse_bytes(const char *text, struct strbuf *out)
{
    for (const char *p = text; *p; p++) {
        if (*p != '\\') {
            strbuf_addch(out, *p);
            continue;
        }
        p++;
        switch (*p) {
        case 'n': strbuf_addch(out, '\n'); break;
        case 't': strbuf_addch(out, '\t'); break;
        case 'r': strbuf_addch(out, '\r'); break;
        case '\\': strbuf_addch(out, '\\'); break;
        case '"': strbuf_addch(out, '"'); break;
        case '\'': strbuf_addch(out, '\''); break;
        case 'x': {
            int hi = hex_digit(p[1]), lo = hi < 0 ? -1 : hex_digit(p[2]);
            if (hi < 0)
                return false;
            if (lo < 0) {
                strbuf_addch(out, (char)hi);
                p += 1;
            } else {
                strbuf_addch(out, (char)(hi * 16 + lo));
                p += 2;
            }
            break;
        }
        default:
            if (*p >= '0' && *p <= '7') {
                int v = 0, n = 0;
                while (n < 3 && p[n] >= '0' && p[n] <= '7')
                    v = v * 8 + (p[n++] - '0');
                if (v > 255)
                    return false;
                strbuf_addch(out, (char)v);
                p += n - 1;
                break;
            }
            return false;
        }
    }
    return true;
}

/* ---- building ----------------------------------------------------------- */

char *harness_cache_dir(void)
{
    struct strbuf dir = STRBUF_INIT;
    const char *v = getenv("KPATH_HARNESS_CACHE");
    if (v && *v) {
        strbuf_addstr(&dir, v);
    } else if ((v = getenv("XDG_CACHE_HOME")) && *v == '/') {
        strbuf_addf(&dir, "%s/kpath/harness", v);
    } else if ((v = getenv("HOME")) && *v == '/') {
        strbuf_addf(&dir, "%s/.cache/kpath/harness", v);
    } else {
        strbuf_addf(&dir, "/tmp/kpath-harness-%ld", (long)getuid());
    }
    return strbuf_detach(&dir, NULL);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* mkdir -p */
static bool make_dirs(const char *path)
{
    char *p = xstrdup(path);
    bool ok = true;
    for (char *s = p + 1; ok; s++) {
        if (*s == '/' || !*s) {
            char c = *s;
            *s = '\0';
            ok = mkdir(p, 0700) == 0 || errno == EEXIST;
            *s = c;
            if (!c)
                break;
        }
    }
    free(p);
    return ok;
}

static bool read_whole(const char *path, struct strbuf *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        strbuf_add(out, buf, n);
    bool ok = !ferror(f);
    fclose(f);
    return ok;
}

static bool write_whole(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

/* Run argv with stdout and stderr appended to `log`; its exit status, or -1. */
static int run_tool(char *const *argv, const char *log)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (err != 0) {
        errno = err;
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The first lines of a compiler's log, for a diagnostic. */
static void add_log_head(struct strbuf *msg, const char *log)
{
    struct strbuf text = STRBUF_INIT;
    if (read_whole(log, &text) && text.len) {
        size_t lines = 0, i = 0;
        for (; i < text.len && lines < 8; i++)
            lines += text.data[i] == '\n';
        strbuf_addstr(msg, ":\n");
        strbuf_add(msg, text.data, i);
    }
    strbuf_free(&text);
}

static void add_words(char ***argv, size_t *n, const char *text)
{
    if (!text)
        return;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        const char *e = p;
        while (*e && *e != ' ' && *e != '\t')
            e++;
        *argv = xrealloc(*argv, (*n + 2) * sizeof **argv);
        (*argv)[(*n)++] = xstrndup(p, (size_t)(e - p));
        (*argv)[*n] = NULL;
        p = e;
    }
}

static void add_arg(char ***argv, size_t *n, const char *s)
{
    *argv = xrealloc(*argv, (*n + 2) * sizeof **argv);
    (*argv)[(*n)++] = xstrdup(s);
    (*argv)[*n] = NULL;
}

static void free_argv(char **argv, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(argv[i]);
    free(argv);
}

#define HARNESS_CC "clang"
#define HARNESS_OPT "-O1 -fno-inline -g0"

bool harness_build(const struct harness_spec *spec, struct harness_program *out,
                   struct diag_list *diags)
{
    memset(out, 0, sizeof *out);
    bool shared = ends_with(spec->harness, ".so");
    const char *coverage = spec->edges ? "-fsanitize-coverage=edge,trace-pc-guard,pc-table"
                                       : "-fsanitize-coverage=func,trace-pc-guard,pc-table";
    /* The sources: the harness (unless loaded) and the extra ones, by
     * absolute path, with their contents in the key. */
    size_t nsrc = (shared ? 0 : 1) + spec->nsources;
    char **src = xcalloc(nsrc + 1, sizeof *src);
    struct sha256 key;
    sha256_init(&key);
    const char *driver = harness_driver_source();
    sha256_update(&key, driver, strlen(driver) + 1);
    sha256_update(&key, HARNESS_OPT, sizeof HARNESS_OPT);
    sha256_update(&key, coverage, strlen(coverage) + 1);
    sha256_update(&key, shared ? "so" : "c", shared ? 3 : 2);
    if (spec->cflags)
        sha256_update(&key, spec->cflags, strlen(spec->cflags));
    sha256_update(&key, "", 1);
    bool ok = true;
    for (size_t i = 0; ok && i < nsrc; i++) {
        const char *given = !shared && i == 0 ? spec->harness : spec->sources[i - !shared];
        char real[PATH_MAX];
        struct strbuf text = STRBUF_INIT;
        if (!realpath(given, real) || !read_whole(real, &text)) {
            diag_add(diags, DIAG_ERROR, given, 0, 0, "cannot read the harness source: %s",
                     strerror(errno));
            ok = false;
        } else {
            src[i] = xstrdup(real);
            sha256_update(&key, real, strlen(real) + 1);
            sha256_update(&key, text.data ? text.data : "", text.len);
            sha256_update(&key, "", 1);
        }
        strbuf_free(&text);
    }
    char real_so[PATH_MAX];
    if (ok && shared && !realpath(spec->harness, real_so)) {
        diag_add(diags, DIAG_ERROR, spec->harness, 0, 0, "cannot read the harness: %s",
                 strerror(errno));
        ok = false;
    }
    if (!ok) {
        free_argv(src, nsrc);
        return false;
    }
    uint8_t digest[SHA256_DIGEST_SIZE];
    char hex[SHA256_HEX_SIZE];
    sha256_final(&key, digest);
    sha256_to_hex(digest, hex);
    char *cache = spec->cache_dir ? xstrdup(spec->cache_dir) : harness_cache_dir();
    struct strbuf dir = STRBUF_INIT, exe = STRBUF_INIT;
    strbuf_addf(&dir, "%s/%.32s", cache, hex);
    strbuf_addf(&exe, "%s/harness", dir.data);
    if (access(exe.data, X_OK) != 0) {
        /* Build in a directory of our own, then rename it into place: two
         * kpaths building the same harness never see half a build. */
        struct strbuf tmp = STRBUF_INIT, path = STRBUF_INIT, log = STRBUF_INIT;
        strbuf_addf(&tmp, "%s/tmp.XXXXXX", cache);
        ok = make_dirs(cache) && mkdtemp(tmp.data) != NULL;
        if (!ok)
            diag_add(diags, DIAG_ERROR, NULL, 0, 0, "cannot make the harness cache %s: %s",
                     cache, strerror(errno));
        strbuf_addf(&log, "%s/build.log", tmp.data);
        strbuf_addf(&path, "%s/driver.c", tmp.data);
        if (ok && !write_whole(path.data, driver, strlen(driver))) {
            diag_add(diags, DIAG_ERROR, path.data, 0, 0, "cannot write: %s", strerror(errno));
            ok = false;
        }
        /* The driver: no coverage, no user flags. */
        char **argv = NULL;
        size_t argc = 0;
        struct strbuf obj = STRBUF_INIT;
        strbuf_addf(&obj, "%s/driver.o", tmp.data);
        add_arg(&argv, &argc, HARNESS_CC);
        add_words(&argv, &argc, "-O2 -w -c -o");
        add_arg(&argv, &argc, obj.data);
        add_arg(&argv, &argc, path.data);
        int st = ok ? run_tool(argv, log.data) : 0;
        free_argv(argv, argc);
        argv = NULL;
        argc = 0;
        if (ok && st < 0) {
            diag_add(diags, DIAG_ERROR, NULL, 0, 0,
                     "cannot run %s to build the harness: %s (kpath run --harness needs clang: "
                     "apt-get install clang)",
                     HARNESS_CC, strerror(errno));
            ok = false;
        }
        /* Each source to an object with coverage, then one link. */
        for (size_t i = 0; ok && st == 0 && i < nsrc; i++) {
            struct strbuf o = STRBUF_INIT;
            strbuf_addf(&o, "%s/s%zu.o", tmp.data, i);
            add_arg(&argv, &argc, HARNESS_CC);
            add_words(&argv, &argc, HARNESS_OPT);
            add_arg(&argv, &argc, coverage);
            add_words(&argv, &argc, spec->cflags);
            add_words(&argv, &argc, "-c -o");
            add_arg(&argv, &argc, o.data);
            add_arg(&argv, &argc, src[i]);
            st = run_tool(argv, log.data);
            free_argv(argv, argc);
            argv = NULL;
            argc = 0;
            strbuf_free(&o);
        }
        if (ok && st == 0) {
            struct strbuf target = STRBUF_INIT;
            strbuf_addf(&target, "%s/harness", tmp.data);
            add_arg(&argv, &argc, HARNESS_CC);
            add_words(&argv, &argc, spec->cflags);
            /* One argument each: the cache may lie under a path with blanks. */
            for (size_t i = 0; i < nsrc; i++) {
                struct strbuf o = STRBUF_INIT;
                strbuf_addf(&o, "%s/s%zu.o", tmp.data, i);
                add_arg(&argv, &argc, o.data);
                strbuf_free(&o);
            }
            add_arg(&argv, &argc, obj.data);
            /* A loaded library's guards call the driver's callbacks. */
            if (shared)
                add_arg(&argv, &argc, "-rdynamic");
            add_words(&argv, &argc, "-ldl -lm -o");
            add_arg(&argv, &argc, target.data);
            st = run_tool(argv, log.data);
            free_argv(argv, argc);
            strbuf_free(&target);
        }
        if (ok && st != 0) {
            struct strbuf msg = STRBUF_INIT;
            strbuf_addf(&msg, "%s could not build the harness (exit %d)", HARNESS_CC, st);
            add_log_head(&msg, log.data);
            diag_add(diags, DIAG_ERROR, spec->harness, 0, 0, "%s", msg.data);
            strbuf_free(&msg);
            ok = false;
        }
        if (ok && rename(tmp.data, dir.data) != 0 && access(exe.data, X_OK) != 0) {
            diag_add(diags, DIAG_ERROR, dir.data, 0, 0, "cannot put the harness in the cache: %s",
                     strerror(errno));
            ok = false;
        }
        /* What is left of tmp (a failed build, or another kpath won the rename). */
        struct stat sb;
        if (stat(tmp.data, &sb) == 0) {
            char *rm[] = {"rm", "-rf", tmp.data, NULL};
            run_tool(rm, "/dev/null");
        }
        strbuf_free(&obj);
        strbuf_free(&tmp);
        strbuf_free(&path);
        strbuf_free(&log);
    }
    if (ok) {
        out->argv[0] = strbuf_detach(&exe, NULL);
        if (shared)
            out->argv[1] = xstrdup(real_so);
    }
    strbuf_free(&exe);
    strbuf_free(&dir);
    free(cache);
    free_argv(src, nsrc);
    return ok;
}

void harness_program_free(struct harness_program *p)
{
    for (size_t i = 0; i < 3; i++) {
        free(p->argv[i]);
        p->argv[i] = NULL;
    }
}

/* ---- symbols ------------------------------------------------------------ */

struct symbol {
    uint64_t value, size;
    char *name;       /* owned: without a ".suffix" (.cold, .llvm.N, .constprop.N) */
    const char *file; /* the STT_FILE before a local symbol, or NULL; points into the strtab copy */
    bool local;
};

struct symbols {
    struct symbol *v;
    size_t n;
    struct strbuf image; /* the file */
};

static int compare_symbols(const void *a, const void *b)
{
    const struct symbol *x = a, *y = b;
    return (x->value > y->value) - (x->value < y->value);
}

/* The function symbols of an ELF64 file (.symtab, else .dynsym); false when
 * it is no such file. */
static bool symbols_read(const char *path, struct symbols *s)
{
    memset(s, 0, sizeof s[0]);
    if (!read_whole(path, &s->image))
        return false;
    const unsigned char *img = (const unsigned char *)s->image.data;
    size_t len = s->image.len;
    if (len < sizeof(Elf64_Ehdr) || memcmp(img, ELFMAG, SELFMAG) != 0 ||
        img[EI_CLASS] != ELFCLASS64)
        return false;
    Elf64_Ehdr eh;
    memcpy(&eh, img, sizeof eh);
    if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > len ||
        (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > len - eh.e_shoff)
        return false;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh.e_shoff);
    int pick = -1;
    for (int want = SHT_SYMTAB; pick < 0; want = SHT_DYNSYM) {
        for (int i = 0; i < eh.e_shnum && pick < 0; i++)
            if (sh[i].sh_type == (uint32_t)want)
                pick = i;
        if (want == SHT_DYNSYM)
            break;
    }
    if (pick < 0)
        return false;
    const Elf64_Shdr *sym = &sh[pick];
    if (sym->sh_link >= eh.e_shnum)
        return false;
    const Elf64_Shdr *str = &sh[sym->sh_link];
    if (sym->sh_offset > len || sym->sh_size > len - sym->sh_offset || str->sh_offset > len ||
        str->sh_size > len - str->sh_offset || str->sh_size == 0)
        return false;
    const char *strtab = (const char *)img + str->sh_offset;
    size_t nsyms = sym->sh_size / sizeof(Elf64_Sym);
    s->v = xcalloc(nsyms + 1, sizeof *s->v);
    const char *file = NULL;
    for (size_t i = 0; i < nsyms; i++) {
        Elf64_Sym e;
        memcpy(&e, img + sym->sh_offset + i * sizeof e, sizeof e);
        if (e.st_name >= str->sh_size)
            continue;
        const char *name = strtab + e.st_name;
        size_t max = str->sh_size - e.st_name;
        if (strnlen(name, max) == max)
            continue;
        int type = ELF64_ST_TYPE(e.st_info);
        if (type == STT_FILE) {
            file = name;
            continue;
        }
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || e.st_shndx == SHN_UNDEF || !*name)
            continue;
        struct symbol *x = &s->v[s->n++];
        x->value = e.st_value;
        x->size = e.st_size;
        const char *dot = strchr(name + 1, '.');
        x->name = dot ? xstrndup(name, (size_t)(dot - name)) : xstrdup(name);
        x->local = ELF64_ST_BIND(e.st_info) == STB_LOCAL;
        x->file = x->local ? file : NULL;
    }
    qsort(s->v, s->n, sizeof *s->v, compare_symbols);
    return true;
}

static void symbols_free(struct symbols *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i].name);
    free(s->v);
    strbuf_free(&s->image);
}

/* The symbol whose range holds `off` (the last one starting at or before it
 * when sizes are missing), or NULL. */
static const struct symbol *symbols_find(const struct symbols *s, uint64_t off)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->v[mid].value <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const struct symbol *x = &s->v[lo - 1];
    /* Several symbols at one address (aliases): any with a size that holds it. */
    if (x->size && off >= x->value + x->size)
        return NULL;
    return x;
}

/* Does another function symbol of `s` have the same name at another address? */
static bool name_shared(const struct symbols *s, const struct symbol *x)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].value != x->value && strcmp(s->v[i].name, x->name) == 0)
            return true;
    return false;
}

bool harness_names(const void *shm, size_t size, const char *exe, bool edges, char ***names_out,
                   uint32_t *nguards_out, struct diag_list *diags)
{
    *names_out = NULL;
    *nguards_out = 0;
    struct harness_shm h;
    if (size < sizeof h) {
        diag_add(diags, DIAG_ERROR, exe, 0, 0, "the harness published no table of guards");
        return false;
    }
    memcpy(&h, shm, sizeof h);
    uint64_t need = sizeof h + (uint64_t)h.nguards * (sizeof(uint32_t) + sizeof(struct harness_entry));
    if (h.magic != HARNESS_MAGIC || need > size) {
        diag_add(diags, DIAG_ERROR, exe, 0, 0, "the harness's table of guards is malformed");
        return false;
    }
    const char *base = shm;
    const struct harness_entry *entries =
        (const void *)(base + sizeof h + (size_t)h.nguards * sizeof(uint32_t));
    /* The module names, each checked to end inside the table. */
    const char **modules = xcalloc((size_t)h.nmodules + 1, sizeof *modules);
    size_t at = (size_t)need;
    for (uint32_t i = 0; i < h.nmodules; i++) {
        const char *m = base + at;
        size_t max = size - at;
        size_t n = at < size ? strnlen(m, max) : max;
        if (at >= size || n == max) {
            free(modules);
            diag_add(diags, DIAG_ERROR, exe, 0, 0, "the harness's table of guards is malformed");
            return false;
        }
        modules[i] = m;
        at += n + 1;
    }
    struct symbols *syms = xcalloc((size_t)h.nmodules + 1, sizeof *syms);
    bool *have = xcalloc((size_t)h.nmodules + 1, sizeof *have);
    for (uint32_t i = 0; i < h.nmodules; i++)
        have[i] = symbols_read(*modules[i] ? modules[i] : exe, &syms[i]);
    char **names = xcalloc((size_t)h.nguards + 1, sizeof *names);
    uint32_t ordinal = 0;
    const struct symbol *current = NULL;
    for (uint32_t g = 1; g <= h.nguards; g++) {
        struct harness_entry e;
        memcpy(&e, &entries[g - 1], sizeof e);
        bool entry = e.flags & 1;
        if (!entry && !edges)
            continue;
        struct strbuf name = STRBUF_INIT;
        const struct symbol *x = e.module < h.nmodules && have[e.module]
                                     ? symbols_find(&syms[e.module], e.offset)
                                     : NULL;
        if (entry || x != current)
            ordinal = 0;
        current = x;
        if (x) {
            strbuf_addstr(&name, x->name);
            if (x->local && x->file && name_shared(&syms[e.module], x))
                strbuf_addf(&name, "@%s", x->file);
        } else {
            strbuf_addf(&name, "0x%llx", (unsigned long long)e.offset);
        }
        struct strbuf feature = STRBUF_INIT;
        if (entry)
            strbuf_addf(&feature, "fn:%s", name.data);
        else
            strbuf_addf(&feature, "edge:%s:%u", name.data, ordinal);
        ordinal++;
        names[g] = strbuf_detach(&feature, NULL);
        strbuf_free(&name);
    }
    for (uint32_t i = 0; i < h.nmodules; i++)
        if (have[i])
            symbols_free(&syms[i]);
        else
            strbuf_free(&syms[i].image);
    free(syms);
    free(have);
    free(modules);
    *names_out = names;
    *nguards_out = h.nguards;
    return true;
}

void harness_names_free(char **names, uint32_t nguards)
{
    if (!names)
        return;
    for (uint32_t g = 0; g <= nguards; g++)
        free(names[g]);
    free(names);
}
