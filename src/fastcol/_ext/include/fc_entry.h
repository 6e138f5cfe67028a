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
    Py_ssize_t full;      /* the parameters that can be given by position */
    PyObject *names;      /* their names (interned str), a tuple of full */
    PyObject *defaults;   /* the defaults of parameters lo..full-1 */
} fc_entry;

#define FC_SLOTS 16
static fc_entry fc_entries[FC_SLOTS];
static int fc_used = 0;

/* the position among the entry's names of keyword key, from nargs on; -1 if none */
static Py_ssize_t fc_position(fc_entry *e, PyObject *key, Py_ssize_t nargs) {
    Py_ssize_t j;
    for (j = nargs; j < e->full; j++)
        if (key == PyTuple_GET_ITEM(e->names, j))
            return j;
    for (j = nargs; j < e->full; j++)
        if (PyUnicode_Compare(key, PyTuple_GET_ITEM(e->names, j)) == 0)
            return j;
    return -1;
}

#define FC_DEFAULT(e, i) PyTuple_GET_ITEM((e)->defaults, (i) - (e)->lo)

/* every call but the commonest: out= and workers= given by position, keywords */
static PyObject *fc_other_call(fc_entry *e, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames) {
    PyObject *slots[FC_MAX_ARGS];
    Py_ssize_t i, j, nk;
    if (kwnames == NULL) {
        /* the fast path's when the parameters after hi hold their defaults */
        if (nargs < e->lo || nargs > e->full)
            return PyObject_Vectorcall(e->general, args, nargs, kwnames);
        for (i = e->hi; i < nargs; i++)
            if (args[i] != FC_DEFAULT(e, i))
                return PyObject_Vectorcall(e->general, args, nargs, kwnames);
        return e->fast(e->general, (PyObject **)args, e->hi);
    }
    /* keywords naming parameters (max_t=, workers=1, or a=, b=) are placed by name,
       the parameters not given take their defaults, and the call is the fast path's
       when out= and workers= hold theirs; anything else (a repeated or unknown name,
       a missing argument, workers=2) goes to the public function, which parses it */
    nk = PyTuple_GET_SIZE(kwnames);
    if (nargs + nk > e->full)
        return PyObject_Vectorcall(e->general, args, nargs, kwnames);
    for (i = 0; i < e->full; i++)
        slots[i] = i < nargs ? args[i] : NULL;
    for (i = 0; i < nk; i++) {
        j = fc_position(e, PyTuple_GET_ITEM(kwnames, i), nargs);
        if (j < 0 || slots[j] != NULL)
            return PyObject_Vectorcall(e->general, args, nargs, kwnames);
        slots[j] = args[nargs + i];
    }
    for (i = 0; i < e->full; i++) {
        if (slots[i] == NULL) {
            if (i < e->lo)
                return PyObject_Vectorcall(e->general, args, nargs, kwnames);
            slots[i] = FC_DEFAULT(e, i);
        } else if (i >= e->hi && slots[i] != FC_DEFAULT(e, i)) {
            return PyObject_Vectorcall(e->general, args, nargs, kwnames);
        }
    }
    return e->fast(e->general, slots, e->hi);
}

/* each slot's C function: the commonest call (lo..hi arguments by position) straight
   to the fast path, every other call to fc_other_call */
#define FC_SLOT(k) \
    static PyObject *fc_entry_call_##k(PyObject *self, PyObject *const *args, \
                                       Py_ssize_t nargs, PyObject *kwnames) { \
        fc_entry *e = &fc_entries[k]; \
        if (kwnames == NULL && nargs >= e->lo && nargs <= e->hi) \
            return e->fast(e->general, (PyObject **)args, nargs); \
        return fc_other_call(e, args, nargs, kwnames); \
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
