/* Batched deals as flat C structs (kierki_dsl.interpreter._vecflat): the fast path of
 * kierki_dsl/vecenv.py for the trick contracts whose every rule the plan lets C hold
 * (kierki_dsl/interpreter/flatdeals.py decides which, and builds the tables).
 *
 *   Flat   N deals of one contract: each deal a struct of ints and 52-bit masks (hands,
 *          passes, the trick, cards taken, scores), stepped for all N deals in one call from
 *          an int64 array of actions. The contract's tables are copied in once, for each
 *          trump a deal may be played in (a trump call's choices): the cards beating each
 *          card, the static points per trick and per card, what the legality programs are
 *          keyed on; with a call, its caller by dealer. What the rules compute once a trick or once a deal (a
 *          trick's legality programs, the first lead, end-of-deal seat scoring) is memoised in
 *          C on what the plan says they read, and asked of Python only the first time a key
 *          is met (the interpreter's own code answers): a warm batch calls no Python at all.
 *          Observation tensors, legal masks, seats on turn, rewards and ends are written into
 *          numpy arrays the batch holds from its start (buffer protocol); a tensor row is
 *          updated in place from the last decision (only what changed), rewritten whole when
 *          a deal starts or the rows are stale. A deal that ends is dealt again at once from
 *          its own generator (_vecdeal.h), as _cstep.c's Batch deals.
 *
 * A rule error (a rule without fallback that leaves no card) or a score past the limit stops
 * the deal with Unworded(deal): the Python side replays the deal on the interpreter, which
 * raises its located error. No text about any game is in this file.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_vecdeal.h"

#define MAXP 8
#define MAXTRICKS 52
#define MAXRULES 64
#define NSLOTS 9
#define SCORE_LIMIT 1000000000000LL
#define KSLOTS 4096 /* a power of two; a key memo is cleared when half full */
#define KEYB 192    /* key bytes: 1 + 52 + 8 x (1 + 16) at most */
#define DCLS 64     /* trick classes below this, with no played card in the key: a direct table */

enum { PH_PASS = 0, PH_PLAY = 1, PH_CALL = 3 };
#define PASSED 0x100 /* with a seat: the seat made the last pass and play begins */
#define MAXTRUMPS 5 /* a call's choices: the four suits and no trumps */
enum { LEAD = 0, FOLLOW = 1, DISCARD = 2 };
enum { O_SEAT, O_PHASE, O_CONTRACT, O_DEALER, O_HAND, O_PLAYED, O_TRICK, O_LED, O_TRUMP, O_CALLER, O_SCORES,
       O_TOTALS, O_SIZES, NOFF };

static const uint64_t SUIT[4] = {0x1FFFULL, 0x1FFFULL << 13, 0x1FFFULL << 26, 0x1FFFULL << 39};
#define HEARTS_MASK (SUIT[1])
#define DECK52 ((1ULL << 52) - 1)

static PyObject *Unworded; /* RuntimeError subclass: args (deal,) */

/* What runs at every decision is inlined into the loop over the deals; what runs once per key
 * or on an error is kept out of it. */
#if defined(__GNUC__)
#define HOT static inline __attribute__((always_inline))
#define COLD static __attribute__((noinline, cold))
#else
#define HOT static inline
#define COLD static
#endif

/* The processor's popcount instruction where it has one (checked once, at import): a random
 * player counts each deal's legal actions at every decision. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define POPCNT_TARGET __attribute__((target("popcnt")))
static int cpu_popcnt(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt") != 0;
}
#else
#define POPCNT_TARGET
static int cpu_popcnt(void) { return 0; }
#endif
static int have_popcnt;

/* 32-byte moves (AVX2) for the rows written at every decision, where the processor has them
 * (checked once, at import): the stepping loop is compiled a second time with them, the same
 * bytes written. */
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define WIDE 1
#define WIDE_TARGET __attribute__((target("avx2")))
static int cpu_wide(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
}
#else
#define WIDE 0
static int cpu_wide(void) { return 0; }
#endif
static int have_wide;

/* The k-th legal card found by the processor's bit deposit (BMI2's pdep) rather than a loop
 * over the cards below it, where the processor has it (checked once, at import): a random
 * player picks one at every decision. Not on AMD's Zen 1 and 2, whose pdep is microcoded (slow
 * for a mask of many bits): the loop is quicker there. */
#if WIDE
#define DEPOSIT_TARGET __attribute__((target("popcnt,bmi2")))
static int cpu_deposit(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt") && !__builtin_cpu_is("znver1")
           && !__builtin_cpu_is("znver2");
}
#else
static int cpu_deposit(void) { return 0; }
#endif
static int have_deposit;

/* ------------------------------------------------------------ memos -- */

typedef struct {
    uint64_t keep;
    int fallback;
} Rule;

typedef struct {
    int at, n, ready; /* rules pool[at .. at + n); ready once asked */
} Slot;

typedef struct {
    int cls, br, t;
    uint64_t seen;
    Slot slot[NSLOTS];
} Progs; /* a trick situation's programs: lead, follow x 4 suits, discard x 4 suits */

typedef struct {
    int used, len;
    unsigned char key[KEYB];
    int64_t v[MAXP];
} KEntry;

typedef struct {
    KEntry *t;
    int count;
} KMemo;

static uint64_t key_hash(const unsigned char *k, int len)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < len; i++)
        h = (h ^ k[i]) * 1099511628211ULL;
    return h;
}

/* The entry of key k in m: found (*found set) or the empty slot to fill (the memo cleared
 * first when half full). */
static KEntry *kmemo_at(KMemo *m, const unsigned char *k, int len, int *found)
{
    uint64_t h = key_hash(k, len);
    int at = (int)(h >> 40) & (KSLOTS - 1);
    for (KEntry *e = &m->t[at]; e->used; e = &m->t[at = (at + 1) & (KSLOTS - 1)])
        if (e->len == len && memcmp(e->key, k, len) == 0) {
            *found = 1;
            return e;
        }
    *found = 0;
    if (m->count >= KSLOTS / 2) {
        memset(m->t, 0, sizeof(KEntry) * KSLOTS);
        m->count = 0;
        at = (int)(h >> 40) & (KSLOTS - 1);
    }
    KEntry *e = &m->t[at];
    e->used = 1;
    e->len = len;
    memcpy(e->key, k, len);
    m->count++;
    return e;
}

/* ------------------------------------------------------------ a deal -- */

typedef struct {
    /* what every decision reads and writes first (a few cache lines per deal) */
    uint64_t hands[MAXP], legal, played, prng; /* prng: the deal's random players' generator */
    int phase, to_move, trick_no, led, win, win_seat, trick_len, broken, progs, failed, nacts;
    int t;      /* the trump's index (-1: still to call) */
    int passed; /* the cards the seat passing has passed so far */
    unsigned char *acts; /* every action of the deal, in order (a replay names an error) */
    int trick_seat[MAXP], trick_card[MAXP];
    /* what a trick's end, the passing, a call or a new deal reads */
    uint64_t passes[MAXP], taken[MAXP], dealt[MAXP], early[MAXP];
    int64_t scores[MAXP];
    int won[MAXP];
    int first, dealer, caller; /* the caller: -1 none */
    uint64_t rng;              /* the deal's generator */
} Deal;

