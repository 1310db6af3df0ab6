/* test_proto.c - the protocol layer, always through proto_handle(): every row
 * of fibs.tsv.gz and client_capture.tsv.gz answered with the right kind of
 * reply (moves legal, cube answers within cube access), the conformance
 * transcripts in proto/ (*.txt), every bad-input case of anchors.md, and the
 * same answers from several threads at once. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "fibsboard.h"
#include "movegen.h"
#include "movetext.h"
#include "posid.h"
#include "proto.h"
#include "transcript.h"
#include "tsv.h"
#include "version.h"

#define FIBS_TSV "positions/gnubg-1.07/fibs.tsv.gz"
#define CAPTURE_TSV "positions/gnubg-1.07/client_capture.tsv.gz"
#define TEST_MAX_PLIES 2
#define MAX_CUBE 64 /* the server's doubling limit (the default rules') */

static Engine *engine;
static ProtoConfig cfg;
static FibsParser *parser;

/* gnubg's plain move notation: 1-3 parts each followed by a blank, or four
 * parts with no blank after the last. gnubg's client parses nothing else. */
static pcre2_code *move_re;
#define PART "(?:25|2[0-4]|1[0-9]|[1-9])/(?:2[0-4]|1[0-9]|[0-9])\\*?"
static const char move_pattern[] = "^(?:(?:" PART " ){1,3}|(?:" PART " ){3}" PART ")$";

static pcre2_code *compile(const char *pattern)
{
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                                   PCRE2_ANCHORED | PCRE2_ENDANCHORED, &code, &off, NULL);
    if (!re)
        fail_msg("pattern '%s' does not compile at %zu", pattern, (size_t)off);
    return re;
}

static bool matches(const pcre2_code *re, const char *s, size_t len)
{
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    int rc = pcre2_match(re, (PCRE2_SPTR)s, len, 0, 0, md, NULL);
    pcre2_match_data_free(md);
    return rc >= 0;
}

static int setup(void **state)
{
    (void)state;
    Err err;
    engine = engine_new("default", &err);
    if (!engine) {
        fprintf(stderr, "engine: %s\n", err.text);
        return -1;
    }
    cfg.engine = engine;
    cfg.plies = 0;
    cfg.max_plies = TEST_MAX_PLIES;
    parser = fibs_parser_new(0, &err);
    move_re = compile(move_pattern);
    return parser ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    engine_free(engine);
    fibs_parser_free(parser);
    pcre2_code_free(move_re);
    return 0;
}

/* ---- helpers ---------------------------------------------------------------- */

/* The reply to one request (len bytes), as a malloc'd string; *res gets the
 * result. Every PROTO_REPLY must end with '\n'. */
static char *ask_n(ProtoSession *s, const char *line, size_t len, ProtoResult *res)
{
    Buf out;
    buf_init(&out);
    ProtoResult r = proto_handle(&cfg, s, line, len, &out);
    if (res)
        *res = r;
    if (r == PROTO_REPLY && (out.len == 0 || out.data[out.len - 1] != '\n'))
        fail_msg("reply to '%.60s' does not end with a newline: '%s'", line,
                 out.data ? out.data : "");
    if (r == PROTO_CLOSE && out.len != 0)
        fail_msg("'%.60s' closed the connection but wrote '%s'", line, out.data);
    char *text = strdup(out.data ? out.data : "");
    buf_free(&out);
    return text;
}

static char *ask(ProtoSession *s, const char *line)
{
    return ask_n(s, line, strlen(line), NULL);
}

static int count_lines(const char *reply)
{
    int n = 0;
    for (const char *p = reply; *p; p++)
        n += *p == '\n';
    return n;
}

/* Token kinds of gnubg's parser must never reach a user. */
static void assert_one_error_line(const char *request, const char *reply)
{
    if (strncmp(reply, "Error: ", 7) != 0 || count_lines(reply) != 1)
        fail_msg("'%.80s' should give one Error: line, got '%s'", request, reply);
    static const char *const tokens[] = {"E_CHARACTER", "E_STRING", "E_INTEGER", "E_FLOAT",
                                         "E_BOOLEAN", "FIBSBOARD", "EOL", "syntax error"};
    for (size_t i = 0; i < sizeof tokens / sizeof tokens[0]; i++)
        if (strstr(reply, tokens[i]))
            fail_msg("error for '%.60s' names a parser token: %s", request, reply);
    if (strlen(reply) < 20)
        fail_msg("error for '%.60s' says too little: %s", request, reply);
}

/* The last line of a reply (the answer after any DBG: lines), without '\n'. */
static const char *last_line(const char *reply, char *buf, size_t size)
{
    size_t n = strlen(reply);
    if (n && reply[n - 1] == '\n')
        n--;
    size_t start = n;
    while (start > 0 && reply[start - 1] != '\n')
        start--;
    snprintf(buf, size, "%.*s", (int)(n - start), reply + start);
    return buf;
}

