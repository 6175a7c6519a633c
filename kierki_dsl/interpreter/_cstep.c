/* The compiled step core of a trick deal (kierki_dsl.interpreter._cstep).
 *
 * It knows nothing of any game: it executes tables that the Python side
 * (kierki_dsl/interpreter/stepper.py) compiles from a trick contract, with
 * cards as bits of 64-bit masks (card id = 13 * suit + rank, as cards.py).
 *
 *   Plan      what a contract says for (players, tricks, trump, deck): the
 *             cards beating each card, the static points per trick and card,
 *             the trick numbers whose start may change the legality programs,
 *             whether dynamic points, an early end or seat scorers apply.
 *   Programs  the legality programs of one trick situation, 9 slots (lead,
 *             follow by led suit, discard by led suit), each a list of rules
 *             (keep mask, fallback). Shared: the Python side caches one per
 *             situation key (legality.Legality.key) and C fills an empty slot
 *             by asking Python once (a rule reading the winning card or the
 *             hand makes its program live: asked at each decision instead).
 *   Core      one deal: passing, a trump call, then trick play, as TrickDeal
 *             does it (actions are ints below 64: cards 0..51, calls 53..57);
 *             or one started in play at a position from a seat's view with
 *             assumed hands (TrickDeal.from_view: search's sampled worlds). It
 *             plays out at random (random_playout, fastplay's draws) or by
 *             search's rule of thumb (thumb_playout, trickkernel.playout's draws).
 *
 * Everything rare calls back into Python through the deal's context object
 * (`ctx`): what comes first, a trump call or the first lead (_begin), the
 * call's choices and the plan of the trump called (_call_actions, _called),
 * a trick's programs (_at_trick, _program),
 * dynamic points (_dynamic), the early end (_ends_early), seat scoring at the
 * deal's end (_finish), and the wording of an illegal action or a rule error
 * (_illegal, _rule_error: the interpreter replays the deal and raises). No text
 * ever reaches this file: only ints and masks.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MAXP 8          /* seats */
#define MAXRULES 64     /* rules in one program (a contract has at most 33) */
#define NSLOTS 9        /* lead, follow x 4 suits, discard x 4 suits */
#define MAXTRICKS 52
/* The largest |points| of one seat in one deal (docs/engine.md, expr/bounds.py SCORE_LIMIT):
 * lint holds every ruleset to it; a score past it is declined to the interpreter, which
 * raises its located error (X703). Sums stay far inside int64 and are checked anyway. */
#define SCORE_LIMIT 1000000000000LL

enum { PH_PASS = 0, PH_PLAY = 1, PH_DONE = 2, PH_CALL = 3 };
enum { LEAD = 0, FOLLOW = 1, DISCARD = 2 };

static const uint64_t SUIT[4] = {0x1FFFULL, 0x1FFFULL << 13, 0x1FFFULL << 26, 0x1FFFULL << 39};
#define HEARTS_MASK (SUIT[1])

static inline int popcount64(uint64_t m) { return __builtin_popcountll(m); }
static inline int lowest(uint64_t m) { return __builtin_ctzll(m); }

/* The k-th lowest set bit of m (0-based; k < popcount(m)). */
static int kth_bit(uint64_t m, int k)
{
    while (k-- > 0)
        m &= m - 1;
    return lowest(m);
}

/* A Python int (or anything with __index__) as an unsigned 64-bit mask. */
static int as_mask(PyObject *o, uint64_t *out)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

static int as_int64(PyObject *o, int64_t *out)
{
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

/* ---------------------------------------------------------------- Plan -- */

typedef struct {
    PyObject_HEAD
    int ready;                   /* initialised, once: a plan in use never changes */
    int players, tricks, follow_suit, dynamic, early, seats, positive;
    unsigned char rank[52];      /* each card's strength in its suit (the contract's order) */
    uint64_t refresh;            /* bit n: trick n's start may change the programs */
    uint64_t beats[52];          /* cards that beat each card winning a trick */
    int64_t trick_points[MAXTRICKS + 2];
    int64_t *values;             /* (tricks + 2) x 52: points of each card in trick n */
} Plan;

static void Plan_dealloc(Plan *self)
{
    PyMem_Free(self->values);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Read a sequence of exactly n ints into out, each converted by conv (as_mask or as_int64)
   into an element of size bytes. */
static int read_seq(PyObject *seq, void *out, size_t size, int (*conv)(PyObject *, void *), Py_ssize_t n,
                    const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd entries expected", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (conv(PySequence_Fast_GET_ITEM(fast, i), (char *)out + i * size) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    Py_DECREF(fast);
    return 0;
}

static int conv_mask(PyObject *o, void *out) { return as_mask(o, (uint64_t *)out); }
static int conv_int64(PyObject *o, void *out) { return as_int64(o, (int64_t *)out); }

/* A sequence of n masks (non-negative ints below 2**64). */
static int read_masks(PyObject *seq, uint64_t *out, Py_ssize_t n, const char *what)
{
    return read_seq(seq, out, sizeof *out, conv_mask, n, what);
}

/* A sequence of n signed values. */
static int read_ints(PyObject *seq, int64_t *out, Py_ssize_t n, const char *what)
{
    return read_seq(seq, out, sizeof *out, conv_int64, n, what);
}

/* 0 if |v| <= SCORE_LIMIT, else -1 with a ValueError: a plan holds only points it can add. */
static int within_limit(int64_t v, const char *what)
{
    if (v >= -SCORE_LIMIT && v <= SCORE_LIMIT)
        return 0;
    PyErr_Format(PyExc_ValueError, "%s: points past the score limit", what);
    return -1;
}

/* Plan(players, tricks, follow_suit, beats[52], trick_points[tricks + 2],
 *      values[tricks + 2][52], refresh, dynamic, early, seats, ranks[52], positive)
 * ranks and positive are what the rule-of-thumb playout reads (trickkernel.playout):
 * each card's strength in its suit, and whether taking tricks is good. */
static int Plan_init(Plan *self, PyObject *args, PyObject *kw)
{
    PyObject *beats, *tp, *values, *ranks;
    unsigned long long refresh;
    if (self->ready || self->values != NULL) {  /* cores may be reading it */
        PyErr_SetString(PyExc_TypeError, "a plan is initialised once");
        return -1;
    }
    if (kw != NULL && PyDict_GET_SIZE(kw)) {
        PyErr_SetString(PyExc_TypeError, "Plan takes no keyword arguments");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "iipOOOKpppOp", &self->players, &self->tricks, &self->follow_suit, &beats, &tp,
                          &values, &refresh, &self->dynamic, &self->early, &self->seats, &ranks, &self->positive))
        return -1;
    if (self->players < 1 || self->players > MAXP || self->tricks < 1 || self->tricks > MAXTRICKS) {
        PyErr_SetString(PyExc_ValueError, "players 1..8 and tricks 1..52 expected");
        return -1;
    }
    self->refresh = refresh;
    Py_ssize_t rows = self->tricks + 2;
    int64_t rank[52];
    if (read_masks(beats, self->beats, 52, "beats") < 0 || read_ints(tp, self->trick_points, rows, "trick points") < 0
        || read_ints(ranks, rank, 52, "ranks") < 0)
        return -1;
    for (int c = 0; c < 52; c++) {
        if (rank[c] < 0 || rank[c] > 255) {
            PyErr_SetString(PyExc_ValueError, "ranks: 0..255 expected");
            return -1;
        }
        self->rank[c] = (unsigned char)rank[c];
    }
    int64_t *table = PyMem_Calloc(rows * 52, sizeof(int64_t));
    if (table == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    PyObject *fast = PySequence_Fast(values, "values");
    int err = fast == NULL;
    if (!err && (err = PySequence_Fast_GET_SIZE(fast) != rows))
        PyErr_SetString(PyExc_ValueError, "values: one row per trick number expected");
    for (Py_ssize_t n = 0; !err && n < rows; n++)
        err = read_ints(PySequence_Fast_GET_ITEM(fast, n), table + 52 * n, 52, "values row") < 0;
    Py_XDECREF(fast);
    for (Py_ssize_t i = 0; !err && i < rows * 52; i++)
        err = within_limit(table[i], "values");
    for (Py_ssize_t n = 0; !err && n < rows; n++)
        err = within_limit(self->trick_points[n], "trick points");
    if (err) {
        PyMem_Free(table);
        return -1;
    }
    self->values = table;
    self->ready = 1;
    return 0;
}

/* Whether a plan is initialised: else an error. */
static int plan_ready(const Plan *plan)
{
    if (plan->ready)
        return 1;
    PyErr_SetString(PyExc_ValueError, "the plan was not initialised");
    return 0;
}

static PyTypeObject PlanType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kierki_dsl.interpreter._cstep.Plan",
    .tp_doc = "A trick contract's tables for (players, tricks, trump, deck).",
    .tp_basicsize = sizeof(Plan),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Plan_init,
    .tp_dealloc = (destructor)Plan_dealloc,
};

/* ------------------------------------------------------------ Programs -- */

typedef struct {
    uint64_t keep;
    int fallback;
} Rule;

typedef struct {
    int ready, n;
    Rule rule[MAXRULES];
} Program;

typedef struct {
    PyObject_HEAD
    Program slot[NSLOTS];
} Programs;

static PyTypeObject ProgramsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kierki_dsl.interpreter._cstep.Programs",
    .tp_doc = "The legality programs of one trick situation, filled as they are first needed.",
    .tp_basicsize = sizeof(Programs),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
};

static int slot_of(int phase, int led) { return phase == LEAD ? 0 : (phase == FOLLOW ? 1 : 5) + led; }

/* Fill a program slot from a sequence of (keep mask, fallback) pairs. */
static int program_fill(Program *p, PyObject *rules)
{
    PyObject *fast = PySequence_Fast(rules, "program");
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAXRULES) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many rules in one program");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t keep;
        int fallback;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "Kp", &keep, &fallback)) {
            Py_DECREF(fast);
            return -1;
        }
        p->rule[i].keep = keep;
        p->rule[i].fallback = fallback;
    }
    Py_DECREF(fast);
    p->n = (int)n;
    return 0;
}

/* ----------------------------------------------------------------- Core -- */

typedef struct {
    PyObject_HEAD
    Plan *plan;
    PyObject *ctx;               /* the Python side: callbacks, shared by clones */
    Programs *progs;             /* the programs of the trick in progress */
    int players, phase, to_move, leader, direction, next[MAXP];
    int pass_count, pass_step;   /* cards each seat passes; seats on they go */
    uint64_t hands[MAXP], passes[MAXP];
    int trick_no, led, win, trick_len, trick_seat[MAXP], trick_card[MAXP];
    uint64_t played, watch, taken[MAXP];
    int hearts_broken, ended_early, tricks_won[MAXP];
    int64_t scores[MAXP];
    uint64_t calls;              /* in a trump call: the call actions allowed */
    uint64_t lhand, lmask;       /* the hand on turn whose legal cards are lmask */
    int lvalid;
    unsigned char *acts;         /* every action applied, in order */
    int nacts, cap;
    int failed;                  /* an action stopped half-way (a callback raised): the deal is broken */
    int busy;                    /* in the middle of a step: a callback may read the core, not step it */
} Core;

static PyTypeObject CoreType;

/* Whether the core was initialised (a bare Core.__new__ has no plan, a failed __init__ is
 * undone) and no action stopped half-way in it: else an error. */
static int ready(Core *self)
{
    if (self->plan == NULL || self->acts == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the step core was not initialised");
        return 0;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the step core is in the middle of a step: a callback may not step it");
        return 0;
    }
    if (self->failed || (self->progs == NULL && self->phase == PH_PLAY)) {
        PyErr_SetString(PyExc_RuntimeError, "the step core stopped on an error in an earlier action: "
                                            "the deal cannot go on");
        return 0;
    }
    return 1;
}

/* An action stopped half-way (a callback raised, e.g. Ctrl-C inside it): the core refuses
 * every further step. Returns -1 for the caller to pass on. */
static int broken(Core *self)
{
    self->failed = 1;
    return -1;
}

/* Add an action to the history (its room is made for a whole deal at init). */
static void record(Core *self, int action)
{
    if (self->nacts < self->cap)
        self->acts[self->nacts++] = (unsigned char)action;
}

static void Core_dealloc(Core *self)
{
    Py_XDECREF(self->plan);
    Py_XDECREF(self->ctx);
    Py_XDECREF(self->progs);
    PyMem_Free(self->acts);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* ctx.<name>(self, *args) as a new reference (NULL on error). */
static PyObject *callback(Core *self, const char *name, const char *fmt, ...)
{
    PyObject *meth = PyObject_GetAttrString(self->ctx, name);
    if (meth == NULL)
        return NULL;
    PyObject *rest = NULL, *args = NULL, *res = NULL;
    va_list va;
    va_start(va, fmt);
    rest = Py_VaBuildValue(fmt, va);
    va_end(va);
    if (rest == NULL)
        goto done;
    if (!PyTuple_Check(rest)) {  /* a single value */
        PyObject *t = PyTuple_Pack(1, rest);
        Py_DECREF(rest);
        if ((rest = t) == NULL)
            goto done;
    }
    args = PyTuple_New(PyTuple_GET_SIZE(rest) + 1);
    if (args == NULL)
        goto done;
    Py_INCREF(self);
    PyTuple_SET_ITEM(args, 0, (PyObject *)self);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(rest); i++) {
        PyObject *it = PyTuple_GET_ITEM(rest, i);
        Py_INCREF(it);
        PyTuple_SET_ITEM(args, i + 1, it);
    }
    res = PyObject_Call(meth, args, NULL);
done:
    Py_DECREF(meth);
    Py_XDECREF(rest);
    Py_XDECREF(args);
    return res;
}

/* The programs of the trick about to start: ctx._at_trick(self, n, broken, played)
 * gives (Programs, watched cards). */
static int at_trick(Core *self)
{
    PyObject *r = callback(self, "_at_trick", "(iiK)", self->trick_no, self->hearts_broken,
                           (unsigned long long)self->played);
    if (r == NULL)
        return -1;
    PyObject *progs;
    unsigned long long watch;
    if (!PyArg_ParseTuple(r, "O!K", &ProgramsType, &progs, &watch)) {
        Py_DECREF(r);
        return -1;
    }
    Py_INCREF(progs);
    Py_XSETREF(self->progs, (Programs *)progs);
    self->watch = watch;
    Py_DECREF(r);
    return 0;
}

/* What follows the passing: ctx._begin(self) gives (phase, seat, calls): a trump
 * call by `seat` among the actions `calls`, or play led by `seat` (then the first
 * trick's programs). */
static int start_play(Core *self)
{
    PyObject *r = callback(self, "_begin", "()");
    if (r == NULL)
        return -1;
    int phase, seat;
    unsigned long long calls;
    int ok = PyArg_ParseTuple(r, "iiK", &phase, &seat, &calls);
    Py_DECREF(r);
    if (!ok)
        return -1;
    if (seat < 0 || seat >= self->players || (phase != PH_PLAY && phase != PH_CALL)) {
        PyErr_SetString(PyExc_ValueError, "_begin: a seat to call or to lead expected");
        return -1;
    }
    self->phase = phase;
    self->to_move = seat;
    self->calls = calls;
    self->lvalid = 0;
    if (phase == PH_CALL)
        return 0;
    self->leader = seat;
    return at_trick(self);
}

/* The trump is called: ctx._called(self, action) gives the plan and the context of
 * the trump called, which replace the deal's; then play starts. */
static int call_trump(Core *self, int action)
{
    PyObject *r = callback(self, "_called", "(i)", action);
    if (r == NULL)
        return -1;
    PyObject *plan, *ctx;
    if (!PyArg_ParseTuple(r, "O!O", &PlanType, &plan, &ctx)) {
        Py_DECREF(r);
        return -1;
    }
    const Plan *p = (const Plan *)plan;
    if (!plan_ready(p) || p->players != self->plan->players || p->tricks != self->plan->tricks) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "_called: a plan of the same players and tricks expected");
        Py_DECREF(r);
        return -1;
    }
    Py_INCREF(plan);
    Py_SETREF(self->plan, (Plan *)plan);
    Py_INCREF(ctx);
    Py_SETREF(self->ctx, ctx);
    Py_DECREF(r);
    record(self, action);
    self->calls = 0;
    return start_play(self);
}

#define DECK52 ((1ULL << 52) - 1)

/* A position in play taken from a seat's view (TrickDeal.from_view):
 * (to_move, leader, trick_no, played, hearts_broken, scores[n], taken[n], tricks_won[n],
 *  trick ((seat, card), ...)); the winning card of the trick is worked out from the plan. */
static int place(Core *self, PyObject *pos)
{
    int n = self->players, broken;
    unsigned long long played;
    PyObject *scores, *taken, *won, *trick;
    if (!PyTuple_Check(pos)) {
        PyErr_SetString(PyExc_TypeError, "position: a tuple expected");
        return -1;
    }
    if (!PyArg_ParseTuple(pos, "iiiKpOOOO", &self->to_move, &self->leader, &self->trick_no, &played, &broken,
                          &scores, &taken, &won, &trick))
        return -1;
    int64_t w[MAXP];
    if (read_ints(scores, self->scores, n, "scores") < 0 || read_masks(taken, self->taken, n, "taken") < 0
        || read_ints(won, w, n, "tricks won") < 0)
        return -1;
    if (self->to_move < 0 || self->to_move >= n || self->leader < 0 || self->leader >= n || self->trick_no < 1
        || self->trick_no > self->plan->tricks || (played & ~DECK52)) {
        PyErr_SetString(PyExc_ValueError, "position: a seat on turn, a leader, a trick number of the deal expected");
        return -1;
    }
    self->played = played;
    self->hearts_broken = broken;
    for (int s = 0; s < n; s++)
        if (within_limit(self->scores[s], "position: scores") < 0)
            return -1;
    for (int s = 0; s < n; s++) {
        self->tricks_won[s] = (int)w[s];
        if (self->taken[s] & ~DECK52) {
            PyErr_SetString(PyExc_ValueError, "position: cards taken expected");
            return -1;
        }
    }
    PyObject *fast = PySequence_Fast(trick, "trick");
    if (fast == NULL)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    int err = len >= n;
    for (Py_ssize_t i = 0; !err && i < len; i++) {
        int seat, card;
        PyObject *play = PySequence_Fast_GET_ITEM(fast, i);
        err = !PyTuple_Check(play) || !PyArg_ParseTuple(play, "ii", &seat, &card);
        if (err)
            break;
        err = seat < 0 || seat >= n || card < 0 || card >= 52;
        if (err)
            break;
        self->trick_seat[i] = seat;
        self->trick_card[i] = card;
        if (i == 0) {
            self->led = card / 13;
            self->win = card;
        } else if (self->plan->beats[self->win] >> card & 1) {
            self->win = card;
        }
    }
    Py_DECREF(fast);
    if (err) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "position: a trick in progress of (seat, card) pairs expected");
        return -1;
    }
    self->trick_len = (int)len;
    self->phase = PH_PLAY;
    self->lvalid = 0;
    return at_trick(self);
}

/* Core(plan, ctx, hands, dealer, direction, pass_count, pass_step[, position]): a deal
 * from its start (passing, a trump call or the first lead), or from a position in play. */
static int core_start(Core *self, Plan *plan, PyObject *ctx, PyObject *hands, int dealer, PyObject *pos)
{
    int n = plan->players;
    Py_INCREF(plan);
    self->plan = plan;
    Py_INCREF(ctx);
    self->ctx = ctx;
    self->players = n;
    if (read_masks(hands, self->hands, n, "hands") < 0)
        return -1;
    for (int s = 0; s < n; s++) {
        if (self->hands[s] & ~DECK52) {
            PyErr_SetString(PyExc_ValueError, "hands: cards 0..51 expected");
            return -1;
        }
        self->next[s] = ((s + self->direction) % n + n) % n;
    }
    self->cap = self->pass_count * n + 52 + 1;
    self->acts = PyMem_Malloc(self->cap);
    if (self->acts == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->trick_no = 1;
    self->led = self->win = self->leader = -1;
    if (pos != Py_None) {
        if (self->pass_step) {
            PyErr_SetString(PyExc_ValueError, "a position in play has no passing ahead");
            return -1;
        }
        return place(self, pos);
    }
    if (self->pass_step) {
        self->phase = PH_PASS;
        self->to_move = self->next[((dealer % n) + n) % n];
        return 0;
    }
    return start_play(self);
}

static int Core_init(Core *self, PyObject *args, PyObject *kw)
{
    Plan *plan;
    PyObject *ctx, *hands, *pos = Py_None;
    int dealer, direction, pass_count, pass_step;
    if (self->plan != NULL) {
        PyErr_SetString(PyExc_TypeError, "a core is initialised once");
        return -1;
    }
    if (kw != NULL && PyDict_GET_SIZE(kw)) {
        PyErr_SetString(PyExc_TypeError, "Core takes no keyword arguments");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "O!OOiiii|O", &PlanType, &plan, &ctx, &hands, &dealer, &direction, &pass_count,
                          &pass_step, &pos))
        return -1;
    if (!plan_ready(plan))
        return -1;
    if (pass_count < 0 || pass_count > 13) {
        PyErr_SetString(PyExc_ValueError, "0..13 cards passed expected");
        return -1;
    }
    if (direction < -MAXP || direction > MAXP || pass_step < -MAXP || pass_step > MAXP || dealer < -MAXP
        || dealer > 64) {
        PyErr_SetString(PyExc_ValueError, "a dealer, a direction and a pass step of a few seats expected");
        return -1;
    }
    self->direction = direction;
    self->pass_count = pass_count;
    self->pass_step = pass_step;
    self->busy = 1;
    int err = core_start(self, plan, ctx, hands, dealer, pos);
    self->busy = 0;
    if (err == 0)
        return 0;
    /* undone: a failed __init__ leaves a bare core, which every method refuses */
    Py_CLEAR(self->plan);
    Py_CLEAR(self->ctx);
    Py_CLEAR(self->progs);
    PyMem_Free(self->acts);
    size_t head = offsetof(Core, plan);
    memset((char *)self + head, 0, sizeof(Core) - head);
    return -1;
}

/* Narrow `legal` by a program; on a rule without fallback leaving nothing of a
 * non-empty hand, *error is set (the interpreter words that error). */
