/* match.c - the game and match state machine (see match.h).
 *
 * Every transition first asks match_can() whether the action is legal, then
 * works on a copy of the state and stores it only when everything succeeded,
 * so a refused action never leaves a half-changed state behind. */
#include "match.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A fresh board and cube for the next game, waiting for its opening roll. */
static void game_reset(Match *m)
{
    pos_start(&m->board);
    m->phase = PHASE_OPENING;
    m->cube = 1;
    m->cube_owner = -1;
    m->on_roll = m->turn = 0;
    m->dice[0] = m->dice[1] = 0;
    m->legal_moves = 0;
    m->doubled = false;
    m->animals = 0;
    m->resigned = m->resign_declined = 0;
    m->auto_doubles = 0;
    m->turns[0] = m->turns[1] = 0;
    m->winner = -1;
    m->result = SCORE_NONE;
    m->points = 0;
}

bool match_start(Match *m, const Rules *r, int length, Err *err)
{
    if (!r)
        return err_set(err, "no rules given");
    if (!rules_valid(r, err))
        return false;
    if (length < 0 || length > MATCH_LENGTH_MAX)
        return err_set(err, "match length %d is outside 0..%d (0 = money play)", length,
                       MATCH_LENGTH_MAX);
    Match t;
    memset(&t, 0, sizeof t);
    t.rules = *r;
    t.length = length;
    game_reset(&t);
    *m = t;
    return true;
}

bool match_over(const Match *m)
{
    return m->length > 0 && (m->score[0] >= m->length || m->score[1] >= m->length);
}

/* The cube and score seen with `seat` as side 1 (cube_state.h). While a
 * beaver or raccoon waits, the one who made it holds the cube he redoubles
 * (gnubg's Match ID shows it owned by the first taker instead). */
static void cube_state_of(const Match *m, int seat, CubeState *cs)
{
    const Rules *r = &m->rules;
    bool money = m->length == 0;
    memset(cs, 0, sizeof *cs);
    cs->cube_in_use = r->cube;
    cs->cube = m->cube;
    if (m->doubled && m->animals > 0)
        cs->owner = (!m->turn) == seat ? SIDE_ROLLER : SIDE_OPPONENT;
    else
        cs->owner = m->cube_owner == -1 ? -1 : m->cube_owner == seat ? SIDE_ROLLER : SIDE_OPPONENT;
    cs->max_cube = r->max_cube;
    cs->match_length = m->length;
    cs->score[SIDE_ROLLER] = m->score[seat];
    cs->score[SIDE_OPPONENT] = m->score[!seat];
    cs->crawford = m->crawford;
    cs->post_crawford = m->post_crawford;
    cs->holland = !money && r->holland;
    cs->turns[SIDE_ROLLER] = m->turns[seat];
    cs->turns[SIDE_OPPONENT] = m->turns[!seat];
    cs->jacoby = money && r->jacoby;
    cs->beavers = money ? r->beavers : 0;
    cs->animals = m->animals;
    cubestate_set_win_rules(cs, r);
}

int match_cube_state(const Match *m, CubeState *cs)
{
    int seat = m->phase != PHASE_PLAYING ? -1 : m->doubled ? !m->turn : m->turn;
    cube_state_of(m, seat < 0 ? 0 : seat, cs);
    return seat;
}

void match_position_of(const Match *m, int seat, Position *out)
{
    *out = m->board;
    if (seat == 0)
        pos_swap(out);
}

bool match_cube_dead(const Match *m, int player)
{
    if (player != 0 && player != 1)
        return false;
    CubeState cs;
    cube_state_of(m, player, &cs);
    return cubestate_dead(&cs, SIDE_ROLLER);
}

/* What stands on the game now, for score_points(). */
static GameStake stake_of(const Match *m)
{
    CubeState cs;
    cube_state_of(m, 0, &cs);
    return cubestate_stake(&cs);
}

void match_position(const Match *m, Position *out)
{
    match_position_of(m, m->on_roll, out);
}