/* The value after "DBG:  KEY" in a debug block ("" when absent). */
static void debug_value(const char *reply, const char *key, char *buf, size_t size)
{
    buf[0] = '\0';
    const char *p = strstr(reply, key);
    if (!p)
        return;
    p += strlen(key);
    size_t n = strcspn(p, "\n");
    snprintf(buf, size, "%.*s", (int)n, p);
}

/* Is `reply` (one line, no '\n') a legal move of p for d1-d2 in gnubg's
 * plain notation? An empty reply is right only when no move is legal. */
static void check_move(const Position *p, int d1, int d2, const char *reply, const char *what)
{
    MoveList *legal = malloc(sizeof *legal);
    assert_non_null(legal);
    int n = movegen_generate(p, d1, d2, legal);
    Err err;
    if (n == 0) {
        if (reply[0] != '\0')
            fail_msg("%s: no legal move for %d-%d, but the reply is '%s'", what, d1, d2, reply);
    } else {
        if (!matches(move_re, reply, strlen(reply)))
            fail_msg("%s: '%s' is not gnubg's plain notation", what, reply);
        if (movetext_match_roll(p, legal, d1, d2, reply, &err) < 0)
            fail_msg("%s: '%s' is not a legal move: %s", what, reply, err.text);
    }
    free(legal);
}

/* ---- small commands --------------------------------------------------------- */

static void test_version_help(void **state)
{
    (void)state;
    ProtoSession *s = proto_session_new();
    char *r = ask(s, "version");
    char want[200];
    snprintf(want, sizeof want, "Interface: 2\nRFBF: 0\nEngine: %s\nSoftware: shesh %s\n",
             engine_id(engine), SHESH_VERSION);
    assert_string_equal(r, want);
    free(r);
    r = ask(s, "  VERSION\r");
    assert_string_equal(r, want);
    free(r);
    r = ask(s, "help");
    assert_true(count_lines(r) >= 8);
    assert_non_null(strstr(r, "evaluation fibsboard"));
    assert_non_null(strstr(r, "set debug"));
    free(r);
    proto_session_free(s);
}

