/* test_fair.c - the turns of the server's queue (net/fair.h): peers take
 * turns whatever the number waiting for each, first come first served
 * within a peer; a peer that joins goes to the end of the round; items can
 * leave from anywhere; counts per peer and in all; many peers (the table
 * grows) and peers freed once nobody holds them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fair.h"

typedef struct Item {
    FairItem it; /* first: a FairItem * is an Item * */
    char name[16];
} Item;

static const char *pop_name(Fair *f)
{
    FairItem *it = fair_pop(f, NULL);
    return it ? ((Item *)(void *)it)->name : "-";
}

static void test_turns_go_round_the_peers(void **state)
{
    (void)state;
    Err err;
    Fair *f = fair_new(&err);
    assert_non_null(f);
    FairPeer *a = fair_peer_get(f, "tcp 127.0.0.1");
    FairPeer *b = fair_peer_get(f, "tcp 127.0.0.2");
    FairPeer *a2 = fair_peer_get(f, "tcp 127.0.0.1");
    assert_ptr_equal(a, a2); /* one peer, held twice */
    Item ia[4] = {{.name = "a1"}, {.name = "a2"}, {.name = "a3"}, {.name = "a4"}};
    Item ib[2] = {{.name = "b1"}, {.name = "b2"}};
    for (int k = 0; k < 4; k++)
        fair_push(f, a, &ia[k].it);
    for (int k = 0; k < 2; k++)
        fair_push(f, b, &ib[k].it);
    assert_int_equal(fair_waiting(f), 6);
    assert_int_equal(fair_peer_waiting(a), 4);
    assert_int_equal(fair_peer_waiting(b), 2);
    assert_string_equal(pop_name(f), "a1");
    assert_string_equal(pop_name(f), "b1");
    /* c joins: after a, whose turn is next, and b. */
    FairPeer *c = fair_peer_get(f, "uid 1000");
    Item ic = {.name = "c1"};
    fair_push(f, c, &ic.it);
    assert_string_equal(pop_name(f), "a2");
    assert_string_equal(pop_name(f), "b2");
    assert_string_equal(pop_name(f), "c1");
    assert_string_equal(pop_name(f), "a3");
    assert_string_equal(pop_name(f), "a4");
    assert_string_equal(pop_name(f), "-");
    assert_int_equal(fair_waiting(f), 0);
    fair_peer_put(f, a);
    fair_peer_put(f, a2);
    fair_peer_put(f, b);
    fair_peer_put(f, c);
    fair_free(f);
}

static void test_items_leave_from_anywhere(void **state)
{
    (void)state;
    Err err;
    Fair *f = fair_new(&err);
    FairPeer *a = fair_peer_get(f, "a");
    FairPeer *b = fair_peer_get(f, "b");
    Item ia[3] = {{.name = "a1"}, {.name = "a2"}, {.name = "a3"}};
    Item ib = {.name = "b1"};
    for (int k = 0; k < 3; k++)
        fair_push(f, a, &ia[k].it);
    fair_push(f, b, &ib.it);
    fair_remove(f, a, &ia[1].it); /* the middle one */
    fair_remove(f, b, &ib.it);    /* b's only one: b leaves the round */
    assert_int_equal(fair_waiting(f), 2);
    assert_int_equal(fair_peer_waiting(b), 0);
    assert_string_equal(pop_name(f), "a1");
    assert_string_equal(pop_name(f), "a3");
    assert_string_equal(pop_name(f), "-");
    /* b comes back, alone in the round. */
    fair_push(f, b, &ib.it);
    FairPeer *who = NULL;
    FairItem *it = fair_pop(f, &who);
    assert_ptr_equal(it, &ib.it);
    assert_ptr_equal(who, b);
    fair_peer_put(f, a);
    fair_peer_put(f, b);
    fair_free(f);
}

static void test_many_peers(void **state)
{
    (void)state;
    enum { N = 1000 };
    Err err;
    Fair *f = fair_new(&err);
    static FairPeer *peers[N];
    static Item items[N];
    for (int k = 0; k < N; k++) {
        char key[FAIR_KEY_MAX];
        snprintf(key, sizeof key, "tcp 10.0.%d.%d", k / 256, k % 256);
        peers[k] = fair_peer_get(f, key);
        assert_non_null(peers[k]);
        snprintf(items[k].name, sizeof items[k].name, "%d", k);
        fair_push(f, peers[k], &items[k].it);
    }
    /* Found again after the table grew. */
    FairPeer *again = fair_peer_get(f, "tcp 10.0.3.7");
    assert_ptr_equal(again, peers[3 * 256 + 7]);
    fair_peer_put(f, again);
    for (int k = 0; k < N; k++) {
        char want[16];
        snprintf(want, sizeof want, "%d", k);
        assert_string_equal(pop_name(f), want);
    }
    for (int k = 0; k < N; k++)
        fair_peer_put(f, peers[k]);
    /* Every peer was freed: a new one of an old key starts with nothing. */
    FairPeer *p = fair_peer_get(f, "tcp 10.0.0.0");
    assert_int_equal(fair_peer_waiting(p), 0);
    fair_peer_put(f, p);
    fair_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_turns_go_round_the_peers),
        cmocka_unit_test(test_items_leave_from_anywhere),
        cmocka_unit_test(test_many_peers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
