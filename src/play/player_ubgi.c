/* player_ubgi.c - a UBGI engine as a player (see player_ubgi.h). */
#include "player_ubgi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "child.h"
#include "client.h"
#include "clock.h"
#include "movetext.h"
#include "posid.h"

/* How long a closed player's engine may take to leave after `quit` and the
 * end of its input, before it is made to. */
#define QUIT_GRACE_S 0.5

/* A line of the engine: longer ones are no answer. */
#define UBGI_LINE_MAX 512

typedef struct Ubgi {
    Child child;
    NetClient *conn;
    double reply_s;
    int cancel_fd;  /* an eventfd: readable once player_cancel was called */
    bool new_game;  /* `newgame` is due before the next question */
    bool lost;      /* out of step: a reply timed out or came after another
                       line (it may still come, as the answer to the next
                       question), or the engine is gone: every later
                       question fails */
    char engine_name[48];
    MoveList *legal;
} Ubgi;

static bool starts_with_word(const char *line, const char *word)
{
    size_t n = strlen(word);
    return !strncmp(line, word, n) && (line[n] == '\0' || line[n] == ' ');
}

/* Sends one line (without its newline). */
static PlayerStatus send_line(Player *pl, const char *text, Err *err)
{
    Ubgi *u = pl->state;
    char line[UBGI_LINE_MAX];
    size_t n = (size_t)snprintf(line, sizeof line, "%s\n", text);
    Err why = {""};
    if (n >= sizeof line || !net_client_send(u->conn, line, n, &why)) {
        err_set(err, "%s: cannot send '%s': %s", pl->name, text, why.text);
        return PLAYER_DISCONNECTED;
    }
    return PLAYER_OK;
}

/* The engine's next line, before `until` (clock_now() time). At the end of
 * its output the message says how the engine ended, when it has. */
static PlayerStatus read_line(Player *pl, double until, char *line, size_t size, Err *err)
{
    Ubgi *u = pl->state;
    Err why = {""};
    double left = until - clock_now();
    NetClientStatus st = net_client_read_line(u->conn, left > 0 ? left : 0, u->cancel_fd, line,
                                              size, &why);
    switch (st) {
    case NET_CLIENT_OK: return PLAYER_OK;
    case NET_CLIENT_TIMEOUT:
        err_set(err, "%s: no answer within %g s", pl->name, u->reply_s);
        return PLAYER_TIMEOUT;
    case NET_CLIENT_TOO_LONG:
        err_set(err, "%s: %s", pl->name, why.text);
        return PLAYER_UNREADABLE;
    case NET_CLIENT_CANCELLED:
        err_set(err, "%s: cancelled", pl->name);
        return PLAYER_CANCELLED;
    case NET_CLIENT_CLOSED: break;
    }
    char how[48];
    child_exited(&u->child, 0.2);
    child_describe(&u->child, how, sizeof how);
    err_set(err, "%s: the engine's output ended (%s)", pl->name, how);
    return PLAYER_DISCONNECTED;
}

/* Sends question and reads lines until one starts with the word answer
 * (the whole line in line). skip: the words of lines to pass over;
 * lenient: pass over any other line too (a banner before the handshake),
 * else such a line is no answer. An `error` line always is. */