static void test_set_and_exit(void **state)
{
    (void)state;
    ProtoSession *s = proto_session_new();
    static const struct {
        const char *req, *reply;
    } cases[] = {
        {"set debug on", "Debug output ON\n"},   {"set debug off", "Debug output OFF\n"},
        {"set debug yes", "Debug output ON\n"},  {"set debug FALSE", "Debug output OFF\n"},
        {"set debug true", "Debug output ON\n"}, {"set debug no", "Debug output OFF\n"},
        {"set interface old", "New interface OFF\n"},
        {"set interface new", "New interface ON\n"},
        {"set boards fibs", "Boards as FIBS writes them\n"},
        {"set boards gnubg", "Boards as gnubg writes them\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *r = ask(s, cases[i].req);
        assert_string_equal(r, cases[i].reply);
        free(r);
    }
    static const char *const bad[] = {"set",        "set debug",           "set debug 1",
                                      "set debug maybe", "set interface", "set interface 2",
                                      "set prompt '> '", "set prompt foo", "set foo",
                                      "set debug on off", "set boards xg"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *r = ask(s, bad[i]);
        assert_one_error_line(bad[i], r);
        free(r);
    }
    ProtoResult res;
    free(ask_n(s, "exit", 4, &res));
    assert_int_equal(res, PROTO_CLOSE);
    free(ask_n(s, "QUIT\r", 5, &res));
    assert_int_equal(res, PROTO_CLOSE);
    char *r = ask_n(s, "exit now", 8, &res);
    assert_int_equal(res, PROTO_REPLY);
    assert_one_error_line("exit now", r);
    free(r);
    proto_session_free(s);
}

/* ---- bad input (anchors.md: robustness) ---------------------------------------- */

#define OPENING_31 "board:You:Opp:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0"

/* base with field f (1-based after "board:") replaced by v. */
static void with_field(char *out, size_t size, const char *base, int f, const char *v)
{
    char copy[400];
    snprintf(copy, sizeof copy, "%s", base + 6);
    char *fields[60];
    int n = 0;
    for (char *p = strtok(copy, ":"); p && n < 60; p = strtok(NULL, ":"))
        fields[n++] = p;
    size_t at = (size_t)snprintf(out, size, "board");
    for (int i = 0; i < n; i++)
        at += (size_t)snprintf(out + at, size - at, ":%s", i + 1 == f ? v : fields[i]);
}

/* A board line from its 50 numbers f[3..52] (f[0..2] unused). */
static void board_line(char *out, size_t size, const char *names, const int f[53])
{
    size_t at = (size_t)snprintf(out, size, "board:%s", names);
    for (int i = 3; i <= 52; i++)
        at += (size_t)snprintf(out + at, size - at, ":%d", f[i]);
}

static void test_bad_input(void **state)
{
    (void)state;
    char line[2400], name[300];
    memset(name, 'a', 200);
    name[200] = '\0';
    static const char *const fixed[] = {
        "", "   ", "\t\r", "hello", "(1,2)", "version extra", "help me",
        "board:You:Opp:0:0:0",                                 /* short board */
        "board:You:Opp",                                       /* no numbers */
        OPENING_31 ":0",                                       /* 51 numbers */
        OPENING_31 ":0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0", /* over-full */
        "board: You:Opp:0:0:0", "board:You:Opp:0:x:0", "board:You:Opp:0:1.5:0",
        "board:123:Opp:0:0:0", "board:Jo-Ann:Opp:0:0:0", "fibsboard You:Opp:0:0:0",
        "evaluation board:You:Opp:0:0:0", "evaluation", "evaluation fibsboard",
        "evaluation fibsboard hello", "board:'Jo Ann:Opp:0", "set prompt \"> \"",
        OPENING_31 " plies 2",                /* evaluation option on a board line */
        OPENING_31 " resignation 4",          /* above 3 */
        OPENING_31 " resignation -1", OPENING_31 " resignation", OPENING_31 " beavers maybe",
        OPENING_31 " jacobyrule", OPENING_31 " colour blue", OPENING_31 " 'quoted'",
        OPENING_31 " " OPENING_31,            /* two boards */
        "evaluation fibsboard " OPENING_31 " plies 3",        /* above the cap of 2 */
        "evaluation fibsboard " OPENING_31 " plies 99999999999", /* huge */
        "evaluation fibsboard " OPENING_31 " plies -1",
        "evaluation fibsboard " OPENING_31 " plies",
        "evaluation fibsboard " OPENING_31 " plies two",
        "evaluation fibsboard " OPENING_31 " noise 2.5",
        "evaluation fibsboard " OPENING_31 " noise nan",
        "evaluation fibsboard " OPENING_31 " cube maybe",
    };
    ProtoSession *s = proto_session_new();
    free(ask(s, "set debug on")); /* bad boards with debug on: still one line */
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        char *r = ask(s, fixed[i]);
        assert_one_error_line(fixed[i], r);
        free(r);
    }
    /* The cap is named in the error. */
    char *r = ask(s, "evaluation fibsboard " OPENING_31 " plies 3");
    assert_non_null(strstr(r, "at most 2"));
    free(r);

    /* Field by field: absurd values. */
    static const struct {
        int field;
        const char *value;
    } absurd[] = {
        {6, "-16"},     {7, "-20"},     {12, "16"},     {7, "-1000"},  /* too many checkers */
        {12, "9"},                                                     /* 19 checkers */
        {33, "9999"},   {34, "7"},      {33, "0"},      {33, "-3"},    /* dice */
        {35, "4"},                                                     /* dice differ */
        {37, "3"},      {37, "0"},      {37, "65536"},  {37, "1073741824"}, {37, "-2"}, /* cube */
        {3, "-5"},      {4, "-1"},      {5, "-7"},      {4, "99999999999"}, /* scores */
        {32, "0"},      {41, "0"},      {42, "0"},      {32, "2"},     /* turn, colour, dir */
        {38, "5"},      {40, "7"},      {45, "3"},
    };
    for (size_t i = 0; i < sizeof absurd / sizeof absurd[0]; i++) {
        with_field(line, sizeof line, OPENING_31, absurd[i].field, absurd[i].value);
        r = ask(s, line);
        assert_one_error_line(line, r);
        free(r);
        snprintf(line + strlen(line), sizeof line - strlen(line), " jacobyrule off");
        r = ask(s, line);
        assert_one_error_line(line, r);
        free(r);
    }
    /* Match scores: one at or above the match length. */
    static const char *const scores[][2] = {{"5", "0"}, {"0", "7"}, {"5", "5"}};
    for (size_t i = 0; i < 3; i++) {
        char tmp[sizeof line];
        with_field(tmp, sizeof tmp, OPENING_31, 3, "5");
        with_field(line, sizeof line, tmp, 4, scores[i][0]);
        snprintf(tmp, sizeof tmp, "%s", line);
        with_field(line, sizeof line, tmp, 5, scores[i][1]);
        r = ask(s, line);
        assert_one_error_line(line, r);
        free(r);
    }

    /* Long names, a long line, binary, NUL. */
    snprintf(line, sizeof line, "board:%s:Opp%s", name, &OPENING_31[13]);
    r = ask(s, line);
    assert_one_error_line("200-character name", r);
    free(r);
    memset(line, 'x', 2000);
    line[2000] = '\0';
    r = ask(s, line);
    assert_one_error_line("2000 x", r);
    free(r);
    memcpy(line, "version", 7);
    for (size_t i = 7; i < 2000; i++)
        line[i] = ' ';
    r = ask(s, line);
    assert_one_error_line("version and 1993 blanks", r);
    free(r);
    static const char nul[] = "ver\0sion";
    r = ask_n(s, nul, sizeof nul - 1, NULL);
    assert_one_error_line("ver\\0sion", r);
    free(r);
    static const char nul_board[] = OPENING_31 "\0";
    r = ask_n(s, nul_board, sizeof nul_board, NULL);
    assert_one_error_line("board and NUL", r);
    free(r);
    unsigned char bin[256];
    for (int i = 0; i < 256; i++)
        bin[i] = (unsigned char)(255 - i);
    r = ask_n(s, (const char *)bin, sizeof bin, NULL);
    assert_one_error_line("binary", r);
    free(r);
    static const char utf8[] = "board:J\xc3\xb6rg:Opp:0:0:0";
    r = ask(s, utf8);
    assert_one_error_line("UTF-8 name", r);
    free(r);
    /* Leading NULs are gnubg's request terminator, not an error. */
    static const char lead[] = "\0\0version";
    r = ask_n(s, lead, sizeof lead - 1, NULL);
    assert_int_equal(count_lines(r), 4);
    free(r);
    proto_session_free(s);
}