typedef struct {
    PyObject_HEAD
    int n, players, tricks, follow_suit, ncards, first_dealer, step, pass_count, pass_step;
    int next[MAXP], dealer_of[MAXP], lead_of[MAXP];
    unsigned char cards[52];
    /* by trump index: the trump suit (-1 none), the cards beating each card, the points */
    int ntrumps, trump[MAXTRUMPS];
    uint64_t beats[MAXTRUMPS][52];
    int64_t trick_points[MAXTRUMPS][MAXTRICKS + 2];
    int64_t *values; /* ntrumps x (tricks + 2) x 52 */
    /* a trump call: its actions, the trump index of each action, the caller by dealer, the
     * cards each seat sees before it (-1: no call) */
    uint64_t calls;
    int call_of[64], caller_of[MAXP], after;
    /* the legality programs, keyed as the kernel's key(): class of the trick number, hearts
     * broken (where read), the counted played cards */
    int cls[MAXTRICKS + 2], broken_read;
    uint64_t seen;
    Progs *progs;
    int nprogs, maxprogs, *index, icap;
    int direct_ok, direct[DCLS * 2 * MAXTRUMPS]; /* by (class, broken, trump): programs, -1 unknown */
    Rule *pool;
    int npool, cappool;
    /* the first lead (where lead_of does not say it) and seat scoring, keyed */
    int lead_dealer, lead_caller, seats, seat_dealer, seat_won, natoms;
    uint64_t lead_holders, atoms[16];
    KMemo lead_memo, seat_memo;
    PyObject *program_cb, *lead_cb, *seat_cb;
    /* the outputs */
    int off[NOFF], obs_size, num_actions, phase_pass, phase_play, phase_call, contract, fresh, acap;
    Py_buffer obs, mask, player, rewards, done;
    int *ended, nended; /* the deals whose rewards and end are set (zeroed at the next step) */
    int failed;         /* a deal stopped on an error since the last reset */
    Deal *deals;
} Flat;

COLD int fail(Flat *f, Deal *d)
{
    d->failed = f->failed = 1;
    if (!PyErr_Occurred()) {
        PyObject *at = PyLong_FromLong((long)(d - f->deals));
        if (at != NULL) {
            PyErr_SetObject(Unworded, at);
            Py_DECREF(at);
        }
    }
    return -1;
}

/* at_trick where the direct table does not answer: the programs found by hashing the key, or
 * made with empty slots. */
COLD int find_trick(Flat *f, Deal *d)
{
    int cls = f->cls[d->trick_no], br = f->broken_read && d->broken, t = d->t;
    int *direct = f->direct_ok ? &f->direct[(cls * 2 + br) * MAXTRUMPS + t] : NULL;
    uint64_t seen = d->played & f->seen;
    uint64_t h = (seen * 0x9E3779B97F4A7C15ULL) ^ ((uint64_t)cls << 4 | (uint64_t)t << 1 | (uint64_t)br) * 0xC2B2AE3D27D4EB4FULL;
    int mask = f->icap - 1, at = (int)(h >> 40) & mask;
    for (int k; (k = f->index[at]) >= 0; at = (at + 1) & mask) {
        const Progs *p = &f->progs[k];
        if (p->cls == cls && p->br == br && p->t == t && p->seen == seen) {
            d->progs = k;
            if (direct != NULL)
                *direct = k;
            return 0;
        }
    }
    if (f->nprogs >= f->maxprogs) {
        PyErr_SetString(PyExc_RuntimeError, "more trick situations than the plan's key allows");
        return fail(f, d);
    }
    Progs *p = &f->progs[f->nprogs];
    memset(p, 0, sizeof *p);
    p->cls = cls;
    p->br = br;
    p->t = t;
    p->seen = seen;
    f->index[at] = d->progs = f->nprogs++;
    if (direct != NULL)
        *direct = d->progs;
    return 0;
}

/* The index of the programs of deal d's trick into d->progs: from the direct table where it
 * knows them (inline), else found or made (find_trick). */
HOT int at_trick(Flat *f, Deal *d)
{
    if (f->direct_ok) {
        int k = f->direct[(f->cls[d->trick_no] * 2 + (f->broken_read && d->broken)) * MAXTRUMPS + d->t];
        if (k >= 0) {
            d->progs = k;
            return 0;
        }
    }
    return find_trick(f, d);
}

/* Fill a slot of the deal's programs: program(trump index, phase, led, number, broken, played)
 * gives the rules as (keep mask, fallback) pairs. */
COLD int fill_slot(Flat *f, Deal *d, int phase, int led, Slot *slot)
{
    PyObject *r = PyObject_CallFunction(f->program_cb, "iiiiiK", d->t, phase, led, d->trick_no, d->broken,
                                        (unsigned long long)d->played);
    if (r == NULL)
        return fail(f, d);
    PyObject *fast = PySequence_Fast(r, "program");
    Py_DECREF(r);
    if (fast == NULL)
        return fail(f, d);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAXRULES) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many rules in one program");
        return fail(f, d);
    }
    if (f->npool + n > f->cappool) {
        int cap = 2 * f->cappool + (int)n;
        Rule *pool = PyMem_Realloc(f->pool, sizeof(Rule) * cap);
        if (pool == NULL) {
            Py_DECREF(fast);
            PyErr_NoMemory();
            return fail(f, d);
        }
        f->pool = pool;
        f->cappool = cap;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long keep;
        int fb;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "Kp", &keep, &fb)) {
            Py_DECREF(fast);
            return fail(f, d);
        }
        f->pool[f->npool + i].keep = keep;
        f->pool[f->npool + i].fallback = fb;
    }
    Py_DECREF(fast);
    slot->at = f->npool;
    slot->n = (int)n;
    slot->ready = 1;
    f->npool += (int)n;
    return 0;
}

/* The legal actions of the seat on turn into d->legal (Legality.legal in play). */
HOT int legal(Flat *f, Deal *d)
{
    uint64_t hand = d->hands[d->to_move];
    if (d->phase != PH_PLAY) {
        d->legal = d->phase == PH_PASS ? hand & ~d->passes[d->to_move] : f->calls;
        return 0;
    }
    int phase = LEAD, led = d->led, s = 0;
    uint64_t m = hand;
    if (led >= 0) {
        uint64_t suited = hand & SUIT[led];
        phase = suited ? FOLLOW : DISCARD;
        s = (suited ? 1 : 5) + led;
        if (suited && f->follow_suit)
            m = suited;
    }
    Slot *slot = &f->progs[d->progs].slot[s];
    if (!slot->ready && fill_slot(f, d, phase, led < 0 ? 0 : led, slot) < 0)
        return -1;
    for (const Rule *r = f->pool + slot->at, *end = r + slot->n; r < end; r++) {
        uint64_t k = m & r->keep;
        if (k || !r->fallback) {
            if (!k && m)
                return fail(f, d); /* the interpreter words the rule's error */
            m = k;
        }
    }
    d->legal = m;
    return 0;
}

/* A tuple of `players` hands (card masks) as Python ints; NULL with an exception set. */
COLD PyObject *hands_tuple(const uint64_t *hands, int players)
{
    PyObject *t = PyTuple_New(players);
    for (int s = 0; t != NULL && s < players; s++) {
        PyObject *v = PyLong_FromUnsignedLongLong(hands[s]);
        if (v == NULL)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, s, v);
    }
    return t;
}

