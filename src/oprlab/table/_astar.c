/* A*'s bookkeeping (_graph_search's step from each node it pops, and the whole search on an
 * open table), included by _kernels.c: it reads that file's buffers, fan() and in_any(). */

/* A buffer of Py_ssize_t (numpy's intp: format "l", "q" or "n" of that size) or of signed
 * bytes (format "b"), as get() reads doubles and bools. */
static int
get_ints(PyObject *obj, Py_buffer *buf, Py_ssize_t size, int writable, const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, buf, flags) < 0)
        return -1;
    const char *f = buf->format;
    int ok = f != NULL && buf->itemsize == size && f[1] == '\0'
             && (size == 1 ? f[0] == 'b' : (f[0] == 'l' || f[0] == 'q' || f[0] == 'n'));
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "%s: format %s, expected %s", name, f ? f : "B",
                     size == 1 ? "int8" : "intp");
        PyBuffer_Release(buf);
        return -1;
    }
    return 0;
}

/* The nodes j a step from a node reached at cost `base` improves: newc = base + dist[j] below
 * under[j] and, when `bounded`, newc + h[j] <= limit; their indices to cand[:*n] in order, and
 * those whose line is not measured yet (vis[j] < 0) to unknown[:*k]. astar_want's answer and
 * each step of astar_run. */
static void
want(double base, const double *pd, const double *pu, const double *ph, const signed char *pv,
     Py_ssize_t f, int bounded, double limit, Py_ssize_t *cand, Py_ssize_t *unknown,
     Py_ssize_t *n, Py_ssize_t *k)
{
    for (Py_ssize_t j = 0; j < f; j++) {
        double newc = base + pd[j];
        if (!(newc < pu[j]))
            continue;
        if (bounded && !(newc + ph[j] <= limit))
            continue;
        cand[(*n)++] = j;
        if (pv[j] < 0)
            unknown[(*k)++] = j;
    }
}

/* astar_want(base, dist, under, h, limit, vis, cand, unknown) -> (n, k): the nodes j a step
 * from a node reached at cost `base` improves, as oprlab.table.paths._graph_search's numpy
 * finds them: newc = base + dist[j] below under[j] (the node's best less 1e-12; -inf once done
 * or not allowed) and, when `limit` (the bound plus its margin) is not None,
 * newc + h[j] <= limit. Their indices go to cand[:n] in order, and those whose line is not
 * measured yet (vis[j] < 0) to unknown[:k]. */
static PyObject *
astar_want(PyObject *self, PyObject *args)
{
    double base;
    PyObject *objs[7], *limit_obj;
    if (!PyArg_ParseTuple(args, "dOOOOOOO", &base, &objs[0], &objs[1], &objs[2], &limit_obj,
                          &objs[3], &objs[4], &objs[5]))
        return NULL;
    int bounded = limit_obj != Py_None;
    double limit = 0.0;
    if (bounded && (limit = PyFloat_AsDouble(limit_obj)) == -1.0 && PyErr_Occurred())
        return NULL;
    Py_buffer dist, under, h, vis, cand, unknown;
    if (get(objs[0], &dist, "d", 0, "dist") < 0)
        return NULL;
    PyObject *result = NULL;
    int got = 1;
    if (get(objs[1], &under, "d", 0, "under") < 0)
        goto release;
    got++;
    if (get(objs[2], &h, "d", 0, "h") < 0)
        goto release;
    got++;
    if (get_ints(objs[3], &vis, 1, 0, "vis") < 0)
        goto release;
    got++;
    if (get_ints(objs[4], &cand, sizeof(Py_ssize_t), 1, "cand") < 0)
        goto release;
    got++;
    if (get_ints(objs[5], &unknown, sizeof(Py_ssize_t), 1, "unknown") < 0)
        goto release;
    got++;
    Py_ssize_t f = dist.len / (Py_ssize_t)sizeof(double);
    if (check_len(&under, f, "under") || check_len(&h, f, "h") || vis.len != f
        || cand.len < f * (Py_ssize_t)sizeof(Py_ssize_t)
        || unknown.len < f * (Py_ssize_t)sizeof(Py_ssize_t)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "astar_want: shapes disagree");
        goto release;
    }
    const double *pd = dist.buf, *pu = under.buf, *ph = h.buf;
    const signed char *pv = vis.buf;
    Py_ssize_t *pc = cand.buf, *pk = unknown.buf;
    Py_ssize_t n = 0, k = 0;
    want(base, pd, pu, ph, pv, f, bounded, limit, pc, pk, &n, &k);
    result = Py_BuildValue("nn", n, k);
