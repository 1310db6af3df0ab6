/* player_remote.c - a player behind a socket (see player_remote.h). The
 * questions are the board lines gnubg writes as a client (fibs_write); the
 * remote is always player 1 of the board, named "remote". */
#include "player_remote.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "client.h"
#include "cube.h"
#include "fibsboard.h"
#include "movetext.h"

typedef struct Remote {
    NetClient *conn;
    double reply_s;
    int cancel_fd; /* an eventfd: readable once player_cancel was called */
    MoveList *legal;
} Remote;

/* The board of the question: the remote (player 1) acts; it is on roll
 * unless it answers a double, when the doubler (player 0) is. p and cs are
 * seen from the player on roll. */
static bool board_line(const Player *pl, const Position *p, const CubeState *cs, bool on_roll,
                       int d1, int d2, bool doubled, char *line, size_t size, Err *err)
{
    FibsGame g;
    memset(&g, 0, sizeof g);
    g.name[0] = "shesh";
    g.name[1] = "remote";
    g.pos = *p;
    g.on_roll = on_roll ? 1 : 0;
    g.acting = 1;
    g.dice[0] = d1;
    g.dice[1] = d2;
    g.cube = 1;
    g.cube_owner = -1;
    if (cs) {
        int roller = g.on_roll;
        g.cube = cs->cube > 0 ? cs->cube : 1;
        g.cube_owner = cs->owner < 0 ? -1 : cs->owner == SIDE_ROLLER ? roller : 1 - roller;
        g.match_length = cs->match_length;
        g.score[roller] = cs->score[SIDE_ROLLER];
        g.score[1 - roller] = cs->score[SIDE_OPPONENT];
        g.crawford = cs->crawford;
        g.post_crawford = cs->post_crawford;
    }
    g.doubled = doubled;
    char board[FIBS_LINE_MAX];
    Err why;
    if (!fibs_write(&g, board, &why)) {
        err_set(err, "%s: cannot write the question: %s", pl->name, why.text);
        return false;
    }
    snprintf(line, size, "%s jacobyrule %s", board, cs && cs->jacoby ? "on" : "off");
    return true;
}

static PlayerStatus client_status(NetClientStatus st)
{
    switch (st) {
    case NET_CLIENT_OK: return PLAYER_OK;
    case NET_CLIENT_TIMEOUT: return PLAYER_TIMEOUT;
    case NET_CLIENT_CLOSED: return PLAYER_DISCONNECTED;
    case NET_CLIENT_TOO_LONG: return PLAYER_UNREADABLE;
    case NET_CLIENT_CANCELLED: return PLAYER_CANCELLED;
    }
    return PLAYER_DISCONNECTED;
}

/* Sends the question (a line without its newline) and reads the reply. */
static PlayerStatus ask(Player *pl, const char *question, char *reply, size_t size, Err *err)
{
    Remote *r = pl->state;
    char line[FIBS_LINE_MAX + 128];
    size_t n = (size_t)snprintf(line, sizeof line, "%s\n", question);
    Err why = {""};
    if (n >= sizeof line || !net_client_send(r->conn, line, n, &why)) {
        err_set(err, "%s: %s", pl->name, why.text);
        return PLAYER_DISCONNECTED;
    }
    NetClientStatus st = net_client_read_line(r->conn, r->reply_s, r->cancel_fd, reply, size,
                                              &why);
    if (st != NET_CLIENT_OK)
        err_set(err, "%s: %s", pl->name, why.text);
    return client_status(st);
}

/* The reply as one lower-case word, blanks around it dropped; false if it
 * is not one short word. */
static bool one_word(const char *reply, char *word, size_t size)
{
    while (*reply == ' ' || *reply == '\t')
        reply++;
    size_t n = 0;
    while (reply[n] && reply[n] != ' ' && reply[n] != '\t') {
        if (n + 1 >= size)
            return false;
        word[n] = (char)tolower((unsigned char)reply[n]);
        n++;
    }
    word[n] = '\0';
    for (const char *q = reply + n; *q; q++)
        if (*q != ' ' && *q != '\t')
            return false;
    return n > 0;
}

/* The reply is none of the answers that question has. */
static PlayerStatus unreadable(const Player *pl, const char *reply, const char *expected,
                               Err *err)
{
    err_set(err, "%s: replied '%.60s', not %s", pl->name, reply, expected);
    return PLAYER_UNREADABLE;
}

static PlayerStatus rp_move(Player *pl, const Position *p, const CubeState *cs, int d1, int d2,
                            Move *m, bool *moved, Err *err)
{
    Remote *r = pl->state;
    char question[FIBS_LINE_MAX + 64], reply[256];
    if (!board_line(pl, p, cs, true, d1, d2, false, question, sizeof question, err))
        return PLAYER_BAD_QUESTION;
    PlayerStatus st = ask(pl, question, reply, sizeof reply, err);
    if (st != PLAYER_OK)
        return st;
    movegen_generate(p, d1, d2, r->legal);
    Err why;
    int i = movetext_match_roll(p, r->legal, d1, d2, reply, &why);
    if (i == MOVETEXT_PASS) {
        *moved = false;
        return PLAYER_OK;
    }
    if (i < 0) {
        Move parsed;
        Err syntax;
        bool readable = movetext_parse(reply, &parsed, &syntax);
        err_set(err, "%s: move '%.60s' for %d-%d: %s", pl->name, reply, d1, d2,
                readable ? why.text : syntax.text);
        return readable ? PLAYER_ILLEGAL : PLAYER_UNREADABLE;
    }
    *m = r->legal->moves[i];
    *moved = true;
    return PLAYER_OK;
}

