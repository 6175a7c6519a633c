/* The perfect-information solver of trick play (kierki_dsl.interpreter._solve).
 *
 * Alpha-beta over one world with every hand known: the points one seat (`me`) takes from
 * the position to the deal's end, `me` maximising and every other seat minimising them
 * (the paranoid reduction: for a deal whose points all go somewhere, a seat's own points
 * against the rest). It knows nothing of any game: it runs the tables that
 * kierki_dsl/interpreter/solver.py compiles from a trick contract, with cards as bits of
 * 64-bit masks (card id = 13 * suit + rank, as cards.py):
 *
 *   the cards beating each card, the static points of each trick and of each card in it,
 *   the play restrictions as keep masks by (phase, 2 * trick number + hearts broken)
 *   (legality.Legality.by_trick: every rule falls back, none reads more), each card's
 *   class (cards of one suit with the same points in every trick and the same keep bits)
 *   and the cards of each suit from the lowest to the highest.
 *
 * As Kupferschmid and Helmert's Skat solver: a transposition table of positions at a
 * trick's start (bounds and the best card), move ordering (the table's card, then cards
 * good for the seat on turn), and equivalent cards searched once (cards of one hand and
 * one class next to each other in their suit once the cards of finished tricks are gone).
 * kierki_dsl/interpreter/solvepy.py is the same search in Python (the reference and the
 * fallback when this extension is not built): the values are equal, held by tests.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAXP 8
#define MAXTRICKS 52
#define MAXRULES 64
#define INF ((int64_t)1 << 60)
#define TT_BITS 18

static const uint64_t SUIT[4] = {0x1FFFULL, 0x1FFFULL << 13, 0x1FFFULL << 26, 0x1FFFULL << 39};
#define HEARTS (SUIT[1])

enum { LEAD = 0, FOLLOW = 1, DISCARD = 2 };
enum { EXACT = 0, LOWER = 1, UPPER = 2 };

typedef struct {
    int n;
    uint64_t keep[MAXRULES];
} Prog;

typedef struct {
    uint64_t hands[MAXP];
    uint32_t gen;
    uint8_t seat, flag, best, used;
    int64_t value;
} Entry;

typedef struct {
    PyObject_HEAD
    int players, tricks, follow_suit;
    uint64_t beats[52];
    int64_t trick_points[MAXTRICKS + 2];
    int64_t values[(MAXTRICKS + 2) * 52];
    /* from trick n on: the most a card can give its taker and the least, the trick points */
    int64_t most[(MAXTRICKS + 2) * 52], least[(MAXTRICKS + 2) * 52];
    int64_t most_tp[MAXTRICKS + 3], least_tp[MAXTRICKS + 3];
    Prog *progs;                 /* 3 x (2 * tricks + 4) */
    int cls[52];
    int order[4][13], suit_len[4];
    Entry *tt;
    uint32_t gen;
} Tables;

typedef struct {
    const Tables *t;
    int me;
    uint64_t hands[MAXP];
    int next[MAXP];
    int trick_no, broken, led, win, len;
    int seat[MAXP], card[MAXP];
    long long nodes;
} Search;

static int lowest(uint64_t m) { return __builtin_ctzll(m); }

/* One int of a sequence as an unsigned mask (`signed_`: 0) or as points (1: kept far
 * inside int64, so sums of a deal's points cannot overflow). */
static int read_one(PyObject *o, void *out, int signed_, const char *what)
{
    if (!signed_) {
        unsigned long long v = PyLong_AsUnsignedLongLong(o);
        if (v == (unsigned long long)-1 && PyErr_Occurred())
            return -1;
        *(uint64_t *)out = v;
        return 0;
    }
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v > INF / 64 || v < -INF / 64) {
        PyErr_Format(PyExc_ValueError, "%s: points too large", what);
        return -1;
    }
    *(int64_t *)out = v;
    return 0;
}