static uint64_t narrow(uint64_t legal, const Program *p, int *error)
{
    for (int i = 0; i < p->n; i++) {
        uint64_t m = legal & p->rule[i].keep;
        if (m || !p->rule[i].fallback) {
            if (!m && legal) {
                *error = 1;
                return 0;
            }
            legal = m;
        }
    }
    return legal;
}

/* The program of (phase, led) in this position. An empty slot is asked of
 * ctx._program, which gives (live, rules): a program that holds for the whole trick
 * fills the slot; a live one (its rules read the winning card or the hand) is filled
 * into `scratch` and asked again at the next decision. */
static const Program *program(Core *self, int phase, int led, Program *scratch)
{
    Program *p = &self->progs->slot[slot_of(phase, led)];
    if (p->ready)
        return p;
    PyObject *r = callback(self, "_program", "(iiiiKiK)", phase, led, self->trick_no, self->hearts_broken,
                           (unsigned long long)self->played, self->win,
                           (unsigned long long)self->hands[self->to_move]);
    if (r == NULL)
        return NULL;
    int live;
    PyObject *rules;
    int err = !PyArg_ParseTuple(r, "pO", &live, &rules);
    if (!err) {
        if (live)
            p = scratch;
        err = program_fill(p, rules) < 0;
        p->ready = !live && !err;
    }
    Py_DECREF(r);
    return err ? NULL : p;
}

/* The legal cards of the seat on turn in play (Legality.legal); -1 on error. */
static int legal_play(Core *self, uint64_t *out)
{
    uint64_t hand = self->hands[self->to_move];
    if (self->lvalid && self->lhand == hand) {
        *out = self->lmask;
        return 0;
    }
    int phase = LEAD, led = self->led;
    uint64_t legal = hand;
    if (led >= 0) {
        uint64_t suited = hand & SUIT[led];
        phase = suited ? FOLLOW : DISCARD;
        if (suited && self->plan->follow_suit)
            legal = suited;
    }
    Program scratch;
    const Program *p = program(self, phase, led < 0 ? 0 : led, &scratch);
    if (p == NULL)
        return -1;
    int error = 0;
    legal = narrow(legal, p, &error);
    if (error) {  /* the interpreter raises the rule's located error */
        PyObject *r = callback(self, "_rule_error", "()");
        Py_XDECREF(r);
        if (r != NULL)
            PyErr_SetString(PyExc_RuntimeError, "a rule left no card but the interpreter found one");
        return -1;
    }
    self->lhand = hand;
    self->lmask = legal;
    self->lvalid = 1;
    *out = legal;
    return 0;
}

/* The cards the seat on turn may pass: its hand less the cards it chose already. */
static uint64_t legal_pass(Core *self) { return self->hands[self->to_move] & ~self->passes[self->to_move]; }

static PyObject *mask_list(uint64_t m)
{
    PyObject *list = PyList_New(popcount64(m));
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; m; m &= m - 1, i++) {
        PyObject *c = PyLong_FromLong(lowest(m));
        if (c == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, c);
    }
    return list;
}

/* The legal cards as a mask (0 once the deal is over); -1 on error. */
static int legal_mask(Core *self, uint64_t *out)
{
    if (self->phase == PH_PLAY)
        return legal_play(self, out);
    *out = self->phase == PH_PASS ? legal_pass(self) : (self->phase == PH_CALL ? self->calls : 0);
    return 0;
}

static PyObject *legal_actions_step(Core *self, PyObject *unused)
{
    uint64_t m;
    if (self->phase == PH_CALL)  /* in the contract's order of choices */
        return callback(self, "_call_actions", "()");
    if (legal_mask(self, &m) < 0)
        return NULL;
    return mask_list(m);
}

/* ------------------------------------------------------ playing cards -- */

/* Every seat gives its chosen cards to the seat pass_step places on, at once. */
static void exchange(Core *self)
{
    int n = self->players;
    uint64_t kept[MAXP];
    for (int s = 0; s < n; s++)
        kept[s] = self->hands[s] & ~self->passes[s];
    for (int s = 0; s < n; s++) {
        int from = (((s - self->pass_step) % n) + n) % n;
        self->hands[s] = kept[s] | self->passes[from];
    }
}

static int pass_card(Core *self, int card)
{
    int seat = self->to_move;
    record(self, card);
    self->passes[seat] |= 1ULL << card;
    if (popcount64(self->passes[seat]) < self->pass_count)
        return 0;
    if (self->nacts < self->pass_count * self->players) {
        self->to_move = self->next[seat];
        return 0;
    }
    exchange(self);
    return start_play(self);
}

/* A score past SCORE_LIMIT (or past int64 on the way): the core declines to hold it. The
 * interpreter replays the deal and raises its located error (ctx._score_error); -1. */
static int score_error(Core *self)
{
    PyObject *r = callback(self, "_score_error", "()");
    Py_XDECREF(r);
    if (r != NULL)
        PyErr_SetString(PyExc_RuntimeError, "a score past the step core's limit, which the interpreter did not find");
    return -1;
}

/* The deal's end: seat scorers (ctx._finish gives the final scores), then done. */
static int finish_deal(Core *self)
{
    if (self->trick_no <= self->plan->tricks)
        self->ended_early = 1;
    if (self->plan->seats) {
        PyObject *r = callback(self, "_finish", "()");
        if (r == NULL)
            return -1;
        int64_t scores[MAXP];
        int err = read_ints(r, scores, self->players, "scores");
        Py_DECREF(r);
        for (int s = 0; !err && s < self->players; s++)
            err = scores[s] > SCORE_LIMIT || scores[s] < -SCORE_LIMIT;
        if (err)
            return PyErr_Occurred() ? -1 : score_error(self);
        memcpy(self->scores, scores, sizeof(int64_t) * self->players);
    }
    self->phase = PH_DONE;
    self->to_move = -1;
    return 0;
}

