/* The table's crossing and inside tests as plain loops (oprlab.table.kernels chooses them).
 *
 * numpy pays per call on the path search's tiny arrays (a fan of ~20 lines against ~180
 * edges); these loops do the same float arithmetic, each product and difference rounded on
 * its own, in the order oprlab.table.blockers writes it. Build with -ffp-contract=off (no
 * fused multiply-add) and no -ffast-math, so every double has numpy's bits. Buffers are
 * contiguous float64 (and bool for the answers), read through the buffer protocol: no numpy
 * headers are needed to build.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

/* Per-edge values of a fan test, kept on the stack for small edge sets. */
#define STACK_EDGES 256
/* Inches a fan's box and an edge's are grown by before fan() leaves the edge out (a crossing
 * by its products is a meeting far beyond round-off: coordinates of tens of inches, products
 * below -1e-12). */
#define FAN_MARGIN 1e-6

/* A C-contiguous buffer of `format` ("d" float64, "?" bool): a BufferError for a strided
 * array, a TypeError for another type (an int64 array must not be read as doubles). */
static int
get(PyObject *obj, Py_buffer *buf, const char *format, int writable, const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, buf, flags) < 0)
        return -1;
    if (buf->format == NULL || strcmp(buf->format, format) != 0) {
        PyErr_Format(PyExc_TypeError, "%s: format %s, expected %s", name,
                     buf->format ? buf->format : "B", format);
        PyBuffer_Release(buf);
        return -1;
    }
    return 0;
}

/* Buffers for `n` objects, each released again if a later one fails. */
static int
get_all(PyObject **objs, Py_buffer *bufs, int n, const char *names)
{
    for (int i = 0; i < n; i++) {
        int out = i == n - 1;
        if (get(objs[i], &bufs[i], out ? "?" : "d", out, names) < 0) {
            while (i--)
                PyBuffer_Release(&bufs[i]);
            return -1;
        }
    }
    return 0;
}

static int
check_len(Py_buffer *buf, Py_ssize_t doubles, const char *name)
{
    if (buf->len != doubles * (Py_ssize_t)sizeof(double)) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zd doubles", name,
                     buf->len, doubles);
        return -1;
    }
    return 0;
}

/* Each edge's numbers for the segments from (ax, ay): w = p - a, e = q - p and the side of a
 * from the edge, o3 = ey*wx - ex*wy; `edge` holds 5 doubles an edge. */
static void
edge_rows(double ax, double ay, const double *pp, const double *pq, Py_ssize_t m, double *edge)
{
    for (Py_ssize_t j = 0; j < m; j++) {
        double px = pp[2 * j], py = pp[2 * j + 1];
        double wx = px - ax, wy = py - ay;
        double ex = pq[2 * j] - px, ey = pq[2 * j + 1] - py;
        double *row = edge + 5 * j;
        row[0] = wx;
        row[1] = wy;
        row[2] = ex;
        row[3] = ey;
        row[4] = ey * wx - ex * wy; /* side of a from the edge */
    }
}

/* Whether each segment a -> b[i] (i < k) properly crosses any edge p[j] -> q[j] (j < m), as
 * blockers.crossed_from_numpy works it out: with d = b - a and edge_rows' numbers,
 * o1 = dx*wy - dy*wx, den = dx*ey - dy*ex, a pair crosses when both (o1 + den)*o1 and
 * (o3 - den)*o3 are below -1e-12. Only the edges whose box meets the fan's (every segment's
 * ends), each grown by FAN_MARGIN, are tested: a pair crossing by that test has each segment's
 * ends on either side of the other's line (products below -1e-12, far beyond round-off on a
 * table), so the segments meet and so do their boxes; the edges left out could only say "not
 * crossed". */
