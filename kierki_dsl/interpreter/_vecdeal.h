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


/* Deal the `ncards` cards of `cards` (ascending) to `players` seats from `state`: the first
 * dealer `first` (-1: drawn), the deal's dealer dealer_of[first]; `hands` set, `early` (when
 * not NULL) the first `after` cards each seat is dealt. Returns the dealer; *first_out the
 * first dealer. */
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
    memcpy(order, cards, ncards);
    /* from the last place down: place i is final once swapped, its card dealt to its seat */
    int seat = (int)((dealer + (int64_t)step * ncards) % players);
    for (int i = ncards - 1; i >= 0; i--) {
        if (i > 0) {
            int j = vd_below(&rng, i + 1);
            unsigned char t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        dealt[seat] |= 1ULL << order[i];
        seat -= step;
        if (seat < 0)
            seat += players;
    }
    *state = rng;
    for (int s = 0; s < players; s++)
        hands[s] = dealt[s];
    if (early != NULL) { /* the first `after` cards each seat is dealt (none when after <= 0) */
        int got[8] = {0};
        for (int s = 0; s < players; s++)
            early[s] = 0;
        for (int k = 0, at = dealer; after > 0 && k < ncards; k++) {
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
