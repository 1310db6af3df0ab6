/* proto_session.h - what one connection remembers between request lines.
 *
 * Only flags the protocol defines as lasting (debug, interface) and two of
 * our own: the score order of board lines and the colour the connection's
 * client has us play. Never a previous board: every board line must be
 * complete. Private to the proto_*.c files. */
#ifndef SHESH_PROTO_SESSION_H
#define SHESH_PROTO_SESSION_H

#include <stdbool.h>

#include "proto_config.h"

/* Whose name and score come first in a board line (`set boards`). */
typedef enum ProtoScoreOrder {
    /* gnubg as a client: player 0 first, except in an ordinary take request
     * (field 40 = 1, the doubler on roll), where player 1 comes first.
     * Player 1 is always the colour-field side. */
    SCORES_GNUBG,
    /* FIBS: the first name and score belong to the colour-field side. */
    SCORES_FIBS
} ProtoScoreOrder;

struct ProtoSession {
    bool debug;         /* set debug on: DBG: lines before each board answer */
    bool new_interface; /* set interface new|old: remembered, no effect */
    ProtoScoreOrder scores;
    /* Our colour (1 = X, -1 = O in the board's signs), learned from the
     * first move or cube request (the acting side is then on roll); 0 until
     * then. It tells a beaver (a take request whose turn field names us)
     * from an ordinary take request. */
    int colour;
};

#endif
