/* test_rules.c - rules defaults, presets, validation and description; the
 * rules command-line options; the kind and value of a won game (score.c)
 * under every scoring variant, with concrete final positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "rules.h"
#include "rules_cli.h"
#include "score.h"

/* --- rules.c ------------------------------------------------------------ */

static void test_default(void **state)
{
    (void)state;
    Rules r = rules_default();
    assert_int_equal(r.opening, OPENING_PLAY_DICE);
    assert_int_equal(r.later_games, LATER_OPENING_ROLL);
    assert_true(r.backgammons);
    assert_false(r.star_mars);
    assert_true(r.cube);
    assert_true(r.crawford);
    assert_false(r.holland);
    assert_false(r.jacoby);
    assert_int_equal(r.beavers, 0);
    assert_int_equal(r.auto_doubles, 0);
    assert_int_equal(r.max_cube, 64);
    assert_int_equal(r.backgammon_zone, BG_ZONE_HOME_OR_BAR);
    assert_int_equal(r.closed_out, CLOSED_OUT_ROLL);
    assert_true(rules_valid(&r, NULL));
}

/* Field by field: the padding bytes of a Rules returned by value are not
 * defined, so memcmp may see garbage there. */
static void assert_rules_equal(const Rules *a, const Rules *b)
{
    assert_int_equal(a->opening, b->opening);
    assert_int_equal(a->later_games, b->later_games);
    assert_int_equal(a->backgammons, b->backgammons);
    assert_int_equal(a->star_mars, b->star_mars);
    assert_int_equal(a->cube, b->cube);
    assert_int_equal(a->crawford, b->crawford);
    assert_int_equal(a->holland, b->holland);
    assert_int_equal(a->jacoby, b->jacoby);
    assert_int_equal(a->beavers, b->beavers);
    assert_int_equal(a->auto_doubles, b->auto_doubles);
    assert_int_equal(a->max_cube, b->max_cube);
    assert_int_equal(a->backgammon_zone, b->backgammon_zone);
    assert_int_equal(a->closed_out, b->closed_out);
}

static void test_presets(void **state)
{
    (void)state;
    Rules r;
    Err err;
    Rules def = rules_default();
    assert_true(rules_preset("international", &r, &err));
    assert_rules_equal(&r, &def);
    assert_true(rules_preset("money", &r, &err));
    assert_true(r.jacoby);
    assert_int_equal(r.beavers, 1);
    assert_true(rules_preset("cafe", &r, &err));
    assert_int_equal(r.opening, OPENING_REROLL);
    assert_int_equal(r.later_games, LATER_WINNER_STARTS);
    assert_true(r.cube);
    assert_true(rules_preset("nocube", &r, &err));
    assert_false(r.cube);
    assert_true(rules_preset("gnubg", &r, &err));
    assert_true(r.jacoby);
    assert_int_equal(r.beavers, 3);
    assert_int_equal(r.max_cube, 4096);
    int n = 0;
    for (const char *const *p = rules_preset_names; *p; p++, n++) {
        assert_true(rules_preset(*p, &r, &err));
        assert_true(rules_valid(&r, &err));
        /* the customs are no preset's: every preset keeps the defaults */
        assert_int_equal(r.backgammon_zone, BG_ZONE_HOME_OR_BAR);
        assert_int_equal(r.closed_out, CLOSED_OUT_ROLL);
    }
    assert_int_equal(n, 5);

    Rules before = rules_default();
    before.max_cube = 8;
    r = before;
    assert_false(rules_preset("european", &r, &err));
    assert_non_null(strstr(err.text, "unknown rules preset 'european'"));
    assert_rules_equal(&r, &before); /* untouched on failure */
    assert_false(rules_preset(NULL, &r, &err));
}

