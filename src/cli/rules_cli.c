/* rules_cli.c - parsing rules presets and individual rule options into a
 * Rules value (see rules_cli.h). One table drives the getopt_long entries,
 * the by-name lookup and the help text, so they cannot drift apart. */
#include "rules_cli.h"

#include <stdio.h>
#include <string.h>

#include "num.h"

/* X(id, name, has_arg, help): every rules option, in help order. */
#define RULES_CLI_LIST(X)                                                                  \
    X(RULES, "rules", required_argument,                                                   \
      "--rules PRESET          start from a preset: international, money, cafe, nocube, "  \
      "gnubg")                                                                              \
    X(OPENING, "opening", required_argument,                                               \
      "--opening play|reroll   opening roll: the winner plays it, or rolls again")         \
    X(LATER, "later-games", required_argument,                                             \
      "--later-games opening-roll|winner-starts\n"                                         \
      "                        later games: opening roll, or the last winner rolls first") \
    X(BG, "backgammons", no_argument, "--backgammons           backgammons count 3")        \
    X(NO_BG, "no-backgammons", no_argument,                                                \
      "--no-backgammons        backgammons count as gammons")                              \
    X(STAR, "star-mars", no_argument,                                                      \
      "--star-mars             4 points when the loser has checkers on the bar and in "    \
      "the winner's home")                                                                  \
    X(NO_STAR, "no-star-mars", no_argument, "--no-star-mars          no star mars")         \
    X(BG_ZONE, "backgammon-zone", required_argument,                                       \
      "--backgammon-zone home|home-or-bar\n"                                                \
      "                        a backgammon for a checker in the winner's home board "     \
      "only, or also on the bar")                                                           \
    X(CUBE, "cube", no_argument, "--cube                  play with the doubling cube")     \
    X(NO_CUBE, "no-cube", no_argument, "--no-cube               no doubling at all")        \
    X(CRAWFORD, "crawford", no_argument,                                                   \
      "--crawford              matches: no doubling in the Crawford game")                 \
    X(NO_CRAWFORD, "no-crawford", no_argument,                                             \
      "--no-crawford           matches: no Crawford game")                                 \
    X(HOLLAND, "holland", no_argument,                                                     \
      "--holland               matches: post-Crawford, the trailer may not double in "     \
      "his first two turns")                                                                \
    X(NO_HOLLAND, "no-holland", no_argument, "--no-holland            no Holland rule")     \
    X(JACOBY, "jacoby", no_argument,                                                       \
      "--jacoby                money: gammons count only once the cube was turned")        \
    X(NO_JACOBY, "no-jacoby", no_argument, "--no-jacoby             no Jacoby rule")        \
    X(BEAVERS, "beavers", required_argument,                                               \
      "--beavers N             money: beavers/raccoons in a row (0 none, 1 beaver, 2+ "    \
      "raccoons)")                                                                          \
    X(AUTO, "auto-doubles", required_argument,                                             \
      "--auto-doubles N        money: at most N automatic doubles on opening ties")        \
    X(MAX_CUBE, "max-cube", required_argument,                                             \
      "--max-cube N            highest cube value, a power of two (default 64)")          \
    X(CLOSED_OUT, "closed-out", required_argument,                                         \
      "--closed-out roll|no-roll\n"                                                         \
      "                        on the bar against a closed board: roll and pass, or "      \
      "pass without rolling")

enum {
#define X(id, name, arg, help) OPT_##id,
    RULES_CLI_LIST(X)
#undef X
        OPT_COUNT
};

const struct option rules_cli_options[] = {
#define X(id, name, arg, help) {name, arg, NULL, RULES_CLI_OPT_BASE + OPT_##id},
    RULES_CLI_LIST(X)
#undef X
        {NULL, 0, NULL, 0},
};

const char rules_cli_help[] =
#define X(id, name, arg, help) "  " help "\n"
    RULES_CLI_LIST(X)
#undef X
    ;

void rules_cli_init(RulesCli *c)
{
    c->rules = rules_default();
    c->first_flag[0] = '\0';
}

bool rules_cli_handles(int opt)
{
    return opt >= RULES_CLI_OPT_BASE && opt < RULES_CLI_OPT_BASE + OPT_COUNT;
}

/* A whole decimal number in lo..hi, nothing else (num.h). */
static bool parse_int(const char *name, const char *s, int lo, int hi, int *out, Err *err)
{
    char opt[RULES_CLI_FLAG_MAX + 2];
    snprintf(opt, sizeof opt, "--%s", name);
    return num_int(opt, s, lo, hi, out, err);
}

/* Value of a boolean given by name: NULL means on. */
static bool parse_bool(const char *name, const char *s, bool *out, Err *err)
{
    static const char *const on[] = {"on", "yes", "true", "1"};
    static const char *const off[] = {"off", "no", "false", "0"};
    if (!s) {
        *out = true;
        return true;
    }
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++) {
        if (!strcmp(s, on[i])) {
            *out = true;
            return true;
        }
        if (!strcmp(s, off[i])) {
            *out = false;
            return true;
        }
    }
    return err_set(err, "%s: '%.20s' is not on or off", name, s);
}

/* The boolean field an option sets (both its plain and "no-" forms), or
 * NULL for the options that take a value. */
