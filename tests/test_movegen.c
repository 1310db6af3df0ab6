/* test_movegen.c - legal moves against gnubg 1.07: the set of results for
 * every row of moves.tsv.gz, the order of parts against the moves gnubg's
 * external server played (fibs.tsv.gz), and one test per rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "movegen.h"
#include "posid.h"
#include "tsv.h"

static MoveList *list_new(void)
{
    MoveList *l = malloc(sizeof *l);
    assert_non_null(l);
    return l;
}

static int cmp_id(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Every part of every move is a legal step on the way from p to the result:
 * replaying the parts with movegen_apply_part gives the result, and each part
 * covers one die (or bears off with a die at least as large). */
static void check_parts(const Position *p, int d1, int d2, const Move *m, int line)
{
    Position q = *p;
    int used[2] = {0, 0};
    for (int k = 0; k < m->parts; k++) {
        if (!movegen_apply_part(&q, m->from[k], m->to[k]))
            fail_msg("line %d: part %d (%d -> %d) cannot be played", line, k, m->from[k],
                     m->to[k]);
        int dist = m->from[k] - m->to[k];
        int ok = dist == d1 || dist == d2 || (m->to[k] == POS_OFF && (dist < d1 || dist < d2));
        if (!ok)
            fail_msg("line %d: part %d moves %d pips with %d-%d", line, k, dist, d1, d2);
        used[dist == d1 ? 0 : 1]++;
    }
    if (!pos_equal(&q, &m->result))
        fail_msg("line %d: the parts do not lead to the result", line);
    for (int k = m->parts; k < MOVE_PARTS_MAX; k++)
        assert_true(m->from[k] == 0 && m->to[k] == 0);
}

/* For every row: decode, generate with the dice both ways round, and compare
 * the sorted result IDs with gnubg's. */
static void test_vectors(void **state)
{
    (void)state;
    TsvReader *r = malloc(sizeof *r);
    MoveList *l = list_new();
    static char want[MOVES_MAX][POSID_LEN + 1], got[MOVES_MAX][POSID_LEN + 1];
    assert_non_null(r);
    assert_true(tsv_open(r, "positions/gnubg-1.07/moves.tsv.gz"));
    int rows = 0;
    long moves = 0;
    while (tsv_next(r)) {
        assert_int_equal(r->nfields, 5);
        Position p;
        Err err = {{0}};
        if (!posid_decode(r->field[0], &p, &err))
            fail_msg("line %d: %s", r->lineno, err.text);
        int d1 = r->field[1][0] - '0', d2 = r->field[1][1] - '0';
        int count = atoi(r->field[2]);
        int n = 0;
        for (char *s = r->field[3]; *s;) {
            char *eq = strchr(s, '=');
            assert_non_null(eq);
            assert_int_equal(eq - s, POSID_LEN);
            assert_true(n < MOVES_MAX);
            memcpy(want[n], s, POSID_LEN);
            want[n++][POSID_LEN] = '\0';
            char *semi = strchr(eq, ';');
            s = semi ? semi + 1 : eq + strlen(eq);
        }
        assert_int_equal(n, count);
        qsort(want, (size_t)n, sizeof want[0], cmp_id);

        for (int order = 0; order < 2; order++) {
            int a = order ? d2 : d1, b = order ? d1 : d2;
            int got_n = movegen_generate(&p, a, b, l);
            if (got_n != count)
                fail_msg("line %d (%s %d%d): %d moves, gnubg has %d", r->lineno, r->field[0],
                         a, b, got_n, count);
            assert_int_equal(l->count, got_n);
            for (int i = 0; i < got_n; i++) {
                posid_encode(&l->moves[i].result, got[i]);
                check_parts(&p, a, b, &l->moves[i], r->lineno);
            }
            qsort(got, (size_t)got_n, sizeof got[0], cmp_id);
            for (int i = 0; i < got_n; i++)
                if (strcmp(got[i], want[i]))
                    fail_msg("line %d (%s %d%d): result %s vs gnubg's %s", r->lineno,
                             r->field[0], a, b, got[i], want[i]);
            assert_int_equal(movegen_is_forced(l), count == 1);
        }
        rows++;
        moves += count;
    }
    tsv_close(r);
    free(r);
    free(l);
    assert_int_equal(rows, 6615);
    assert_int_equal(moves, 144992);
    print_message("moves.tsv.gz: %d rows, %ld moves matched (both dice orders)\n", rows, moves);
}

/* Reads gnubg's plain notation ("13/11 24/23 ", "6/2* 2/1* ", "8/2 3/0 ")
 * into 0-based parts. Returns the number of parts, -1 if unreadable. */