release:
    {
        Py_buffer *bufs[6] = {&dist, &under, &h, &vis, &cand, &unknown};
        for (int i = 0; i < got; i++)
            PyBuffer_Release(bufs[i]);
    }
    return result;
}

/* The heap's order, as Python orders its (priority, node) tuples: by priority, then node. */
static int
heap_less(double pa, Py_ssize_t ja, double pb, Py_ssize_t jb)
{
    return pa < pb || (pa == pb && ja < jb);
}

/* Read a heap entry (a (float, int) tuple); -1 with TypeError set for anything else. */
static int
heap_entry(PyObject *item, double *prio, Py_ssize_t *node)
{
    if (!PyTuple_CheckExact(item) || PyTuple_GET_SIZE(item) != 2
        || !PyFloat_CheckExact(PyTuple_GET_ITEM(item, 0))
        || !PyLong_CheckExact(PyTuple_GET_ITEM(item, 1))) {
        PyErr_SetString(PyExc_TypeError, "astar_relax: heap entries must be (float, int)");
        return -1;
    }
    *prio = PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(item, 0));
    *node = PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 1));
    return *node == -1 && PyErr_Occurred() ? -1 : 0;
}

/* heapq.heappush(heap, (prio, node)): appended, then moved up past every parent it is less
 * than (heapq's _siftdown). */
static int
heap_push(PyObject *heap, double prio, Py_ssize_t node)
{
    PyObject *item = Py_BuildValue("(dn)", prio, node);
    if (item == NULL)
        return -1;
    int rc = PyList_Append(heap, item);
    Py_DECREF(item);
    if (rc < 0)
        return -1;
    Py_ssize_t pos = PyList_GET_SIZE(heap) - 1;
    PyObject *newitem = PyList_GET_ITEM(heap, pos);
    while (pos > 0) {
        Py_ssize_t parentpos = (pos - 1) >> 1;
        PyObject *parent = PyList_GET_ITEM(heap, parentpos);
        double pp;
        Py_ssize_t pj;
        if (heap_entry(parent, &pp, &pj) < 0) {
            PyList_SET_ITEM(heap, pos, newitem); /* the list whole again */
            return -1;
        }
        if (!heap_less(prio, node, pp, pj))
            break;
        PyList_SET_ITEM(heap, pos, parent);
        pos = parentpos;
    }
    PyList_SET_ITEM(heap, pos, newitem);
    return 0;
}

/* astar_relax(base, dist, h, vis, cand, n, best, under, came, u, heap): the step from node u
 * (reached at cost `base`) to each node cand[i], i < n, it sees (vis 1), in order, as
 * _graph_search's numpy takes it: c = base + dist[j]; best[j] = c, under[j] = c - 1e-12,
 * came[j] = u and (c + h[j], j) pushed on the heap (a list kept by heapq). */
