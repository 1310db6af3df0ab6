/* record_games.c - writes a compressed game record (record_mat.h) of seeded
 * random games played through the match state machine, game by game as the
 * referee will: for tests/t_records.sh, which has gnubg import it.
 *
 *   record_games FILE LENGTH GAMES SEED [PRESET] [RULE[=VALUE]...]
 *
 * The rules: a preset (default international), then rules options by their
 * long names without the dashes (rules_cli.h): no-crawford, beavers=2.
 * LENGTH 0 is a money session of GAMES games; otherwise a LENGTH-point
 * match played to its end (GAMES is then a limit). Prints the games and
 * the final score: "games 7 score 3 5". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "randgame.h"
#include "record.h"
#include "record_mat.h"
#include "rules.h"
#include "rules_cli.h"

static bool write_game(void *ctx, const Record *r, Err *err)
{
    return record_file_sync(ctx, r, err);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: record_games FILE LENGTH GAMES SEED [PRESET] [RULE[=VALUE]...]\n");
        return 2;
    }
    Err err;
    Rules rules;
    RulesCli rc;
    rules_cli_init(&rc);
    for (int i = 5; i < argc; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s", argv[i]);
        char *eq = strchr(name, '=');
        if (eq)
            *eq = '\0';
        bool ok = i == 5 && !eq ? rules_cli_set(&rc, "rules", name, &err)
                                : rules_cli_set(&rc, name, eq ? eq + 1 : NULL, &err);
        if (!ok) {
            fprintf(stderr, "record_games: %s\n", err.text);
            return 2;
        }
    }
    if (!rules_cli_finish(&rc, &rules, &err)) {
        fprintf(stderr, "record_games: %s\n", err.text);
        return 2;
    }
    int length = atoi(argv[2]), games = atoi(argv[3]);
    unsigned seed = (unsigned)strtoul(argv[4], NULL, 10);
    /* The header needs the names, length and rules before any game. */
    Record head;
    if (!record_init(&head, "Alice", "Bob", length, &rules, &err)) {
        fprintf(stderr, "record_games: %s\n", err.text);
        return 1;
    }
    RecordFile *f = record_file_create(argv[1], &head, &err);
    record_free(&head);
    if (!f) {
        fprintf(stderr, "record_games: %s\n", err.text);
        return 1;
    }
    Match m;
    Record r;
    bool ok = randgame_play(&m, &r, &rules, length, games, seed, write_game, f, &err);
    if (ok)
        printf("games %d score %d %d\n", record_file_games(f), r.score[0], r.score[1]);
    else
        fprintf(stderr, "record_games: %s\n", err.text);
    ok = record_file_close(f, &err) && ok;
    record_free(&r);
    return ok ? 0 : 1;
}
