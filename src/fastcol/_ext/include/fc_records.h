/* fastcol: whether a spare record is referred to by its slot alone (records.pyx).
   Included by Cython's generated C, after Python.h and Cython's own macros. */
#ifndef FASTCOL_FC_RECORDS_H
#define FASTCOL_FC_RECORDS_H

#ifdef Py_GIL_DISABLED
#define FASTCOL_SPARE_RECORDS 0
#else
#define FASTCOL_SPARE_RECORDS 1
#endif
/* whether o (a borrowed reference: the spare slot's own) is referred to by that
   slot alone */
static CYTHON_INLINE int fastcol_sole(PyObject *o) {
    return o != Py_None && Py_REFCNT(o) == 1;
}

#endif /* FASTCOL_FC_RECORDS_H */