static PlayerStatus ask(Player *pl, const char *question, const char *answer,
                        const char *const *skip, bool lenient, char *line, size_t size,
                        Err *err)
{
    Ubgi *u = pl->state;
    if (u->lost) {
        err_set(err, "%s: out of step with the engine since an earlier failure", pl->name);
        return PLAYER_DISCONNECTED;
    }
    PlayerStatus st = send_line(pl, question, err);
    double until = clock_now() + u->reply_s;
    char passed[96] = ""; /* the last line passed over, for a message */
    while (st == PLAYER_OK) {
        if ((st = read_line(pl, until, line, size, err)) != PLAYER_OK) {
            if (st == PLAYER_TIMEOUT && passed[0])
                err_set(err, "%s: no %s to '%s' within %g s; the last line was '%s'", pl->name,
                        answer, question, u->reply_s, passed);
            u->lost = true;
            break;
        }
        if (starts_with_word(line, answer))
            return PLAYER_OK;
        if (!strncmp(line, "id name ", 8)) /* the player's id (player_id) */
            snprintf(u->engine_name, sizeof u->engine_name, "%s", line + 8);
        if (starts_with_word(line, "error")) {
            err_set(err, "%s: '%s' answered '%.80s'", pl->name, question, line);
            return PLAYER_UNREADABLE;
        }
        bool skipped = lenient || line[0] == '\0';
        for (const char *const *w = skip; !skipped && *w; w++)
            skipped = starts_with_word(line, *w);
        if (skipped && line[0])
            snprintf(passed, sizeof passed, "%.80s", line);
        if (!skipped) {
            err_set(err, "%s: '%s' answered '%.80s', not %s", pl->name, question, line,
                    answer);
            u->lost = true; /* the answer may be on its way still */
            return PLAYER_UNREADABLE;
        }
    }
    return st;
}

static const char *const no_skip[] = {NULL};
static const char *const info_only[] = {"info", NULL};

static PlayerStatus handshake(Player *pl, Err *err)
{
    char line[UBGI_LINE_MAX];
    PlayerStatus st = ask(pl, "ubgi", "ubgiok", no_skip, true, line, sizeof line, err);
    if (st != PLAYER_OK)
        return st;
    return ask(pl, "isready", "readyok", info_only, false, line, sizeof line, err);
}

static PlayerStatus ub_move(Player *pl, const Position *p, const CubeState *cs, int d1, int d2,
                            Move *m, bool *moved, Err *err)
{
    (void)cs;
    Ubgi *u = pl->state;
    char line[UBGI_LINE_MAX], id[POSID_LEN + 1], text[64];
    PlayerStatus st = PLAYER_OK;
    if (u->new_game) {
        if ((st = send_line(pl, "newgame", err)) != PLAYER_OK)
            return st;
        u->new_game = false;
    }
    posid_encode(p, id);
    snprintf(text, sizeof text, "position gnubgid %s", id);
    if ((st = send_line(pl, text, err)) != PLAYER_OK)
        return st;
    snprintf(text, sizeof text, "dice %d %d", d1, d2);
    if ((st = send_line(pl, text, err)) != PLAYER_OK)
        return st;
    st = ask(pl, "go chequer", "bestmove", info_only, false, line, sizeof line, err);
    if (st != PLAYER_OK)
        return st;
    char *move = line + strlen("bestmove");
    move += strspn(move, " ");
    for (size_t n = strlen(move); n > 0 && (move[n - 1] == ' ' || move[n - 1] == '\t');)
        move[--n] = '\0';
    int n = movegen_generate(p, d1, d2, u->legal);
    if (!strcmp(move, "pass")) {
        if (n > 0) {
            err_set(err, "%s: passed %d-%d at %s, which has %d legal moves", pl->name, d1, d2,
                    id, n);
            return PLAYER_ILLEGAL;
        }
        *moved = false;
        return PLAYER_OK;
    }
    Err why;
    int i = movetext_match_roll(p, u->legal, d1, d2, move, &why);
    if (i < 0) {
        Move parsed;
        Err syntax;
        /* An empty bestmove is no answer, not a pass (UBGI says `pass`). */
        bool readable = move[0] && movetext_parse(move, &parsed, &syntax);
        err_set(err, "%s: bestmove '%.60s' for %d-%d at %s: %s", pl->name, move, d1, d2, id,
                !move[0] ? "no move" : readable ? why.text : syntax.text);
        return readable ? PLAYER_ILLEGAL : PLAYER_UNREADABLE;
    }
    *m = u->legal->moves[i];
    *moved = true;
    return PLAYER_OK;
}

