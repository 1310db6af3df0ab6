/* record.c - the game log (see record.h): argument and sequence checks, and
 * the two buffers of games and events. */
#include "record.h"

#include <stdio.h>
#include <string.h>

#include "match.h"

bool record_name_valid(const char *name, Err *err)
{
    size_t n = strlen(name);
    if (n == 0)
        return err_set(err, "a player name cannot be empty");
    if (n > RECORD_NAME_MAX)
        return err_set(err, "player name '%.40s...' is longer than %d bytes (gnubg keeps %d)",
                       name, RECORD_NAME_MAX, RECORD_NAME_MAX);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c == 0x7f)
            return err_set(err, "player name '%s' holds a control character", name);
        if (c == ':')
            return err_set(err, "player name '%s' holds a ':' (a .mat score line splits on it)",
                           name);
        if (c == ',')
            return err_set(err, "player name '%s' holds a ',' (gnubg reads a rating after "
                                "it)",
                           name);
    }
    if (name[0] == ' ' || name[n - 1] == ' ')
        return err_set(err, "player name '%s' starts or ends with a blank", name);
    if (strstr(name, "Game "))
        return err_set(err, "player name '%s' holds \"Game \" (it starts a game in a .mat file)",
                       name);
    return true;
}

bool record_init(Record *r, const char *name0, const char *name1, int length,
                 const Rules *rules, Err *err)
{
    memset(r, 0, sizeof *r);
    buf_init(&r->games);
    buf_init(&r->events);
    if (!record_name_valid(name0, err) || !record_name_valid(name1, err))
        return false;
    if (!strcmp(name0, name1))
        return err_set(err, "both players are named '%s' (gnubg could not tell them apart)",
                       name0);
    if (length < 0 || length > MATCH_LENGTH_MAX)
        return err_set(err, "match length %d is out of range (0 = money, up to %d)", length,
                       MATCH_LENGTH_MAX);
    if (!rules_valid(rules, err))
        return false;
    memcpy(r->names[0], name0, strlen(name0) + 1);
    memcpy(r->names[1], name1, strlen(name1) + 1);
    r->length = length;
    r->rules = *rules;
    r->rolled = r->doubled = r->resigned = -1;
    r->cube = 1;
    return true;
}

void record_free(Record *r)
{
    buf_free(&r->games);
    buf_free(&r->events);
}

bool record_set_date(Record *r, int year, int month, int day, Err *err)
{
    static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 ||
        day > days[month - 1])
        return err_set(err, "%d-%d-%d is not a date", year, month, day);
    /* The ranges are checked: the casts tell the compiler so. */
    snprintf(r->date, sizeof r->date, "%04u.%02u.%02u", (unsigned)year % 10000u,
             (unsigned)month % 100u, (unsigned)day % 100u);
    return true;
}

/* --- events --- */

static RecordGame *current(Record *r)
{
    return (RecordGame *)(void *)(r->games.data + r->games.len - sizeof(RecordGame));
}

static bool in_game(const Record *r, Err *err)
{
    return r->in_game || err_set(err, "no game is on (record_game_start comes first)");
}

static bool player_ok(int player, Err *err)
{
    return (player == 0 || player == 1) || err_set(err, "player %d is not 0 or 1", player);
}

/* Nothing waits for an answer: no roll to play, double or resignation. */
static bool settled(const Record *r, const char *what, Err *err)
{
    if (r->rolled >= 0)
        return err_set(err, "%s while player %d has a roll to play", what, r->rolled);
    if (r->doubled >= 0)
        return err_set(err, "%s while player %d's double waits for an answer", what,
                       r->doubled);
    if (r->resigned >= 0)
        return err_set(err, "%s while player %d's resignation waits for an answer", what,
                       r->resigned);
    return true;
}

static void add(Record *r, RecordKind kind, int player, int d1, int d2, int value,
                const char *move)
{
    RecordEvent e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.player = player;
    e.dice[0] = d1;
    e.dice[1] = d2;
    e.value = value;
    if (move)
        snprintf(e.move, sizeof e.move, "%s", move);
    buf_append(&r->events, &e, sizeof e);
    current(r)->events++;
}

bool record_game_start(Record *r, Err *err)
{
    if (r->in_game)
        return err_set(err, "game %d is still on", record_games(r));
    if (r->length && (r->score[0] >= r->length || r->score[1] >= r->length))
        return err_set(err, "the match is over (%d-%d in a %d-point match)", r->score[0],
                       r->score[1], r->length);
    RecordGame g = {{r->score[0], r->score[1]}, r->events.len / sizeof(RecordEvent), 0, -1, 0};
    buf_append(&r->games, &g, sizeof g);
    r->in_game = true;
    r->rolled = r->doubled = r->resigned = -1;
    r->animals = 0;
    r->cube = 1;
    return true;
}

