/* What the PettingZoo environment's C calls (_cstep.c, env_calls) read of the environment, kept
 * from one call to the next while the dicts it was read from are unchanged (branch pz7).
 *
 * A dict's version tag (PEP 509, ``ma_version_tag``; CPython 3.10 and 3.11) changes at every
 * change of the dict and is globally unique: a dict whose tag equals the one recorded is the dict
 * read then, holding the same values. So the memo holds nothing but the agents it keys its rows
 * on: every pointer in it is borrowed from a dict whose tag it checks before using it -- the
 * environment's instance dict (``dv``), then the dicts read from it (``ver``), the game's instance
 * dict (``gv``). Only dicts whose keys are all exact str are read, checked before any lookup:
 * no lookup and no write of the memo's runs code (a key's __eq__), so code of a user's runs as
 * often as in the Python methods; every record is still read between two readings of the tags
 * (nothing recorded where they differ). Without version tags (CPython 3.12
 * and later deprecate them) nothing is recorded: the calls read the dicts at every call. */

#if PY_VERSION_HEX < 0x030C0000
#define MEMO_TAGS 1
static uint64_t dict_version(PyObject *d) { return ((PyDictObject *)d)->ma_version_tag; }
#else
#define MEMO_TAGS 0
static uint64_t dict_version(PyObject *d) { (void)d; return 0; }
#endif

/* the environment's attributes read (M_VALUES), its dicts by agent (M_DICTS), the game's (G_PARTS) */
enum { M_AGENT, M_PAID, M_GAME, M_POSSIBLE, M_AGENTS, M_VALUES };
enum { M_TERM, M_TRUNC, M_CUM, M_INFOS, M_SEATS, M_DICTS };
enum { G_FAST, G_STEP, G_TOTALS, G_STAGE, G_PARTS };
enum { MEMO_ROWS = 8 };

typedef struct EnvMemoS {
    int refs;                         /* the calls sharing it */
    uint64_t dv;                      /* the instance dict's tag when read (0: nothing recorded) */
    PyObject *value[M_VALUES];        /* its values: agent_selection, _paid, game, possible_agents, agents */
    PyObject *dict[M_DICTS];          /* its exact dicts: terminations, ..., _seats */
    uint64_t ver[M_DICTS];            /* their tags when the rows were read */
    int n;                            /* rows */
    PyObject *who[MEMO_ROWS];         /* each row's agent (held: an exact str) */
    PyObject *of[MEMO_ROWS][M_DICTS]; /* its values in those dicts (NULL: not there) */
    uint64_t gv;                      /* the game's instance dict's tag when read (0: nothing) */
    PyObject *game[G_PARTS];          /* its _fast, _step, totals, stage (NULL: not there) */
} EnvMemo;

static PyObject *const *memo_keys(int which);

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
/* The head of CPython 3.11's dict keys object (Include/internal/pycore_dict.h): its kind is not
 * DICT_KEYS_GENERAL (0) only where every key is an exact str (a "unicode" table's entries hold no
 * hash: a key of another type turns the table general before it is stored). */
typedef struct {
    Py_ssize_t dk_refcnt;
    uint8_t dk_log2_size, dk_log2_index_bytes, dk_kind;
} DictKeysHead311;
#define STR_TABLE(d) (((DictKeysHead311 *)((PyDictObject *)(d))->ma_keys)->dk_kind != 0)
#else
#define STR_TABLE(d) 0
#endif

/* Whether every key of ``d`` is an exact str: a lookup or a write of an exact str there then runs
 * no code (no key's __eq__), so the memo's own writes change nothing but what they write. (On
 * 3.11 a str table says so at once; a general table's keys are looked at.) */
static int str_keys(PyObject *d)
{
    if (STR_TABLE(d))
        return 1;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(d, &pos, &k, &v))
        if (!PyUnicode_CheckExact(k))
            return 0;
    return 1;
}

static EnvMemo *memo_new(void)
{
    EnvMemo *m = PyMem_Calloc(1, sizeof(EnvMemo));
    if (m == NULL)
        PyErr_NoMemory();
    else
        m->refs = 1;
    return m;
}

static void memo_rows_clear(EnvMemo *m)
{
    int n = m->n;
    m->n = 0;
    for (int k = 0; k < n; k++)
        Py_CLEAR(m->who[k]); /* (an exact str: its release runs no code) */
}

/* Nothing recorded of the environment's dicts (the game's kept: its own tag says). */
static void memo_forget(EnvMemo *m)
{
    m->dv = 0;
    memo_rows_clear(m);
}

static void memo_release(EnvMemo *m)
{
    if (m != NULL && --m->refs == 0) {
        memo_rows_clear(m);
        PyMem_Free(m);
    }
}

/* The instance dict ``d``'s values read anew, at tag ``v``: 0, or -1 where not as the memo needs
 * them (then the calls read the dict as they did). Only a dict whose keys are all exact str is
 * read (no lookup runs code); the tag read again after (nothing changed it meanwhile). */
