/* eval_cache.c - the search's table of computed values (see eval_cache.h). */
#include "eval_cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* board[3] holds the last two counts in its low byte, the depth above them
 * and a bit that no empty entry has. */
#define DEPTH_SHIFT 8
#define USED_BIT ((uint64_t)1 << 16)

typedef struct Entry {
    EvalKey key;
    double out[OUT_COUNT];
} Entry;

typedef struct Bucket {
    Entry e[2]; /* e[0]: the deeper or newer of the two */
} Bucket;

struct EvalCache {
    size_t buckets; /* a power of two */
    Bucket *b;
};

EvalCache *eval_cache_new(size_t entries)
{
    /* The largest power of two of buckets (two entries each) that holds at
     * most `entries` and whose bytes a size_t can count. */
    size_t buckets = 1;
    while (buckets <= entries / 4 && buckets <= SIZE_MAX / (4 * sizeof(Bucket)))
        buckets *= 2;
    EvalCache *c = malloc(sizeof *c);
    /* calloc: the pages of a large table stay unmapped until used. */
    Bucket *b = c ? calloc(buckets, sizeof *b) : NULL;
    if (!b) {
        free(c);
        return NULL;
    }
    c->buckets = buckets;
    c->b = b;
    return c;
}

void eval_cache_free(EvalCache *c)
{
    if (!c)
        return;
    free(c->b);
    free(c);
}

size_t eval_cache_entries(const EvalCache *c)
{
    return c->buckets * 2;
}

void eval_cache_clear(EvalCache *c)
{
    memset(c->b, 0, c->buckets * sizeof *c->b);
}

bool eval_cache_key(const Position *p, int plies, uint64_t tag, EvalKey *k)
{
    uint64_t w[4] = {0, 0, 0, 0};
    for (int i = 0; i < 2 * POS_SLOTS; i++) {
        unsigned n = p->side[i / POS_SLOTS][i % POS_SLOTS];
        if (n > 15)
            return false;
        w[i / 16] |= (uint64_t)n << (4 * (i % 16));
    }
    w[3] |= ((uint64_t)(plies & 0xff) << DEPTH_SHIFT) | USED_BIT;
    memcpy(k->board, w, sizeof w);
    k->tag = tag;
    return true;
}

static unsigned key_depth(const EvalKey *k)
{
    return (unsigned)((k->board[3] >> DEPTH_SHIFT) & 0xff);
}

static bool same_key(const EvalKey *a, const EvalKey *b)
{
    return a->board[0] == b->board[0] && a->board[1] == b->board[1] &&
           a->board[2] == b->board[2] && a->board[3] == b->board[3] && a->tag == b->tag;
}

static Bucket *bucket_of(const EvalCache *c, const EvalKey *k)
{
    /* A multiply-xorshift mix of the words: every bit of the key reaches
     * the bucket's index. */
    uint64_t h = k->tag;
    for (int i = 0; i < 4; i++) {
        h ^= k->board[i];
        h *= 0x9e3779b97f4a7c15u;
        h ^= h >> 29;
    }
    return &c->b[h & (c->buckets - 1)];
}

bool eval_cache_get(const EvalCache *c, const EvalKey *k, double out[OUT_COUNT])
{
    const Bucket *b = bucket_of(c, k);
    for (int i = 0; i < 2; i++)
        if (same_key(&b->e[i].key, k)) {
            memcpy(out, b->e[i].out, sizeof b->e[i].out);
            return true;
        }
    return false;
}

void eval_cache_put(EvalCache *c, const EvalKey *k, const double out[OUT_COUNT])
{
    Bucket *b = bucket_of(c, k);
    Entry *to = same_key(&b->e[0].key, k) ? &b->e[0] : same_key(&b->e[1].key, k) ? &b->e[1] : NULL;
    if (!to) {
        if (key_depth(&b->e[0].key) <= key_depth(k)) {
            /* At least as deep as the first: it goes first, the first second. */
            b->e[1] = b->e[0];
            to = &b->e[0];
        } else {
            to = &b->e[1];
        }
    }
    to->key = *k;
    memcpy(to->out, out, sizeof to->out);
}