static PyObject *
astar_relax(PyObject *self, PyObject *args)
{
    double base;
    Py_ssize_t n, u;
    PyObject *objs[7], *heap;
    if (!PyArg_ParseTuple(args, "dOOOOnOOOnO!", &base, &objs[0], &objs[1], &objs[2], &objs[3],
                          &n, &objs[4], &objs[5], &objs[6], &u, &PyList_Type, &heap))
        return NULL;
    Py_buffer dist, h, vis, cand, best, under, came;
    Py_buffer *bufs[7] = {&dist, &h, &vis, &cand, &best, &under, &came};
    int got = 0;
    PyObject *result = NULL;
    if (get(objs[0], &dist, "d", 0, "dist") < 0)
        goto release;
    got++;
    if (get(objs[1], &h, "d", 0, "h") < 0)
        goto release;
    got++;
    if (get_ints(objs[2], &vis, 1, 0, "vis") < 0)
        goto release;
    got++;
    if (get_ints(objs[3], &cand, sizeof(Py_ssize_t), 0, "cand") < 0)
        goto release;
    got++;
    if (get(objs[4], &best, "d", 1, "best") < 0)
        goto release;
    got++;
    if (get(objs[5], &under, "d", 1, "under") < 0)
        goto release;
    got++;
    if (get_ints(objs[6], &came, sizeof(Py_ssize_t), 1, "came") < 0)
        goto release;
    got++;
    Py_ssize_t f = dist.len / (Py_ssize_t)sizeof(double);
    Py_ssize_t all = best.len / (Py_ssize_t)sizeof(double);
    if (check_len(&h, f, "h") || vis.len != f || n < 0
        || cand.len < n * (Py_ssize_t)sizeof(Py_ssize_t) || all < f
        || check_len(&under, all, "under") || came.len != all * (Py_ssize_t)sizeof(Py_ssize_t)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "astar_relax: shapes disagree");
        goto release;
    }
    const double *pd = dist.buf, *ph = h.buf;
    const signed char *pv = vis.buf;
    const Py_ssize_t *pc = cand.buf;
    double *pb = best.buf, *pu = under.buf;
    Py_ssize_t *pf = came.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t j = pc[i];
        if (j < 0 || j >= f) {
            PyErr_SetString(PyExc_IndexError, "astar_relax: node out of range");
            goto release;
        }
        if (pv[j] != 1)
            continue;
        double c = base + pd[j];
        pb[j] = c;
        pu[j] = c - 1e-12;
        pf[j] = u;
        if (heap_push(heap, c + ph[j], j) < 0)
            goto release;
    }
    Py_INCREF(Py_None);
    result = Py_None;
release:
    for (int i = 0; i < got; i++)
        PyBuffer_Release(bufs[i]);
    return result;
}

/* The whole search's heap: (priority, node) entries in heap_less's order, as heapq keeps the
 * Python search's tuples (the same entries pop in the same order whatever the layout). */
typedef struct {
    double prio;
    Py_ssize_t node;
} Entry;

typedef struct {
    Entry *at;
    Py_ssize_t len, room;
} Heap;

