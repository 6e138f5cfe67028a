/* fastcol: the public functions' C entry points: fixed slots, vectorcall (entry.pxd).
   Included by Cython's generated C, after Python.h and Cython's own macros. */
#ifndef FASTCOL_FC_ENTRY_H
#define FASTCOL_FC_ENTRY_H

/* the common call's code; it hands a call it does not take to general itself */
typedef PyObject *(*fc_fast_fn)(PyObject *general, PyObject **args, Py_ssize_t nargs);

#define FC_MAX_ARGS 8

typedef struct {
    PyMethodDef def;      /* name and doc: a block of their own, never freed */
    fc_fast_fn fast;      /* calls of lo..hi of the first parameters */
    PyObject *general;    /* the public function (fastcol._api): every other call */
    Py_ssize_t lo, hi;
    PyObject *names;      /* the first hi parameters' names (interned str), a tuple */
} fc_entry;

#define FC_SLOTS 16
static fc_entry fc_entries[FC_SLOTS];
static int fc_used = 0;

/* the position among the entry's names of keyword key, from nargs on; -1 if none */
static Py_ssize_t fc_position(fc_entry *e, PyObject *key, Py_ssize_t nargs) {
    Py_ssize_t j;
    for (j = nargs; j < e->hi; j++)
        if (key == PyTuple_GET_ITEM(e->names, j))
            return j;
    for (j = nargs; j < e->hi; j++)
        if (PyUnicode_Compare(key, PyTuple_GET_ITEM(e->names, j)) == 0)
            return j;
    return -1;
}

static PyObject *fc_dispatch(fc_entry *e, PyObject *const *args,
                             Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *slots[FC_MAX_ARGS];
    Py_ssize_t nk, n, i, j;
    if (kwnames == NULL) {
        if (nargs >= e->lo && nargs <= e->hi)
            return e->fast(e->general, (PyObject **)args, nargs);
        return PyObject_Vectorcall(e->general, args, nargs, kwnames);
    }
    /* keywords naming the first hi parameters (max_t=, or a=, b=): placed in order
       when they leave no gap; anything else (workers=, a repeated or unknown name)
       goes to the public function, which parses it in full */
    nk = PyTuple_GET_SIZE(kwnames);
    n = nargs + nk;
    if (n < e->lo || n > e->hi)
        return PyObject_Vectorcall(e->general, args, nargs, kwnames);
    for (i = 0; i < n; i++)
        slots[i] = i < nargs ? args[i] : NULL;
    for (i = 0; i < nk; i++) {
        j = fc_position(e, PyTuple_GET_ITEM(kwnames, i), nargs);
        if (j < 0 || j >= n || slots[j] != NULL)
            return PyObject_Vectorcall(e->general, args, nargs, kwnames);
        slots[j] = args[nargs + i];
    }
    return e->fast(e->general, slots, n);
}

#define FC_SLOT(k) \
    static PyObject *fc_entry_call_##k(PyObject *self, PyObject *const *args, \
                                       Py_ssize_t nargs, PyObject *kwnames) { \
        return fc_dispatch(&fc_entries[k], args, nargs, kwnames); \
    }
FC_SLOT(0)
FC_SLOT(1)
FC_SLOT(2)
FC_SLOT(3)
FC_SLOT(4)
FC_SLOT(5)
FC_SLOT(6)
FC_SLOT(7)
FC_SLOT(8)
FC_SLOT(9)
FC_SLOT(10)
FC_SLOT(11)
FC_SLOT(12)
FC_SLOT(13)
FC_SLOT(14)
FC_SLOT(15)

/* the next free slot, its method set up; NULL when every slot is taken */
static fc_entry *fc_take_slot(void) {
    static PyObject *(*const calls[FC_SLOTS])(PyObject *, PyObject *const *,
                                              Py_ssize_t, PyObject *) = {
        fc_entry_call_0,  fc_entry_call_1,  fc_entry_call_2,  fc_entry_call_3,
        fc_entry_call_4,  fc_entry_call_5,  fc_entry_call_6,  fc_entry_call_7,
        fc_entry_call_8,  fc_entry_call_9,  fc_entry_call_10, fc_entry_call_11,
        fc_entry_call_12, fc_entry_call_13, fc_entry_call_14, fc_entry_call_15};
    fc_entry *e;
    if (fc_used == FC_SLOTS)
        return NULL;
    e = &fc_entries[fc_used];
    e->def.ml_meth = (PyCFunction)(void (*)(void))calls[fc_used];
    e->def.ml_flags = METH_FASTCALL | METH_KEYWORDS;
    fc_used++;
    return e;
}

#endif /* FASTCOL_FC_ENTRY_H */