/* The legal moves of the player on roll for the dice. The list is on the
 * heap: a MoveList is about 250 KB, too much for a server thread's stack. */
static MoveList *moves_new(const Match *m, Err *err)
{
    MoveList *l = malloc(sizeof *l);
    if (!l) {
        err_set(err, "out of memory for the list of legal moves");
        return NULL;
    }
    Position p;
    match_position(m, &p);
    movegen_generate(&p, m->dice[0], m->dice[1], l);
    return l;
}

static bool count_moves(Match *m, Err *err)
{
    MoveList *l = moves_new(m, err);
    if (!l)
        return false;
    m->legal_moves = l->count;
    free(l);
    return true;
}

static bool dice_ok(const char *what, int d1, int d2, Err *err)
{
    if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)
        return err_set(err, "cannot %s: the dice %d and %d are not both 1..6", what, d1, d2);
    return true;
}

/* --- closed out --------------------------------------------------------- */

/* The player on roll has a checker on the bar and his opponent holds every
 * point of his home board (the opponent's points 1..6, two checkers or
 * more each): no roll can enter. */
static bool board_closed_out(const Match *m)
{
    const Position *b = &m->board;
    int p = m->on_roll, opp = !p;
    if (b->side[p][POS_BAR] == 0)
        return false;
    for (int i = 0; i < 6; i++)
        if (b->side[opp][i] < 2)
            return false;
    return true;
}

/* Under CLOSED_OUT_NO_ROLL a closed-out player's turn passes without dice:
 * the roll would change nothing, and the custom records no dice for it. */
bool match_closed_out(const Match *m)
{
    return m->phase == PHASE_PLAYING && m->rules.closed_out == CLOSED_OUT_NO_ROLL &&
           !m->dice[0] && board_closed_out(m);
}

/* --- when is an action legal ------------------------------------------- */

static bool playing(const Match *m, const char *what, Err *err)
{
    if (m->phase == PHASE_PLAYING)
        return true;
    if (m->phase == PHASE_OPENING)
        return err_set(err, "cannot %s: the opening roll comes first", what);
    return err_set(err, "cannot %s: the game is over", what);
}

static bool nothing_pending(const Match *m, const char *what, Err *err)
{
    if (m->resigned)
        return err_set(err, "cannot %s: a resignation offer awaits an answer", what);
    if (m->doubled)
        return err_set(err, "cannot %s: a double awaits an answer", what);
    return true;
}

/* The checks gnubg makes before a double, in its order, then ours (Holland,
 * which gnubg does not know). Whether the cube allows it is
 * cubestate_double_bars()'s answer; this adds when in the turn. */
static bool can_double(const Match *m, Err *err)
{
    const Rules *r = &m->rules;
    int p = m->on_roll;
    if (!playing(m, "double", err))
        return false;
    CubeState cs;
    cube_state_of(m, p, &cs);
    unsigned bars = cubestate_double_bars(&cs, SIDE_ROLLER);
    if (bars & CUBE_BAR_NO_CUBE)
        return err_set(err, "cannot double: the rules have no cube");
    if (bars & CUBE_BAR_CRAWFORD)
        return err_set(err, "cannot double: Crawford game (no doubling in it)");
    if (!nothing_pending(m, "double", err))
        return false;
    if (m->dice[0])
        return err_set(err, "cannot double: the dice are already rolled");
    if (bars & CUBE_BAR_OWNER)
        return err_set(err, "cannot double: opponent owns the cube");
    if (bars & CUBE_BAR_MAX)
        return err_set(err, "cannot double: the cube is already at the maximum of %d",
                       r->max_cube);
    if (bars & CUBE_BAR_DEAD)
        return err_set(err,
                       "cannot double: the cube is dead (score %d plus cube %d reaches the "
                       "match length %d)",
                       m->score[p], m->cube, m->length);
    if (bars & CUBE_BAR_HOLLAND)
        return err_set(err,
                       "cannot double: Holland rule (post-Crawford, the trailer may double "
                       "only from his third turn; this is turn %d)",
                       m->turns[p] + 1);
    return true;
}

