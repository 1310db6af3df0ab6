/* player_remote.h - a player behind a socket that speaks gnubg's
 * external-player protocol (gnubg's own `external` server, or shesh serve):
 * asked with board lines, every reply read within a time limit and checked
 * (a move must be one of the legal moves, a double needs cube access). The
 * protocol cannot ask a player to offer a resignation: a remote player
 * never offers one. */
#ifndef SHESH_PLAYER_REMOTE_H
#define SHESH_PLAYER_REMOTE_H

#include "player.h"

#define PLAYER_REMOTE_CONNECT_S 10.0 /* connecting */
#define PLAYER_REMOTE_REPLY_S 30.0   /* each reply, by default */

/* Connects to addr ("host:port", "[::1]:port" or a Unix socket path);
 * NULL with err filled if that fails. reply_s: seconds each reply may take
 * (> 0). */
Player *player_remote_new(const char *addr, double reply_s, Err *err);

#endif
