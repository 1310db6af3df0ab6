/* fuzz_http_api.c - libFuzzer harness for the HTTP API's routes
 * (http_api.h) with a real engine. The input is a request: its first line
 * "METHOD PATH", each further line a parameter "KEY=VALUE" (no '=': an
 * empty value). Whatever it is, http_api_answer must not crash, must answer
 * one of the API's statuses, and its body must be one JSON object: with 200
 * the answer, otherwise {"error": "..."} and nothing else.
 *
 * The engine is made once, in LLVMFuzzerInitialize (seconds under ASan);
 * the server allows 0 plies only: a 1-ply evaluation can take seconds
 * under ASan, and the routes' reading of plies is the same at any cap. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_setup.h"
#include "http_api.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define LINES_MAX 24

static Engine *engine;
static ProtoConfig cfg;
static ProtoWorker *worker;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    engine = fuzz_engine("fuzz_http_api");
    cfg = (ProtoConfig){.engine = engine, .plies = 0, .max_plies = 0};
    Err err = {{0}};
    if (!(worker = proto_worker_new(&cfg, &err))) {
        fprintf(stderr, "fuzz_http_api: %s\n", err.text);
        abort();
    }
    return 0;
}

static bool known_status(int s)
{
    return s == 200 || s == 400 || s == 404 || s == 405 || s == 503;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0'; /* a NUL inside ends the request there, as in C strings */
    char *lines[LINES_MAX];
    size_t n = 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && n < LINES_MAX;
         l = strtok_r(NULL, "\n", &save))
        lines[n++] = l;
    const char *method = "GET", *path = "";
    if (n > 0) {
        char *sp = strchr(lines[0], ' ');
        if (sp) {
            *sp = '\0';
            method = lines[0];
            path = sp + 1;
        } else {
            path = lines[0];
        }
    }
    HttpArg args[LINES_MAX];
    size_t n_args = 0;
    for (size_t i = 1; i < n; i++) {
        char *eq = strchr(lines[i], '=');
        if (eq)
            *eq = '\0';
        args[n_args++] = (HttpArg){lines[i], eq ? eq + 1 : ""};
    }
    Buf body;
    buf_init(&body);
    int status = http_api_answer(&cfg, worker, method, path, args, n_args, &body);
    json_error_t je;
    json_t *v = body.data ? json_loadb(body.data, body.len, JSON_REJECT_DUPLICATES, &je) : NULL;
    bool ok = known_status(status) && json_is_object(v) &&
              (status == 200 || (json_object_size(v) == 1 &&
                                 json_is_string(json_object_get(v, "error"))));
    if (!ok) {
        fprintf(stderr, "status %d, body %s\n", status, body.data ? body.data : "(none)");
        abort();
    }
    json_decref(v);
    buf_free(&body);
    free(text);
    return 0;
}
