/* record.h - the log of a match or money session as it is played: who plays,
 * under which rules, and every event of every game (rolls, moves, cube
 * actions, resignations, game ends), for writing game records (record_mat.h).
 *
 * The referee makes one call next to each match.h transition it makes:
 *
 *     match_start          record_init (names, length, rules)
 *     match_new_game       record_game_start (also for the first game)
 *     match_opening_roll   record_opening_roll (ties too)
 *     match_roll           record_roll
 *     match_move           record_move (the Move played) or record_move_text
 *     match_pass           record_pass (record_skip without dice)
 *     match_play_forced    record_move or record_pass, as it was
 *     match_double         record_double (the value offered)
 *     match_take/drop      record_take / record_drop
 *     match_beaver         record_beaver (the value it redoubles to; the
 *                          second and later ones are raccoons)
 *     match_resign         record_resign, then record_accept/record_reject
 *     match_forfeit        record_forfeit
 *     game over            record_game_end (winner and points, as Match has)
 *
 * Every call checks its arguments and that it fits what came before (a move
 * follows its player's roll, a take follows a double, nothing happens
 * between games but a new game), and otherwise returns false with the reason
 * and records nothing. It does not replay the rules: match.h does that.
 *
 * Record is a plain struct: games and events live in two growable buffers
 * (buf.h) of RecordGame and RecordEvent values; record_free releases them. */
#ifndef SHESH_RECORD_H
#define SHESH_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "err.h"
#include "movegen.h"
#include "movetext.h"
#include "posid.h"
#include "position.h"
#include "rules.h"

/* Longest player name in bytes, NUL not counted: gnubg keeps 31. */
#define RECORD_NAME_MAX 31

typedef enum RecordKind {
    REC_OPENING, /* dice[0] rolled by player 0, dice[1] by player 1 */
    REC_ROLL,    /* player rolled dice[0], dice[1] */
    REC_MOVE,    /* player played move (text, gnubg's display form) */
    REC_PASS,    /* player had no legal move for his roll */
    REC_SKIP,    /* player was closed out and passed without rolling
                    (CLOSED_OUT_NO_ROLL) */
    REC_DOUBLE,  /* player doubled to value */
    REC_TAKE,
    REC_DROP,
    REC_BEAVER,  /* player beavered: took and redoubled to value */
    REC_RACCOON, /* player raccooned a beaver: redoubled to value */
    REC_RESIGN,  /* player offered to resign at level value (1..3) */
    REC_ACCEPT,  /* player accepted the resignation offered */
    REC_REJECT,  /* player rejected it */
    REC_FORFEIT  /* the referee ended the game: player failed to answer
                    (illegal, unreadable, too late or gone) and loses it */
} RecordKind;

typedef struct RecordEvent {
    RecordKind kind;
    int player;
    int dice[2];
    int value;
    char move[MOVETEXT_MAX];
    char posid[POSID_LEN + 1]; /* REC_MOVE by record_move: the Position ID
                                  before the move, from the mover; else "" */
} RecordEvent;

typedef struct RecordGame {
    int score[2];  /* score before the game (money: running totals) */
    size_t first;  /* index of its first event */
    size_t events; /* how many */
    int winner;    /* -1 while the game is on */
    int points;    /* what it scored */
} RecordGame;

typedef struct Record {
    char names[2][RECORD_NAME_MAX + 1];
    int length; /* match length, 0 = money session */
    Rules rules;
    char date[16]; /* "yyyy.mm.dd" the match was played, "" if not set */
    int score[2];  /* after the games finished so far */
    Buf games;     /* RecordGame[] */
    Buf events;    /* RecordEvent[] of every game, in order */
    /* What the next event may be (checked by each call). */
    bool in_game;
    int rolled;    /* player whose roll waits for his move or pass, or -1 */
    int rolled_dice[2];
    int doubled;   /* player whose double/beaver/raccoon waits, or -1 */
    int animals;   /* beavers and raccoons on that double */
    int cube;      /* the cube value offered last (1 before any) */
    int resigned;  /* player whose offer waits, or -1 */
} Record;

/* Checks a name gnubg's .mat reader reads back as written: 1 to 31 bytes,
 * no control characters, no blank at either end, no ':' (the score line
 * splits on it), no "Game " (it starts a new game), no ',' (gnubg takes
 * what follows for a rating). */
bool record_name_valid(const char *name, Err *err);

/* A new record of a match of `length` points (0 = money, up to gnubg's
 * limit) between name0 (player 0) and name1 under rules. On failure the
 * record holds nothing to free. */
bool record_init(Record *r, const char *name0, const char *name1, int length,
                 const Rules *rules, Err *err);
void record_free(Record *r);

/* The day the match was played, written into records (none by default, so
 * the same games give the same bytes on any day). */
bool record_set_date(Record *r, int year, int month, int day, Err *err);

/* --- events, in the order they happen --- */

bool record_game_start(Record *r, Err *err);
bool record_opening_roll(Record *r, int die0, int die1, Err *err);
bool record_roll(Record *r, int player, int d1, int d2, Err *err);
/* before: the board before the move seen from the mover (match_position()
 * before match_move()); m: the move (a Move of movegen_generate()). */
bool record_move(Record *r, int player, const Position *before, const Move *m, Err *err);
/* The move as text in any notation movetext_parse() reads; stored as given
 * (blanks at the ends trimmed). An empty text is refused: that is a pass. */
bool record_move_text(Record *r, int player, const char *text, Err *err);
bool record_pass(Record *r, int player, Err *err);
/* A closed-out player passes without rolling (match_closed_out). */
bool record_skip(Record *r, int player, Err *err);
/* value: the cube value offered (2, 4, ...). */
bool record_double(Record *r, int player, int value, Err *err);
bool record_take(Record *r, int player, Err *err);
bool record_drop(Record *r, int player, Err *err);
/* value: the cube value of the redouble. The first answer to a double is a
 * beaver, the next ones raccoons. */
bool record_beaver(Record *r, int player, int value, Err *err);
bool record_resign(Record *r, int player, int level, Err *err);
bool record_accept(Record *r, int player, Err *err);
bool record_reject(Record *r, int player, Err *err);
/* The referee ends the game against player, who failed to answer: a roll,
 * double or resignation waiting is dropped with it. record_game_end follows
 * (the opponent wins). In .mat text it reads as a resignation. */
bool record_forfeit(Record *r, int player, Err *err);
/* The game is over: winner scores points (as Match.winner and .points). */
bool record_game_end(Record *r, int winner, int points, Err *err);

/* --- reading --- */

/* Games started (the last one may still be on). */
int record_games(const Record *r);
const RecordGame *record_game(const Record *r, int game);
/* The events of a game: record_game(r, game)->events of them. */
const RecordEvent *record_game_events(const Record *r, int game);

#endif
