/* fastcol: a __slots__ member's offset and NumPy's array type (batch.pyx).
   Included by Cython's generated C, after Python.h and Cython's own macros. */
#ifndef FASTCOL_FC_BATCH_H
#define FASTCOL_FC_BATCH_H

#if PY_VERSION_HEX < 0x030C0000
#include "structmember.h"
#define Py_T_OBJECT_EX T_OBJECT_EX
#endif
/* The byte offset in its instances of the __slots__ member described by d, or -1
   when d is no object slot (or under free threading, where another thread could
   swap the slot while it is read without the member descriptor's atomic load). */
static Py_ssize_t fastcol_slot_offset(PyObject *d) {
#ifdef Py_GIL_DISABLED
    return -1;
#else
    if (Py_TYPE(d) != &PyMemberDescr_Type) return -1;
    PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
    return m->type == Py_T_OBJECT_EX ? m->offset : -1;
#endif
}
#define fastcol_ndarray_type (&PyArray_Type)

#endif /* FASTCOL_FC_BATCH_H */