/* Nothing carries over between lines: a short board after a full one is an
 * error (gnubg reuses the missing fields), and options do not stick. */
static void test_no_carry_over(void **state)
{
    (void)state;
    ProtoSession *s = proto_session_new();
    char *r = ask(s, OPENING_31);
    Position start;
    pos_start(&start);
    char ans[100];
    check_move(&start, 3, 1, last_line(r, ans, sizeof ans), "opening 31");
    free(r);
    r = ask(s, "board:You:Opp:0:0:0");
    assert_one_error_line("short board after a full one", r);
    free(r);
    free(ask(s, "set debug on"));
    r = ask(s, OPENING_31 " jacobyrule off beavers off");
    assert_non_null(strstr(r, "DBG: Money Session without Jacoby Rule, without Beavers"));
    free(r);
    r = ask(s, OPENING_31);
    assert_non_null(strstr(r, "DBG: Money Session with Jacoby Rule, with Beavers"));
    free(r);
    proto_session_free(s);
}

/* ---- evaluation ---------------------------------------------------------------- */

static int parse_six(const char *r, double v[6])
{
    char tail;
    return sscanf(r, "%lf %lf %lf %lf %lf %lf%c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                  &tail);
}

static void test_evaluation(void **state)
{
    (void)state;
    ProtoSession *s = proto_session_new();
    pcre2_code *six = compile("(?:-?[0-9]+\\.[0-9]{6} ){5}-?[0-9]+\\.[0-9]{6}\n");
    static const char *const opts[] = {
        "", " cube off", " cubeless", " plies 1", " plies 2 prune", " prune on noise 0.01",
        " noise 100 deterministic", " deterministic off prune off", " jacobyrule off beavers off",
        " cube on", " cubeful",
    };
    double base[6];
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        char line[400];
        snprintf(line, sizeof line, "evaluation fibsboard %s%s", OPENING_31, opts[i]);
        char *r = ask(s, line);
        if (!matches(six, r, strlen(r)))
            fail_msg("'%s' gave '%s'", line, r);
        double v[6];
        assert_int_equal(parse_six(r, v), 7);
        for (int k = 0; k < 5; k++)
            assert_true(v[k] >= 0 && v[k] <= 1);
        assert_true(v[1] <= v[0] && v[2] <= v[1] && v[3] <= 1 - v[0] && v[4] <= v[3]);
        assert_true(v[5] >= -3 && v[5] <= 3);
        if (i == 0)
            memcpy(base, v, sizeof base);
        if (i == 1 || i == 2 || i == 5 || i == 6 || i == 7) /* same as the default */
            assert_memory_equal(v, base, sizeof base);
        free(r);
    }
    /* Match: the last number is a match winning chance. */
    char *r = ask(s, "evaluation fibsboard board:You:Opp:5:2:3:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:"
                     "-3:0:-5:0:0:0:0:2:0:1:3:1:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1 cube on");
    double v[6];
    assert_int_equal(parse_six(r, v), 7);
    assert_true(v[5] > 0 && v[5] < 1);
    free(r);
    pcre2_code_free(six);
    proto_session_free(s);
}

/* ---- decisions on crafted boards ------------------------------------------------ */

/* X (colour 1, direction -1) has 3 checkers on his 1-point and 2 on his
 * 2-point, 10 borne off; O has 15 on his 6-point: X, on roll, wins next
 * turn or the one after, and O has no gammon to fear. */
static void race_fields(int f[53], int len, int sx, int so, int cube, int may_x, int may_o)
{
    memset(f, 0, 53 * sizeof f[0]);
    f[3] = len, f[4] = sx, f[5] = so;
    f[7] = 3, f[8] = 2;   /* X's points 1 and 2 (FIBS index k = X's point k) */
    f[6 + 19] = -15;      /* X's point 19 = O's point 6 */
    f[32] = 1;            /* X on roll */
    f[37] = cube, f[38] = may_x, f[39] = may_o;
    f[41] = 1, f[42] = -1, f[44] = 25;
    f[45] = 10;           /* X's checkers borne off */
    f[52] = 1;            /* not the Crawford game */
}