/* The seat holding each card of `holders`, the dealer: the first lead's key (or its memo's). */
COLD int lead_seat(Flat *f, Deal *d, int *out)
{
    if (f->lead_of[d->dealer] >= 0) {
        *out = f->lead_of[d->dealer];
        return 0;
    }
    unsigned char k[KEYB];
    int len = 0, found;
    if (f->lead_dealer)
        k[len++] = (unsigned char)d->dealer;
    if (f->lead_caller)
        k[len++] = (unsigned char)(d->caller + 1);
    for (uint64_t h = f->lead_holders; h; h &= h - 1) {
        int card = __builtin_ctzll(h), who = 255;
        for (int s = 0; s < f->players; s++)
            if (d->hands[s] >> card & 1)
                who = s;
        k[len++] = (unsigned char)who;
    }
    KEntry *e = kmemo_at(&f->lead_memo, k, len, &found);
    if (!found) {
        PyObject *hands = hands_tuple(d->hands, f->players);
        PyObject *r = hands == NULL ? NULL : PyObject_CallFunction(f->lead_cb, "iiO", d->dealer, d->caller, hands);
        Py_XDECREF(hands);
        long seat = r == NULL ? -1 : PyLong_AsLong(r);
        Py_XDECREF(r);
        if (seat < 0 || seat >= f->players) {
            e->used = 0; /* the slot stays empty (the memo's count errs high: harmless) */
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "the first lead: a seat expected");
            return fail(f, d);
        }
        e->v[0] = seat;
    }
    *out = (int)e->v[0];
    return 0;
}

/* Play starts (after any passing and trump call): the first leader leads trick 1. */
static int start_play(Flat *f, Deal *d)
{
    int seat;
    if (lead_seat(f, d, &seat) < 0)
        return -1;
    d->phase = PH_PLAY;
    d->to_move = seat;
    return at_trick(f, d);
}

/* Seat scoring at the deal's end, keyed on the dealer, tricks won and taken cards counted. */
COLD int seat_scoring(Flat *f, Deal *d)
{
    unsigned char k[KEYB];
    int len = 0, found, p = f->players;
    if (f->seat_dealer)
        k[len++] = (unsigned char)d->dealer;
    for (int s = 0; s < p; s++) {
        if (f->seat_won)
            k[len++] = (unsigned char)d->won[s];
        for (int a = 0; a < f->natoms; a++)
            k[len++] = (unsigned char)vd_pc64(d->taken[s] & f->atoms[a]);
    }
    KEntry *e = kmemo_at(&f->seat_memo, k, len, &found);
    if (!found) {
        PyObject *won = PyTuple_New(p), *taken = PyTuple_New(p);
        for (int s = 0; won != NULL && taken != NULL && s < p; s++) {
            PyTuple_SET_ITEM(won, s, PyLong_FromLong(d->won[s]));
            PyTuple_SET_ITEM(taken, s, PyLong_FromUnsignedLongLong(d->taken[s]));
        }
        PyObject *r = NULL;
        if (won != NULL && taken != NULL && !PyErr_Occurred())
            r = PyObject_CallFunction(f->seat_cb, "iOO", d->dealer, won, taken);
        Py_XDECREF(won);
        Py_XDECREF(taken);
        PyObject *fast = r == NULL ? NULL : PySequence_Fast(r, "seat scoring");
        Py_XDECREF(r);
        int err = fast == NULL || PySequence_Fast_GET_SIZE(fast) != p;
        for (int s = 0; !err && s < p; s++) {
            e->v[s] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, s));
            err = (e->v[s] == -1 && PyErr_Occurred()) || e->v[s] > SCORE_LIMIT || e->v[s] < -SCORE_LIMIT;
        }
        Py_XDECREF(fast);
        if (err) {
            e->used = 0;
            return fail(f, d);
        }
    }
    for (int s = 0; s < p; s++) {
        int64_t v = d->scores[s] + e->v[s]; /* both within the limit: no overflow */
        if (v > SCORE_LIMIT || v < -SCORE_LIMIT)
            return fail(f, d);
        d->scores[s] = v;
    }
    return 0;
}

/* What follows any passing: a trump call by the caller, or play. */
static int begin(Flat *f, Deal *d)
{
    if (f->after < 0)
        return start_play(f, d);
    d->phase = PH_CALL;
    d->to_move = f->caller_of[d->dealer];
    return 0;
}

/* ------------------------------------------------------------ playing -- */

static void exchange(Flat *f, Deal *d)
{
    int n = f->players;
    uint64_t kept[MAXP];
    for (int s = 0; s < n; s++)
        kept[s] = d->hands[s] & ~d->passes[s];
    for (int s = 0; s < n; s++) {
        int from = (((s - f->pass_step) % n) + n) % n;
        d->hands[s] = kept[s] | d->passes[from];
    }
}

/* Returns 1 when the deal is over, 0 if not, -1 on error. */
static int pass_card(Flat *f, Deal *d, int card)
{
    int seat = d->to_move;
    d->passes[seat] |= 1ULL << card;
    if (++d->passed < f->pass_count)
        return 0;
    d->passed = 0;
    if (d->nacts < f->pass_count * f->players) {
        d->to_move = f->next[seat];
        return 0;
    }
    exchange(f, d);
    return begin(f, d);
}

static int finish_trick(Flat *f, Deal *d)
{
    int n = d->trick_no, winner = d->win_seat;
    const int64_t *value = f->values + 52 * ((Py_ssize_t)d->t * (f->tricks + 2) + n);
    int64_t pts = f->trick_points[d->t][n], score;
    uint64_t tm = 0;
    for (int i = 0; i < f->players; i++) {
        int c = d->trick_card[i];
        tm |= 1ULL << c;
        pts += value[c]; /* each within the limit, at most 8 of them: no overflow */
    }
    if (__builtin_add_overflow(d->scores[winner], pts, &score) || score > SCORE_LIMIT || score < -SCORE_LIMIT)
        return fail(f, d);
    d->scores[winner] = score;
    d->taken[winner] |= tm;
    d->won[winner] += 1;
    d->played |= tm;
    if (tm & HEARTS_MASK)
        d->broken = 1;
    d->trick_len = 0;
    d->led = d->win = -1;
    d->trick_no = n + 1;
    d->to_move = winner;
    if (n + 1 <= f->tricks)
        return at_trick(f, d);
    if (f->seats && seat_scoring(f, d) < 0)
        return -1;
    return 1;
}

HOT int play_card(Flat *f, Deal *d, int card)
{
    int seat = d->to_move;
    d->hands[seat] &= ~(1ULL << card);
    if (d->trick_len == 0) {
        d->led = card / 13;
        d->win = card;
        d->win_seat = seat;
    } else if (f->beats[d->t][d->win] >> card & 1) {
        d->win = card;
        d->win_seat = seat;
    }
    d->trick_seat[d->trick_len] = seat;
    d->trick_card[d->trick_len++] = card;
    if (d->trick_len < f->players) {
        d->to_move = f->next[seat];
        return 0;
    }
    return finish_trick(f, d);
}