static int
run_push(Heap *heap, double prio, Py_ssize_t node)
{
    if (heap->len == heap->room) {
        Py_ssize_t room = heap->room ? 2 * heap->room : 64;
        Entry *at = PyMem_Realloc(heap->at, (size_t)room * sizeof(Entry));
        if (at == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        heap->at = at;
        heap->room = room;
    }
    Py_ssize_t pos = heap->len++;
    while (pos > 0) {
        Py_ssize_t parent = (pos - 1) >> 1;
        Entry up = heap->at[parent];
        if (!heap_less(prio, node, up.prio, up.node))
            break;
        heap->at[pos] = up;
        pos = parent;
    }
    heap->at[pos].prio = prio;
    heap->at[pos].node = node;
    return 0;
}

static Py_ssize_t
run_pop(Heap *heap)
{
    Entry *at = heap->at;
    Py_ssize_t top = at[0].node;
    Entry last = at[--heap->len];
    Py_ssize_t n = heap->len, pos = 0;
    for (;;) {
        Py_ssize_t child = 2 * pos + 1;
        if (child >= n)
            break;
        if (child + 1 < n && heap_less(at[child + 1].prio, at[child + 1].node, at[child].prio,
                                       at[child].node))
            child++;
        if (!heap_less(at[child].prio, at[child].node, last.prio, last.node))
            break;
        at[pos] = at[child];
        pos = child;
    }
    if (n)
        at[pos] = last;
    return top;
}

/* A fixed node's new line, as _Sight.line makes it (no climbs: NavGraph.cost is numpy's
 * hypot of each node less the node's point; vis all unmeasured but the node itself, 0): the
 * arrays from empty(f) and unmeasured.copy(), filled here and kept in `lines` under `key`. */
static PyObject *
run_new_line(PyObject *lines, PyObject *key, const double *xy, Py_ssize_t u, Py_ssize_t f,
             PyObject *empty, PyObject *unmeasured)
{
    PyObject *pair = NULL, *dist = NULL, *vis = NULL, *size = PyLong_FromSsize_t(f);
    if (size == NULL || (dist = PyObject_CallOneArg(empty, size)) == NULL
        || (vis = PyObject_CallMethod(unmeasured, "copy", NULL)) == NULL)
        goto done;
    Py_buffer bd, bv;
    if (get(dist, &bd, "d", 1, "dist") < 0)
        goto done;
    if (get_ints(vis, &bv, 1, 1, "vis") < 0) {
        PyBuffer_Release(&bd);
        goto done;
    }
    if (bd.len != f * (Py_ssize_t)sizeof(double) || bv.len != f) {
        PyErr_SetString(PyExc_ValueError, "astar_run: a new line's length is not the nodes'");
    }
    else {
        double *pd = bd.buf, px = xy[2 * u], py = xy[2 * u + 1];
        for (Py_ssize_t j = 0; j < f; j++)
            pd[j] = hypot(xy[2 * j] - px, xy[2 * j + 1] - py);
        ((signed char *)bv.buf)[u] = 0;
    }
    PyBuffer_Release(&bd);
    PyBuffer_Release(&bv);
    if (PyErr_Occurred())
        goto done;
    pair = PyTuple_Pack(2, dist, vis);
    if (pair != NULL && PyDict_SetItem(lines, key, pair) < 0)
        Py_CLEAR(pair);
done:
    Py_XDECREF(size);
    Py_XDECREF(dist);
    Py_XDECREF(vis);
    return pair;
}

/* One node's line: its (dist, vis) from the lines dict, or made: a fixed node's here
 * (run_new_line), the start's by line(key, u) (which keeps it there); dist float64 and vis
 * int8, f of each. */
static int
run_line(PyObject *lines, PyObject *line, PyObject *key, const double *xy, Py_ssize_t u,
         Py_ssize_t f, PyObject *empty, PyObject *unmeasured, Py_buffer *dist, Py_buffer *vis)
{
    PyObject *pair = PyDict_GetItemWithError(lines, key);
    if (pair != NULL)
        Py_INCREF(pair);
    else if (PyErr_Occurred())
        return -1;
    else if (u < f)
        pair = run_new_line(lines, key, xy, u, f, empty, unmeasured);
    else
        pair = PyObject_CallFunction(line, "On", key, u);
    if (pair == NULL)
        return -1;
    int rc = -1;
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        PyErr_SetString(PyExc_TypeError, "astar_run: a line is (dist, vis)");
        goto done;
    }
    if (get(PyTuple_GET_ITEM(pair, 0), dist, "d", 0, "dist") < 0)
        goto done;
    if (get_ints(PyTuple_GET_ITEM(pair, 1), vis, 1, 1, "vis") < 0) {
        PyBuffer_Release(dist);
        goto done;
    }
    if (dist->len != f * (Py_ssize_t)sizeof(double) || vis->len != f) {
        PyErr_SetString(PyExc_ValueError, "astar_run: a line's length is not the nodes'");
        PyBuffer_Release(dist);
        PyBuffer_Release(vis);
        goto done;
    }
    rc = 0;
done:
    Py_DECREF(pair); /* the tuple holds the arrays, and the dict or the caller the tuple */
    return rc;
}

/* astar_run(nodes, f, best, under, h, came, skey, lines, line, empty, unmeasured, toward,
 * upper, patience, walled, p, q, nx, ny, d, corners): oprlab.table.paths._graph_search's loop whole, on a table
 * whose sight lines are the blockers' test alone (no terrain, no graph corners, no climbs):
 * nodes (n, 2) are the f fixed nodes, the start (n - 2) and the goal (n - 1); best, under, h
 * and came are the search's arrays, written in place; lines and toward are the _Sight's dicts
 * (a node's key is its index, the start's `skey`): a fixed node's missing line is made here
 * in arrays from empty(f) and unmeasured.copy() (run_new_line), the start's by line(key, u); the
 * search stops early when walled() says so after `patience` pops without a way (walled may be
 * None). Each step is the Python loop's: astar_want's nodes, their unmeasured lines and (first
 * time from a node) the goal's tested as fan_clear tests a fan among the edges p -> q and the
 * polygons nx, ny, d, then astar_relax's pushes. */