static void
fan(double ax, double ay, const double *pb, Py_ssize_t k, const double *pp, const double *pq,
    Py_ssize_t m, double *edge, char *hit)
{
    double lox = ax, hix = ax, loy = ay, hiy = ay;
    for (Py_ssize_t i = 0; i < k; i++) {
        double x = pb[2 * i], y = pb[2 * i + 1];
        lox = x < lox ? x : lox;
        hix = x > hix ? x : hix;
        loy = y < loy ? y : loy;
        hiy = y > hiy ? y : hiy;
    }
    lox -= FAN_MARGIN;
    loy -= FAN_MARGIN;
    hix += FAN_MARGIN;
    hiy += FAN_MARGIN;
    Py_ssize_t kept = 0;
    for (Py_ssize_t j = 0; j < m; j++) {
        double px = pp[2 * j], py = pp[2 * j + 1], qx = pq[2 * j], qy = pq[2 * j + 1];
        if ((px < lox && qx < lox) || (px > hix && qx > hix) || (py < loy && qy < loy)
            || (py > hiy && qy > hiy))
            continue;
        double wx = px - ax, wy = py - ay;
        double ex = qx - px, ey = qy - py;
        double *row = edge + 5 * kept++;
        row[0] = wx;
        row[1] = wy;
        row[2] = ex;
        row[3] = ey;
        row[4] = ey * wx - ex * wy; /* side of a from the edge */
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        double dx = pb[2 * i] - ax, dy = pb[2 * i + 1] - ay;
        char crossed = 0;
        for (Py_ssize_t j = 0; j < kept; j++) {
            const double *row = edge + 5 * j;
            double o1 = dx * row[1] - dy * row[0];
            double den = dx * row[3] - dy * row[2];
            double s1 = (o1 + den) * o1;
            if (!(s1 < -1e-12))
                continue;
            double o3 = row[4];
            double s3 = (o3 - den) * o3;
            if (s3 < -1e-12) {
                crossed = 1;
                break;
            }
        }
        hit[i] = crossed;
    }
}

/* The pairs of fan(): hit[i*m + j] whether segment a -> b[i] properly crosses edge j, every
 * pair tested (blockers.crossings' matrix, for the climb over elevated edges). */
static void
fan_pairs(double ax, double ay, const double *pb, Py_ssize_t k, const double *pp,
          const double *pq, Py_ssize_t m, double *edge, char *hit)
{
    edge_rows(ax, ay, pp, pq, m, edge);
    for (Py_ssize_t i = 0; i < k; i++) {
        double dx = pb[2 * i] - ax, dy = pb[2 * i + 1] - ay;
        char *out = hit + i * m;
        for (Py_ssize_t j = 0; j < m; j++) {
            const double *row = edge + 5 * j;
            double o1 = dx * row[1] - dy * row[0];
            double den = dx * row[3] - dy * row[2];
            double o3 = row[4];
            out[j] = (o1 + den) * o1 < -1e-12 && (o3 - den) * o3 < -1e-12;
        }
    }
}

/* Room for fan()'s five doubles an edge: `stack` (STACK_EDGES edges) when it is enough, else
 * the heap (freed by the caller when it is not `stack`); NULL with MemoryError set. */
static double *
edge_room(Py_ssize_t m, double *stack)
{
    if (m <= STACK_EDGES)
        return stack;
    double *edge = PyMem_Malloc(5 * (size_t)m * sizeof(double));
    if (edge == NULL)
        PyErr_NoMemory();
    return edge;
}

/* What crossed() and crossings() share: read the segments a -> b[i] and the edges
 * p[j] -> q[j] (`a` one point, a fan: each edge's side of it worked out once; or one a
 * segment), check the answer's room (a byte a segment, or with `pairs` a byte a segment and
 * edge) and run fan() or fan_pairs(). With `a` one a segment, blockers.crossings has
 * o3 = -(ex*wy - ey*wx): the same number up to the sign of a zero, which no product below
 * -1e-12 can see. */