/* A sequence of exactly n masks (signed_ 0) or points (1) into out. */
static int read_seq(PyObject *seq, void *out, Py_ssize_t n, int signed_, const char *what)
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
        if (read_one(PySequence_Fast_GET_ITEM(fast, i), (char *)out + 8 * i, signed_, what) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    Py_DECREF(fast);
    return 0;
}

static int read_masks(PyObject *seq, uint64_t *out, Py_ssize_t n, const char *what)
{
    return read_seq(seq, out, n, 0, what);
}

static int read_ints(PyObject *seq, int64_t *out, Py_ssize_t n, const char *what)
{
    return read_seq(seq, out, n, 1, what);
}

static void Tables_dealloc(Tables *self)
{
    PyMem_Free(self->progs);
    PyMem_Free(self->tt);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The programs: a sequence of 3 phases, each 2 * tricks + 4 programs of keep masks. */
static int read_progs(Tables *self, PyObject *progs)
{
    Py_ssize_t rows = 2 * self->tricks + 4;
    self->progs = PyMem_Calloc(3 * rows, sizeof(Prog));
    if (self->progs == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    PyObject *fast = PySequence_Fast(progs, "programs");
    if (fast == NULL)
        return -1;
    int err = PySequence_Fast_GET_SIZE(fast) != 3;
    for (Py_ssize_t p = 0; !err && p < 3; p++) {
        PyObject *phase = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, p), "programs of a phase");
        err = phase == NULL || PySequence_Fast_GET_SIZE(phase) != rows;
        for (Py_ssize_t r = 0; !err && r < rows; r++) {
            PyObject *keeps = PySequence_Fast_GET_ITEM(phase, r);
            Py_ssize_t k = PySequence_Size(keeps);
            Prog *prog = &self->progs[p * rows + r];
            err = k < 0 || k > MAXRULES || read_masks(keeps, prog->keep, k, "keep masks") < 0;
            prog->n = (int)k;
        }
        Py_XDECREF(phase);
    }
    Py_DECREF(fast);
    if (err && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "programs: 3 phases of 2 * tricks + 4 keep-mask lists expected");
    return err ? -1 : 0;
}

/* The bounds of the points still to take from each trick number on (``most``, ``least``). */
static void bounds(Tables *self)
{
    int rows = self->tricks + 2;
    self->most_tp[rows] = self->least_tp[rows] = 0;
    for (int c = 0; c < 52; c++)
        self->most[52 * (rows - 1) + c] = self->least[52 * (rows - 1) + c] = 0;
    for (int n = rows - 1; n >= 0; n--) {
        int64_t tp = n >= 1 && n <= self->tricks ? self->trick_points[n] : 0;
        self->most_tp[n] = self->most_tp[n + 1] + (tp > 0 ? tp : 0);
        self->least_tp[n] = self->least_tp[n + 1] + (tp < 0 ? tp : 0);
        for (int c = 0; c < 52; c++) {
            int64_t v = n >= 1 && n <= self->tricks ? self->values[52 * n + c] : 0;
            int64_t hi = n + 1 < rows ? self->most[52 * (n + 1) + c] : 0;
            int64_t lo = n + 1 < rows ? self->least[52 * (n + 1) + c] : 0;
            self->most[52 * n + c] = v > hi ? v : hi;
            self->least[52 * n + c] = v < lo ? v : lo;
        }
    }
}

/* Tables(players, tricks, follow_suit, beats[52], trick_points[tricks + 2],
 *        values[tricks + 2][52], programs[3][2 * tricks + 4], classes[52], order[4][...]) */
