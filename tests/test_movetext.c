/* test_movetext.c - move notation against gnubg 1.07: the display text of
 * every legal move of moves.tsv.gz, the plain text of every move gnubg's
 * external server played (fibs.tsv.gz), the respelled answers of the
 * match5-notations run (client_capture.tsv.gz), the parser against a table
 * of gnubg's own ParseMove results, and the matching rules. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "movegen.h"
#include "movetext.h"
#include "posid.h"
#include "tsv.h"

/* ---- helpers --------------------------------------------------------- */

static MoveList *list_new(void)
{
    MoveList *l = malloc(sizeof *l);
    assert_non_null(l);
    return l;
}

/* A move from 1-based (from, to) pairs, bar 25 and off 0 as in the text. */
static Move move_of(int parts, const int pairs[])
{
    Move m;
    memset(&m, 0, sizeof m);
    m.parts = (uint8_t)parts;
    for (int i = 0; i < parts; i++) {
        m.from[i] = (int8_t)(pairs[2 * i] - 1);
        m.to[i] = (int8_t)(pairs[2 * i + 1] - 1);
    }
    return m;
}

/* The starting position with opposing blots added on the mover's points
 * listed (1-based, 0 ends the list); the checkers come from the opponent's
 * 13 point (the mover's 12) so that the count stays 15. */
static Position start_with_blots(const int *points)
{
    Position p;
    pos_start(&p);
    for (; *points; points++) {
        p.side[SIDE_OPPONENT][24 - *points]++;
        p.side[SIDE_OPPONENT][12]--;
    }
    return p;
}

static void expect_plain(const Position *p, int parts, const int pairs[], const char *want)
{
    Move m = move_of(parts, pairs);
    char out[MOVETEXT_MAX];
    movetext_plain(p, &m, out);
    assert_string_equal(out, want);
}

static void expect_display(const Position *p, int parts, const int pairs[], const char *want)
{
    Move m = move_of(parts, pairs);
    char out[MOVETEXT_MAX];
    movetext_display(p, &m, out);
    assert_string_equal(out, want);
}

/* Parsed parts as "24/18 13/7" (1-based, numbers only) for comparisons. */
static void parts_text(const Move *m, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < m->parts; i++)
        len += (size_t)snprintf(out + len, n - len, "%s%d/%d", i ? " " : "", m->from[i] + 1,
                                m->to[i] + 1);
}

static void expect_parse_error(const char *text, const char *needle)
{
    Move m;
    Err err = {{0}};
    if (movetext_parse(text, &m, &err))
        fail_msg("'%s' was accepted", text);
    if (!strstr(err.text, needle))
        fail_msg("'%s': message '%s' does not mention '%s'", text, err.text, needle);
}

/* ---- plain form ------------------------------------------------------ */

static void test_plain(void **state)
{
    (void)state;
    Position start;
    pos_start(&start);
    expect_plain(&start, 0, NULL, "");
    expect_plain(&start, 2, (const int[]){8, 5, 6, 5}, "8/5 6/5 ");
    /* Not sorted: the order stored. */
    expect_plain(&start, 2, (const int[]){13, 11, 24, 23}, "13/11 24/23 ");
    /* A fourth part has no blank after it. */
    expect_plain(&start, 4, (const int[]){24, 18, 24, 18, 13, 7, 13, 7}, "24/18 24/18 13/7 13/7");
    expect_plain(&start, 3, (const int[]){13, 10, 10, 7, 7, 4}, "13/10 10/7 7/4 ");
    /* gnubg stars any landing on an opposing checker, even on a made point
     * (no legal move does that). */
    expect_plain(&start, 2, (const int[]){7, 1, 7, 1}, "7/1* 7/1 ");

    /* Two different hits, each starred. */
    Position p = start_with_blots((const int[]){2, 1, 0});
    expect_plain(&p, 2, (const int[]){6, 2, 2, 1}, "6/2* 2/1* ");
    /* Only the first part landing on a hit point gets the star. */
    expect_plain(&p, 2, (const int[]){6, 2, 6, 2}, "6/2* 6/2 ");
    /* Bar 25 and off 0, no words. */
    expect_plain(&p, 2, (const int[]){25, 22, 3, 0}, "25/22 3/0 ");
    /* Off is never starred, even with a checker on the opponent's bar. */
    p.side[SIDE_OPPONENT][POS_BAR] = 1;
    expect_plain(&p, 1, (const int[]){6, 0}, "6/0 ");
}

/* ---- display form ---------------------------------------------------- */

static void test_display(void **state)
{
    (void)state;
    Position start;
    pos_start(&start);
    expect_display(&start, 0, NULL, "");
    expect_display(&start, 2, (const int[]){6, 5, 8, 5}, "8/5 6/5");
    expect_display(&start, 4, (const int[]){13, 7, 24, 18, 13, 7, 24, 18}, "24/18(2) 13/7(2)");
    /* A quiet stop is left out of a chain. */
    expect_display(&start, 2, (const int[]){24, 23, 23, 20}, "24/20");
    expect_display(&start, 4, (const int[]){13, 11, 11, 9, 9, 7, 7, 5}, "13/5");
    expect_display(&start, 2, (const int[]){25, 22, 6, 0}, "bar/22 6/off");
    expect_display(&start, 4, (const int[]){25, 20, 25, 20, 13, 8, 13, 8}, "bar/20(2) 13/8(2)");

    Position p = start_with_blots((const int[]){20, 0});
    /* A stop where a blot was hit is kept and starred. */
    expect_display(&p, 2, (const int[]){20, 16, 24, 20}, "24/20*/16");
    expect_display(&p, 1, (const int[]){24, 20}, "24/20*");
    expect_display(&p, 4, (const int[]){24, 20, 24, 20, 20, 16, 20, 16}, "24/20*/16(2)");
    /* The hit is starred once: the second checker to 20 is not. */
    expect_display(&p, 2, (const int[]){24, 20, 24, 20}, "24/20*(2)");
    expect_display(&p, 3, (const int[]){24, 20, 20, 16, 24, 20}, "24/20*/16 24/20");

    /* A checker hitting on three points in a row keeps all three. */
    Position q = start_with_blots((const int[]){23, 22, 21, 0});
    expect_display(&q, 4, (const int[]){24, 23, 23, 22, 22, 21, 21, 20}, "24/23*/22*/21*/20");
}