static int memo_read_env(EnvMemo *m, PyObject *d, uint64_t v)
{
    PyObject *const *values = memo_keys(0), *const *dicts = memo_keys(1), *const *absent = memo_keys(2);
    memo_forget(m);
    if (!str_keys(d)) /* (before any lookup: a key's __eq__ runs as often as in the Python methods) */
        return -1;
    for (int i = 0; i < M_VALUES; i++)
        if ((m->value[i] = got(d, values[i])) == NULL)
            return -1;
    for (int i = 0; i < M_DICTS; i++) {
        PyObject *x = m->dict[i] = got(d, dicts[i]);
        if (x == NULL || !PyDict_CheckExact(x))
            return -1;
        m->ver[i] = 0; /* (the rows are read anew) */
    }
    for (int i = 0; absent[i] != NULL; i++) /* (the methods done in C, none set on the instance) */
        if (got(d, absent[i]) != NULL)
            return -1;
    if (!PyUnicode_CheckExact(m->value[M_AGENT]) || !PyList_CheckExact(m->value[M_POSSIBLE]) || dict_version(d) != v)
        return -1;
    m->dv = v;
    return 0;
}

/* The row of ``agent`` (an exact str), read anew where not recorded; -1 where it cannot be. */
static int memo_read_row(EnvMemo *m, PyObject *d, PyObject *agent)
{
    for (int k = 0; k < m->n; k++)
        if (m->who[k] == agent)
            return k;
    if (m->n == MEMO_ROWS)
        return -1;
    for (int k = 0; k < m->n; k++) /* (one row an agent: an equal agent that is another object is not kept) */
        if (PyUnicode_Compare(m->who[k], agent) == 0)
            return -1;
    int k = m->n;
    for (int i = 0; i < M_DICTS; i++)
        m->of[k][i] = got(m->dict[i], agent);
    /* (a lookup may have run a key's __eq__: all of it still as it was, or nothing recorded) */
    if (dict_version(d) != m->dv) {
        memo_forget(m);
        return -1;
    }
    for (int i = 0; i < M_DICTS; i++)
        if (dict_version(m->dict[i]) != m->ver[i]) {
            memo_forget(m);
            return -1;
        }
    m->who[k] = Py_NewRef(agent);
    m->n = k + 1;
    return k;
}

/* The row of the agent selected in the environment whose instance dict is ``d``, what the memo
 * records of ``d`` true now (read anew where ``d`` changed): the row, or -1 where the memo cannot
 * say (then the calls read the dicts as they did). */
static int memo_row(EnvMemo *m, PyObject *d)
{
    if (!MEMO_TAGS || !PyDict_CheckExact(d))
        return -1;
    uint64_t v = dict_version(d);
    if (v == 0 || (v != m->dv && memo_read_env(m, d, v) < 0)) {
        memo_forget(m);
        return -1;
    }
    int fresh = 0;
    for (int i = 0; i < M_DICTS; i++) /* (each held by d, unchanged: alive) */
        fresh |= dict_version(m->dict[i]) != m->ver[i];
    if (fresh) {
        memo_rows_clear(m);
        for (int i = 0; i < M_DICTS; i++)
            if ((m->ver[i] = str_keys(m->dict[i]) ? dict_version(m->dict[i]) : 0) == 0)
                return -1; /* (a key not an exact str) */
    }
    PyObject *agent = m->value[M_AGENT];
    for (int k = 0; k < m->n; k++)
        if (m->who[k] == agent)
            return k;
    return memo_read_row(m, d, agent);
}

/* The game's parts (G_PARTS, borrowed from ``gd``, the game's instance dict) as recorded, read
 * anew where ``gd`` changed; NULL where the memo cannot say. */
static PyObject *const *memo_game(EnvMemo *m, PyObject *gd)
{
    PyObject *const *keys = memo_keys(3);
    if (!MEMO_TAGS || !PyDict_CheckExact(gd))
        return NULL;
    uint64_t v = dict_version(gd);
    if (v == 0)
        return NULL;
    if (v != m->gv) {
        m->gv = 0;
        if (!str_keys(gd))
            return NULL;
        for (int i = 0; i < G_PARTS; i++)
            m->game[i] = got(gd, keys[i]);
        if (dict_version(gd) != v)
            return NULL;
        m->gv = v;
    }
    return m->game;
}

/* The calls wrote ``value`` at ``key`` of ``d`` (an exact dict whose tag was ``before`` just before,
 * no code run since): the memo follows where it recorded ``d`` at ``before``, else forgets.
 * ``which``: -1 the instance dict (``key`` agent_selection), else the dict M_* (``key`` an agent). */
