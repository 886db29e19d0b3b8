/* theme: see theme.h. */
#include "theme.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

#define ELEMENT_NAME(id, name, fg, bg, attrs, mono) name,
const char *const theme_element_names[] = {THEME_ELEMENTS(ELEMENT_NAME)};
#undef ELEMENT_NAME

static const char *const color_names[16] = {
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
    "bright-black", "bright-red", "bright-green", "bright-yellow",
    "bright-blue", "bright-magenta", "bright-cyan", "bright-white",
};

/* xterm's default first sixteen colours. */
static const uint32_t base16[16] = {
    0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
    0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};

static bool parse_color(const char *s, struct theme_color *c)
{
    memset(c, 0, sizeof *c);
    if (strcmp(s, "default") == 0) {
        c->kind = COLOR_KIND_DEFAULT;
        return true;
    }
    for (int i = 0; i < 16; i++) {
        /* "brightred" is accepted for "bright-red" too */
        bool dashless = strncmp(color_names[i], "bright-", 7) == 0 &&
                        strncmp(s, "bright", 6) == 0 && strcmp(s + 6, color_names[i] + 7) == 0;
        if (strcmp(s, color_names[i]) == 0 || dashless) {
            c->kind = COLOR_KIND_INDEX;
            c->index = i;
            return true;
        }
    }
    if (s[0] == '#') {
        if (strlen(s) != 7)
            return false;
        unsigned v = 0;
        for (int i = 1; i < 7; i++) {
            char ch = s[i];
            int d = ch >= '0' && ch <= '9'   ? ch - '0'
                    : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                    : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                             : -1;
            if (d < 0)
                return false;
            v = v * 16 + (unsigned)d;
        }
        c->kind = COLOR_KIND_RGB;
        c->r = (uint8_t)(v >> 16);
        c->g = (uint8_t)(v >> 8);
        c->b = (uint8_t)v;
        return true;
    }
    char *end;
    long n = strtol(s, &end, 10);
    if (*s && !*end && n >= 0 && n <= 255) {
        c->kind = COLOR_KIND_INDEX;
        c->index = (int)n;
        return true;
    }
    return false;
}

static bool parse_attrs(const char *s, unsigned *out)
{
    static const struct {
        const char *name;
        unsigned bit;
    } names[] = {
        {"normal", 0}, {"none", 0}, {"bold", ATTR_BOLD}, {"dim", ATTR_DIM},
        {"underline", ATTR_UNDERLINE}, {"reverse", ATTR_REVERSE}, {"italic", ATTR_ITALIC},
        {"blink", ATTR_BLINK}, {"standout", ATTR_STANDOUT},
    };
    unsigned attrs = 0;
    const char *p = s;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        bool found = false;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strlen(names[i].name) == len && strncmp(names[i].name, p, len) == 0) {
                attrs |= names[i].bit;
                found = true;
            }
        if (!found)
            return false;
        p += len;
        if (*p == ',')
            p++;
    }
    *out = attrs;
    return true;
}

#define BUILTIN_ENTRY(id, name, fg, bg, attrs, mono) {fg, bg, attrs, mono},
static const struct {
    const char *fg, *bg, *attrs, *mono;
} builtin[] = {THEME_ELEMENTS(BUILTIN_ENTRY)};
#undef BUILTIN_ENTRY

void theme_builtin(struct theme *t)
{
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "default");
    for (int i = 0; i < NELEMENTS; i++) {
        parse_color(builtin[i].fg, &t->el[i].fg);
        parse_color(builtin[i].bg, &t->el[i].bg);
        parse_attrs(builtin[i].attrs, &t->el[i].attrs);
        parse_attrs(builtin[i].mono, &t->el[i].mono);
    }
}

static int find_element(const char *name)
{
    for (int i = 0; i < NELEMENTS; i++)
        if (strcmp(theme_element_names[i], name) == 0)
            return i;
    return -1;
}