static int parse_plain(const char *s, int *from, int *to)
{
    int n = 0;
    while (*s) {
        if (*s == ' ') {
            s++;
            continue;
        }
        int f, t, len;
        if (n == MOVE_PARTS_MAX || sscanf(s, "%d/%d%n", &f, &t, &len) != 2)
            return -1;
        from[n] = f - 1;
        to[n++] = t - 1; /* 0 (off) becomes POS_OFF */
        s += len;
        if (*s == '*')
            s++;
    }
    return n;
}

/* gnubg's external server played these moves; each must be in our list with
 * its parts in the same order (what makes our plain notation match). */
static void test_part_order(void **state)
{
    (void)state;
    TsvReader *r = malloc(sizeof *r);
    MoveList *l = list_new();
    assert_non_null(r);
    assert_true(tsv_open(r, "positions/gnubg-1.07/fibs.tsv.gz"));
    int checked = 0;
    while (tsv_next(r)) {
        if (r->nfields < 10 || !strchr(r->field[2], '/'))
            continue;
        Position p;
        assert_true(posid_decode(r->field[3], &p, NULL));
        int d1 = r->field[9][0] - '0', d2 = r->field[9][1] - '0';
        int from[MOVE_PARTS_MAX], to[MOVE_PARTS_MAX];
        int parts = parse_plain(r->field[2], from, to);
        assert_true(parts > 0);
        movegen_generate(&p, d1, d2, l);
        int found = 0;
        for (int i = 0; i < l->count && !found; i++) {
            const Move *m = &l->moves[i];
            found = m->parts == parts;
            for (int k = 0; k < parts && found; k++)
                found = m->from[k] == from[k] && m->to[k] == to[k];
        }
        if (!found)
            fail_msg("line %d: gnubg played '%s' with %d%d in %s; not in our list in that "
                     "order",
                     r->lineno, r->field[2], d1, d2, r->field[3]);
        checked++;
    }
    tsv_close(r);
    free(r);
    free(l);
    assert_int_equal(checked, 528);
    print_message("fibs.tsv.gz: %d played moves found with gnubg's part order\n", checked);
}

/* A position from two arrays of 25 counts (side 0, side 1); must be valid. */
static Position make(const int *opp, const int *me)
{
    Position p;
    for (int i = 0; i < POS_SLOTS; i++) {
        p.side[SIDE_OPPONENT][i] = (uint8_t)opp[i];
        p.side[SIDE_ROLLER][i] = (uint8_t)me[i];
    }
    assert_true(pos_valid(&p, NULL));
    return p;
}

static int has_part(const Move *m, int from, int to)
{
    for (int k = 0; k < m->parts; k++)
        if (m->from[k] == from && m->to[k] == to)
            return 1;
    return 0;
}

static void test_opening_order(void **state)
{
    (void)state;
    MoveList *l = list_new();
    Position p;
    pos_start(&p);
    /* Section 7.1: with 2-1, gnubg writes 13/11 24/23. */
    assert_int_equal(movegen_generate(&p, 2, 1, l), 15);
    Position q = p;
    assert_true(movegen_apply_part(&q, 12, 10));
    assert_true(movegen_apply_part(&q, 23, 22));
    int i = movegen_find(l, &q);
    assert_true(i >= 0);
    assert_int_equal(l->moves[i].parts, 2);
    assert_int_equal(l->moves[i].from[0], 12);
    assert_int_equal(l->moves[i].to[0], 10);
    assert_int_equal(l->moves[i].from[1], 23);
    assert_int_equal(l->moves[i].to[1], 22);
    /* The same move found with 1 first when the dice come the other way. */
    movegen_generate(&p, 1, 2, l);
    i = movegen_find(l, &q);
    assert_true(i >= 0);
    assert_int_equal(l->moves[i].from[0], 23);
    assert_int_equal(l->moves[i].from[1], 12);
    /* Doubles: four parts, sources from the highest point down. */
    assert_int_equal(movegen_generate(&p, 6, 6, l), 11);
    for (i = 0; i < l->count; i++) {
        const Move *m = &l->moves[i];
        assert_int_equal(m->parts, 4);
        for (int k = 1; k < 4; k++)
            assert_true(m->from[k] <= m->from[k - 1]);
    }
    pos_swap(&p);
    assert_int_equal(movegen_generate(&p, 0, 3, l), 0);
    assert_int_equal(movegen_generate(&p, 7, 3, l), 0);
    free(l);
}