/* A new deal of deal i from its generator: dealt, passing or play begun, its legal actions. */
COLD int deal_again(Flat *f, Deal *d)
{
    int p = f->players;
    d->dealer = vd_deal(&d->rng, f->cards, f->ncards, p, f->first_dealer, f->dealer_of, f->step, f->after, d->dealt,
                        d->early, &d->first);
    for (int s = 0; s < p; s++) { /* the seats past `players` stay 0 (the deals are zeroed at the start) */
        d->hands[s] = d->dealt[s];
        d->passes[s] = d->taken[s] = 0;
        d->scores[s] = 0;
        d->won[s] = 0;
    }
    d->played = 0;
    d->trick_no = 1;
    d->led = d->win = -1;
    d->trick_len = d->broken = d->nacts = d->failed = d->passed = 0;
    d->t = f->after < 0 ? 0 : -1;
    d->caller = -1;
    if (f->pass_step) {
        d->phase = PH_PASS;
        d->to_move = f->next[d->dealer];
    } else if (begin(f, d) < 0) {
        return -1;
    }
    return legal(f, d);
}

/* ------------------------------------------------------------ observing -- */

static float BYTE_BITS[256][8] __attribute__((aligned(32)));
static uint64_t BYTE_FLAGS[256];

/* 52 floats of a card mask, 8 at a time from a byte's table row (unrolled). */
#if WIDE
/* put_cards with 32-byte moves of the same table rows. */
WIDE_TARGET static inline void put_cards_wide(float *dst, uint64_t m)
{
    _mm256_storeu_ps(dst, _mm256_load_ps(BYTE_BITS[m & 0xFF]));
    _mm256_storeu_ps(dst + 8, _mm256_load_ps(BYTE_BITS[(m >> 8) & 0xFF]));
    _mm256_storeu_ps(dst + 16, _mm256_load_ps(BYTE_BITS[(m >> 16) & 0xFF]));
    _mm256_storeu_ps(dst + 24, _mm256_load_ps(BYTE_BITS[(m >> 24) & 0xFF]));
    _mm256_storeu_ps(dst + 32, _mm256_load_ps(BYTE_BITS[(m >> 32) & 0xFF]));
    _mm256_storeu_ps(dst + 40, _mm256_load_ps(BYTE_BITS[(m >> 40) & 0xFF]));
    _mm_storeu_ps(dst + 48, _mm_load_ps(BYTE_BITS[(m >> 48) & 0x0F]));
}

/* put_flags by SIMD: each byte of m spread over 8 bytes, one bit of it kept in each, 0/1. */
WIDE_TARGET static inline void put_flags_wide(unsigned char *row, uint64_t m)
{
    const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3,
                                            3, 3, 3, 3, 3, 3, 3);
    const __m256i bits = _mm256_set1_epi64x((long long)0x8040201008040201ULL), one = _mm256_set1_epi8(1);
    __m256i lo = _mm256_shuffle_epi8(_mm256_set1_epi32((int)(uint32_t)m), spread);
    __m256i hi = _mm256_shuffle_epi8(_mm256_set1_epi32((int)(uint32_t)(m >> 32)), spread);
    _mm256_storeu_si256((__m256i *)row, _mm256_min_epu8(_mm256_and_si256(lo, bits), one));
    _mm256_storeu_si256((__m256i *)(row + 32), _mm256_min_epu8(_mm256_and_si256(hi, bits), one));
}
#else
#define put_cards_wide put_cards
#define put_flags_wide put_flags
#endif

HOT void put_cards(float *dst, uint64_t m)
{
    memcpy(dst, BYTE_BITS[m & 0xFF], sizeof(float) * 8);
    memcpy(dst + 8, BYTE_BITS[(m >> 8) & 0xFF], sizeof(float) * 8);
    memcpy(dst + 16, BYTE_BITS[(m >> 16) & 0xFF], sizeof(float) * 8);
    memcpy(dst + 24, BYTE_BITS[(m >> 24) & 0xFF], sizeof(float) * 8);
    memcpy(dst + 32, BYTE_BITS[(m >> 32) & 0xFF], sizeof(float) * 8);
    memcpy(dst + 40, BYTE_BITS[(m >> 40) & 0xFF], sizeof(float) * 8);
    memcpy(dst + 48, BYTE_BITS[(m >> 48) & 0x0F], sizeof(float) * 4);
}

/* 64 bytes of a mask row, 0 or 1 by the bits of m, 8 at a time from a byte's table row. */
HOT void put_flags(unsigned char *row, uint64_t m)
{
    memcpy(row, &BYTE_FLAGS[m & 0xFF], 8);
    memcpy(row + 8, &BYTE_FLAGS[(m >> 8) & 0xFF], 8);
    memcpy(row + 16, &BYTE_FLAGS[(m >> 16) & 0xFF], 8);
    memcpy(row + 24, &BYTE_FLAGS[(m >> 24) & 0xFF], 8);
    memcpy(row + 32, &BYTE_FLAGS[(m >> 32) & 0xFF], 8);
    memcpy(row + 40, &BYTE_FLAGS[(m >> 40) & 0xFF], 8);
    memcpy(row + 48, &BYTE_FLAGS[(m >> 48) & 0xFF], 8);
    memcpy(row + 56, &BYTE_FLAGS[m >> 56], 8);
}

HOT uint64_t shown_hand(const Deal *d)
{
    uint64_t h = d->hands[d->to_move];
    if (d->phase == PH_CALL) /* the caller sees his first cards only */
        return d->early[d->to_move];
    return d->phase == PH_PASS ? h & ~d->passes[d->to_move] : h;
}

/* The whole observation tensor of the seat on turn (knowledge.fill_tensor's parts). */
static void observe_whole(const Flat *f, const Deal *d, float *o)
{
    const int *off = f->off;
    int p = f->players;
    memset(o, 0, sizeof(float) * f->obs_size);
    o[off[O_SEAT] + d->to_move] = 1.0f;
    o[off[O_PHASE] + (d->phase == PH_PASS ? f->phase_pass : d->phase == PH_CALL ? f->phase_call : f->phase_play)] = 1.0f;
    o[off[O_CONTRACT] + f->contract] = 1.0f;
    o[off[O_DEALER] + d->dealer] = 1.0f;
    put_cards(o + off[O_HAND], shown_hand(d));
    put_cards(o + off[O_PLAYED], d->played);
    for (int k = 0; k < d->trick_len; k++)
        o[off[O_TRICK] + 52 * d->trick_seat[k] + d->trick_card[k]] = 1.0f;
    o[off[O_LED] + d->led + 1] = 1.0f;
    o[off[O_TRUMP] + (d->t < 0 ? -1 : f->trump[d->t]) + 1] = 1.0f;
    int caller = d->phase == PH_CALL ? d->to_move : d->caller;
    if (caller >= 0)
        o[off[O_CALLER] + caller] = 1.0f;
    for (int t = 0; t < p; t++) {
        o[off[O_SCORES] + t] = (float)d->scores[t];
        o[off[O_SIZES] + t] = (float)vd_pc64(d->hands[t]);
    }
}

/* The tensor after one card or pass of `seat` in the same deal and phase, or after the last
 * pass when play follows (seat | PASSED): only what changed. */
