/* player_ubgi.h - an engine that speaks UBGI, the Universal Backgammon
 * Interface (bgci's docs/ubgi-v0.2-spec.md; docs/referee.md), run as a
 * child process: the command is started by /bin/sh -c with a socketpair on
 * its stdin and stdout and its stderr on ours (child.h), one process per
 * player, stopped and reaped when the player is closed.
 *
 * It is asked `ubgi` (until `ubgiok`) and `isready` (until `readyok`) when
 * made, `newgame` before its first question of each game, and for each move
 * `position gnubgid ID` (the Position ID of the board as the player on roll
 * sees it, gnubg's), `dice D1 D2` and `go chequer`, answered `bestmove
 * 8/5 6/5` or `bestmove pass`. The move must be one of the legal moves
 * (movetext.h reads it); `pass` only when there is none. `info` lines
 * before the answer are skipped; an `error` line, any other line, silence
 * past the time limit or the end of its output is a failure of the
 * question.
 *
 * UBGI has no take or drop, so a UBGI player plays without the cube: it
 * never doubles (it is not asked), and answering a double is a question it
 * cannot be put (PLAYER_BAD_QUESTION); whoever runs the games refuses a
 * cubeful run with one. Nor has UBGI resignations: it never offers one and
 * never accepts one. */
#ifndef SHESH_PLAYER_UBGI_H
#define SHESH_PLAYER_UBGI_H

#include "player.h"

#define PLAYER_UBGI_REPLY_S 30.0 /* the handshake and each reply, by default */

/* Starts command and does the handshake within reply_s seconds (> 0; each
 * later reply gets as long). NULL with err filled (the engine's exit
 * status when it died) if that fails; the process is stopped then. */
Player *player_ubgi_new(const char *command, double reply_s, Err *err);

#endif
