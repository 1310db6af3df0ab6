/* fuzz_proto.c - libFuzzer harness for the protocol layer with a real
 * engine. Whatever the lines, proto_handle() must not crash, every reply must
 * end with '\n' and be printable ASCII, and it must be either one
 * "Error: ..." line or a well-formed answer: the version block, the help
 * text, a `set` acknowledgement, or (after optional DBG: lines) a move in
 * plain notation, an empty line, a cube, take or resignation word, or six
 * numbers. `exit`/`quit` close without a reply.
 *
 * An input whose first byte is even is raw text: its lines go to one session
 * in turn. An odd first byte builds a board line from a valid template
 * whose fields the following bytes overwrite, plus options chosen by the
 * bytes, so that the fuzzer reaches the decisions, not only the lexer.
 *
 * The engine and the reply pattern are made once, in LLVMFuzzerInitialize,
 * before the first input: building the engine takes seconds under ASan, and
 * done inside the first input it made that input count against -timeout. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fuzz_setup.h"
#include "proto.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PART "(?:25|2[0-4]|1[0-9]|[1-9])/(?:2[0-4]|1[0-9]|[0-9])\\*?"
static const char reply_pattern[] =
    "(?:Error: [\\x20-\\x7e]+\\n"
    "|Interface: 2\\nRFBF: 0\\nEngine: [\\x20-\\x7e]+\\nSoftware: shesh [\\x20-\\x7e]+\\n"
    "|Shesh speaks [\\x20-\\x7e\\n]+"
    "|(?:Debug output|New interface) (?:ON|OFF)\\n"
    "|Boards as (?:gnubg|FIBS) writes them\\n"
    "|(?:DBG: [\\x20-\\x7e]*\\n)*"
    "(?:(?:" PART " ){1,3}|(?:" PART " ){3}" PART "|roll|double|take|drop|beaver|accept|reject"
    "|(?:-?[0-9]+\\.[0-9]{6} ){5}-?[0-9]+\\.[0-9]{6}|)\\n)";

static Engine *engine;
static pcre2_code *reply_re;
static pcre2_match_data *md;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    engine = fuzz_engine("fuzz_proto");
    reply_re = fuzz_pattern("fuzz_proto", reply_pattern, &md);
    return 0;
}

/* Sends one line; false once the connection is closed. */
static bool one_line(const ProtoConfig *cfg, ProtoSession *s, const char *line, size_t len)
{
    Buf out;
    buf_init(&out);
    ProtoResult r = proto_handle(cfg, s, line, len, &out);
    if (r == PROTO_CLOSE) {
        if (out.len != 0)
            abort(); /* exit and quit write nothing */
        buf_free(&out);
        return false;
    }
    if (out.len == 0 || out.data[out.len - 1] != '\n')
        abort();
    if (pcre2_match(reply_re, (PCRE2_SPTR)out.data, out.len, 0, 0, md, NULL) < 0) {
        fprintf(stderr, "malformed reply to '%.*s':\n%s", (int)(len > 200 ? 200 : len), line,
                out.data);
        abort();
    }
    buf_free(&out);
    return true;
}

static const char *const templates[] = {
    /* the opening, X to play 3-1 */
    "board:You:Opp:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:0:0:1:1:"
    "1:0:1:-1:0:25:0:0:0:0:0:0:0:0",
    /* gnubg's client: a cube request in a 5-point match */
    "board:alice:extbot:5:0:0:0:-1:-1:0:0:0:5:0:3:0:0:0:-4:5:-1:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:0:"
    "0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1",
    /* gnubg's client: a take request */
    "board:extbot:alice:5:0:2:0:2:1:2:2:2:2:0:2:0:0:0:0:0:0:0:0:0:0:-2:-5:-3:-2:2:-3:0:-1:0:0:0:"
    "0:2:0:1:1:1:-1:0:25:0:0:0:0:0:0:0:1",
    /* gnubg's beaver: the turn field names the answering side */
    "board:gnubg:root:0:0:0:0:-1:-1:0:0:0:5:0:3:0:0:0:-4:5:-1:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:0:0:"
    "2:0:1:1:1:-1:0:25:0:0:0:0:0:0:0:1",
    /* a race near its end, odd direction */
    "board:'Jo Ann':\"Mr X\":0:0:0:0:0:0:0:1:0:0:0:0:-1:0:0:0:0:0:0:0:1:0:0:0:0:0:0:0:0:1:0:0:1:"
    "6:16:0:1:0:-1:-1:0:25:14:13:0:0:0:0:0:1",
};

static const char *const options[] = {
    "", " jacobyrule off", " crawfordrule off", " beavers off", " resignation 1",
    " resignation 2", " resignation 3", " plies 1", " cube on", " cubeful", " prune",
    " noise 0.01", " deterministic off",
};

/* A board from a template with fields overwritten by (field, value) byte
 * pairs, then up to three options, as a board line or an evaluation. */
static void structured(const ProtoConfig *cfg, ProtoSession *s, const uint8_t *d, size_t n)
{
    if (n < 2)
        return;
    char copy[300], line[1200];
    snprintf(copy, sizeof copy, "%s", templates[d[0] % (sizeof templates / sizeof templates[0])]);
    char *names = copy + 6, *nums = strchr(strchr(names + 1, ':') + 1, ':');
    /* Names may hold ':' only inside quotes; the templates' do not. */
    *nums++ = '\0';
    long field[51];
    int k = 0;
    for (char *p = strtok(nums, ":"); p && k < 50; p = strtok(NULL, ":"))
        field[k++] = strtol(p, NULL, 10);
    size_t i = 2;
    int edits = d[1] % 8;
    for (int e = 0; e < edits && i + 1 < n; e++, i += 2)
        field[d[i] % 50] = (int8_t)d[i + 1];
    bool eval = d[1] & 8, debug = d[1] & 16, fibs = d[1] & 32;
    size_t at = (size_t)snprintf(line, sizeof line, "%sboard:%s", eval ? "evaluation fibsboard " : "",
                                 names);
    for (int f = 0; f < k; f++)
        at += (size_t)snprintf(line + at, sizeof line - at, ":%ld", field[f]);
    for (int o = 0; o < 3 && i < n; o++, i++)
        at += (size_t)snprintf(line + at, sizeof line - at, "%s",
                               options[d[i] % (sizeof options / sizeof options[0])]);
    if (debug)
        one_line(cfg, s, "set debug on", 12);
    if (fibs)
        one_line(cfg, s, "set boards fibs", 15);
    one_line(cfg, s, line, strlen(line));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ProtoConfig cfg = {.engine = engine, .plies = 0, .max_plies = 1};
    ProtoSession *s = proto_session_new();
    if (!s)
        abort();
    if (size > 0 && (data[0] & 1)) {
        structured(&cfg, s, data + 1, size - 1);
    } else if (size > 0) {
        const char *p = (const char *)data + 1, *end = (const char *)data + size;
        while (p <= end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
            if (!one_line(&cfg, s, p, len))
                break;
            if (!nl)
                break;
            p = nl + 1;
        }
    }
    proto_session_free(s);
    return 0;
}