static PlayerStatus ub_cube(Player *pl, const Position *p, const CubeState *cs, PlayerCube *out,
                            Err *err)
{
    (void)pl, (void)p, (void)cs, (void)err;
    *out = PLAYER_ROLL; /* it could not answer the redouble: see player_ubgi.h */
    return PLAYER_OK;
}

static PlayerStatus ub_take(Player *pl, const Position *p, const CubeState *cs, bool beavered,
                            PlayerTake *out, Err *err)
{
    (void)p, (void)cs, (void)beavered, (void)out;
    err_set(err, "%s: a UBGI engine cannot answer a double (UBGI has no take or drop)",
            pl->name);
    return PLAYER_BAD_QUESTION;
}

static PlayerStatus ub_accept(Player *pl, const Position *p, const CubeState *cs, int level,
                              bool *accept, Err *err)
{
    (void)pl, (void)p, (void)cs, (void)level, (void)err;
    *accept = false; /* UBGI cannot ask it: it plays on */
    return PLAYER_OK;
}

static PlayerStatus ub_resign(Player *pl, const Position *p, const CubeState *cs, int *level,
                              Err *err)
{
    (void)pl, (void)p, (void)cs, (void)err;
    *level = 0;
    return PLAYER_OK;
}

static void ub_new_game(Player *pl)
{
    Ubgi *u = pl->state;
    u->new_game = true;
}

static void ub_interrupt(Player *pl)
{
    Ubgi *u = pl->state;
    uint64_t one = 1;
    ssize_t w = write(u->cancel_fd, &one, sizeof one);
    (void)w; /* cannot fail short of a counter overflow */
}

static void ub_close(Player *pl)
{
    Ubgi *u = pl->state;
    if (!u)
        return;
    if (u->conn) {
        static const char quit[] = "quit\n";
        Err ignored;
        net_client_send(u->conn, quit, sizeof quit - 1, &ignored);
        net_client_close(u->conn);
        u->child.fd = -1; /* closed with the connection */
    }
    child_stop(&u->child, QUIT_GRACE_S);
    if (u->cancel_fd >= 0)
        close(u->cancel_fd);
    free(u->legal);
    free(u);
}

static const PlayerOps ubgi_ops = {
    .move = ub_move,
    .cube = ub_cube,
    .take = ub_take,
    .accept = ub_accept,
    .resign = ub_resign,
    .new_game = ub_new_game,
    .interrupt = ub_interrupt,
    .close = ub_close,
};

Player *player_ubgi_new(const char *command, double reply_s, Err *err)
{
    Ubgi *u = calloc(1, sizeof *u);
    if (!u || !(u->legal = malloc(sizeof *u->legal))) {
        free(u);
        err_set(err, "out of memory for a UBGI player");
        return NULL;
    }
    u->reply_s = reply_s > 0 ? reply_s : PLAYER_UBGI_REPLY_S;
    u->new_game = true;
    u->child.fd = -1;
    u->cancel_fd = eventfd(0, EFD_CLOEXEC);
    Player tmp = {.ops = &ubgi_ops, .state = u};
    snprintf(tmp.name, sizeof tmp.name, "ubgi:%.40s", command);
    if (u->cancel_fd < 0) {
        err_set(err, "cannot make an eventfd for a UBGI player");
        ub_close(&tmp);
        return NULL;
    }
    if (!child_start(&u->child, command, err)) {
        ub_close(&tmp);
        return NULL;
    }
    int fd = u->child.fd;
    u->child.fd = -1; /* the connection's now */
    if (!(u->conn = net_client_adopt(fd, err)) || handshake(&tmp, err) != PLAYER_OK) {
        ub_close(&tmp);
        return NULL;
    }
    return player_new(&ubgi_ops, u, tmp.name, u->engine_name[0] ? u->engine_name : "ubgi", err);
}