static void test_cube_access(void **state)
{
    (void)state;
    ProtoSession *s = proto_session_new();
    free(ask(s, "set boards fibs"));
    char line[400];
    int f[53];
    static const struct {
        int len, sx, so, cube, may_x, may_o, not_crawford;
        const char *why;
    } none[] = {
        {0, 0, 0, 2, 0, 1, 1, "O owns the cube"},
        {5, 0, 4, 1, 1, 1, 0, "Crawford game"},
        {0, 0, 0, 64, 1, 1, 1, "cube at its limit"},
        {0, 0, 0, 4096, 1, 0, 1, "cube above the limit"},
        {5, 3, 0, 2, 1, 0, 1, "dead cube"},
        {7, 6, 5, 1, 1, 1, 1, "post-Crawford, X 1-away"},
        {0, 0, 0, 16, 1, 0, 1, "money with beavers: a beaver would reach 64"},
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        race_fields(f, none[i].len, none[i].sx, none[i].so, none[i].cube, none[i].may_x,
                    none[i].may_o);
        f[52] = none[i].not_crawford;
        board_line(line, sizeof line, "You:Opp", f);
        char *r = ask(s, line);
        if (strcmp(r, "roll\n") != 0)
            fail_msg("%s: expected roll, got '%s' for %s", none[i].why, r, line);
        free(r);
    }
    /* The same race with the cube centred: X doubles (O must drop). */
    race_fields(f, 0, 0, 0, 1, 1, 1);
    board_line(line, sizeof line, "You:Opp", f);
    char *r = ask(s, line);
    assert_string_equal(r, "double\n");
    free(r);
    /* X's 16-cube: turned only where no beaver can take it to 64 (the debug
     * block says what X may do, whatever the engine then thinks). */
    static const struct {
        int len;
        const char *opts, *decision;
    } some[] = {
        {0, "", "roll, since a beaver would take the cube to its limit"},
        {0, " beavers off", "double or roll"},
        {64, "", "double or roll"}, /* a 64-point match: no beavers */
    };
    free(ask(s, "set debug on"));
    for (size_t i = 0; i < sizeof some / sizeof some[0]; i++) {
        race_fields(f, some[i].len, 0, 0, 16, 1, 0);
        board_line(line, sizeof line, "You:Opp", f);
        snprintf(line + strlen(line), sizeof line - strlen(line), "%s", some[i].opts);
        r = ask(s, line);
        char v[100];
        debug_value(r, "DBG: Decision: X is about to roll: ", v, sizeof v);
        if (strcmp(v, some[i].decision))
            fail_msg("'%s' for %s", v, line);
        free(r);
    }
    free(ask(s, "set debug off"));
    /* O on roll doubles that race: X would beaver, but may not when beavers
     * are off or in a match. */
    static const char *const opts[] = {" beavers off", " beavers off jacobyrule off", ""};
    for (size_t i = 0; i < 3; i++) {
        race_fields(f, i == 2 ? 5 : 0, 0, 0, 1, 1, 1);
        f[32] = -1, f[40] = 1; /* O on roll has doubled: X answers */
        board_line(line, sizeof line, "You:Opp", f);
        snprintf(line + strlen(line), sizeof line - strlen(line), "%s", opts[i]);
        r = ask(s, line);
        if (strcmp(r, "take\n") && strcmp(r, "drop\n"))
            fail_msg("'%s' to %s", r, line);
        free(r);
    }
    /* Beavers on, money: X beavers that double... */
    race_fields(f, 0, 0, 0, 1, 1, 1);
    f[32] = -1, f[40] = 1;
    board_line(line, sizeof line, "You:Opp", f);
    r = ask(s, line);
    assert_string_equal(r, "beaver\n");
    free(r);
    /* ... but not a raccoon (X owns the cube: this double answers X's own
     * beaver), nor a beaver that takes the cube to 64. */
    static const struct {
        int cube, may_x, may_o;
    } no_beaver[] = {{4, 1, 0}, {16, 1, 1}, {16, 0, 1}};
    for (size_t i = 0; i < 3; i++) {
        race_fields(f, 0, 0, 0, no_beaver[i].cube, no_beaver[i].may_x, no_beaver[i].may_o);
        f[32] = -1, f[40] = 1;
        board_line(line, sizeof line, "You:Opp", f);
        r = ask(s, line);
        if (strcmp(r, "take\n"))
            fail_msg("'%s' to %s", r, line);
        free(r);
    }
    proto_session_free(s);
}

/* gnubg as a client: player 0's name and score first in move and cube
 * requests; the session learns its colour and recognises the beaver. */