/* ---- parser ---------------------------------------------------------- */

/* gnubg 1.07's ParseMove on each text (through gnubg.parsemove): the parts
 * in its canonical order, or NULL where it refuses the text. */
static const struct {
    const char *text;
    const char *parts;
} gnubg_parse[] = {
    {"24 18(2)", NULL},
    {"24/18(2)", "24/18 24/18"},
    {"24/18(1)", NULL},
    {"b/22", "25/22"},
    {"bar/22/16", "25/22 22/16"},
    {"24/18/15", "24/18 18/15"},
    {"13/7(2)/1", "13/7 13/7 7/1"},
    {"24 18/13 7", NULL},
    {"o", NULL},
    {"6/o", "6/0"},
    {"6/of", "6/0"},
    {"6/off", "6/0"},
    {"6/offf", NULL},
    {"", ""},
    {"   ", ""},
    {"24/18 (2)", "24/18 24/18"},
    {"24/18( 2)", "24/18 24/18"},
    {"24/18(+2)", "24/18 24/18"},
    {"BAR/22", "25/22"},
    {"ba/22", "25/22"},
    {"br/22", NULL},
    {"24//18", NULL},
    {"/24/18", NULL},
    {"24/18/", NULL},
    {"24/18*,13/7*)", "24/18 13/7"},
    {"26/18", NULL},
    {"0/5", NULL},
    {"24/25", NULL},
    {"25/0", "25/0"},
    {"1 2 3 4 5 6 7 8", "7/8 5/6 3/4 1/2"},
    {"1 2 3 4 5 6 7 8 9", NULL},
    {"24/20/16/12/8", "24/20 20/16 16/12 12/8"},
    {"24/23/22/21/20/", NULL},
    {"8/7/6/5/4", "8/7 7/6 6/5 5/4"},
    {"24/22(3)", "24/22 24/22 24/22"},
    {"24/22(4)", "24/22 24/22 24/22 24/22"},
    {"24/22(5)", NULL},
    {"24/22/20(2)", "24/22 24/22 22/20 22/20"},
    {"6/0/1", NULL},
    {"8/5 6/5", "8/5 6/5"},
    {"8/5 6/5 ", "8/5 6/5"},
    {"13/7 13/7 7/1 7/1", "13/7 13/7 7/1 7/1"},
    {"24/20*/16", "24/20 20/16"},
    {"6/2* 2/1*", "6/2 2/1"},
    {"bar/19(2) 13/7(2)", "25/19 25/19 13/7 13/7"},
    {"2/1* 6/2*", "6/2 2/1"},
    {"18 15 15 13", "18/15 15/13"},
    {"24/21/16", "24/21 21/16"},
    {"16/10 13/7(3)", "16/10 13/7 13/7 13/7"},
    {"10/9, 13/9", "13/9 10/9"},
    {"3/OFF 1/OFF", "3/0 1/0"},
    {"6/0 6/3\r", "6/3 6/0"},
    {"5 2 5 2 4 1 4 1", "5/2 5/2 4/1 4/1"},
    {"2/0(2)", "2/0 2/0"},
    {"25 23 12 10 10 8 8 6", "25/23 12/10 10/8 8/6"},
    {"bar/21 13/12", "25/21 13/12"},
    {"24/18/12(2)", "24/18 24/18 18/12 18/12"},
    {"24/18 18/12(2)", "24/18 18/12 18/12"},
    {"13/7(2) 8/2(2)", "13/7 13/7 8/2 8/2"},
    {"b/20(3)", "25/20 25/20 25/20"},
    {"24/18(2)(2)", "24/18 24/18 24/18"},
    {"(2)", NULL},
    {"24(2)", NULL},
    {"24/(2)", NULL},
    {"24/18 (3) 6/5", "24/18 24/18 24/18 6/5"},
    {"offf", NULL},
    {"bars", NULL},
    {"24/18 13", NULL},
    {"13/7/1/off", "13/7 7/1 1/0"},
    {"6/off(4)", "6/0 6/0 6/0 6/0"},
    {"25 0", "25/0"},
    {"25/25", NULL},
    {"0/0", NULL},
    {"24/12*/6", "24/12 12/6"},
    {"24/12*(2)", "24/12 24/12"},
    {"x(5)(4)3007b26", NULL},
    {"2/1o", NULL},
    {"99", NULL},
    {"007(4)13OFF\txbar2", NULL},
    {"BAR2", "25/2"},
    {"*", ""},
    {"BabarOFF", NULL},
    {"Ba(4)3o1OFF(4))6", NULL},
    {"\r(2)(2)bar/007Of(1))", NULL},
    {"(5)bb(3)\r  (3)", NULL},
    {" 13//24(2)228", NULL},
    {"/18", NULL},
    {"(3) \tbar", NULL},
    {"Bab7xbar x007\r", NULL},
    {"25(3)Ba", NULL},
    {"(3)BARBa\r/22)8", NULL},
    {"992428", NULL},
    {" (4))18o1Ba99", NULL},
    {"24 \t13/", NULL},
    {"007*", NULL},
    {"25BAR", NULL},
    {"02*(5)26 ", NULL},
    {"\t322(1)18off12", NULL},
    {"/", NULL},
    {"007)bar(3)", NULL},
    {"22o0", NULL},
    {"6Of ", "6/0"},
    {"626oOf", NULL},
    {"(2)132525", NULL},
    {"b26(1)(2)1BAR/", NULL},
    {"2426", NULL},
    {"boff", "25/0"},
    {")991Ba,* /", NULL},
    {",\r0 Ba7(3)Of\t", NULL},
    {"6baroff(4)/", NULL},
    {"Of", NULL},
    {"13", NULL},
    {"b9918998252", NULL},
    {"1xx2213\r00722", NULL},
    {"/(2)00765,", NULL},
    {"6Ba262518,,o0", NULL},
    {"off0oOFF b", NULL},
    {",)Of\t991(1)*OFF", NULL},
    {"5", NULL},
    {"(3)(1)ob/25/99", NULL},
    {"(2)6(5)8Of8", NULL},
    {"bar25/18 3\rx", NULL},
    {"BAR2*(5)/(1)", NULL},
    {"(3)5x(5)1boffBa", NULL},
    {"Of 85off(5)", NULL},
    {"bar,1313(4)", NULL},
    {"/58bar*99007", NULL},
    {"8(3)x\r", NULL},
    {"* bar726\rOFF*", NULL},
    {"o5(2)", NULL},
    {"/25ooff13\t", NULL},
    {"26", NULL},
    {"188 8(3)", NULL},
    {"off13261(4),24", NULL},
    {"5/", NULL},
    {"(5)25/(4)*barb3b", NULL},
    {"813OFF(5)5", NULL},
    {"24(3)24", NULL},
    {"xbarOFF", NULL},
    {"618Ba26/off,\r25", NULL},
    {"x24,,)13", NULL},
    {"5/\t0113 \tOFF", NULL},
    {"(5)\t(3)off*22(2)18", NULL},
    {"382/", NULL},
    {"(3)322b*)", NULL},
    {"(4)/", NULL},
    {"24613(2)BAR", NULL},
    {"9924Of", NULL},
    {"(3)36)bar263", NULL},
    {"x)3/8(2)b/18", NULL},
    {"/9913off (1)", NULL},
    {"Ba3Ba", NULL},
    {"BaBa5off 2500718", NULL},
    {"3(4)xBAR", NULL},
    {"25007", NULL},
    {"off (3)3\r2522", NULL},
    {"(2)0Ba(3)0", NULL},
    {"BAR1Ofoffoff(4)*", NULL},
    {"bar(4)Ba2 ", NULL},
    {"Of0(2)", NULL},
    {"22OFFBAR6(5)22(5)", NULL},
    {"99/\t1 )6x7", NULL},
    {"off0(1))/ 22 1", NULL},
    {"226OFF53", NULL},
    {"x\r2526(1)b(1)b", NULL},
    {"261826/BAR", NULL},
    {"\tBAR(1)7", NULL},
    {"o)007\r", NULL},
    {"(2)Ba", NULL},
    {"Ba/BAR2637/ ", NULL},
    {"51", NULL},
    {"(2)off) 13007Of2213", NULL},
    {"7*,55BAR\r", NULL},
    {"\t13bar22", NULL},
    {"7 28818", NULL},
    {"(3)Ba(1)BAR", NULL},
    {"6", NULL},
    {"/o13(3)", NULL},
    {")BAR(5)8 55", NULL},
    {"3", NULL},
    {"/\r0(1)", NULL},
    {"26Of22b", NULL},
    {"7bar218BAR/(3)OFF", NULL},
    {",5,OFF999999,(1)", NULL},
    {"(3),x3", NULL},
    {"1o(4)(5)025", NULL},
    {"o22,off18", NULL},
    {"oBAR 00722", NULL},
    {"Of\t\r1,\r7/", NULL},
    {"*Ba(1)OFF", NULL},
    {"/\t1(4)x", NULL},
    {"o18Ba(5)off(1)99", NULL},
    {"228BaBa13", NULL},
    {"Ba0\rbx5*o", NULL},
    {"(5)(5)/\r", NULL},
    {"bar(2)*", NULL},
    {"0Ba*)8BAR", NULL},
    {",", ""},
    {"BARBAR24", NULL},
    {"o26", NULL},
    {"7BAROf 007", NULL},
    {"o)(1)2213BAR\r", NULL},
    {",\r/(5)3*", NULL},
    {"o2622\r3", NULL},
    {"26,Bab5/(1)(1)", NULL},
    {"Ba007818,\r", NULL},
    {" 1\rbar186off", NULL},
    {"02626\t", NULL},
    {"007", NULL},
    {"7*13383/\r/", NULL},
    {"6)99*barb0070", NULL},
    {"\r024725\r7", NULL},
    {" x ", NULL},
    {"5\t773BAR/x", NULL},
    {"x(5)\toff5\roffBAR", NULL},
    {"bar*26offb", NULL},
    {"1Of229924995", NULL},
    {"(2)55/826b", NULL},
    {"(3)/5(1)", NULL},
    {"13(3)o/bar(4)", NULL},
    {"OFF*1(3)57Ba3", NULL},
    {")(3)26", NULL},
    {")0(2)13 b", NULL},
    {"77/25", NULL},
    {"\r3Of(2)99BAR 3", NULL},
    {"35BAR", NULL},
    {"2422126)", NULL},
    {"24bar18246b)(4)24", NULL},
    {"0\rOFF1", NULL},
    {"18", NULL},
    {"(3)8699b5", NULL},
    {"(2)5(2)(5)bar007", NULL},
    {"//(3)ob", NULL},
    {"Of77(5),(5)", NULL},
    {"5\tx13 ", NULL},
    {"25)007\t26Ba1(5)26", NULL},
    {"off13BARb)5", NULL},
    {"offbar52", NULL},
    {"off3bBa", NULL},
    {"\tbar/x007(2)", NULL},
    {"bar", NULL},
    {"1(3)3Ba(1)/", NULL},
    {"376\r,//", NULL},
    {"7", NULL},
    {"\ro(4)\t(3)00726\r", NULL},
    {"\t\t6318(5)007/ ", NULL},
    {"b1885(2)221", NULL},
    {"10247241", NULL},
    {"8/25/,x)", NULL},
    {"(2)/bBa\t(3)bar(3)", NULL},
    {" (1)99", NULL},
    {"/268\r24offb/18", NULL},
    {"b1Of,2\r", NULL},
    {"(4)BaBa", NULL},
    {"0", NULL},
    {"Of(4) (3)624)13", NULL},
    {"x24)1", NULL},
    {"BAR3Ba6", "25/6 25/3"},
    {"81/*/bar", NULL},
    {"99\r22bar)o248", NULL},
    {"\r(4)05\t/", NULL},
    {"\t/OFF", NULL},
    {"24OFFx", NULL},
    {"off", NULL},
    {"24bar25", NULL},
    {"1)/Ba02x(4)", NULL},
    {"1*/x71313", NULL},
    {"//(3)x", NULL},
    {"163", NULL},
    {"7/24/20756", NULL},
    {"\t132(3))/(3)", NULL},
    {"5offBAR2499,/", NULL},
    {")0(3)OFF7xoff*2", NULL},
    {"(1)// (4)99Of1(4)", NULL},
    {"3,", NULL},
    {"BAR\r\t", NULL},
    {"b\r25OFF", NULL},
    {"Ofx(1)2", NULL},
    {"*3x)8off24", NULL},
    {" 6018,185", NULL},
    {"2(5)(4)(2)", NULL},
    {"off\r(2)", NULL},
    {"(1)22", NULL},
    {"(3)3182", NULL},
    {"3326x68", NULL},
    {"553(1)Ba/,offoff", NULL},
    {"24", NULL},
    {"x99996(3)324", NULL},
    {"(2)offoffbar8o99Of", NULL},
    {"/5007OFFBAR", NULL},
    {"007 x13o/(5)5", NULL},
    {"OFF18//1", NULL},
    {"/(2)5/o", NULL},
    {"0073*1Of\t/", NULL},
    {"\r99024996", NULL},
    {"/\r(2)/(1)/", NULL},
    {"(4)", NULL},
    {"**(1)007/", NULL},
    {"/006b(4)(2)625", NULL},
    {"(3)//1barb", NULL},
    {"(2)(3)*6\tOFFo", NULL},
    {",\r82522", NULL},
    {"OFF1325007", NULL},
    {"26(1)OFF 1\t99bar)", NULL},
    {"o(4)26Of 24,", NULL},
    {"7(2)26barOf 7", NULL},
    {",)25 ,OFF/", NULL},
    {"*/99\t", NULL},
    {"x/\t1 (4)7,24", NULL},
    {"6(3) ", NULL},
    {"Of8(2)(3)b 67", NULL},
    {")\rx99(5)/o,o", NULL},
    {"b1bOf", "25/1 25/0"},
    {" (5)", NULL},
    {"Ba213/(1))bbo", NULL},
    {"24(4)/\rOFF(4)/8)", NULL},
    {"(3)32offo22(4)0", NULL},
    {"/ x/x3", NULL},
    {"))", ""},
    {" ", ""},
    {"bar5 1/007 (3)", "25/5 1/7 1/7 1/7"},
    {"Bao", "25/0"},
    {"\t", ""},
    {"18\r0", "18/0"},
    {"5off", "5/0"},
    {"BAR/18", "25/18"},
    {")", ""},
    {"\tBaOf,", "25/0"},
    {"22 13(3)\r2(3)Of\t", "22/13 13/13 2/2 2/0"},
    {"6/OFF 25 2, 11 /off", "25/2 11/0 6/0"},
    {"23*, 11, 18/20", "23/11 18/20"},
    {"3*/1", "3/1"},
    {"b*, 13(3) /OFF", "25/13 13/13 13/0"},
    {"20, 24", "20/24"},
    {"11/ 6*/8", "11/6 6/8"},
    {"3*/3", "3/3"},
    {"13/0", "13/0"},
    {"3/11/ 2", "11/2 3/11"},
    {"3 o, b*/13/ 23", "25/13 13/23 3/0"},
    {"18 /2/8*", "18/2 2/8"},
    {"20*, 2", "20/2"},
    {"24 6", "24/6"},
    {"20 18*", "20/18"},
    {"11*/20", "11/20"},
    {"3, 24*/13(3)", "24/13 24/13 24/13 3/24"},
    {"6/23/5/6", "23/5 6/23 5/6"},
    {"BAR*/3", "25/3"},
    {"3 /20 8*, OFF", "8/0 3/20"},
    {"8*/3/8", "8/3 3/8"},
    {"25*, 13", "25/13"},
    {"20/2*/20 8*/0", "20/2 8/0 2/20"},
    {"BAR/18*, b 8*", "25/18 25/8"},
    {"1/0 bar 6", "25/6 1/0"},
    {"11*, 23(3)/5/0", "23/23 23/5 11/23 5/0"},
    {"8*/5(3)", "8/5 8/5 8/5"},
    {"1*/1/2", "1/2 1/1"},
    {"3 /18/24", "18/24 3/18"},
    {"8**, 23/23**, 5*, 2", "23/23 8/23 5/2"},
    {"5/11", "5/11"},
    {"2 o", "2/0"},
    {"b/23", "25/23"},
    {"13 /1/OFF 23*/23*/5", "23/23 23/5 13/1 1/0"},
    {"5*, off 5(2)*, 11 /3", "11/3 5/5 5/0"},
    {"24, 8", "24/8"},
    {"11 /o", "11/0"},
    {"18 20*/ 3", "20/3 18/20"},
    {"11*/11 /18/ 3 /OFF*", "18/3 11/18 11/11 3/0"},
    {"2 /20 /o*", "20/0 2/20"},
    {"2, 2/OFF, bar OFF*", "25/0 2/2 2/0"},
    {"18/o", "18/0"},
    {"8/23/OFF", "23/0 8/23"},
    {"20*/5*", "20/5"},
    {"BAR/8/23/5", "25/8 23/5 8/23"},
    {"18/2", "18/2"},
    {"6/off(2)", "6/0 6/0"},
    {"8/20", "8/20"},
    {"11 23", "11/23"},
    {"13 20* 3* 23/6(2)\r", "23/6 23/6 13/20 3/23"},
    {"b/6", "25/6"},
    {"3* 13", "3/13"},
    {"8 8(3)", "8/8 8/8"},
    {"1/1", "1/1"},
    {"11 11* b ,0 bar 24*", "25/24 25/0 11/11"},
    {"18 6 23 3", "23/3 18/6"},
    {"6/6(2)", "6/6 6/6"},
    {"23/13", "23/13"},
    {"24/23/off ,bar 8 25 off", "25/8 25/0 24/23 23/0"},
    {"25 O* 18(2)", "25/0 18/18"},
    {"25/11", "25/11"},
    {"23 18*\r", "23/18"},
    {"20/6, 3/0", "20/6 3/0"},
    {"B 8 8/OFF", "25/8 8/0"},
    {"24/off\r", "24/0"},
    {"18/20", "18/20"},
    {"bar/0", "25/0"},
    {"BAR/11*", "25/11"},
    {"23/3 ,23 18 13 3*", "23/18 23/3 13/3"},
    {"25/24* ,3/2", "25/24 3/2"},
    {"13 8*", "13/8"},
    {"18* 5", "18/5"},
    {"BAR/5*, 13/20*, 11 0", "25/5 13/20 11/0"},
    {"b*/3", "25/3"},
    {"13/8", "13/8"},
    {"18/5", "18/5"},
    {"b/13, bar/3", "25/13 25/3"},
    {"3/11", "3/11"},
    {"18 off ,b 5 ,1/off ,23 1*", "25/5 23/1 18/0 1/0"},
    {"6/23(2)", "6/23 6/23"},
    {"6/20, 1 13", "6/20 1/13"},
    {"8 11 3 8/O", "8/11 8/0 3/8"},
    {"2/23*", "2/23"},
    {"25/5*/o", "25/5 5/0"},
    {"bar/13", "25/13"},
    {"25* 1", "25/1"},
    {"13*/OFF ,13/OFF ,8 13* 2 0", "13/0 13/0 8/13 2/0"},
    {"11 off ,2 13 ,20/off ,6/off", "20/0 11/0 6/0 2/13"},
    {"5/0", "5/0"},
    {"8/3", "8/3"},
    {"3 23 6* o", "6/0 3/23"},
    {"18 3 ,13/3* ,BAR/24", "25/24 18/3 13/3"},
    {"3/24", "3/24"},
    {"13/2 11* 23\r", "13/2 11/23"},
    {"18/o ,bar/5", "25/5 18/0"},
    {"13/off", "13/0"},
    {"BAR/5, 3/8/24\r", "25/5 8/24 3/8"},
    {"11/8 11*/0*(2)", "11/8 11/0 11/0"},
    {"BAR 6 11 1\r", "25/6 11/1"},
};