/* Each invalid field is refused with a message naming it. */
static void test_valid(void **state)
{
    (void)state;
    static const struct {
        const char *field;
        int value;
        const char *message;
    } bad[] = {
        {"max_cube", 0, "max cube 0 is not a power of two"},
        {"max_cube", 48, "max cube 48 is not a power of two"},
        {"max_cube", 65536, "max cube 65536"},
        {"max_cube", -4, "max cube -4"},
        {"beavers", -1, "beavers -1 is outside 0..15"},
        {"beavers", 16, "beavers 16"},
        {"auto_doubles", -1, "automatic doubles -1"},
        {"auto_doubles", 99, "automatic doubles 99"},
        {"opening", 2, "opening rule 2"},
        {"later_games", -1, "later-games rule -1"},
        {"backgammon_zone", 2, "backgammon zone 2 is neither home-or-bar nor home"},
        {"closed_out", -1, "closed-out rule -1 is neither roll nor no-roll"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Rules r = rules_default();
        if (!strcmp(bad[i].field, "max_cube"))
            r.max_cube = bad[i].value;
        else if (!strcmp(bad[i].field, "beavers"))
            r.beavers = bad[i].value;
        else if (!strcmp(bad[i].field, "auto_doubles"))
            r.auto_doubles = bad[i].value;
        else if (!strcmp(bad[i].field, "opening"))
            r.opening = (OpeningRule)bad[i].value;
        else if (!strcmp(bad[i].field, "backgammon_zone"))
            r.backgammon_zone = (BackgammonZone)bad[i].value;
        else if (!strcmp(bad[i].field, "closed_out"))
            r.closed_out = (ClosedOutRule)bad[i].value;
        else
            r.later_games = (LaterGamesRule)bad[i].value;
        Err err = {{0}};
        assert_false(rules_valid(&r, &err));
        assert_non_null(strstr(err.text, bad[i].message));
    }
    Rules r = rules_default();
    Err err;
    r.max_cube = 1; /* a cube that can never be turned is still a valid choice */
    assert_true(rules_valid(&r, &err));
    r.max_cube = 32768;
    assert_true(rules_valid(&r, &err));

    r = rules_default();
    r.crawford = false;
    r.holland = true;
    assert_false(rules_valid(&r, &err));
    assert_non_null(strstr(err.text, "Holland rule needs the Crawford rule"));

    /* Both customs are valid on their own; the home-board zone with
     * backgammons off would change nothing, so it is refused. */
    r = rules_default();
    r.backgammon_zone = BG_ZONE_HOME;
    r.closed_out = CLOSED_OUT_NO_ROLL;
    assert_true(rules_valid(&r, &err));
    r.star_mars = true;
    assert_true(rules_valid(&r, &err));
    r.backgammons = false;
    assert_false(rules_valid(&r, &err));
    assert_non_null(strstr(err.text, "home-board backgammon zone needs backgammons"));
    r.backgammon_zone = BG_ZONE_HOME_OR_BAR;
    assert_true(rules_valid(&r, &err));

    /* No cube: the cube options would mean nothing (or that gammons never
     * count), so they are refused, not guessed. */
    r = rules_default();
    r.cube = false;
    assert_true(rules_valid(&r, &err)); /* Crawford stays harmlessly on */
    r.jacoby = true;
    assert_false(rules_valid(&r, &err));
    assert_non_null(strstr(err.text, "Jacoby rule needs the cube"));
    r.jacoby = false;
    r.beavers = 1;
    assert_false(rules_valid(&r, &err));
    assert_non_null(strstr(err.text, "beavers need the cube"));
    r.beavers = 0;
    r.auto_doubles = 2;
    assert_false(rules_valid(&r, &err));
    assert_non_null(strstr(err.text, "automatic doubles need the cube"));
}

static void test_describe(void **state)
{
    (void)state;
    char buf[256];
    Rules r = rules_default();
    rules_describe(&r, 7, buf, sizeof buf);
    assert_string_equal(buf, "7-point match, opening dice played, later games opening roll, "
                             "backgammons 3, cube up to 64, Crawford");
    assert_true(rules_preset("money", &r, NULL));
    r.beavers = 2;
    r.auto_doubles = 1;
    r.star_mars = true;
    rules_describe(&r, 0, buf, sizeof buf);
    assert_string_equal(buf, "money, opening dice played, later games opening roll, "
                             "backgammons 3, star mars 4, cube up to 64, Jacoby, beavers and "
                             "raccoons (2 in a row), automatic doubles (at most 1)");
    assert_true(rules_preset("cafe", &r, NULL));
    r.backgammons = false;
    r.holland = true;
    rules_describe(&r, 5, buf, sizeof buf);
    assert_string_equal(buf, "5-point match, opening winner rerolls, later games winner starts, "
                             "backgammons off, cube up to 64, Crawford, Holland");
    /* The customs appear only when they are not the default. */
    r = rules_default();
    r.backgammon_zone = BG_ZONE_HOME;
    r.closed_out = CLOSED_OUT_NO_ROLL;
    rules_describe(&r, 7, buf, sizeof buf);
    assert_string_equal(buf, "7-point match, opening dice played, later games opening roll, "
                             "backgammons 3 (home board only), closed out does not roll, cube "
                             "up to 64, Crawford");
    r.backgammon_zone = BG_ZONE_HOME_OR_BAR;
    rules_describe(&r, 0, buf, sizeof buf);
    assert_string_equal(buf, "money, opening dice played, later games opening roll, "
                             "backgammons 3, closed out does not roll, cube up to 64");
    assert_true(rules_preset("nocube", &r, NULL));
    rules_describe(&r, 0, buf, sizeof buf);
    assert_string_equal(buf, "money, opening dice played, later games opening roll, "
                             "backgammons 3, no cube");
    /* A small buffer is cut, still terminated. */
    char small[12];
    memset(small, 'x', sizeof small);
    rules_describe(&r, 0, small, sizeof small);
    assert_string_equal(small, "money, open");
    rules_describe(&r, 0, small, 0); /* nothing written, no crash */
}

/* --- rules_cli.c -------------------------------------------------------- */

/* Parses argv (after argv[0]) with getopt_long over the rules options plus
 * one option of the command's own, the way a subcommand does. Returns true
 * when every option was accepted and the rules are valid. */
static bool parse(int argc, char **argv, Rules *out, Err *err, int *own_seen)
{
    static const struct option own[] = {{"port", required_argument, NULL, 'p'}, {0, 0, 0, 0}};
    struct option opts[64];
    assert_true(rules_cli_merge(opts, 64, own) > 0);
    RulesCli c;
    rules_cli_init(&c);
    optind = 1;
    opterr = 0;
    int opt;
    *own_seen = 0;
    while ((opt = getopt_long(argc, argv, "p:", opts, NULL)) != -1) {
        if (opt == 'p') {
            (*own_seen)++;
            continue;
        }
        if (!rules_cli_handles(opt)) {
            err_set(err, "getopt refused an option");
            return false;
        }
        if (!rules_cli_apply(&c, opt, optarg, err))
            return false;
    }
    return rules_cli_finish(&c, out, err);
}

#define ARGV(...) ((char *[]){"shesh", __VA_ARGS__, NULL})
#define ARGC(...) ((int)(sizeof((char *[]){"shesh", __VA_ARGS__}) / sizeof(char *)))
#define PARSE(out, err, own, ...) parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), out, err, own)

static void test_cli_every_field(void **state)
{
    (void)state;
    Rules r;
    Err err = {{0}};
    int own;
    assert_true(PARSE(&r, &err, &own, "--opening", "reroll", "--later-games", "winner-starts",
                      "--no-backgammons", "--star-mars", "--no-crawford", "--jacoby",
                      "--beavers", "2", "--auto-doubles", "3", "--max-cube", "256", "-p", "80",
                      "--port=81", "--closed-out", "no-roll"));
    assert_int_equal(own, 2);
    assert_int_equal(r.opening, OPENING_REROLL);
    assert_int_equal(r.later_games, LATER_WINNER_STARTS);
    assert_false(r.backgammons);
    assert_true(r.star_mars);
    assert_false(r.crawford);
    assert_true(r.jacoby);
    assert_int_equal(r.beavers, 2);
    assert_int_equal(r.auto_doubles, 3);
    assert_int_equal(r.max_cube, 256);
    assert_true(r.cube);
    assert_int_equal(r.closed_out, CLOSED_OUT_NO_ROLL);
    assert_int_equal(r.backgammon_zone, BG_ZONE_HOME_OR_BAR);

    assert_true(PARSE(&r, &err, &own, "--holland", "--opening=play",
                      "--later-games=opening-roll", "--backgammons", "--no-star-mars",
                      "--cube", "--crawford", "--no-jacoby"));
    assert_true(r.holland);
    assert_int_equal(r.opening, OPENING_PLAY_DICE);
    assert_true(r.backgammons);
    assert_false(r.jacoby);
    assert_int_equal(r.closed_out, CLOSED_OUT_ROLL);

    assert_true(PARSE(&r, &err, &own, "--backgammon-zone", "home", "--closed-out=no-roll"));
    assert_int_equal(r.backgammon_zone, BG_ZONE_HOME);
    assert_int_equal(r.closed_out, CLOSED_OUT_NO_ROLL);
    assert_true(PARSE(&r, &err, &own, "--backgammon-zone=home", "--backgammon-zone",
                      "home-or-bar", "--closed-out", "roll"));
    assert_int_equal(r.backgammon_zone, BG_ZONE_HOME_OR_BAR);
    assert_int_equal(r.closed_out, CLOSED_OUT_ROLL);

    assert_true(PARSE(&r, &err, &own, "--rules", "money", "--no-holland", "--beavers", "0"));
    assert_true(r.jacoby);
    assert_int_equal(r.beavers, 0);
    assert_false(r.holland);

    assert_true(PARSE(&r, &err, &own, "--rules", "nocube"));
    assert_false(r.cube);
    assert_true(PARSE(&r, &err, &own, "--no-cube"));
    assert_false(r.cube);
}

/* Every rejected command line says what was wrong. */
static void test_cli_errors(void **state)
{
    (void)state;
    Rules r;
    Err err;
    int own;
    int n = 0;
#define BAD(msg, ...)                                                                      \
    do {                                                                                   \
        memset(&err, 0, sizeof err);                                                       \
        assert_false(PARSE(&r, &err, &own, __VA_ARGS__));                                  \
        if (!strstr(err.text, msg))                                                        \
            fail_msg("expected '%s' in '%s'", msg, err.text);                               \
        n++;                                                                               \
    } while (0)
    BAD("--opening: 'sometimes' is neither play nor reroll", "--opening", "sometimes");
    BAD("--later-games: 'loser' is neither", "--later-games", "loser");
    BAD("--beavers: 'many' is not a whole number", "--beavers", "many");
    BAD("--beavers: '16' is not a whole number from 0 to 15", "--beavers", "16");
    BAD("--beavers: '-1' is not a whole number", "--beavers", "-1");
    BAD("--auto-doubles: '99999999999999' is not a whole number from 0 to 15", "--auto-doubles",
        "99999999999999");
    BAD("--max-cube: 48 is not a power of two", "--max-cube", "48");
    BAD("--max-cube: '0' is not a whole number from 1 to 32768", "--max-cube", "0");
    BAD("--max-cube: '' is not a whole number from 1 to 32768", "--max-cube", "");
    BAD("unknown rules preset 'euro'", "--rules", "euro");
    BAD("--rules cafe must come before --no-crawford", "--no-crawford", "--rules", "cafe");
    BAD("Jacoby rule needs the cube", "--rules", "money", "--no-cube");
    BAD("Holland rule needs the Crawford rule", "--holland", "--no-crawford");
    BAD("getopt refused", "--no-such-rule");
    BAD("--backgammon-zone: 'x' is neither home nor home-or-bar", "--backgammon-zone", "x");
    BAD("--backgammon-zone: 'bar' is neither", "--backgammon-zone=bar");
    BAD("--closed-out: 'pass' is neither roll nor no-roll", "--closed-out", "pass");
    BAD("home-board backgammon zone needs backgammons", "--no-backgammons",
        "--backgammon-zone", "home");
#undef BAD
    assert_int_equal(n, 18);
}

/* By name, as a configuration file or a protocol command would set them. */
static void test_cli_by_name(void **state)
{
    (void)state;
    RulesCli c;
    Err err;
    Rules r;
    rules_cli_init(&c);
    assert_true(rules_cli_set(&c, "rules", "money", &err));
    assert_true(rules_cli_set(&c, "jacoby", "off", &err));
    assert_true(rules_cli_set(&c, "star-mars", NULL, &err));
    assert_true(rules_cli_set(&c, "holland", "yes", &err));
    assert_true(rules_cli_set(&c, "backgammons", "0", &err));
    assert_true(rules_cli_set(&c, "no-crawford", NULL, &err));
    assert_true(rules_cli_set(&c, "crawford", "true", &err));
    assert_true(rules_cli_set(&c, "max-cube", "16", &err));
    assert_true(rules_cli_finish(&c, &r, &err));
    assert_false(r.jacoby);
    assert_true(r.star_mars);
    assert_true(r.holland);
    assert_false(r.backgammons);
    assert_true(r.crawford);
    assert_int_equal(r.max_cube, 16);
    assert_int_equal(r.beavers, 1);

    assert_true(rules_cli_set(&c, "backgammon-zone", "home", &err));
    assert_true(rules_cli_set(&c, "backgammons", "on", &err));
    assert_true(rules_cli_set(&c, "closed-out", "no-roll", &err));
    assert_true(rules_cli_finish(&c, &r, &err));
    assert_int_equal(r.backgammon_zone, BG_ZONE_HOME);
    assert_int_equal(r.closed_out, CLOSED_OUT_NO_ROLL);
    assert_false(rules_cli_set(&c, "closed-out", NULL, &err));
    assert_non_null(strstr(err.text, "--closed-out needs a value"));
    assert_false(rules_cli_set(&c, "backgammon-zone", "on", &err));
    assert_non_null(strstr(err.text, "'on' is neither home nor home-or-bar"));

    assert_false(rules_cli_set(&c, "jacoby", "maybe", &err));
    assert_non_null(strstr(err.text, "jacoby: 'maybe' is not on or off"));
    assert_false(rules_cli_set(&c, "no-jacoby", "on", &err));
    assert_non_null(strstr(err.text, "--no-jacoby takes no value"));
    assert_false(rules_cli_set(&c, "beavers", NULL, &err));
    assert_non_null(strstr(err.text, "--beavers needs a value"));
    assert_false(rules_cli_set(&c, "bever", "1", &err));
    assert_non_null(strstr(err.text, "unknown rules option 'bever'"));
    assert_false(rules_cli_set(&c, NULL, "1", &err));
    assert_false(rules_cli_apply(&c, 'x', NULL, &err));
    assert_non_null(strstr(err.text, "is not a rules option"));
    assert_false(rules_cli_apply(&c, RULES_CLI_OPT_BASE, NULL, &err));
    assert_non_null(strstr(err.text, "--rules needs a value"));
}

static void test_cli_table(void **state)
{
    (void)state;
    /* Every option has a help line and the table fits a merge. */
    int n = 0;
    for (const struct option *o = rules_cli_options; o->name; o++, n++) {
        char dashed[40];
        snprintf(dashed, sizeof dashed, "--%s", o->name);
        assert_non_null(strstr(rules_cli_help, dashed));
        assert_true(rules_cli_handles(o->val));
    }
    assert_int_equal(n, 20);
    assert_false(rules_cli_handles('a'));
    assert_false(rules_cli_handles(RULES_CLI_OPT_BASE + n));
    struct option out[21];
    assert_int_equal(rules_cli_merge(out, 21, NULL), 20);
    assert_null(out[20].name);
    assert_int_equal(rules_cli_merge(out, 20, NULL), -1);
}

/* --- score.c ------------------------------------------------------------ */

/* A final position: player 1 (the winner) has borne off everything; player
 * 0 keeps `left` checkers on his 6-point, plus extras. */
static Position final_pos(int left, int bar, int winners_home)
{
    Position p;
    memset(&p, 0, sizeof p);
    p.side[0][5] = (uint8_t)left;
    p.side[0][POS_BAR] = (uint8_t)bar;
    p.side[0][20] = (uint8_t)winners_home; /* his 21-point: the winner's 4-point */
    return p;
}

static void test_score_kind(void **state)
{
    (void)state;
    Position single = final_pos(14, 0, 0);
    Position gammon = final_pos(15, 0, 0);
    Position bg_home = final_pos(14, 0, 1);
    Position bg_bar = final_pos(14, 1, 0);
    Position star = final_pos(13, 1, 1);
    assert_int_equal(score_kind(&single, 1), SCORE_SINGLE);
    assert_int_equal(score_kind(&gammon, 1), SCORE_GAMMON);
    assert_int_equal(score_kind(&bg_home, 1), SCORE_BACKGAMMON);
    assert_int_equal(score_kind(&bg_bar, 1), SCORE_BACKGAMMON);
    assert_int_equal(score_kind(&star, 1), SCORE_STAR_MARS);
    /* The loser's own 19..24 points count as the winner's home; his 18 does
     * not. */
    Position edge = final_pos(14, 0, 0);
    edge.side[0][17] = 1;
    assert_int_equal(score_kind(&edge, 1), SCORE_GAMMON);
    edge.side[0][17] = 0;
    edge.side[0][23] = 1;
    assert_int_equal(score_kind(&edge, 1), SCORE_BACKGAMMON);
    /* The same seen from the other side. */
    pos_swap(&star);
    assert_int_equal(score_kind(&star, 0), SCORE_STAR_MARS);
    /* Not over: the named winner still has checkers; a bad side. */
    assert_int_equal(score_kind(&star, 1), SCORE_NONE);
    assert_int_equal(score_kind(&single, 0), SCORE_NONE);
    assert_int_equal(score_kind(&single, 2), SCORE_NONE);
    assert_int_equal(score_kind(&single, -1), SCORE_NONE);
    /* score_kind is the default zone's. */
    Rules def = rules_default();
    Position kinds[] = {single, gammon, bg_home, bg_bar, final_pos(13, 1, 1)};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        assert_int_equal(score_kind_rules(&def, &kinds[i], 1), score_kind(&kinds[i], 1));
    assert_string_equal(score_kind_name(SCORE_STAR_MARS), "star mars");
    assert_string_equal(score_kind_name(SCORE_GAMMON), "gammon");
    assert_string_equal(score_kind_name((ScoreKind)9), "no result");
}

/* The backgammon zone: with BG_ZONE_HOME a checker on the bar alone leaves a
 * gammon; a checker in the home board still makes a backgammon, and star
 * mars still needs both. */
static void test_score_zone(void **state)
{
    (void)state;
    Rules home = rules_default(), either = rules_default();
    home.backgammon_zone = BG_ZONE_HOME;
    Position bg_bar = final_pos(14, 1, 0);
    Position bg_home = final_pos(14, 0, 1);
    Position star = final_pos(13, 1, 1);
    Position gammon = final_pos(15, 0, 0);
    Position single = final_pos(14, 0, 0);
    assert_int_equal(score_kind_rules(&either, &bg_bar, 1), SCORE_BACKGAMMON);
    assert_int_equal(score_kind_rules(&home, &bg_bar, 1), SCORE_GAMMON);
    assert_int_equal(score_kind_rules(&home, &bg_home, 1), SCORE_BACKGAMMON);
    assert_int_equal(score_kind_rules(&home, &star, 1), SCORE_STAR_MARS);
    assert_int_equal(score_kind_rules(&home, &gammon, 1), SCORE_GAMMON);
    assert_int_equal(score_kind_rules(&home, &single, 1), SCORE_SINGLE);
    Position two_on_bar = final_pos(13, 2, 0);
    assert_int_equal(score_kind_rules(&home, &two_on_bar, 1), SCORE_GAMMON);
    pos_swap(&bg_bar);
    assert_int_equal(score_kind_rules(&home, &bg_bar, 0), SCORE_GAMMON);
    assert_int_equal(score_kind_rules(&either, &bg_bar, 0), SCORE_BACKGAMMON);
    assert_int_equal(score_kind_rules(&home, &bg_bar, 1), SCORE_NONE);
    /* Star mars without its 4 points counts as the backgammon it is in
     * either zone (there is a checker in the home board). */
    GameStake s = {.cube = 1, .cube_turned = false, .money = false};
    assert_int_equal(score_points(&home, &s, score_kind_rules(&home, &star, 1)), 3);
    home.star_mars = true;
    assert_int_equal(score_points(&home, &s, score_kind_rules(&home, &star, 1)), 4);
}

static void test_score_points(void **state)
{
    (void)state;
    /* kinds single, gammon, backgammon, star mars: the expected points for
     * a 1-cube under each set of rules. */
    static const struct {
        const char *what;
        bool backgammons, star_mars;
        int points[4];
    } table[] = {
        {"standard", true, false, {1, 2, 3, 3}},
        {"backgammons off", false, false, {1, 2, 2, 2}},
        {"star mars", true, true, {1, 2, 3, 4}},
        {"star mars without backgammons", false, true, {1, 2, 2, 4}},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        Rules r = rules_default();
        r.backgammons = table[i].backgammons;
        r.star_mars = table[i].star_mars;
        for (int k = 0; k < 4; k++) {
            GameStake s = {.cube = 1, .cube_turned = false, .money = false};
            assert_int_equal(score_points(&r, &s, (ScoreKind)(k + 1)), table[i].points[k]);
            s.cube = 8;
            s.cube_turned = true;
            assert_int_equal(score_points(&r, &s, (ScoreKind)(k + 1)), 8 * table[i].points[k]);
        }
    }
    Rules r = rules_default();
    GameStake s = {.cube = 4, .cube_turned = true, .money = true};
    assert_int_equal(score_points(&r, &s, SCORE_NONE), 0);
    assert_int_equal(score_points(&r, &s, (ScoreKind)5), 0);
}

/* Jacoby: money only, and only while the cube was never turned. An
 * automatically doubled cube still counts as not turned (as in gnubg). */
static void test_score_jacoby(void **state)
{
    (void)state;
    Rules r = rules_default();
    r.jacoby = true;
    r.star_mars = true;
    GameStake centred = {.cube = 1, .cube_turned = false, .money = true};
    GameStake auto2 = {.cube = 2, .cube_turned = false, .money = true};
    GameStake turned = {.cube = 2, .cube_turned = true, .money = true};
    GameStake match = {.cube = 1, .cube_turned = false, .money = false};
    for (int k = SCORE_SINGLE; k <= SCORE_STAR_MARS; k++) {
        assert_int_equal(score_points(&r, &centred, (ScoreKind)k), 1);
        assert_int_equal(score_points(&r, &auto2, (ScoreKind)k), 2);
        assert_int_equal(score_points(&r, &turned, (ScoreKind)k), 2 * k);
        assert_int_equal(score_points(&r, &match, (ScoreKind)k), k);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default),        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_valid),          cmocka_unit_test(test_describe),
        cmocka_unit_test(test_cli_every_field), cmocka_unit_test(test_cli_errors),
        cmocka_unit_test(test_cli_by_name),    cmocka_unit_test(test_cli_table),
        cmocka_unit_test(test_score_kind),     cmocka_unit_test(test_score_zone),
        cmocka_unit_test(test_score_points),
        cmocka_unit_test(test_score_jacoby),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