static void test_gnubg_client_order(void **state)
{
    (void)state;
    static const char move[] =
        "board:alice:extbot:5:2:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:"
        "1:3:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";
    ProtoSession *s = proto_session_new();
    free(ask(s, "set debug on"));
    char *r = ask(s, move);
    char v[100];
    debug_value(r, "DBG: X is ", v, sizeof v);
    assert_string_equal(v, "extbot, O is alice");
    debug_value(r, "DBG: Score: ", v, sizeof v);
    assert_string_equal(v, "0-2/5, Roll: 31");
    free(r);
    free(ask(s, "set boards fibs"));
    r = ask(s, move);
    debug_value(r, "DBG: X is ", v, sizeof v);
    assert_string_equal(v, "alice, O is extbot");
    debug_value(r, "DBG: Score: ", v, sizeof v);
    assert_string_equal(v, "2-0/5, Roll: 31");
    free(r);
    proto_session_free(s);

    /* money-ext-doubles: our double, gnubg's beaver, our answer. */
    static const char cube_req[] =
        "board:gnubg:root:0:0:0:0:-1:-1:0:0:0:5:0:3:0:0:0:-4:5:-1:0:0:-3:0:-5:0:0:0:0:2:0:1:0:"
        "0:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";
    static const char beaver_req[] =
        "board:gnubg:root:0:0:0:0:-1:-1:0:0:0:5:0:3:0:0:0:-4:5:-1:0:0:-3:0:-5:0:0:0:0:2:0:1:0:"
        "0:0:0:2:0:1:1:1:-1:0:25:0:0:0:0:0:0:0:1";
    s = proto_session_new();
    free(ask(s, "set debug on"));
    r = ask(s, beaver_req); /* colour unknown: gnubg's reading, O answers */
    debug_value(r, "DBG: X is ", v, sizeof v);
    assert_string_equal(v, "root, O is gnubg");
    assert_null(strstr(r, "we answer a beaver"));
    char pos_o[40];
    debug_value(r, "DBG:  Position ID: ", pos_o, sizeof pos_o);
    free(r);
    r = ask(s, cube_req);
    assert_true(strstr(r, "\nroll\n") || strstr(r, "\ndouble\n"));
    free(r);
    r = ask(s, beaver_req);
    assert_non_null(strstr(r, "we answer a beaver"));
    debug_value(r, "DBG: X is ", v, sizeof v);
    assert_string_equal(v, "root, O is gnubg");
    debug_value(r, "DBG: CubeOwner: ", v, sizeof v);
    assert_string_equal(v, "0, Cube: 2, Turn: X, Doubled: 1, Resignation: 0");
    char pos_x[40];
    debug_value(r, "DBG:  Position ID: ", pos_x, sizeof pos_x);
    assert_string_not_equal(pos_x, pos_o); /* the other side answers now */
    char ans[40];
    last_line(r, ans, sizeof ans);
    if (strcmp(ans, "take") && strcmp(ans, "drop"))
        fail_msg("answer to gnubg's beaver must be take or drop, got '%s'", ans);
    free(r);
    proto_session_free(s);
}

/* ---- fibs.tsv.gz ------------------------------------------------------------------ */

enum Kind { K_MOVE, K_NOMOVE, K_CUBE, K_TAKE, K_RESIGN, K_ERROR, K_COUNT };
static const char *const kind_name[K_COUNT] = {"move", "no move", "double/roll",
                                               "take/drop/beaver", "accept/reject", "error"};

static enum Kind kind_of(const char *reply)
{
    if (!strncmp(reply, "Error:", 6))
        return K_ERROR;
    if (!*reply)
        return K_NOMOVE;
    if (!strcmp(reply, "roll") || !strcmp(reply, "double"))
        return K_CUBE;
    if (!strcmp(reply, "take") || !strcmp(reply, "drop") || !strcmp(reply, "beaver"))
        return K_TAKE;
    if (!strcmp(reply, "accept") || !strcmp(reply, "reject"))
        return K_RESIGN;
    return K_MOVE;
}

/* May X double? From the vector's columns: cube owner (1 = X, 0 = O),
 * score "X-O[/LEN][*]", cube, rules. In money play with beavers, not when
 * a beaver would take the cube to the limit (gnubg loses such games). */
static bool vector_access(const char *owner, const char *score, const char *cube,
                          const char *rules)
{
    int sx = 0, so = 0, len = 0, c = atoi(cube);
    char crawford = 0;
    int n = sscanf(score, "%d-%d/%d%c", &sx, &so, &len, &crawford);
    if (atoi(owner) == 0 || crawford == '*' || c * 2 > MAX_CUBE)
        return false;
    if (n < 3 && strstr(rules, "with Beavers") && c * 4 >= MAX_CUBE)
        return false;
    return n < 3 || sx + c < len;
}