HOT void observe_change(const Flat *f, const Deal *d, int seat, float *o, int wide)
{
    const int *off = f->off;
    int passed = seat & PASSED;
    seat &= ~PASSED;
    o[off[O_SEAT] + seat] = 0.0f;
    o[off[O_SEAT] + d->to_move] = 1.0f;
    if (wide)
        put_cards_wide(o + off[O_HAND], shown_hand(d));
    else
        put_cards(o + off[O_HAND], shown_hand(d));
    if (passed) { /* hands exchanged, same sizes; nothing played yet */
        o[off[O_PHASE] + f->phase_pass] = 0.0f;
        o[off[O_PHASE] + f->phase_play] = 1.0f;
        return;
    }
    if (d->phase == PH_PASS)
        return;
    o[off[O_SIZES] + seat] -= 1.0f; /* a card left the seat's hand (small ints: exact in a float) */
    if (d->trick_len > 0) { /* the card just played joins the trick */
        int k = d->trick_len - 1;
        o[off[O_TRICK] + 52 * seat + d->trick_card[k]] = 1.0f;
        if (k == 0) {
            o[off[O_LED]] = 0.0f;
            o[off[O_LED] + d->led + 1] = 1.0f;
        }
        return;
    }
    /* the trick was taken: its cards leave the trick for the cards played */
    for (int k = 0; k < f->players; k++) {
        if (k < f->players - 1)
            o[off[O_TRICK] + 52 * d->trick_seat[k] + d->trick_card[k]] = 0.0f;
        o[off[O_PLAYED] + d->trick_card[k]] = 1.0f;
    }
    o[off[O_LED] + d->trick_card[0] / 13 + 1] = 0.0f;
    o[off[O_LED]] = 1.0f;
    o[off[O_SCORES] + d->to_move] = (float)d->scores[d->to_move]; /* the trick's winner, on turn */
}

/* Deal i's (d's) mask row and seat; its tensor row when `tensors` (whole, or changed since `seat`
 * acted when seat >= 0). */
HOT void observe_row(Flat *f, const Deal *d, int i, int tensors, int seat, int wide)
{
    /* the tensor first, the mask row last: a byte store may alias anything, so what is read
     * after it is read again */
    if (tensors) {
        float *o = (float *)f->obs.buf + (Py_ssize_t)i * f->obs_size;
        if (seat >= 0)
            observe_change(f, d, seat, o, wide);
        else
            observe_whole(f, d, o);
    }
    ((int64_t *)f->player.buf)[i] = d->to_move;
    unsigned char *row = (unsigned char *)f->mask.buf + (Py_ssize_t)i * f->num_actions;
    if (wide) /* actions 0..63; the rest stay 0 */
        put_flags_wide(row, d->legal);
    else
        put_flags(row, d->legal);
}

/* Apply a legal action to deal i (d); a deal that ends adds its scores to rewards, is marked done
 * and dealt again. Returns the seat that acted when the tensor may be updated in place (with
 * PASSED when its pass ended the passing and play begins), -1 when it must be written whole,
 * -2 on error. */
HOT int apply(Flat *f, Deal *d, int i, int action)
{
    int seat = d->to_move, phase = d->phase, r;
    if (d->nacts < f->acap)
        d->acts[d->nacts++] = (unsigned char)action;
    if (phase == PH_CALL) { /* the trump called: its tables from now on */
        d->t = f->call_of[action];
        d->caller = seat;
        r = start_play(f, d);
    } else {
        r = phase == PH_PASS ? pass_card(f, d, action) : play_card(f, d, action);
    }
    if (r < 0)
        return -2;
    if (r == 1) {
        float *rw = (float *)f->rewards.buf + (Py_ssize_t)i * f->players;
        for (int s = 0; s < f->players; s++)
            rw[s] += (float)d->scores[s];
        unsigned char *done = (unsigned char *)f->done.buf + i;
        if (!*done)
            f->ended[f->nended++] = i;
        *done = 1;
        return deal_again(f, d) < 0 ? -2 : -1;
    }
    if (legal(f, d) < 0)
        return -2;
    if (d->phase == phase)
        return seat;
    return phase == PH_PASS && d->phase == PH_PLAY ? seat | PASSED : -1;
}

/* ------------------------------------------------------------ the type -- */

static void Flat_dealloc(Flat *f)
{
    for (int i = 0; f->deals != NULL && i < f->n; i++)
        PyMem_Free(f->deals[i].acts);
    PyMem_Free(f->deals);
    PyMem_Free(f->ended);
    PyMem_Free(f->values);
    PyMem_Free(f->progs);
    PyMem_Free(f->index);
    PyMem_Free(f->pool);
    PyMem_Free(f->lead_memo.t);
    PyMem_Free(f->seat_memo.t);
    Py_XDECREF(f->program_cb);
    Py_XDECREF(f->lead_cb);
    Py_XDECREF(f->seat_cb);
    Py_buffer *views[] = {&f->obs, &f->mask, &f->player, &f->rewards, &f->done};
    for (int k = 0; k < 5; k++)
        if (views[k]->obj != NULL)
            PyBuffer_Release(views[k]);
    Py_TYPE(f)->tp_free((PyObject *)f);
}

/* n ints of a sequence into out (as int64), each in [lo, hi]. */
static int ints_in(PyObject *seq, int64_t *out, Py_ssize_t n, int64_t lo, int64_t hi, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL)
        return -1;
    int err = PySequence_Fast_GET_SIZE(fast) != n;
    for (Py_ssize_t i = 0; !err && i < n; i++) {
        out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        err = (out[i] == -1 && PyErr_Occurred()) || out[i] < lo || out[i] > hi;
    }
    Py_DECREF(fast);
    if (err && !PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "%s: %zd values in range expected", what, n);
    return err ? -1 : 0;
}

/* n masks (non-negative ints below 2**64) of a sequence into out. */
static int masks_in(PyObject *seq, uint64_t *out, Py_ssize_t n, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL)
        return -1;
    int err = PySequence_Fast_GET_SIZE(fast) != n;
    for (Py_ssize_t i = 0; !err && i < n; i++) {
        out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        err = out[i] == (uint64_t)-1 && PyErr_Occurred();
    }
    Py_DECREF(fast);
    if (err && !PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "%s: %zd masks expected", what, n);
    return err ? -1 : 0;
}

/* A writable C-contiguous buffer of `count` items of `size` bytes, held by the batch. */
static int hold(PyObject *o, Py_buffer *view, Py_ssize_t count, Py_ssize_t size, const char *what)
{
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (view->len != count * size || view->itemsize != size) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items of %zd bytes expected", what, count, size);
        PyBuffer_Release(view);
        view->obj = NULL;
        return -1;
    }
    return 0;
}

/* The k-th item of a sequence of n items (a new reference; NULL and an error if it is not). */
static PyObject *item_of(PyObject *seq, Py_ssize_t n, Py_ssize_t k, const char *what)
{
    if (!PySequence_Check(seq) || PySequence_Size(seq) != n) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "%s: %zd entries expected", what, n);
        return NULL;
    }
    return PySequence_GetItem(seq, k);
}

/* Trump t's tables: its 52 beating masks, its trick points and its values rows. */
static int trump_tables(Flat *f, int t, PyObject *beats, PyObject *tp, PyObject *values)
{
    int rows = f->tricks + 2, err;
    PyObject *b = item_of(beats, f->ntrumps, t, "beats"), *q = item_of(tp, f->ntrumps, t, "trick points");
    PyObject *v = item_of(values, f->ntrumps, t, "values");
    err = b == NULL || q == NULL || v == NULL || masks_in(b, f->beats[t], 52, "beats") < 0
          || ints_in(q, f->trick_points[t], rows, -SCORE_LIMIT, SCORE_LIMIT, "trick points") < 0;
    for (int k = 0; !err && k < rows; k++) {
        PyObject *row = item_of(v, rows, k, "values");
        err = row == NULL
              || ints_in(row, f->values + 52 * ((Py_ssize_t)t * rows + k), 52, -SCORE_LIMIT, SCORE_LIMIT, "values") < 0;
        Py_XDECREF(row);
    }
    Py_XDECREF(b);
    Py_XDECREF(q);
    Py_XDECREF(v);
    return err ? -1 : 0;
}

