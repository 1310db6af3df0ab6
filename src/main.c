/* main.c - the shesh binary: global options and dispatch to subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "version.h"

static const CliCommand commands[] = {
    {"id", cli_id, "decode and encode Position IDs, Match IDs, GNUBG-IDs, XGIDs"},
    {"moves", cli_moves, "list every legal move of a position for a roll"},
    {"hint", cli_hint, "the engine's moves ranked for a roll, or its cube decision"},
    {"eval", cli_eval, "the engine's chances and equities of a position"},
    {"rollout", cli_rollout, "roll a position or a roll's moves out: chances and equities with errors"},
    {"rules", cli_rules, "show the rules a preset and rules options make"},
    {"bench", cli_bench, "move generation speed and a behaviour signature"},
    {"match", cli_match, "two players in money sessions or matches, refereed, with records"},
    {"stats", cli_stats, "add up the shards of a match run into one summary"},
    {"selfplay", cli_selfplay, "the engine's decision speed, and its moves for gnubg to rate"},
    {"calibrate", cli_calibrate, "fit the contact evaluator's chances on self-play games"},
    {"train", cli_train, "train the contact network by self-play (TD)"},
    {"label", cli_label, "label positions of the engine's own games by rollouts (training data)"},
    {"weights", cli_weights, "check a network file and show what it holds"},
    {"serve", cli_serve, "answer gnubg's external-player protocol on TCP and Unix sockets"},
    {"ubgi", cli_ubgi, "be a UBGI engine on standard input and output (match runners, GUIs)"},
    {"log", cli_log, "print the transcripts 'serve --log-dir' writes"},
    {"records", cli_records, "print a compressed game record as the .mat text gnubg imports"},
    {"replay", cli_replay, "send a transcript's requests again and report changed replies"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: shesh COMMAND [ARGS...]\n"
                 "       shesh --help | --version\n\n"
                 "A backgammon engine that speaks GNU Backgammon's external-player protocol.\n\n"
                 "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nOptions:\n"
                 "  --help     this text (also -h, help)\n"
                 "  --version  the release (also -V)\n\n"
                 "'shesh COMMAND --help' describes one command; 'man shesh' all of them.\n"
                 "Long options of every command may be abbreviated; a value follows as the\n"
                 "next word or after =.\n"
                 "Exit status: 0 success, 1 bad input or failure, 2 usage.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "shesh: give a command\ntry 'shesh --help'\n");
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("shesh %s\n", SHESH_VERSION);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    if (argv[1][0] == '-')
        fprintf(stderr, "shesh: unknown option '%s'\ntry 'shesh --help'\n", argv[1]);
    else
        fprintf(stderr, "shesh: unknown command '%s'\ntry 'shesh --help'\n", argv[1]);
    return EXIT_USAGE;
}