static bool can_beaver(const Match *m, Err *err)
{
    CubeState cs;
    match_cube_state(m, &cs);
    const char *animal = cubestate_animal_name(&cs);
    if (!playing(m, animal, err))
        return false;
    if (!m->doubled)
        return err_set(err, "cannot %s: no double offered", animal);
    unsigned bars = cubestate_beaver_bars(&cs);
    if (bars & CUBE_BAR_MATCH)
        return err_set(err, "cannot %s: beavers and raccoons are for money play only",
                       animal);
    if (bars & CUBE_BAR_NO_BEAVERS)
        return err_set(err, "cannot beaver: the rules allow no beavers");
    if (bars & CUBE_BAR_ANIMALS) {
        if (m->rules.beavers == 1)
            return err_set(err, "cannot raccoon: the rules allow a beaver but no raccoon");
        return err_set(err, "cannot %s: the rules allow only %d beavers and raccoons in a row",
                       animal, m->rules.beavers);
    }
    if (bars & CUBE_BAR_MAX)
        return err_set(err, "cannot %s: the cube would pass the maximum of %d", animal,
                       m->rules.max_cube);
    return true;
}

static bool can_play(const Match *m, bool pass, Err *err)
{
    const char *what = pass ? "pass" : "move";
    if (!playing(m, what, err) || !nothing_pending(m, what, err))
        return false;
    if (pass && match_closed_out(m))
        return true; /* without dice: he does not roll */
    if (!m->dice[0])
        return err_set(err, "cannot %s: the dice are not rolled yet", what);
    if (!pass && m->legal_moves == 0)
        return err_set(err, "cannot move: %d-%d has no legal move (pass)", m->dice[0],
                       m->dice[1]);
    if (pass && m->legal_moves > 0)
        return err_set(err, "cannot pass: %d-%d has %d legal move%s", m->dice[0], m->dice[1],
                       m->legal_moves, m->legal_moves == 1 ? "" : "s");
    return true;
}

bool match_can(const Match *m, MatchAction action, Err *err)
{
    switch (action) {
    case ACT_OPENING_ROLL:
        if (m->phase == PHASE_PLAYING)
            return err_set(err, "cannot roll the opening: the game is under way");
        if (m->phase != PHASE_OPENING)
            return err_set(err, "cannot roll the opening: the game is over");
        return true;
    case ACT_ROLL:
        if (!playing(m, "roll", err) || !nothing_pending(m, "roll", err))
            return false;
        if (m->dice[0])
            return err_set(err, "cannot roll: the dice are already rolled");
        if (match_closed_out(m))
            return err_set(err,
                           "cannot roll: player %d is closed out (on the bar against a closed "
                           "home board) and under the no-roll rule passes without rolling",
                           m->on_roll);
        return true;
    case ACT_DOUBLE: return can_double(m, err);
    case ACT_MOVE: return can_play(m, false, err);
    case ACT_PASS: return can_play(m, true, err);
    case ACT_TAKE:
    case ACT_DROP: {
        const char *what = action == ACT_TAKE ? "take" : "drop";
        if (!playing(m, what, err))
            return false;
        if (!m->doubled)
            return err_set(err, "cannot %s: no double offered", what);
        return true;
    }
    case ACT_BEAVER: return can_beaver(m, err);
    case ACT_RESIGN:
        if (!playing(m, "resign", err) || !nothing_pending(m, "resign", err))
            return false;
        if (m->resign_declined >= SCORE_BACKGAMMON)
            return err_set(err, "cannot resign: a backgammon was just rejected");
        return true;
    case ACT_ACCEPT:
    case ACT_REJECT: {
        const char *what = action == ACT_ACCEPT ? "accept" : "reject";
        if (!playing(m, what, err))
            return false;
        if (!m->resigned)
            return err_set(err, "cannot %s: no resignation offered", what);
        return true;
    }
    case ACT_NEW_GAME:
        if (m->phase == PHASE_OPENING || m->phase == PHASE_PLAYING)
            return err_set(err, "cannot start a new game: this game is not over");
        if (match_over(m))
            return err_set(err, "cannot start a new game: the match is over");
        return true;
    }
    return err_set(err, "cannot do action %d: no such action", (int)action);
}