static PyObject *
astar_run(PyObject *self, PyObject *args)
{
    PyObject *o_nodes, *o_best, *o_under, *o_h, *o_came, *skey, *lines, *line, *toward, *walled;
    PyObject *empty, *unmeasured;
    PyObject *o_p, *o_q, *o_nx, *o_ny, *o_d;
    Py_ssize_t f, patience, corners;
    double upper;
    if (!PyArg_ParseTuple(args, "OnOOOOO!O!OOOO!dnOOOOOOn", &o_nodes, &f, &o_best, &o_under,
                          &o_h, &o_came, &PyBytes_Type, &skey, &PyDict_Type, &lines, &line,
                          &empty, &unmeasured, &PyDict_Type, &toward, &upper, &patience, &walled,
                          &o_p, &o_q, &o_nx, &o_ny, &o_d, &corners))
        return NULL;
    Py_buffer bufs[10];
    PyObject *objs[10] = {o_nodes, o_h, o_p, o_q, o_nx, o_ny, o_d, o_best, o_under, o_came};
    int got = 0;
    PyObject *result = NULL;
    Heap heap = {NULL, 0, 0};
    char *done = NULL, *hit = NULL;
    Py_ssize_t *cand = NULL, *unknown = NULL;
    double *ends = NULL, *edge = NULL;
    for (; got < 9; got++)
        if (get(objs[got], &bufs[got], "d", got >= 7, "astar_run") < 0)
            goto release;
    if (get_ints(o_came, &bufs[9], sizeof(Py_ssize_t), 1, "came") < 0)
        goto release;
    got++;
    Py_ssize_t n = bufs[0].len / (Py_ssize_t)(2 * sizeof(double));
    Py_ssize_t m = bufs[2].len / (Py_ssize_t)(2 * sizeof(double));
    Py_ssize_t planes = bufs[4].len / (Py_ssize_t)sizeof(double);
    if (check_len(&bufs[0], 2 * n, "nodes") || check_len(&bufs[1], n, "h")
        || check_len(&bufs[2], 2 * m, "p") || check_len(&bufs[3], 2 * m, "q")
        || check_len(&bufs[5], planes, "ny") || check_len(&bufs[6], planes, "d")
        || check_len(&bufs[7], n, "best") || check_len(&bufs[8], n, "under"))
        goto release;
    if (f < 1 || f + 2 != n || corners <= 0 || planes % corners
        || bufs[9].len != n * (Py_ssize_t)sizeof(Py_ssize_t)) {
        PyErr_SetString(PyExc_ValueError, "astar_run: shapes disagree");
        goto release;
    }
    done = PyMem_Calloc((size_t)n, 1);
    hit = PyMem_Malloc((size_t)f + 1);
    cand = PyMem_Malloc((size_t)f * sizeof(Py_ssize_t));
    unknown = PyMem_Malloc((size_t)f * sizeof(Py_ssize_t));
    ends = PyMem_Malloc(2 * ((size_t)f + 1) * sizeof(double));
    edge = PyMem_Malloc(5 * ((size_t)m + 1) * sizeof(double));
    if (!done || !hit || !cand || !unknown || !ends || !edge) {
        PyErr_NoMemory();
        goto release;
    }
    const double *xy = bufs[0].buf, *ph = bufs[1].buf, *pp = bufs[2].buf, *pq = bufs[3].buf;
    const double *pnx = bufs[4].buf, *pny = bufs[5].buf, *pdd = bufs[6].buf;
    double *best = bufs[7].buf, *under = bufs[8].buf;
    Py_ssize_t *came = bufs[9].buf;
    Py_ssize_t si = n - 2, gi = n - 1, popped = 0;
    double best_g = Py_HUGE_VAL, h_g = ph[gi];
    if (run_push(&heap, ph[si], si) < 0)
        goto release;
    while (heap.len) {
        Py_ssize_t u = run_pop(&heap);
        if (done[u])
            continue;
        done[u] = 1;
        under[u] = -Py_HUGE_VAL;
        if (u == gi)
            break;
        popped++;
        if (popped == patience && walled != Py_None && best_g == Py_HUGE_VAL) {
            PyObject *said = PyObject_CallNoArgs(walled);
            if (said == NULL)
                goto release;
            int sealed = PyObject_IsTrue(said);
            Py_DECREF(said);
            if (sealed < 0)
                goto release;
            if (sealed)
                break;
        }
        PyObject *key = u == si ? Py_NewRef(skey) : PyLong_FromSsize_t(u);
        if (key == NULL)
            goto release;
        double px = xy[2 * u], py = xy[2 * u + 1], base = best[u];
        int have_g = 0, ok_g = 0;
        double cost_g = Py_HUGE_VAL;
        PyObject *seen = PyDict_GetItemWithError(toward, key);
        if (seen != NULL) {
            if (!PyTuple_Check(seen) || PyTuple_GET_SIZE(seen) != 2
                || (ok_g = PyObject_IsTrue(PyTuple_GET_ITEM(seen, 0))) < 0
                || ((cost_g = PyFloat_AsDouble(PyTuple_GET_ITEM(seen, 1))) == -1.0
                    && PyErr_Occurred())) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_TypeError, "astar_run: toward holds (bool, float)");
                Py_DECREF(key);
                goto release;
            }
            have_g = 1;
        }
        else if (PyErr_Occurred()) {
            Py_DECREF(key);
            goto release;
        }
        Py_buffer dist, vis;
        if (run_line(lines, line, key, xy, u, f, empty, unmeasured, &dist, &vis) < 0) {
            Py_DECREF(key);
            goto release;
        }
        const double *pd = dist.buf;
        signed char *pv = vis.buf;
        double bound = upper < best_g ? upper : best_g;
        if (have_g && ok_g && base + cost_g < bound)
            bound = base + cost_g;
        int bounded = bound < Py_HUGE_VAL;
        double limit = bound + 1e-9;
        Py_ssize_t nc = 0, nk = 0;
        want(base, pd, under, ph, pv, f, bounded, limit, cand, unknown, &nc, &nk);
        if (!have_g || nk) {
            Py_ssize_t k = nk;
            for (Py_ssize_t i = 0; i < nk; i++) {
                ends[2 * i] = xy[2 * unknown[i]];
                ends[2 * i + 1] = xy[2 * unknown[i] + 1];
            }
            if (!have_g) {
                ends[2 * k] = xy[2 * gi];
                ends[2 * k + 1] = xy[2 * gi + 1];
                k++;
            }
            fan_from(px, py, ends, k, pp, pq, m, edge, pnx, pny, pdd, planes, corners, hit);
            for (Py_ssize_t i = 0; i < nk; i++)
                pv[unknown[i]] = hit[i];
            if (!have_g) {
                ok_g = hit[nk];
                cost_g = ok_g ? ph[u] : Py_HUGE_VAL;
                PyObject *said = Py_BuildValue("(Od)", ok_g ? Py_True : Py_False, cost_g);
                int rc = said == NULL ? -1 : PyDict_SetItem(toward, key, said);
                Py_XDECREF(said);
                if (rc < 0) {
                    PyBuffer_Release(&dist);
                    PyBuffer_Release(&vis);
                    Py_DECREF(key);
                    goto release;
                }
            }
        }
        Py_DECREF(key);
        int failed = 0;
        if (ok_g) {
            double c = base + cost_g;
            if (c < best_g - 1e-12) {
                best_g = best[gi] = c;
                came[gi] = u;
                failed = run_push(&heap, c + h_g, gi) < 0;
            }
        }
        for (Py_ssize_t i = 0; i < nc && !failed; i++) {
            Py_ssize_t j = cand[i];
            if (pv[j] != 1)
                continue;
            double c = base + pd[j];
            best[j] = c;
            under[j] = c - 1e-12;
            came[j] = u;
            failed = run_push(&heap, c + ph[j], j) < 0;
        }
        PyBuffer_Release(&dist);
        PyBuffer_Release(&vis);
        if (failed)
            goto release;
    }
    Py_INCREF(Py_None);
    result = Py_None;
release:
    PyMem_Free(heap.at);
    PyMem_Free(done);
    PyMem_Free(hit);
    PyMem_Free(cand);
    PyMem_Free(unknown);
    PyMem_Free(ends);
    PyMem_Free(edge);
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&bufs[i]);
    return result;
}
