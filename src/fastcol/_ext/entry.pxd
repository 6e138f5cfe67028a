# The public functions' C entries (entries.pyx makes them): a builtin function whose C
# code takes the common call (lo to hi of the first parameters, by position or by
# name; out= and workers= only at their defaults) straight to a kernel, and hands any
# other call to the public function of fastcol._api, which parses it in full.  Called through a Python function and its argument parsing, a
# scalar query costs 7-14 ns a call more than this on our machines (bench_scalar's
# floor is about 45 ns), more than some queries' own work.  The builtin carries the
# function's docstring and signature (inspect.signature reads it) and its module's name.
#
# The entries are held in static slots (FC_SLOTS of them), one C function per slot, so
# that a call finds its entry at a fixed address: no lookup through the function's self.

from cpython.mem cimport PyMem_Malloc
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF
from libc.string cimport memcpy

cdef extern from "fc_entry.h":
    ctypedef object (*fc_fast_fn)(PyObject* general, PyObject** args, Py_ssize_t nargs)
    ctypedef struct _MethodDef "PyMethodDef":
        const char* ml_name
        const char* ml_doc
    ctypedef struct fc_entry:
        _MethodDef def_ "def"
        fc_fast_fn fast
        PyObject* general
        Py_ssize_t lo, hi, full
        PyObject* names
        PyObject* defaults
    enum: FC_MAX_ARGS
    fc_entry* fc_take_slot()
    object PyCFunction_NewEx(_MethodDef* ml, PyObject* self, object module)


cdef inline object fast_entry(object general, str signature, tuple names, tuple defaults,
                              fc_fast_fn fast, Py_ssize_t lo, Py_ssize_t hi, str doc):
    # the builtin entry of the public function general: its name, module and docstring
    # doc, and the text signature "name(signature)" that inspect.signature reads
    cdef str name = general.__name__
    cdef bytes bname = name.encode()
    cdef bytes text = f"{name}({signature})\n--\n\n{doc}".encode()
    cdef Py_ssize_t nn = len(bname) + 1
    cdef Py_ssize_t nt = len(text) + 1
    cdef char* block
    cdef fc_entry* e = fc_take_slot()
    if e == NULL:
        raise RuntimeError("fastcol: more C entries than FC_SLOTS")
    block = <char*>PyMem_Malloc(nn + nt)
    if block == NULL:
        raise MemoryError()
    memcpy(block, <const char*>bname, nn)
    memcpy(block + nn, <const char*>text, nt)
    e.def_.ml_name = block
    e.def_.ml_doc = block + nn
    e.fast = fast
    Py_INCREF(general)
    e.general = <PyObject*>general
    e.lo = lo
    e.hi = hi
    # the positional parameters' names, for keyword calls, and the defaults of those
    # from lo on (the fast path takes those after hi only at their defaults); both
    # kept forever
    e.full = len(names)
    if e.full > FC_MAX_ARGS or len(defaults) != e.full - lo:
        raise ValueError("fastcol: a C entry's names and defaults do not fit its parameters")
    Py_INCREF(names)
    e.names = <PyObject*>names
    Py_INCREF(defaults)
    e.defaults = <PyObject*>defaults
    return PyCFunction_NewEx(&e.def_, NULL, general.__module__)