static void parse_theme(struct theme *t, const char *file, char *text, struct diag_list *diags)
{
    uint32_t line = 0;
    for (char *p = text; *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        line++;
        /* A word starting with '#' begins a comment, unless it is a colour. */
        char *words[8];
        int n = 0;
        for (char *tok = strtok(p, " \t\r"); tok && n < 8; tok = strtok(NULL, " \t\r")) {
            if (tok[0] == '#' && !(strlen(tok) == 7 && strspn(tok + 1, "0123456789abcdefABCDEF") == 6))
                break;
            words[n++] = tok;
        }
        p = nl ? nl + 1 : p + strlen(p);
        if (n == 0)
            continue;
        int el = n > 1 ? find_element(words[1]) : -1;
        if (strcmp(words[0], "color") == 0 && (n == 4 || n == 5)) {
            struct theme_color fg, bg;
            unsigned attrs = 0;
            if (el < 0)
                diag_add(diags, DIAG_WARNING, file, line, 1, "unknown element '%s'", words[1]);
            else if (!parse_color(words[2], &fg) || !parse_color(words[3], &bg))
                diag_add(diags, DIAG_WARNING, file, line, 1, "bad colour '%s'",
                         parse_color(words[2], &fg) ? words[3] : words[2]);
            else if (n == 5 && !parse_attrs(words[4], &attrs))
                diag_add(diags, DIAG_WARNING, file, line, 1, "bad attributes '%s'", words[4]);
            else {
                t->el[el].fg = fg;
                t->el[el].bg = bg;
                t->el[el].attrs = attrs;
            }
        } else if (strcmp(words[0], "mono") == 0 && n == 3) {
            unsigned attrs;
            if (el < 0)
                diag_add(diags, DIAG_WARNING, file, line, 1, "unknown element '%s'", words[1]);
            else if (!parse_attrs(words[2], &attrs))
                diag_add(diags, DIAG_WARNING, file, line, 1, "bad attributes '%s'", words[2]);
            else
                t->el[el].mono = attrs;
        } else {
            diag_add(diags, DIAG_WARNING, file, line, 1,
                     "expected 'color ELEMENT FG BG [ATTRS]' or 'mono ELEMENT ATTRS'");
        }
    }
}

/* The directories themes are looked for in, in order. */
static int theme_dirs(const char *exe_dir, char dirs[5][4096])
{
    int n = 0;
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(dirs[n++], 4096, "%s/kpath/themes", xdg);
    else if (home && *home)
        snprintf(dirs[n++], 4096, "%s/.config/kpath/themes", home);
    if (exe_dir) { /* build/kpath and build/san/kpath in a source tree */
        snprintf(dirs[n++], 4096, "%s/../themes", exe_dir);
        snprintf(dirs[n++], 4096, "%s/../../themes", exe_dir);
    }
    snprintf(dirs[n++], 4096, "%s/themes", KPATH_DATADIR);
    return n;
}

/* The text of a regular file; NULL when there is none (a directory or a
 * device is no theme, and reading one would hang or give nothing). */
static char *slurp(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct strbuf sb = STRBUF_INIT;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0 && sb.len < (1u << 20))
        strbuf_add(&sb, buf, n);
    fclose(f);
    if (!sb.data)
        strbuf_addstr(&sb, "");
    return strbuf_detach(&sb, NULL);
}

bool theme_load(struct theme *t, const char *name, const char *exe_dir, struct diag_list *diags)
{
    theme_builtin(t);
    char *text = NULL;
    struct strbuf path = STRBUF_INIT;
    if (strchr(name, '/')) {
        strbuf_addstr(&path, name);
        text = slurp(path.data);
    } else {
        char dirs[5][4096];
        int n = theme_dirs(exe_dir, dirs);
        for (int i = 0; i < n && !text; i++) {
            strbuf_reset(&path);
            strbuf_addf(&path, "%s/%s.theme", dirs[i], name);
            text = slurp(path.data);
        }
    }
    if (!text) {
        struct stat st;
        bool is_dir = strchr(name, '/') && stat(name, &st) == 0 && S_ISDIR(st.st_mode);
        strbuf_free(&path);
        if (strcmp(name, "default") == 0)
            return true; /* the built-in one is the default theme */
        if (is_dir)
            diag_add(diags, DIAG_ERROR, NULL, 0, 0, "%s is a directory, not a theme file", name);
        else
            diag_add(diags, DIAG_ERROR, NULL, 0, 0, "no theme '%s'", name);
        return false;
    }
    const char *base = strrchr(name, '/');
    snprintf(t->name, sizeof t->name, "%s", base ? base + 1 : name);
    char *dot = strrchr(t->name, '.');
    if (dot && strcmp(dot, ".theme") == 0)
        *dot = '\0';
    parse_theme(t, path.data, text, diags);
    strbuf_free(&path);
    free(text);
    return true;
}

