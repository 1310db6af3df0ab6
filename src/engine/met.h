/* met.h - match equity: the chance to win a match from a given score, by
 * the Kazaross-XG2 table (rollouts by eXtreme Gammon and GNU Backgammon,
 * the table gnubg 1.07 uses by default), used to turn game outcomes into
 * match winning chances. */
#ifndef SHESH_MET_H
#define SHESH_MET_H

#include <stdbool.h>

#define MET_SIZE 25

/* Chance that a player needing `away` points beats one needing `opp_away`,
 * at the start of a game. away <= 0: he has won (1.0); opp_away <= 0: lost.
 * post_crawford: the Crawford game has been played, so a score with a side
 * at 1-away is a post-Crawford one (free doubles for the trailer). */
double met_mwc(int away, int opp_away, bool post_crawford);

#endif