/* The int a callback returned (r: its new reference, or NULL on error). */
static int call_for_int(PyObject *r, long long *out)
{
    if (r == NULL)
        return -1;
    *out = PyLong_AsLongLong(r);
    Py_DECREF(r);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* The trick is complete: score it, then the next trick or the deal's end. */
static int finish_trick(Core *self)
{
    const Plan *plan = self->plan;
    int n = self->trick_no, winner = -1, leader = self->trick_seat[0];
    const int64_t *value = plan->values + 52 * n;
    int64_t pts = plan->trick_points[n];
    uint64_t tm = 0;
    int over = 0;
    for (int i = 0; i < self->trick_len; i++) {
        int c = self->trick_card[i];
        tm |= 1ULL << c;
        over |= __builtin_add_overflow(pts, value[c], &pts);
        if (c == self->win)
            winner = self->trick_seat[i];
    }
    if (winner < 0) {
        PyErr_SetString(PyExc_RuntimeError, "the winning card is not in the trick");
        return -1;
    }
    if (plan->dynamic) {
        long long extra;
        if (call_for_int(callback(self, "_dynamic", "(Kiii)", (unsigned long long)tm, winner, leader, n), &extra) < 0)
            return -1;
        over |= __builtin_add_overflow(pts, (int64_t)extra, &pts);
    }
    int64_t score;
    over |= __builtin_add_overflow(self->scores[winner], pts, &score);
    if (over || score > SCORE_LIMIT || score < -SCORE_LIMIT)
        return score_error(self);
    self->scores[winner] = score;
    self->taken[winner] |= tm;
    self->tricks_won[winner] += 1;
    self->played |= tm;
    if (tm & HEARTS_MASK)
        self->hearts_broken = 1;
    self->trick_len = 0;
    self->led = self->win = -1;
    self->trick_no = n = n + 1;
    self->to_move = winner;
    self->lvalid = 0;
    if (n > plan->tricks)
        return finish_deal(self);
    if (plan->early) {
        long long stop;
        if (call_for_int(callback(self, "_ends_early", "()"), &stop) < 0)
            return -1;
        if (stop)
            return finish_deal(self);
    }
    if ((tm & self->watch) || (n < 64 && (plan->refresh >> n & 1)))
        return at_trick(self);
    return 0;
}

/* Play a card known to be legal (TrickDeal.play_legal). */
static int play_card(Core *self, int card)
{
    int seat = self->to_move;
    record(self, card);
    self->hands[seat] &= ~(1ULL << card);
    self->lvalid = 0;
    if (self->trick_len == 0) {
        self->led = card / 13;
        self->win = card;
    } else if (self->plan->beats[self->win] >> card & 1) {
        self->win = card;
    }
    self->trick_seat[self->trick_len] = seat;
    self->trick_card[self->trick_len++] = card;
    if (self->trick_len < self->players) {
        self->to_move = self->next[seat];
        return 0;
    }
    return finish_trick(self);
}

/* Apply a legal action of the current phase. */
static int apply_legal(Core *self, int action)
{
    int err = self->phase == PH_PLAY ? play_card(self, action)
              : self->phase == PH_PASS ? pass_card(self, action) : call_trump(self, action);
    return err < 0 ? broken(self) : 0;
}

/* The interpreter words why `action` is illegal: ctx._illegal raises IllegalAction. */
static PyObject *illegal(Core *self, PyObject *action)
{
    PyObject *r = callback(self, "_illegal", "(O)", action);
    if (r != NULL) {
        Py_DECREF(r);
        PyErr_SetString(PyExc_RuntimeError, "the interpreter found legal an action the step core refused");
    }
    return NULL;
}

static PyObject *apply_action_step(Core *self, PyObject *arg)
{
    long a = -1;
    if (PyLong_Check(arg)) {
        a = PyLong_AsLong(arg);
        if (a == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            a = -1;
        }
    } else if (PyIndex_Check(arg)) {
        PyObject *i = PyNumber_Index(arg);
        if (i == NULL)
            return NULL;
        a = PyLong_AsLong(i);
        Py_DECREF(i);
        if (a == -1 && PyErr_Occurred())
            PyErr_Clear();
    }
    uint64_t m;
    if (legal_mask(self, &m) < 0)
        return NULL;
    if (a < 0 || a >= 64 || !(m >> a & 1))
        return illegal(self, arg);
    if (apply_legal(self, (int)a) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* play_legal(action): an action taken from legal_actions, not checked against the
 * rules again (search); only that it is a card of the hand on turn (or a call in a
 * trump call), so that nothing outside the deal's tables is ever read. */
static PyObject *play_legal_step(Core *self, PyObject *arg)
{
    long a = PyLong_AsLong(arg);
    if (a == -1 && PyErr_Occurred())
        return NULL;
    uint64_t own = self->phase == PH_PASS ? legal_pass(self) : self->hands[self->to_move];
    int held = self->phase != PH_DONE && 0 <= a && a < 52 && (own >> a & 1);
    int called = self->phase == PH_CALL && 0 <= a && a < 64 && (self->calls >> a & 1);
    if (self->phase == PH_CALL ? !called : !held) {
        PyErr_SetString(PyExc_ValueError, "an action of the seat on turn is expected");
        return NULL;
    }
    if (apply_legal(self, (int)a) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* ------------------------------------------------------ random playout -- */

/* getrandbits(k) of the random source grb. */
static int getbits(PyObject *grb, int k, unsigned long long *out)
{
    PyObject *arg = PyLong_FromLong(k);
    if (arg == NULL)
        return -1;
    PyObject *r = PyObject_CallOneArg(grb, arg);
    Py_DECREF(arg);
    if (r == NULL)
        return -1;
    unsigned long long bits = PyLong_AsUnsignedLongLong(r);
    Py_DECREF(r);
    if (bits == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    if (bits >> k) {
        PyErr_Format(PyExc_ValueError, "getrandbits(%d) expected", k);
        return -1;
    }
    *out = bits;
    return 0;
}

/* draw(n) = (getrandbits(32) * n) >> 32, fastplay's protocol. */
static int draw(PyObject *grb, int n, int *out)
{
    unsigned long long bits;
    if (n <= 0) {
        PyErr_SetString(PyExc_ValueError, "getrandbits(32) and something to draw from expected");
        return -1;
    }
    if (getbits(grb, 32, &bits) < 0)
        return -1;
    *out = (int)((bits * (unsigned long long)n) >> 32);
    return 0;
}

/* The passes still to choose, drawn seat by seat from seat 0 (fastplay._pass_cards),
 * then applied in turn order. */
static int playout_passes(Core *self, PyObject *grb)
{
    int n = self->players;
    unsigned char order[MAXP][13];
    int count[MAXP], used[MAXP] = {0};
    for (int s = 0; s < n; s++) {
        uint64_t chosen = self->passes[s];
        count[s] = self->pass_count - popcount64(chosen);
        for (int i = 0; i < count[s]; i++) {
            uint64_t left = self->hands[s] & ~chosen;
            int k;
            if (draw(grb, popcount64(left), &k) < 0)
                return -1;
            int card = kth_bit(left, k);
            chosen |= 1ULL << card;
            order[s][i] = (unsigned char)card;
        }
    }
    while (self->phase == PH_PASS) {
        int s = self->to_move;
        if (pass_card(self, order[s][used[s]++]) < 0)
            return broken(self);
    }
    return 0;
}

/* One random card: a follow of the suit led draws only when there is a choice. */
static int playout_card(Core *self, PyObject *grb)
{
    uint64_t m;
    if (legal_play(self, &m) < 0)
        return -1;
    int count = popcount64(m), k = 0;
    if (!m) {
        PyErr_SetString(PyExc_RuntimeError, "no card to play");
        return -1;
    }
    int follow = self->led >= 0 && (self->hands[self->to_move] & SUIT[self->led]);
    if ((count > 1 || !follow) && draw(grb, count, &k) < 0)
        return -1;
    return play_card(self, kth_bit(m, k)) < 0 ? broken(self) : 0;
}

static PyObject *scores_list(Core *self)
{
    PyObject *list = PyList_New(self->players);
    if (list == NULL)
        return NULL;
    for (int s = 0; s < self->players; s++) {
        PyObject *v = PyLong_FromLongLong(self->scores[s]);
        if (v == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, s, v);
    }
    return list;
}

/* A random trump call: the k-th of the choices in the contract's order. */
static int playout_call(Core *self, PyObject *grb)
{
    PyObject *calls = callback(self, "_call_actions", "()");
    if (calls == NULL)
        return -1;
    if (!PyList_Check(calls) || PyList_GET_SIZE(calls) == 0) {
        Py_DECREF(calls);
        PyErr_SetString(PyExc_TypeError, "_call_actions: a list of calls expected");
        return -1;
    }
    int k, err = draw(grb, (int)PyList_GET_SIZE(calls), &k);
    long action = err ? -1 : PyLong_AsLong(PyList_GET_ITEM(calls, k));
    Py_DECREF(calls);
    if (err || (action == -1 && PyErr_Occurred()))
        return -1;
    return call_trump(self, (int)action) < 0 ? broken(self) : 0;
}

static PyObject *random_playout_step(Core *self, PyObject *grb)
{
    while (self->phase != PH_DONE) {
        int err = self->phase == PH_PASS ? playout_passes(self, grb)
                  : self->phase == PH_CALL ? playout_call(self, grb) : playout_card(self, grb);
        if (err < 0)
            return NULL;
    }
    return scores_list(self);
}

/* The rule of thumb of trickkernel._thumb among the legal cards m (two or more) of a
 * trick in progress: where tricks pay, the weakest card that wins (else the weakest);
 * following where tricks cost, the strongest card that loses (else the strongest); else
 * the card carrying the fewest points, the strongest of those. Ties go to the lowest card
 * id, as Python's min and max over the ascending list keep the first. */
static int thumb_card(const Core *self, uint64_t m)
{
    const Plan *plan = self->plan;
    const unsigned char *rank = plan->rank;
    uint64_t beating = m & plan->beats[self->win];
    int best = -1;
    if (plan->positive) {
        for (uint64_t pool = beating ? beating : m; pool; pool &= pool - 1) {
            int c = lowest(pool);
            if (best < 0 || rank[c] < rank[best])
                best = c;
        }
        return best;
    }
    if (lowest(m) / 13 == self->led) {
        uint64_t losing = m & ~beating;
        for (uint64_t pool = losing ? losing : m; pool; pool &= pool - 1) {
            int c = lowest(pool);
            if (best < 0 || rank[c] > rank[best])
                best = c;
        }
        return best;
    }
    const int64_t *value = plan->values + 52 * self->trick_no;
    for (uint64_t pool = m; pool; pool &= pool - 1) {
        int c = lowest(pool);
        if (best < 0 || value[c] < value[best] || (value[c] == value[best] && rank[c] > rank[best]))
            best = c;
    }
    return best;
}

/* thumb_playout(getrandbits): play the rest of the deal (in play) as trickkernel.playout
 * does, drawing the same bits: one legal card is played without a draw; a lead draws the
 * k-th legal card (getrandbits(32)); in a trick, getrandbits(2) == 0 draws one likewise,
 * else the rule of thumb picks. The scores. */
static PyObject *thumb_playout_step(Core *self, PyObject *grb)
{
    while (self->phase != PH_DONE) {
        if (self->phase != PH_PLAY) {
            PyErr_SetString(PyExc_ValueError, "the rule-of-thumb playout starts in play");
            return NULL;
        }
        uint64_t m;
        if (legal_play(self, &m) < 0)
            return NULL;
        if (!m) {
            PyErr_SetString(PyExc_RuntimeError, "no card to play");
            return NULL;
        }
        int card = lowest(m);
        if (m & (m - 1)) {
            int at_random = self->trick_len == 0;
            if (!at_random) {
                unsigned long long bits;
                if (getbits(grb, 2, &bits) < 0)
                    return NULL;
                at_random = bits == 0;
            }
            int k;
            if (!at_random)
                card = thumb_card(self, m);
            else if (draw(grb, popcount64(m), &k) < 0)
                return NULL;
            else
                card = kth_bit(m, k);
        }
        if (play_card(self, card) < 0) {
            broken(self);
            return NULL;
        }
    }
    return scores_list(self);
}

/* --------------------------------------------------------------- queries -- */

static PyObject *Core_is_terminal(Core *self, PyObject *unused) { return PyBool_FromLong(self->phase == PH_DONE); }

static PyObject *Core_current_player(Core *self, PyObject *unused)
{
    return PyLong_FromLong(self->phase == PH_DONE ? -1 : self->to_move);
}

static PyObject *Core_returns(Core *self, PyObject *unused) { return scores_list(self); }

static PyObject *legal_mask_step(Core *self, PyObject *unused)
{
    uint64_t m;
    if (legal_mask(self, &m) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(m);
}


/* Every method that may step the core or call back into Python: the core checked first
 * (initialised, not broken, not in the middle of a step), then marked busy while it runs, so
 * that a callback may read the core but not step it (re-entered, it would write past a trick). */
#define GUARDED(name)                                                      \
    static PyObject *Core_##name(Core *self, PyObject *arg)                \
    {                                                                      \
        if (!ready(self))                                                  \
            return NULL;                                                   \
        self->busy = 1;                                                    \
        PyObject *r = name##_step(self, arg);                              \
        self->busy = 0;                                                    \
        return r;                                                          \
    }
GUARDED(legal_actions)
GUARDED(apply_action)
GUARDED(play_legal)
GUARDED(random_playout)
GUARDED(thumb_playout)
GUARDED(legal_mask)

/* A copy: state copied, plan, context and programs shared (they are never changed
 * but for empty program slots filled, as every copy would fill them). */
static PyObject *Core_clone(Core *self, PyObject *unused)
{
    if (!ready(self))
        return NULL;
    Core *o = (Core *)Py_TYPE(self)->tp_alloc(Py_TYPE(self), 0);
    if (o == NULL)
        return NULL;
    unsigned char *acts = PyMem_Malloc(self->cap);
    if (acts == NULL) {
        Py_DECREF(o);
        return PyErr_NoMemory();
    }
    size_t head = offsetof(Core, plan);
    memcpy((char *)o + head, (char *)self + head, sizeof(Core) - head);
    memcpy(acts, self->acts, self->nacts);
    o->acts = acts;
    Py_INCREF(o->plan);
    Py_INCREF(o->ctx);
    Py_XINCREF(o->progs);
    return (PyObject *)o;
}

static PyObject *int_list(const int *v, int n)
{
    PyObject *list = PyList_New(n);
    for (int i = 0; list != NULL && i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (x == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

static PyObject *masks_list(const uint64_t *v, int n)
{
    PyObject *list = PyList_New(n);
    for (int i = 0; list != NULL && i < n; i++) {
        PyObject *x = PyLong_FromUnsignedLongLong(v[i]);
        if (x == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

static PyObject *get_actions(Core *self, void *c)
{
    PyObject *list = PyList_New(self->nacts);
    for (int i = 0; list != NULL && i < self->nacts; i++)
        PyList_SET_ITEM(list, i, PyLong_FromLong(self->acts[i]));  /* small ints: never NULL */
    return list;
}

static PyObject *get_hands(Core *self, void *c) { return masks_list(self->hands, self->players); }
static PyObject *get_taken(Core *self, void *c) { return masks_list(self->taken, self->players); }
static PyObject *get_won(Core *self, void *c) { return int_list(self->tricks_won, self->players); }
static PyObject *get_scores(Core *self, void *c) { return scores_list(self); }
static PyObject *get_played(Core *self, void *c) { return PyLong_FromUnsignedLongLong(self->played); }

static PyObject *get_trick(Core *self, void *c)
{
    PyObject *list = PyList_New(self->trick_len);
    for (int i = 0; list != NULL && i < self->trick_len; i++) {
        PyObject *x = Py_BuildValue("(ii)", self->trick_seat[i], self->trick_card[i]);
        if (x == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

#define INT_GETTER(field) \
    static PyObject *get_##field(Core *self, void *c) { return PyLong_FromLong(self->field); }
INT_GETTER(trick_no)
INT_GETTER(led)
INT_GETTER(win)
INT_GETTER(to_move)
INT_GETTER(leader)
INT_GETTER(direction)
static PyObject *get_ctx(Core *self, void *c) { return Py_NewRef(self->ctx ? self->ctx : Py_None); }
static PyObject *get_phase_no(Core *self, void *c) { return PyLong_FromLong(self->phase); }
static PyObject *get_broken(Core *self, void *c) { return PyBool_FromLong(self->hearts_broken); }
static PyObject *get_early(Core *self, void *c) { return PyBool_FromLong(self->ended_early); }

static PyGetSetDef Core_getset[] = {
    {"actions", (getter)get_actions, NULL, "every action applied, in order", NULL},
    {"hands", (getter)get_hands, NULL, "each seat's hand (masks)", NULL},
    {"taken", (getter)get_taken, NULL, "the cards each seat took (masks)", NULL},
    {"tricks_won", (getter)get_won, NULL, "the tricks each seat won", NULL},
    {"scores", (getter)get_scores, NULL, "each seat's points so far", NULL},
    {"played", (getter)get_played, NULL, "the cards of the finished tricks (mask)", NULL},
    {"trick", (getter)get_trick, NULL, "(seat, card) of the trick in progress", NULL},
    {"trick_no", (getter)get_trick_no, NULL, "the number of the trick in progress", NULL},
    {"led", (getter)get_led, NULL, "the suit led, -1 before the lead", NULL},
    {"win", (getter)get_win, NULL, "the card winning the trick so far, -1 before the lead", NULL},
    {"to_move", (getter)get_to_move, NULL, "the seat on turn, -1 once over", NULL},
    {"leader", (getter)get_leader, NULL, "the first leader, -1 before play", NULL},
    {"direction", (getter)get_direction, NULL, "1 clockwise, -1 anticlockwise", NULL},
    {"ctx", (getter)get_ctx, NULL, "the deal's Python side (stepper._Deal)", NULL},
    {"phase_no", (getter)get_phase_no, NULL, "0 passing, 1 play, 2 over, 3 a trump call", NULL},
    {"hearts_broken", (getter)get_broken, NULL, "whether a heart was played in a finished trick", NULL},
    {"ended_early", (getter)get_early, NULL, "whether the deal stopped before its last trick", NULL},
    {NULL},
};

static PyMethodDef Core_methods[] = {
    {"legal_actions", (PyCFunction)Core_legal_actions, METH_NOARGS, "The legal actions, ascending."},
    {"apply_action", (PyCFunction)Core_apply_action, METH_O, "Apply an action; IllegalAction if not allowed."},
    {"play_legal", (PyCFunction)Core_play_legal, METH_O, "Apply an action known to be legal, unchecked."},
    {"legal_mask", (PyCFunction)Core_legal_mask, METH_NOARGS, "The legal actions as a mask."},
    {"is_terminal", (PyCFunction)Core_is_terminal, METH_NOARGS, "Whether the deal is over."},
    {"current_player", (PyCFunction)Core_current_player, METH_NOARGS, "The seat on turn, -1 once over."},
    {"returns", (PyCFunction)Core_returns, METH_NOARGS, "Each seat's points."},
    {"clone", (PyCFunction)Core_clone, METH_NOARGS, "An independent copy."},
    {"random_playout", (PyCFunction)Core_random_playout, METH_O,
     "Play the deal out at random, draws from getrandbits (fastplay's protocol); the scores."},
    {"thumb_playout", (PyCFunction)Core_thumb_playout, METH_O,
     "Play the deal out by the rule of thumb of search rollouts (trickkernel.playout); the scores."},
    {NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kierki_dsl.interpreter._cstep.Core",
    .tp_doc = "One trick deal stepped from compiled tables (see stepper.py).",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

/* ------------------------------------------------------- dealing out -- */

#define MAXPLACES 16    /* places a card may go to: the seats and a stock */

/* deal_out(cards, room, places, getrandbits, tries): players/sampling.deal_out's kernel with
 * each card's places given (places[i]: the places that may hold cards[i], in order): per
 * try, the cards shuffled (Fisher-Yates from the end, below(i + 1)), sorted by their number
 * of places (stable), then each card to one of its places with room left, drawn with weight
 * equal to the room left; below(k) = (getrandbits(32) * k) >> 32. The hand masks, one per
 * place, or None when no try fits every card. */
static PyObject *deal_out(PyObject *module, PyObject *args)
{
    PyObject *cards_o, *room_o, *places_o, *grb;
    int tries;
    if (!PyArg_ParseTuple(args, "OOOOi", &cards_o, &room_o, &places_o, &grb, &tries))
        return NULL;
    int64_t card[52], room[MAXPLACES];
    unsigned char nplaces[52], place[52][MAXPLACES];
    PyObject *fc = PySequence_Fast(cards_o, "cards"), *fr = NULL, *fp = NULL;
    if (fc == NULL)
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fc), nroom;
    if (n > 52) {
        PyErr_SetString(PyExc_ValueError, "deal_out: at most 52 cards expected");
        goto done;
    }
    if (read_ints(cards_o, card, n, "cards") < 0)
        goto done;
    if ((fr = PySequence_Fast(room_o, "room")) == NULL)
        goto done;
    nroom = PySequence_Fast_GET_SIZE(fr);
    if (nroom < 1 || nroom > MAXPLACES) {
        PyErr_SetString(PyExc_ValueError, "deal_out: 1..16 places expected");
        goto done;
    }
    if (read_ints(room_o, room, nroom, "room") < 0 || (fp = PySequence_Fast(places_o, "places")) == NULL)
        goto done;
    if (PySequence_Fast_GET_SIZE(fp) != n) {
        PyErr_SetString(PyExc_ValueError, "deal_out: one list of places per card expected");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (card[i] < 0 || card[i] >= 64) {
            PyErr_SetString(PyExc_ValueError, "deal_out: cards 0..63 expected");
            goto done;
        }
        PyObject *pl = PySequence_Fast(PySequence_Fast_GET_ITEM(fp, i), "places of a card");
        if (pl == NULL)
            goto done;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(pl);
        int64_t at[MAXPLACES];
        int err = k > MAXPLACES || read_ints(pl, at, k, "places of a card") < 0;
        Py_DECREF(pl);
        if (!err)
            for (Py_ssize_t j = 0; j < k; j++)
                err |= at[j] < 0 || at[j] >= nroom;
        if (err) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "deal_out: places are indices of room");
            goto done;
        }
        nplaces[i] = (unsigned char)k;
        for (Py_ssize_t j = 0; j < k; j++)
            place[i][j] = (unsigned char)at[j];
    }
    for (int attempt = 0; attempt < tries; attempt++) {
        int order[52];
        for (int i = 0; i < n; i++)
            order[i] = i;
        for (int i = (int)n - 1; i > 0; i--) {
            int j;
            if (draw(grb, i + 1, &j) < 0)
                goto done;
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int i = 1; i < n; i++) {  /* stable: by the number of places */
            int x = order[i], j = i - 1;
            for (; j >= 0 && nplaces[order[j]] > nplaces[x]; j--)
                order[j + 1] = order[j];
            order[j + 1] = x;
        }
        int64_t left[MAXPLACES];
        uint64_t hands[MAXPLACES] = {0};
        memcpy(left, room, sizeof(int64_t) * nroom);
        int fits = 1;
        for (int i = 0; fits && i < n; i++) {
            int c = order[i], options[MAXPLACES], k = 0;
            int64_t total = 0;
            for (int j = 0; j < nplaces[c]; j++)
                if (left[place[c][j]] > 0) {
                    options[k++] = place[c][j];
                    total += left[place[c][j]];
                }
            if (!k) {
                fits = 0;
                break;
            }
            if (total > 0x7fffffff) {
                PyErr_SetString(PyExc_ValueError, "deal_out: too much room");
                goto done;
            }
            int r, s = options[k - 1];
            if (draw(grb, (int)total, &r) < 0)
                goto done;
            for (int j = 0; j < k; j++) {
                r -= (int)left[options[j]];
                if (r < 0) {
                    s = options[j];
                    break;
                }
            }
            hands[s] |= 1ULL << card[c];
            left[s] -= 1;
        }
        if (fits) {
            result = masks_list(hands, (int)nroom);
            goto done;
        }
    }
    result = Py_NewRef(Py_None);
done:
    Py_DECREF(fc);
    Py_XDECREF(fr);
    Py_XDECREF(fp);
    return result;
}

/* ============================================================================
 * vecenv: batched deals (kierki_dsl/vecenv.py). Added by the vecenv branch;
 * nothing above this block behaves differently for it.
 *
 *   TrickMemo a callable put in a batch deal's context as its `_at_trick`: the
 *             programs of a trick situation memoised in C on what the legality
 *             kernel reads of it (class of the trick number, hearts broken, the
 *             played cards it counts), asking the Python method on a miss.
 *   Batch     N deals of one contract stepped at once: actions from an int64
 *             array, observation tensors, legal masks, seats on turn, rewards and
 *             ends written into numpy arrays (buffer protocol); a deal that ends
 *             is dealt again at once from its own generator (auto-reset; _vecdeal.h).
 * ========================================================================== */

#include "_vecdeal.h" /* the deals' draws, shared with _vecflat.c */

/* ---- TrickMemo ---- */

#define MEMO_SLOTS 8192  /* a power of two; cleared when half full (the interpreter's CACHE_LIMIT) */

typedef struct {
    int used, cls, broken;
    uint64_t played;
    PyObject *programs;          /* the fallback's answer: (Programs, watched cards) */
    uint64_t watch;
} MemoEntry;

typedef struct {
    PyObject_HEAD
    PyObject *fallback;          /* fallback(core, n, broken, played) -> (Programs, watch) */
    int cls[MAXTRICKS + 2];      /* what the kernel reads of each trick number */
    int broken_read;
    uint64_t seen;               /* the played cards the kernel counts */
    int count;
    MemoEntry *table;
} TrickMemo;

static void memo_clear(TrickMemo *m)
{
    for (int i = 0; m->table != NULL && i < MEMO_SLOTS; i++)
        if (m->table[i].used) {
            Py_CLEAR(m->table[i].programs);
            m->table[i].used = 0;
        }
    m->count = 0;
}

static void TrickMemo_dealloc(TrickMemo *m)
{
    memo_clear(m);
    PyMem_Free(m->table);
    Py_XDECREF(m->fallback);
    Py_TYPE(m)->tp_free((PyObject *)m);
}

/* TrickMemo(fallback, classes, broken_read, seen): classes[n] for n in 0..tricks + 1. */
static int TrickMemo_init(TrickMemo *m, PyObject *args, PyObject *kw)
{
    PyObject *fallback, *classes;
    int broken_read;
    unsigned long long seen;
    if (m->table != NULL) {
        PyErr_SetString(PyExc_TypeError, "a memo is initialised once");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "OOpK", &fallback, &classes, &broken_read, &seen))
        return -1;
    PyObject *fast = PySequence_Fast(classes, "classes");
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    Py_DECREF(fast);
    if (n < 2 || n > MAXTRICKS + 2) {
        PyErr_SetString(PyExc_ValueError, "classes: one per trick number 0..tricks + 1 expected");
        return -1;
    }
    int64_t cls[MAXTRICKS + 2];
    if (read_ints(classes, cls, n, "classes") < 0)
        return -1;
    for (Py_ssize_t i = 0; i < MAXTRICKS + 2; i++)
        m->cls[i] = i < n ? (int)cls[i] : -1;
    m->table = PyMem_Calloc(MEMO_SLOTS, sizeof(MemoEntry));
    if (m->table == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_INCREF(fallback);
    m->fallback = fallback;
    m->broken_read = broken_read;
    m->seen = seen;
    return 0;
}

static PyObject *TrickMemo_call(TrickMemo *m, PyObject *args, PyObject *kw)
{
    PyObject *core;
    int number, broken;
    unsigned long long played;
    if (m->table == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the memo was not initialised");
        return NULL;
    }
    if (PyTuple_GET_SIZE(args) == 4 && PyLong_CheckExact(PyTuple_GET_ITEM(args, 1))
        && PyLong_CheckExact(PyTuple_GET_ITEM(args, 2)) && PyLong_CheckExact(PyTuple_GET_ITEM(args, 3))) {
        /* the core's own call: read without the format parser (at every memoised trick) */
        number = (int)PyLong_AsLong(PyTuple_GET_ITEM(args, 1));
        broken = (int)PyLong_AsLong(PyTuple_GET_ITEM(args, 2));
        played = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(args, 3));
        if (PyErr_Occurred())
            return NULL;
    } else if (!PyArg_ParseTuple(args, "OiiK", &core, &number, &broken, &played))
        return NULL;
    if (number < 0 || number >= MAXTRICKS + 2 || m->cls[number] < 0)
        return PyObject_Call(m->fallback, args, kw);
    int cls = m->cls[number], br = m->broken_read && broken;
    uint64_t seen = played & m->seen;
    uint64_t h = (seen * 0x9E3779B97F4A7C15ULL) ^ ((uint64_t)cls << 1 | (uint64_t)br) * 0xC2B2AE3D27D4EB4FULL;
    int at = (int)(h >> 51) & (MEMO_SLOTS - 1);
    for (MemoEntry *e = &m->table[at]; e->used; e = &m->table[at = (at + 1) & (MEMO_SLOTS - 1)])
        if (e->cls == cls && e->broken == br && e->played == seen)
            /* the watched cards too depend only on what the key holds: the answer kept whole */
            return Py_NewRef(e->programs);
    PyObject *r = PyObject_Call(m->fallback, args, kw);
    if (r == NULL)
        return NULL;
    PyObject *progs;
    unsigned long long watch;
    if (!PyArg_ParseTuple(r, "O!K", &ProgramsType, &progs, &watch)) {
        Py_DECREF(r);
        return NULL;
    }
    if (m->count >= MEMO_SLOTS / 2) {
        memo_clear(m);
        at = (int)(h >> 51) & (MEMO_SLOTS - 1);
    }
    MemoEntry *e = &m->table[at];
    e->used = 1;
    e->cls = cls;
    e->broken = br;
    e->played = seen;
    e->programs = Py_NewRef(r);  /* (programs, watched cards) */
    e->watch = watch;
    m->count++;
    return r;
}

static PyTypeObject TrickMemoType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kierki_dsl.interpreter._cstep.TrickMemo",
    .tp_doc = "A deal context's _at_trick memoised on what the legality kernel reads (vecenv).",
    .tp_basicsize = sizeof(TrickMemo),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)TrickMemo_init,
    .tp_dealloc = (destructor)TrickMemo_dealloc,
    .tp_call = (ternaryfunc)TrickMemo_call,
};

/* ---- DealMemo ---- */

/* A rule read once a deal, memoised in C on what it depends on (plan.Plan.lead_key and
 * seat_key): put in a batch deal's context as its `_begin` (the first lead: the value
 * returned is kept as it is) or its `_finish` (seat scoring: the points it adds to each seat
 * are kept, and added to the core's scores). The key: the dealer (read from the batch's book,
 * row ctx.index), the seat holding each card of `holders`, each seat's tricks won, each
 * seat's count of taken cards in each atom. A miss asks fallback(core) once.
 * A symmetric seat scoring (``symmetric``: it reads nothing that names a seat -- no seat, dealer,
 * caller or bidder -- so each seat's points are one function of its own counts and of every seat's
 * counts as a whole) is keyed on the seats' rows (tricks won, counts) sorted, its points kept in
 * that order: a deal whose seats took what another deal's seats took, in another order, is a hit. */

#define DMEMO_SLOTS 4096 /* a power of two; cleared when half full */
#define DKEY 192         /* key bytes: 1 + 52 + 8 + 8 x 16 at most */

typedef struct {
    int used, len;
    unsigned char key[DKEY];
    PyObject *value;      /* the first lead: what the fallback gave */
    int64_t add[MAXP];    /* seat scoring: the points added to each seat */
} DMemoEntry;

typedef struct {
    PyObject_HEAD
    PyObject *fallback;
    int finish, dealer, won, players, natoms, count, symmetric;
    uint64_t holders, atoms[16];
    Py_buffer book;       /* int64 deals x (1 + players): row[0] is the deal's dealer */
    DMemoEntry *table;
} DealMemo;

static void dmemo_clear(DealMemo *m)
{
    for (int i = 0; m->table != NULL && i < DMEMO_SLOTS; i++) {
        Py_CLEAR(m->table[i].value);
        m->table[i].used = 0;
    }
    m->count = 0;
}

static void DealMemo_dealloc(DealMemo *m)
{
    dmemo_clear(m);
    PyMem_Free(m->table);
    Py_XDECREF(m->fallback);
    if (m->book.obj != NULL)
        PyBuffer_Release(&m->book);
    Py_TYPE(m)->tp_free((PyObject *)m);
}

/* DealMemo(fallback, finish, players, book, dealer, holders, atoms, won[, symmetric]). */
static int DealMemo_init(DealMemo *m, PyObject *args, PyObject *kw)
{
    PyObject *fallback, *book, *atoms;
    unsigned long long holders;
    if (m->table != NULL) {
        PyErr_SetString(PyExc_TypeError, "a memo is initialised once");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "OpiOpKOp|p", &fallback, &m->finish, &m->players, &book, &m->dealer, &holders, &atoms,
                          &m->won, &m->symmetric))
        return -1;
    if (m->symmetric && (!m->finish || m->dealer || holders)) {
        PyErr_SetString(PyExc_ValueError, "symmetric: seat scoring keyed on no dealer and no holders only");
        return -1;
    }
    if (m->players < 1 || m->players > MAXP || (holders >> 52)) {
        PyErr_SetString(PyExc_ValueError, "players 1..8 and cards 0..51 expected");
        return -1;
    }
    PyObject *fast = PySequence_Fast(atoms, "atoms");
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    Py_DECREF(fast);
    if (n > 16) {
        PyErr_SetString(PyExc_ValueError, "atoms: at most 16 expected");
        return -1;
    }
    if (read_masks(atoms, m->atoms, n, "atoms") < 0)
        return -1;
    if (PyObject_GetBuffer(book, &m->book, PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (m->book.len % (8 * (m->players + 1))) {
        PyErr_SetString(PyExc_ValueError, "book: int64 rows of 1 + players expected");
        PyBuffer_Release(&m->book);
        m->book.obj = NULL;
        return -1;
    }
    m->table = PyMem_Calloc(DMEMO_SLOTS, sizeof(DMemoEntry));
    if (m->table == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    m->natoms = (int)n;
    m->holders = holders;
    m->fallback = Py_NewRef(fallback);
    return 0;
}

/* The key of the core's deal into k (its length; -1 on error); a symmetric memo's (``order``: the
 * seat in each place of the sorted rows) by dmemo_sorted_key. */
static int dmemo_sorted_key(DealMemo *m, Core *c, unsigned char *k, int *order);

static int dmemo_key(DealMemo *m, Core *c, unsigned char *k, int *order)
{
    if (m->symmetric)
        return dmemo_sorted_key(m, c, k, order);
    int len = 0, p = m->players;
    if (m->dealer) {
        PyObject *at = PyObject_GetAttrString(c->ctx, "index");
        if (at == NULL)
            return -1;
        long i = PyLong_AsLong(at);
        Py_DECREF(at);
        if (i == -1 && PyErr_Occurred())
            return -1;
        if (i < 0 || (Py_ssize_t)(i + 1) * 8 * (p + 1) > m->book.len) {
            PyErr_SetString(PyExc_IndexError, "ctx.index: a row of the book expected");
            return -1;
        }
        k[len++] = (unsigned char)((const int64_t *)m->book.buf)[i * (p + 1)];
    }
    for (uint64_t h = m->holders; h; h &= h - 1) {
        int card = lowest(h), who = 255;
        for (int s = 0; s < p; s++)
            if (c->hands[s] >> card & 1)
                who = s;
        k[len++] = (unsigned char)who;
    }
    for (int s = 0; s < p; s++) {
        if (m->won)
            k[len++] = (unsigned char)c->tricks_won[s];
        for (int a = 0; a < m->natoms; a++)
            k[len++] = (unsigned char)popcount64(c->taken[s] & m->atoms[a]);
    }
    return len;
}

/* The seats' rows (tricks won where keyed, the count of taken cards in each atom), sorted, into
 * k; order[j]: the seat whose row is j-th (seats with equal rows in seat order). */
static int dmemo_sorted_key(DealMemo *m, Core *c, unsigned char *k, int *order)
{
    int p = m->players, w = (m->won ? 1 : 0) + m->natoms;
    unsigned char rows[MAXP][1 + 16];
    for (int s = 0; s < p; s++) {
        int i = 0;
        if (m->won)
            rows[s][i++] = (unsigned char)c->tricks_won[s];
        for (int a = 0; a < m->natoms; a++)
            rows[s][i++] = (unsigned char)popcount64(c->taken[s] & m->atoms[a]);
    }
    for (int s = 0; s < p; s++) { /* (insertion sort: stable, at most 8 seats) */
        int j = s;
        while (j > 0 && memcmp(rows[order[j - 1]], rows[s], w) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = s;
    }
    for (int j = 0; j < p; j++)
        memcpy(k + j * w, rows[order[j]], w);
    return p * w;
}

/* The points a memo's entry adds to ``seat`` (``order``: a symmetric memo's, dmemo_key's). */
static int64_t dmemo_add(const DealMemo *m, const DMemoEntry *e, const int *order, int seat)
{
    if (!m->symmetric)
        return e->add[seat];
    for (int j = 0; j < m->players; j++)
        if (order[j] == seat)
            return e->add[j];
    return 0; /* (never: order holds every seat) */
}

/* The memo's value for the core as the callback returns it (a new reference). */
static PyObject *dmemo_value(DealMemo *m, Core *c, DMemoEntry *e, const int *order)
{
    if (!m->finish)
        return Py_NewRef(e->value);
    PyObject *list = PyList_New(m->players);
    for (int s = 0; list != NULL && s < m->players; s++) {
        /* both within the score limit: no overflow; finish_deal checks the sum against it */
        PyObject *v = PyLong_FromLongLong(c->scores[s] + dmemo_add(m, e, order, s));
        if (v == NULL)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, s, v);
    }
    return list;
}

static PyObject *DealMemo_call(DealMemo *m, PyObject *args, PyObject *kw)
{
    PyObject *core;
    if (m->table == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the memo was not initialised");
        return NULL;
    }
    if (PyTuple_GET_SIZE(args) != 1 || !PyObject_TypeCheck((core = PyTuple_GET_ITEM(args, 0)), &CoreType)) {
        PyErr_SetString(PyExc_TypeError, "DealMemo(core): a Core expected");
        return NULL;
    }
    Core *c = (Core *)core;
    if (c->players != m->players || c->ctx == NULL) {
        PyErr_SetString(PyExc_ValueError, "a core of the memo's players expected");
        return NULL;
    }
    unsigned char k[DKEY];
    int order[MAXP];
    int len = dmemo_key(m, c, k, order);
    if (len < 0)
        return NULL;
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < len; i++)
        h = (h ^ k[i]) * 1099511628211ULL;
    int at = (int)(h >> 40) & (DMEMO_SLOTS - 1);
    for (DMemoEntry *e = &m->table[at]; e->used; e = &m->table[at = (at + 1) & (DMEMO_SLOTS - 1)])
        if (e->len == len && memcmp(e->key, k, len) == 0)
            return dmemo_value(m, c, e, order);
    int64_t before[MAXP];
    memcpy(before, c->scores, sizeof before);
    PyObject *r = PyObject_Call(m->fallback, args, kw);
    if (r == NULL)
        return NULL;
    int64_t after[MAXP];
    if (m->finish && read_ints(r, after, m->players, "scores") < 0) {
        Py_DECREF(r);
        return NULL;
    }
    if (m->count >= DMEMO_SLOTS / 2) {
        dmemo_clear(m);
        at = (int)(h >> 40) & (DMEMO_SLOTS - 1);
    }
    DMemoEntry *e = &m->table[at];
    e->used = 1;
    e->len = len;
    memcpy(e->key, k, len);
    if (m->finish)
        for (int j = 0; j < m->players; j++) { /* (a symmetric memo's in the order of its sorted rows) */
            int s = m->symmetric ? order[j] : j;
            e->add[j] = after[s] - before[s];
        }
    else
        e->value = Py_NewRef(r);
    m->count++;
    return r;
}

static PyTypeObject DealMemoType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kierki_dsl.interpreter._cstep.DealMemo",
    .tp_doc = "A deal context's first lead or seat scoring memoised on what it reads (vecenv).",
    .tp_basicsize = sizeof(DealMemo),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)DealMemo_init,
    .tp_dealloc = (destructor)DealMemo_dealloc,
    .tp_call = (ternaryfunc)DealMemo_call,
};

/* ---- Batch ---- */

static int get_out(PyObject *o, Py_buffer *view, Py_ssize_t count, Py_ssize_t size, const char *what);

/* Where each part of an observation tensor starts (adapters/knowledge.py's pieces). */
enum { O_SEAT, O_PHASE, O_CONTRACT, O_DEALER, O_HAND, O_PLAYED, O_TRICK, O_LED, O_TRUMP, O_CALLER, O_SCORES,
       O_TOTALS, O_SIZES, NOFF };

typedef struct {
    PyObject_HEAD
    int n, players, ncards, direction, first_dealer, trump_base, obs_size, num_actions;
    int phase_pass, phase_play, phase_call, contract;
    int after;                   /* a trump call: the cards the caller sees first (-1: no call) */
    int call_trump[64];          /* the suit each call action names (-1 no trumps, -2 not a call) */
    int off[NOFF];
    int dealer_of[MAXP];         /* the dealer of this deal for each first dealer */
    int lead_of[MAXP];           /* the first leader for each dealer, -1: asked of ctx._begin */
    int sync;                    /* set ctx.dealer and ctx.dealt at every deal (callbacks read them) */
    Py_buffer book;              /* int64 deals x (1 + players): each deal's dealer and hands dealt */
    unsigned char cards[52];     /* the deck, ascending */
    Plan *plan;
    PyObject **cores;            /* one Core per deal (each with its own context) */
    PyObject **ctxs;
    int *dealer;                 /* each deal's dealer */
    int *trump, *caller;         /* each deal's trump (-1 none or not called yet) and caller */
    uint64_t *early;             /* deals x players: the cards each seat sees before a call */
    uint64_t *deal_rng;          /* each deal's shuffle (splitmix64, _vecdeal.h) */
    uint64_t *play_rng;          /* each deal's random players' draws (splitmix64) */
} Batch;

static void Batch_dealloc(Batch *b)
{
    for (int i = 0; i < b->n; i++) {
        if (b->cores != NULL)
            Py_XDECREF(b->cores[i]);
        if (b->ctxs != NULL)
            Py_XDECREF(b->ctxs[i]);
    }
    PyMem_Free(b->cores);
    PyMem_Free(b->ctxs);
    PyMem_Free(b->dealer);
    PyMem_Free(b->trump);
    PyMem_Free(b->caller);
    PyMem_Free(b->early);
    PyMem_Free(b->deal_rng);
    PyMem_Free(b->play_rng);
    if (b->book.obj != NULL)
        PyBuffer_Release(&b->book);
    Py_XDECREF(b->plan);
    Py_TYPE(b)->tp_free((PyObject *)b);
}

/* Batch(plan, cores, ctxs, deck, direction, first_dealer, dealer_of, trump, offsets,
 *       obs_size, num_actions, (phase_pass, phase_play, phase_call), contract, lead_of, sync,
 *       book, after, call_trumps):
 * cores are Cores of `plan` (passing set as the deal wants it), ctxs their contexts;
 * lead_of the first leader by dealer (None: ctx._begin says it), sync whether the contexts
 * must learn each deal's dealer and hands, book where each deal's are written; after the
 * cards a trump caller sees first (-1: no call), call_trumps the suit of each action (64). */
static int Batch_init(Batch *b, PyObject *args, PyObject *kw)
{
    PyObject *plan, *cores, *ctxs, *dealer_of, *offsets, *lead_of, *book, *call_trumps;
    unsigned long long deck;
    if (b->cores != NULL) {
        PyErr_SetString(PyExc_TypeError, "a batch is initialised once");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "O!OOKiiOiOii(iii)iOpOiO", &PlanType, &plan, &cores, &ctxs, &deck, &b->direction,
                          &b->first_dealer, &dealer_of, &b->trump_base, &offsets, &b->obs_size, &b->num_actions,
                          &b->phase_pass, &b->phase_play, &b->phase_call, &b->contract, &lead_of, &b->sync, &book,
                          &b->after, &call_trumps))
        return -1;
    int64_t ct[64];
    if (read_ints(call_trumps, ct, 64, "call_trumps") < 0)
        return -1;
    for (int a = 0; a < 64; a++) {
        if (ct[a] < -2 || ct[a] > 3) {
            PyErr_SetString(PyExc_ValueError, "call_trumps: suits, -1 or -2 expected");
            return -1;
        }
        b->call_trump[a] = (int)ct[a];
    }
    if (!plan_ready((Plan *)plan))
        return -1;
    int p = ((Plan *)plan)->players;
    PyObject *fc = PySequence_Fast(cores, "cores"), *fx = PySequence_Fast(ctxs, "ctxs");
    if (fc == NULL || fx == NULL) {
        Py_XDECREF(fc);
        Py_XDECREF(fx);
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fc);
    int err = n < 1 || n > (1 << 24) || PySequence_Fast_GET_SIZE(fx) != n;
    if (err)
        PyErr_SetString(PyExc_ValueError, "one context per core, 1 .. 2**24 cores expected");
    int64_t off[NOFF], dof[MAXP], lof[MAXP];
    if (!err)
        err = read_ints(offsets, off, NOFF, "offsets") < 0 || read_ints(dealer_of, dof, p, "dealer_of") < 0;
    for (int s = 0; !err && s < p; s++)
        lof[s] = -1;
    if (!err && lead_of != Py_None)
        err = read_ints(lead_of, lof, p, "lead_of") < 0;
    if (!err && get_out(book, &b->book, n * (p + 1), 8, "book") < 0)
        err = 1;
    if (!err && b->book.obj == NULL) {
        PyErr_SetString(PyExc_TypeError, "book: an int64 array expected");
        err = 1;
    }
    if (!err && (b->num_actions < 64 || b->obs_size < 1 || b->first_dealer >= p || b->trump_base < -1
                 || b->trump_base > 3)) {
        PyErr_SetString(PyExc_ValueError, "64 actions or more, a first dealer and a trump expected");
        err = 1;
    }
    if (!err) {
        b->cores = PyMem_Calloc(n, sizeof(PyObject *));
        b->ctxs = PyMem_Calloc(n, sizeof(PyObject *));
        b->dealer = PyMem_Calloc(n, sizeof(int));
        b->trump = PyMem_Calloc(n, sizeof(int));
        b->caller = PyMem_Calloc(n, sizeof(int));
        b->early = PyMem_Calloc(n * p, sizeof(uint64_t));
        b->deal_rng = PyMem_Calloc(n, sizeof(uint64_t));
        b->play_rng = PyMem_Calloc(n, sizeof(uint64_t));
        if (!b->cores || !b->ctxs || !b->dealer || !b->trump || !b->caller || !b->early || !b->deal_rng
            || !b->play_rng) {
            PyErr_NoMemory();
            err = 1;
        }
    }
    for (Py_ssize_t i = 0; !err && i < n; i++) {
        PyObject *c = PySequence_Fast_GET_ITEM(fc, i);
        if (!PyObject_TypeCheck(c, &CoreType) || ((Core *)c)->plan == NULL || ((Core *)c)->players != p) {
            PyErr_SetString(PyExc_TypeError, "cores: initialised Cores of the plan's players expected");
            err = 1;
            break;
        }
        b->cores[i] = Py_NewRef(c);
        b->ctxs[i] = Py_NewRef(PySequence_Fast_GET_ITEM(fx, i));
        b->n = (int)i + 1;
    }
    Py_DECREF(fc);
    Py_DECREF(fx);
    if (err) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "offsets inside the tensor expected");
        return -1;
    }
    /* each part must fit the tensor */
    int sizes[NOFF] = {p, 7, 1, p, 52, 52, 52 * p, 5, 5, p, p, p, p};
    for (int k = 0; k < NOFF; k++) {
        b->off[k] = (int)off[k];
        if (off[k] < 0 || off[k] + sizes[k] > b->obs_size || (k == O_CONTRACT && off[k] + b->contract >= b->obs_size)) {
            PyErr_SetString(PyExc_ValueError, "offsets inside the tensor expected");
            return -1;
        }
    }
    if (b->phase_pass < 0 || b->phase_pass >= 7 || b->phase_play < 0 || b->phase_play >= 7 || b->phase_call < 0
        || b->phase_call >= 7 || b->contract < 0 || b->after > 52) {
        PyErr_SetString(PyExc_ValueError, "phase and contract indices expected");
        return -1;
    }
    b->players = p;
    b->ncards = 0;
    for (int c = 0; c < 52; c++)
        if (deck >> c & 1)
            b->cards[b->ncards++] = (unsigned char)c;
    for (int s = 0; s < p; s++) {
        if (dof[s] < 0 || dof[s] >= p) {
            PyErr_SetString(PyExc_ValueError, "dealer_of: seats expected");
            return -1;
        }
        b->dealer_of[s] = (int)dof[s];
        if (lof[s] < -1 || lof[s] >= p) {
            PyErr_SetString(PyExc_ValueError, "lead_of: seats expected");
            return -1;
        }
        b->lead_of[s] = (int)lof[s];
    }
    b->plan = (Plan *)Py_NewRef(plan);
    return 0;
}

static int batch_ready(Batch *b)
{
    if (b->cores != NULL && b->plan != NULL)
        return 1;
    PyErr_SetString(PyExc_RuntimeError, "the batch was not initialised");
    return 0;
}

/* The deal of env i starts again: its generator draws the first dealer (if the ruleset
 * leaves it random) and shuffles the deck (_vecdeal.h: interpreter/flatdeals.py's reference);
 * the core is set to the deal's start. */
static int redeal(Batch *b, int i)
{
    Core *c = (Core *)b->cores[i];
    int p = b->players, first;
    uint64_t hands[MAXP] = {0}, *early = b->early + (Py_ssize_t)i * p;
    int dealer = vd_deal(&b->deal_rng[i], b->cards, b->ncards, p, b->first_dealer, b->dealer_of,
                         ((b->direction % p) + p) % p, b->after, hands, early, &first);
    b->dealer[i] = dealer;
    b->trump[i] = b->trump_base;
    b->caller[i] = -1;
    int64_t *row = (int64_t *)b->book.buf + (Py_ssize_t)i * (p + 1);
    row[0] = dealer;
    for (int s = 0; s < p; s++)
        row[1 + s] = (int64_t)hands[s];
    int err = 0;
    if (b->sync) {  /* the context learns the deal (its first lead and scoring read it) */
        PyObject *d = PyLong_FromLong(dealer), *dealt = masks_list(hands, p);
        PyObject *tup = dealt == NULL ? NULL : PyList_AsTuple(dealt);
        err = d == NULL || tup == NULL || PyObject_SetAttrString(b->ctxs[i], "dealer", d) < 0
              || PyObject_SetAttrString(b->ctxs[i], "dealt", tup) < 0;
        Py_XDECREF(d);
        Py_XDECREF(dealt);
        Py_XDECREF(tup);
        if (err)
            return -1;
    }
    if (c->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the step core is in the middle of a step");
        return -1;
    }
    Py_INCREF(b->plan);
    Py_SETREF(c->plan, b->plan);
    Py_INCREF(b->ctxs[i]);
    Py_SETREF(c->ctx, b->ctxs[i]);
    Py_CLEAR(c->progs);
    memcpy(c->hands, hands, sizeof hands);
    memset(c->passes, 0, sizeof c->passes);
    memset(c->taken, 0, sizeof c->taken);
    memset(c->tricks_won, 0, sizeof c->tricks_won);
    memset(c->scores, 0, sizeof c->scores);
    c->trick_no = 1;
    c->led = c->win = c->leader = -1;
    c->trick_len = 0;
    c->played = c->watch = c->calls = 0;
    c->hearts_broken = c->ended_early = c->lvalid = c->nacts = c->failed = 0;
    if (c->pass_step) {
        c->phase = PH_PASS;
        c->to_move = c->next[dealer];
        return 0;
    }
    c->busy = 1;
    if (b->lead_of[dealer] >= 0) {  /* start_play with the first leader known */
        c->phase = PH_PLAY;
        c->to_move = c->leader = b->lead_of[dealer];
        err = at_trick(c);
    } else {
        err = start_play(c);
    }
    c->busy = 0;
    return err < 0 ? broken(c) : 0;
}

/* A writable C-contiguous buffer of `count` items of `size` bytes (NULL: None given). */
static int get_out(PyObject *o, Py_buffer *view, Py_ssize_t count, Py_ssize_t size, const char *what)
{
    view->obj = NULL;
    if (o == Py_None)
        return 0;
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (view->len != count * size) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items of %zd bytes expected", what, count, size);
        PyBuffer_Release(view);
        view->obj = NULL;
        return -1;
    }
    return 0;
}

static void release(Py_buffer *v)
{
    if (v->obj != NULL)
        PyBuffer_Release(v);
}

/* reset(seeds): each deal's generator seeded with seeds[i] (0 <= seed < 2**64) — its random
 * players' from the same seed — and dealt. */
static PyObject *Batch_reset(Batch *b, PyObject *seeds)
{
    if (!batch_ready(b))
        return NULL;
    PyObject *fast = PySequence_Fast(seeds, "seeds");
    if (fast == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != b->n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "one seed per deal expected");
        return NULL;
    }
    for (int i = 0; i < b->n; i++) {
        unsigned long long s = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (s == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        b->deal_rng[i] = s;
        b->play_rng[i] = s ^ 0x5DEECE66DULL;
    }
    Py_DECREF(fast);
    for (int i = 0; i < b->n; i++)
        if (redeal(b, i) < 0)
            return NULL;
    Py_RETURN_NONE;
}

/* The legal actions of deal i as a mask (a pass or a card). */
static int batch_legal(Batch *b, int i, uint64_t *out)
{
    Core *c = (Core *)b->cores[i];
    if ((c->failed || c->busy || (c->progs == NULL && c->phase == PH_PLAY)) && !ready(c))
        return -1;
    if (c->phase == PH_DONE) {
        PyErr_SetString(PyExc_RuntimeError, "a batch deal is over and was not dealt again");
        return -1;
    }
    c->busy = 1;
    int err = legal_mask(c, out);
    c->busy = 0;
    return err;
}

/* Apply a legal action to deal i; when the deal ends, add its scores to rewards (a row of
 * `players` floats), mark it done and deal again. */
static int batch_apply(Batch *b, int i, int action, float *rewards, unsigned char *done)
{
    Core *c = (Core *)b->cores[i];
    if (c->phase == PH_CALL) {  /* the trump called, by whom (the observation shows them) */
        b->caller[i] = c->to_move;
        b->trump[i] = b->call_trump[action];
    }
    c->busy = 1;
    int err = apply_legal(c, action);
    c->busy = 0;
    if (err < 0)
        return -1;
    if (c->phase != PH_DONE)
        return 0;
    if (rewards != NULL)
        for (int s = 0; s < b->players; s++)
            rewards[s] += (float)c->scores[s];
    if (done != NULL)
        *done = 1;
    return redeal(b, i);
}

static int observe_row(Batch *b, int i, Py_buffer *vo, Py_buffer *vm, Py_buffer *vp);

/* step(actions, rewards, done[, obs, mask, player]): actions an int64 array of one action per
 * deal, each checked legal first (ValueError naming the deal otherwise, nothing applied);
 * rewards (float32, deals x players) and done (uint8) are overwritten: the scores of a deal
 * that ended, which is dealt again at once; then, deal by deal as it is stepped, what
 * observe(obs, mask, player) writes (one pass over the deals instead of two). */
static PyObject *Batch_step(Batch *b, PyObject *args)
{
    PyObject *acts, *rew, *dn, *obs = Py_None, *mask = Py_None, *player = Py_None;
    if (!batch_ready(b) || !PyArg_ParseTuple(args, "OOO|OOO", &acts, &rew, &dn, &obs, &mask, &player))
        return NULL;
    Py_buffer va, vr, vd, vo, vm, vp;
    if (PyObject_GetBuffer(acts, &va, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    PyObject *result = NULL;
    vr.obj = vd.obj = vo.obj = vm.obj = vp.obj = NULL;
    if (va.len != (Py_ssize_t)b->n * 8) {
        PyErr_SetString(PyExc_ValueError, "actions: one int64 per deal expected");
        goto done;
    }
    if (get_out(rew, &vr, (Py_ssize_t)b->n * b->players, 4, "rewards") < 0 || get_out(dn, &vd, b->n, 1, "done") < 0
        || get_out(obs, &vo, (Py_ssize_t)b->n * b->obs_size, 4, "obs") < 0
        || get_out(mask, &vm, (Py_ssize_t)b->n * b->num_actions, 1, "mask") < 0
        || get_out(player, &vp, b->n, 8, "player") < 0)
        goto done;
    const int64_t *a = va.buf;
    for (int i = 0; i < b->n; i++) {
        uint64_t m;
        if (batch_legal(b, i, &m) < 0)
            goto done;
        if (a[i] < 0 || a[i] >= 64 || !(m >> a[i] & 1)) {
            PyErr_Format(PyExc_ValueError, "deal %d: action %lld is not legal", i, (long long)a[i]);
            goto done;
        }
    }
    if (vr.obj != NULL)
        memset(vr.buf, 0, vr.len);
    if (vd.obj != NULL)
        memset(vd.buf, 0, vd.len);
    for (int i = 0; i < b->n; i++)
        if (batch_apply(b, i, (int)a[i], vr.obj ? (float *)vr.buf + (Py_ssize_t)i * b->players : NULL,
                        vd.obj ? (unsigned char *)vd.buf + i : NULL) < 0
            || observe_row(b, i, &vo, &vm, &vp) < 0)
            goto done;
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&va);
    release(&vr);
    release(&vd);
    release(&vo);
    release(&vm);
    release(&vp);
    return result;
}

/* autoplay(seat, rewards, done): every deal whose turn is not `seat`'s is played on at
 * random (each legal action alike, from the deal's players' generator) until it is,
 * ended deals dealt again; rewards and done are added to (not overwritten). */
static PyObject *Batch_autoplay(Batch *b, PyObject *args)
{
    int seat;
    PyObject *rew, *dn;
    if (!batch_ready(b) || !PyArg_ParseTuple(args, "iOO", &seat, &rew, &dn))
        return NULL;
    if (seat < 0 || seat >= b->players) {
        PyErr_SetString(PyExc_ValueError, "a seat expected");
        return NULL;
    }
    Py_buffer vr, vd;
    if (get_out(rew, &vr, (Py_ssize_t)b->n * b->players, 4, "rewards") < 0)
        return NULL;
    if (get_out(dn, &vd, b->n, 1, "done") < 0) {
        release(&vr);
        return NULL;
    }
    PyObject *result = NULL;
    for (int i = 0; i < b->n; i++) {
        Core *c = (Core *)b->cores[i];
        while (c->to_move != seat) {
            uint64_t m;
            if (batch_legal(b, i, &m) < 0)
                goto done;
            if (!m) {
                PyErr_SetString(PyExc_RuntimeError, "no legal action");
                goto done;
            }
            int action = vd_kth(m, vd_below(&b->play_rng[i], vd_pc64(m)));
            if (batch_apply(b, i, action, vr.obj ? (float *)vr.buf + (Py_ssize_t)i * b->players : NULL,
                            vd.obj ? (unsigned char *)vd.buf + i : NULL) < 0)
                goto done;
        }
    }
    result = Py_NewRef(Py_None);
done:
    release(&vr);
    release(&vd);
    return result;
}

/* random_actions(out): a uniformly random legal action of each deal (int64), drawn from
 * the deal's players' generator (a random policy without a Python loop). */
static PyObject *Batch_random_actions(Batch *b, PyObject *out)
{
    Py_buffer v;
    if (!batch_ready(b) || get_out(out, &v, b->n, 8, "out") < 0)
        return NULL;
    if (v.obj == NULL) {
        PyErr_SetString(PyExc_TypeError, "an int64 array expected");
        return NULL;
    }
    int64_t *a = v.buf;
    for (int i = 0; i < b->n; i++) {
        uint64_t m;
        if (batch_legal(b, i, &m) < 0) {
            PyBuffer_Release(&v);
            return NULL;
        }
        a[i] = m ? vd_kth(m, vd_below(&b->play_rng[i], vd_pc64(m))) : -1;
    }
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

/* 1.0f for each bit of a byte, as 8 floats: masks written into tensors a byte at a time. */
static float BYTE_BITS[256][8];

/* A byte of 0 or 1 for each bit of a byte, as 8 bytes: masks written into int8 rows. */
static uint64_t BYTE_FLAGS[256];

static void byte_bits_init(void)
{
    for (int v = 0; v < 256; v++)
        for (int k = 0; k < 8; k++) {
            BYTE_BITS[v][k] = (float)((v >> k) & 1);
            ((unsigned char *)&BYTE_FLAGS[v])[k] = (unsigned char)((v >> k) & 1);
        }
}

/* The 52 card bits of m as floats from dst[0] on. */
static void put_cards(float *dst, uint64_t m)
{
    for (int k = 0; k < 6; k++)
        memcpy(dst + 8 * k, BYTE_BITS[(m >> (8 * k)) & 0xFF], sizeof(float) * 8);
    memcpy(dst + 48, BYTE_BITS[(m >> 48) & 0x0F], sizeof(float) * 4);
}

/* The observation tensor of the seat on turn in deal i (knowledge.fill_tensor's parts of
 * a one-deal game in play, passing or calling trumps), written over `o`. */
static void observe_one(const Batch *b, int i, float *o)
{
    const Core *c = (const Core *)b->cores[i];
    const int *off = b->off;
    int p = b->players, s = c->to_move;
    memset(o, 0, sizeof(float) * b->obs_size);  /* row by row: in cache for what follows */
    o[off[O_SEAT] + s] = 1.0f;
    o[off[O_PHASE] + (c->phase == PH_PASS ? b->phase_pass : c->phase == PH_CALL ? b->phase_call : b->phase_play)] = 1.0f;
    o[off[O_CONTRACT] + b->contract] = 1.0f;
    o[off[O_DEALER] + b->dealer[i]] = 1.0f;
    uint64_t hand = c->phase == PH_CALL   ? b->early[(Py_ssize_t)i * p + s]  /* only the first cards are seen */
                    : c->phase == PH_PASS ? c->hands[s] & ~c->passes[s]
                                          : c->hands[s];
    put_cards(o + off[O_HAND], hand);
    put_cards(o + off[O_PLAYED], c->played);
    for (int k = 0; k < c->trick_len; k++)
        o[off[O_TRICK] + 52 * c->trick_seat[k] + c->trick_card[k]] = 1.0f;
    o[off[O_LED] + c->led + 1] = 1.0f;
    o[off[O_TRUMP] + b->trump[i] + 1] = 1.0f;
    int caller = c->phase == PH_CALL ? s : b->caller[i];
    if (caller >= 0)
        o[off[O_CALLER] + caller] = 1.0f;
    for (int t = 0; t < p; t++) {
        o[off[O_SCORES] + t] = (float)c->scores[t];
        o[off[O_SIZES] + t] = (float)vd_pc64(c->hands[t]);
    }
}

/* Deal i's row of each output given (obs, mask, player: views, obj NULL for none): the
 * tensor of the seat on turn, its legal actions (a byte per action), the seat. */
static int observe_row(Batch *b, int i, Py_buffer *vo, Py_buffer *vm, Py_buffer *vp)
{
    if (vm->obj != NULL) {
        uint64_t m;
        if (batch_legal(b, i, &m) < 0)
            return -1;
        unsigned char *row = (unsigned char *)vm->buf + (Py_ssize_t)i * b->num_actions;
        for (int k = 0; k < 8; k++)  /* actions 0..63 a byte of the mask at a time */
            memcpy(row + 8 * k, &BYTE_FLAGS[(m >> (8 * k)) & 0xFF], 8);
        memset(row + 64, 0, b->num_actions - 64);
    }
    if (vo->obj != NULL)
        observe_one(b, i, (float *)vo->buf + (Py_ssize_t)i * b->obs_size);
    if (vp->obj != NULL)
        ((int64_t *)vp->buf)[i] = ((Core *)b->cores[i])->to_move;
    return 0;
}

/* observe(obs, mask, player): the tensor of the seat on turn (float32, deals x size), its
 * legal actions (int8, deals x actions) and the seat (int64); None skips one. */
static PyObject *Batch_observe(Batch *b, PyObject *args)
{
    PyObject *obs, *mask, *player;
    if (!batch_ready(b) || !PyArg_ParseTuple(args, "OOO", &obs, &mask, &player))
        return NULL;
    Py_buffer vo, vm, vp;
    vm.obj = vp.obj = NULL;
    PyObject *result = NULL;
    if (get_out(obs, &vo, (Py_ssize_t)b->n * b->obs_size, 4, "obs") < 0)
        return NULL;
    if (get_out(mask, &vm, (Py_ssize_t)b->n * b->num_actions, 1, "mask") < 0
        || get_out(player, &vp, b->n, 8, "player") < 0)
        goto done;
    for (int i = 0; i < b->n; i++)
        if (observe_row(b, i, &vo, &vm, &vp) < 0)
            goto done;
    result = Py_NewRef(Py_None);
done:
    release(&vo);
    release(&vm);
    release(&vp);
    return result;
}

/* core(i): the Core of deal i (to read its position: hands, trick, actions, ...). */
static PyObject *Batch_core(Batch *b, PyObject *arg)
{
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred())
        return NULL;
    if (!batch_ready(b))
        return NULL;
    if (i < 0 || i >= b->n) {
        PyErr_SetString(PyExc_IndexError, "no such deal");
        return NULL;
    }
    return Py_NewRef(b->cores[i]);
}

static PyMethodDef Batch_methods[] = {
    {"reset", (PyCFunction)Batch_reset, METH_O, "Seed each deal's generators and deal every deal."},
    {"step", (PyCFunction)Batch_step, METH_VARARGS, "Apply one action per deal; rewards and ends written."},
    {"autoplay", (PyCFunction)Batch_autoplay, METH_VARARGS, "Play at random until it is a seat's turn."},
    {"random_actions", (PyCFunction)Batch_random_actions, METH_O, "A random legal action per deal."},
    {"observe", (PyCFunction)Batch_observe, METH_VARARGS, "Tensors, legal masks and seats on turn."},
    {"core", (PyCFunction)Batch_core, METH_O, "The Core of one deal."},
    {NULL},
};

static PyObject *Batch_len(Batch *b, void *c) { return PyLong_FromLong(b->n); }

static PyGetSetDef Batch_getset[] = {
    {"size", (getter)Batch_len, NULL, "the number of deals", NULL},
    {NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kierki_dsl.interpreter._cstep.Batch",
    .tp_doc = "N deals of one contract stepped at once (kierki_dsl/vecenv.py).",
    .tp_basicsize = sizeof(Batch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
    .tp_getset = Batch_getset,
};

/* The vecenv block's types, added to the module. */
static int vecenv_register(PyObject *m)
{
    if (PyType_Ready(&TrickMemoType) < 0 || PyType_Ready(&DealMemoType) < 0 || PyType_Ready(&BatchType) < 0)
        return -1;
    byte_bits_init();
    if (PyModule_AddObjectRef(m, "TrickMemo", (PyObject *)&TrickMemoType) < 0
        || PyModule_AddObjectRef(m, "DealMemo", (PyObject *)&DealMemoType) < 0
        || PyModule_AddObjectRef(m, "Batch", (PyObject *)&BatchType) < 0)
        return -1;
    return 0;
}

/* ==================================================== end of the vecenv block == */
/* ------------------------------------- the adapters' reads (branch adapters) -- */
/* For adapters/game.py's per-decision path: one call each, no view built. */

static Core *adapted_core(PyObject *arg)
{
    if (!PyObject_TypeCheck(arg, &CoreType)) {
        PyErr_SetString(PyExc_TypeError, "a step core (stepper.Stepper) is expected");
        return NULL;
    }
    Core *self = (Core *)arg;
    return ready(self) ? self : NULL;
}

/* legal_ascending(core): the legal actions in ascending order in every phase (a trump call's
 * too, which legal_actions lists in the contract's order). */
static PyObject *legal_ascending(PyObject *mod, PyObject *arg)
{
    Core *self = adapted_core(arg);
    uint64_t m;
    if (self == NULL)
        return NULL;
    self->busy = 1;
    int r = legal_mask(self, &m);
    self->busy = 0;
    return r < 0 ? NULL : mask_list(m);
}

/* seen_hands(core): each seat's hand as its view shows it (TrickDeal.view: the cards chosen
 * to pass left out while passing), or None in a trump call (the caller's first cards only). */
static PyObject *seen_hands(PyObject *mod, PyObject *arg)
{
    Core *self = adapted_core(arg);
    if (self == NULL)
        return NULL;
    if (self->phase == PH_CALL)
        Py_RETURN_NONE;
    PyObject *out = PyTuple_New(self->players);
    if (out == NULL)
        return NULL;
    for (int s = 0; s < self->players; s++) {
        uint64_t h = self->hands[s];
        if (self->phase == PH_PASS)
            h &= ~self->passes[s];
        PyObject *v = PyLong_FromUnsignedLongLong(h);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, s, v);
    }
    return out;
}

/* observe(core, seat, out, at, phase, contract, dealer, trump, caller, totals): write the seat's
 * observation tensor into ``out`` (a zeroed, writable float32 buffer, e.g. a numpy array), as
 * adapters/knowledge.fill_tensor does from TrickDeal.view: its hand (the cards chosen to pass
 * left out), the cards of the finished tricks, the trick in progress (seat * 52 + card), the
 * scores, every seat's hand size, the seat, the phase, the suit led, and what the game around the
 * deal says (the contract's index or -1, the dealer or -1, the trump and its caller or -1, the
 * match totals). ``at``: the offsets of those parts, in the order of OBSERVED below, then the
 * tensor's phase of each of the core's phase numbers; ``phase``: the tensor's phase, or -1 for
 * the core's own. False, nothing written, in a trump call (the caller has seen his first cards
 * only: the view is asked). */
enum { AT_HAND, AT_PLAYED, AT_TRICK, AT_SCORES, AT_SIZES, AT_SEAT, AT_PHASE, AT_LED, AT_TRUMP, AT_CALLER,
       AT_CONTRACT, AT_DEALER, AT_TOTALS, OBSERVED };

static int observed_at(PyObject *at, Py_ssize_t *out, Py_ssize_t n)
{
    if (!PyTuple_Check(at) || PyTuple_GET_SIZE(at) != n) {
        PyErr_SetString(PyExc_ValueError, "observe: the offsets of every part are expected");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(at, i));
        if (out[i] == -1 && PyErr_Occurred())
            return -1;
    }
    return 0;
}

/* out[i] = v, or -1 (ValueError) where i is outside the buffer of ``size`` floats. */
static int put_at(float *out, Py_ssize_t size, Py_ssize_t i, float v)
{
    if (i < 0 || i >= size) {
        PyErr_SetString(PyExc_ValueError, "observe writes into a float32 buffer holding every part");
        return -1;
    }
    out[i] = v;
    return 0;
}

/* The game's part of observe's arguments (phase, contract, dealer, trump, caller) read into ``out``; -1 on error. */
static int game_parts(PyObject *const *game, long *out)
{
    for (int i = 0; i < 5; i++)
        out[i] = PyLong_AsLong(game[i]);
    return PyErr_Occurred() ? -1 : 0;
}

static int write_observed_parts(Core *self, int seat, float *out, Py_ssize_t size, const Py_ssize_t *at,
                                const long *parts, PyObject *totals);

static int write_observed(Core *self, int seat, float *out, Py_ssize_t size, const Py_ssize_t *at, PyObject *const *game)
{
    long parts[5];
    return game_parts(game, parts) < 0 ? -1 : write_observed_parts(self, seat, out, size, at, parts, game[5]);
}

static int write_observed_parts(Core *self, int seat, float *out, Py_ssize_t size, const Py_ssize_t *at,
                                const long *parts, PyObject *totals)
{
    int n = self->players;
    long phase = parts[0], contract = parts[1], dealer = parts[2], trump = parts[3], caller = parts[4];
    if (!PyList_Check(totals) || PyList_GET_SIZE(totals) != n) {
        PyErr_SetString(PyExc_ValueError, "observe: the match totals, one per seat, are expected");
        return -1;
    }
    Py_ssize_t ends[5] = {at[AT_HAND] + 52, at[AT_PLAYED] + 52, at[AT_TRICK] + 52 * n, at[AT_SCORES] + n,
                          at[AT_SIZES] + n};
    for (int i = 0; i < 5; i++)
        if (at[i] < 0 || ends[i] > size)
            return put_at(out, size, -1, 0);
    if (phase < 0)
        phase = at[OBSERVED + self->phase];
    uint64_t hand = self->hands[seat];
    if (self->phase == PH_PASS)
        hand &= ~self->passes[seat];
    put_cards(out + at[AT_HAND], hand); /* (first: they write the zeros of their part too) */
    put_cards(out + at[AT_PLAYED], self->played);
    if (put_at(out, size, at[AT_SEAT] + seat, 1) < 0 || put_at(out, size, at[AT_PHASE] + phase, 1) < 0 ||
        put_at(out, size, at[AT_LED] + self->led + 1, 1) < 0 || put_at(out, size, at[AT_TRUMP] + trump + 1, 1) < 0 ||
        (caller >= 0 && put_at(out, size, at[AT_CALLER] + caller, 1) < 0) ||
        (contract >= 0 && put_at(out, size, at[AT_CONTRACT] + contract, 1) < 0) ||
        (dealer >= 0 && put_at(out, size, at[AT_DEALER] + dealer, 1) < 0))
        return -1;
    for (int s = 0; s < n; s++) {
        if (PyList_GET_SIZE(totals) != n) { /* (a total's __float__ may have changed the list) */
            PyErr_SetString(PyExc_ValueError, "observe: the match totals changed while read");
            return -1;
        }
        PyObject *v = Py_NewRef(PyList_GET_ITEM(totals, s)); /* (held: its __float__ may drop it from the list) */
        double t = PyLong_CheckExact(v) ? PyLong_AsDouble(v) : PyFloat_AsDouble(v);
        Py_DECREF(v);
        if (t == -1.0 && PyErr_Occurred())
            return -1;
        if (put_at(out, size, at[AT_TOTALS] + s, (float)t) < 0)
            return -1;
    }
    for (int i = 0; i < self->trick_len; i++)
        out[at[AT_TRICK] + self->trick_seat[i] * 52 + self->trick_card[i]] = 1.0f;
    for (int s = 0; s < n; s++) {
        out[at[AT_SCORES] + s] = (float)self->scores[s];
        out[at[AT_SIZES] + s] = (float)popcount64(self->hands[s]);
    }
    return 0;
}

/* Write the seat's observation tensor of ``self`` into ``target`` (a zeroed, writable float32
 * buffer): write_observed's arguments. -1 (TypeError) where ``target`` is not such a buffer. */
static int observe_into(Core *self, int seat, PyObject *target, const Py_ssize_t *at, PyObject *const *game)
{
    Py_buffer buf;
    if (PyObject_GetBuffer(target, &buf, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (buf.itemsize != (Py_ssize_t)sizeof(float) || buf.format == NULL || strcmp(buf.format, "f") != 0) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_TypeError, "observe writes into a float32 buffer");
        return -1;
    }
    int r = write_observed(self, seat, (float *)buf.buf, buf.len / (Py_ssize_t)sizeof(float), at, game);
    PyBuffer_Release(&buf);
    return r;
}

static PyObject *observe(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "observe(core, seat, out, at, phase, contract, dealer, trump, caller, totals)");
        return NULL;
    }
    Core *self = adapted_core(args[0]);
    if (self == NULL)
        return NULL;
    if (self->phase == PH_CALL)
        Py_RETURN_FALSE;
    int seat = PyLong_AsLong(args[1]);
    if (seat == -1 && PyErr_Occurred())
        return NULL;
    if (seat < 0 || seat >= self->players) {
        PyErr_SetString(PyExc_ValueError, "no such seat");
        return NULL;
    }
    Py_ssize_t at[OBSERVED + 4];
    if (observed_at(args[3], at, OBSERVED + 4) < 0)
        return NULL;
    if (observe_into(self, seat, args[2], at, args + 4) < 0)
        return NULL;
    Py_RETURN_TRUE;
}

/* Set to 1 the entries of ``out`` (``len`` bytes) at the core's legal actions; -1 on error. */
static int mark_buf(Core *self, char *out, Py_ssize_t len)
{
    uint64_t m;
    self->busy = 1;
    int r = legal_mask(self, &m);
    self->busy = 0;
    if (r < 0)
        return -1;
    int width = 64 - (m ? __builtin_clzll(m) : 64); /* past the highest legal action */
    if (len < width) {
        PyErr_SetString(PyExc_ValueError, "mark_legal writes into an int8 buffer holding every action");
        return -1;
    }
    for (; m; m &= m - 1)
        out[lowest(m)] = 1;
    return 0;
}

/* mark_buf into ``target`` (a writable int8 buffer); -1 on error. */
static int mark_into(Core *self, PyObject *target)
{
    Py_buffer buf;
    if (PyObject_GetBuffer(target, &buf, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (buf.itemsize != 1 || buf.format == NULL || strcmp(buf.format, "b") != 0) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "mark_legal writes into an int8 buffer holding every action");
        return -1;
    }
    int r = mark_buf(self, (char *)buf.buf, buf.len);
    PyBuffer_Release(&buf);
    return r;
}

/* mark_legal(core, mask): set to 1 the entries of ``mask`` (a writable int8 buffer, e.g. a numpy
 * action mask) at the core's legal actions. */
static PyObject *mark_legal(PyObject *mod, PyObject *args)
{
    PyObject *arg, *target;
    if (!PyArg_ParseTuple(args, "OO", &arg, &target))
        return NULL;
    Core *self = adapted_core(arg);
    if (self == NULL || mark_into(self, target) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* apply_then(core, on_end, action): apply ``action`` (Core.apply_action: IllegalAction if not
 * allowed); if the deal is over after it, call ``on_end()`` -- a weak reference to a GameState,
 * whose ``_after_action`` is then called (gone: nothing). None. GameState.apply_action while the
 * core steps the deal (fast_calls below, with weakref.ref(state)): no Python frame per decision
 * and no reference cycle. */
static int game_end_c(PyObject *state, Core *core);

static PyObject *apply_then(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "apply_then(core, on_end, action)");
        return NULL;
    }
    PyObject *arg = args[0];
    if (adapted_core(arg) == NULL)
        return NULL;
    PyObject *r = Core_apply_action((Core *)arg, args[2]);
    if (r == NULL)
        return NULL;
    if (((Core *)arg)->phase != PH_DONE)
        return r;
    Py_DECREF(r);
    PyObject *state = PyObject_CallNoArgs(args[1]);
    if (state == NULL)
        return NULL;
    if (state == Py_None)
        return state;
    int ended = game_end_c(state, (Core *)arg); /* (in C where it can: _gameend.h) */
    if (ended != 0) {
        Py_DECREF(state);
        return ended < 0 ? NULL : Py_NewRef(Py_None);
    }
    r = PyObject_CallMethod(state, "_after_action", NULL);
    Py_DECREF(state);
    if (r == NULL)
        return NULL;
    Py_DECREF(r);
    Py_RETURN_NONE;
}
/* GameState's legal_actions, apply_action, current_player and is_terminal while the core steps the
 * deal: callables holding the core (and apply_action the on_end of apply_then), each call one
 * vectorcall into the core with no Python frame. Not builtin functions: pybind11 takes a builtin
 * found where it looks for a Python override (kierki_dsl.openspiel reads these through the
 * state's ``core``) for its own C++ method, and would stop asking Python. */
enum { FAST_LEGAL, FAST_APPLY, FAST_PLAYER, FAST_TERMINAL };

typedef struct {
    PyObject_HEAD
    PyObject *core, *on_end;
    int kind;
    vectorcallfunc vectorcall;
} FastCall;

static void FastCall_dealloc(FastCall *f)
{
    Py_XDECREF(f->core);
    Py_XDECREF(f->on_end);
    Py_TYPE(f)->tp_free((PyObject *)f);
}

static const char *const FAST_NAMES[] = {"legal_actions", "apply_action", "current_player", "is_terminal"};

/* legal_actions([player]): the legal actions ascending ([] for a player not on turn; None: the
 * seat on turn); apply_action(action); current_player(); is_terminal(). */
static PyObject *FastCall_vectorcall(FastCall *f, PyObject *const *args, size_t nargsf, PyObject *kw)
{
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    Core *core = (Core *)f->core;
    int most = f->kind == FAST_APPLY || f->kind == FAST_LEGAL, least = f->kind == FAST_APPLY;
    if (kw != NULL && PyTuple_GET_SIZE(kw)) {
        PyErr_Format(PyExc_TypeError, "%s() takes no keyword arguments", FAST_NAMES[f->kind]);
        return NULL;
    }
    if (n < least || n > most) {
        PyErr_Format(PyExc_TypeError, "%s() takes %d argument(s), %zd given", FAST_NAMES[f->kind], most, n);
        return NULL;
    }
    switch (f->kind) {
    case FAST_APPLY: {
        PyObject *call[3] = {f->core, f->on_end, args[0]};
        return apply_then(NULL, call, 3);
    }
    case FAST_PLAYER:
        return Core_current_player(core, NULL);
    case FAST_TERMINAL:
        return Core_is_terminal(core, NULL);
    }
    if (n == 1 && args[0] != Py_None) {
        long seat = PyLong_AsLong(args[0]);
        if (seat == -1 && PyErr_Occurred())
            return NULL;
        if (seat != (core->phase == PH_DONE ? -1 : core->to_move))
            return PyList_New(0);
    }
    return legal_ascending(NULL, f->core);
}

static PyTypeObject FastCallType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kierki_dsl.interpreter._cstep.FastCall",
    .tp_doc = "A GameState's call answered by the core stepping its deal (fast_calls).",
    .tp_basicsize = sizeof(FastCall),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(FastCall, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_dealloc = (destructor)FastCall_dealloc,
};

static PyObject *fast_call(PyObject *core, PyObject *on_end, int kind)
{
    FastCall *f = PyObject_New(FastCall, &FastCallType);
    if (f == NULL)
        return NULL;
    f->core = Py_NewRef(core);
    f->on_end = Py_NewRef(on_end);
    f->kind = kind;
    f->vectorcall = (vectorcallfunc)FastCall_vectorcall;
    return (PyObject *)f;
}

/* fast_calls(core, on_end): (legal_actions, apply_action, current_player, is_terminal) of the
 * core, as above; ``on_end`` as apply_then's. */
static PyObject *fast_calls(PyObject *mod, PyObject *args)
{
    PyObject *core, *on_end;
    if (!PyArg_ParseTuple(args, "O!O", &CoreType, &core, &on_end))
        return NULL;
    if (PyType_Ready(&FastCallType) < 0)
        return NULL;
    PyObject *out = PyTuple_New(4);
    for (int k = 0; out != NULL && k < 4; k++) {
        PyObject *f = fast_call(core, on_end, k);
        if (f == NULL)
            Py_CLEAR(out);
        else
            PyTuple_SET_ITEM(out, k, f);
    }
    return out;
}
/* ------------------------------------------------ end of the adapters' reads -- */

/* ------------------------- the PettingZoo environment's calls (branch pz6) -- */
/* kierki_dsl/pettingzoo.py's ``last`` and ``step`` while the core steps the deal of the game in
 * play, and its ``agent_iter``'s iterator: C callables set on the environment (env_calls), which
 * shadow the class's methods, so that PettingZoo's loop runs no Python frame of ours per decision.
 * They read and write the environment's own attributes (its instance dict: agent_selection,
 * rewards, terminations, ...) exactly as the Python methods do; whatever they do not do in C --
 * no core stepping directly (``game._fast`` None), a trump call, a dead step whose objects are not
 * plain, an action that is not a legal exact int, the step after a payment (``_paid``), a match's
 * deal end -- they hand to the Python method (``slow``) or, at a deal's end, to ``_after_step``, the
 * Python method's second half (a one-deal game's end is done in C where it can be: _gameend.h). */

static PyObject *S_agent_selection, *S_seats, *S_game, *S_fast, *S_step, *S_stage, *S_cumulative, *S_terminations, *S_truncations,
    *S_infos, *S_paid, *S_possible_agents, *S_totals, *S_agents, *S_after_action, *S_after_step, *S_observation,
    *S_action_mask, *S_dtype, *S_rewards, *S_skip, *S_last, *S_step_name, *S_observe, *S_was_dead_step, *S_clear_rewards, *S_agent_of, *S_accumulate, *S_zero;

enum { ENV_LAST, ENV_STEP, POOL = 4, METHODS = 6 };

static PyObject *got(PyObject *d, PyObject *key);
#include "_envmemo.h" /* what the calls read of the environment, kept while its dicts are unchanged */
#include "_gameend.h" /* a one-deal game's end on the core in C: GameState._after_action, KierkiEnv._after_step */

static PyObject *MK_values[M_VALUES], *MK_dicts[M_DICTS], *MK_absent[METHODS + 1], *MK_game[G_PARTS];
static PyObject *MK_attrs[M_VALUES + M_DICTS + 3]; /* every attribute the calls read or write (NULL-ended) */

static PyObject *const *memo_keys(int which)
{
    return which == 0 ? MK_values : which == 1 ? MK_dicts : which == 2 ? MK_absent : MK_game;
}

typedef struct {
    PyObject_HEAD
    PyObject *env;                   /* a weak reference to the environment (no reference cycle) */
    PyObject *slow;                  /* the Python method: slow(env, *args, **kw) */
    PyObject *observed;              /* observed(game, core): observe's arguments of the game but the totals */
    PyObject *new_obs, *new_mask;    /* each call: a new zeroed observation array, action mask */
    PyObject *core, *ctx, *stage;    /* what the arguments below are of (held: no address reused) */
    long parts[5];                   /* phase, contract, dealer, trump, caller */
    PyObject *pool[POOL];            /* observation dicts handed out, each {"observation": a tensor, "action_mask": a mask} */
    void *keys[POOL];                /* each one's keys object when it was made (a resize, a key of another type: another) */
    Py_ssize_t len[2];               /* their length (-1: not known yet) */
    PyObject *dtype[2];              /* their dtype (NULL: not known yet) */
    PyTypeObject *type[2];           /* their type */
    int abi[2];                      /* whether they are laid out as NumpyArray */
    int next;                        /* the pool's slot a new dict takes */
    Py_ssize_t at[OBSERVED + 4];
    int kind;
    PyObject *names[METHODS];   /* the call's own name, then the methods it does in C (observe; the dead step's, the rest of a step's) */
    PyObject *methods[METHODS]; /* the environment's class's at those names when made (held; NULL: none) */
    PyTypeObject *kept;         /* the class whose version tag ``tag`` showed those methods kept (NULL: none) */
    unsigned int tag;
    EnvMemo *memo;              /* what the calls read of the environment (_envmemo.h; shared by last and step) */
    Py_hash_t hash;             /* a bound method's of the environment and ``slow`` (env_call) */
    vectorcallfunc vectorcall;
} EnvCall;

static void envcall_forget(EnvCall *f)
{
    Py_CLEAR(f->core);
    Py_CLEAR(f->ctx);
    Py_CLEAR(f->stage);
}

/* The collector sees the pooled dicts (a dict its holder put something into, then dropped, may hold
 * the environment, whose instance dict holds this call: a cycle it must be able to free) ... */
static int EnvCall_traverse(EnvCall *f, visitproc visit, void *arg)
{
    for (int i = 0; i < POOL; i++)
        Py_VISIT(f->pool[i]);
    return 0;
}

/* ... and breaks such a cycle by emptying the pool. */
static int EnvCall_clear(EnvCall *f)
{
    for (int i = 0; i < POOL; i++)
        Py_CLEAR(f->pool[i]);
    return 0;
}

static void EnvCall_dealloc(EnvCall *f)
{
    PyObject_GC_UnTrack(f);
    envcall_forget(f);
    for (int i = 0; i < POOL; i++)
        Py_XDECREF(f->pool[i]);
    for (int k = 0; k < 2; k++)
        Py_XDECREF(f->dtype[k]);
    for (int i = 0; i < METHODS; i++)
        Py_XDECREF(f->methods[i]);
    Py_XDECREF(f->env);
    Py_XDECREF(f->slow);
    Py_XDECREF(f->observed);
    Py_XDECREF(f->new_obs);
    Py_XDECREF(f->new_mask);
    memo_release(f->memo);
    Py_TYPE(f)->tp_free((PyObject *)f);
}

/* The Python method on ``env``: slow(env, *args, **kw) (vectorcall's arguments). */
static PyObject *env_slow(EnvCall *f, PyObject *env, PyObject *const *args, size_t nargsf, PyObject *kw)
{
    Py_ssize_t n = PyVectorcall_NARGS(nargsf), all = n + (kw ? PyTuple_GET_SIZE(kw) : 0);
    PyObject *small[8], **call = all < 8 ? small : PyMem_New(PyObject *, all + 1);
    if (call == NULL)
        return PyErr_NoMemory();
    call[0] = env;
    for (Py_ssize_t i = 0; i < all; i++)
        call[i + 1] = args[i];
    PyObject *r = PyObject_Vectorcall(f->slow, call, n + 1, kw);
    if (call != small)
        PyMem_Free(call);
    return r;
}

/* The call by the environment's class's method of the call's name (where it is not the one the call
 * was made with: the class changed, or its method): as getattr would find it without the instance's. */
static PyObject *env_class_call(EnvCall *f, PyObject *env, PyObject *const *args, size_t nargsf, PyObject *kw)
{
    PyObject *m = _PyType_Lookup(Py_TYPE(env), f->names[0]);
    if (m == f->slow)
        return env_slow(f, env, args, nargsf, kw);
    if (m == NULL)
        return PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '%U'", Py_TYPE(env)->tp_name,
                            f->names[0]);
    Py_INCREF(m);
    descrgetfunc get = Py_TYPE(m)->tp_descr_get;
    PyObject *bound = get != NULL ? get(m, env, (PyObject *)Py_TYPE(env)) : Py_NewRef(m), *r = NULL;
    Py_DECREF(m);
    if (bound != NULL)
        r = PyObject_Vectorcall(bound, args, PyVectorcall_NARGS(nargsf), kw);
    Py_XDECREF(bound);
    return r;
}

/* The instance dict's value at ``key`` (borrowed), NULL if not there (no error set: the Python
 * path then raises what it raises). */
static PyObject *got(PyObject *d, PyObject *key)
{
    PyObject *v = PyDict_GetItemWithError(d, key);
    if (v == NULL)
        PyErr_Clear();
    return v;
}

/* The core of ``game`` at ``key``: ``_fast`` (stepping the deal directly) or ``_step`` (stepping it),
 * ready, else NULL (no error); ``*gd``: the game's instance dict (a new reference) with it. */
static Core *fast_core(PyObject *game, PyObject **gd, PyObject *key)
{
    *gd = NULL;
    if (game == NULL || game == Py_None)
        return NULL;
    PyObject *d = PyObject_GenericGetDict(game, NULL);
    if (d == NULL) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *core = got(d, key);
    if (core == NULL || !PyObject_TypeCheck(core, &CoreType) || !ready((Core *)core)) {
        PyErr_Clear();
        Py_DECREF(d);
        return NULL;
    }
    *gd = d;
    return (Core *)core;
}

/* numpy's array object as its ABI lays it out (numpy's ndarraytypes.h, PyArrayObject_fields; the
 * same from numpy 1.7 to 2.x), read only where a pool's first array showed the layout holds
 * (pool_take: its data, dimensions, dtype and weak-reference list where its buffer and its type
 * say they are), else never: the buffer protocol answers instead. */
typedef struct {
    PyObject_HEAD
    char *data;
    int nd;
    Py_ssize_t *dimensions;
    Py_ssize_t *strides;
    PyObject *base;
    PyObject *descr;
    int flags;
    PyObject *weakreflist;
} NumpyArray;

enum { NPY_C_CONTIGUOUS = 0x0001, NPY_OWNDATA = 0x0004, NPY_ALIGNED = 0x0100, NPY_WRITEABLE = 0x0400 };
#define NPY_FRESH (NPY_C_CONTIGUOUS | NPY_OWNDATA | NPY_ALIGNED | NPY_WRITEABLE)

/* Whether the array ``a`` (its buffer ``buf``, its dtype ``dtype``) is laid out as NumpyArray says. */
static int numpy_layout(PyObject *a, const Py_buffer *buf, PyObject *dtype)
{
    const NumpyArray *n = (const NumpyArray *)a;
    return Py_TYPE(a)->tp_basicsize >= (Py_ssize_t)sizeof(NumpyArray) &&
           Py_TYPE(a)->tp_weaklistoffset == (Py_ssize_t)offsetof(NumpyArray, weakreflist) && n->data == buf->buf &&
           n->nd == 1 && buf->ndim == 1 && n->dimensions[0] == buf->shape[0] && n->descr == dtype &&
           n->base == NULL && (n->flags & NPY_FRESH) == NPY_FRESH && n->weakreflist == NULL;
}

/* The array ``a`` of kind ``k`` (0: the observation tensor, float32; 1: the action mask, int8) zeroed
 * through the buffer protocol, its memory in ``*out``, where it is a flat array of that kind (the
 * first of each kind read its layout: numpy_layout); else -1 (an array someone changed in place:
 * its shape, dtype, flags, memory). */
static int pool_take(EnvCall *f, int k, PyObject *a, char **out)
{
    static const char *const formats[2] = {"f", "b"};
    static const Py_ssize_t sizes[2] = {sizeof(float), 1};
    Py_buffer buf;
    if (PyObject_GetBuffer(a, &buf, PyBUF_WRITABLE | PyBUF_ND | PyBUF_FORMAT) < 0)
        return -1;
    PyObject *dtype = PyObject_GetAttr(a, S_dtype);
    int fits = dtype != NULL && buf.ndim == 1 && buf.itemsize == sizes[k] && buf.format != NULL &&
               strcmp(buf.format, formats[k]) == 0 && (f->len[k] < 0 || buf.shape[0] == f->len[k]) &&
               (f->dtype[k] == NULL || dtype == f->dtype[k]);
    if (fits && f->dtype[k] == NULL) {
        f->dtype[k] = Py_NewRef(dtype);
        f->len[k] = buf.shape[0];
        f->type[k] = Py_TYPE(a);
        f->abi[k] = numpy_layout(a, &buf, dtype);
    }
    Py_XDECREF(dtype);
    if (fits) {
        memset(buf.buf, 0, (size_t)buf.len);
        *out = buf.buf; /* (the pool holds the array: its memory stays while the caller writes) */
    } else if (!PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "the environment's arrays are flat float32 tensors and int8 masks");
    PyBuffer_Release(&buf);
    return fits ? 0 : -1;
}

/* Whether nobody but its pooled dict can see ``a`` (its only reference the dict's, no weak reference
 * to it) and it is as it was handed out, its memory zeroed in ``*out``: -1 cannot tell (no numpy
 * layout: the buffer is asked), 0 no, 1 yes. */
static int pool_free(EnvCall *f, int k, PyObject *a, char **out)
{
    if (Py_REFCNT(a) != 1 || Py_TYPE(a) != f->type[k])
        return 0;
    if (!f->abi[k]) {
        Py_ssize_t off = Py_TYPE(a)->tp_weaklistoffset;
        return off > 0 && *(PyObject **)((char *)a + off) != NULL ? 0 : -1;
    }
    NumpyArray *n = (NumpyArray *)a;
    if (n->weakreflist != NULL || n->nd != 1 || n->dimensions[0] != f->len[k] || n->descr != f->dtype[k] ||
        n->base != NULL || (n->flags & NPY_FRESH) != NPY_FRESH)
        return 0;
    memset(n->data, 0, (size_t)(f->len[k] * (k ? 1 : (Py_ssize_t)sizeof(float))));
    *out = n->data;
    return 1;
}

/* A new zeroed array of kind ``k`` (new_obs(), new_mask()), its memory in ``*out``. */
static PyObject *fresh_array(EnvCall *f, int k, char **out)
{
    PyObject *a = PyObject_CallNoArgs(k ? f->new_mask : f->new_obs);
    if (a != NULL && pool_take(f, k, a, out) < 0)
        Py_CLEAR(a);
    return a;
}

/* Whether the pooled dict ``d`` (slot ``i``) is as it was handed out and nobody else holds it: its
 * only reference the pool's, untracked, its keys object the one it was made with, its two items in
 * their order, the arrays ``*a`` and ``*m`` (borrowed). */
static int dict_free(EnvCall *f, int i, PyObject *d, PyObject **a, PyObject **m)
{
    PyObject *k;
    Py_ssize_t pos = 0;
    if (Py_REFCNT(d) != 1 || PyDict_GET_SIZE(d) != 2 || (void *)((PyDictObject *)d)->ma_keys != f->keys[i] ||
        PyObject_GC_IsTracked(d))
        return 0;
    return PyDict_Next(d, &pos, &k, a) && k == S_observation && PyDict_Next(d, &pos, &k, m) && k == S_action_mask;
}

/* The array of kind ``k`` at the dict ``d`` (held), ``a``, zeroed where nobody else can see it, else
 * a new one put there; its memory in ``*out``. */
static int dict_array(EnvCall *f, PyObject *d, int k, PyObject *a, char **out)
{
    int free = pool_free(f, k, a, out);
    if (free > 0 || (free < 0 && pool_take(f, k, a, out) == 0))
        return 0;
    PyErr_Clear();
    PyObject *b = fresh_array(f, k, out);
    int err = b == NULL ? -1 : PyDict_SetItem(d, k ? S_action_mask : S_observation, b);
    Py_XDECREF(b);
    return err;
}

/* The observation dict to hand out ({"observation": a zeroed tensor, "action_mask": a zeroed mask},
 * their memory in ``*vo``, ``*vm``): one the environment handed out before that nobody else holds
 * and nobody changed (dict_free), its arrays zeroed where nobody else can see them (pool_free), else
 * a new one. A pooled dict its holder changed, then dropped, leaves the pool, and so does the one a
 * new dict replaces: into ``drop`` (POOL + 1 of them, NULL-ended), released by the caller once it is
 * done (a release may run code: the destructor of what was put into the dict). */
static PyObject *pooled(EnvCall *f, char **vo, char **vm, PyObject **drop)
{
    PyObject *a, *m, *d;
    int dropped = 0;
    for (int i = 0; i < POOL; i++) {
        if ((d = f->pool[i]) == NULL)
            continue;
        if (!dict_free(f, i, d, &a, &m)) {
            if (Py_REFCNT(d) == 1) { /* (changed: never handed out again) */
                drop[dropped++] = d;
                f->pool[i] = NULL;
            }
            continue;
        }
        Py_INCREF(d); /* (held: another call run by code in dict_array finds it taken) */
        if (dict_array(f, d, 0, a, vo) < 0 || dict_array(f, d, 1, m, vm) < 0) {
            Py_DECREF(d);
            return NULL;
        }
        f->keys[i] = (void *)((PyDictObject *)d)->ma_keys;
        return d;
    }
    a = fresh_array(f, 0, vo);
    m = a == NULL ? NULL : fresh_array(f, 1, vm);
    d = m == NULL ? NULL : PyDict_New();
    if (d != NULL && (PyDict_SetItem(d, S_observation, a) < 0 || PyDict_SetItem(d, S_action_mask, m) < 0))
        Py_CLEAR(d);
    Py_XDECREF(a);
    Py_XDECREF(m);
    if (d == NULL)
        return NULL;
    int i = f->next;
    f->next = (i + 1) % POOL;
    if (f->pool[i] != NULL)
        drop[dropped++] = f->pool[i];
    f->pool[i] = Py_NewRef(d);
    f->keys[i] = (void *)((PyDictObject *)d)->ma_keys;
    return d;
}

/* The tensor's phase of each stage that ``observed`` answered for (the stages are the game module's
 * singletons, ``_Stage.seen_as`` a class attribute: the phase is the stage's alone): so that a new
 * stage of the same core and context (a deal's end: "over") asks ``observed`` nothing. */
enum { STAGES_SEEN = 8 };
static PyObject *seen_by[STAGES_SEEN], *seen_stage[STAGES_SEEN]; /* (held) */
static long seen_phase[STAGES_SEEN];

static int stage_phase(PyObject *observed, PyObject *stage, long *phase)
{
    for (int i = 0; i < STAGES_SEEN && seen_stage[i] != NULL; i++)
        if (seen_stage[i] == stage && seen_by[i] == observed) {
            *phase = seen_phase[i];
            return 1;
        }
    return 0;
}

static void stage_seen(PyObject *observed, PyObject *stage, long phase)
{
    long known;
    if (stage_phase(observed, stage, &known))
        return;
    for (int i = 0; i < STAGES_SEEN; i++)
        if (seen_stage[i] == NULL) {
            seen_by[i] = Py_NewRef(observed);
            seen_stage[i] = Py_NewRef(stage);
            seen_phase[i] = phase;
            return;
        }
}

/* observe's arguments of ``game`` but the totals (observed(game, core)), asked again only when
 * the core or its context (a trump called) changes (a new stage of the same: its phase only, once
 * seen); -1 on error. */
static int env_observed(EnvCall *f, PyObject *game, Core *core, PyObject *stage)
{
    if (f->core == (PyObject *)core && f->ctx == core->ctx && f->stage == stage)
        return 0;
    long phase;
    if (f->core == (PyObject *)core && f->ctx == core->ctx && f->stage != NULL && stage_phase(f->observed, stage, &phase)) {
        f->parts[0] = phase; /* (the rest is the core's and its context's: core_observed) */
        Py_SETREF(f->stage, Py_NewRef(stage));
        return 0;
    }
    envcall_forget(f);
    PyObject *r = PyObject_CallFunctionObjArgs(f->observed, game, (PyObject *)core, NULL);
    if (r == NULL)
        return -1;
    if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 6 || observed_at(PyTuple_GET_ITEM(r, 0), f->at, OBSERVED + 4) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "observed(game, core): (offsets, phase, contract, dealer, trump, caller)");
        Py_DECREF(r);
        return -1;
    }
    int err = game_parts(&PyTuple_GET_ITEM(r, 1), f->parts);
    Py_DECREF(r);
    if (err < 0)
        return -1;
    Py_XSETREF(f->core, Py_NewRef((PyObject *)core)); /* (XSETREF: a call above may have run this one again) */
    Py_XSETREF(f->ctx, Py_XNewRef(core->ctx));
    Py_XSETREF(f->stage, Py_NewRef(stage));
    stage_seen(f->observed, stage, f->parts[0]);
    return 0;
}

static PyObject *observe_held(EnvCall *f, PyObject *game, PyObject *gd, Core *core, long seat, PyObject *totals,
                              PyObject *stage);

/* The seat at ``seat_no`` (an exact int), else -1. */
static long seat_at(PyObject *seat_no)
{
    long seat = seat_no != NULL && PyLong_CheckExact(seat_no) ? PyLong_AsLong(seat_no) : -1;
    if (seat == -1)
        PyErr_Clear();
    return seat;
}

/* The observation of ``agent`` ({"observation": a new tensor, "action_mask": a new mask}) read
 * from the core, as KierkiEnv.observe writes it; NULL with no error set where the Python method
 * must answer (no core stepping directly, a trump call, no such agent), NULL with an error on error. */
static PyObject *env_observe(EnvCall *f, PyObject *d, PyObject *agent)
{
    /* (every object held as soon as read: a lookup may run a key's __eq__, which may drop it) */
    PyObject *game = Py_XNewRef(got(d, S_game)), *seats = Py_XNewRef(got(d, S_seats)), *gd;
    long seat = seat_at(seats != NULL && PyDict_CheckExact(seats) ? got(seats, agent) : NULL);
    Py_XDECREF(seats);
    Core *core = fast_core(game, &gd, S_step);
    if (core == NULL) {
        Py_XDECREF(game);
        return NULL;
    }
    Py_INCREF(core);
    PyObject *totals = Py_XNewRef(got(gd, S_totals)), *stage = Py_XNewRef(got(gd, S_stage));
    return observe_held(f, game, gd, core, seat, totals, stage);
}

/* The game's core at G_FAST or G_STEP of the memo's game (``game``, held) and its instance dict
 * (``*gd``, a new reference), ready, else NULL (no error): fast_core from the memo. */
static Core *memo_core(EnvMemo *m, PyObject *game, PyObject **gd, int which, PyObject *const **parts)
{
    *parts = NULL;
    *gd = PyObject_GenericGetDict(game, NULL);
    if (*gd == NULL) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *core = (*parts = memo_game(m, *gd)) != NULL ? (*parts)[which] : NULL;
    if (core == NULL || !PyObject_TypeCheck(core, &CoreType) || !ready((Core *)core)) {
        PyErr_Clear();
        Py_CLEAR(*gd);
        return NULL;
    }
    return (Core *)core;
}

/* env_observe of the memo's row ``k`` (the selected agent's); NULL with no error where the memo
 * cannot say or the Python method must answer. */
static PyObject *memo_observe(EnvCall *f, int k)
{
    EnvMemo *m = f->memo;
    PyObject *game = Py_NewRef(m->value[M_GAME]), *gd, *const *parts;
    long seat = seat_at(m->of[k][M_SEATS]);
    Core *core = memo_core(m, game, &gd, G_STEP, &parts);
    if (core == NULL) {
        Py_DECREF(game);
        return NULL;
    }
    Py_INCREF(core);
    return observe_held(f, game, gd, core, seat, Py_XNewRef(parts[G_TOTALS]), Py_XNewRef(parts[G_STAGE]));
}

/* env_observe once its objects are read (each a reference it takes). */
static PyObject *observe_held(EnvCall *f, PyObject *game, PyObject *gd, Core *core, long seat, PyObject *totals,
                              PyObject *stage)
{
    PyObject *out = NULL, *drop[POOL + 1] = {NULL};
    if (core->phase == PH_CALL || seat < 0 || seat >= core->players || totals == NULL || stage == NULL) {
        Py_XDECREF(totals);
        Py_XDECREF(stage);
        Py_DECREF(core);
        Py_DECREF(game);
        Py_DECREF(gd);
        return NULL;
    }
    if (env_observed(f, game, core, stage) < 0)
        goto done;
    char *vo, *vm;
    long parts[5]; /* (copied: pooled's call may run this call again, on another core) */
    Py_ssize_t at[OBSERVED + 4];
    memcpy(parts, f->parts, sizeof parts);
    memcpy(at, f->at, sizeof at);
    out = pooled(f, &vo, &vm, drop);
    if (out != NULL && (write_observed_parts(core, (int)seat, (float *)vo, f->len[0], at, parts, totals) < 0 ||
                        (core->phase != PH_DONE && core->to_move == seat && mark_buf(core, vm, f->len[1]) < 0)))
        Py_CLEAR(out);
done:
    for (int i = 0; drop[i] != NULL; i++)
        Py_DECREF(drop[i]);
    Py_DECREF(core);
    Py_DECREF(stage);
    Py_DECREF(totals);
    Py_DECREF(game);
    Py_DECREF(gd);
    return out;
}

/* last([observe]): (observation, cumulative reward, terminated, truncated, info) of the agent
 * selected, as AECEnv.last; NULL with no error where the Python method must answer (a part not in
 * an exact dict: its __getitem__ then runs once, there). */
static PyObject *memo_last(EnvCall *f, int k);

static PyObject *env_last(EnvCall *f, PyObject *env, PyObject *d)
{
    int row = memo_row(f->memo, d);
    if (row >= 0)
        return memo_last(f, row);
    PyObject *agent = got(d, S_agent_selection), *obs = NULL, *out = NULL, *parts[4] = {NULL, NULL, NULL, NULL};
    PyObject *keys[4] = {S_cumulative, S_terminations, S_truncations, S_infos};
    if (agent == NULL || !PyUnicode_CheckExact(agent)) /* (an agent of another type: its hash may run code) */
        return NULL;
    Py_INCREF(agent);
    int i = 0;
    for (; i < 4; i++) {
        PyObject *m = Py_XNewRef(got(d, keys[i])); /* (held: a key's __eq__ may drop the attribute) */
        parts[i] = m != NULL && PyDict_CheckExact(m) ? Py_XNewRef(got(m, agent)) : NULL;
        Py_XDECREF(m);
        if (parts[i] == NULL)
            break;
    }
    if (i == 4 && (obs = env_observe(f, d, agent)) != NULL)
        out = PyTuple_Pack(5, obs, parts[0], parts[1], parts[2], parts[3]);
    Py_XDECREF(obs);
    for (i = 0; i < 4; i++)
        Py_XDECREF(parts[i]);
    Py_DECREF(agent);
    return out;
}

/* env_last of the memo's row ``k`` (the selected agent's). */
static PyObject *memo_last(EnvCall *f, int k)
{
    PyObject *const *of = f->memo->of[k], *parts[4] = {of[M_CUM], of[M_TERM], of[M_TRUNC], of[M_INFOS]}, *obs, *out = NULL;
    for (int i = 0; i < 4; i++)
        if (parts[i] == NULL)
            return NULL; /* (the Python method raises the KeyError) */
    for (int i = 0; i < 4; i++)
        Py_INCREF(parts[i]); /* (held: observing may run code, which may change the dicts) */
    if ((obs = memo_observe(f, k)) == NULL || (out = PyTuple_New(5)) == NULL) {
        Py_XDECREF(obs);
        for (int i = 0; i < 4; i++)
            Py_DECREF(parts[i]);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 0, obs); /* (the references taken above, given to the tuple) */
    for (int i = 0; i < 4; i++)
        PyTuple_SET_ITEM(out, i + 1, parts[i]);
    return out;
}

/* Whether ``m`` (an exact dict) holds an exact bool at ``key``: 1 true, 0 false, -1 neither. */
static int bool_at(PyObject *m, PyObject *key)
{
    PyObject *v = got(m, key);
    return v == Py_True ? 1 : v == Py_False ? 0 : -1;
}

/* Whether ``d[key][agent]`` is true: 1, 0, or -1 (not an exact bool in an exact dict: the Python
 * method asks, so that a mapping's __getitem__ or a flag's __bool__ runs once, as it runs there). */
static int env_flag(PyObject *d, PyObject *key, PyObject *agent)
{
    PyObject *m = got(d, key);
    if (m == NULL || !PyDict_CheckExact(m))
        return -1;
    Py_INCREF(m); /* (held: a key's __eq__ may drop the attribute) */
    int r = bool_at(m, agent);
    Py_DECREF(m);
    return r;
}

/* A dead agent's step(None): PettingZoo's AECEnv._was_dead_step (1.24 to 1.27) where nothing in
 * it can raise or run code of its own -- the environment's dicts exact dicts holding the agent,
 * ``agents`` an exact list holding it once, every other agent's flags exact bools there,
 * ``_skip_agent_selection`` no class attribute -- else NULL with no error (the Python method). */
static PyObject *dead_step_held(PyObject *env, PyObject *d, PyObject *agent, PyObject **m, PyObject *agents,
                               EnvMemo *memo);

static PyObject *env_dead_step(PyObject *env, PyObject *d, PyObject *agent)
{
    PyObject *keys[6] = {S_terminations, S_truncations, S_rewards, S_cumulative, S_infos, S_agents}, *m[6], *r = NULL;
    int i = 0;
    for (; i < 6; i++) /* (each held as read: a lookup may run a key's __eq__, which may drop one read before) */
        if ((m[i] = Py_XNewRef(got(d, keys[i]))) == NULL)
            break;
    if (i == 6 && PyUnicode_CheckExact(agent) && PyList_CheckExact(m[5]))
        r = dead_step_held(env, d, agent, m, m[5], NULL);
    while (i-- > 0)
        Py_DECREF(m[i]);
    return r;
}

/* env_dead_step from the memo, which records the instance dict ``d`` as it is (memo_row): the dicts
 * read from it, the memo following the step's writes (dead_step_held). */
static PyObject *memo_dead_step(EnvCall *f, PyObject *env, PyObject *d)
{
    EnvMemo *m = f->memo;
    PyObject *rewards = got(d, S_rewards), *r = NULL; /* (every key of d an exact str: no code run) */
    if (rewards == NULL || !PyList_CheckExact(m->value[M_AGENTS]))
        return NULL;
    PyObject *ms[6] = {m->dict[M_TERM], m->dict[M_TRUNC], rewards, m->dict[M_CUM], m->dict[M_INFOS], m->value[M_AGENTS]};
    PyObject *agent = Py_NewRef(m->value[M_AGENT]);
    for (int i = 0; i < 6; i++)
        Py_INCREF(ms[i]);
    r = dead_step_held(env, d, agent, ms, ms[5], m);
    for (int i = 0; i < 6; i++)
        Py_DECREF(ms[i]);
    Py_DECREF(agent);
    return r;
}

/* env_dead_step with the environment's five dicts ``m`` and ``agents`` held. */
static PyObject *dead_step_held(PyObject *env, PyObject *d, PyObject *agent, PyObject **m, PyObject *agents,
                               EnvMemo *memo)
{
    if (memo != NULL && !memo_dead_before(memo, d, agent, m))
        memo = NULL; /* (the memo does not record these dicts as they are: nothing to follow) */
    for (int i = 0; i < 5; i++) /* (every key an exact string before any lookup: a key's __eq__ runs none) */
        if (!PyDict_CheckExact(m[i]) || !str_keys(m[i]))
            return NULL;
    for (int i = 0; i < 5; i++)
        if (got(m[i], agent) == NULL)
            return NULL;
    int own = bool_at(m[0], agent);
    if (own == 0)
        own = bool_at(m[1], agent);
    PyObject *next = NULL;
    if (own != 1 || _PyType_Lookup(Py_TYPE(env), S_skip) != NULL)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(agents), at = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyList_GET_ITEM(agents, i);
        if (!PyUnicode_CheckExact(a))
            return NULL; /* an agent compared by code of its own */
        if (a == agent) {
            if (at >= 0)
                return NULL; /* twice */
            at = i;
            continue;
        }
        if (PyUnicode_Compare(a, agent) == 0)
            return NULL; /* an equal agent that is another object */
        int dead = bool_at(m[0], a);
        if (dead == 0)
            dead = bool_at(m[1], a);
        if (dead < 0)
            return NULL;
        if (dead && next == NULL)
            next = a; /* the first dead agent left (_deads_order[0]) */
    }
    if (at < 0)
        return NULL;
    /* held: a value's destructor run by a deletion below may change the environment's attributes
     * (the values themselves held to the end: no destructor runs before every write is done, so that
     * none is written into a dict the destructor replaced) */
    Py_INCREF(agent);
    Py_XINCREF(next);
    PyObject *values[5];
    for (int i = 0; i < 5; i++)
        values[i] = Py_NewRef(got(m[i], agent));
    int err = 0;
    for (int i = 0; i < 5 && !err; i++)
        err = PyDict_DelItem(m[i], agent);
    if (!err) /* agents.remove(agent) (unless a destructor moved it: then an error) */
        err = PyList_GET_SIZE(agents) > at && PyList_GET_ITEM(agents, at) == agent ? PySequence_DelItem(agents, at) : -1;
    PyObject *skip = err ? NULL : Py_XNewRef(got(d, S_skip)), *selected = err ? NULL : Py_XNewRef(got(d, S_agent_selection));
    if (err || selected == NULL) {
        err = -1;
    } else if (next != NULL) {
        if ((skip == NULL || skip == Py_None) && PyDict_SetItem(d, S_skip, selected) < 0)
            err = -1;
        if (!err)
            err = PyDict_SetItem(d, S_agent_selection, next);
    } else {
        if (skip != NULL && skip != Py_None)
            err = PyDict_SetItem(d, S_agent_selection, skip);
        if (!err)
            err = PyDict_SetItem(d, S_skip, Py_None);
    }
    Py_XDECREF(skip);
    Py_XDECREF(selected);
    if (memo != NULL && !err) /* (no code has run since the memo was checked: every value written or dropped held) */
        memo_dead_after(memo, d, agent);
    PyObject *rewards = err ? NULL : Py_XNewRef(got(d, S_rewards)), *zero = PyLong_FromLong(0);
    if (rewards != NULL && PyDict_CheckExact(rewards) && zero != NULL) { /* _clear_rewards */
        PyObject *those = PyDict_Keys(rewards);
        for (Py_ssize_t i = 0; those != NULL && !err && i < PyList_GET_SIZE(those); i++)
            err = PyDict_SetItem(rewards, PyList_GET_ITEM(those, i), zero);
        if (those == NULL)
            err = -1;
        Py_XDECREF(those);
    } else
        err = -1;
    Py_XDECREF(zero);
    Py_XDECREF(rewards);
    Py_XDECREF(next);
    for (int i = 0; i < 5; i++)
        Py_DECREF(values[i]);
    Py_DECREF(agent);
    if (err && !PyErr_Occurred())
        PyErr_SetString(PyExc_RuntimeError, "the environment changed under a dead agent's step");
    return err ? NULL : Py_NewRef(Py_None);
}

static PyObject *step_held(EnvCall *f, PyObject *env, PyObject *d, PyObject *agent, PyObject *seats, PyObject *cum,
                           PyObject *game, PyObject *gd, Core *core, PyObject *action);

/* env_step from the memo, where the selected agent is live and the last step paid nothing; NULL
 * with no error where the memo cannot say or the Python method must do it. */
static PyObject *memo_step(EnvCall *f, PyObject *env, PyObject *d, PyObject *action)
{
    EnvMemo *m = f->memo;
    /* (each held before memo_core, whose game dict, if made, may run a collection's finalizers) */
    PyObject *agent = Py_NewRef(m->value[M_AGENT]), *seats = Py_NewRef(m->value[M_POSSIBLE]);
    PyObject *cum = Py_NewRef(m->dict[M_CUM]), *game = Py_NewRef(m->value[M_GAME]), *gd, *const *parts;
    Core *core = memo_core(m, game, &gd, G_FAST, &parts);
    return step_held(f, env, d, agent, seats, cum, game, gd, core, action);
}

/* step(action) of a live agent with a legal exact int while the core steps the deal directly and
 * the last step paid nothing: the core applies it; as KierkiEnv.step (its ``_after_step`` at the
 * deal's end). NULL with no error set where the Python method must do it. */
static PyObject *env_step(EnvCall *f, PyObject *env, PyObject *d, PyObject *action)
{
    int row = memo_row(f->memo, d);
    if (row >= 0 && f->memo->of[row][M_TERM] == Py_False && f->memo->of[row][M_TRUNC] == Py_False &&
        PyLong_CheckExact(action) && f->memo->value[M_PAID] == Py_False)
        return memo_step(f, env, d, action);
    if (row >= 0 && action == Py_None &&
        (f->memo->of[row][M_TERM] == Py_True || (f->memo->of[row][M_TERM] == Py_False && f->memo->of[row][M_TRUNC] == Py_True))) {
        PyObject *r = memo_dead_step(f, env, d); /* (a dead agent's step: the memo's dicts, the memo following) */
        if (r != NULL || PyErr_Occurred())
            return r; /* (else nothing done: read again below) */
    }
    PyObject *agent = got(d, S_agent_selection), *gd = NULL, *game, *r;
    if (agent == NULL || !PyUnicode_CheckExact(agent)) /* (an agent of another type: its hash may run code) */
        return NULL;
    Py_INCREF(agent); /* (held: a mapping's __getitem__ may set another agent_selection) */
    int dead = env_flag(d, S_terminations, agent);
    if (dead == 0)
        dead = env_flag(d, S_truncations, agent);
    if (dead || !PyLong_CheckExact(action) || got(d, S_paid) != Py_False) {
        r = dead > 0 && action == Py_None ? env_dead_step(env, d, agent) : NULL;
        Py_DECREF(agent);
        return r;
    }
    /* (each held as read: a lookup may run a key's __eq__, the legal cards a rule's callback) */
    PyObject *seats = Py_XNewRef(got(d, S_possible_agents)), *cum = Py_XNewRef(got(d, S_cumulative));
    game = Py_XNewRef(got(d, S_game));
    Core *core = seats == NULL || cum == NULL ? NULL : fast_core(game, &gd, S_fast);
    return step_held(f, env, d, agent, seats, cum, game, gd, core, action);
}

/* Whether ``env``'s instance dict is still ``d`` at tag ``tag`` (what ran since changed nothing of
 * it: a collection's finalizers, a rule's callback, a released value's destructor may have). */
static int env_unchanged(PyObject *env, PyObject *d, uint64_t tag)
{
    PyObject *now = PyObject_GenericGetDict(env, NULL);
    if (now == NULL) {
        PyErr_Clear();
        return 0;
    }
    Py_DECREF(now); /* (d holds it, if it is d) */
    return now == d && dict_version(d) == tag;
}

static int env_methods_kept(EnvCall *f, PyObject *env, PyObject *d);

/* The rest of the step, ``_after_step`` (at a deal's end, once GameState._after_action booked it),
 * with the game's totals before the action (the core does not change them): where the core ended
 * a one-deal game, both in C where they can be (_gameend.h), else in Python. */
static PyObject *step_rest(EnvCall *f, PyObject *env, PyObject *d, PyObject *agent, PyObject *game, PyObject *gd,
                           Core *core, int end)
{
    PyObject *before = got(gd, S_totals), *done, *r = NULL, *held = NULL;
    if (before == NULL)
        return PyErr_Format(PyExc_AttributeError, "the game has no totals");
    Py_INCREF(before);
    int c = !end ? 0 : (held = PyList_New(0)) == NULL ? -1 : game_end(game, gd, core, held);
    if (c > 0) { /* (no code has run since: the environment's dict and methods as checked, else in Python) */
        PyObject *now = PyObject_GenericGetDict(env, NULL);
        PyErr_Clear();
        Py_XDECREF(now); /* (d holds it, if it is d) */
        c = now == d && env_methods_kept(f, env, d) ? env_end(d, agent, gd, before, held) : 0;
        if (c > 0)
            r = Py_NewRef(Py_None);
        else if (c == 0)
            r = PyObject_CallMethodObjArgs(env, S_after_step, agent, game, before, NULL);
    } else if (c == 0) {
        done = end ? PyObject_CallMethodNoArgs(game, S_after_action) : Py_NewRef(Py_None);
        if (done != NULL) {
            Py_DECREF(done);
            r = PyObject_CallMethodObjArgs(env, S_after_step, agent, game, before, NULL);
        }
    }
    Py_XDECREF(held); /* (the values the C end replaced, released once every write is done) */
    Py_DECREF(before);
    return r;
}

/* env_step once its objects are read (each a reference it takes; ``core`` borrowed from ``gd``, a
 * new reference; no core: nothing stepped, NULL with no error, ``gd`` not read). Where code run
 * while the core applies the action changed the instance dict or the cumulative rewards, or code
 * run by the reward's release the instance dict, the rest of the step is ``_after_step``'s. */
static PyObject *step_held(EnvCall *f, PyObject *env, PyObject *d, PyObject *agent, PyObject *seats, PyObject *cum,
                           PyObject *game, PyObject *gd, Core *core, PyObject *action)
{
    PyObject *r = NULL, *done;
    if (core == NULL) {
        Py_XDECREF(game);
        Py_XDECREF(cum);
        Py_XDECREF(seats);
        Py_DECREF(agent);
        return NULL;
    }
    Py_INCREF(core);
    uint64_t tag = dict_version(d), cum_tag = PyDict_CheckExact(cum) ? dict_version(cum) : 0;
    int overflow;
    long a = PyLong_AsLongAndOverflow(action, &overflow);
    uint64_t m = 0;
    core->busy = 1;
    int err = legal_mask(core, &m);
    core->busy = 0;
    if (err < 0 || overflow || a < 0 || a >= 64 || !(m >> a & 1)) {
        PyErr_Clear(); /* the Python method says why (IllegalAction's words) */
        goto out;
    }
    core->busy = 1; /* (checked legal above: Core.apply_action's work but its check) */
    err = apply_legal(core, (int)a);
    core->busy = 0;
    if (err < 0)
        goto out;
    if (core->phase == PH_DONE || !env_unchanged(env, d, tag) ||
        (PyDict_CheckExact(cum) && dict_version(cum) != cum_tag)) { /* (the deal's end: booked first) */
        r = step_rest(f, env, d, agent, game, gd, core, core->phase == PH_DONE);
        goto out;
    }
    if (memo_set(f->memo, M_CUM, cum, agent, S_zero) < 0)
        goto out;
    if (!env_unchanged(env, d, tag)) { /* (zeroed again there: the same value) */
        r = step_rest(f, env, d, agent, game, gd, core, 0);
        goto out;
    }
    if ((done = PySequence_GetItem(seats, core->to_move)) == NULL)
        goto out;
    if (memo_set(f->memo, -1, d, S_agent_selection, done) == 0)
        r = Py_NewRef(Py_None);
    Py_DECREF(done);
out:
    Py_DECREF(core);
    Py_DECREF(cum);
    Py_DECREF(seats);
    Py_DECREF(game);
    Py_DECREF(agent);
    Py_DECREF(gd);
    return r;
}

/* Whether getattr (and, ``write``, setattr) of an instance of ``t`` reads (writes) its instance dict
 * at every attribute the calls read or write: no __getattribute__, __getattr__ or __setattr__ of
 * the class's own, none of the names a class attribute (a property's, say). */
static int env_attrs_plain(PyTypeObject *t, int write)
{
    if (t->tp_getattro != PyObject_GenericGetAttr || (write && t->tp_setattro != PyObject_GenericSetAttr))
        return 0;
    for (int i = 0; MK_attrs[i] != NULL; i++)
        if (_PyType_Lookup(t, MK_attrs[i]) != NULL)
            return 0;
    return 1;
}

/* Whether the methods the call does in C are still the environment's: its class's as when the call
 * was made, none set on the instance (then the Python methods answer, which call them), and its
 * attributes its instance dict's (env_attrs_plain). */
static int env_methods_kept(EnvCall *f, PyObject *env, PyObject *d)
{
    PyTypeObject *t = Py_TYPE(env);
    EnvMemo *m = f->memo;
    /* (the class: checked again only where it or its version tag changed, which changes with any
     * attribute of it or of its bases) */
    int tagged = PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG);
    if (!tagged || t != f->kept || t->tp_version_tag != f->tag) {
        for (int i = 0; i < METHODS; i++)
            if (f->names[i] != NULL && _PyType_Lookup(t, f->names[i]) != f->methods[i])
                return 0;
        if (!env_attrs_plain(t, 1))
            return 0;
        tagged = PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG); /* (a lookup may tag the class) */
        f->kept = tagged ? t : NULL;
        f->tag = tagged ? t->tp_version_tag : 0;
    }
    /* (the instance: the memo records its dict where none of the names is set on it) */
    if (PyDict_CheckExact(d) && m->dv != 0 && dict_version(d) == m->dv)
        return 1;
    for (int i = 1; i < METHODS; i++)
        if (f->names[i] != NULL && got(d, f->names[i]) != NULL)
            return 0;
    return 1;
}

