/*
 * facade.c: the Facade type, the base class of lexigraph.Lexicon: `in` and check() in C.
 *
 * Why a base type: `w in lex` calls the class's sq_contains slot; when that slot is C and hands the
 * word straight to the lexicon's C Probe, a lookup never enters a Python frame. The Facade holds
 * the lexicon's probe (composition, set by _set_probe, the class's own protocol with its
 * subclass); anything a C probe cannot decide, and every word when the probe is the Python one,
 * goes to the subclass's _contains_slow. The Python twin is lexigraph.lexicon._PythonFacade.
 */
#include "probe.h"

/* Facade: the base of lexigraph.Lexicon. `probe` is the lexicon's probe
 * (composition): a C Probe answers ASCII words here; anything else, and
 * any word a C probe cannot decide, goes to the Python method
 * _contains_slow. */
typedef struct {
    PyObject_HEAD
    PyObject *probe;
} Facade;

static int
Facade_traverse(Facade *self, visitproc visit, void *arg)
{
    Py_VISIT(self->probe);
    return 0;
}

static int
Facade_clear_refs(Facade *self)
{
    Py_CLEAR(self->probe);
    return 0;
}

static void
Facade_dealloc(Facade *self)
{
    PyObject_GC_UnTrack(self);
    Facade_clear_refs(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
Facade_contains(Facade *self, PyObject *word)
{
    if (!PyUnicode_Check(word))
        return 0;
    if (self->probe != NULL && Py_IS_TYPE(self->probe, &lx_probe_type)) {
        Py_ssize_t id = lx_probe_word((Probe *)self->probe, word);
        if (id != LX_UNDECIDED)
            return id >= 0;
    }
    PyObject *r = PyObject_CallMethod((PyObject *)self, "_contains_slow", "O", word);
    if (r == NULL)
        return -1;
    int truth = PyObject_IsTrue(r);
    Py_DECREF(r);
    return truth;
}

static PyObject *
Facade_check(Facade *self, PyObject *word)
{
    if (!PyUnicode_Check(word))
        return PyErr_Format(PyExc_TypeError, "check() needs a str, not %.100s", Py_TYPE(word)->tp_name);
    int r = Facade_contains(self, word);
    if (r < 0)
        return NULL;
    return PyBool_FromLong(r);
}

static PyObject *
Facade_set_probe(Facade *self, PyObject *probe)
{
    Py_INCREF(probe);
    Py_XSETREF(self->probe, probe);
    Py_RETURN_NONE;
}

static PyMethodDef Facade_methods[] = {
    {"check", (PyCFunction)Facade_check, METH_O,
     "check(word) -> bool\n\nWhether word is in the lexicon (any case; unknown letters: False)."},
    {"_set_probe", (PyCFunction)Facade_set_probe, METH_O,
     "_set_probe(probe) -> None\n\nThe probe `in` and check() ask (a C Probe answers in C)."},
    {NULL}};

static PySequenceMethods Facade_as_sequence = {
    .sq_contains = (objobjproc)Facade_contains,
};

static PyTypeObject FacadeType = {
    .ob_base = {PyObject_HEAD_INIT(NULL) 0},
    .tp_name = LX_MODULE_NAME ".Facade",
    .tp_doc = "Base of lexigraph.Lexicon: `in` and check() through the lexicon's probe.",
    .tp_basicsize = sizeof(Facade),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)Facade_dealloc,
    .tp_traverse = (traverseproc)Facade_traverse,
    .tp_clear = (inquiry)Facade_clear_refs,
    .tp_methods = Facade_methods,
    .tp_as_sequence = &Facade_as_sequence,
};

int
lx_add_facade(PyObject *module)
{
    return lx_add_type(module, &FacadeType, "Facade");
}
