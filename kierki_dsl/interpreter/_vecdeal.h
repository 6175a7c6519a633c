/* The batched environment's draws (kierki_dsl/vecenv.py), shared by _cstep.c's vecenv block
 * (deals stepped on the step core) and _vecflat.c (deals stepped as flat structs), so that
 * both deal the same cards from the same seed.
 *
 * A deal's generator is splitmix64: each draw takes the top 32 bits of its next output and,
 * as the random-draw protocol says (interpreter/draws.py), keeps (bits * n) >> 32. A deal
 * draws the first dealer (when the ruleset leaves it to chance: a draw among the seats), then
 * shuffles the deck's cards, ascending, as draws.shuffled does (from the last place down,
 * place i swaps with a draw among i + 1), and gives the k-th card of the shuffle to the seat
 * dealer + direction * (1 + k), as a dealer deals round the table. The Python reference is
 * interpreter/flatdeals.py's DealDraws and dealt. */
#ifndef KIERKI_VECDEAL_H
#define KIERKI_VECDEAL_H

#include <stdint.h>
#include <string.h>

/* The next 32 bits of a splitmix64 generator. */
static inline uint64_t vd_bits(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return z >> 32;
}

/* A draw below n (n >= 1): the protocol's (bits * n) >> 32. */
static inline int vd_below(uint64_t *state, int n) { return (int)((vd_bits(state) * (uint64_t)n) >> 32); }

/* popcount without the C library's call where the compiler is not told of the instruction. */
static inline int vd_pc64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* The k-th lowest set bit of m (k < popcount(m)): a hand's few legal cards, bit by bit. */
static inline int vd_kth(uint64_t m, int k)
{
    while (k-- > 0)
        m &= m - 1;
    return __builtin_ctzll(m);
}


/* Place i of the shuffle (from the last place down) swapped with a draw among i + 1: its card,
 * final from now on. */
static inline unsigned vd_place(uint64_t *rng, unsigned char *order, int i)
{
    int j = vd_below(rng, i + 1);
    unsigned char c = order[j];
    order[j] = order[i];
    order[i] = c;
    return c;
}

/* Deal the `ncards` cards of `cards` (ascending; 52 bytes readable) to `players` seats from
 * `state`: the first dealer `first` (-1: drawn), the deal's dealer dealer_of[first]; `hands`
 * set, `early` (when not NULL) the first `after` cards each seat is dealt. `step` (0 ..
 * players - 1) is the direction round the table. Returns the dealer; *first_out the first
 * dealer. */
static inline int vd_deal(uint64_t *state, const unsigned char *cards, int ncards, int players, int first,
                          const int *dealer_of, int step, int after, uint64_t *hands, uint64_t *early,
                          int *first_out)
{
    unsigned char order[52];
    uint64_t rng = *state, dealt[8] = {0}; /* locals: kept in registers (the writes to order alias) */
    if (first < 0)
        first = vd_below(&rng, players);
    *first_out = first;
    int dealer = dealer_of[first];
    memcpy(order, cards, 52); /* a fixed size: a few moves, not a byte loop */
    /* place k goes to the seat dealer + step * (1 + k): from the last place down, place i is
     * final once swapped, its card dealt to its seat */
    if (players == 4 && ncards % 4 == 0 && ncards >= 4) {
        /* four players: the places' cards gathered by place modulo 4 in registers, four a round */
        uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (int i = ncards - 1; i > 3; i -= 4) {
            a3 |= 1ULL << vd_place(&rng, order, i);
            a2 |= 1ULL << vd_place(&rng, order, i - 1);
            a1 |= 1ULL << vd_place(&rng, order, i - 2);
            a0 |= 1ULL << vd_place(&rng, order, i - 3);
        }
        a3 |= 1ULL << vd_place(&rng, order, 3);
        a2 |= 1ULL << vd_place(&rng, order, 2);
        a1 |= 1ULL << vd_place(&rng, order, 1);
        a0 |= 1ULL << order[0];
        dealt[(dealer + step) & 3] |= a0;
        dealt[(dealer + 2 * step) & 3] |= a1;
        dealt[(dealer + 3 * step) & 3] |= a2;
        dealt[(dealer + 4 * step) & 3] |= a3;
    } else {
        int seat = (int)((dealer + (int64_t)step * ncards) % players);
        for (int i = ncards - 1; i >= 0; i--) {
            dealt[seat] |= 1ULL << (i > 0 ? vd_place(&rng, order, i) : order[0]);
            seat -= step;
            if (seat < 0)
                seat += players;
        }
    }
    *state = rng;
    for (int s = 0; s < players; s++)
        hands[s] = dealt[s];
    if (early != NULL) /* the first `after` cards each seat is dealt (none when after <= 0) */
        for (int s = 0; s < players; s++)
            early[s] = 0;
    if (early != NULL && after > 0) {
        int got[8] = {0};
        for (int k = 0, at = dealer; k < ncards; k++) {
            at += step;
            if (at >= players)
                at -= players;
            if (got[at]++ < after)
                early[at] |= 1ULL << order[k];
        }
    }
    return dealer;
}

#endif