static PyObject *EnvCall_vectorcall(EnvCall *f, PyObject *const *args, size_t nargsf, PyObject *kw)
{
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    PyObject *env = PyWeakref_GetObject(f->env), *r = NULL;
    if (env == NULL)
        return NULL;
    if (env == Py_None) {
        PyErr_SetString(PyExc_ReferenceError, "the environment of this call is gone");
        return NULL;
    }
    Py_INCREF(env);
    int plain = kw == NULL || PyTuple_GET_SIZE(kw) == 0;
    PyObject *d = plain ? PyObject_GenericGetDict(env, NULL) : NULL;
    if (d == NULL)
        PyErr_Clear();
    else if (!env_methods_kept(f, env, d))
        ;
    else if (f->kind == ENV_STEP && n == 1)
        r = env_step(f, env, d, args[0]);
    else if (f->kind == ENV_LAST && (n == 0 || (n == 1 && args[0] == Py_True)))
        r = env_last(f, env, d);
    Py_XDECREF(d);
    if (r == NULL && !PyErr_Occurred())
        r = env_class_call(f, env, args, nargsf, kw);
    Py_DECREF(env);
    return r;
}

/* -- what a user sees of the call: the bound method it stands for (the environment's class's method
 * ``slow`` bound to the environment), its attributes, repr, equality, hash, copies and pickles -- */