static void test_parse_like_gnubg(void **state)
{
    (void)state;
    int accepted = 0;
    for (size_t i = 0; i < sizeof gnubg_parse / sizeof gnubg_parse[0]; i++) {
        Move m;
        Err err = {{0}};
        bool ok = movetext_parse(gnubg_parse[i].text, &m, &err);
        if (!gnubg_parse[i].parts) {
            if (ok)
                fail_msg("'%s' accepted, gnubg refuses it", gnubg_parse[i].text);
            assert_true(err.text[0] != '\0');
            continue;
        }
        if (!ok)
            fail_msg("'%s' refused (%s), gnubg accepts it", gnubg_parse[i].text, err.text);
        char got[64];
        parts_text(&m, got, sizeof got);
        if (strcmp(got, gnubg_parse[i].parts))
            fail_msg("'%s' gives '%s', gnubg '%s'", gnubg_parse[i].text, got,
                     gnubg_parse[i].parts);
        accepted++;
    }
    print_message("parser: %zu texts as gnubg reads them (%d accepted)\n",
                  sizeof gnubg_parse / sizeof gnubg_parse[0], accepted);
}

static void expect_parse(const char *text, const char *want)
{
    Move m;
    Err err = {{0}};
    if (!movetext_parse(text, &m, &err))
        fail_msg("'%s' refused: %s", text, err.text);
    char got[64];
    parts_text(&m, got, sizeof got);
    assert_string_equal(got, want);
}

