/* cli_ubgi.c - `shesh ubgi`: Shesh as a UBGI engine, a child process that
 * a match runner or GUI talks to over its stdin and stdout. This file only
 * frames lines and flushes; the protocol is src/proto/ubgi.c. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "cli_opt.h"
#include "engine.h"
#include "num.h"
#include "search.h"
#include "ubgi.h"

#define CMD "ubgi"

static void ubgi_usage(FILE *out)
{
    fprintf(out,
            "usage: shesh ubgi [--plies N] [--weights F]\n\n"
            "Shesh as a UBGI engine: reads UBGI commands (ubgi, isready, newgame,\n"
            "position, dice, go, set, get, keys, quit and v0.1's setoption,\n"
            "newsession, setscore, setcube, setturn) one a line from standard input\n"
            "and writes the answers (bestmove, bestcube, bestturn, bestmoveid, value,\n"
            "error ...) to standard output, flushed after every command. A line\n"
            "longer than %d bytes, or holding a NUL or control byte, is answered\n"
            "with an error and skipped. Details: docs/ubgi-engine.md.\n\n"
            "  --plies N    Shesh's lookahead, 0 to %d (default 0): engine.ply\n"
            "               starts at N + 1 (UBGI counts the root)\n"
            "  --weights F  play with the network file F, not the one compiled in\n"
            "  -h, --help   this text\n\n"
            "Exit status: 0 at quit or the end of the input, 1 the engine could not\n"
            "start or standard output failed, 2 usage.\n",
            UBGI_LINE_MAX, SEARCH_MAX_PLIES);
}

/* Answers one line; false when the session is over (quit) or the output
 * failed. */
static bool answer(UbgiSession *s, const char *line, size_t len, bool too_long, Buf *out,
                   bool *failed)
{
    UbgiResult r = UBGI_CONTINUE;
    buf_clear(out);
    if (too_long)
        buf_printf(out, "error bad_command the line is longer than %d bytes\n", UBGI_LINE_MAX);
    else
        r = ubgi_handle(s, line, len, out);
    if (out->len && fwrite(out->data, 1, out->len, stdout) != out->len)
        *failed = true;
    if (fflush(stdout) != 0)
        *failed = true;
    return r == UBGI_CONTINUE && !*failed;
}

/* Reads stdin a byte at a time so that a NUL is kept (and refused by the
 * protocol) and an over-long line is skipped whole, never split. */
static int serve_stdin(UbgiSession *s)
{
    static char line[UBGI_LINE_MAX + 1];
    Buf out;
    buf_init(&out);
    size_t n = 0;
    bool too_long = false, failed = false;
    for (;;) {
        int c = getchar();
        if (c == EOF && n == 0 && !too_long)
            break;
        if (c == EOF || c == '\n') {
            if (!answer(s, line, n, too_long, &out, &failed) || c == EOF)
                break;
            n = 0;
            too_long = false;
        } else if (n < UBGI_LINE_MAX) {
            line[n++] = (char)c;
        } else {
            too_long = true;
        }
    }
    buf_free(&out);
    return failed ? EXIT_FAIL : EXIT_OK;
}

int cli_ubgi(int argc, char **argv)
{
    enum { OPT_PLIES = 256, OPT_WEIGHTS };
    static const struct option opts[] = {
        {"plies", required_argument, NULL, OPT_PLIES},
        {"weights", required_argument, NULL, OPT_WEIGHTS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int plies = 0, c;
    const char *weights = NULL; /* --weights: NULL for the compiled-in network */
    Err err = {{0}};
    cli_getopt_start();
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_PLIES:
            if (!num_int("--plies", optarg, 0, SEARCH_MAX_PLIES, &plies, &err))
                return cli_usage_error(CMD, "%s", err.text);
            break;
        case OPT_WEIGHTS:
            if (!cli_weights_option(optarg, &weights, &err))
                return cli_usage_error(CMD, "%s", err.text);
            break;
        case 'h': ubgi_usage(stdout); return EXIT_OK;
        default: return cli_option_error(CMD, c, argv, opts);
        }
    }
    if (optind < argc)
        return cli_usage_error(CMD, "no arguments are taken, but '%s' was given", argv[optind]);
    Engine *e = engine_new_with("default", weights, &err);
    UbgiSession *s = e ? ubgi_session_new(e, plies + 1, &err) : NULL;
    if (!s) {
        fprintf(stderr, "shesh ubgi: %s\n", err.text);
        engine_free(e);
        return EXIT_FAIL;
    }
    int status = serve_stdin(s);
    ubgi_session_free(s);
    engine_free(e);
    return status;
}
