/* The end of a one-deal game stepped by the compiled core, in C (branch end): what
 * GameState._after_action (kierki_dsl/adapters/game.py) and the PettingZoo environment's
 * ``_after_step`` (kierki_dsl/pettingzoo.py) do once the core has played the deal's last card, so
 * that the adapters' fast paths (GameState's ``apply_action`` while the core steps the deal, the
 * environment's C ``step``) run no Python frame at a deal's end either.
 *
 * game.py registers what the C end stands for (``game_end_parts``): the GameState class, its
 * spec's class, the stage "over" and the names of the calls ``_go_fast`` sets. The C end does a
 * method's work only where it would do exactly what the method does: the classes as registered
 * (their methods, class attributes and attribute access; checked again where a class's version tag
 * changed), every attribute read or written in an exact dict of exact str keys, the values it
 * computes with exact ints, floats, lists and str (no code of a user's can run: no __eq__, no
 * __add__, no destructor before every write is done; every value it replaces one whose release
 * runs no code, since the method releases each where it writes it; the core's class's is_terminal
 * and returns, and the module's _OVER and _FAST_CALLS, as registered); else it does nothing and the Python method
 * does it all. tests/test_pettingzoo_fast.py and tests/test_adapters_fast_end.py hold the two equal. */

/* the registered objects (held) */
static PyObject *GE_game_cls, *GE_spec_cls, *GE_over, *GE_fast_names;
/* GameState's methods whose meaning the C end assumes, _Over's class attributes, GameSpec's ``scope``:
 * the objects each class had at these names when registered */
enum { GE_GAME_METHODS = 5, GE_OVER_ATTRS = 3 };
static PyObject *GE_game_names[GE_GAME_METHODS], *GE_game_methods[GE_GAME_METHODS];
static PyObject *GE_over_names[GE_OVER_ATTRS], *GE_over_values[GE_OVER_ATTRS];
static PyObject *GE_scope_name, *GE_scope_member, *GE_deal_word;
/* the module globals _after_action and _go_slow read when they run: they must still be the
 * registered "over" and the fast calls' names */
static PyObject *GE_over_global, *GE_fast_global;
/* the game's attributes the C end reads or writes: none a class attribute (NULL-ended) */
static PyObject *GE_plain[9];
static PyObject *S_spec, *S_k, *S_last_paid, *S_tail;
/* the core's methods _after_action calls (``step.is_terminal()``, ``step.returns()``): the names
 * and CoreType's own objects there, which its class (stepper.Stepper) must still have */
enum { GE_CORE_METHODS = 2 };
static PyObject *GE_core_names[GE_CORE_METHODS], *GE_core_methods[GE_CORE_METHODS];
/* the classes last found as registered (game, spec, over, core) and their version tags then */
static PyTypeObject *GE_kept[4];
static unsigned int GE_tag[4];

/* Whether class ``t`` has the objects ``values`` at ``names``, no class attribute at ``plain``
 * (NULL-ended, or NULL) and plain attribute access (getattr; and setattr, ``write``), checked again
 * only where its version tag changed. */
static int ge_class_kept(int i, PyTypeObject *t, PyObject *const *names, PyObject *const *values, int n,
                         PyObject *const *plain, int write)
{
    if (PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG) && GE_kept[i] == t && t->tp_version_tag == GE_tag[i])
        return 1;
    if (t->tp_getattro != PyObject_GenericGetAttr || (write && t->tp_setattro != PyObject_GenericSetAttr))
        return 0;
    for (int k = 0; k < n; k++)
        if (_PyType_Lookup(t, names[k]) != values[k])
            return 0;
    for (int k = 0; plain != NULL && plain[k] != NULL; k++)
        if (_PyType_Lookup(t, plain[k]) != NULL)
            return 0;
    int tagged = PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG); /* (a lookup may tag the class) */
    GE_kept[i] = tagged ? t : NULL;
    GE_tag[i] = tagged ? t->tp_version_tag : 0;
    return 1;
}