static void test_parse_rules(void **state)
{
    (void)state;
    /* '-' is off, not a separator (Python's gnubg.parsemove hides this). */
    expect_parse("6-", "6/0");
    expect_parse("6/- 5-", "6/0 5/0");
    expect_parse_error("24-18", "no destination");
    expect_parse_error("24-18", "'-' means off");
    Move m;
    Err plain = {{0}};
    assert_false(movetext_parse("24/18/", &m, &plain));
    assert_null(strstr(plain.text, "'-' means off"));
    /* Indices: bar 24, off POS_OFF. */
    assert_true(movetext_parse("bar/22 6/off", &m, NULL));
    assert_int_equal(m.parts, 2);
    assert_int_equal(m.from[0], POS_BAR);
    assert_int_equal(m.to[0], 21);
    assert_int_equal(m.from[1], 5);
    assert_int_equal(m.to[1], POS_OFF);
    assert_true(pos_checkers(&m.result, 0) == 0 && pos_checkers(&m.result, 1) == 0);
    expect_parse("13/7 13/7 7/1 7/1\r\n", "13/7 13/7 7/1 7/1");
    expect_parse("3/OFF, 1/Off", "3/0 1/0");

    /* Each refusal says what is wrong. */
    expect_parse_error("24/18 xyz", "unexpected 'x' at column 7");
    expect_parse_error("double", "unexpected 'd' at column 1");
    expect_parse_error("26/20", "point 26");
    expect_parse_error("24//18", "follows another '/'");
    expect_parse_error("/24/18", "no point before it");
    expect_parse_error("24/18/", "ends with '/'");
    expect_parse_error("0/5", "from off");
    expect_parse_error("24/25", "to the bar");
    expect_parse_error("6/0/1", "after off");
    expect_parse_error("24/18(1)", "2 or more");
    expect_parse_error("24(2)", "does not follow a part");
    expect_parse_error("24/(2)", "does not follow a part");
    expect_parse_error("24/18/(2)", "right before '('");
    expect_parse_error("24/22(5)", "more than 8 points");
    expect_parse_error("24/18(x)", "not followed by a repeat count");
    expect_parse_error("1 2 3 4 5 6 7 8 9", "too many points");
    expect_parse_error("24/20/16/12/8/4", "more than 4 parts");
    expect_parse_error("24 18 13", "point 13 has no destination");
    expect_parse_error("24/18 \xc3\xa9", "byte 0xc3");
    /* gnubg skips whatever follows a count; Shesh reads it, so a typo after
     * the count is reported instead of swallowed. */
    expect_parse_error("24/18(2x", "unexpected 'x'");
    expect_parse("24/18(2", "24/18 24/18");
    /* A long run of digits does not overflow. */
    expect_parse_error("99999999999999999999/1", "out of range");
}