static void memo_wrote(EnvMemo *m, int which, PyObject *d, uint64_t before, PyObject *key, PyObject *value)
{
    if (before == 0 || (which < 0 ? m->dv : m->ver[which]) != before) {
        memo_forget(m);
        return;
    }
    if (which < 0) {
        m->dv = dict_version(d);
        m->value[M_AGENT] = value;
        if (!PyUnicode_CheckExact(value)) /* (the memo's agent is an exact str) */
            memo_forget(m);
        return;
    }
    m->ver[which] = dict_version(d);
    for (int k = 0; k < m->n; k++) /* (the rows' agents are unequal: memo_read_row) */
        if (m->who[k] == key)
            m->of[k][which] = value;
}

/* The value at ``key`` of the dict ``which`` (-1: the instance dict, ``key`` agent_selection) as
 * recorded, a new reference, where the memo records that dict at tag ``before``; else NULL. */
static PyObject *memo_old(EnvMemo *m, int which, PyObject *key, uint64_t before)
{
    if (before == 0 || before != (which < 0 ? m->dv : m->ver[which]))
        return NULL;
    if (which < 0)
        return Py_NewRef(m->value[M_AGENT]);
    for (int k = 0; k < m->n; k++)
        if (m->who[k] == key)
            return Py_XNewRef(m->of[k][which]);
    return NULL;
}

/* d[key] = value (PyObject_SetItem), the memo following: ``which`` as memo_wrote's. Where the
 * memo records ``d`` as it is, its old value is held across the write, so that the write runs no
 * code (every key of ``d`` an exact str, ``key`` one) and the memo follows it exactly; the old
 * value released after (a destructor it runs then changes the dicts after: their tags say). */
static int memo_set(EnvMemo *m, int which, PyObject *d, PyObject *key, PyObject *value)
{
    uint64_t before = PyDict_CheckExact(d) && PyUnicode_CheckExact(key) ? dict_version(d) : 0;
    PyObject *old = memo_old(m, which, key, before);
    if (old == NULL) { /* (the instance dict written as a dict, as the calls did) */
        memo_forget(m);
        return which < 0 ? PyDict_SetItem(d, key, value) : PyObject_SetItem(d, key, value);
    }
    if (old == value) { /* (there already: the write would change nothing a program can see) */
        Py_DECREF(old);
        return 0;
    }
    int err = PyDict_SetItem(d, key, value);
    if (err == 0)
        memo_wrote(m, which, d, before, key, value);
    else
        memo_forget(m);
    Py_DECREF(old);
    return err;
}

/* A dead agent's step (_cstep.c's dead_step_held) with the dicts ``m`` (terminations, truncations,
 * rewards, cumulative rewards, infos): whether the memo records the instance dict ``d`` and those
 * of them it keeps as they are now, so that it may follow the step's writes. */
static int memo_dead_before(EnvMemo *m, PyObject *d, PyObject *agent, PyObject *const *dicts)
{
    static const int kept[4] = {M_TERM, M_TRUNC, M_CUM, M_INFOS};
    static const int at[4] = {0, 1, 3, 4};
    if (!MEMO_TAGS || m->dv == 0 || !PyDict_CheckExact(d) || dict_version(d) != m->dv || m->value[M_AGENT] != agent)
        return 0;
    for (int i = 0; i < 4; i++)
        if (dicts[at[i]] != m->dict[kept[i]] || dict_version(m->dict[kept[i]]) != m->ver[kept[i]])
            return 0;
    return m->dict[M_SEATS] != dicts[0] && m->dict[M_SEATS] != dicts[1] && m->dict[M_SEATS] != dicts[3] &&
           m->dict[M_SEATS] != dicts[4];
}

/* The step's writes are done, no code run since memo_dead_before: ``agent`` is gone from the four
 * dicts the memo keeps by agent (its row dropped; no other value changed), ``agent_selection`` of
 * ``d`` is the next agent (the memo's agent, where an exact str); the dicts' tags recorded anew. */
static void memo_dead_after(EnvMemo *m, PyObject *d, PyObject *agent)
{
    static const int kept[4] = {M_TERM, M_TRUNC, M_CUM, M_INFOS};
    PyObject *now = got(d, memo_keys(0)[M_AGENT]); /* (every key of d an exact str: no code run) */
    if (now == NULL || !PyUnicode_CheckExact(now)) {
        memo_forget(m);
        return;
    }
    m->dv = dict_version(d);
    m->value[M_AGENT] = now;
    for (int i = 0; i < 4; i++)
        m->ver[kept[i]] = dict_version(m->dict[kept[i]]);
    for (int k = 0; k < m->n; k++)
        if (m->who[k] == agent) {
            PyObject *gone = m->who[k]; /* (an exact str the caller holds: its release runs no code) */
            for (int j = k + 1; j < m->n; j++) {
                m->who[j - 1] = m->who[j];
                memcpy(m->of[j - 1], m->of[j], sizeof m->of[j]);
            }
            m->n--;
            Py_DECREF(gone);
            break;
        }
}