/* Whether ``obj`` answers ``names`` by the objects ``values`` its class had when registered (class
 * ``i`` of GE_kept), none of them set on it. */
static int ge_kept_on(int i, PyObject *obj, PyObject *const *names, PyObject *const *values, int n)
{
    if (!ge_class_kept(i, Py_TYPE(obj), names, values, n, NULL, 0))
        return 0;
    PyObject **dp = _PyObject_GetDictPtr(obj);
    if (dp == NULL || *dp == NULL)
        return 1;
    if (!PyDict_CheckExact(*dp) || !str_keys(*dp))
        return 0;
    for (int k = 0; k < n; k++)
        if (got(*dp, names[k]) != NULL)
            return 0;
    return 1;
}

/* Whether ``v``'s release runs no code of a user's (its destructor, its items'): None, a bool, an
 * exact int, float or str, or (``depth`` levels down) an exact tuple, list or dict of str keys of
 * such. Every value the C end replaces is one (or is held elsewhere too): the method releases each
 * as it writes, and code run there could change what it writes next. */
static int ge_inert(PyObject *v, int depth)
{
    if (v == Py_None || PyBool_Check(v) || PyLong_CheckExact(v) || PyFloat_CheckExact(v) || PyUnicode_CheckExact(v))
        return 1;
    if (depth <= 0)
        return 0;
    if (PyTuple_CheckExact(v) || PyList_CheckExact(v)) {
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(v); i++)
            if (!ge_inert(PySequence_Fast_GET_ITEM(v, i), depth - 1))
                return 0;
        return 1;
    }
    if (!PyDict_CheckExact(v))
        return 0;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(v, &pos, &key, &value))
        if (!PyUnicode_CheckExact(key) || !ge_inert(value, depth - 1))
            return 0;
    return 1;
}

/* Whether ``d[key]`` is absent or inert (ge_inert). */
static int ge_inert_at(PyObject *d, PyObject *key, int depth)
{
    PyObject *v = got(d, key);
    return v == NULL || ge_inert(v, depth);
}

/* Whether every item of ``list`` (an exact list of ``n`` items) is an exact int. */
static int ge_ints(PyObject *list, Py_ssize_t n)
{
    if (list == NULL || !PyList_CheckExact(list) || PyList_GET_SIZE(list) != n)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (!PyLong_CheckExact(PyList_GET_ITEM(list, i)))
            return 0;
    return 1;
}

/* Set ``d[key] = value`` (a reference it takes), the value it replaces put into ``held`` (to be
 * released once every write is done); -1 on error. */
static int ge_put(PyObject *d, PyObject *key, PyObject *value, PyObject *held)
{
    PyObject *old = got(d, key);
    if (value == NULL || (old != NULL && PyList_Append(held, old) < 0)) {
        Py_XDECREF(value);
        return -1;
    }
    int err = PyDict_SetItem(d, key, value);
    Py_DECREF(value);
    return err;
}

/* GameState._after_action of ``game`` (its instance dict ``gd``) where ``core``, stepping the one
 * deal of the game (the spec's scope "deal"), has ended it; the values the writes replace are put
 * into ``held``. 1 done as the method does it, 0 nothing done (the Python method must do it), -1 error. */