/* The environment (a new reference), or NULL with ReferenceError where it is gone. */
static PyObject *call_env(EnvCall *f)
{
    PyObject *env = PyWeakref_GetObject(f->env);
    if (env == NULL)
        return NULL;
    if (env == Py_None) {
        PyErr_SetString(PyExc_ReferenceError, "the environment of this call is gone");
        return NULL;
    }
    return Py_NewRef(env);
}

/* The bound method the call stands for (a new one: ``__wrapped__``, inspect's way to it). */
static PyObject *call_bound(EnvCall *f, void *unused)
{
    PyObject *env = call_env(f), *m = env == NULL ? NULL : PyMethod_New(f->slow, env);
    Py_XDECREF(env);
    return m;
}

static PyObject *call_self(EnvCall *f, void *unused) { return call_env(f); }
static PyObject *call_func(EnvCall *f, void *unused) { return Py_NewRef(f->slow); }

/* The function's attribute named ``closure`` (a C string): __name__, __qualname__, __doc__, __module__. */
static PyObject *call_attr(EnvCall *f, void *closure) { return PyObject_GetAttrString(f->slow, (const char *)closure); }

static PyObject *EnvCall_repr(EnvCall *f)
{
    PyObject *m = call_bound(f, NULL);
    if (m == NULL) {
        PyErr_Clear();
        return PyUnicode_FromFormat("<call %U of a gone environment>", f->names[0]);
    }
    PyObject *r = PyObject_Repr(m);
    Py_DECREF(m);
    return r;
}