unsigned match_actions(const Match *m)
{
    unsigned bits = 0;
    for (unsigned a = ACT_OPENING_ROLL; a <= ACT_NEW_GAME; a <<= 1)
        if (match_can(m, (MatchAction)a, NULL))
            bits |= a;
    return bits;
}

int match_turn(const Match *m)
{
    return m->phase == PHASE_PLAYING ? m->turn : -1;
}

bool match_forced(const Match *m)
{
    return can_play(m, false, NULL) && m->legal_moves == 1;
}

int match_legal_moves(const Match *m, MoveList *out)
{
    out->count = 0;
    if (!can_play(m, false, NULL))
        return 0;
    Position p;
    match_position(m, &p);
    return movegen_generate(&p, m->dice[0], m->dice[1], out);
}

/* --- transitions -------------------------------------------------------- */

/* Crawford and post-Crawford for the next game, worked out as soon as a
 * game ends (as gnubg does, so its Match ID of a finished game carries the
 * next game's Crawford flag): the game after a player reaches length - 1 is
 * the Crawford game, the games after it post-Crawford. A 1-point match has
 * no Crawford game. */
static void next_crawford(Match *t, int winner)
{
    if (!t->rules.crawford || t->length < 2)
        return;
    int w = t->score[winner], l = t->score[!winner], last = t->length - 1;
    bool was_crawford = t->crawford;
    t->post_crawford = t->post_crawford || (was_crawford && w < t->length);
    t->crawford = !t->post_crawford && !was_crawford && w == last && l != last;
}

/* Ends the game in t: the winner scores the kind under the rules and cube. */
static void end_game(Match *t, int winner, ScoreKind kind, MatchPhase phase)
{
    GameStake s = stake_of(t);
    t->phase = phase;
    t->winner = winner;
    t->result = kind;
    t->points = score_points(&t->rules, &s, kind);
    /* A money session can run long; saturate rather than overflow. */
    t->score[winner] = t->score[winner] > INT_MAX - t->points ? INT_MAX
                                                              : t->score[winner] + t->points;
    t->games++;
    next_crawford(t, winner);
    t->dice[0] = t->dice[1] = 0;
    t->legal_moves = 0;
    t->doubled = false;
    t->animals = 0;
}

/* Whether money play allows one more automatic double on an opening tie. */
static bool auto_double_allowed(const Match *m)
{
    CubeState cs;
    cube_state_of(m, 0, &cs);
    return cubestate_may_auto_double(&cs, m->rules.auto_doubles, m->auto_doubles);
}

bool match_opening_roll(Match *m, int die0, int die1, Err *err)
{
    if (!match_can(m, ACT_OPENING_ROLL, err) || !dice_ok("roll the opening", die0, die1, err))
        return false;
    Match t = *m;
    if (die0 == die1) {
        /* A tie is rolled again; agreed automatic doubles turn the cube
         * but leave it in the middle. */
        if (auto_double_allowed(&t)) {
            t.cube *= 2;
            t.auto_doubles++;
        }
        *m = t;
        return true;
    }
    t.phase = PHASE_PLAYING;
    t.on_roll = t.turn = die1 > die0;
    if (t.rules.opening == OPENING_PLAY_DICE) {
        t.dice[0] = die0;
        t.dice[1] = die1;
        if (!count_moves(&t, err))
            return false;
    }
    *m = t;
    return true;
}

bool match_roll(Match *m, int d1, int d2, Err *err)
{
    if (!match_can(m, ACT_ROLL, err) || !dice_ok("roll", d1, d2, err))
        return false;
    Match t = *m;
    t.dice[0] = d1;
    t.dice[1] = d2;
    t.resign_declined = 0;
    if (!count_moves(&t, err))
        return false;
    *m = t;
    return true;
}