/* Flat(n, players, tricks, follow_suit, deck, direction, first_dealer, dealer_of, pass_count,
 *      pass_step, trumps, beats, trick_points, values, classes, broken_read, seen, max_keys,
 *      lead_of, lead_dealer, lead_caller, lead_holders, seats, seat_dealer, seat_won, atoms,
 *      calls, call_of, caller_of, after, program, lead, seat, offsets, obs_size, num_actions,
 *      (phase_pass, phase_play, phase_call), contract, obs, mask, player, rewards, done):
 * beats, trick_points and values one entry per trump of `trumps`; calls the call actions
 * (a mask), call_of the trump index of each action (64), caller_of the caller by dealer,
 * after the cards a caller sees first (-1: no call) -- flatdeals.py builds it. */
static int Flat_init(Flat *f, PyObject *args, PyObject *kw)
{
    PyObject *dealer_of, *trumps, *beats, *tp, *values, *classes, *lead_of, *atoms, *call_of, *caller_of, *offsets;
    PyObject *program_cb, *lead_cb, *seat_cb, *obs, *mask, *player, *rewards, *done;
    unsigned long long deck, seen, holders, calls;
    int direction, max_keys;
    if (f->deals != NULL) {
        PyErr_SetString(PyExc_TypeError, "a batch is initialised once");
        return -1;
    }
    if (kw != NULL && PyDict_GET_SIZE(kw)) {
        PyErr_SetString(PyExc_TypeError, "Flat takes no keyword arguments");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "iiipKiiOiiOOOOOpKiOppKpppOKOOiOOOOii(iii)iOOOOO", &f->n, &f->players, &f->tricks,
                          &f->follow_suit, &deck, &direction, &f->first_dealer, &dealer_of, &f->pass_count,
                          &f->pass_step, &trumps, &beats, &tp, &values, &classes, &f->broken_read, &seen, &max_keys,
                          &lead_of, &f->lead_dealer, &f->lead_caller, &holders, &f->seats, &f->seat_dealer,
                          &f->seat_won, &atoms, &calls, &call_of, &caller_of, &f->after, &program_cb, &lead_cb,
                          &seat_cb, &offsets, &f->obs_size, &f->num_actions, &f->phase_pass, &f->phase_play,
                          &f->phase_call, &f->contract, &obs, &mask, &player, &rewards, &done))
        return -1;
    int p = f->players, rows = f->tricks + 2;
    if (f->n < 1 || f->n > (1 << 24) || p < 2 || p > MAXP || f->tricks < 1 || f->tricks > MAXTRICKS
        || (deck >> 52) || holders >> 52 || (calls >> 63) || f->first_dealer >= p || f->pass_count < 0
        || f->pass_count > 13 || f->pass_step <= -MAXP || f->pass_step >= MAXP || max_keys < 1 || max_keys > (1 << 16)
        || f->num_actions < 64 || f->obs_size < 1 || f->contract < 0 || f->phase_pass < 0 || f->phase_pass >= 7
        || f->phase_play < 0 || f->phase_play >= 7 || f->phase_call < 0 || f->phase_call >= 7 || direction <= -MAXP
        || direction >= MAXP || f->after < -1 || f->after > 52) {
        PyErr_SetString(PyExc_ValueError, "Flat: arguments out of range");
        return -1;
    }
    int64_t buf[MAXTRICKS + 2], suits[MAXTRUMPS], cof[64];
    Py_ssize_t nt = PySequence_Check(trumps) ? PySequence_Size(trumps) : -1;
    if (nt < 1 || nt > MAXTRUMPS) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "trumps: 1 to 5 expected");
        return -1;
    }
    f->ntrumps = (int)nt;
    if (ints_in(trumps, suits, nt, -1, 3, "trumps") < 0 || ints_in(call_of, cof, 64, -1, nt - 1, "call_of") < 0)
        return -1;
    for (int t = 0; t < f->ntrumps; t++)
        f->trump[t] = (int)suits[t];
    for (int a = 0; a < 64; a++) {
        f->call_of[a] = (int)cof[a];
        if ((calls >> a & 1) && cof[a] < 0) {
            PyErr_SetString(PyExc_ValueError, "call_of: a trump for each call action expected");
            return -1;
        }
    }
    f->calls = calls;
    if (ints_in(dealer_of, buf, p, 0, p - 1, "dealer_of") < 0)
        return -1;
    for (int s = 0; s < p; s++) {
        f->dealer_of[s] = (int)buf[s];
        f->next[s] = ((s + direction) % p + p) % p;
    }
    if (ints_in(caller_of, buf, p, 0, p - 1, "caller_of") < 0)
        return -1;
    for (int s = 0; s < p; s++)
        f->caller_of[s] = (int)buf[s];
    if (ints_in(lead_of, buf, p, -1, p - 1, "lead_of") < 0)
        return -1;
    for (int s = 0; s < p; s++)
        f->lead_of[s] = (int)buf[s];
    if (ints_in(classes, buf, rows, 0, 1 << 20, "classes") < 0)
        return -1;
    f->direct_ok = seen == 0;
    for (int k = 0; k < rows; k++) {
        f->cls[k] = (int)buf[k];
        f->direct_ok &= buf[k] < DCLS;
    }
    memset(f->direct, 0xFF, sizeof f->direct);
    PyObject *fa = PySequence_Fast(atoms, "atoms");
    if (fa == NULL)
        return -1;
    f->natoms = (int)PySequence_Fast_GET_SIZE(fa);
    Py_DECREF(fa);
    if (f->natoms > 16) {
        PyErr_SetString(PyExc_ValueError, "atoms: at most 16 expected");
        return -1;
    }
    if (masks_in(atoms, f->atoms, f->natoms, "atoms") < 0)
        return -1;
    int64_t off[NOFF];
    if (ints_in(offsets, off, NOFF, 0, f->obs_size, "offsets") < 0)
        return -1;
    int sizes[NOFF] = {p, 7, 1, p, 52, 52, 52 * p, 5, 5, p, p, p, p};
    for (int k = 0; k < NOFF; k++) {
        f->off[k] = (int)off[k];
        if (off[k] + sizes[k] > f->obs_size || (k == O_CONTRACT && off[k] + f->contract >= f->obs_size)) {
            PyErr_SetString(PyExc_ValueError, "offsets inside the tensor expected");
            return -1;
        }
    }
    f->values = PyMem_Calloc((size_t)f->ntrumps * rows * 52, sizeof(int64_t));
    if (f->values == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int t = 0; t < f->ntrumps; t++)
        if (trump_tables(f, t, beats, tp, values) < 0)
            return -1;
    f->seen = seen;
    f->lead_holders = holders;
    f->step = (direction % p + p) % p;
    f->ncards = 0;
    for (int c = 0; c < 52; c++)
        if (deck >> c & 1)
            f->cards[f->ncards++] = (unsigned char)c;
    if (f->ncards != p * f->tricks) {
        PyErr_SetString(PyExc_ValueError, "a deck of tricks x players cards expected");
        return -1;
    }
    f->maxprogs = max_keys;
    for (f->icap = 4; f->icap < 2 * max_keys; f->icap *= 2)
        ;
    f->progs = PyMem_Calloc(max_keys, sizeof(Progs));
    f->index = PyMem_Malloc(sizeof(int) * f->icap);
    f->lead_memo.t = PyMem_Calloc(KSLOTS, sizeof(KEntry));
    f->seat_memo.t = PyMem_Calloc(KSLOTS, sizeof(KEntry));
    f->deals = PyMem_Calloc(f->n, sizeof(Deal));
    f->ended = PyMem_Calloc(f->n, sizeof(int));
    if (!f->progs || !f->index || !f->lead_memo.t || !f->seat_memo.t || !f->deals || !f->ended) {
        PyErr_NoMemory();
        return -1;
    }
    memset(f->index, 0xFF, sizeof(int) * f->icap);
    f->acap = f->pass_count * p + f->ncards + 1; /* passes, a call, cards */
    for (int i = 0; i < f->n; i++)
        if ((f->deals[i].acts = PyMem_Malloc(f->acap)) == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    if (hold(obs, &f->obs, (Py_ssize_t)f->n * f->obs_size, 4, "obs") < 0
        || hold(mask, &f->mask, (Py_ssize_t)f->n * f->num_actions, 1, "mask") < 0
        || hold(player, &f->player, f->n, 8, "player") < 0
        || hold(rewards, &f->rewards, (Py_ssize_t)f->n * p, 4, "rewards") < 0 || hold(done, &f->done, f->n, 1, "done") < 0)
        return -1;
    f->program_cb = Py_NewRef(program_cb);
    f->lead_cb = Py_NewRef(lead_cb);
    f->seat_cb = Py_NewRef(seat_cb);
    return 0;
}