/* ---- matching -------------------------------------------------------- */

static int match(const Position *p, int d1, int d2, const char *text, Err *err)
{
    MoveList *l = list_new();
    movegen_generate(p, d1, d2, l);
    int i = movetext_match_roll(p, l, d1, d2, text, err);
    free(l);
    return i;
}

static void expect_match(const Position *p, int d1, int d2, const char *text,
                         const char *display)
{
    MoveList *l = list_new();
    movegen_generate(p, d1, d2, l);
    Err err = {{0}};
    int i = movetext_match_roll(p, l, d1, d2, text, &err);
    if (i < 0)
        fail_msg("'%s' with %d-%d: %s", text, d1, d2, err.text);
    char out[MOVETEXT_MAX];
    movetext_display(p, &l->moves[i], out);
    free(l);
    assert_string_equal(out, display);
}

static void expect_no_match(const Position *p, int d1, int d2, const char *text,
                            const char *message)
{
    Err err = {{0}};
    int i = match(p, d1, d2, text, &err);
    if (i != -1)
        fail_msg("'%s' with %d-%d reads as move %d", text, d1, d2, i);
    assert_string_equal(err.text, message);
}

static void test_match(void **state)
{
    (void)state;
    Position start;
    pos_start(&start);
    expect_match(&start, 3, 1, "8/5 6/5", "8/5 6/5");
    expect_match(&start, 3, 1, "6/5 8/5", "8/5 6/5");
    expect_match(&start, 3, 1, "8 5 6 5", "8/5 6/5");
    expect_match(&start, 6, 3, "24/15", "24/15");
    expect_match(&start, 6, 3, "24/21/15", "24/15");
    expect_match(&start, 6, 6, "24/18(2) 13/7(2)", "24/18(2) 13/7(2)");
    expect_match(&start, 6, 6, "13/7 24/18 13/7 24/18", "24/18(2) 13/7(2)");

    expect_no_match(&start, 3, 1, "24/1",
                    "24/1 is not legal with 3-1: the 1 point is held by the opponent");
    expect_no_match(&start, 3, 1, "8/5",
                    "8/5 is not legal with 3-1: it moves 3 pips, every legal move at least 4");
    expect_no_match(&start, 3, 1, "8/4 6/5", "8/4 6/5 is not legal with 3-1");
    expect_no_match(&start, 1, 3, "", "no move given, but 16 legal moves exist with 3-1");
    expect_no_match(&start, 3, 1, "7/4 6/5", "7/4 6/5 is not legal with 3-1: no checker on the 7 point");
    expect_no_match(&start, 3, 1, "6 8", "6/8 is not legal with 3-1: a checker cannot move backwards");
    expect_no_match(&start, 3, 1, "bar/22", "bar/22 is not legal with 3-1: no checker on the bar");
    expect_no_match(&start, 5, 2, "13/8 6/1", "13/8 6/1 is not legal with 5-2: the 1 point is held by the opponent");
    Err err = {{0}};
    assert_int_equal(match(&start, 3, 1, "24/18(2x", &err), -1);
    assert_non_null(strstr(err.text, "unexpected 'x'"));

    /* The roll is left out of messages when it is not known. */
    MoveList *l = list_new();
    movegen_generate(&start, 3, 1, l);
    assert_int_equal(movetext_match(&start, l, "8/4 6/5", &err), -1);
    assert_string_equal(err.text, "8/4 6/5 is not legal");
    assert_int_equal(movetext_match(&start, l, "8/4 6/5", NULL), -1);
    free(l);

    /* 6-3 with a blot on 21 and the 18 point closed: the only way to 15
     * hits on 21. Played in one hop, "24/15" would miss the hit, yet it can
     * only mean the move through 21, and it is accepted as that. */
    Position p = start_with_blots((const int[]){21, 0});
    p.side[SIDE_OPPONENT][24 - 18] = 2;
    p.side[SIDE_OPPONENT][12] -= 2;
    expect_match(&p, 6, 3, "24/15", "24/21*/15");
    expect_match(&p, 6, 3, "24/21*/15", "24/21*/15");
    expect_match(&p, 3, 6, "21/15 24/21", "24/21*/15");

    /* With 18 open too, the one hop reaches the quiet 24/18/15, as in
     * gnubg. */
    p = start_with_blots((const int[]){21, 0});
    expect_match(&p, 6, 3, "24/15", "24/15");
    expect_match(&p, 6, 3, "24/21/15", "24/21*/15");

    /* Blots on both 21 and 18: "24/15" hits one of them, but which? */
    p = start_with_blots((const int[]){21, 18, 0});
    expect_no_match(&p, 6, 3, "24/15",
                    "24/15 is ambiguous with 6-3: it could be 24/18*/15 or 24/21*/15");
    expect_match(&p, 6, 3, "24/18*/15", "24/18*/15");

    /* gnubg would take "24/18 18/13" as "24/18" when 13 is closed and only
     * the 6 can be played; the blocked part is reported instead. */
    Position b;
    memset(&b, 0, sizeof b);
    b.side[SIDE_ROLLER][23] = 1;
    b.side[SIDE_OPPONENT][24 - 13] = 2;
    assert_true(pos_valid(&b, NULL));
    expect_match(&b, 6, 5, "24/18", "24/18");
    expect_no_match(&b, 6, 5, "24/18 18/13",
                    "24/13 is not legal with 6-5: the 13 point is held by the opponent");

    /* No legal move: only the empty answer is right. */
    Position dance;
    memset(&dance, 0, sizeof dance);
    dance.side[SIDE_ROLLER][POS_BAR] = 1;
    for (int i = 0; i < 6; i++)
        dance.side[SIDE_OPPONENT][i] = 2;
    l = list_new();
    assert_int_equal(movegen_generate(&dance, 6, 6, l), 0);
    assert_int_equal(movetext_match_roll(&dance, l, 6, 6, "", &err), MOVETEXT_PASS);
    assert_int_equal(movetext_match_roll(&dance, l, 6, 6, " \r\n", &err), MOVETEXT_PASS);
    assert_int_equal(movetext_match_roll(&dance, l, 6, 6, "bar/19", &err), -1);
    assert_string_equal(err.text, "bar/19 is not legal: no move is possible with 6-6");
    free(l);
}