bool match_double(Match *m, Err *err)
{
    if (!match_can(m, ACT_DOUBLE, err))
        return false;
    m->doubled = true;
    m->animals = 0;
    m->turn = !m->on_roll;
    m->resign_declined = 0;
    return true;
}

bool match_take(Match *m, Err *err)
{
    if (!match_can(m, ACT_TAKE, err))
        return false;
    /* A plain double hands the cube to the taker; after a beaver or
     * raccoon the one who made it keeps the cube: that is the player who
     * offered what is now taken, the one not to act. */
    m->cube_owner = m->animals == 0 ? m->turn : !m->turn;
    m->cube *= 2;
    m->doubled = false;
    m->animals = 0;
    m->turn = m->on_roll;
    m->resign_declined = 0;
    return true;
}

bool match_drop(Match *m, Err *err)
{
    if (!match_can(m, ACT_DROP, err))
        return false;
    end_game(m, !m->turn, SCORE_SINGLE, PHASE_DROPPED);
    return true;
}

bool match_beaver(Match *m, Err *err)
{
    if (!match_can(m, ACT_BEAVER, err))
        return false;
    /* As gnubg: the cube doubles now and the pending offer goes back; while
     * it is pending the cube shows as owned by the original taker, which is
     * how gnubg's Match ID tells a beaver or raccoon from a plain double. */
    m->cube *= 2;
    m->animals++;
    m->cube_owner = !m->on_roll;
    m->turn = !m->turn;
    return true;
}

/* The player on roll has finished his turn (moved or passed). */
static void finish_turn(Match *t)
{
    int mover = t->on_roll;
    t->turns[mover]++;
    t->dice[0] = t->dice[1] = 0;
    t->legal_moves = 0;
    t->resign_declined = 0;
    t->on_roll = t->turn = !mover;
    if (pos_checkers(&t->board, mover) == 0)
        end_game(t, mover, score_kind_rules(&t->rules, &t->board, mover), PHASE_OVER);
}

/* Plays the legal move in l whose result is `result`. */
static bool play_from(Match *m, const MoveList *l, const Position *result, Err *err)
{
    if (movegen_find(l, result) < 0)
        return err_set(err, "illegal move: not one of the %d legal moves for %d-%d", l->count,
                       m->dice[0], m->dice[1]);
    Match t = *m;
    t.board = *result;
    if (t.on_roll == 0)
        pos_swap(&t.board);
    finish_turn(&t);
    *m = t;
    return true;
}

bool match_move(Match *m, const Position *result, Err *err)
{
    if (!match_can(m, ACT_MOVE, err))
        return false;
    if (!result)
        return err_set(err, "illegal move: no position given");
    MoveList *l = moves_new(m, err);
    if (!l)
        return false;
    bool ok = play_from(m, l, result, err);
    free(l);
    return ok;
}

bool match_pass(Match *m, Err *err)
{
    if (!match_can(m, ACT_PASS, err))
        return false;
    finish_turn(m);
    return true;
}

bool match_play_forced(Match *m, Err *err)
{
    if (m->legal_moves == 0)
        return match_pass(m, err);
    if (!match_can(m, ACT_MOVE, err))
        return false;
    if (m->legal_moves > 1)
        return err_set(err, "cannot play a forced move: %d-%d has %d legal moves to choose from",
                       m->dice[0], m->dice[1], m->legal_moves);
    MoveList *l = moves_new(m, err);
    if (!l)
        return false;
    bool ok = l->count == 1 ? play_from(m, l, &l->moves[0].result, err)
                            : err_set(err, "cannot play a forced move: the legal moves changed");
    free(l);
    return ok;
}