static PyObject *
segments(PyObject *args, const char *name, int pairs)
{
    PyObject *objs[5];
    Py_buffer bufs[5];
    if (!PyArg_UnpackTuple(args, name, 5, 5, &objs[0], &objs[1], &objs[2], &objs[3], &objs[4])
        || get_all(objs, bufs, 5, name) < 0)
        return NULL;
    Py_buffer a = bufs[0], b = bufs[1], p = bufs[2], q = bufs[3], out = bufs[4];
    PyObject *result = NULL;
    double stack[5 * STACK_EDGES];
    double *edge = stack;
    Py_ssize_t k = b.len / (Py_ssize_t)(2 * sizeof(double));
    Py_ssize_t m = p.len / (Py_ssize_t)(2 * sizeof(double));
    int one = a.len == (Py_ssize_t)(2 * sizeof(double));
    if ((!one && check_len(&a, 2 * k, "a")) || check_len(&b, 2 * k, "b")
        || check_len(&p, 2 * m, "p") || check_len(&q, 2 * m, "q"))
        goto done;
    if (out.len != (pairs ? k * m : k)) {
        PyErr_Format(PyExc_ValueError, "%s: out: one byte a segment%s", name,
                     pairs ? " and edge" : "");
        goto done;
    }
    if ((edge = edge_room(m, stack)) == NULL)
        goto done;
    const double *pa = a.buf, *pb = b.buf, *pp = p.buf, *pq = q.buf;
    char *hit = out.buf;
    Py_ssize_t stride = pairs ? m : 1;
    if (one)
        (pairs ? fan_pairs : fan)(pa[0], pa[1], pb, k, pp, pq, m, edge, hit);
    else
        for (Py_ssize_t i = 0; i < k; i++)
            (pairs ? fan_pairs : fan)(pa[2 * i], pa[2 * i + 1], pb + 2 * i, 1, pp, pq, m, edge,
                                      hit + i * stride);
    Py_INCREF(Py_None);
    result = Py_None;
done:
    if (edge != stack)
        PyMem_Free(edge);
    for (int i = 0; i < 5; i++)
        PyBuffer_Release(&bufs[i]);
    return result;
}

/* crossed(a, b, p, q, out): whether each segment a -> b[i] properly crosses any edge. */
static PyObject *
crossed(PyObject *self, PyObject *args)
{
    return segments(args, "crossed", 0);
}

/* crossings(a, b, p, q, out): out[i, j] (k*m bytes) whether segment a -> b[i] properly
 * crosses edge p[j] -> q[j], as crossed() tests a pair. */
static PyObject *
crossings(PyObject *self, PyObject *args)
{
    return segments(args, "crossings", 1);
}

/* Whether (x, y) lies strictly inside any polygon of inside()'s half-plane rows. */
static char
in_any(double x, double y, const double *pnx, const double *pny, const double *pd,
       Py_ssize_t planes, Py_ssize_t corners)
{
    for (Py_ssize_t start = 0; start < planes; start += corners) {
        Py_ssize_t j = start, end = start + corners;
        while (j < end && (x * pnx[j] + y * pny[j]) - pd[j] > 1e-9)
            j++;
        if (j == end)
            return 1;
    }
    return 0;
}

/* inside(points, nx, ny, d, out): whether each point lies strictly inside any polygon given
 * as rows of half-planes (Blockers' padded (polygons, corners) arrays, padding always
 * passing): (x*nx + y*ny) - d > 1e-9 on every half-plane of one row. */