/* Its environment (borrowed; None where gone) and function, if ``o`` is a call or a bound method. */
static int call_parts(PyObject *o, PyObject **self, PyObject **func);

static PyObject *EnvCall_richcompare(PyObject *a, PyObject *b, int op)
{
    PyObject *sa, *fa, *sb, *fb;
    if ((op != Py_EQ && op != Py_NE) || !call_parts(a, &sa, &fa) || !call_parts(b, &sb, &fb))
        Py_RETURN_NOTIMPLEMENTED;
    int eq = a == b || (sa == sb && sa != Py_None && fa == fb); /* (as bound methods: the same self, function) */
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t EnvCall_hash(EnvCall *f) { return f->hash; }

/* copied, deep-copied and pickled as the bound method it stands for, which holds the environment:
 * (function.__get__, (environment,)) -- deepcopy copies the environment, pickle saves it */
static PyObject *EnvCall_reduce(EnvCall *f, PyObject *unused)
{
    PyObject *env = call_env(f), *get = env == NULL ? NULL : PyObject_GetAttrString(f->slow, "__get__");
    PyObject *r = get == NULL ? NULL : Py_BuildValue("O(O)", get, env);
    Py_XDECREF(get);
    Py_XDECREF(env);
    return r;
}

static PyGetSetDef EnvCall_getset[] = {
    {"__self__", (getter)call_self, NULL, "The environment.", NULL},
    {"__func__", (getter)call_func, NULL, "The method's function (answering where C does not).", NULL},
    {"__wrapped__", (getter)call_bound, NULL, "The bound method this call answers as.", NULL},
    {"__name__", (getter)call_attr, NULL, NULL, "__name__"},
    {"__qualname__", (getter)call_attr, NULL, NULL, "__qualname__"},
    {"__doc__", (getter)call_attr, NULL, NULL, "__doc__"},
    {"__module__", (getter)call_attr, NULL, NULL, "__module__"},
    {NULL},
};

static PyMethodDef EnvCall_methods[] = {
    {"__reduce__", (PyCFunction)EnvCall_reduce, METH_NOARGS, "Copied and pickled as the bound method: function.__get__(env)."},
    {NULL},
};

static PyTypeObject EnvCallType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kierki_dsl.interpreter._cstep.EnvCall",
    .tp_basicsize = sizeof(EnvCall),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)EnvCall_traverse,
    .tp_clear = (inquiry)EnvCall_clear,
    .tp_vectorcall_offset = offsetof(EnvCall, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_dealloc = (destructor)EnvCall_dealloc,
    .tp_repr = (reprfunc)EnvCall_repr,
    .tp_richcompare = EnvCall_richcompare,
    .tp_hash = (hashfunc)EnvCall_hash,
    .tp_getset = EnvCall_getset,
    .tp_methods = EnvCall_methods,
};