bool match_resign(Match *m, int level, Err *err)
{
    if (!match_can(m, ACT_RESIGN, err))
        return false;
    if (level < SCORE_SINGLE || level > SCORE_BACKGAMMON)
        return err_set(err,
                       "cannot resign: level %d is not 1 (single), 2 (gammon) or "
                       "3 (backgammon)",
                       level);
    if (level <= m->resign_declined)
        return err_set(err, "cannot resign a %s: a %s was just rejected, offer more",
                       score_kind_name((ScoreKind)level),
                       score_kind_name((ScoreKind)m->resign_declined));
    m->resigned = level;
    m->turn = !m->turn;
    return true;
}

bool match_accept(Match *m, Err *err)
{
    if (!match_can(m, ACT_ACCEPT, err))
        return false;
    int dice[2] = {m->dice[0], m->dice[1]};
    end_game(m, m->turn, (ScoreKind)m->resigned, PHASE_RESIGNED);
    /* gnubg keeps the dice of a resignation made after rolling in its
     * record of the finished game; so do we, for identical Match IDs. */
    m->dice[0] = dice[0];
    m->dice[1] = dice[1];
    return true;
}

bool match_reject(Match *m, Err *err)
{
    if (!match_can(m, ACT_REJECT, err))
        return false;
    m->resign_declined = m->resigned;
    m->resigned = 0;
    m->turn = !m->turn;
    return true;
}

bool match_forfeit(Match *m, int loser, Err *err)
{
    if (loser != 0 && loser != 1)
        return err_set(err, "cannot forfeit: player %d is not 0 or 1", loser);
    if (m->phase != PHASE_OPENING && m->phase != PHASE_PLAYING)
        return err_set(err, "cannot forfeit: no game is on");
    /* Recorded as a single game resigned by the loser, which is what it
     * scores: a Match ID and a game record can both say that. */
    m->resigned = SCORE_SINGLE;
    end_game(m, !loser, SCORE_SINGLE, PHASE_RESIGNED);
    return true;
}

bool match_new_game(Match *m, Err *err)
{
    if (!match_can(m, ACT_NEW_GAME, err))
        return false;
    Match t = *m;
    int winner = t.winner;
    game_reset(&t); /* Crawford flags were set when the last game ended */
    if (t.rules.later_games == LATER_WINNER_STARTS && winner >= 0) {
        t.phase = PHASE_PLAYING;
        t.on_roll = t.turn = winner;
    }
    *m = t;
    return true;
}

/* --- gnubg's Match ID -------------------------------------------------- */

bool match_to_ids(const Match *m, MatchId *id, Position *pos, Err *err)
{
    MatchId t;
    memset(&t, 0, sizeof t);
    t.cube = m->cube;
    t.cube_owner = m->cube_owner;
    t.dice_owner = m->on_roll;
    t.crawford = m->crawford;
    t.game_state = (int)m->phase;
    t.turn = m->turn;
    t.doubled = m->doubled;
    t.resigned = m->resigned;
    /* gnubg writes the larger die first. */
    t.dice[0] = m->dice[0] > m->dice[1] ? m->dice[0] : m->dice[1];
    t.dice[1] = m->dice[0] > m->dice[1] ? m->dice[1] : m->dice[0];
    t.match_length = m->length;
    /* A match's winner may score past the length (a gammon at 4-away from
     * a 3-point match); gnubg's decoder refuses such a score, and past the
     * length it means nothing. */
    for (int p = 0; p < 2; p++)
        t.score[p] = m->length > 0 && m->score[p] > m->length ? m->length : m->score[p];
    /* gnubg drops its Jacoby flag in match play. */
    t.jacoby = m->length == 0 && m->rules.jacoby;
    if (!matchid_valid(&t, err))
        return false;
    *id = t;
    match_position(m, pos);
    return true;
}