char **theme_list(const char *exe_dir)
{
    char dirs[5][4096];
    int n = theme_dirs(exe_dir, dirs);
    char **names = NULL;
    size_t len = 0, cap = 0;
    for (int i = 0; i < n; i++) {
        DIR *d = opendir(dirs[i]);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            size_t l = strlen(e->d_name);
            if (l <= 6 || strcmp(e->d_name + l - 6, ".theme") != 0)
                continue;
            char *nm = xstrndup(e->d_name, l - 6);
            bool dup = false;
            for (size_t j = 0; j < len; j++)
                dup |= strcmp(names[j], nm) == 0;
            if (dup) {
                free(nm);
                continue;
            }
            names = xgrow(names, &cap, len + 2, sizeof *names);
            names[len++] = nm;
        }
        closedir(d);
    }
    names = xgrow(names, &cap, len + 1, sizeof *names);
    names[len] = NULL;
    return names;
}

static uint32_t palette256(int i)
{
    if (i < 16)
        return base16[i];
    if (i < 232) {
        static const int steps[6] = {0, 95, 135, 175, 215, 255};
        int v = i - 16;
        return (uint32_t)steps[v / 36] << 16 | (uint32_t)steps[(v / 6) % 6] << 8 |
               (uint32_t)steps[v % 6];
    }
    int gray = 8 + (i - 232) * 10;
    return (uint32_t)gray << 16 | (uint32_t)gray << 8 | (uint32_t)gray;
}

uint32_t theme_rgb(const struct theme_color *c, uint32_t fallback)
{
    switch (c->kind) {
    case COLOR_KIND_INDEX: return palette256(c->index);
    case COLOR_KIND_RGB: return (uint32_t)c->r << 16 | (uint32_t)c->g << 8 | c->b;
    default: return fallback;
    }
}

static long distance(uint32_t a, uint32_t b)
{
    long dr = (long)(a >> 16 & 255) - (long)(b >> 16 & 255);
    long dg = (long)(a >> 8 & 255) - (long)(b >> 8 & 255);
    long db = (long)(a & 255) - (long)(b & 255);
    /* weighted a little towards green, as eyes are */
    return 3 * dr * dr + 4 * dg * dg + 2 * db * db;
}

static int nearest(uint32_t rgb, int from, int to)
{
    int best = from;
    long bestd = -1;
    for (int i = from; i < to; i++) {
        long d = distance(rgb, palette256(i));
        if (bestd < 0 || d < bestd) {
            best = i;
            bestd = d;
        }
    }
    return best;
}

int theme_downgrade(const struct theme_color *c, int ncolors)
{
    if (c->kind == COLOR_KIND_DEFAULT)
        return -1;
    if (c->kind == COLOR_KIND_INDEX && c->index < ncolors)
        return c->index;
    uint32_t rgb = theme_rgb(c, 0);
    if (ncolors >= 256)
        return nearest(rgb, 16, 256);
    if (ncolors >= 16)
        return nearest(rgb, 0, 16);
    if (c->kind == COLOR_KIND_INDEX && c->index < 16)
        return c->index - 8;
    return nearest(rgb, 0, 8);
}

bool theme_pair_readable(int fg, int bg)
{
    if (fg >= 0 && fg == bg)
        return false;
    return !(fg == 0 && bg < 0);
}

/* Black or white, whichever stands out on palette colour `bg`. */
static int contrasting(int bg)
{
    uint32_t rgb = palette256(bg);
    long lum = 2126L * (long)(rgb >> 16 & 255) + 7152L * (long)(rgb >> 8 & 255) + 722L * (long)(rgb & 255);
    return lum > 10000L * 110 ? 0 : 7;
}

struct theme_shown theme_show(const struct theme_style *s, int ncolors)
{
    struct theme_shown r = {theme_downgrade(&s->fg, ncolors), theme_downgrade(&s->bg, ncolors),
                            s->attrs, false};
    if (ncolors < 16 && s->fg.kind == COLOR_KIND_INDEX && s->fg.index >= 8 && s->fg.index < 16) {
        /* grey (8) stays black here, which the check below makes readable */
        if (s->fg.index != 8)
            r.attrs |= ATTR_BOLD;
    }
    if (!theme_pair_readable(r.fg, r.bg)) {
        r.adjusted = true;
        r.attrs |= ATTR_DIM;
        r.fg = r.bg < 0 ? -1 : contrasting(r.bg);
    }
    return r;
}