static bool die_ok(int d, Err *err)
{
    return (d >= 1 && d <= 6) || err_set(err, "die %d is not 1 to 6", d);
}

bool record_opening_roll(Record *r, int die0, int die1, Err *err)
{
    if (!in_game(r, err) || !die_ok(die0, err) || !die_ok(die1, err))
        return false;
    const RecordGame *g = current(r);
    const RecordEvent *e = record_game_events(r, record_games(r) - 1);
    for (size_t i = 0; i < g->events; i++)
        if (e[i].kind != REC_OPENING)
            return err_set(err, "an opening roll after the game has started");
    add(r, REC_OPENING, -1, die0, die1, 0, NULL);
    /* A tie is rolled again; otherwise the higher die starts and, unless
     * he rolls again (cafe rule), plays both dice. */
    if (die0 != die1 && r->rules.opening == OPENING_PLAY_DICE) {
        r->rolled = die0 > die1 ? 0 : 1;
        r->rolled_dice[0] = die0 > die1 ? die0 : die1;
        r->rolled_dice[1] = die0 > die1 ? die1 : die0;
    }
    return true;
}

bool record_roll(Record *r, int player, int d1, int d2, Err *err)
{
    if (!in_game(r, err) || !player_ok(player, err) || !die_ok(d1, err) || !die_ok(d2, err) ||
        !settled(r, "a roll", err))
        return false;
    add(r, REC_ROLL, player, d1, d2, 0, NULL);
    r->rolled = player;
    r->rolled_dice[0] = d1;
    r->rolled_dice[1] = d2;
    return true;
}

static bool has_rolled(const Record *r, int player, const char *what, Err *err)
{
    if (r->resigned >= 0)
        return err_set(err, "%s while player %d's resignation waits for an answer", what,
                       r->resigned);
    if (r->rolled != player)
        return err_set(err, "%s by player %d, who has no roll to play", what, player);
    return true;
}

/* Stores text with its runs of blanks made one space: the .mat reader tells
 * its two columns apart by a double space. Text from a user is read back
 * (check); the text of a generated move is movetext_display's, already
 * well formed, and parsing it again would only cost the referee time. */
static bool move_event(Record *r, int player, const char *text, bool check, Err *err)
{
    char norm[MOVETEXT_MAX];
    size_t n = 0;
    bool blank = false;
    for (const char *p = text; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == ' ' || c == '\t') {
            blank = n > 0;
            continue;
        }
        if (c < 0x21 || c > 0x7e)
            return err_set(err, "move text holds byte 0x%02x", c);
        if (n + (blank ? 2 : 1) >= sizeof norm)
            return err_set(err, "move text '%.40s...' is too long", text);
        if (blank)
            norm[n++] = ' ';
        norm[n++] = (char)c;
        blank = false;
    }
    norm[n] = '\0';
    Move m;
    if (check && !movetext_parse(norm, &m, err))
        return false;
    if (check && m.parts == 0)
        return err_set(err, "an empty move: a roll with no legal move is a pass");
    add(r, REC_MOVE, player, r->rolled_dice[0], r->rolled_dice[1], 0, norm);
    r->rolled = -1;
    return true;
}

bool record_move(Record *r, int player, const Position *before, const Move *m, Err *err)
{
    if (!in_game(r, err) || !player_ok(player, err) || !has_rolled(r, player, "a move", err))
        return false;
    if (m->parts == 0)
        return err_set(err, "a move of no parts: a roll with no legal move is a pass");
    char text[MOVETEXT_MAX];
    movetext_display(before, m, text);
    if (!move_event(r, player, text, false, err))
        return false;
    RecordEvent *last = (RecordEvent *)(void *)(r->events.data + r->events.len) - 1;
    posid_encode(before, last->posid);
    return true;
}

bool record_move_text(Record *r, int player, const char *text, Err *err)
{
    if (!in_game(r, err) || !player_ok(player, err) || !has_rolled(r, player, "a move", err))
        return false;
    return move_event(r, player, text, true, err);
}

bool record_pass(Record *r, int player, Err *err)
{
    if (!in_game(r, err) || !player_ok(player, err) || !has_rolled(r, player, "a pass", err))
        return false;
    add(r, REC_PASS, player, r->rolled_dice[0], r->rolled_dice[1], 0, NULL);
    r->rolled = -1;
    return true;
}

bool record_skip(Record *r, int player, Err *err)
{
    if (!in_game(r, err) || !player_ok(player, err))
        return false;
    if (r->rolled >= 0)
        return err_set(err, "a pass without dice while player %d has a roll to play",
                       r->rolled);
    if (r->doubled >= 0 || r->resigned >= 0)
        return err_set(err, "a pass without dice while an answer waits");
    add(r, REC_SKIP, player, 0, 0, 0, NULL);
    return true;
}