static int log2_of(int v)
{
    int n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

/* A centred cube above 1 can only come from automatic doubles. */
static bool check_centred_cube(Match *t, Err *err)
{
    if (t->cube_owner != -1 || t->cube == 1)
        return true;
    int n = log2_of(t->cube);
    if (t->length > 0)
        return err_set(err, "a centred %d-cube, but match play has no automatic doubles",
                       t->cube);
    if (n > t->rules.auto_doubles)
        return err_set(err, "a centred %d-cube needs %d automatic doubles, the rules allow %d",
                       t->cube, n, t->rules.auto_doubles);
    t->auto_doubles = n;
    return true;
}

/* The Crawford flag against the score. Once a game is over the flag is
 * the next game's (see next_crawford). */
static bool check_crawford(const Match *t, Err *err)
{
    bool at0 = t->score[0] == t->length - 1, at1 = t->score[1] == t->length - 1;
    if (!t->crawford)
        return true;
    if (t->length < 2 || at0 == at1)
        return err_set(err, "a Crawford game needs exactly one player one point from winning "
                            "(score %d-%d, match to %d)",
                       t->score[0], t->score[1], t->length);
    if (t->phase <= PHASE_PLAYING && (t->cube != 1 || t->cube_owner != -1 || t->doubled))
        return err_set(err, "the cube was used in the Crawford game");
    return true;
}

/* PHASE_PLAYING: who acts, pending double or resignation, dice. */
static bool from_playing(Match *t, const MatchId *id, Err *err)
{
    t->on_roll = id->dice_owner;
    t->turn = id->turn;
    t->resigned = id->resigned;
    t->dice[0] = id->dice[0];
    t->dice[1] = id->dice[1];
    t->turns[0] = t->turns[1] = 2; /* no turn count in a Match ID */
    if (id->doubled && id->resigned)
        return err_set(err, "a double and a resignation are both pending");
    if (id->doubled && id->dice[0])
        return err_set(err, "a double is offered after the dice were rolled");
    if (id->doubled) {
        if (t->cube_owner == !t->on_roll) {
            /* gnubg's sign of a beaver (turn back with the doubler) or a
             * raccoon (turn with the beaverer). The last of them must have
             * been allowed after the ones before it, and the take that
             * answers it doubles the cube it already doubled. */
            t->animals = t->turn == t->on_roll ? 1 : 2;
            CubeState before;
            cube_state_of(t, t->on_roll, &before);
            before.animals--;
            unsigned bars = cubestate_beaver_bars(&before) & ~(unsigned)CUBE_BAR_MAX;
            if (!cubestate_fits(&before, 2L * t->cube))
                bars |= CUBE_BAR_MAX;
            if (bars & (CUBE_BAR_MATCH | CUBE_BAR_NO_BEAVERS))
                return err_set(err, "a double by the player who does not own the cube, or a "
                                    "beaver the rules do not allow");
            if (bars & CUBE_BAR_ANIMALS)
                return err_set(err, "a raccoon the rules (%d beaver) do not allow",
                               t->rules.beavers);
            if (bars & CUBE_BAR_MAX)
                return err_set(err, "a beaver past the maximum cube %d", t->rules.max_cube);
        } else {
            if (t->turn == t->on_roll)
                return err_set(err, "a double is offered but the doubler is to answer it");
            Match before = *t;
            Err why = {{0}};
            before.turn = t->on_roll;
            if (!can_double(&before, &why))
                return err_set(err, "the double offered is not legal (%s)", why.text);
        }
        t->doubled = true;
    } else if (id->resigned) {
        if (t->turn == t->on_roll)
            return err_set(err, "a resignation is offered but its offerer is to answer it");
    } else if (t->turn != t->on_roll) {
        return err_set(err, "the player to act is not the player on roll, with nothing to "
                            "answer");
    }
    /* Under the no-roll custom a closed-out player never has dice: his
     * Match ID shows none, and one with dice is not of these rules. */
    if (t->dice[0] && t->rules.closed_out == CLOSED_OUT_NO_ROLL && board_closed_out(t))
        return err_set(err, "player %d is closed out and, under the no-roll rule, cannot have "
                            "rolled %d-%d",
                       t->on_roll, t->dice[0], t->dice[1]);
    return !t->dice[0] || count_moves(t, err);
}

/* A finished game: who won, with what. */
static bool from_finished(Match *t, const MatchId *id, Err *err)
{
    t->on_roll = id->dice_owner;
    t->turn = id->turn;
    t->dice[0] = id->dice[0];
    t->dice[1] = id->dice[1];
    /* Dice may linger (gnubg keeps them after a resignation made after
     * rolling); they mean nothing now. A pending double cannot. */
    if (id->doubled)
        return err_set(err, "the game is over but a double is pending");
    if ((id->game_state == PHASE_RESIGNED) != (id->resigned != 0))
        return err_set(err, "a resignation level goes with a game ended by resignation, "
                            "and only with it");
    int winner;
    ScoreKind kind;
    switch (id->game_state) {
    case PHASE_OVER: {
        bool done0 = pos_checkers(&t->board, 0) == 0, done1 = pos_checkers(&t->board, 1) == 0;
        if (done0 == done1)
            return err_set(err, "the game is over but not exactly one player has borne off "
                                "every checker");
        winner = done1;
        kind = score_kind_rules(&t->rules, &t->board, winner);
        break;
    }
    case PHASE_RESIGNED:
        winner = t->turn;
        kind = (ScoreKind)id->resigned;
        t->resigned = id->resigned;
        break;
    default: /* dropped */
        winner = !t->turn;
        kind = SCORE_SINGLE;
        break;
    }
    GameStake s = stake_of(t);
    t->winner = winner;
    t->result = kind;
    t->points = score_points(&t->rules, &s, kind);
    t->games = 1;
    /* The winner's score includes the game, unless it was cut to the length
     * of a match it won. */
    bool match_won = t->length > 0 && id->score[winner] >= t->length;
    if (!match_won && id->score[winner] < t->points)
        return err_set(err, "player %d's score %d is less than what the game he won scored (%d)",
                       winner, id->score[winner], t->points);
    return true;
}

bool match_from_ids(Match *m, const Rules *r, const MatchId *id, const Position *pos,
                    Err *err)
{
    Match t;
    if (!matchid_valid(id, err) || !pos_valid(pos, err) ||
        !match_start(&t, r, id->match_length, err))
        return false;
    if (id->cube > r->max_cube)
        return err_set(err, "the cube %d is above the rules' maximum of %d", id->cube,
                       r->max_cube);
    if (!r->cube && (id->cube != 1 || id->cube_owner != -1 || id->doubled))
        return err_set(err, "the rules have no cube but the cube is in play");
    if (id->crawford && !r->crawford)
        return err_set(err, "a Crawford game, but the rules have no Crawford rule");
    if (t.length == 0 && id->jacoby != r->jacoby)
        return err_set(err, "the Jacoby rule is %s in the Match ID but %s in the rules",
                       id->jacoby ? "on" : "off", r->jacoby ? "on" : "off");
    t.score[0] = id->score[0];
    t.score[1] = id->score[1];
    t.board = *pos;
    if (id->dice_owner == 0)
        pos_swap(&t.board);
    t.phase = (MatchPhase)id->game_state;
    t.cube = id->cube;
    t.cube_owner = id->cube_owner;
    t.crawford = id->crawford;

    switch (id->game_state) {
    case PHASE_OPENING: {
        Position start;
        pos_start(&start);
        if (!pos_equal(pos, &start))
            return err_set(err, "the game has not started but the checkers are not at the start");
        if (id->dice[0] || id->doubled || id->resigned || id->cube_owner != -1)
            return err_set(err, "the game has not started but dice, the cube or a resignation "
                                "are in play");
        break;
    }
    case PHASE_PLAYING:
        if (!from_playing(&t, id, err))
            return false;
        break;
    default:
        if (!from_finished(&t, id, err))
            return false;
        break;
    }
    if (!check_centred_cube(&t, err) || !check_crawford(&t, err))
        return false;
    /* After the Crawford game: a player one point from winning, no Crawford
     * flag (as gnubg's `set matchid` works it out). */
    t.post_crawford = r->crawford && t.length > 1 && !t.crawford &&
                      (t.score[0] == t.length - 1 || t.score[1] == t.length - 1);
    *m = t;
    return true;
}
