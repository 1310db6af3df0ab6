/* http_api.h - the HTTP API of `shesh serve --http` as a pure function: a
 * method, a path and the query's parameters in, an HTTP status and a JSON
 * body out. No socket here: src/net/http.c carries requests to it and its
 * answers back, and the tests and the fuzzer call it directly.
 *
 * The answers are those of the commands with --json, byte for byte
 * (answer_json.h, id_fields.h): GET /v1/move is `shesh hint ID DICE`,
 * /v1/cube `shesh hint ID` without a roll, /v1/eval `shesh eval`,
 * /v1/moves `shesh moves`, /v1/id `shesh id decode`; /v1/health says the
 * server is up. Every position is played by the standard rules (a money
 * game for a Position ID; a GNUBG-ID or XGID brings its own match, score,
 * cube, Jacoby rule and beavers). Errors are {"error": "..."}
 * (json_error). docs/http.md is the manual, docs/openapi.json the schema. */
#ifndef SHESH_HTTP_API_H
#define SHESH_HTTP_API_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "proto_config.h"

/* One query parameter, decoded (a value may be empty, never NULL). */
typedef struct HttpArg {
    const char *key;
    const char *value;
} HttpArg;

/* The most parameters a request may carry; more is a 400. */
#define HTTP_API_ARGS_MAX 8

/* The statuses the API answers with. */
enum {
    HTTP_API_OK = 200,
    HTTP_API_BAD_REQUEST = 400,
    HTTP_API_NOT_FOUND = 404,
    HTTP_API_METHOD = 405,
    HTTP_API_TOO_LARGE = 413,
    HTTP_API_URI_TOO_LONG = 414,
    HTTP_API_BUSY = 429,
    HTTP_API_UNAVAILABLE = 503
};

/* Appends the answer to body (a JSON object, no newline) and returns its
 * status. method: "GET" or "HEAD" (answered alike; the server leaves out a
 * HEAD's body), anything else is 405. w is the calling thread's worker: its
 * engine scratch and move lists, so an answer allocates no scratch memory. */
int http_api_answer(const ProtoConfig *cfg, ProtoWorker *w, const char *method,
                    const char *path, const HttpArg *args, size_t n_args, Buf *body);

/* True for a request answered in microseconds, whatever its parameters
 * (health, id, an unknown path, a wrong method): the server answers it on
 * its event loop instead of handing it to a worker. */
bool http_api_is_cheap(const char *method, const char *path);

#endif