static int game_end(PyObject *game, PyObject *gd, Core *core, PyObject *held)
{
    if (GE_game_cls == NULL || (PyObject *)Py_TYPE(game) != GE_game_cls || core->phase != PH_DONE ||
        gd == NULL || !PyDict_CheckExact(gd) || !str_keys(gd) || got(gd, S_step) != (PyObject *)core)
        return 0;
    if (!ge_class_kept(0, Py_TYPE(game), GE_game_names, GE_game_methods, GE_GAME_METHODS, GE_plain, 1) || !ge_kept_on(2, GE_over, GE_over_names, GE_over_values, GE_OVER_ATTRS) ||
        !ge_kept_on(3, (PyObject *)core, GE_core_names, GE_core_methods, GE_CORE_METHODS))
        return 0;
    for (int k = 0; k < GE_GAME_METHODS; k++)
        if (got(gd, GE_game_names[k]) != NULL && k != 3 && k != 4) /* (is_terminal, current_player: _go_slow's to drop) */
            return 0;
    for (int k = 0; k < 2; k++) { /* (_after_action's globals, then _go_slow's) */
        PyObject *f = GE_game_methods[k], *glob = f != NULL && PyFunction_Check(f) ? PyFunction_GET_GLOBALS(f) : NULL;
        PyObject *name = k == 0 ? GE_over_global : GE_fast_global, *value = k == 0 ? GE_over : GE_fast_names;
        if (glob == NULL || !PyDict_CheckExact(glob) || got(glob, name) != value)
            return 0;
    }
    /* what the writes release: nothing whose release runs code (the core, held by _step, and the
     * core's calls release no other; a stage held elsewhere too is not released) */
    PyObject *fast = got(gd, S_fast), *stage = got(gd, S_stage);
    if ((fast != NULL && fast != Py_None && fast != (PyObject *)core) || !ge_inert_at(gd, S_last_paid, 2) ||
        !ge_inert_at(gd, S_tail, 2) || (stage != NULL && !ge_inert(stage, 0) && Py_REFCNT(stage) < 2))
        return 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(GE_fast_names); i++) {
        PyObject *call = got(gd, PyTuple_GET_ITEM(GE_fast_names, i));
        if (call != NULL && (Py_TYPE(call) != &FastCallType || ((FastCall *)call)->core != (PyObject *)core ||
                             (((FastCall *)call)->on_end != NULL && !PyWeakref_CheckRefExact(((FastCall *)call)->on_end))))
            return 0; /* (the core's own calls: their release releases nothing else) */
    }
    PyObject *spec = got(gd, S_spec), *totals = got(gd, S_totals), *k = got(gd, S_k);
    int n = core->players;
    if (spec == NULL || (PyObject *)Py_TYPE(spec) != GE_spec_cls || !ge_class_kept(1, Py_TYPE(spec), &GE_scope_name, &GE_scope_member, 1, NULL, 0) ||
        !ge_ints(totals, n) || k == NULL || !PyLong_CheckExact(k))
        return 0;
    PyObject *scope = PyObject_GetAttr(spec, GE_scope_name); /* (a slot's member: no code) */
    int one_deal = scope != NULL && PyUnicode_CheckExact(scope) && PyUnicode_Compare(scope, GE_deal_word) == 0;
    Py_XDECREF(scope);
    PyErr_Clear();
    if (!one_deal)
        return 0;
    /* every value made before any write */
    PyObject *scores = scores_list(core), *sum = PyList_New(n), *paid = PyList_New(n), *copy = NULL, *tail = NULL;
    PyObject *one = PyLong_FromLong(1), *next = one == NULL ? NULL : PyNumber_Add(k, one);
    int err = scores == NULL || sum == NULL || paid == NULL || next == NULL;
    for (int s = 0; s < n && !err; s++) {
        PyObject *score = PyList_GET_ITEM(scores, s), *t = PyNumber_Add(PyList_GET_ITEM(totals, s), score);
        PyObject *f = t == NULL ? NULL : PyNumber_Float(score);
        if (f == NULL) {
            Py_XDECREF(t);
            err = 1;
            break;
        }
        PyList_SET_ITEM(sum, s, t);
        PyList_SET_ITEM(paid, s, f);
    }
    if (!err && ((copy = PyList_GetSlice(scores, 0, n)) == NULL || (tail = PyTuple_Pack(2, next, copy)) == NULL))
        err = 1;
    Py_XDECREF(copy);
    Py_XDECREF(one);
    Py_XDECREF(scores);
    /* _go_slow, then the totals, the payment, the deal's end told later, the next deal, the stage */
    if (!err)
        err = ge_put(gd, S_fast, Py_NewRef(Py_None), held);
    for (Py_ssize_t i = 0; !err && i < PyTuple_GET_SIZE(GE_fast_names); i++) {
        PyObject *name = PyTuple_GET_ITEM(GE_fast_names, i), *old = got(gd, name);
        if (old != NULL && (PyList_Append(held, old) < 0 || PyDict_DelItem(gd, name) < 0))
            err = 1;
    }
    if (err) { /* (nothing made, or _go_slow's writes failed: what was made released) */
        Py_XDECREF(sum);
        Py_XDECREF(paid);
        Py_XDECREF(next);
        Py_XDECREF(tail);
        return -1;
    }
    err = ge_put(gd, S_totals, sum, held);
    err = err ? (Py_DECREF(paid), -1) : ge_put(gd, S_last_paid, paid, held);
    err = err ? (Py_DECREF(tail), -1) : ge_put(gd, S_tail, tail, held);
    err = err ? (Py_DECREF(next), -1) : ge_put(gd, S_k, next, held);
    return err ? -1 : ge_put(gd, S_stage, Py_NewRef(GE_over), held) < 0 ? -1 : 1;
}