static PyObject *
inside(PyObject *self, PyObject *args)
{
    PyObject *objs[5];
    Py_buffer bufs[5];
    Py_ssize_t corners;
    if (!PyArg_ParseTuple(args, "OOOOnO", &objs[0], &objs[1], &objs[2], &objs[3], &corners,
                          &objs[4])
        || get_all(objs, bufs, 5, "inside") < 0)
        return NULL;
    Py_buffer pts = bufs[0], nx = bufs[1], ny = bufs[2], d = bufs[3], out = bufs[4];
    PyObject *result = NULL;
    Py_ssize_t n = pts.len / (Py_ssize_t)(2 * sizeof(double));
    Py_ssize_t planes = nx.len / (Py_ssize_t)sizeof(double);
    if (check_len(&pts, 2 * n, "points") || check_len(&ny, planes, "ny")
        || check_len(&d, planes, "d"))
        goto done;
    if (corners <= 0 || planes % corners || out.len != n) {
        PyErr_SetString(PyExc_ValueError, "inside: shapes disagree");
        goto done;
    }
    const double *xy = pts.buf, *pnx = nx.buf, *pny = ny.buf, *pd = d.buf;
    char *hit = out.buf;
    for (Py_ssize_t i = 0; i < n; i++)
        hit[i] = in_any(xy[2 * i], xy[2 * i + 1], pnx, pny, pd, planes, corners);
    Py_INCREF(Py_None);
    result = Py_None;
done:
    for (int i = 0; i < 5; i++)
        PyBuffer_Release(&bufs[i]);
    return result;
}

/* NavGraph's sample points along a segment, as fractions of it. */
static const double t[3] = {0.25, 0.5, 0.75};

/* ok[i], i < k, whether the segment a -> b[i] crosses no edge p[j] -> q[j] (fan()) and none of
 * its sample points a + (b[i] - a) * t lies inside a polygon (in_any()): fan_clear's test from
 * one point, and the kernel's A* (astar_run) tests its sight lines with it. */
static void
fan_from(double ax, double ay, const double *pb, Py_ssize_t k, const double *pp,
         const double *pq, Py_ssize_t m, double *edge, const double *pnx, const double *pny,
         const double *pd, Py_ssize_t planes, Py_ssize_t corners, char *ok)
{
    fan(ax, ay, pb, k, pp, pq, m, edge, ok); /* ok[i]: crossed, for now */
    for (Py_ssize_t i = 0; i < k; i++) {
        if (ok[i]) {
            ok[i] = 0;
            continue;
        }
        double dx = pb[2 * i] - ax, dy = pb[2 * i + 1] - ay;
        char clear = 1;
        for (int s = 0; s < 3 && clear; s++)
            clear = !in_any(ax + dx * t[s], ay + dy * t[s], pnx, pny, pd, planes, corners);
        ok[i] = clear;
    }
}

/* fan_clear(a, b, p, q, nx, ny, d, corners, out): NavGraph.clear's answer among blockers in
 * one call, `a` one point (a fan, NavGraph._fan) or one a segment: out[i] whether the segment
 * a -> b[i] crosses no edge p[j] -> q[j] (crossed()) and none of its sample points
 * a + (b[i] - a) * t, t 0.25, 0.5 and 0.75, lies inside a polygon (inside()): numpy's
 * products, differences and sums, in its order. */
