/* eval_cache.c - the search's table of computed values (see eval_cache.h). */
#include "eval_cache.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* board[3] holds the last two counts in its low byte, the depth above them
 * and a bit that no empty entry has. */
#define DEPTH_SHIFT 8
#define USED_BIT ((uint64_t)1 << 16)

/* An entry as words: the key's four board words and its tag, then the
 * outputs' bits. Every word is atomic so that threads sharing the table
 * may read an entry while another writes it (the bucket's sequence tells
 * the reader its words are not all of one write). */
#define KEY_WORDS 5
#define ENTRY_WORDS (KEY_WORDS + OUT_COUNT)
_Static_assert(sizeof(double) == sizeof(uint64_t), "an output is kept as one word");

typedef struct Bucket {
    /* Odd while a thread writes the bucket; one more at each start and end
     * of a write: a reader that sees the same even number before and after
     * its reads has read words of one write. */
    _Atomic uint64_t seq;
    _Atomic uint64_t e[2][ENTRY_WORDS]; /* e[0]: the deeper or newer of the two */
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
    /* calloc: the pages of a large table stay unmapped until used (all
     * zero bits is a zero of every atomic word here). */
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
    /* Every key's board[3] has USED_BIT: an entry whose word 3 is zero
     * matches no key. */
    for (size_t i = 0; i < c->buckets; i++)
        for (int j = 0; j < 2; j++)
            atomic_store_explicit(&c->b[i].e[j][3], 0, memory_order_relaxed);
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

static unsigned word_depth(uint64_t board3)
{
    return (unsigned)((board3 >> DEPTH_SHIFT) & 0xff);
}

static uint64_t key_word(const EvalKey *k, int i)
{
    return i < 4 ? k->board[i] : k->tag;
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

static bool entry_is(_Atomic uint64_t *e, const EvalKey *k)
{
    for (int i = 0; i < KEY_WORDS; i++)
        if (atomic_load_explicit(&e[i], memory_order_relaxed) != key_word(k, i))
            return false;
    return true;
}

bool eval_cache_get(const EvalCache *c, const EvalKey *k, double out[OUT_COUNT])
{
    Bucket *b = bucket_of(c, k);
    uint64_t seq = atomic_load_explicit(&b->seq, memory_order_acquire);
    if (seq & 1)
        return false; /* being written: a miss, as good as any */
    for (int i = 0; i < 2; i++) {
        if (!entry_is(b->e[i], k))
            continue;
        uint64_t bits[OUT_COUNT];
        for (int j = 0; j < OUT_COUNT; j++)
            bits[j] = atomic_load_explicit(&b->e[i][KEY_WORDS + j], memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&b->seq, memory_order_relaxed) != seq)
            return false; /* a write came between: the words may be of two */
        memcpy(out, bits, sizeof bits);
        return true;
    }
    return false;
}

static void entry_store(_Atomic uint64_t *e, const uint64_t w[ENTRY_WORDS])
{
    for (int i = 0; i < ENTRY_WORDS; i++)
        atomic_store_explicit(&e[i], w[i], memory_order_relaxed);
}

void eval_cache_put(EvalCache *c, const EvalKey *k, const double out[OUT_COUNT])
{
    Bucket *b = bucket_of(c, k);
    uint64_t seq = atomic_load_explicit(&b->seq, memory_order_relaxed);
    /* Another thread writing this bucket keeps it: the value is dropped,
     * which costs only its computing again should it be asked for. */
    if ((seq & 1) || !atomic_compare_exchange_strong_explicit(&b->seq, &seq, seq + 1,
                                                              memory_order_acquire,
                                                              memory_order_relaxed))
        return;
    atomic_thread_fence(memory_order_release);
    uint64_t w[ENTRY_WORDS];
    for (int i = 0; i < KEY_WORDS; i++)
        w[i] = key_word(k, i);
    memcpy(w + KEY_WORDS, out, sizeof(double) * OUT_COUNT);
    int to;
    if (entry_is(b->e[0], k))
        to = 0;
    else if (entry_is(b->e[1], k))
        to = 1;
    else if (word_depth(atomic_load_explicit(&b->e[0][3], memory_order_relaxed)) <=
             word_depth(k->board[3])) {
        /* At least as deep as the first: it goes first, the first second. */
        uint64_t first[ENTRY_WORDS];
        for (int i = 0; i < ENTRY_WORDS; i++)
            first[i] = atomic_load_explicit(&b->e[0][i], memory_order_relaxed);
        entry_store(b->e[1], first);
        to = 0;
    } else {
        to = 1;
    }
    entry_store(b->e[to], w);
    atomic_store_explicit(&b->seq, seq + 2, memory_order_release);
}