static int call_parts(PyObject *o, PyObject **self, PyObject **func)
{
    if (Py_IS_TYPE(o, &EnvCallType)) {
        *self = PyWeakref_GetObject(((EnvCall *)o)->env);
        *func = ((EnvCall *)o)->slow;
        return *self != NULL;
    }
    if (PyMethod_Check(o)) {
        *self = PyMethod_GET_SELF(o);
        *func = PyMethod_GET_FUNCTION(o);
        return 1;
    }
    return 0;
}

static PyObject *env_call(PyObject *const *args, int kind)
{
    EnvCall *f = PyObject_GC_New(EnvCall, &EnvCallType);
    if (f == NULL)
        return NULL;
    f->env = Py_NewRef(args[0]);
    f->slow = Py_NewRef(args[1 + kind]);
    f->observed = Py_NewRef(args[3]);
    f->new_obs = Py_NewRef(args[4]);
    f->new_mask = Py_NewRef(args[5]);
    f->core = f->ctx = f->stage = NULL;
    for (int i = 0; i < POOL; i++) {
        f->pool[i] = NULL;
        f->keys[i] = NULL;
    }
    f->next = 0;
    for (int k = 0; k < 2; k++) {
        f->len[k] = -1;
        f->dtype[k] = NULL;
        f->type[k] = NULL;
        f->abi[k] = 0;
    }
    f->kind = kind;
    f->kept = NULL;
    f->tag = 0;
    f->memo = NULL;
    PyObject *names[2][METHODS] = {{S_last, S_observe, NULL, NULL, NULL, NULL},
                                   {S_step_name, S_was_dead_step, S_clear_rewards, S_after_step, S_agent_of, S_accumulate}};
    PyObject *env = PyWeakref_GetObject(args[0]);
    for (int i = 0; i < METHODS; i++) {
        f->names[i] = names[kind][i];
        f->methods[i] = env == NULL || env == Py_None || f->names[i] == NULL ? NULL
                                                                             : Py_XNewRef(_PyType_Lookup(Py_TYPE(env), f->names[i]));
    }
    f->vectorcall = (vectorcallfunc)EnvCall_vectorcall;
    f->hash = -1;
    PyObject_GC_Track(f);
    if (env == NULL) {
        Py_DECREF(f);
        return NULL;
    }
    /* (a bound method's hash, PyMethod's: the environment's address and the function's hash) */
    Py_hash_t h = env == Py_None ? 0 : PyObject_Hash(f->slow);
    if (h == -1) {
        Py_DECREF(f);
        return NULL;
    }
#if PY_VERSION_HEX >= 0x030D0000
    f->hash = Py_HashPointer(env) ^ h;
#else
    f->hash = _Py_HashPointer(env) ^ h;
#endif
    if (f->hash == -1)
        f->hash = -2;
    return (PyObject *)f;
}