/* The rest of the environment's step once game_end has ended ``game`` (its instance dict ``gd``):
 * KierkiEnv._after_step of ``agent``, the game's totals ``before`` the action, where the
 * environment (its instance dict ``d``) is plain; the values the writes replace put into ``held``.
 * 1 done, 0 nothing done (the Python method must do it), -1 error. */
static int env_end(PyObject *d, PyObject *agent, PyObject *gd, PyObject *before, PyObject *held)
{
    if (!PyDict_CheckExact(d) || !str_keys(d) || got(gd, S_stage) != GE_over)
        return 0;
    PyObject *after = got(gd, S_totals), *cum = got(d, S_cumulative), *rewards = got(d, S_rewards);
    PyObject *seats = got(d, S_possible_agents), *agents = got(d, S_agents), *gain[8], *total[8];
    Py_ssize_t n = after != NULL && PyList_CheckExact(after) ? PyList_GET_SIZE(after) : 0;
    if (n == 0 || n > 8)
        return 0;
    if (!ge_ints(after, n) || !ge_ints(before, n) || after == before || cum == NULL || cum == rewards || !PyDict_CheckExact(cum) ||
        !str_keys(cum) || rewards == NULL || !PyDict_CheckExact(rewards) || !str_keys(rewards) ||
        PyDict_GET_SIZE(rewards) != n || seats == NULL || !PyList_CheckExact(seats) || PyList_GET_SIZE(seats) != n ||
        agents == NULL || !PyList_CheckExact(agents) || !PyUnicode_CheckExact(agent))
        return 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(agents); i++)
        if (!PyUnicode_CheckExact(PyList_GET_ITEM(agents, i)))
            return 0;
    /* what the writes release (the cumulative rewards' sums checked below): nothing whose release
     * runs code, as in game_end */
    if (!ge_inert_at(cum, agent, 0) || !ge_inert_at(d, S_paid, 0) || !ge_inert_at(d, S_terminations, 1) ||
        !ge_inert_at(d, S_agent_selection, 0))
        return 0;
    /* each seat's agent: an exact str, once, in the rewards, its cumulative reward an exact float
     * or int (or the agent's own, zeroed first); then rewards' keys are exactly the seats' agents */
    for (Py_ssize_t s = 0; s < n; s++) {
        PyObject *a = PyList_GET_ITEM(seats, s), *c, *old = got(rewards, a);
        if (!PyUnicode_CheckExact(a) || old == NULL || !ge_inert(old, 0))
            return 0;
        for (Py_ssize_t t = 0; t < s; t++)
            if (PyUnicode_Compare(a, PyList_GET_ITEM(seats, t)) == 0)
                return 0;
        c = PyUnicode_Compare(a, agent) == 0 ? S_zero : got(cum, a);
        if (c == NULL || !(PyFloat_CheckExact(c) || PyLong_CheckExact(c)))
            return 0;
        if (PyLong_CheckExact(c) && PyLong_AsDouble(c) == -1.0 && PyErr_Occurred()) {
            PyErr_Clear(); /* (too large for a float: the sum raises, after the method's first writes) */
            return 0;
        }
    }
    Py_ssize_t made = 0;
    int err = 0;
    for (; made < n && !err; made++) { /* float(after[s] - before[s]); the cumulative reward plus it */
        PyObject *a = PyList_GET_ITEM(seats, made), *c = PyUnicode_Compare(a, agent) == 0 ? S_zero : got(cum, a);
        PyObject *diff = PyNumber_Subtract(PyList_GET_ITEM(after, made), PyList_GET_ITEM(before, made));
        gain[made] = diff == NULL ? NULL : PyNumber_Float(diff);
        Py_XDECREF(diff);
        total[made] = gain[made] == NULL ? NULL : PyNumber_Add(c, gain[made]);
        if (total[made] == NULL) {
            Py_XDECREF(gain[made]);
            err = 1;
            break;
        }
    }
    PyObject *ended = err ? NULL : PyDict_New();
    for (Py_ssize_t i = 0; ended != NULL && i < PyList_GET_SIZE(agents); i++)
        if (PyDict_SetItem(ended, PyList_GET_ITEM(agents, i), Py_True) < 0)
            Py_CLEAR(ended);
    if (ended == NULL) {
        for (Py_ssize_t s = 0; s < made; s++) {
            Py_DECREF(gain[s]);
            Py_DECREF(total[s]);
        }
        return -1; /* (no memory: every difference is a score, an int64) */
    }
    PyObject *next = PyList_GET_SIZE(agents) ? PyList_GET_ITEM(agents, 0) : PyList_GET_ITEM(seats, 0);
    Py_INCREF(next);
    /* the writes, as the method does them: the agent's cumulative reward zeroed, the rewards, the
     * cumulative rewards (their sums), _paid, terminations, agent_selection */
    err = ge_put(cum, agent, Py_NewRef(S_zero), held);
    for (Py_ssize_t s = 0; s < n; s++)
        err = err ? (Py_DECREF(gain[s]), -1) : ge_put(rewards, PyList_GET_ITEM(seats, s), gain[s], held);
    for (Py_ssize_t s = 0; s < n; s++)
        err = err ? (Py_DECREF(total[s]), -1) : ge_put(cum, PyList_GET_ITEM(seats, s), total[s], held);
    err = err ? -1 : ge_put(d, S_paid, Py_NewRef(Py_True), held);
    err = err ? (Py_DECREF(ended), -1) : ge_put(d, S_terminations, ended, held);
    err = err ? (Py_DECREF(next), -1) : ge_put(d, S_agent_selection, next, held);
    return err ? -1 : 1;
}