static int flat_ready(Flat *f)
{
    if (f->deals != NULL && f->seat_cb != NULL)
        return 1;
    PyErr_SetString(PyExc_RuntimeError, "the batch was not initialised");
    return 0;
}

/* The deals that may step: none stopped on an error. */
static int all_sound(Flat *f)
{
    for (int i = 0; f->failed && i < f->n; i++)
        if (f->deals[i].failed) {
            PyErr_Format(PyExc_RuntimeError, "deal %d stopped on an error in an earlier action: reset the batch", i);
            return 0;
        }
    return 1;
}

static void write_all(Flat *f, int tensors)
{
    for (int i = 0; i < f->n; i++)
        observe_row(f, &f->deals[i], i, tensors, -1, 0);
    if (tensors)
        f->fresh = 1;
}

/* reset(seed): deal i's generator seeded with seed + i (its random players' from the same),
 * every deal dealt; rewards and ends zeroed; every row written. */
static PyObject *Flat_reset(Flat *f, PyObject *arg)
{
    unsigned long long seed = PyLong_AsUnsignedLongLong(arg);
    if ((seed == (unsigned long long)-1 && PyErr_Occurred()) || !flat_ready(f))
        return NULL;
    memset(f->rewards.buf, 0, f->rewards.len);
    memset(f->done.buf, 0, f->done.len);
    f->nended = f->failed = 0;
    for (int i = 0; i < f->n; i++) {
        Deal *d = &f->deals[i];
        d->rng = seed + (unsigned long long)i;
        d->prng = d->rng ^ 0x5DEECE66DULL;
        if (deal_again(f, d) < 0)
            return NULL;
    }
    write_all(f, 1);
    Py_RETURN_NONE;
}

/* Every deal's (checked) action applied and its rows written: 0, or -1 on an error. */
HOT int step_deals(Flat *f, const int64_t *a, int tensors, int wide)
{
    int inplace = tensors && f->fresh;
    for (int i = 0; i < f->n; i++) {
        Deal *d = &f->deals[i];
        int seat = apply(f, d, i, (int)a[i]);
        if (seat == -2)
            return -1;
        observe_row(f, d, i, tensors, inplace ? seat : -1, wide);
    }
    return 0;
}

/* step_deals with the rows written by 32-byte moves (have_wide) or not. */
#if WIDE
WIDE_TARGET static int step_wide(Flat *f, const int64_t *a, int tensors) { return step_deals(f, a, tensors, 1); }
#endif
static int step_narrow(Flat *f, const int64_t *a, int tensors) { return step_deals(f, a, tensors, 0); }

/* step(actions, tensors): one int64 action per deal, each checked legal first (ValueError
 * naming the deal, nothing applied); rewards and ends overwritten; masks, seats and (with
 * `tensors`) the tensors written. */
static PyObject *Flat_step(Flat *f, PyObject *args)
{
    PyObject *acts;
    int tensors;
    if (!flat_ready(f) || !PyArg_ParseTuple(args, "Op", &acts, &tensors) || !all_sound(f))
        return NULL;
    Py_buffer va;
    if (PyObject_GetBuffer(acts, &va, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_SetString(PyExc_TypeError, "actions: an int64 array of one action per deal expected");
        return NULL;
    }
    PyObject *result = NULL;
    if (va.ndim != 1 || va.len != (Py_ssize_t)f->n * 8 || va.itemsize != 8 || va.format == NULL
        || (strcmp(va.format, "l") && strcmp(va.format, "q") && strcmp(va.format, "<q") && strcmp(va.format, "<l")
            && strcmp(va.format, "=q") && strcmp(va.format, "=l"))) {
        PyErr_SetString(PyExc_TypeError, "actions: an int64 array of one action per deal expected");
        goto done;
    }
    const int64_t *a = va.buf;
    for (int i = 0; i < f->n; i++)
        if (a[i] < 0 || a[i] >= 64 || !(f->deals[i].legal >> a[i] & 1)) {
            PyErr_Format(PyExc_ValueError, "deal %d: action %lld is not legal", i, (long long)a[i]);
            goto done;
        }
    for (int k = 0; k < f->nended; k++) { /* the last step's ends and rewards */
        int i = f->ended[k];
        memset((float *)f->rewards.buf + (Py_ssize_t)i * f->players, 0, sizeof(float) * f->players);
        ((unsigned char *)f->done.buf)[i] = 0;
    }
    f->nended = 0;
#if WIDE
    int stepped = have_wide ? step_wide(f, a, tensors) : step_narrow(f, a, tensors);
#else
    int stepped = step_narrow(f, a, tensors);
#endif
    if (stepped < 0) {
        f->fresh = 0;
        goto done;
    }
    f->fresh = tensors;
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&va);
    return result;
}

/* A uniformly random legal action of each deal into a, drawn from its random players'
 * generator (a deal with none: -1); draw_counted the same with the popcount instruction,
 * draw_deposited with it and the k-th legal card by bit deposit (the same draws). */
static void draw(Flat *f, int64_t *a)
{
    for (int i = 0; i < f->n; i++) {
        Deal *d = &f->deals[i];
        uint64_t m = d->legal;
        a[i] = m ? vd_kth(m, vd_below(&d->prng, vd_pc64(m))) : -1;
    }
}

POPCNT_TARGET static void draw_counted(Flat *f, int64_t *a)
{
    for (int i = 0; i < f->n; i++) {
        Deal *d = &f->deals[i];
        uint64_t m = d->legal;
        a[i] = m ? vd_kth(m, vd_below(&d->prng, __builtin_popcountll(m))) : -1;
    }
}

#if WIDE
DEPOSIT_TARGET static void draw_deposited(Flat *f, int64_t *a)
{
    for (int i = 0; i < f->n; i++) {
        Deal *d = &f->deals[i];
        uint64_t m = d->legal;
        a[i] = m ? __builtin_ctzll(_pdep_u64(1ULL << vd_below(&d->prng, __builtin_popcountll(m)), m)) : -1;
    }
}
#endif

