/* gnubg_server.h - GNU Backgammon started as an external-player server on a
 * free loopback port, for the referee's `gnubg` player kind, and stopped by
 * its own process id.
 *
 * gnubg serves one client at a time (its `external` command accepts one
 * connection, serves it to the end, then listens again a moment later: a
 * client that reconnects retries for a while), so the referee
 * starts one per concurrent game. The settings it is started with are the
 * ones a board line cannot carry: the depth of its chequer and cube
 * evaluations, whether the cube is used at all, the Jacoby rule and how
 * many beavers are allowed. */
#ifndef SHESH_GNUBG_SERVER_H
#define SHESH_GNUBG_SERVER_H

#include <stdbool.h>
#include <sys/types.h>

#include "err.h"

#define GNUBG_DEFAULT_BINARY "/usr/games/gnubg"

typedef struct GnubgServerOptions {
    const char *binary;   /* NULL: GNUBG_DEFAULT_BINARY */
    int plies;            /* chequer and cube evaluation depth, 0..4 */
    bool cube;            /* false: gnubg never doubles (`set cube use off`) */
    bool jacoby;          /* money: `set jacoby on` */
    int beavers;          /* money: beavers/raccoons allowed in a row, 0 = none */
    double start_timeout; /* seconds to wait until it listens; <= 0: 20 */
} GnubgServerOptions;

typedef struct GnubgServer GnubgServer;

/* Starts gnubg (`gnubg -t -q`, its own process group, so a Ctrl-C on the
 * terminal reaches the referee and not gnubg) and waits until it says it
 * listens. NULL with err filled when it cannot start, exits early or is
 * not listening in time (its last output line is quoted). */
GnubgServer *gnubg_server_start(const GnubgServerOptions *o, Err *err);

/* "127.0.0.1:PORT": the address to connect to. */
const char *gnubg_server_addr(const GnubgServer *g);

pid_t gnubg_server_pid(const GnubgServer *g);

/* True while the process runs. */
bool gnubg_server_alive(GnubgServer *g);

/* Stops it by its process id (SIGTERM, then SIGKILL if it lingers), reaps
 * it, removes its files and frees g. NULL is ignored. */
void gnubg_server_stop(GnubgServer *g);

#endif
