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
 * As Kupferschmid and Helmert's Skat solver and the double-dummy bridge solvers: a
 * transposition table of positions at a trick's start (bounds and the best card) keyed
 * canonically (each card as its rank among the unplayed cards of its suit, with the classes of
 * those cards in order) where a card's beaters are the higher cards of its suit and whole
 * suits, one table shared by every contract (64-byte entries holding a lower and an upper
 * bound, the key packed by bit extraction: BMI2's pext where the processor has it); an
 * enhanced transposition cutoff at a trick's last card (where 5 or more tricks are left); move
 * ordering (the table's card, then cards good for the seat on turn; in a deal of no gains for me,
 * leads first that another seat must beat when me leads, or that me must win when it does not,
 * and the highest card first; every deal's leads highest first);
 * equivalent cards searched once (cards of one hand and one class next to each other in their
 * suit once the cards of finished tricks are gone); bounds from the points left (summed by
 * groups of cards with equal points); a search ended where `me` can take no trick more (no
 * trumps, another seat on lead, each of me's cards below every other seat's of its suit); each root
 * card's value by MTD(f) null-window searches in the range the points left allow (the points
 * come in their common unit, solver.py); and a node limit that stops a solve (its answer None).
 * Seat scoring that pays one seat's taking every trick of points (Hearts' shooting the moon) is
 * valued as a sweep: the state "no points taken yet / seat s took every one so far / two seats
 * took some" rides in the key, and a sweep's end adds what solver.py reads off the scoring.
 * kierki_dsl/interpreter/solvepy.py is the same search in Python (the reference and the
 * fallback when this extension is not built; it has neither the enhanced cutoff nor the leads'
 * order): the values are equal, held by tests.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAXP 8
/* the enhanced transposition cutoff only where this many tricks or more are left (nearer the
 * deal's end it costs more than it saves) */
#ifndef ETC_LEFT
#define ETC_LEFT 5
#endif
#define MAXTRICKS 52
#define MAXRULES 64
#define INF ((int64_t)1 << 60)
#define POINTS_MAX ((int64_t)1 << 40) /* a card's or trick's points: sums and move keys cannot overflow */
#define TT_BITS 19 /* 2^19 buckets of two 64-byte entries: 64 MB (table_bits changes it) */

static const uint64_t SUIT[4] = {0x1FFFULL, 0x1FFFULL << 13, 0x1FFFULL << 26, 0x1FFFULL << 39};
#define HEARTS (SUIT[1])

enum { LEAD = 0, FOLLOW = 1, DISCARD = 2 };

typedef struct {
    int n;
    uint64_t keep[MAXRULES];
} Prog;

/* A position at a trick's start, packed in KW words (canonical where the tables allow: each
 * card as its rank among the unplayed cards of its suit, with the classes of those cards in
 * order): w[0] the cards left (52 bits) with the seat on turn, hearts broken and the trick
 * number above them; w[1..3] each card's holder (3 bits a card); w[4..5] each card's class
 * (2 bits a card, canonical keys only). */
#define KW 6
typedef struct {
    uint64_t w[KW];
} Key;

/* A table entry (64 bytes, one cache line): the key, the bounds found (the value is at least
 * `lower` and at most `upper`; NO_LOWER and NO_UPPER: none) and the best card (canonical too). */
typedef struct {
    uint64_t w[KW];
    int32_t lower, upper;
    uint32_t gen;
    uint8_t best, used, pad[2];
} Entry;

#define NO_LOWER INT32_MIN
#define NO_UPPER INT32_MAX

/* One table for every Tables (a solve at a time, under the GIL): a new solve's generation
 * makes the entries of the last one stale. Two entries a slot (a 128-byte bucket): the first
 * kept for the position nearer the deal's start, the second always replaced. */
static Entry *tt = NULL;
static void *tt_block = NULL;
static size_t tt_size = (size_t)1 << TT_BITS; /* buckets */

