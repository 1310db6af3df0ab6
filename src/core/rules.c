/* rules.c - the default rules, the named presets, their validation and a
 * one-line description (see rules.h and docs/rules.md). */
#include "rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

Rules rules_default(void)
{
    Rules r = {
        .opening = OPENING_PLAY_DICE,
        .later_games = LATER_OPENING_ROLL,
        .backgammons = true,
        .star_mars = false,
        .cube = true,
        .crawford = true,
        .holland = false,
        .jacoby = false,
        .beavers = 0,
        .auto_doubles = 0,
        .max_cube = 64,
        .backgammon_zone = BG_ZONE_HOME_OR_BAR,
        .closed_out = CLOSED_OUT_ROLL,
    };
    return r;
}

const char *const rules_preset_names[] = {"international", "money", "cafe", "nocube", "gnubg",
                                          NULL};

bool rules_preset(const char *name, Rules *out, Err *err)
{
    Rules r = rules_default();
    if (!name)
        return err_set(err, "no rules preset named");
    if (!strcmp(name, "international")) {
        /* the default as it is */
    } else if (!strcmp(name, "money")) {
        r.jacoby = true;
        r.beavers = 1;
    } else if (!strcmp(name, "cafe")) {
        r.opening = OPENING_REROLL;
        r.later_games = LATER_WINNER_STARTS;
    } else if (!strcmp(name, "nocube")) {
        r.cube = false;
    } else if (!strcmp(name, "gnubg")) {
        /* gnubg 1.07's defaults: `set jacoby on`, `set beavers 3`, and its
         * compiled-in MAX_CUBE of 2^12. */
        r.jacoby = true;
        r.beavers = 3;
        r.max_cube = 4096;
    } else {
        return err_set(err,
                       "unknown rules preset '%.40s' (known: international, money, cafe, "
                       "nocube, gnubg)",
                       name);
    }
    *out = r;
    return true;
}

static bool power_of_two(int v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

bool rules_valid(const Rules *r, Err *err)
{
    if (r->opening != OPENING_PLAY_DICE && r->opening != OPENING_REROLL)
        return err_set(err, "opening rule %d is neither play-the-dice nor reroll",
                       (int)r->opening);
    if (r->later_games != LATER_OPENING_ROLL && r->later_games != LATER_WINNER_STARTS)
        return err_set(err, "later-games rule %d is neither opening-roll nor winner-starts",
                       (int)r->later_games);
    if (r->backgammon_zone != BG_ZONE_HOME_OR_BAR && r->backgammon_zone != BG_ZONE_HOME)
        return err_set(err, "backgammon zone %d is neither home-or-bar nor home",
                       (int)r->backgammon_zone);
    if (r->closed_out != CLOSED_OUT_ROLL && r->closed_out != CLOSED_OUT_NO_ROLL)
        return err_set(err, "closed-out rule %d is neither roll nor no-roll", (int)r->closed_out);
    if (!power_of_two(r->max_cube) || r->max_cube > RULES_MAX_CUBE_LIMIT)
        return err_set(err, "max cube %d is not a power of two between 1 and %d", r->max_cube,
                       RULES_MAX_CUBE_LIMIT);
    if (r->beavers < 0 || r->beavers > RULES_COUNT_LIMIT)
        return err_set(err, "beavers %d is outside 0..%d", r->beavers, RULES_COUNT_LIMIT);
    if (r->auto_doubles < 0 || r->auto_doubles > RULES_COUNT_LIMIT)
        return err_set(err, "automatic doubles %d is outside 0..%d", r->auto_doubles,
                       RULES_COUNT_LIMIT);
    /* The Holland rule restricts post-Crawford games; without a Crawford
     * game there is no post-Crawford game to restrict. */
    if (r->holland && !r->crawford)
        return err_set(err, "the Holland rule needs the Crawford rule (post-Crawford games)");
    /* With backgammons off the zone changes nothing (star mars needs the
     * bar and the home board in either zone): refuse a custom that would
     * silently do nothing rather than guess which of the two was meant. */
    if (!r->backgammons && r->backgammon_zone == BG_ZONE_HOME)
        return err_set(err, "the home-board backgammon zone needs backgammons, which are off");
    /* Without a cube these would either mean nothing or, for Jacoby, that
     * gammons never count: refuse rather than guess which was meant. */
    if (!r->cube) {
        if (r->jacoby)
            return err_set(err, "the Jacoby rule needs the cube, which is off (drop Jacoby)");
        if (r->beavers)
            return err_set(err, "beavers need the cube, which is off (set beavers to 0)");
        if (r->auto_doubles)
            return err_set(err,
                           "automatic doubles need the cube, which is off (set them to 0)");
    }
    return true;
}

/* Appends to buf at *len, never past n (snprintf truncates; *len saturates). */
static void append(char *buf, unsigned n, unsigned *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void append(char *buf, unsigned n, unsigned *len, const char *fmt, ...)
{
    if (*len >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *len, n - *len, fmt, ap);
    va_end(ap);
    if (w < 0)
        return;
    *len = (unsigned)w >= n - *len ? n : *len + (unsigned)w;
}

void rules_describe(const Rules *r, int match_length, char *buf, unsigned n)
{
    unsigned len = 0;
    if (!buf || n == 0)
        return;
    buf[0] = '\0';
    if (match_length > 0)
        append(buf, n, &len, "%d-point match", match_length);
    else
        append(buf, n, &len, "money");
    append(buf, n, &len, ", opening %s",
           r->opening == OPENING_REROLL ? "winner rerolls" : "dice played");
    append(buf, n, &len, ", later games %s",
           r->later_games == LATER_WINNER_STARTS ? "winner starts" : "opening roll");
    append(buf, n, &len, ", backgammons %s", r->backgammons ? "3" : "off");
    if (r->backgammon_zone == BG_ZONE_HOME)
        append(buf, n, &len, " (home board only)");
    if (r->star_mars)
        append(buf, n, &len, ", star mars 4");
    if (r->closed_out == CLOSED_OUT_NO_ROLL)
        append(buf, n, &len, ", closed out does not roll");
    if (!r->cube) {
        append(buf, n, &len, ", no cube");
        return;
    }
    append(buf, n, &len, ", cube up to %d", r->max_cube);
    if (match_length > 0) {
        append(buf, n, &len, ", %s", r->crawford ? "Crawford" : "no Crawford");
        if (r->holland)
            append(buf, n, &len, ", Holland");
        return;
    }
    if (r->jacoby)
        append(buf, n, &len, ", Jacoby");
    if (r->beavers == 1)
        append(buf, n, &len, ", beavers");
    else if (r->beavers > 1)
        append(buf, n, &len, ", beavers and raccoons (%d in a row)", r->beavers);
    if (r->auto_doubles)
        append(buf, n, &len, ", automatic doubles (at most %d)", r->auto_doubles);
}