static void test_fibs_vectors(void **state)
{
    (void)state;
    TsvReader *tr = malloc(sizeof *tr);
    assert_non_null(tr);
    assert_true(tsv_open(tr, FIBS_TSV));
    int rows = 0, count[K_COUNT] = {0}, ids = 0, beaver_rows = 0, no_access = 0;
    char run[64] = "";
    ProtoSession *s = NULL;
    while (tsv_next(tr)) {
        assert_int_equal(tr->nfields, 14);
        const char *source = tr->field[0], *line = tr->field[1], *want = tr->field[2];
        bool client = !strncmp(source, "gnubg-client:", 13);
        /* gnubg's client boards: one session per captured connection, in the
         * default convention; the others are FIBS-rule boards. */
        char this_run[64];
        snprintf(this_run, sizeof this_run, "%.*s", client ? (int)strcspn(source + 13, ":") + 13 : 0,
                 source);
        if (!s || !client || strcmp(run, this_run)) {
            if (s)
                proto_session_free(s);
            s = proto_session_new();
            free(ask(s, "set debug on"));
            if (!client)
                free(ask(s, "set boards fibs"));
            snprintf(run, sizeof run, "%s", this_run);
        }
        char *r = ask(s, line);
        char ans[200];
        last_line(r, ans, sizeof ans);
        enum Kind k = kind_of(want), got = kind_of(ans);
        if (k == K_ERROR) {
            assert_one_error_line(line, r);
        } else {
            if (got != k)
                fail_msg("row %d (%s): gnubg answered '%s' (%s), we '%s'", tr->lineno, source,
                         want, kind_name[k], ans);
            /* The debug block shows the position gnubg derived (and, for
             * FIBS-rule boards, the same Match ID). */
            char posid[40], matchid[40];
            debug_value(r, "DBG:  Position ID: ", posid, sizeof posid);
            debug_value(r, "DBG:  Match ID   : ", matchid, sizeof matchid);
            bool beaver = strstr(r, "we answer a beaver") != NULL;
            beaver_rows += beaver;
            if (!beaver) {
                if (strcmp(posid, tr->field[3]))
                    fail_msg("row %d: Position ID %s, gnubg %s", tr->lineno, posid, tr->field[3]);
                if (!client && strcmp(matchid, tr->field[4]))
                    fail_msg("row %d: Match ID %s, gnubg %s", tr->lineno, matchid, tr->field[4]);
                ids++;
            }
            if (k == K_MOVE || k == K_NOMOVE) {
                Position p;
                Err err;
                assert_true(posid_decode(tr->field[3], &p, &err));
                check_move(&p, tr->field[9][0] - '0', tr->field[9][1] - '0', ans, line);
            }
            if (k == K_TAKE && !strcmp(ans, "beaver") &&
                (strstr(tr->field[7], "without Beavers") || strstr(tr->field[7], "Match")))
                fail_msg("row %d: beaver where beavers are not allowed", tr->lineno);
            if (k == K_CUBE && !client) {
                bool access =
                    vector_access(tr->field[10], tr->field[8], tr->field[11], tr->field[7]);
                no_access += !access;
                if (!access && strcmp(ans, "roll"))
                    fail_msg("row %d: '%s' without cube access", tr->lineno, ans);
            }
        }
        count[k]++;
        rows++;
        free(r);
    }
    if (s)
        proto_session_free(s);
    tsv_close(tr);
    free(tr);
    printf("fibs.tsv.gz: %d rows answered with the right kind:", rows);
    for (int k = 0; k < K_COUNT; k++)
        printf(" %d %s%s", count[k], kind_name[k], k + 1 < K_COUNT ? "," : "\n");
    printf("  (moves legal and in plain notation; Position IDs equal gnubg's on %d rows, %d "
           "beaver answers read for the other side; %d cube rows without access all 'roll')\n",
           ids, beaver_rows, no_access);
    assert_int_equal(rows, 1034);
}

/* ---- client_capture.tsv.gz ------------------------------------------------------------ */