/* Allocate the table (if not yet), aligned to the cache lines: a bucket is two of them. */
static int allocate_table(void)
{
    if (tt != NULL)
        return 0;
    if ((tt_block = PyMem_Calloc(2 * tt_size * sizeof(Entry) + 64, 1)) == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    tt = (Entry *)(((uintptr_t)tt_block + 63) & ~(uintptr_t)63);
    return 0;
}
static uint32_t tt_gen = 0;

/* A row of points by card as groups of cards with the same points (n < 0: too many groups,
 * read the row card by card). */
#define MAXGROUPS 8
typedef struct {
    int n;
    uint64_t mask[MAXGROUPS];
    int64_t value[MAXGROUPS];
} Groups;

typedef struct {
    PyObject_HEAD
    int players, tricks, follow_suit;
    uint64_t beats[52];
    int64_t trick_points[MAXTRICKS + 2];
    int64_t values[(MAXTRICKS + 2) * 52];
    /* from trick n on: the most a card can give its taker and the least, the trick points */
    int64_t most[(MAXTRICKS + 2) * 52], least[(MAXTRICKS + 2) * 52];
    int64_t most_tp[MAXTRICKS + 3], least_tp[MAXTRICKS + 3];
    Groups most_g[MAXTRICKS + 2], least_g[MAXTRICKS + 2];
    Prog *progs;                 /* 3 x (2 * tricks + 4) */
    int cls[52];
    int order[4][13], suit_len[4];
    /* canonical keys: each card's class among its suit's classes (0..3), and whether the
     * tables allow them (the cards beating a card: by suit and rank order alone; at most
     * four classes a suit) */
    int local_cls[52], canonical;
    int natural; /* each suit's order is its cards' ids ascending */
    /* keys packed by bit extraction (at most 4 seats; canonical ones need `natural`): the
     * cards whose class (within its suit) has bit 0 set, bit 1 set */
    int packed;
    uint64_t planes[2];
    /* a card is beaten by the higher cards of its suit (ids ascending by rank) and by `trumps`
     * (the cards beating a card of another suit): then a seat without trumps whose cards all
     * rank below the others' of their suit wins no trick it does not lead (`takes_none`) */
    int suited;
    uint64_t trumps;
    /* no card or trick gives points above 0 (`me` wants no trick: lead_outlook orders leads) */
    int no_gain;
    /* the cards giving points in each trick (a sweep: one seat takes every trick of points) */
    uint64_t pointy[MAXTRICKS + 2];
    int ready;
} Tables;

typedef struct {
    const Tables *t;
    int me;
    uint64_t hands[MAXP];
    int next[MAXP];
    int trick_no, broken, led, win, len;
    int seat[MAXP], card[MAXP];
    long long nodes, limit;
    int stopped;
    int8_t owner[52];  /* the seat holding each card at the solve's start (cards never change hands) */
    /* the sweep (seat scoring such as Hearts' shooting the moon): 0 none to track (off, or two
     * seats have taken points), 1 no points taken yet, 2 + s seat s has taken every trick of
     * points so far; adj[s] what `me` gets at the deal's end if seat s took every one, and
     * from each state the least and the most it can still add (0 included) */
    int sweep;
    int64_t adj[MAXP], adj_lo[MAXP + 2], adj_hi[MAXP + 2];
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
    if (v > POINTS_MAX || v < -POINTS_MAX) {
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

/* The groups of a row of 52 points (cards with 0 points in none). */
static void group(const int64_t *row, Groups *g)
{
    g->n = 0;
    for (int c = 0; c < 52 && g->n >= 0; c++) {
        int i = 0;
        if (row[c] == 0)
            continue;
        while (i < g->n && g->value[i] != row[c])
            i++;
        if (i == MAXGROUPS) {
            g->n = -1;
            break;
        }
        if (i == g->n) {
            g->value[g->n] = row[c];
            g->mask[g->n++] = 0;
        }
        g->mask[i] |= 1ULL << c;
    }
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
        self->pointy[n] = 0;
        for (int c = 0; c < 52; c++)
            if (n >= 1 && n <= self->tricks && self->values[52 * n + c] != 0)
                self->pointy[n] |= 1ULL << c;
        group(self->most + 52 * n, &self->most_g[n]);
        group(self->least + 52 * n, &self->least_g[n]);
    }
}

/* Whether a card's beaters are the higher cards of its suit (by ``order``) and whole other
 * suits: then ranks among the unplayed cards say who beats whom. */
static int ranked_beats(const Tables *self)
{
    for (int su = 0; su < 4; su++) {
        if (self->suit_len[su] != 13)
            return 0;
        for (int i = 0; i < 13; i++) {
            int c = self->order[su][i];
            uint64_t above = 0;
            for (int j = i + 1; j < 13; j++)
                above |= 1ULL << self->order[su][j];
            if ((self->beats[c] & SUIT[su]) != above)
                return 0;
            for (int o = 0; o < 4; o++) {
                uint64_t in = self->beats[c] & SUIT[o];
                if (o != su && in && in != SUIT[o])
                    return 0;
            }
        }
    }
    return 1;
}

/* Each card's class numbered within its suit; canonical keys if the tables allow them. */
static void canonical_classes(Tables *self)
{
    self->canonical = ranked_beats(self);
    self->natural = 1;
    for (int su = 0; su < 4; su++)
        for (int i = 0; i < self->suit_len[su]; i++)
            self->natural &= self->order[su][i] == 13 * su + i;
    for (int su = 0; su < 4; su++) {
        int seen[52], k = 0;
        for (int r = 0; r < 13; r++) {
            int c = 13 * su + r, i = 0;
            while (i < k && seen[i] != self->cls[c])
                i++;
            if (i == k)
                seen[k++] = self->cls[c];
            self->local_cls[c] = i;
        }
        if (k > 4)
            self->canonical = 0;
    }
    self->planes[0] = self->planes[1] = 0;
    for (int c = 0; c < 52; c++)
        for (int b = 0; b < 2; b++)
            self->planes[b] |= (uint64_t)(self->local_cls[c] >> b & 1) << c;
    self->packed = self->players <= 4 && (self->natural || !self->canonical);
    self->suited = self->canonical && self->natural;
    self->trumps = 0;
    for (int c = 0; c < 52; c++)
        self->trumps |= self->beats[c] & ~SUIT[c / 13];
}

/* Tables(players, tricks, follow_suit, beats[52], trick_points[tricks + 2],
 *        values[tricks + 2][52], programs[3][2 * tricks + 4], classes[52], order[4][...]) */
static int Tables_init(Tables *self, PyObject *args, PyObject *kw)
{
    PyObject *beats, *tp, *values, *progs, *cls, *order;
    if (self->ready) {
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
    canonical_classes(self);
    self->no_gain = self->most_tp[0] == 0;
    for (int c = 0; c < 52; c++)
        self->no_gain &= self->most[c] == 0;
    if (allocate_table() < 0)
        return -1;
    self->ready = 1;
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
    if (t->natural) {  /* a card's next lower card left is the highest bit below it in its suit */
        for (uint64_t m = legal; m; m &= m - 1) {
            int c = lowest(m);
            uint64_t below = alive & SUIT[c / 13] & ((1ULL << c) - 1);
            if (below) {
                int prev = 63 - __builtin_clzll(below);
                if ((legal >> prev & 1) && t->cls[c] == t->cls[prev])
                    out &= ~(1ULL << c);
            }
        }
        return out;
    }
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

/* Bit extraction and deposit (BMI2's pext and pdep where the processor has them). */
static int has_bmi2 = 0;
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define BMI2_BUILTINS 1
__attribute__((target("bmi2"))) static uint64_t pext_bmi2(uint64_t x, uint64_t m)
{
    return __builtin_ia32_pext_di(x, m);
}
__attribute__((target("bmi2"))) static uint64_t pdep_bmi2(uint64_t x, uint64_t m)
{
    return __builtin_ia32_pdep_di(x, m);
}
#endif

/* The bits of x at the places of m's bits, packed at the bottom. */
static uint64_t pext(uint64_t x, uint64_t m)
{
#ifdef BMI2_BUILTINS
    if (has_bmi2)
        return pext_bmi2(x, m);
#endif
    uint64_t r = 0;
    for (uint64_t bit = 1; m; m &= m - 1, bit <<= 1)
        if (x & m & (~m + 1))
            r |= bit;
    return r;
}

/* The bottom bits of x placed at the places of m's bits. */
static uint64_t pdep(uint64_t x, uint64_t m)
{
#ifdef BMI2_BUILTINS
    if (has_bmi2)
        return pdep_bmi2(x, m);
#endif
    uint64_t r = 0;
    for (uint64_t bit = 1; m; m &= m - 1, bit <<= 1)
        if (x & bit)
            r |= m & (~m + 1);
    return r;
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("popcnt"))) static int popcount_hw(uint64_t x)
{
    return __builtin_popcountll(x);
}
#endif

static int popcount(uint64_t x)
{
#ifdef BMI2_BUILTINS
    if (has_bmi2)  /* every processor with BMI2 has POPCNT */
        return popcount_hw(x);
#endif
    return __builtin_popcountll(x);
}

/* The sum of a row's points over the cards of `cards`. */
static int64_t sum_over(const Groups *g, const int64_t *row, uint64_t cards)
{
    int64_t sum = 0;
    if (g->n < 0) {
        for (; cards; cards &= cards - 1)
            sum += row[lowest(cards)];
        return sum;
    }
    for (int i = 0; i < g->n; i++)
        sum += g->value[i] * popcount(cards & g->mask[i]);
    return sum;
}

static uint64_t alive_cards(const Search *s)
{
    uint64_t alive = 0;
    for (int p = 0; p < s->t->players; p++)
        alive |= s->hands[p];
    return alive;
}

/* The key of the position at a trick's start with `seat` on turn (see Key). Packed tables:
 * w[0] the cards left in each suit (4 bits a suit; canonical) or the cards left (plain);
 * w[1..3] the hands of seats 0..2 (the last seat's is the rest), extracted at the cards left
 * (canonical) or as they are; w[4..5] the class planes extracted at the cards left. */
static void make_key_cards(const Search *s, int seat, Key *k);
static void make_key(const Search *s, int seat, Key *k)
{
    make_key_cards(s, seat, k);
    k->w[3] |= (uint64_t)s->sweep << 60;  /* free in every layout (hands below 52 bits, owners below 30) */
}

static void make_key_cards(const Search *s, int seat, Key *k)
{
    const Tables *t = s->t;
    memset(k, 0, sizeof *k);
    uint64_t alive = alive_cards(s), out = 0;
    if (t->packed) {
        for (int p = 0; p < t->players - 1; p++)
            k->w[1 + p] = t->canonical ? pext(s->hands[p], alive) : s->hands[p];
        if (t->canonical) {
            for (int su = 0; su < 4; su++)
                out |= (uint64_t)popcount(alive & SUIT[su]) << (4 * su);
            k->w[4] = pext(t->planes[0], alive);
            k->w[5] = pext(t->planes[1], alive);
        } else {
            out = alive;
        }
        k->w[0] = out | (uint64_t)seat << 52 | (uint64_t)s->broken << 55 | (uint64_t)s->trick_no << 56;
        return;
    }
    for (int su = 0; su < 4; su++) {
        uint64_t m = alive & SUIT[su];
        if (!m)
            continue;
        int j = 13 * su;
        if (!t->canonical) {
            out |= m;
            for (; m; m &= m - 1) {
                int c = lowest(m);
                k->w[1 + c / 21] |= (uint64_t)s->owner[c] << (3 * (c % 21));
            }
            continue;
        }
        for (int i = 0; i < t->suit_len[su]; i++) {
            int c = t->natural ? lowest(m) : t->order[su][i];
            if (t->natural)
                m &= m - 1;
            else if (!(alive >> c & 1))
                continue;
            k->w[1 + j / 21] |= (uint64_t)s->owner[c] << (3 * (j % 21));
            k->w[4 + j / 32] |= (uint64_t)t->local_cls[c] << (2 * (j % 32));
            out |= 1ULL << j++;
            if (t->natural && !m)
                break;
        }
    }
    k->w[0] = out | (uint64_t)seat << 52 | (uint64_t)s->broken << 55 | (uint64_t)s->trick_no << 56;
}

/* The card of canonical card `j` in the position (its suit's cards left in the hands). */
static int card_of(const Search *s, int j)
{
    const Tables *t = s->t;
    if (!t->canonical)
        return j;
    uint64_t alive = alive_cards(s);
    if (t->packed)
        return lowest(pdep(1ULL << j, alive));
    int su = j / 13, r = j % 13;
    for (int i = 0; i < t->suit_len[su]; i++) {
        int c = t->order[su][i];
        if ((alive >> c & 1) && r-- == 0)
            return c;
    }
    return -1;
}

/* The canonical card of `card` (held in the position). */
static int canonical_card(const Search *s, int card)
{
    const Tables *t = s->t;
    if (!t->canonical)
        return card;
    uint64_t alive = alive_cards(s);
    if (t->packed)
        return popcount(alive & ((1ULL << card) - 1));
    int su = card / 13, r = 0;
    for (int i = 0; i < t->suit_len[su] && t->order[su][i] != card; i++)
        r += (int)(alive >> t->order[su][i] & 1);
    return 13 * su + r;
}

static uint64_t key_hash(const Key *k)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < KW; i++)
        h = mix(h ^ k->w[i]) + (uint64_t)i;
    return h;
}

static Entry *bucket(const Key *k)
{
    return &tt[2 * (key_hash(k) & (tt_size - 1))];
}

static int same_key(const Entry *e, const Key *k)
{
    return e->used && e->gen == tt_gen && memcmp(e->w, k->w, sizeof k->w) == 0;
}

/* The entry of the key, or NULL (``*slot``: where to store it). */
static Entry *lookup(const Key *k, Entry **slot)
{
    Entry *b = bucket(k);
    for (int i = 0; i < 2; i++)
        if (same_key(&b[i], k))
            return *slot = &b[i];
    /* the first kept for the position nearer the deal's start (a bigger tree), the second replaced */
    int trick_no = (int)(k->w[0] >> 56);
    *slot = !b[0].used || b[0].gen != tt_gen || (int)(b[0].w[0] >> 56) >= trick_no ? &b[0] : &b[1];
    return NULL;
}

static int64_t search(Search *s, int seat, int64_t alpha, int64_t beta);

/* The sweep's state after trick `trick_no` of cards `tm` went to `winner` (see Search). */
static int next_sweep(const Search *s, int trick_no, uint64_t tm, int winner)
{
    if (s->sweep == 0 || (s->t->trick_points[trick_no] == 0 && !(tm & s->t->pointy[trick_no])))
        return s->sweep;
    return s->sweep == 1 || s->sweep == 2 + winner ? 2 + winner : 0;
}

/* What the sweep adds at the deal's end (its state then). */
static int64_t sweep_end(const Search *s)
{
    return s->sweep >= 2 ? s->adj[s->sweep - 2] : 0;
}

/* Play `card` for `seat`, search on, take it back: the value for `me`. */
static int64_t play(Search *s, int seat, int card, int64_t alpha, int64_t beta)
{
    const Tables *t = s->t;
    int led = s->led, win = s->win, broken = s->broken, trick_no = s->trick_no, sweep = s->sweep;
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
        s->sweep = next_sweep(s, trick_no, tm, winner);
        s->trick_no = trick_no + 1;
        v = got + (s->trick_no > t->tricks ? sweep_end(s) : search(s, winner, alpha - got, beta - got));
        s->sweep = sweep;
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

/* The cards `seat` may play on `led` (a card led): its cards of the suit where it must follow,
 * else its hand (the play restrictions left out: a guess for move ordering). */
static uint64_t playable(const Search *s, int seat, int led)
{
    uint64_t hand = s->hands[seat], suited = hand & SUIT[led / 13];
    return suited && s->t->follow_suit ? suited : hand;
}

/* Whether leading `card` looks good for `seat`'s side (1), bad (-1) or neither (0) in a deal
 * whose points are none above 0 (me wants no trick), from the hands (for move ordering): me's
 * lead is good where another seat must beat it and bad where none can; another seat's lead is
 * good where me must beat it and no seat must beat me's lowest card, bad where me can play
 * under it. (In a deal me wants every trick of, the same guesses searched more positions.) */
static int lead_outlook(const Search *s, int seat, int card)
{
    const Tables *t = s->t;
    if (!t->no_gain || !t->natural)
        return 0;
    uint64_t beat = t->beats[card], mine = playable(s, s->me, card);
    if (seat == s->me) {
        int can = 0, must = 0;
        for (int p = 0; p < t->players; p++) {
            uint64_t h = p == seat ? 0 : playable(s, p, card);
            can |= (h & beat) != 0;
            must |= h && !(h & ~beat);
        }
        return must ? 1 : (can ? 0 : -1);
    }
    if (!mine || (mine & ~beat))
        return -1;  /* me can play under the card led */
    uint64_t above = t->beats[lowest(mine)];  /* what beats me's lowest card */
    for (int p = 0; p < t->players; p++) {
        uint64_t h = p == seat || p == s->me ? 0 : playable(s, p, card);
        if (h && !(h & ~above))
            return 0;  /* p must beat me's card */
    }
    return 1;
}

/* How good `card` looks for `seat` (higher first): a lead that looks good (lead_outlook) before
 * one that looks neither and one that looks bad last, then taking points when they help the side
 * on turn and leaving them when they hurt, then the highest card first where it leads or does
 * not win the trick, the cheapest where it wins the trick, but in a deal of no gains the highest
 * card first whatever it does (a trick that must be won is won high). */
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
    int outlook = s->len == 0 ? lead_outlook(s, seat, card) : 0;
    int high_first = winner != seat || s->len == 0 || t->no_gain;  /* leads, and where no trick gains: high */
    return ((int64_t)outlook << 52) + (seat == s->me ? for_me : -for_me) * 64 + (high_first ? card % 13 : -(card % 13));
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

/* Enhanced transposition cutoff at a trick's last card: whether some card of `seat` ends the
 * trick in a position whose stored bound already settles the window (its value in `*v`). */
static int settled_by_table(Search *s, int seat, uint64_t moves, int64_t alpha, int64_t beta, int64_t *v)
{
    const Tables *t = s->t;
    int maxing = seat == s->me, broken = s->broken, trick_no = s->trick_no, len = s->len, k = 0, sweep = s->sweep;
    if (trick_no >= t->tricks)
        return 0;
    int64_t pts0 = t->trick_points[trick_no], got[52];
    uint64_t tm = 0;
    Key keys[52];
    for (int i = 0; i < len; i++) {
        pts0 += t->values[52 * trick_no + s->card[i]];
        tm |= 1ULL << s->card[i];
    }
    s->len = 0;
    s->trick_no = trick_no + 1;
    for (uint64_t m = moves; m; m &= m - 1, k++) {  /* every card's next position, its bucket fetched */
        int c = lowest(m), w = t->beats[s->win] >> c & 1 ? c : s->win, winner = seat;
        for (int i = 0; i < len; i++)
            if (s->card[i] == w)
                winner = s->seat[i];
        got[k] = winner == s->me ? pts0 + t->values[52 * trick_no + c] : 0;
        s->hands[seat] &= ~(1ULL << c);
        s->broken = broken || ((tm | 1ULL << c) & HEARTS) != 0;
        s->sweep = next_sweep(s, trick_no, tm | 1ULL << c, winner);
        make_key(s, winner, &keys[k]);
        __builtin_prefetch(bucket(&keys[k]));
        s->hands[seat] |= 1ULL << c;
        s->sweep = sweep;
    }
    s->len = len;
    s->trick_no = trick_no;
    s->broken = broken;
    for (int i = 0; i < k; i++) {
        Entry *slot;
        const Entry *e = lookup(&keys[i], &slot);
        if (e == NULL)
            continue;
        if (maxing && e->lower != NO_LOWER && got[i] + e->lower >= beta) {
            *v = got[i] + e->lower;
            return 1;
        }
        if (!maxing && e->upper != NO_UPPER && got[i] + e->upper <= alpha) {
            *v = got[i] + e->upper;
            return 1;
        }
    }
    return 0;
}

/* Store what a search found (the value in lower..upper) in `slot`, with the bounds it held
 * before if it is the same position (`known`). Bounds are kept as int32: one outside that
 * range is weakened (a lower bound down, an upper bound up), never made wrong. */
static void store(const Search *s, Entry *slot, int known, const Key *key, int64_t lower, int64_t upper, int card)
{
    int32_t lo = lower <= NO_LOWER ? NO_LOWER : (lower >= NO_UPPER ? NO_UPPER - 1 : (int32_t)lower);
    int32_t hi = upper >= NO_UPPER ? NO_UPPER : (upper <= NO_LOWER ? NO_LOWER + 1 : (int32_t)upper);
    if (!known) {
        memcpy(slot->w, key->w, sizeof key->w);
        slot->lower = NO_LOWER;
        slot->upper = NO_UPPER;
        slot->gen = tt_gen;
        slot->used = 1;
    }
    if (lo > slot->lower)
        slot->lower = lo;
    if (hi < slot->upper)
        slot->upper = hi;
    slot->best = (uint8_t)canonical_card(s, card);
}

/* Whether `me`'s points to come are 0, at a trick's start with `leader` on lead and at most `hi`
 * to take: me holds no trump, and in each suit me's cards all rank below every other seat's.
 * Then a card of me's is beaten in any trick it follows (the led card is higher) and lost in any
 * it is discarded on: with another seat on lead me wins no trick and never leads again. On lead
 * itself (where suit must be followed), me can lead a card of a suit another seat holds (it
 * loses: that seat follows higher) and take nothing more, which is the most it can take where no
 * points are left to gain (hi 0). */
static int takes_none(const Search *s, int leader, int64_t hi)
{
    const Tables *t = s->t;
    if (!t->suited || (leader == s->me && (hi > 0 || !t->follow_suit)) || (s->hands[s->me] & t->trumps))
        return 0;
    uint64_t mine = s->hands[s->me], others = alive_cards(s) & ~mine, losing = 0;
    for (int su = 0; su < 4; su++) {
        uint64_t m = mine & SUIT[su], o = others & SUIT[su];
        if (m && o && 63 - __builtin_clzll(m) > lowest(o))
            return 0;
        if (o)
            losing |= m;
    }
    return leader != s->me || (legal_cards(s, leader) & losing) != 0;
}

static int64_t search(Search *s, int seat, int64_t alpha, int64_t beta)
{
    const Tables *t = s->t;
    if (++s->nodes > s->limit && s->limit > 0)
        s->stopped = 1;
    if (s->stopped)
        return 0;  /* the node budget is spent: the solve's answer is thrown away */
    Entry *e = NULL, *slot = NULL;
    Key key;
    int first = -1;
    if (s->len == 0) {  /* the points left bound the value: outside the window, no search */
        int n = s->trick_no;
        uint64_t left = alive_cards(s);
        int64_t hi = t->most_tp[n] + sum_over(&t->most_g[n], t->most + 52 * n, left) + s->adj_hi[s->sweep];
        int64_t lo = t->least_tp[n] + sum_over(&t->least_g[n], t->least + 52 * n, left) + s->adj_lo[s->sweep];
        if (hi <= alpha || lo == hi)
            return hi;
        if (lo >= beta)
            return lo;
        if (s->sweep == 0 && takes_none(s, seat, hi))
            return 0;
        make_key(s, seat, &key);
        e = lookup(&key, &slot);
        if (e != NULL) {
            if (e->lower != NO_LOWER && (e->lower >= beta || e->lower == e->upper))
                return e->lower;
            if (e->upper != NO_UPPER && e->upper <= alpha)
                return e->upper;
            if (e->lower != NO_LOWER && e->lower > alpha)
                alpha = e->lower;
            if (e->upper != NO_UPPER && e->upper < beta)
                beta = e->upper;
            first = card_of(s, e->best);
        }
    }
    int64_t alpha0 = alpha, beta0 = beta;  /* the window searched */
    uint64_t moves = representatives(s, legal_cards(s, seat));
    int64_t settled;
    if (s->len == t->players - 1 && t->tricks - s->trick_no >= ETC_LEFT && settled_by_table(s, seat, moves, alpha, beta, &settled))
        return settled;
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
    if (slot != NULL && !s->stopped)
        store(s, slot, e != NULL, &key, best <= alpha0 ? -INF : best, best >= beta0 ? INF : best, best_card);
    return best;
}

/* The value of `card` for `seat`, between `lo` and `hi` (the least and the most the
 * points left allow), by MTD(f): null-window searches from a first guess (the value of the
 * card searched before), each answer a bound and the next guess, the transposition table's
 * bounds kept between them. */
static int64_t exact(Search *s, int seat, int card, int64_t lo, int64_t hi, int64_t guess)
{
    int64_t g = guess < lo ? lo : (guess > hi ? hi : guess);
    while (lo < hi && !s->stopped) {
        int64_t mid = g > lo ? g - 1 : g;  /* v > mid: a lower bound; else an upper one */
        int64_t v = play(s, seat, card, mid, mid + 1);
        if (v > mid)
            lo = v > lo ? v : mid + 1;
        else
            hi = v < hi ? v : mid;
        g = v < lo ? lo : (v > hi ? hi : v);
    }
    return lo;
}

/* The least and the most `me` can take from the position on (cards left and trick points). */
static void value_range(const Search *s, uint64_t cards, int64_t *lo, int64_t *hi)
{
    const Tables *t = s->t;
    int n = s->trick_no;
    *hi = t->most_tp[n];
    *lo = t->least_tp[n];
    for (; cards; cards &= cards - 1) {
        *hi += t->most[52 * n + lowest(cards)];
        *lo += t->least[52 * n + lowest(cards)];
    }
    *hi += s->adj_hi[s->sweep];
    *lo += s->adj_lo[s->sweep];
}

/* The sweep's state and what it adds for `me` (see Search) from solve's arguments. */
static int read_sweep(Search *s, int sweep, PyObject *adj)
{
    int n = s->t->players;
    if (sweep < 0 || sweep > n + 1 || (sweep && adj == NULL)) {
        PyErr_SetString(PyExc_ValueError, "sweep: 0, 1 or 2 + a seat, with a value per seat, expected");
        return -1;
    }
    if (sweep && read_ints(adj, s->adj, n, "sweep values") < 0)
        return -1;
    s->sweep = sweep;
    for (int p = 0; p < n; p++) {
        if (s->adj[p] > POINTS_MAX || s->adj[p] < -POINTS_MAX) {
            PyErr_SetString(PyExc_ValueError, "sweep values: too large");
            return -1;
        }
        int64_t a = s->adj[p];
        s->adj_lo[2 + p] = a < 0 ? a : 0;
        s->adj_hi[2 + p] = a > 0 ? a : 0;
        s->adj_lo[1] = s->adj_lo[1] < s->adj_lo[2 + p] ? s->adj_lo[1] : s->adj_lo[2 + p];
        s->adj_hi[1] = s->adj_hi[1] > s->adj_hi[2 + p] ? s->adj_hi[1] : s->adj_hi[2 + p];
    }
    return 0;
}

/* tables.solve(me, to_move, hands[players], trick_no, broken, trick ((seat, card), ...)),
 *              direction[, limit[, sweep, adj]]) -> ([(card, value), ...] for every legal card of the seat on
 * turn, nodes searched); with a node limit (> 0) reached, (None, nodes). With `sweep` (and `adj`,
 * a value per seat) the value adds a sweep's points at the deal's end (see Search). */
static PyObject *Tables_solve(Tables *self, PyObject *args)
{
    int me, to_move, trick_no, broken, direction, sweep = 0;
    long long limit = 0;
    PyObject *hands, *trick, *adj = NULL;
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "the tables were not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "iiOipOi|LiO", &me, &to_move, &hands, &trick_no, &broken, &trick, &direction, &limit,
                          &sweep, &adj))
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
    if (read_masks(hands, s.hands, n, "hands") < 0 || read_sweep(&s, sweep, adj) < 0)
        return NULL;
    uint64_t seen = 0;
    for (int p = 0; p < n; p++) {
        if (s.hands[p] >> 52 || (seen & s.hands[p])) {
            PyErr_SetString(PyExc_ValueError, "hands: disjoint masks of cards 0..51 expected");
            return NULL;
        }
        seen |= s.hands[p];
        s.next[p] = ((p + direction) % n + n) % n;
        for (uint64_t m = s.hands[p]; m; m &= m - 1)
            s.owner[lowest(m)] = (int8_t)p;
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
    if (allocate_table() < 0)  /* a failed resize left none */
        return NULL;
    if (++tt_gen == 0) {  /* a new solve: the table's old entries are stale */
        memset(tt, 0, 2 * tt_size * sizeof(Entry));
        tt_gen = 1;
    }
    s.limit = limit;
    uint64_t legal = legal_cards(&s, to_move), reps = representatives(&s, legal);
    int64_t value[52], lo, hi;
    uint64_t left = 0;
    for (int p = 0; p < n; p++)
        left |= s.hands[p];
    for (int i = 0; i < s.len; i++)
        left |= 1ULL << s.card[i];
    value_range(&s, left, &lo, &hi);
    int64_t guess = 0;
    for (uint64_t m = reps; m; m &= m - 1) {
        int c = lowest(m);
        guess = value[c] = exact(&s, to_move, c, lo, hi, guess);
    }
    if (s.stopped)
        return Py_BuildValue("(OL)", Py_None, s.nodes);
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
     "solve(me, to_move, hands, trick_no, broken, trick, direction[, limit]) -> ([(card, value), ...] or None, nodes)"},
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

/* _solve.use_bmi2(flag) -> whether BMI2 was in use: the portable bit extraction instead of
 * the processor's (False) or back (True, where the processor has it); for tests. */
static PyObject *use_bmi2(PyObject *self, PyObject *arg)
{
    int flag = PyObject_IsTrue(arg), was = has_bmi2;
    if (flag < 0)
        return NULL;
    has_bmi2 = 0;
#ifdef BMI2_BUILTINS
    has_bmi2 = flag && __builtin_cpu_supports("bmi2");
#endif
    return PyBool_FromLong(was);
}

/* _solve.table_bits(bits) -> the bits before: the transposition table holds 2^bits buckets
 * of two 64-byte entries (10..26; 19 at first: 64 MB); a new size empties it. */
static PyObject *table_bits(PyObject *self, PyObject *arg)
{
    long bits = PyLong_AsLong(arg), was = 0;
    if (bits == -1 && PyErr_Occurred())
        return NULL;
    if (bits < 10 || bits > 26) {
        PyErr_SetString(PyExc_ValueError, "table bits 10..26 expected");
        return NULL;
    }
    while (((size_t)1 << was) < tt_size)
        was++;
    if (((size_t)1 << bits) != tt_size) {
        PyMem_Free(tt_block);
        tt = NULL;
        tt_block = NULL;
        tt_size = (size_t)1 << bits;
        if (allocate_table() < 0)
            return NULL;
    }
    return PyLong_FromLong(was);
}

static PyMethodDef module_methods[] = {
    {"table_bits", table_bits, METH_O, "table_bits(bits) -> the bits before: the table's size, 2^bits buckets"},
    {"use_bmi2", use_bmi2, METH_O, "use_bmi2(flag) -> bool: the processor's bit extraction on or off (tests)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef solvemodule = {
    PyModuleDef_HEAD_INIT, "_solve", "The perfect-information solver of trick play.", -1, module_methods,
};

PyMODINIT_FUNC PyInit__solve(void)
{
    if (PyType_Ready(&TablesType) < 0)
        return NULL;
#ifdef BMI2_BUILTINS
    __builtin_cpu_init();
    has_bmi2 = __builtin_cpu_supports("bmi2");
#endif
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
