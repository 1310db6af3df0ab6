/* ubgi_session.h - what a UBGI session holds, and the helpers its command
 * files share. Private to the ubgi*.c files. */
#ifndef SHESH_UBGI_SESSION_H
#define SHESH_UBGI_SESSION_H

#include <stdbool.h>

#include "buf.h"
#include "cube_state.h"
#include "engine.h"
#include "movegen.h"
#include "player.h"
#include "position.h"

/* The words of a command line: pointers into a NUL-terminated copy. */
#define UBGI_WORDS_MAX 16
typedef struct UbgiWords {
    int count;
    const char *w[UBGI_WORDS_MAX];
} UbgiWords;

/* ubgi.h's type, named here too (C11 allows the repeat) so that this
 * header does not include ubgi.h: the module would include itself. */
typedef struct UbgiSession UbgiSession;

struct UbgiSession {
    const Engine *engine;
    Player *player;  /* the engine at Shesh's ply - 1 plies */
    int ply;         /* engine.ply, root-inclusive */
    int default_ply;
    MoveList *legal; /* the legal moves an answer is checked against */

    bool have_position;
    Position pos;    /* side[SIDE_ROLLER] is on roll */
    /* A GNUBG-ID or XGID brings its cube and score (id_cs); a bare Position
     * ID takes them from the session context below when asked to move. */
    bool cs_from_id;
    CubeState id_cs;
    int dice[2];     /* 0 0: none sent */

    /* v0.1's session context, by seat p0/p1 (turn: the seat on roll). */
    int length;      /* 0: money */
    bool jacoby, crawford;
    int score[2];
    int cube, owner; /* owner -1 centred, else the seat */
    int turn;
    /* The runner plays with the cube: it asked go cube or go turn, set the
     * cube, or began a match or a session with Jacoby (kept until the next
     * newsession). UBGI cannot say that a game is cubeless, and the
     * referee plays UBGI engines in cubeless games only: until then a
     * chequer move is chosen as in one, by the cubeless equity (ubgi_go.c). */
    bool cube_play;
};

/* "error CODE DETAIL\n"; always returns false, for `return ubgi_error(...)`. */
bool ubgi_error(Buf *out, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A word as a message may quote it (printable, at most 40 bytes). */
const char *ubgi_quote(const char *word, char buf[48]);

/* The position commands and go (ubgi_go.c). */
bool ubgi_cmd_position(UbgiSession *s, const UbgiWords *t, Buf *out);
bool ubgi_cmd_go(UbgiSession *s, const UbgiWords *t, Buf *out);

#endif