/* game_end_parts(GameState, GameSpec, over, fast_names): what the C end stands for (game.py). */
static PyObject *game_end_parts(PyObject *mod, PyObject *args)
{
    PyObject *game_cls, *spec_cls, *over, *fast_names;
    if (!PyArg_ParseTuple(args, "O!O!OO!", &PyType_Type, &game_cls, &PyType_Type, &spec_cls, &over, &PyTuple_Type,
                          &fast_names))
        return NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fast_names); i++)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(fast_names, i))) {
            PyErr_SetString(PyExc_TypeError, "game_end_parts: the fast calls' names are str");
            return NULL;
        }
    for (int k = 0; k < GE_GAME_METHODS; k++)
        Py_XSETREF(GE_game_methods[k], Py_XNewRef(_PyType_Lookup((PyTypeObject *)game_cls, GE_game_names[k])));
    for (int k = 0; k < GE_OVER_ATTRS; k++)
        Py_XSETREF(GE_over_values[k], Py_XNewRef(_PyType_Lookup(Py_TYPE(over), GE_over_names[k])));
    Py_XSETREF(GE_scope_member, Py_XNewRef(_PyType_Lookup((PyTypeObject *)spec_cls, GE_scope_name)));
    /* (the end's meaning: "over" a stage that is not chance, is terminal, names no player) */
    if (GE_over_values[0] != Py_False || GE_over_values[1] != Py_True || GE_scope_member == NULL ||
        Py_TYPE(GE_scope_member) != &PyMemberDescr_Type) {
        PyErr_SetString(PyExc_ValueError, "game_end_parts: not the stage 'over' and a spec with a scope slot");
        return NULL;
    }
    Py_XSETREF(GE_game_cls, Py_NewRef(game_cls));
    Py_XSETREF(GE_spec_cls, Py_NewRef(spec_cls));
    Py_XSETREF(GE_over, Py_NewRef(over));
    Py_XSETREF(GE_fast_names, Py_NewRef(fast_names));
    for (int i = 0; i < 4; i++)
        GE_kept[i] = NULL;
    Py_RETURN_NONE;
}