/* env_calls(env_ref, last, step, observed, new_obs, new_mask): (last, step) of the environment
 * ``env_ref()`` (a weak reference), falling back on the Python methods ``last`` and ``step``;
 * ``observed(game, core)``: observe's arguments of the game but the totals; ``new_obs()``,
 * ``new_mask()``: a new zeroed float32 tensor, int8 mask. */
static PyObject *env_calls(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6 || !PyWeakref_CheckRef(args[0])) {
        PyErr_SetString(PyExc_TypeError, "env_calls(env_ref, last, step, observed, new_obs, new_mask)");
        return NULL;
    }
    for (int i = 1; i < 6; i++)
        if (!PyCallable_Check(args[i])) {
            PyErr_SetString(PyExc_TypeError, "env_calls: callables are expected after the weak reference");
            return NULL;
        }
    PyObject *last = env_call(args, ENV_LAST), *step = last == NULL ? NULL : env_call(args, ENV_STEP), *out = NULL;
    EnvMemo *memo = step == NULL ? NULL : memo_new();
    if (memo != NULL) { /* (one memo: what step writes, last reads) */
        ((EnvCall *)last)->memo = memo;
        ((EnvCall *)step)->memo = memo;
        memo->refs = 2;
        out = PyTuple_Pack(2, last, step);
    }
    Py_XDECREF(last);
    Py_XDECREF(step);
    return out;
}

/* agent_iter(env, max_iter): PettingZoo's AECIterable: iterating it gives an iterator yielding
 * ``env.agent_selection`` until ``env.agents`` is empty or after ``max_iter`` agents. */
typedef struct {
    PyObject_HEAD
    PyObject *env;
    long long left;
    int iterator; /* 0: the iterable (AECIterable), 1: an iterator of it (AECIterator) */
    int plain;    /* the environment's attributes are its instance dict's (env_attrs_plain) ... */
    PyTypeObject *kept; /* ... while its class is this one (NULL: none) */
    unsigned int tag;   /* at this version tag */
    EnvMemo *memo; /* the environment's calls' (NULL: none): agents and agent_selection read from it where it can say */
    PyObject *max_iter; /* as given (an int) */
    long long taken;    /* agents yielded */
} AgentIter;

static PyTypeObject AgentIterType, AgentIterableType;

static void AgentIter_dealloc(AgentIter *it)
{
    Py_XDECREF(it->env);
    Py_XDECREF(it->max_iter);
    memo_release(it->memo);
    Py_TYPE(it)->tp_free((PyObject *)it);
}

static PyObject *agent_iter_new(PyObject *env, PyObject *max_iter, long long left, int iterator, int plain, EnvMemo *memo)
{
    if (memo != NULL) /* (held before the allocation, whose collection may run code dropping its calls) */
        memo->refs++;
    AgentIter *it = PyObject_New(AgentIter, iterator ? &AgentIterType : &AgentIterableType);
    if (it == NULL) {
        memo_release(memo);
        return NULL;
    }
    it->env = Py_NewRef(env);
    it->max_iter = Py_NewRef(max_iter);
    it->taken = 0;
    it->left = left;
    it->iterator = iterator;
    it->plain = plain;
    it->kept = NULL;
    it->tag = 0;
    it->memo = memo;
    return (PyObject *)it;
}

static PyObject *AgentIter_iter(AgentIter *it)
{
    return it->iterator ? Py_NewRef((PyObject *)it) : agent_iter_new(it->env, it->max_iter, it->left, 1, it->plain, it->memo);
}

/* next() where the memo records the instance dict ``d`` as it is: its agents and agent_selection. */
static PyObject *memo_next(AgentIter *it, PyObject *d)
{
    EnvMemo *m = it->memo;
    if (m == NULL || !PyDict_CheckExact(d) || m->dv == 0 || dict_version(d) != m->dv)
        return NULL;
    PyObject *agents = m->value[M_AGENTS];
    if (!PyList_CheckExact(agents))
        return NULL;
    if (PyList_GET_SIZE(agents) > 0 && it->left > 0) {
        it->left--;
        it->taken++;
        return Py_NewRef(m->value[M_AGENT]);
    }
    return Py_NewRef(Py_None); /* StopIteration */
}

/* Whether getattr of the environment reads its instance dict (env_attrs_plain), asked again where
 * its class or the class's version tag changed. */
static int iter_plain(AgentIter *it)
{
    PyTypeObject *t = Py_TYPE(it->env);
    if (t == it->kept && t->tp_version_tag == it->tag && PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG))
        return it->plain;
    it->plain = env_attrs_plain(t, 0);
    int tagged = PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG);
    it->kept = tagged ? t : NULL;
    it->tag = tagged ? t->tp_version_tag : 0;
    return it->plain;
}

static PyObject *AgentIter_next(AgentIter *it)
{
    PyObject *d = iter_plain(it) ? PyObject_GenericGetDict(it->env, NULL) : NULL, *agents;
    if (d == NULL)
        PyErr_Clear();
    else if ((agents = memo_next(it, d)) != NULL) {
        Py_DECREF(d);
        if (agents != Py_None)
            return agents;
        Py_DECREF(agents);
        return NULL;
    }
    agents = d != NULL ? Py_XNewRef(got(d, S_agents)) : NULL;
    if (agents == NULL && (agents = PyObject_GetAttr(it->env, S_agents)) == NULL) {
        Py_XDECREF(d);
        return NULL;
    }
    int any = PyList_CheckExact(agents) ? PyList_GET_SIZE(agents) > 0 : PyObject_IsTrue(agents);
    Py_DECREF(agents);
    PyObject *r = NULL;
    if (any > 0 && it->left > 0) { /* else StopIteration (or the error of the truth test) */
        it->left--;
        it->taken++;
        r = d != NULL ? Py_XNewRef(got(d, S_agent_selection)) : NULL;
        if (r == NULL)
            r = PyObject_GetAttr(it->env, S_agent_selection);
    }
    Py_XDECREF(d);
    return r;
}

/* PettingZoo's attributes: AECIterable's env and max_iter, AECIterator's env and iters_til_term */
static PyObject *iter_env(AgentIter *it, void *unused) { return Py_NewRef(it->env); }
static PyObject *iter_max(AgentIter *it, void *unused) { return Py_NewRef(it->max_iter); }

static PyObject *iter_left(AgentIter *it, void *unused)
{
    PyObject *taken = PyLong_FromLongLong(it->taken), *r = taken == NULL ? NULL : PyNumber_Subtract(it->max_iter, taken);
    Py_XDECREF(taken);
    return r;
}

static PyGetSetDef AgentIter_getset[] = {
    {"env", (getter)iter_env, NULL, "The environment.", NULL},
    {"iters_til_term", (getter)iter_left, NULL, "How many agents it may yield yet.", NULL},
    {NULL},
};

static PyGetSetDef AgentIterable_getset[] = {
    {"env", (getter)iter_env, NULL, "The environment.", NULL},
    {"max_iter", (getter)iter_max, NULL, "How many agents an iterator of it yields at most.", NULL},
    {NULL},
};

static PyTypeObject AgentIterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kierki_dsl.interpreter._cstep.AgentIter",
    .tp_doc = "PettingZoo's AECIterator (iter(agent_iter())), in C.",
    .tp_basicsize = sizeof(AgentIter),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)AgentIter_dealloc,
    .tp_iter = (getiterfunc)AgentIter_iter,
    .tp_iternext = (iternextfunc)AgentIter_next,
    .tp_getset = AgentIter_getset,
};

/* (no __next__: as AECIterable, an iterable that is not an iterator) */
static PyTypeObject AgentIterableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kierki_dsl.interpreter._cstep.AgentIterable",
    .tp_doc = "PettingZoo's AECIterable (agent_iter()), in C: iterating it gives an AgentIter.",
    .tp_basicsize = sizeof(AgentIter),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)AgentIter_dealloc,
    .tp_iter = (getiterfunc)AgentIter_iter,
    .tp_getset = AgentIterable_getset,
};

static PyObject *agent_iter(PyObject *mod, PyObject *args)
{
    PyObject *env, *max_iter;
    if (!PyArg_ParseTuple(args, "OO!", &env, &PyLong_Type, &max_iter))
        return NULL;
    int overflow;
    long long left = PyLong_AsLongLongAndOverflow(max_iter, &overflow);
    if (left == -1 && PyErr_Occurred())
        return NULL;
    if (overflow) /* past 2**63 - 1 agents (PettingZoo's default is 2**63): as many as never end */
        left = overflow > 0 ? LLONG_MAX : LLONG_MIN;
    /* where the environment's class has no attribute of the names, getattr reads its instance dict */
    int plain = env_attrs_plain(Py_TYPE(env), 0);
    /* the memo of the environment's step, where it is one of env_calls' (read once: the memo says
     * only what the environment's instance dict holds now, whoever made it) */
    PyObject *d = plain ? PyObject_GenericGetDict(env, NULL) : NULL, *step = d != NULL ? got(d, S_step_name) : NULL;
    if (d == NULL)
        PyErr_Clear();
    EnvMemo *memo = step != NULL && Py_IS_TYPE(step, &EnvCallType) ? ((EnvCall *)step)->memo : NULL;
    PyObject *out = agent_iter_new(env, max_iter, left, 0, plain, memo);
    Py_XDECREF(d);
    return out;
}

static int env_register(PyObject *m)
{
    static const char *const names[] = {"agent_selection", "_seats", "game", "_fast", "_step", "stage", "_cumulative_rewards",
                                        "terminations", "truncations", "infos", "_paid", "possible_agents", "totals",
                                        "agents", "_after_action", "_after_step", "observation", "action_mask", "dtype",
                                        "rewards", "_skip_agent_selection", "last", "step", "observe", "_was_dead_step",
                                        "_clear_rewards", "_agent", "_accumulate_rewards"};
    PyObject **slots[] = {&S_agent_selection, &S_seats, &S_game, &S_fast, &S_step, &S_stage, &S_cumulative, &S_terminations,
                          &S_truncations, &S_infos, &S_paid, &S_possible_agents, &S_totals, &S_agents,
                          &S_after_action, &S_after_step, &S_observation, &S_action_mask, &S_dtype,
                          &S_rewards, &S_skip, &S_last, &S_step_name, &S_observe, &S_was_dead_step, &S_clear_rewards,
                          &S_agent_of, &S_accumulate};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if ((*slots[i] = PyUnicode_InternFromString(names[i])) == NULL)
            return -1;
    PyObject *values[M_VALUES] = {S_agent_selection, S_paid, S_game, S_possible_agents, S_agents};
    PyObject *dicts[M_DICTS] = {S_terminations, S_truncations, S_cumulative, S_infos, S_seats};
    /* (the methods done in C, none set on the instance: observe, the dead step's, the rest of a step's) */
    PyObject *absent[METHODS + 1] = {S_observe, S_was_dead_step, S_clear_rewards, S_after_step, S_agent_of, S_accumulate, NULL};
    PyObject *game[G_PARTS] = {S_fast, S_step, S_totals, S_stage};
    memcpy(MK_values, values, sizeof values);
    memcpy(MK_dicts, dicts, sizeof dicts);
    memcpy(MK_absent, absent, sizeof absent);
    PyObject *attrs[] = {S_agent_selection, S_paid, S_game, S_possible_agents, S_agents, S_terminations, S_truncations,
                         S_cumulative, S_infos, S_seats, S_rewards, S_skip, NULL};
    memcpy(MK_attrs, attrs, sizeof attrs);
    memcpy(MK_game, game, sizeof game);
    if (game_end_register() < 0 || (S_zero = PyFloat_FromDouble(0.0)) == NULL || PyType_Ready(&EnvCallType) < 0 || PyType_Ready(&AgentIterType) < 0 ||
        PyType_Ready(&AgentIterableType) < 0)
        return -1;
    return 0;
}
/* ------------------------------------ end of the PettingZoo environment's calls -- */

static PyMethodDef module_methods[] = {
    {"deal_out", (PyCFunction)deal_out, METH_VARARGS,
     "players/sampling.deal_out's kernel, each card's places given: the hand masks or None."},
    {"seen_hands", (PyCFunction)seen_hands, METH_O, "Each seat's hand as its view shows it (None in a trump call)."},
    {"observe", (PyCFunction)(void (*)(void))observe, METH_FASTCALL,
     "Write a seat's observation tensor of the core into a float32 buffer."},
    {"mark_legal", (PyCFunction)mark_legal, METH_VARARGS, "Set an int8 action mask to 1 at the core's legal actions."},
    {"game_end_parts", (PyCFunction)game_end_parts, METH_VARARGS,
     "game_end_parts(GameState, GameSpec, over, fast_names): what the C end of a one-deal game stands for."},
    {"fast_calls", (PyCFunction)fast_calls, METH_VARARGS,
     "GameState's legal_actions, apply_action, current_player and is_terminal while the core steps the deal."},
    {"env_calls", (PyCFunction)(void (*)(void))env_calls, METH_FASTCALL,
     "A PettingZoo environment's last and step while the core steps its deal."},
    {"agent_iter", (PyCFunction)agent_iter, METH_VARARGS, "PettingZoo's AECIterable of an environment, in C."},
    {NULL},
};

/* --------------------------------------------------------------- module -- */

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cstep", "The compiled step core of trick deals (see stepper.py).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__cstep(void)
{
    if (PyType_Ready(&PlanType) < 0 || PyType_Ready(&ProgramsType) < 0 || PyType_Ready(&CoreType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddObjectRef(m, "Plan", (PyObject *)&PlanType) < 0 ||
        PyModule_AddObjectRef(m, "Programs", (PyObject *)&ProgramsType) < 0 ||
        PyModule_AddObjectRef(m, "Core", (PyObject *)&CoreType) < 0 ||
        PyModule_AddIntConstant(m, "SCORE_LIMIT", SCORE_LIMIT) < 0 || vecenv_register(m) < 0 ||
        env_register(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