static void test_bar(void **state)
{
    (void)state;
    MoveList *l = list_new();
    /* Side 1: one checker on the bar, the rest at home. Side 0 holds its
     * 6-point (side 1's entry point for a 6: index 18). */
    int opp[POS_SLOTS] = {[5] = 2, [12] = 4, [7] = 3};
    int me[POS_SLOTS] = {[0] = 3, [4] = 3, [POS_BAR] = 1};
    Position p = make(opp, me);
    /* 6-1: the 6 cannot enter, so the checker enters with the 1 and the 6
     * must then be played by some checker: bar/24 first in every move. */
    int n = movegen_generate(&p, 6, 1, l);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        assert_int_equal(l->moves[i].from[0], POS_BAR);
        assert_int_equal(l->moves[i].to[0], 23);
        assert_int_equal(l->moves[i].parts, 2);
    }
    /* 6-6: nothing enters, so nothing moves at all. */
    assert_int_equal(movegen_generate(&p, 6, 6, l), 0);
    /* 3-2: entering with either die, then the other die for anyone. */
    n = movegen_generate(&p, 3, 2, l);
    for (int i = 0; i < n; i++)
        assert_int_equal(l->moves[i].from[0], POS_BAR);

    /* Two on the bar and only the 1 enters: one part, nothing else moves. */
    me[POS_BAR] = 2;
    me[0] = 2;
    p = make(opp, me);
    assert_int_equal(movegen_generate(&p, 6, 1, l), 1);
    assert_int_equal(l->moves[0].parts, 1);
    assert_true(has_part(&l->moves[0], POS_BAR, 23));
    assert_true(movegen_is_forced(l));
    free(l);
}

static void test_closed_board(void **state)
{
    (void)state;
    MoveList *l = list_new();
    int opp[POS_SLOTS] = {2, 2, 2, 2, 2, 2, [7] = 3};
    int me[POS_SLOTS] = {[5] = 5, [12] = 5, [15] = 3, [POS_BAR] = 2};
    Position p = make(opp, me);
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++)
            assert_int_equal(movegen_generate(&p, a, b, l), 0);
    free(l);
}

static void test_higher_die(void **state)
{
    (void)state;
    MoveList *l = list_new();
    /* One checker left on side 1's 24-point (index 23). Either die alone can
     * be played (to 18 or 19) but never both: side 0 holds side 1's 13-point
     * (index 12, side 0's index 11). The 6 must be played. */
    int opp[POS_SLOTS] = {[11] = 2, [2] = 13};
    int me[POS_SLOTS] = {[23] = 1};
    Position p = make(opp, me);
    for (int order = 0; order < 2; order++) {
        assert_int_equal(movegen_generate(&p, order ? 6 : 5, order ? 5 : 6, l), 1);
        assert_true(movegen_is_forced(l));
        assert_int_equal(l->moves[0].parts, 1);
        assert_int_equal(l->moves[0].from[0], 23);
        assert_int_equal(l->moves[0].to[0], 17);
    }
    /* With the 6-point (index 17) blocked as well, the 5 is all there is. */
    opp[6] = 2;
    opp[2] = 11;
    p = make(opp, me);
    assert_int_equal(movegen_generate(&p, 6, 5, l), 1);
    assert_int_equal(l->moves[0].to[0], 18);
    free(l);
}

static void test_bear_off(void **state)
{
    (void)state;
    MoveList *l = list_new();
    /* Checkers on the 2- and 1-point: 6-5 bears off both (the larger die from
     * the highest point). */
    int opp[POS_SLOTS] = {[12] = 15};
    int me[POS_SLOTS] = {[0] = 1, [1] = 1};
    Position p = make(opp, me);
    assert_int_equal(movegen_generate(&p, 6, 5, l), 1);
    assert_int_equal(pos_checkers(&l->moves[0].result, SIDE_ROLLER), 0);
    assert_true(has_part(&l->moves[0], 1, POS_OFF));
    assert_true(has_part(&l->moves[0], 0, POS_OFF));

    /* With a checker higher up, a die larger than the point does not bear
     * off. 6- and 3-point, 4-3: 6/2 3/off or 6/3/off (the 4 bears off from
     * the 3-point once it is the highest); never 3/off with the 4 first, and
     * never 6/2/off (a 3 from the 2-point while the 3-point is occupied). */
    int me2[POS_SLOTS] = {[5] = 1, [2] = 1};
    p = make(opp, me2);
    assert_int_equal(movegen_generate(&p, 4, 3, l), 2);
    Position q = p;
    q.side[SIDE_ROLLER][5] = q.side[SIDE_ROLLER][2] = 0;
    q.side[SIDE_ROLLER][1] = 1;
    assert_true(movegen_find(l, &q) >= 0);
    q.side[SIDE_ROLLER][1] = 0;
    q.side[SIDE_ROLLER][2] = 1;
    assert_true(movegen_find(l, &q) >= 0);

    /* A checker outside the home board: no bearing off until it is in. 6-1
     * from the 8-point and the 1-point: 8/2 1/off is legal (in, then off),
     * 1/off first is not, and the result is the same, found once. */
    int me3[POS_SLOTS] = {[7] = 1, [0] = 1};
    p = make(opp, me3);
    int n = movegen_generate(&p, 1, 6, l);
    for (int i = 0; i < n; i++)
        if (l->moves[i].to[0] == POS_OFF)
            fail_msg("bore off with a checker outside");
    free(l);
}