/* random_actions(out): a uniformly random legal action of each deal (int64), drawn from the
 * deal's random players' generator. */
static PyObject *Flat_random_actions(Flat *f, PyObject *out)
{
    Py_buffer v;
    if (!flat_ready(f) || hold(out, &v, f->n, 8, "out") < 0)
        return NULL;
#if WIDE
    if (have_deposit)
        draw_deposited(f, v.buf);
    else
#endif
    if (have_popcnt)
        draw_counted(f, v.buf);
    else
        draw(f, v.buf);
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

/* autoplay(seat): every deal whose turn is not `seat`'s is played on at random until it is;
 * rewards and ends added to; every row written whole. */
static PyObject *Flat_autoplay(Flat *f, PyObject *arg)
{
    long seat = PyLong_AsLong(arg);
    if ((seat == -1 && PyErr_Occurred()) || !flat_ready(f) || !all_sound(f))
        return NULL;
    if (seat < 0 || seat >= f->players) {
        PyErr_SetString(PyExc_ValueError, "a seat expected");
        return NULL;
    }
    for (int i = 0; i < f->n; i++) {
        Deal *d = &f->deals[i];
        while (d->to_move != seat) {
            uint64_t m = d->legal;
            if (apply(f, d, i, vd_kth(m, vd_below(&d->prng, vd_pc64(m)))) == -2) {
                f->fresh = 0;
                return NULL;
            }
        }
    }
    write_all(f, 1);
    Py_RETURN_NONE;
}

/* observe(tensors): every row written whole (masks and seats; tensors when asked). */
static PyObject *Flat_observe(Flat *f, PyObject *arg)
{
    int tensors = PyObject_IsTrue(arg);
    if (tensors < 0 || !flat_ready(f))
        return NULL;
    write_all(f, tensors);
    Py_RETURN_NONE;
}

/* dealt(i): (first dealer, dealer, hands as dealt, the deal's actions so far as bytes). */
static PyObject *Flat_dealt(Flat *f, PyObject *arg)
{
    long i = PyLong_AsLong(arg);
    if ((i == -1 && PyErr_Occurred()) || !flat_ready(f))
        return NULL;
    if (i < 0 || i >= f->n) {
        PyErr_SetString(PyExc_IndexError, "no such deal");
        return NULL;
    }
    const Deal *d = &f->deals[i];
    PyObject *hands = hands_tuple(d->dealt, f->players);
    if (hands == NULL)
        return NULL;
    return Py_BuildValue("(iiNy#)", d->first, d->dealer, hands, (const char *)d->acts, (Py_ssize_t)d->nacts);
}

static PyObject *Flat_memos(Flat *f, PyObject *unused)
{
    if (!flat_ready(f))
        return NULL;
    return Py_BuildValue("(iii)", f->nprogs, f->lead_memo.count, f->seat_memo.count);
}

static PyMethodDef Flat_methods[] = {
    {"reset", (PyCFunction)Flat_reset, METH_O, "Seed deal i's generator with seed + i and deal every deal."},
    {"step", (PyCFunction)Flat_step, METH_VARARGS, "Apply one action per deal; rows, rewards and ends written."},
    {"random_actions", (PyCFunction)Flat_random_actions, METH_O, "A random legal action per deal."},
    {"autoplay", (PyCFunction)Flat_autoplay, METH_O, "Play at random until it is a seat's turn."},
    {"observe", (PyCFunction)Flat_observe, METH_O, "Write every row whole (tensors too when asked)."},
    {"dealt", (PyCFunction)Flat_dealt, METH_O, "A deal's first dealer, dealer, hands dealt and actions."},
    {"memos", (PyCFunction)Flat_memos, METH_NOARGS, "Keys held: (trick situations, first leads, seat scorings)."},
    {NULL},
};

static PyTypeObject FlatType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kierki_dsl.interpreter._vecflat.Flat",
    .tp_doc = "N deals of one contract as flat C structs, stepped at once (kierki_dsl/vecenv.py).",
    .tp_basicsize = sizeof(Flat),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Flat_init,
    .tp_dealloc = (destructor)Flat_dealloc,
    .tp_methods = Flat_methods,
};

/* deal(seed, count, cards, players, first_dealer, dealer_of, direction): the first `count`
 * deals of a generator seeded with `seed` as (first dealer, dealer, hands): _vecdeal.h's
 * dealing, checked against its Python reference (flatdeals.dealt). */
static PyObject *deals_of(PyObject *module, PyObject *args)
{
    unsigned long long seed, deck;
    int count, players, first, direction;
    PyObject *dealer_of;
    if (!PyArg_ParseTuple(args, "KiKiiOi", &seed, &count, &deck, &players, &first, &dealer_of, &direction))
        return NULL;
    if (count < 0 || count > 100000 || players < 1 || players > MAXP || first >= players || (deck >> 52)) {
        PyErr_SetString(PyExc_ValueError, "deals_of: arguments out of range");
        return NULL;
    }
    int64_t dof[MAXP];
    if (ints_in(dealer_of, dof, players, 0, players - 1, "dealer_of") < 0)
        return NULL;
    int dof_i[MAXP], ncards = 0;
    unsigned char cards[52];
    for (int s = 0; s < players; s++)
        dof_i[s] = (int)dof[s];
    for (int c = 0; c < 52; c++)
        if (deck >> c & 1)
            cards[ncards++] = (unsigned char)c;
    PyObject *out = PyList_New(count);
    uint64_t state = seed;
    for (int k = 0; out != NULL && k < count; k++) {
        uint64_t hands[MAXP];
        int got_first, dealer = vd_deal(&state, cards, ncards, players, first, dof_i,
                                        (direction % players + players) % players, -1, hands, NULL, &got_first);
        PyObject *h = PyTuple_New(players);
        for (int s = 0; h != NULL && s < players; s++)
            PyTuple_SET_ITEM(h, s, PyLong_FromUnsignedLongLong(hands[s]));
        PyObject *item = h == NULL || PyErr_Occurred() ? NULL : Py_BuildValue("(iiN)", got_first, dealer, h);
        if (item == NULL) {
            Py_XDECREF(h);
            Py_CLEAR(out);
        } else {
            PyList_SET_ITEM(out, k, item);
        }
    }
    return out;
}

static PyMethodDef module_methods[] = {
    {"deals_of", (PyCFunction)deals_of, METH_VARARGS, "The first deals of a seeded generator (_vecdeal.h)."},
    {NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_vecflat", "Batched deals as flat C structs (kierki_dsl/vecenv.py).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__vecflat(void)
{
    for (int v = 0; v < 256; v++)
        for (int k = 0; k < 8; k++) {
            BYTE_BITS[v][k] = (float)((v >> k) & 1);
            ((unsigned char *)&BYTE_FLAGS[v])[k] = (unsigned char)((v >> k) & 1);
        }
    have_popcnt = cpu_popcnt();
    have_wide = cpu_wide();
    have_deposit = cpu_deposit();
    if (PyType_Ready(&FlatType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Unworded = PyErr_NewException("kierki_dsl.interpreter._vecflat.Unworded", PyExc_RuntimeError, NULL);
    if (Unworded == NULL || PyModule_AddObjectRef(m, "Unworded", Unworded) < 0
        || PyModule_AddObjectRef(m, "Flat", (PyObject *)&FlatType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