static bool cube_value_ok(const Record *r, int value, Err *err)
{
    if (value < 2 || (value & (value - 1)) || value <= r->cube)
        return err_set(err, "cube value %d is not a power of two above %d", value, r->cube);
    return true;
}

bool record_double(Record *r, int player, int value, Err *err)
{
    if (!in_game(r, err) || !player_ok(player, err) || !settled(r, "a double", err) ||
        !cube_value_ok(r, value, err))
        return false;
    add(r, REC_DOUBLE, player, 0, 0, value, NULL);
    r->doubled = player;
    r->animals = 0;
    r->cube = value;
    return true;
}

static bool answers(const Record *r, int player, const char *what, Err *err)
{
    if (r->doubled < 0)
        return err_set(err, "%s with no double to answer", what);
    if (player != !r->doubled)
        return err_set(err, "%s by player %d, who doubled", what, player);
    return true;
}

bool record_take(Record *r, int player, Err *err)
{
    if (!in_game(r, err) || !player_ok(player, err) || !answers(r, player, "a take", err))
        return false;
    add(r, REC_TAKE, player, 0, 0, r->cube, NULL);
    r->doubled = -1;
    return true;
}

bool record_drop(Record *r, int player, Err *err)
{
    if (!in_game(r, err) || !player_ok(player, err) || !answers(r, player, "a drop", err))
        return false;
    add(r, REC_DROP, player, 0, 0, r->cube, NULL);
    r->doubled = -1;
    return true;
}

bool record_beaver(Record *r, int player, int value, Err *err)
{
    if (!in_game(r, err) || !player_ok(player, err) || !answers(r, player, "a beaver", err) ||
        !cube_value_ok(r, value, err))
        return false;
    add(r, r->animals == 0 ? REC_BEAVER : REC_RACCOON, player, 0, 0, value, NULL);
    r->animals++;
    r->doubled = player;
    r->cube = value;
    return true;
}

bool record_resign(Record *r, int player, int level, Err *err)
{
    if (!in_game(r, err) || !player_ok(player, err))
        return false;
    if (level < 1 || level > 3)
        return err_set(err, "resignation level %d is not 1 (single), 2 (gammon) or "
                            "3 (backgammon)",
                       level);
    if (r->doubled >= 0)
        return err_set(err, "a resignation while player %d's double waits for an answer",
                       r->doubled);
    if (r->resigned >= 0)
        return err_set(err, "a resignation while player %d's resignation waits for an "
                            "answer",
                       r->resigned);
    add(r, REC_RESIGN, player, 0, 0, level, NULL);
    r->resigned = player;
    return true;
}

static bool answers_resign(const Record *r, int player, const char *what, Err *err)
{
    if (r->resigned < 0)
        return err_set(err, "%s with no resignation offered", what);
    if (player != !r->resigned)
        return err_set(err, "%s by player %d, who offered the resignation", what, player);
    return true;
}

bool record_accept(Record *r, int player, Err *err)
{
    if (!in_game(r, err) || !player_ok(player, err) ||
        !answers_resign(r, player, "an acceptance", err))
        return false;
    add(r, REC_ACCEPT, player, 0, 0, 0, NULL);
    r->resigned = -1;
    r->rolled = -1; /* a roll made before resigning is never played */
    return true;
}

bool record_reject(Record *r, int player, Err *err)
{
    if (!in_game(r, err) || !player_ok(player, err) ||
        !answers_resign(r, player, "a rejection", err))
        return false;
    add(r, REC_REJECT, player, 0, 0, 0, NULL);
    r->resigned = -1;
    return true;
}

bool record_forfeit(Record *r, int player, Err *err)
{
    if (!in_game(r, err) || !player_ok(player, err))
        return false;
    add(r, REC_FORFEIT, player, 0, 0, 0, NULL);
    r->rolled = r->doubled = r->resigned = -1;
    r->animals = 0;
    return true;
}

bool record_game_end(Record *r, int winner, int points, Err *err)
{
    if (!in_game(r, err) || !player_ok(winner, err) || !settled(r, "the game's end", err))
        return false;
    if (points < 1)
        return err_set(err, "a game that scores %d points", points);
    RecordGame *g = current(r);
    g->winner = winner;
    g->points = points;
    r->score[winner] += points;
    r->in_game = false;
    return true;
}

/* --- reading --- */

int record_games(const Record *r)
{
    return (int)(r->games.len / sizeof(RecordGame));
}

const RecordGame *record_game(const Record *r, int game)
{
    if (game < 0 || game >= record_games(r))
        return NULL;
    return (const RecordGame *)(const void *)(r->games.data + (size_t)game * sizeof(RecordGame));
}

const RecordEvent *record_game_events(const Record *r, int game)
{
    const RecordGame *g = record_game(r, game);
    if (!g || g->events == 0)
        return NULL;
    return (const RecordEvent *)(const void *)(r->events.data + g->first * sizeof(RecordEvent));
}