static void test_client_capture(void **state)
{
    (void)state;
    TsvReader *tr = malloc(sizeof *tr);
    assert_non_null(tr);
    assert_true(tsv_open(tr, CAPTURE_TSV));
    int rows = 0, count[3] = {0}, colour = 0;
    char run[64] = "";
    ProtoSession *s = NULL;
    while (tsv_next(tr)) {
        assert_int_equal(tr->nfields, 7);
        const char *kind = tr->field[2], *line = tr->field[3];
        bool fresh = !s || strcmp(run, tr->field[0]);
        if (fresh) {
            if (s)
                proto_session_free(s);
            s = proto_session_new();
            snprintf(run, sizeof run, "%s", tr->field[0]);
            colour = 0;
        }
        /* As on the wire: after the first request, gnubg's "\0" terminator of
         * the previous one may lead the line. */
        char buf[600];
        size_t n = strlen(line);
        assert_true(n + 2 < sizeof buf);
        buf[0] = '\0';
        memcpy(buf + !fresh, line, n);
        char *r = ask_n(s, buf, n + !fresh, NULL);
        assert_int_equal(count_lines(r), 1);
        r[strlen(r) - 1] = '\0';

        FibsBoard b;
        Err err;
        if (!fibs_read(parser, line, strlen(line), NULL, &b, &err))
            fail_msg("%s row %d: %s", run, tr->lineno, err.text);
        if (!strcmp(kind, "move")) {
            check_move(&b.pos, b.dice[0], b.dice[1], r, line);
            colour = b.x_colour;
            count[0]++;
        } else if (!strcmp(kind, "cube")) {
            colour = b.x_colour;
            if (strcmp(r, "roll") && strcmp(r, "double"))
                fail_msg("%s row %d: '%s' to a cube request", run, tr->lineno, r);
            /* Cube access with X's score in gnubg's client order. */
            bool x_player1 = b.x_colour == b.raw.field[FIBS_F_COLOUR];
            int sx = b.raw.field[x_player1 ? FIBS_F_OPP_SCORE : FIBS_F_SCORE];
            bool access = b.cube_owner != FIBS_O && !b.crawford && b.cube * 2 <= MAX_CUBE &&
                          (b.match_length ? sx + b.cube < b.match_length : b.cube * 4 < MAX_CUBE);
            if (!access && strcmp(r, "roll"))
                fail_msg("%s row %d: double without cube access", run, tr->lineno);
            count[1]++;
        } else {
            assert_string_equal(kind, "take");
            bool beaver_case = b.raw.field[FIBS_F_TURN] == colour;
            bool may_beaver = !b.match_length && !beaver_case;
            if (strcmp(r, "take") && strcmp(r, "drop") && (!may_beaver || strcmp(r, "beaver")))
                fail_msg("%s row %d: '%s' to a take request%s", run, tr->lineno, r,
                         beaver_case ? " (answering gnubg's beaver)" : "");
            count[2]++;
        }
        rows++;
        free(r);
    }
    if (s)
        proto_session_free(s);
    tsv_close(tr);
    free(tr);
    printf("client_capture.tsv.gz: %d requests answered: %d moves legal in plain notation, "
           "%d roll/double within cube access, %d take/drop/beaver\n",
           rows, count[0], count[1], count[2]);
    assert_int_equal(rows, 411);
}

/* ---- conformance transcripts (proto/ *.txt) ------------------------------------------- */

static void *open_session(void *arg)
{
    (void)arg;
    return proto_session_new();
}

/* Each request of a transcript answered as ask_n() insists: a reply is
 * never empty, a close writes nothing. */
static bool ask_session(void *ctx, const char *line, size_t len, Buf *reply)
{
    ProtoResult r = proto_handle(&cfg, ctx, line, len, reply);
    if (r == PROTO_REPLY && reply->len == 0)
        fail_msg("no reply to '%.60s'", line);
    if (r == PROTO_CLOSE && reply->len != 0)
        fail_msg("'%.60s' closed the connection but wrote '%s'", line, reply->data);
    return r == PROTO_REPLY;
}

static void close_session(void *ctx)
{
    proto_session_free(ctx);
}

static void test_transcripts(void **state)
{
    (void)state;
    const TranscriptProtocol p = {open_session, ask_session, close_session, NULL};
    Err err;
    int files;
    int total = transcript_replay_dir("proto", &p, &files, &err);
    if (total < 0)
        fail_msg("%s", err.text);
    assert_true(files >= 4);
    assert_true(total >= 50);
}

/* ---- threads ------------------------------------------------------------------------------ */

typedef struct ThreadRun {
    pthread_t thread;
    int rows;
    Buf replies;
} ThreadRun;

/* Every fibs.tsv.gz line, each in a fresh session, replies concatenated. */
static void *run_all(void *arg)
{
    ThreadRun *t = arg;
    TsvReader *tr = malloc(sizeof *tr);
    if (!tr || !tsv_open(tr, FIBS_TSV))
        return NULL;
    while (tsv_next(tr)) {
        ProtoSession *s = proto_session_new();
        proto_handle(&cfg, s, tr->field[1], strlen(tr->field[1]), &t->replies);
        proto_session_free(s);
        t->rows++;
    }
    tsv_close(tr);
    free(tr);
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    enum { THREADS = 4 };
    ThreadRun one = {.rows = 0}, many[THREADS];
    buf_init(&one.replies);
    run_all(&one);
    for (int i = 0; i < THREADS; i++) {
        many[i].rows = 0;
        buf_init(&many[i].replies);
        assert_int_equal(pthread_create(&many[i].thread, NULL, run_all, &many[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(many[i].thread, NULL);
        assert_int_equal(many[i].rows, one.rows);
        assert_int_equal(many[i].replies.len, one.replies.len);
        assert_memory_equal(many[i].replies.data, one.replies.data, one.replies.len);
        buf_free(&many[i].replies);
    }
    printf("%d threads x %d boards: the same replies as one thread\n", THREADS, one.rows);
    buf_free(&one.replies);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_help),    cmocka_unit_test(test_set_and_exit),
        cmocka_unit_test(test_bad_input),       cmocka_unit_test(test_no_carry_over),
        cmocka_unit_test(test_evaluation),      cmocka_unit_test(test_cube_access),
        cmocka_unit_test(test_gnubg_client_order), cmocka_unit_test(test_fibs_vectors),
        cmocka_unit_test(test_client_capture),  cmocka_unit_test(test_transcripts),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