static PyObject *
fan_clear(PyObject *self, PyObject *args)
{
    PyObject *objs[8];
    Py_buffer bufs[8];
    Py_ssize_t corners;
    if (!PyArg_ParseTuple(args, "OOOOOOOnO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6], &corners, &objs[7])
        || get_all(objs, bufs, 8, "fan_clear") < 0)
        return NULL;
    Py_buffer a = bufs[0], b = bufs[1], p = bufs[2], q = bufs[3];
    Py_buffer nx = bufs[4], ny = bufs[5], d = bufs[6], out = bufs[7];
    PyObject *result = NULL;
    double stack[5 * STACK_EDGES];
    double *edge = stack;
    Py_ssize_t k = b.len / (Py_ssize_t)(2 * sizeof(double));
    Py_ssize_t m = p.len / (Py_ssize_t)(2 * sizeof(double));
    Py_ssize_t planes = nx.len / (Py_ssize_t)sizeof(double);
    int one = a.len == (Py_ssize_t)(2 * sizeof(double));
    if ((!one && check_len(&a, 2 * k, "a")) || check_len(&b, 2 * k, "b")
        || check_len(&p, 2 * m, "p") || check_len(&q, 2 * m, "q")
        || check_len(&ny, planes, "ny") || check_len(&d, planes, "d"))
        goto done;
    if (corners <= 0 || planes % corners || out.len != k) {
        PyErr_SetString(PyExc_ValueError, "fan_clear: shapes disagree");
        goto done;
    }
    if ((edge = edge_room(m, stack)) == NULL)
        goto done;
    const double *pa = a.buf, *pb = b.buf, *pnx = nx.buf, *pny = ny.buf, *pd = d.buf;
    char *ok = out.buf;
    if (one)
        fan_from(pa[0], pa[1], pb, k, p.buf, q.buf, m, edge, pnx, pny, pd, planes, corners, ok);
    else
        for (Py_ssize_t i = 0; i < k; i++)
            fan_from(pa[2 * i], pa[2 * i + 1], pb + 2 * i, 1, p.buf, q.buf, m, edge, pnx, pny,
                     pd, planes, corners, ok + i);
    Py_INCREF(Py_None);
    result = Py_None;
done:
    if (edge != stack)
        PyMem_Free(edge);
    for (int i = 0; i < 8; i++)
        PyBuffer_Release(&bufs[i]);
    return result;
}

/* straight_clear(a, b, p, q, nx, ny, d, corners, bounds, free_a, free_b, ok): NavGraph.straight
 * on a table with no terrain to test points against, in one call: free_a[i] (free_b[i]) whether
 * a[i] (b[i]) lies within bounds (lo x, lo y, hi x, hi y, each inclusive) and inside no polygon;
 * ok[i] whether none of the segment's sample points lies inside one and it crosses no edge
 * (crossed(), each segment from its own start). */
static PyObject *
straight_clear(PyObject *self, PyObject *args)
{
    PyObject *objs[11];
    Py_buffer bufs[11];
    Py_ssize_t corners;
    if (!PyArg_ParseTuple(args, "OOOOOOOnOOOO", &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &objs[5], &objs[6], &corners, &objs[7], &objs[8],
                          &objs[9], &objs[10]))
        return NULL;
    for (int i = 0; i < 11; i++) {
        if (get(objs[i], &bufs[i], i < 8 ? "d" : "?", i >= 8, "straight_clear") < 0) {
            while (i--)
                PyBuffer_Release(&bufs[i]);
            return NULL;
        }
    }
    Py_buffer a = bufs[0], b = bufs[1], p = bufs[2], q = bufs[3];
    Py_buffer nx = bufs[4], ny = bufs[5], d = bufs[6], bounds = bufs[7];
    PyObject *result = NULL;
    double stack[5 * STACK_EDGES];
    double *edge = stack;
    Py_ssize_t k = b.len / (Py_ssize_t)(2 * sizeof(double));
    Py_ssize_t m = p.len / (Py_ssize_t)(2 * sizeof(double));
    Py_ssize_t planes = nx.len / (Py_ssize_t)sizeof(double);
    if (check_len(&a, 2 * k, "a") || check_len(&b, 2 * k, "b") || check_len(&p, 2 * m, "p")
        || check_len(&q, 2 * m, "q") || check_len(&ny, planes, "ny")
        || check_len(&d, planes, "d") || check_len(&bounds, 4, "bounds"))
        goto done;
    if (corners <= 0 || planes % corners || bufs[8].len != k || bufs[9].len != k
        || bufs[10].len != k) {
        PyErr_SetString(PyExc_ValueError, "straight_clear: shapes disagree");
        goto done;
    }
    if ((edge = edge_room(m, stack)) == NULL)
        goto done;
    const double *pa = a.buf, *pb = b.buf, *pnx = nx.buf, *pny = ny.buf, *pd = d.buf;
    const double *box = bounds.buf;
    char *free_a = bufs[8].buf, *free_b = bufs[9].buf, *ok = bufs[10].buf;
    for (Py_ssize_t i = 0; i < k; i++) {
        double ax = pa[2 * i], ay = pa[2 * i + 1], bx = pb[2 * i], by = pb[2 * i + 1];
        free_a[i] = ax >= box[0] && ay >= box[1] && ax <= box[2] && ay <= box[3]
                    && !in_any(ax, ay, pnx, pny, pd, planes, corners);
        free_b[i] = bx >= box[0] && by >= box[1] && bx <= box[2] && by <= box[3]
                    && !in_any(bx, by, pnx, pny, pd, planes, corners);
        double dx = bx - ax, dy = by - ay;
        char clear = 1;
        for (int s = 0; s < 3 && clear; s++)
            clear = !in_any(ax + dx * t[s], ay + dy * t[s], pnx, pny, pd, planes, corners);
        if (clear) {
            char crossed;
            fan(ax, ay, pb + 2 * i, 1, p.buf, q.buf, m, edge, &crossed);
            clear = !crossed;
        }
        ok[i] = clear;
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    if (edge != stack)
        PyMem_Free(edge);
    for (int i = 0; i < 11; i++)
        PyBuffer_Release(&bufs[i]);
    return result;
}

/* A*: the step kernels and the whole search (its own file, for length). */
#include "_astar.c"

/* free_points(points, start, x, y, bounds, nx, ny, d, corners, out) -> (n, stop): from point
 * `start` on, in order, the indices of the points, each moved by (x, y) (x + px, y + py: numpy's
 * p + band), that lie within bounds (lo x, lo y, hi x, hi y, each inclusive) and inside no
 * polygon (inside()), as NavGraph.free tests them without terrain; up to len(out) of them go to
 * out[:n], and `stop` is the index after the last point looked at (the number of points when
 * fewer were found). */
static PyObject *
free_points(PyObject *self, PyObject *args)
{
    PyObject *objs[6];
    Py_ssize_t start, corners;
    double ox, oy;
    if (!PyArg_ParseTuple(args, "OnddOOOOnO", &objs[0], &start, &ox, &oy, &objs[1], &objs[2],
                          &objs[3], &objs[4], &corners, &objs[5]))
        return NULL;
    Py_buffer bufs[6];
    int got = 0;
    PyObject *result = NULL;
    for (; got < 5; got++)
        if (get(objs[got], &bufs[got], "d", 0, "free_points") < 0)
            goto release;
    if (get_ints(objs[5], &bufs[5], sizeof(Py_ssize_t), 1, "out") < 0)
        goto release;
    got++;
    Py_buffer pts = bufs[0], bounds = bufs[1], nx = bufs[2], ny = bufs[3], d = bufs[4];
    Py_ssize_t n = pts.len / (Py_ssize_t)(2 * sizeof(double));
    Py_ssize_t planes = nx.len / (Py_ssize_t)sizeof(double);
    Py_ssize_t room = bufs[5].len / (Py_ssize_t)sizeof(Py_ssize_t);
    if (check_len(&pts, 2 * n, "points") || check_len(&bounds, 4, "bounds")
        || check_len(&ny, planes, "ny") || check_len(&d, planes, "d"))
        goto release;
    if (corners <= 0 || planes % corners || start < 0 || room <= 0) {
        PyErr_SetString(PyExc_ValueError, "free_points: shapes disagree");
        goto release;
    }
    const double *xy = pts.buf, *box = bounds.buf;
    const double *pnx = nx.buf, *pny = ny.buf, *pd = d.buf;
    Py_ssize_t *out = bufs[5].buf;
    Py_ssize_t found = 0, i = start;
    while (i < n && found < room) {
        double x = ox + xy[2 * i], y = oy + xy[2 * i + 1];
        if (x >= box[0] && y >= box[1] && x <= box[2] && y <= box[3]
            && !in_any(x, y, pnx, pny, pd, planes, corners))
            out[found++] = i;
        i++;
    }
    result = Py_BuildValue("nn", found, i);
release:
    for (int k = 0; k < got; k++)
        PyBuffer_Release(&bufs[k]);
    return result;
}

/* One side of the monotone chain over the points in order (backwards with `reverse`): each
 * point pushed after popping every corner that does not turn left,
 * (bx - ax)*(py - ay) - (by - ay)*(px - ax) <= 0, as blockers._half_hull works it out in
 * Python floats. The chain's point indices go to `stack`; returns how many. */
static Py_ssize_t
half_hull(const double *xy, Py_ssize_t n, int reverse, Py_ssize_t *stack)
{
    Py_ssize_t top = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t i = reverse ? n - 1 - k : k;
        double px = xy[2 * i], py = xy[2 * i + 1];
        while (top >= 2) {
            const double *a = xy + 2 * stack[top - 2], *b = xy + 2 * stack[top - 1];
            double ax = a[0], ay = a[1], bx = b[0], by = b[1];
            if (!((bx - ax) * (py - ay) - (by - ay) * (px - ax) <= 0))
                break;
            top--;
        }
        stack[top++] = i;
    }
    return top;
}

/* convex_hull(points, out) -> k: the counter-clockwise hull of `points` (sorted, distinct,
 * at least three) as blockers._convex_hull's chains give it, the lower chain less its last
 * point then the upper chain less its last, written to out[:k] (out as long as points). */
static PyObject *
convex_hull(PyObject *self, PyObject *args)
{
    PyObject *objs[2];
    Py_buffer bufs[2];
    if (!PyArg_UnpackTuple(args, "convex_hull", 2, 2, &objs[0], &objs[1]))
        return NULL;
    if (get(objs[0], &bufs[0], "d", 0, "points") < 0)
        return NULL;
    if (get(objs[1], &bufs[1], "d", 1, "out") < 0) {
        PyBuffer_Release(&bufs[0]);
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t *stack = NULL;
    Py_ssize_t n = bufs[0].len / (Py_ssize_t)(2 * sizeof(double));
    if (check_len(&bufs[0], 2 * n, "points") || check_len(&bufs[1], 2 * n, "out"))
        goto done;
    if (n < 3) {
        PyErr_SetString(PyExc_ValueError, "convex_hull: fewer than three points");
        goto done;
    }
    stack = PyMem_Malloc(2 * (size_t)n * sizeof(Py_ssize_t));
    if (stack == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const double *xy = bufs[0].buf;
    double *out = bufs[1].buf;
    Py_ssize_t *lower = stack, *upper = stack + n;
    Py_ssize_t nl = half_hull(xy, n, 0, lower), nu = half_hull(xy, n, 1, upper);
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i + 1 < nl; i++, k++) {
        out[2 * k] = xy[2 * lower[i]];
        out[2 * k + 1] = xy[2 * lower[i] + 1];
    }
    for (Py_ssize_t i = 0; i + 1 < nu && k < n; i++, k++) {
        out[2 * k] = xy[2 * upper[i]];
        out[2 * k + 1] = xy[2 * upper[i] + 1];
    }
    result = PyLong_FromSsize_t(k);
done:
    PyMem_Free(stack);
    PyBuffer_Release(&bufs[0]);
    PyBuffer_Release(&bufs[1]);
    return result;
}

/* depth(x, y, nx, ny, d, inv, pad, corners) -> float: Blockers.depth before its max with 0:
 * over the polygons' rows of half-planes, the largest of each row's least
 * (((x*nx + y*ny) - d) - 1e-9)*inv + pad (numpy's sums in its order; min and max pick a value,
 * so which order they look in cannot change it). */
static PyObject *
depth(PyObject *self, PyObject *args)
{
    double x, y;
    Py_ssize_t corners;
    PyObject *objs[5];
    if (!PyArg_ParseTuple(args, "ddOOOOOn", &x, &y, &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &corners))
        return NULL;
    Py_buffer bufs[5];
    int got = 0;
    PyObject *result = NULL;
    for (; got < 5; got++)
        if (get(objs[got], &bufs[got], "d", 0, "depth") < 0)
            goto release;
    Py_ssize_t planes = bufs[0].len / (Py_ssize_t)sizeof(double);
    for (int i = 1; i < 5; i++)
        if (check_len(&bufs[i], planes, "depth"))
            goto release;
    if (corners <= 0 || planes % corners || planes == 0) {
        PyErr_SetString(PyExc_ValueError, "depth: shapes disagree");
        goto release;
    }
    const double *pnx = bufs[0].buf, *pny = bufs[1].buf, *pd = bufs[2].buf;
    const double *inv = bufs[3].buf, *pad = bufs[4].buf;
    double most = 0.0;
    for (Py_ssize_t start = 0; start < planes; start += corners) {
        double least = 0.0;
        for (Py_ssize_t j = start; j < start + corners; j++) {
            double side = ((x * pnx[j] + y * pny[j]) - pd[j]) - 1e-9;
            double v = side * inv[j] + pad[j];
            if (j == start || v < least)
                least = v;
        }
        if (start == 0 || least > most)
            most = least;
    }
    result = PyFloat_FromDouble(most);
release:
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&bufs[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"crossed", crossed, METH_VARARGS,
     "crossed(a, b, p, q, out): whether each segment a -> b[i] properly crosses any edge."},
    {"crossings", crossings, METH_VARARGS,
     "crossings(a, b, p, q, out): whether each segment a -> b[i] properly crosses each edge."},
    {"fan_clear", fan_clear, METH_VARARGS,
     "fan_clear(a, b, p, q, nx, ny, d, corners, out): whether each line of a fan is clear."},
    {"straight_clear", straight_clear, METH_VARARGS,
     "straight_clear(a, b, p, q, nx, ny, d, corners, bounds, free_a, free_b, ok): "
     "NavGraph.straight without terrain."},
    {"inside", inside, METH_VARARGS,
     "inside(points, nx, ny, d, corners, out): whether each point is inside any polygon."},
    {"free_points", free_points, METH_VARARGS,
     "free_points(points, start, x, y, bounds, nx, ny, d, corners, out) -> (n, stop): the "
     "next points, moved by (x, y), in bounds and in no polygon."},
    {"convex_hull", convex_hull, METH_VARARGS,
     "convex_hull(points, out) -> k: the monotone chain's hull of sorted distinct points."},
    {"depth", depth, METH_VARARGS,
     "depth(x, y, nx, ny, d, inv, pad, corners) -> float: the deepest polygon's least side."},
    {"astar_want", astar_want, METH_VARARGS,
     "astar_want(base, dist, under, h, limit, vis, cand, unknown) -> (n, k): the nodes a "
     "step improves, and those of them not measured yet."},
    {"astar_relax", astar_relax, METH_VARARGS,
     "astar_relax(base, dist, h, vis, cand, n, best, under, came, u, heap): the step to each "
     "improved node it sees."},
    {"astar_run", astar_run, METH_VARARGS,
     "astar_run(nodes, f, best, under, h, came, skey, lines, line, empty, unmeasured, toward, "
     "upper, patience, walled, p, q, nx, ny, d, corners): the whole A* search on an open "
     "table."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernels", "The table's crossing and inside tests in C.", -1,
    methods,
};

#ifndef SOURCE_DIGEST
#define SOURCE_DIGEST ""
#endif

PyMODINIT_FUNC
PyInit__kernels(void)
{
    PyObject *m = PyModule_Create(&module);
    /* the first 16 hex digits of this file's sha256 (setup.py): a stale build can be seen */
    if (m != NULL && PyModule_AddStringConstant(m, "SOURCE_DIGEST", SOURCE_DIGEST) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