/* ``out[k]``: the interned ``names[k]``, for each of the ``n``; -1 on error. */
static int ge_interned(const char *const *names, PyObject **out, int n)
{
    for (int k = 0; k < n; k++)
        if ((out[k] = PyUnicode_InternFromString(names[k])) == NULL)
            return -1;
    return 0;
}

static int game_end_register(void)
{
    static const char *const games[GE_GAME_METHODS] = {"_after_action", "_go_slow", "is_chance", "is_terminal", "current_player"};
    static const char *const overs[GE_OVER_ATTRS] = {"chance", "terminal", "player"};
    static const char *const plain[] = {"_step", "_fast", "spec", "totals", "k", "last_paid", "_tail", "stage"};
    static const char *const cores[GE_CORE_METHODS] = {"is_terminal", "returns"};
    static const char *const words[] = {"_OVER", "_FAST_CALLS", "scope", "deal"};
    PyObject **word_slots[] = {&GE_over_global, &GE_fast_global, &GE_scope_name, &GE_deal_word};
    if (ge_interned(games, GE_game_names, GE_GAME_METHODS) < 0 || ge_interned(overs, GE_over_names, GE_OVER_ATTRS) < 0 ||
        ge_interned(cores, GE_core_names, GE_CORE_METHODS) < 0 || ge_interned(plain, GE_plain, 8) < 0)
        return -1;
    for (int k = 0; k < 4; k++)
        if ((*word_slots[k] = PyUnicode_InternFromString(words[k])) == NULL)
            return -1;
    for (int k = 0; k < GE_CORE_METHODS; k++)
        if ((GE_core_methods[k] = Py_XNewRef(_PyType_Lookup(&CoreType, GE_core_names[k]))) == NULL) { /* (CoreType ready) */
            PyErr_SetString(PyExc_RuntimeError, "the step core has no is_terminal or returns");
            return -1;
        }
    GE_plain[8] = NULL;
    S_spec = GE_plain[2];
    S_k = GE_plain[4];
    S_last_paid = GE_plain[5];
    S_tail = GE_plain[6];
    return 0;
}

/* GameState._after_action of ``state`` where ``core`` has ended its one deal (apply_then), in C
 * where game_end can: 1 done, 0 nothing done (the Python method must do it), -1 error. */
static int game_end_c(PyObject *state, Core *core)
{
    if (GE_game_cls == NULL || (PyObject *)Py_TYPE(state) != GE_game_cls)
        return 0;
    PyObject *gd = PyObject_GenericGetDict(state, NULL), *held = gd == NULL ? NULL : PyList_New(0);
    int r = held == NULL ? -1 : game_end(state, gd, core, held);
    Py_XDECREF(held); /* (the values replaced released once every write is done) */
    Py_XDECREF(gd);
    return r;
}
