/* picture: see picture.h. */
#include "graph/picture.h"


#include "base/utf8.h"

#define UNIT 8       /* px per unit (a character of a label) */
#define LAYER_H 56   /* px per layer */
#define MARGIN 16
#define RADIUS 8     /* a synthetic node's circle */

static void add_quoted(struct strbuf *out, const char *s)
{
    strbuf_addch(out, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            strbuf_addch(out, '\\');
        strbuf_addch(out, *s);
    }
    strbuf_addch(out, '"');
}

static void add_xml(struct strbuf *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        switch (s[i]) {
        case '<': strbuf_addstr(out, "&lt;"); break;
        case '>': strbuf_addstr(out, "&gt;"); break;
        case '&': strbuf_addstr(out, "&amp;"); break;
        case '"': strbuf_addstr(out, "&quot;"); break;
        default: strbuf_addch(out, s[i]);
        }
    }
}

static bool shows(const bool *shown, uint32_t id)
{
    return !shown || shown[id];
}

void picture_dot(const struct graph *g, const bool *shown, struct strbuf *out)
{
    struct strbuf label = STRBUF_INIT;
    strbuf_addstr(out, "digraph grammar {\n"
                       "  node [fontname=\"Helvetica\", fontsize=12];\n"
                       "  edge [arrowsize=0.6];\n");
    for (uint32_t i = 0; i < g->nnodes; i++) {
        if (!shows(shown, i))
            continue;
        strbuf_reset(&label);
        bool symbolic = node_kind_is_symbolic(g->nodes[i].kind);
        if (symbolic)
            graph_node_name(g, i, &label);
        else
            graph_node_label(g, i, &label);
        strbuf_addf(out, "  n%u [label=", i);
        add_quoted(out, strbuf_str(&label));
        strbuf_addstr(out, symbolic ? ", shape=plaintext];\n"
                                    : ", shape=circle, width=0.25, fixedsize=true, fontsize=9];\n");
    }
    for (uint32_t i = 0; i < g->nnodes; i++) {
        if (!shows(shown, i))
            continue;
        for (uint32_t c = 0; c < g->nodes[i].nchildren; c++) {
            uint32_t child = graph_children(g, i)[c];
            if (!shows(shown, child))
                continue;
            strbuf_addf(out, "  n%u -> n%u%s;\n", i, child,
                        layout_is_back_edge(g, i, child) ? " [style=dashed]" : "");
        }
    }
    strbuf_addstr(out, "}\n");
    strbuf_free(&label);
}

static uint32_t digits(uint32_t v)
{
    uint32_t d = 1;
    for (; v >= 10; v /= 10)
        d++;
    return d;
}

void picture_widths(const struct graph *g, uint32_t *widths)
{
    struct strbuf name = STRBUF_INIT;
    for (uint32_t i = 0; i < g->nnodes; i++) {
        if (node_kind_is_symbolic(g->nodes[i].kind)) {
            strbuf_reset(&name);
            graph_node_name(g, i, &name);
            widths[i] = (uint32_t)utf8_length(name.data, name.len);
        } else {
            widths[i] = 3 + digits(i); /* the circle, a blank, the id */
        }
    }
    strbuf_free(&name);
}

/* Where edges meet node id, in px: the label's centre, or the circle's. */
static double anchor_x(const struct graph *g, const struct graph_layout *l, uint32_t id)
{
    if (node_kind_is_symbolic(g->nodes[id].kind))
        return MARGIN + (l->x[id] + l->w[id] / 2.0) * UNIT;
    return MARGIN + l->x[id] * UNIT + RADIUS;
}

static double anchor_y(const struct graph_layout *l, uint32_t id)
{
    return MARGIN + RADIUS + (double)l->layer[id] * LAYER_H;
}

void picture_svg(const struct graph *g, const struct graph_layout *l, struct strbuf *out)
{
    struct strbuf label = STRBUF_INIT;
    unsigned W = 2 * MARGIN + l->width * UNIT;
    unsigned H = 2 * MARGIN + 2 * RADIUS + (l->nlayers ? l->nlayers - 1 : 0) * LAYER_H;
    strbuf_addf(out,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
                "viewBox=\"0 0 %u %u\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" "
                "font-size=\"13\">\n",
                W, H, W, H);
    strbuf_addstr(out,
                  "<defs><marker id=\"arrow\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" "
                  "markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\">"
                  "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"#555\"/></marker></defs>\n");
    strbuf_addf(out, "<rect width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n", W, H);
    /* edges first, so the nodes are drawn over them */
    for (uint32_t i = 0; i < g->nnodes; i++) {
        if (!l->shown[i])
            continue;
        double x1 = anchor_x(g, l, i), y1 = anchor_y(l, i) + RADIUS;
        for (uint32_t c = 0; c < g->nodes[i].nchildren; c++) {
            uint32_t child = graph_children(g, i)[c];
            if (!l->shown[child])
                continue;
            double x2 = anchor_x(g, l, child), y2 = anchor_y(l, child) - RADIUS;
            if (!layout_is_back_edge(g, i, child)) {
                strbuf_addf(out,
                            "<line class=\"tree\" data-from=\"%u\" data-to=\"%u\" x1=\"%.1f\" "
                            "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\" "
                            "marker-end=\"url(#arrow)\"/>\n",
                            i, child, x1, y1, x2, y2);
            } else {
                /* up and around: out of the reference's right side, into the
                 * target's right side */
                double sx = x1 + RADIUS, sy = anchor_y(l, i);
                double ex = anchor_x(g, l, child) + RADIUS, ey = anchor_y(l, child);
                strbuf_addf(out,
                            "<path class=\"back\" data-from=\"%u\" data-to=\"%u\" d=\"M%.1f,%.1f "
                            "C%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"none\" stroke=\"#888\" "
                            "stroke-dasharray=\"4 3\" marker-end=\"url(#arrow)\"/>\n",
                            i, child, sx, sy, sx + 3 * UNIT, sy - LAYER_H / 2.0, ex + 3 * UNIT,
                            ey + LAYER_H / 2.0, ex, ey);
            }
        }
    }
    for (uint32_t i = 0; i < g->nnodes; i++) {
        if (!l->shown[i])
            continue;
        double cx = anchor_x(g, l, i), cy = anchor_y(l, i);
        strbuf_reset(&label);
        if (node_kind_is_symbolic(g->nodes[i].kind)) {
            graph_node_name(g, i, &label);
            strbuf_addf(out,
                        "<text class=\"node\" data-id=\"%u\" x=\"%.1f\" y=\"%.1f\" "
                        "text-anchor=\"middle\" fill=\"#000\">",
                        i, cx, cy + 4);
            add_xml(out, label.data, label.len);
            strbuf_addstr(out, "</text>\n");
        } else {
            graph_node_label(g, i, &label);
            strbuf_addf(out,
                        "<g class=\"node synthetic\" data-id=\"%u\"><circle cx=\"%.1f\" cy=\"%.1f\" "
                        "r=\"%d\" fill=\"#fff\" stroke=\"#555\"/><text x=\"%.1f\" y=\"%.1f\" "
                        "text-anchor=\"middle\" font-size=\"10\" fill=\"#555\">",
                        i, cx, cy, RADIUS, cx, cy + 3.5);
            add_xml(out, label.data, label.len);
            strbuf_addf(out, "</text><text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#555\">%u"
                             "</text></g>\n",
                        cx + RADIUS + 2, cy + 3.5, i);
        }
    }
    strbuf_addstr(out, "</svg>\n");
    strbuf_free(&label);
}