/* Threads parse and match at once (the lexer's pattern is compiled on first
 * use, by whichever thread comes first): every answer must still be right. */
typedef struct ThreadJob {
    const MoveList *legal;
    const Position *pos;
    int wrong;
} ThreadJob;

static void *match_all(void *arg)
{
    ThreadJob *job = arg;
    for (int round = 0; round < 50; round++)
        for (int i = 0; i < job->legal->count; i++) {
            char text[MOVETEXT_MAX];
            movetext_display(job->pos, &job->legal->moves[i], text);
            if (movetext_match_roll(job->pos, job->legal, 3, 1, text, NULL) != i)
                job->wrong++;
        }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    enum { THREADS = 8 };
    Position start;
    pos_start(&start);
    MoveList *l = list_new();
    assert_int_equal(movegen_generate(&start, 3, 1, l), 16);
    pthread_t tid[THREADS];
    ThreadJob jobs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (ThreadJob){l, &start, 0};
        assert_int_equal(pthread_create(&tid[t], NULL, match_all, &jobs[t]), 0);
    }
    for (int t = 0; t < THREADS; t++) {
        assert_int_equal(pthread_join(tid[t], NULL), 0);
        assert_int_equal(jobs[t].wrong, 0);
    }
    free(l);
}

/* ---- gnubg's vectors ------------------------------------------------- */