static int Tables_init(Tables *self, PyObject *args, PyObject *kw)
{
    PyObject *beats, *tp, *values, *progs, *cls, *order;
    if (self->tt != NULL) {
        PyErr_SetString(PyExc_TypeError, "tables are initialised once");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "iipOOOOOO", &self->players, &self->tricks, &self->follow_suit, &beats, &tp, &values,
                          &progs, &cls, &order))
        return -1;
    if (self->players < 2 || self->players > MAXP || self->tricks < 1 || self->tricks > MAXTRICKS) {
        PyErr_SetString(PyExc_ValueError, "players 2..8 and tricks 1..52 expected");
        return -1;
    }
    Py_ssize_t rows = self->tricks + 2;
    int64_t c64[52];
    if (read_masks(beats, self->beats, 52, "beats") < 0 || read_ints(tp, self->trick_points, rows, "trick points") < 0
        || read_ints(cls, c64, 52, "classes") < 0)
        return -1;
    for (int c = 0; c < 52; c++)
        self->cls[c] = (int)c64[c];
    PyObject *fast = PySequence_Fast(values, "values");
    if (fast == NULL)
        return -1;
    int err = PySequence_Fast_GET_SIZE(fast) != rows;
    for (Py_ssize_t r = 0; !err && r < rows; r++)
        err = read_ints(PySequence_Fast_GET_ITEM(fast, r), self->values + 52 * r, 52, "values row") < 0;
    Py_DECREF(fast);
    if (err) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "values: a row per trick number expected");
        return -1;
    }
    fast = PySequence_Fast(order, "order");
    if (fast == NULL)
        return -1;
    err = PySequence_Fast_GET_SIZE(fast) != 4;
    for (int s = 0; !err && s < 4; s++) {
        PyObject *suit = PySequence_Fast_GET_ITEM(fast, s);
        Py_ssize_t k = PySequence_Size(suit);
        int64_t cards[13];
        err = k < 0 || k > 13 || read_ints(suit, cards, k, "order") < 0;
        for (int i = 0; !err && i < k; i++) {
            err = cards[i] < 13 * s || cards[i] >= 13 * s + 13;
            self->order[s][i] = (int)cards[i];
        }
        self->suit_len[s] = (int)k;
    }
    Py_DECREF(fast);
    if (err) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "order: the cards of each suit expected");
        return -1;
    }
    if (read_progs(self, progs) < 0)
        return -1;
    bounds(self);
    self->tt = PyMem_Calloc((size_t)1 << TT_BITS, sizeof(Entry));
    if (self->tt == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ search -- */

static uint64_t legal_cards(const Search *s, int seat)
{
    const Tables *t = s->t;
    uint64_t hand = s->hands[seat], legal = hand;
    int phase = LEAD;
    if (s->led >= 0) {
        uint64_t suited = hand & SUIT[s->led];
        phase = suited ? FOLLOW : DISCARD;
        if (suited && t->follow_suit)
            legal = suited;
    }
    const Prog *p = &t->progs[phase * (2 * t->tricks + 4) + 2 * s->trick_no + s->broken];
    for (int i = 0; i < p->n; i++) {
        uint64_t m = legal & p->keep[i];
        if (m)
            legal = m;
    }
    return legal;
}

/* The legal cards less those equivalent to a lower one kept (same class, next to each
 * other in the suit among the cards still in a hand or in the trick). */
static uint64_t representatives(const Search *s, uint64_t legal)
{
    const Tables *t = s->t;
    uint64_t alive = 0;
    for (int p = 0; p < t->players; p++)
        alive |= s->hands[p];
    for (int i = 0; i < s->len; i++)
        alive |= 1ULL << s->card[i];
    uint64_t out = legal;
    for (int su = 0; su < 4; su++) {
        if (!(legal & SUIT[su]))
            continue;
        int prev = -1;
        for (int i = 0; i < t->suit_len[su]; i++) {
            int c = t->order[su][i];
            if (!(alive >> c & 1))
                continue;
            if (prev >= 0 && (legal >> c & 1) && (legal >> prev & 1) && t->cls[c] == t->cls[prev])
                out &= ~(1ULL << c);
            prev = c;
        }
    }
    return out;
}

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

static Entry *probe(const Search *s, int seat)
{
    uint64_t h = (uint64_t)seat * 0x9E3779B97F4A7C15ULL;
    for (int p = 0; p < s->t->players; p++)
        h = mix(h ^ s->hands[p]) + (uint64_t)p;
    return &s->t->tt[h & (((uint64_t)1 << TT_BITS) - 1)];
}

static int same_key(const Entry *e, const Search *s, int seat, uint32_t gen)
{
    if (!e->used || e->gen != gen || e->seat != seat)
        return 0;
    for (int p = 0; p < s->t->players; p++)
        if (e->hands[p] != s->hands[p])
            return 0;
    return 1;
}

static int64_t search(Search *s, int seat, int64_t alpha, int64_t beta);

/* Play `card` for `seat`, search on, take it back: the value for `me`. */
static int64_t play(Search *s, int seat, int card, int64_t alpha, int64_t beta)
{
    const Tables *t = s->t;
    int led = s->led, win = s->win, broken = s->broken, trick_no = s->trick_no;
    s->hands[seat] &= ~(1ULL << card);
    if (s->len == 0) {
        s->led = card / 13;
        s->win = card;
    } else if (t->beats[s->win] >> card & 1) {
        s->win = card;
    }
    s->seat[s->len] = seat;
    s->card[s->len++] = card;
    int64_t v;
    if (s->len < t->players) {
        v = search(s, s->next[seat], alpha, beta);
    } else {
        int winner = -1;
        uint64_t tm = 0;
        int64_t pts = t->trick_points[trick_no];
        const int64_t *value = t->values + 52 * trick_no;
        for (int i = 0; i < s->len; i++) {
            tm |= 1ULL << s->card[i];
            pts += value[s->card[i]];
            if (s->card[i] == s->win)
                winner = s->seat[i];
        }
        int64_t got = winner == s->me ? pts : 0;
        int len = s->len, seats[MAXP], cards[MAXP];  /* the next tricks reuse the trick's slots */
        memcpy(seats, s->seat, sizeof seats);
        memcpy(cards, s->card, sizeof cards);
        s->len = 0;
        s->led = s->win = -1;
        s->broken = broken || (tm & HEARTS) != 0;
        s->trick_no = trick_no + 1;
        v = got + (s->trick_no > t->tricks ? 0 : search(s, winner, alpha - got, beta - got));
        s->len = len;
        memcpy(s->seat, seats, sizeof seats);
        memcpy(s->card, cards, sizeof cards);
        s->trick_no = trick_no;
        s->broken = broken;
    }
    s->len--;
    s->led = led;
    s->win = win;
    s->hands[seat] |= 1ULL << card;
    return v;
}

/* How good `card` looks for `seat` (higher first): taking points when they help the side
 * on turn, leaving them when they hurt, the trick won as cheaply as possible. */
static int64_t promise(const Search *s, int seat, int card)
{
    const Tables *t = s->t;
    int win = s->win, winner = -1;
    int64_t pts = t->trick_points[s->trick_no] + t->values[52 * s->trick_no + card];
    for (int i = 0; i < s->len; i++) {
        pts += t->values[52 * s->trick_no + s->card[i]];
        if (s->card[i] == win)
            winner = s->seat[i];
    }
    if (s->len == 0 || (t->beats[win] >> card & 1))
        winner = seat;
    int64_t for_me = winner == s->me ? pts : 0;
    return (seat == s->me ? for_me : -for_me) * 64 + (winner == seat ? -(card % 13) : card % 13);
}

static int order_moves(const Search *s, int seat, uint64_t moves, int first, int *out)
{
    int k = 0;
    int64_t key[52];
    if (first >= 0 && (moves >> first & 1)) {
        out[k] = first;
        key[k++] = INF;
        moves &= ~(1ULL << first);
    }
    for (; moves; moves &= moves - 1) {
        int c = lowest(moves), i = k++;
        int64_t v = promise(s, seat, c);
        while (i > 0 && key[i - 1] < v) {
            out[i] = out[i - 1];
            key[i] = key[i - 1];
            i--;
        }
        out[i] = c;
        key[i] = v;
    }
    return k;
}

static int64_t search(Search *s, int seat, int64_t alpha, int64_t beta)
{
    const Tables *t = s->t;
    s->nodes++;
    Entry *e = NULL;
    int first = -1;
    int64_t alpha0 = alpha, beta0 = beta;
    if (s->len == 0) {  /* the points left bound the value: outside the window, no search */
        int64_t hi = t->most_tp[s->trick_no], lo = t->least_tp[s->trick_no];
        uint64_t left = 0;
        for (int p = 0; p < t->players; p++)
            left |= s->hands[p];
        for (const int64_t *most = t->most + 52 * s->trick_no, *least = t->least + 52 * s->trick_no; left;
             left &= left - 1) {
            hi += most[lowest(left)];
            lo += least[lowest(left)];
        }
        if (hi <= alpha || lo == hi)
            return hi;
        if (lo >= beta)
            return lo;
        e = probe(s, seat);
        if (same_key(e, s, seat, t->gen)) {
            if (e->flag == EXACT || (e->flag == LOWER && e->value >= beta) || (e->flag == UPPER && e->value <= alpha))
                return e->value;
            if (e->flag == LOWER && e->value > alpha)
                alpha = e->value;
            if (e->flag == UPPER && e->value < beta)
                beta = e->value;
            first = e->best;
        }
    }
    uint64_t moves = representatives(s, legal_cards(s, seat));
    int cards[52];
    int k = order_moves(s, seat, moves, first, cards);
    int maxing = seat == s->me, best_card = k ? cards[0] : 0;
    int64_t best = maxing ? -INF : INF;
    for (int i = 0; i < k; i++) {
        int64_t v = play(s, seat, cards[i], alpha, beta);
        if (maxing ? v > best : v < best) {
            best = v;
            best_card = cards[i];
        }
        if (maxing && best > alpha)
            alpha = best;
        if (!maxing && best < beta)
            beta = best;
        if (alpha >= beta)
            break;
    }
    if (k == 0)
        best = 0;  /* no card left (a hand emptied early): nothing more to take */
    if (e != NULL) {
        memcpy(e->hands, s->hands, sizeof(uint64_t) * t->players);
        e->seat = (uint8_t)seat;
        e->gen = t->gen;
        e->used = 1;
        e->best = (uint8_t)best_card;
        e->value = best;
        e->flag = best <= alpha0 ? UPPER : (best >= beta0 ? LOWER : EXACT);
    }
    return best;
}

/* The value of `card` for `seat`: null-window searches bisecting the points it may be
 * (each answer a bound, the transposition table's bounds kept between them). */
static int64_t exact(Search *s, int seat, int card)
{
    int64_t lo = -INF, hi = INF;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (lo == -INF || hi == INF)
            mid = lo == -INF && hi == INF ? 0 : (lo == -INF ? (hi > 0 ? 0 : 2 * hi - 1) : (lo < 0 ? 0 : 2 * lo + 1));
        int64_t v = play(s, seat, card, mid, mid + 1);
        if (v > mid)
            lo = v;
        else
            hi = v;
    }
    return lo;
}