static bool *bool_field(Rules *r, int k)
{
    switch (k) {
    case OPT_BG: case OPT_NO_BG: return &r->backgammons;
    case OPT_STAR: case OPT_NO_STAR: return &r->star_mars;
    case OPT_CUBE: case OPT_NO_CUBE: return &r->cube;
    case OPT_CRAWFORD: case OPT_NO_CRAWFORD: return &r->crawford;
    case OPT_HOLLAND: case OPT_NO_HOLLAND: return &r->holland;
    case OPT_JACOBY: case OPT_NO_JACOBY: return &r->jacoby;
    default: return NULL;
    }
}

static bool is_negative(int k)
{
    return k == OPT_NO_BG || k == OPT_NO_STAR || k == OPT_NO_CUBE || k == OPT_NO_CRAWFORD ||
           k == OPT_NO_HOLLAND || k == OPT_NO_JACOBY;
}

/* Applies option k (index into the table). by_name: boolean options may
 * carry an on/off value. */
static bool apply(RulesCli *c, int k, const char *arg, bool by_name, Err *err)
{
    const char *name = rules_cli_options[k].name;
    Rules *r = &c->rules;

    if (k == OPT_RULES) {
        if (c->first_flag[0])
            return err_set(err, "--rules %.20s must come before --%s, which it would undo",
                           arg ? arg : "", c->first_flag);
        return rules_preset(arg, r, err);
    }
    if (!c->first_flag[0])
        snprintf(c->first_flag, sizeof c->first_flag, "%s", name);

    bool *field = bool_field(r, k);
    if (field) {
        bool on = true;
        if (arg && (!by_name || is_negative(k)))
            return err_set(err, "--%s takes no value", name);
        if (!parse_bool(name, arg, &on, err))
            return false;
        *field = is_negative(k) ? !on : on;
        return true;
    }
    switch (k) {
    case OPT_OPENING:
        if (arg && !strcmp(arg, "play"))
            r->opening = OPENING_PLAY_DICE;
        else if (arg && !strcmp(arg, "reroll"))
            r->opening = OPENING_REROLL;
        else
            return err_set(err, "--opening: '%.20s' is neither play nor reroll",
                           arg ? arg : "");
        return true;
    case OPT_LATER:
        if (arg && !strcmp(arg, "opening-roll"))
            r->later_games = LATER_OPENING_ROLL;
        else if (arg && !strcmp(arg, "winner-starts"))
            r->later_games = LATER_WINNER_STARTS;
        else
            return err_set(err,
                           "--later-games: '%.20s' is neither opening-roll nor winner-starts",
                           arg ? arg : "");
        return true;
    case OPT_BG_ZONE:
        if (arg && !strcmp(arg, "home-or-bar"))
            r->backgammon_zone = BG_ZONE_HOME_OR_BAR;
        else if (arg && !strcmp(arg, "home"))
            r->backgammon_zone = BG_ZONE_HOME;
        else
            return err_set(err, "--backgammon-zone: '%.20s' is neither home nor home-or-bar",
                           arg ? arg : "");
        return true;
    case OPT_CLOSED_OUT:
        if (arg && !strcmp(arg, "roll"))
            r->closed_out = CLOSED_OUT_ROLL;
        else if (arg && !strcmp(arg, "no-roll"))
            r->closed_out = CLOSED_OUT_NO_ROLL;
        else
            return err_set(err, "--closed-out: '%.20s' is neither roll nor no-roll",
                           arg ? arg : "");
        return true;
    case OPT_BEAVERS: return parse_int(name, arg, 0, RULES_COUNT_LIMIT, &r->beavers, err);
    case OPT_AUTO: return parse_int(name, arg, 0, RULES_COUNT_LIMIT, &r->auto_doubles, err);
    case OPT_MAX_CUBE:
        if (!parse_int(name, arg, 1, RULES_MAX_CUBE_LIMIT, &r->max_cube, err))
            return false;
        if (r->max_cube & (r->max_cube - 1))
            return err_set(err, "--max-cube: %d is not a power of two", r->max_cube);
        return true;
    default: return err_set(err, "rules option %d is unknown", k);
    }
}

bool rules_cli_apply(RulesCli *c, int opt, const char *arg, Err *err)
{
    if (!rules_cli_handles(opt))
        return err_set(err, "option %d is not a rules option", opt);
    int k = opt - RULES_CLI_OPT_BASE;
    if (rules_cli_options[k].has_arg == required_argument && !arg)
        return err_set(err, "--%s needs a value", rules_cli_options[k].name);
    return apply(c, k, arg, false, err);
}

bool rules_cli_set(RulesCli *c, const char *name, const char *value, Err *err)
{
    if (!name)
        return err_set(err, "no rules option named");
    for (int k = 0; k < OPT_COUNT; k++) {
        if (strcmp(name, rules_cli_options[k].name))
            continue;
        if (rules_cli_options[k].has_arg == required_argument && !value)
            return err_set(err, "--%s needs a value", name);
        return apply(c, k, value, true, err);
    }
    return err_set(err, "unknown rules option '%.30s'", name);
}

bool rules_cli_finish(const RulesCli *c, Rules *out, Err *err)
{
    if (!rules_valid(&c->rules, err))
        return false;
    *out = c->rules;
    return true;
}

int rules_cli_merge(struct option *out, int cap, const struct option *own)
{
    int n = 0;
    for (const struct option *o = own; o && o->name; o++) {
        if (n >= cap)
            return -1;
        out[n++] = *o;
    }
    for (int k = 0; k < OPT_COUNT; k++) {
        if (n >= cap)
            return -1;
        out[n++] = rules_cli_options[k];
    }
    if (n >= cap)
        return -1;
    memset(&out[n], 0, sizeof out[n]);
    return n;
}