/* One row of moves.tsv.gz, decoded, with its legal moves generated. */
typedef struct MovesRow {
    TsvReader r;
    Position p;
    int d1, d2, n;
    MoveList l;
} MovesRow;

static MovesRow *moves_open(void)
{
    MovesRow *it = malloc(sizeof *it);
    assert_non_null(it);
    assert_true(tsv_open(&it->r, "positions/gnubg-1.07/moves.tsv.gz"));
    return it;
}

static bool moves_next(MovesRow *it)
{
    if (!tsv_next(&it->r)) {
        tsv_close(&it->r);
        return false;
    }
    Err err = {{0}};
    if (!posid_decode(it->r.field[0], &it->p, &err))
        fail_msg("line %d: %s", it->r.lineno, err.text);
    it->d1 = it->r.field[1][0] - '0';
    it->d2 = it->r.field[1][1] - '0';
    it->n = movegen_generate(&it->p, it->d1, it->d2, &it->l);
    if (it->n != atoi(it->r.field[2]))
        fail_msg("line %d: %d moves, gnubg %s", it->r.lineno, it->n, it->r.field[2]);
    return true;
}

/* moves.tsv.gz: the display text of every legal move equals gnubg's, and
 * both the display and the plain text read back to that same move. */
static void test_moves_vectors(void **state)
{
    (void)state;
    MovesRow *it = moves_open();
    const Position *p = &it->p;
    int rows = 0;
    long moves = 0;
    while (moves_next(it)) {
        int line = it->r.lineno, d1 = it->d1, d2 = it->d2;
        const char *list = it->r.field[3];
        Err err = {{0}};
        rows++;
        if (!it->n)
            assert_int_equal(movetext_match_roll(p, &it->l, d1, d2, "", &err), MOVETEXT_PASS);
        for (int i = 0; i < it->n; i++) {
            const Move *m = &it->l.moves[i];
            char id[POSID_LEN + 1], key[POSID_LEN + 2], disp[MOVETEXT_MAX], plain[MOVETEXT_MAX];
            posid_encode(&m->result, id);
            snprintf(key, sizeof key, "%s=", id);
            const char *at = strstr(list, key);
            if (!at)
                fail_msg("line %d: result %s is not in gnubg's list", line, id);
            at += POSID_LEN + 1;
            size_t len = strcspn(at, ";");
            movetext_display(p, m, disp);
            if (strlen(disp) != len || strncmp(disp, at, len))
                fail_msg("line %d (%s %d%d): display '%s', gnubg '%.*s'", line,
                         it->r.field[0], d1, d2, disp, (int)len, at);
            int back = movetext_match_roll(p, &it->l, d1, d2, disp, &err);
            if (back != i)
                fail_msg("line %d: '%s' reads back as %d, not %d: %s", line, disp, back, i,
                         back < 0 ? err.text : "");
            movetext_plain(p, m, plain);
            back = movetext_match_roll(p, &it->l, d1, d2, plain, &err);
            if (back != i)
                fail_msg("line %d: '%s' reads back as %d, not %d: %s", line, plain, back, i,
                         back < 0 ? err.text : "");
            moves++;
        }
    }
    assert_int_equal(rows, 6615);
    print_message("moves.tsv.gz: %d rows, %ld moves: display text equal to gnubg's, display "
                  "and plain text read back\n",
                  rows, moves);
    free(it);
}

/* Drops the hit points kept inside chains of a display text, so that the
 * chain from 24 through a hit on 20 to 16 is written "24/16". */
static bool elide_hits(const char *in, char *out, size_t n)
{
    bool changed = false;
    size_t k = 0;
    for (const char *s = in; *s && k + 1 < n; s++) {
        if (*s == '/') {
            /* a '/' that starts "POINT*" followed by another '/' goes */
            const char *t = s + 1;
            while (*t >= '0' && *t <= '9')
                t++;
            if (t > s + 1 && t[0] == '*' && t[1] == '/') {
                s = t;
                changed = true;
                continue;
            }
        }
        out[k++] = *s;
    }
    out[k] = '\0';
    return changed;
}

/* Every legal move of moves.tsv.gz with a hit on the way, written without
 * the hit point ("24/16" for the chain through a hit on 20), still reads as
 * a legal move: the move itself, or a quiet move that the one-hop rule
 * reaches first, and at worst "ambiguous"; never "not legal". */
static void test_elided_hits(void **state)
{
    (void)state;
    MovesRow *it = moves_open();
    int same = 0, quiet = 0, ambiguous = 0;
    while (moves_next(it)) {
        for (int i = 0; i < it->n; i++) {
            char disp[MOVETEXT_MAX], text[MOVETEXT_MAX];
            movetext_display(&it->p, &it->l.moves[i], disp);
            if (!elide_hits(disp, text, sizeof text))
                continue;
            Err err = {{0}};
            int j = movetext_match_roll(&it->p, &it->l, it->d1, it->d2, text, &err);
            if (j == i)
                same++;
            else if (j >= 0)
                quiet++;
            else if (strstr(err.text, "is ambiguous"))
                ambiguous++;
            else
                fail_msg("line %d: '%s' for '%s': %s", it->r.lineno, text, disp, err.text);
        }
    }
    assert_true(same > 0 && quiet > 0 && ambiguous > 0);
    print_message("moves.tsv.gz: hits elided from %d moves: %d read as the move, %d as a quiet "
                  "move, %d ambiguous\n",
                  same + quiet + ambiguous, same, quiet, ambiguous);
    free(it);
}

/* fibs.tsv.gz: every move gnubg's external server answered is, byte for
 * byte, the plain text of the legal move it reads as. */