/* tables.solve(me, to_move, hands[players], trick_no, broken, trick ((seat, card), ...))
 *              direction) -> ([(card, value), ...] for every legal card of the seat on turn, nodes searched). */
static PyObject *Tables_solve(Tables *self, PyObject *args)
{
    int me, to_move, trick_no, broken, direction;
    PyObject *hands, *trick;
    if (self->tt == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the tables were not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "iiOipOi", &me, &to_move, &hands, &trick_no, &broken, &trick, &direction))
        return NULL;
    int n = self->players;
    Search s;
    memset(&s, 0, sizeof s);
    s.t = self;
    s.me = me;
    if (me < 0 || me >= n || to_move < 0 || to_move >= n || trick_no < 1 || trick_no > self->tricks
        || direction < -n || direction > n) {
        PyErr_SetString(PyExc_ValueError, "a seat, a seat on turn and a trick number of the deal expected");
        return NULL;
    }
    if (read_masks(hands, s.hands, n, "hands") < 0)
        return NULL;
    uint64_t seen = 0;
    for (int p = 0; p < n; p++) {
        if (s.hands[p] >> 52 || (seen & s.hands[p])) {
            PyErr_SetString(PyExc_ValueError, "hands: disjoint masks of cards 0..51 expected");
            return NULL;
        }
        seen |= s.hands[p];
        s.next[p] = ((p + direction) % n + n) % n;
    }
    s.trick_no = trick_no;
    s.broken = broken;
    s.led = s.win = -1;
    PyObject *fast = PySequence_Fast(trick, "trick");
    if (fast == NULL)
        return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    int err = len >= n;
    for (Py_ssize_t i = 0; !err && i < len; i++) {
        int seat, card;
        PyObject *it = PySequence_Fast_GET_ITEM(fast, i);
        err = !PyTuple_Check(it) || !PyArg_ParseTuple(it, "ii", &seat, &card) || seat < 0 || seat >= n || card < 0
              || card >= 52 || (seen >> card & 1);
        if (err)
            break;
        seen |= 1ULL << card;
        s.seat[i] = seat;
        s.card[i] = card;
        if (i == 0) {
            s.led = card / 13;
            s.win = card;
        } else if (self->beats[s.win] >> card & 1) {
            s.win = card;
        }
    }
    Py_DECREF(fast);
    if (err) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "trick: (seat, card) pairs of cards in no hand expected");
        return NULL;
    }
    s.len = (int)len;
    if (len && s.next[s.seat[len - 1]] != to_move) {
        PyErr_SetString(PyExc_ValueError, "the seat on turn does not follow the trick");
        return NULL;
    }
    if (++self->gen == 0)  /* a new solve: the table's old entries are stale */
        memset(self->tt, 0, sizeof(Entry) << TT_BITS);
    uint64_t legal = legal_cards(&s, to_move), reps = representatives(&s, legal);
    int64_t value[52];
    for (uint64_t m = reps; m; m &= m - 1) {
        int c = lowest(m);
        value[c] = exact(&s, to_move, c);
    }
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    for (uint64_t m = legal; m; m &= m - 1) {
        int c = lowest(m), rep = c;
        if (!(reps >> c & 1)) {  /* its value is the next lower representative's of its class */
            int su = c / 13, last = -1;
            uint64_t alive = seen;
            for (int i = 0; i < self->suit_len[su]; i++) {
                int d = self->order[su][i];
                if (d == c)
                    break;
                if ((alive >> d & 1) && (reps >> d & 1))
                    last = d;
            }
            rep = last;
        }
        PyObject *pair = rep < 0 ? NULL : Py_BuildValue("(iL)", c, (long long)value[rep]);
        if (pair == NULL || PyList_Append(out, pair) < 0) {
            Py_XDECREF(pair);
            Py_DECREF(out);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_RuntimeError, "an equivalent card without its representative");
            return NULL;
        }
        Py_DECREF(pair);
    }
    return Py_BuildValue("(NL)", out, s.nodes);
}

static PyMethodDef Tables_methods[] = {
    {"solve", (PyCFunction)Tables_solve, METH_VARARGS,
     "solve(me, to_move, hands, trick_no, broken, trick, direction) -> ([(card, value), ...], nodes)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kierki_dsl.interpreter._solve.Tables",
    .tp_doc = "A trick contract's tables for the solver, with its transposition table.",
    .tp_basicsize = sizeof(Tables),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tables_init,
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_methods = Tables_methods,
};

static struct PyModuleDef solvemodule = {
    PyModuleDef_HEAD_INIT, "_solve", "The perfect-information solver of trick play.", -1, NULL,
};

PyMODINIT_FUNC PyInit__solve(void)
{
    if (PyType_Ready(&TablesType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&solvemodule);
    if (m == NULL)
        return NULL;
    Py_INCREF(&TablesType);
    if (PyModule_AddObject(m, "Tables", (PyObject *)&TablesType) < 0) {
        Py_DECREF(&TablesType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