static void test_hit_in_bear_off(void **state)
{
    (void)state;
    MoveList *l = list_new();
    /* Side 1 bearing off (two on the 6-point, one on the 1-point); a side 0
     * blot sits on side 1's 4-point (side 0's index 20). 2-1 can hit it. */
    int opp[POS_SLOTS] = {[20] = 1, [12] = 2};
    int me[POS_SLOTS] = {[5] = 2, [0] = 1};
    Position p = make(opp, me);
    int n = movegen_generate(&p, 2, 1, l);
    int hits = 0;
    for (int i = 0; i < n; i++) {
        const Position *r = &l->moves[i].result;
        if (r->side[SIDE_OPPONENT][POS_BAR]) {
            hits++;
            assert_int_equal(r->side[SIDE_OPPONENT][20], 0);
            assert_int_equal(r->side[SIDE_OPPONENT][POS_BAR], 1);
        }
    }
    assert_true(hits > 0);
    /* 6/4* 1/off: hit and bear off in one move. */
    Position q = p;
    assert_true(movegen_apply_part(&q, 5, 3));
    assert_true(movegen_apply_part(&q, 0, POS_OFF));
    assert_true(movegen_find(l, &q) >= 0);
    free(l);
}

static void test_doubles_partial(void **state)
{
    (void)state;
    MoveList *l = list_new();
    /* One checker on the 24-point, side 0 holds side 1's 16-point: 4-4 plays
     * 24/20 and stops (two of four dice), the only move. */
    int opp[POS_SLOTS] = {[8] = 2, [1] = 13};
    int me[POS_SLOTS] = {[23] = 1};
    Position p = make(opp, me);
    assert_int_equal(movegen_generate(&p, 4, 4, l), 1);
    assert_int_equal(l->moves[0].parts, 1);
    assert_int_equal(l->moves[0].to[0], 19);
    free(l);
}

static void test_apply_part(void **state)
{
    (void)state;
    Position p, before;
    pos_start(&p);
    before = p;
    assert_false(movegen_apply_part(&p, 3, 1));      /* nothing on index 3 */
    assert_false(movegen_apply_part(&p, POS_BAR, 20)); /* nothing on the bar */
    assert_false(movegen_apply_part(&p, 12, 12));     /* not a move */
    assert_false(movegen_apply_part(&p, 5, 7));       /* backwards */
    assert_false(movegen_apply_part(&p, 25, 3));      /* out of range */
    assert_false(movegen_apply_part(&p, 12, -2));
    assert_false(movegen_apply_part(&p, 12, 11));     /* side 0's 13-point... */
    assert_true(pos_equal(&p, &before));
    /* index 11 is side 0's index 12: his mid-point, five checkers: blocked */
    p.side[SIDE_OPPONENT][12] = 1;
    assert_true(movegen_apply_part(&p, 12, 11)); /* now a blot: hit */
    assert_int_equal(p.side[SIDE_OPPONENT][12], 0);
    assert_int_equal(p.side[SIDE_OPPONENT][POS_BAR], 1);
    assert_int_equal(p.side[SIDE_ROLLER][11], 1);
    assert_int_equal(p.side[SIDE_ROLLER][12], 4);
    assert_true(movegen_apply_part(&p, 5, POS_OFF));
    assert_int_equal(pos_checkers(&p, SIDE_ROLLER), 14);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_part_order),
        cmocka_unit_test(test_opening_order),
        cmocka_unit_test(test_bar),
        cmocka_unit_test(test_closed_board),
        cmocka_unit_test(test_higher_die),
        cmocka_unit_test(test_bear_off),
        cmocka_unit_test(test_hit_in_bear_off),
        cmocka_unit_test(test_doubles_partial),
        cmocka_unit_test(test_apply_part),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