static void test_fibs_plain(void **state)
{
    (void)state;
    TsvReader *r = malloc(sizeof *r);
    MoveList *l = list_new();
    assert_non_null(r);
    assert_true(tsv_open(r, "positions/gnubg-1.07/fibs.tsv.gz"));
    int rows = 0, empty = 0;
    while (tsv_next(r)) {
        const char *source = r->field[0], *reply = r->field[2], *roll = r->field[9];
        if (!strstr(source, ":move") || !strcmp(roll, "00") || !strncmp(reply, "Error", 5))
            continue;
        Position p;
        Err err = {{0}};
        if (!posid_decode(r->field[3], &p, &err))
            fail_msg("line %d: %s", r->lineno, err.text);
        int d1 = roll[0] - '0', d2 = roll[1] - '0';
        movegen_generate(&p, d1, d2, l);
        int i = movetext_match_roll(&p, l, d1, d2, reply, &err);
        if (i == MOVETEXT_PASS) {
            assert_string_equal(reply, "");
            empty++;
            rows++;
            continue;
        }
        if (i < 0)
            fail_msg("line %d: '%s' with %s: %s", r->lineno, reply, roll, err.text);
        char plain[MOVETEXT_MAX];
        movetext_plain(&p, &l->moves[i], plain);
        if (strcmp(plain, reply))
            fail_msg("line %d: plain '%s', gnubg '%s'", r->lineno, plain, reply);
        rows++;
    }
    tsv_close(r);
    assert_true(rows > 500);
    print_message("fibs.tsv.gz: %d server move answers (%d empty) equal to the plain text\n",
                  rows, empty);
    free(l);
    free(r);
}

/* The position and roll of a board line gnubg sent as a client: colour 1,
 * direction -1, player 1 (the external player, positive) on roll. */
static void board_of(const char *line, Position *p, int *d1, int *d2)
{
    int f[53];
    const char *s = strchr(line, ':');
    assert_non_null(s);
    s = strchr(s + 1, ':'); /* after the first name */
    assert_non_null(s);
    s = strchr(s + 1, ':'); /* after the second name */
    assert_non_null(s);
    int n = 3;
    while (s && n <= 52) {
        f[n++] = atoi(s + 1);
        s = strchr(s + 1, ':');
    }
    assert_int_equal(n, 53);
    assert_int_equal(f[32], 1);
    assert_int_equal(f[41], 1);
    assert_int_equal(f[42], -1);
    memset(p, 0, sizeof *p);
    for (int k = 1; k <= 24; k++) {
        int v = f[6 + k];
        if (v > 0)
            p->side[SIDE_ROLLER][k - 1] = (uint8_t)v;
        else
            p->side[SIDE_OPPONENT][24 - k] = (uint8_t)-v;
    }
    p->side[SIDE_ROLLER][POS_BAR] = (uint8_t)f[31];
    p->side[SIDE_OPPONENT][POS_BAR] = (uint8_t)-f[6];
    *d1 = f[33];
    *d2 = f[34];
}

/* Undoes the escapes of reply_sent ("\r" for a carriage return). */
static void unescape(const char *in, char *out, size_t n)
{
    size_t k = 0;
    for (; *in && k + 1 < n; in++) {
        if (in[0] == '\\' && in[1]) {
            in++;
            out[k++] = *in == 'r' ? '\r' : *in == 'n' ? '\n' : *in == 't' ? '\t' : *in;
        } else
            out[k++] = *in;
    }
    out[k] = '\0';
}

/* client_capture.tsv.gz: every answer of match5-notations (gnubg's answer
 * respelled eight ways) reads as the same move as gnubg's own answer on the
 * same board in match5; "24/1" of illegal-move is refused. */
static void test_capture_respellings(void **state)
{
    (void)state;
    enum { TURNS = 200 };
    static char board[TURNS][512], reply[TURNS][128];
    TsvReader *r = malloc(sizeof *r);
    MoveList *l = list_new();
    assert_non_null(r);
    assert_true(tsv_open(r, "positions/gnubg-1.07/client_capture.tsv.gz"));
    int checked = 0, illegal = 0;
    while (tsv_next(r)) {
        const char *run = r->field[0], *kind = r->field[2];
        int n = atoi(r->field[1]);
        if (strcmp(kind, "move") || n < 0 || n >= TURNS)
            continue;
        Position p;
        int d1, d2;
        char text[128];
        Err err = {{0}};
        unescape(r->field[5], text, sizeof text);
        if (!strcmp(run, "match5")) {
            snprintf(board[n], sizeof board[n], "%s", r->field[3]);
            snprintf(reply[n], sizeof reply[n], "%s", text);
        } else if (!strcmp(run, "match5-notations")) {
            if (strcmp(board[n], r->field[3]))
                fail_msg("turn %d: the boards of match5 and match5-notations differ", n);
            board_of(r->field[3], &p, &d1, &d2);
            movegen_generate(&p, d1, d2, l);
            int want = movetext_match_roll(&p, l, d1, d2, reply[n], &err);
            if (want == -1)
                fail_msg("turn %d: gnubg's '%s': %s", n, reply[n], err.text);
            int got = movetext_match_roll(&p, l, d1, d2, text, &err);
            if (got != want)
                fail_msg("turn %d: '%s' reads as %d, gnubg's '%s' as %d (%s)", n, text, got,
                         reply[n], want, got < 0 ? err.text : "");
            checked++;
        } else if (!strcmp(run, "illegal-move") && !strcmp(r->field[6], "override")) {
            board_of(r->field[3], &p, &d1, &d2);
            movegen_generate(&p, d1, d2, l);
            assert_int_equal(movetext_match_roll(&p, l, d1, d2, text, &err), -1);
            assert_non_null(strstr(err.text, "is not legal with"));
            illegal++;
        }
    }
    tsv_close(r);
    assert_true(checked >= 50);
    assert_true(illegal >= 1);
    print_message("client_capture.tsv.gz: %d respelled answers read as gnubg's, %d illegal "
                  "answers refused\n",
                  checked, illegal);
    free(l);
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain),
        cmocka_unit_test(test_display),
        cmocka_unit_test(test_parse_like_gnubg),
        cmocka_unit_test(test_parse_rules),
        cmocka_unit_test(test_match),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_moves_vectors),
        cmocka_unit_test(test_elided_hits),
        cmocka_unit_test(test_fibs_plain),
        cmocka_unit_test(test_capture_respellings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