static PlayerStatus rp_cube(Player *pl, const Position *p, const CubeState *cs, PlayerCube *out,
                            Err *err)
{
    char question[FIBS_LINE_MAX + 64], reply[256], word[16];
    if (!board_line(pl, p, cs, true, 0, 0, false, question, sizeof question, err))
        return PLAYER_BAD_QUESTION;
    PlayerStatus st = ask(pl, question, reply, sizeof reply, err);
    if (st != PLAYER_OK)
        return st;
    if (!one_word(reply, word, sizeof word) || (strcmp(word, "double") && strcmp(word, "roll")))
        return unreadable(pl, reply, "double or roll", err);
    /* Whether a double is allowed is player_cube's check, for every kind. */
    *out = !strcmp(word, "double") ? PLAYER_DOUBLE : PLAYER_ROLL;
    return PLAYER_OK;
}

static PlayerStatus rp_take(Player *pl, const Position *p, const CubeState *cs, bool beavered,
                            PlayerTake *out, Err *err)
{
    char question[FIBS_LINE_MAX + 64], reply[256], word[16];
    if (!board_line(pl, p, cs, false, 0, 0, true, question, sizeof question, err))
        return PLAYER_BAD_QUESTION;
    size_t n = strlen(question);
    snprintf(question + n, sizeof question - n, " beavers %s",
             cs && cs->beavers > 0 ? "on" : "off");
    PlayerStatus st = ask(pl, question, reply, sizeof reply, err);
    if (st != PLAYER_OK)
        return st;
    if (!one_word(reply, word, sizeof word) ||
        (strcmp(word, "take") && strcmp(word, "drop") && strcmp(word, "beaver")))
        return unreadable(pl, reply, "take, drop or beaver", err);
    /* The protocol's "beaver" to a beaver is a raccoon. */
    *out = !strcmp(word, "take")   ? PLAYER_TAKE
           : !strcmp(word, "drop") ? PLAYER_DROP
           : beavered              ? PLAYER_RACCOON
                                   : PLAYER_BEAVER;
    return PLAYER_OK;
}

static PlayerStatus rp_accept(Player *pl, const Position *p, const CubeState *cs, int level,
                              bool *accept, Err *err)
{
    char question[FIBS_LINE_MAX + 64], reply[256], word[16];
    if (level < 1 || level > 3) {
        err_set(err, "%s: a resignation of level %d (1 to 3)", pl->name, level);
        return PLAYER_BAD_QUESTION;
    }
    if (!board_line(pl, p, cs, true, 0, 0, false, question, sizeof question, err))
        return PLAYER_BAD_QUESTION;
    size_t n = strlen(question);
    snprintf(question + n, sizeof question - n, " resignation %d", level);
    PlayerStatus st = ask(pl, question, reply, sizeof reply, err);
    if (st != PLAYER_OK)
        return st;
    if (!one_word(reply, word, sizeof word) || (strcmp(word, "accept") && strcmp(word, "reject")))
        return unreadable(pl, reply, "accept or reject", err);
    *accept = !strcmp(word, "accept");
    return PLAYER_OK;
}

static PlayerStatus rp_resign(Player *pl, const Position *p, const CubeState *cs, int *level,
                              Err *err)
{
    (void)pl, (void)p, (void)cs, (void)err;
    *level = 0;
    return PLAYER_OK;
}

static void rp_interrupt(Player *pl)
{
    Remote *r = pl->state;
    uint64_t one = 1;
    ssize_t w = write(r->cancel_fd, &one, sizeof one);
    (void)w; /* cannot fail short of a counter overflow */
}

static void rp_close(Player *pl)
{
    Remote *r = pl->state;
    if (!r)
        return;
    net_client_close(r->conn);
    if (r->cancel_fd >= 0)
        close(r->cancel_fd);
    free(r->legal);
    free(r);
}

static const PlayerOps remote_ops = {
    .move = rp_move,
    .cube = rp_cube,
    .take = rp_take,
    .accept = rp_accept,
    .resign = rp_resign,
    .interrupt = rp_interrupt,
    .close = rp_close,
};

Player *player_remote_new(const char *addr, double reply_s, Err *err)
{
    Remote *r = calloc(1, sizeof *r);
    if (!r || !(r->legal = malloc(sizeof *r->legal))) {
        free(r);
        err_set(err, "out of memory for a remote player");
        return NULL;
    }
    r->reply_s = reply_s > 0 ? reply_s : PLAYER_REMOTE_REPLY_S;
    r->cancel_fd = eventfd(0, EFD_CLOEXEC);
    if (r->cancel_fd < 0) {
        err_set(err, "cannot make an eventfd for a remote player");
        free(r->legal);
        free(r);
        return NULL;
    }
    r->conn = net_client_connect(addr, PLAYER_REMOTE_CONNECT_S, err);
    char name[48];
    snprintf(name, sizeof name, "remote:%.40s", addr);
    Player tmp = {.ops = &remote_ops, .state = r};
    if (!r->conn) {
        rp_close(&tmp);
        return NULL;
    }
    return player_new(&remote_ops, r, name, "remote", err);
}
