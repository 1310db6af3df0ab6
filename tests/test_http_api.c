/* test_http_api.c - the HTTP API's routes as the pure function they are
 * (http_api.h), no socket: every route's answer and its JSON types, every
 * refusal with its status, strict parameters, and the plies a client may
 * ask for kept within the server's --max-plies. */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "http_api.h"
#include "proto_config.h"
#include "version.h"

#define START "4HPwATDgc/ABMA"
#define XGID "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"

static Engine *engine;
static ProtoConfig cfg;
static ProtoWorker *worker;

static int setup(void **state)
{
    (void)state;
    Err err = {{0}};
    engine = engine_new("default", &err);
    if (!engine)
        return -1;
    cfg = (ProtoConfig){.engine = engine, .plies = 0, .max_plies = 1};
    worker = proto_worker_new(&cfg, &err);
    return worker ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    proto_worker_free(worker);
    engine_free(engine);
    return 0;
}

/* Answers path with the given "key=value" parameters; the body parsed as
 * JSON (must parse), status checked. */
static json_t *ask(const char *method, const char *path, int want, int n, ...)
{
    HttpArg args[16];
    char keys[16][32];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        const char *kv = va_arg(ap, const char *);
        const char *eq = strchr(kv, '=');
        snprintf(keys[i], sizeof keys[i], "%.*s", (int)(eq - kv), kv);
        args[i].key = keys[i];
        args[i].value = eq + 1;
    }
    va_end(ap);
    Buf body;
    buf_init(&body);
    int status = http_api_answer(&cfg, worker, method, path, args, (size_t)n, &body);
    json_error_t je;
    json_t *v = json_loadb(body.data ? body.data : "", body.len, 0, &je);
    if (status != want || !v)
        fail_msg("%s %s: status %d (want %d), body %s", method, path, status, want,
                 body.data ? body.data : "(none)");
    buf_free(&body);
    return v;
}

static void expect_error(const char *path, int want, int n, const char *a, const char *b)
{
    json_t *v = n == 0   ? ask("GET", path, want, 0)
                : n == 1 ? ask("GET", path, want, 1, a)
                         : ask("GET", path, want, 2, a, b);
    assert_true(json_is_string(json_object_get(v, "error")));
    assert_int_equal(json_object_size(v), 1);
    json_decref(v);
}

static void test_move(void **state)
{
    (void)state;
    json_t *v = ask("GET", "/v1/move", 200, 3, "id=" START, "dice=31", "max=3");
    assert_string_equal(json_string_value(json_object_get(v, "input")), START);
    json_t *moves = json_object_get(v, "moves");
    assert_int_equal(json_array_size(moves), 3);
    json_t *m = json_array_get(moves, 0);
    assert_string_equal(json_string_value(json_object_get(m, "move")), "8/5 6/5");
    assert_true(json_is_number(json_object_get(m, "cubeful")));
    assert_true(json_is_number(json_object_get(m, "win")));
    json_decref(v);
    /* The roll of an XGID, and at the most plies the server allows. */
    v = ask("GET", "/v1/move", 200, 2, "id=" XGID, "plies=1");
    assert_int_equal(json_integer_value(json_object_get(v, "plies")), 1);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(v, "dice"), 0)), 5);
    json_decref(v);
}

/* The same bytes as the commands write (their shared writer). */
static void test_same_bytes(void **state)
{
    (void)state;
    HttpArg args[2] = {{"id", START}, {"dice", "3-1"}};
    Buf body;
    buf_init(&body);
    assert_int_equal(http_api_answer(&cfg, worker, "GET", "/v1/move", args, 2, &body), 200);
    assert_non_null(strstr(body.data, "\"dice\": [3, 1], \"moves\": [{\"move\": \"8/5 6/5\""));
    assert_int_equal(body.data[body.len - 1], '}');
    buf_free(&body);
}

static void test_cube_eval_moves_id(void **state)
{
    (void)state;
    json_t *v = ask("GET", "/v1/cube", 200, 1, "id=" START);
    assert_string_equal(json_string_value(json_object_get(v, "action")), "no double, take");
    assert_true(json_is_boolean(json_object_get(v, "may_double")));
    assert_true(json_is_number(json_object_get(v, "double_take")));
    json_decref(v);
    v = ask("GET", "/v1/eval", 200, 2, "id=" START, "plies=0");
    assert_true(json_is_number(json_object_get(v, "cubeful")));
    assert_string_equal(json_string_value(json_object_get(v, "equity_kind")), "money");
    json_decref(v);
    v = ask("GET", "/v1/moves", 200, 2, "id=" START, "dice=21");
    assert_int_equal(json_array_size(json_object_get(v, "moves")), 15);
    json_decref(v);
    v = ask("GET", "/v1/moves", 200, 1, "id=" XGID); /* the XGID's own 52 */
    assert_int_equal(json_integer_value(json_array_get(json_object_get(v, "dice"), 1)), 2);
    json_decref(v);
    v = ask("GET", "/v1/id", 200, 1, "id=" START);
    assert_string_equal(json_string_value(json_object_get(v, "kind")), "position_id");
    assert_int_equal(json_integer_value(json_object_get(v, "player_pips")), 167);
    json_decref(v);
    v = ask("HEAD", "/v1/health", 200, 0);
    assert_string_equal(json_string_value(json_object_get(v, "status")), "ok");
    assert_string_equal(json_string_value(json_object_get(v, "version")), SHESH_VERSION);
    json_decref(v);
}

static void test_refusals(void **state)
{
    (void)state;
    expect_error("/v1/nothing", 404, 0, NULL, NULL);
    expect_error("/", 404, 0, NULL, NULL);
    expect_error("/v1/move", 400, 0, NULL, NULL);                      /* no id */
    expect_error("/v1/move", 400, 1, "id=" START, NULL);              /* no roll */
    expect_error("/v1/move", 400, 2, "id=nonsense", "dice=31");
    expect_error("/v1/move", 400, 2, "id=" START, "dice=71");
    expect_error("/v1/move", 400, 2, "id=" START, "dice=");
    expect_error("/v1/move", 400, 2, "id=" XGID, "plies=2");          /* over --max-plies */
    expect_error("/v1/move", 400, 2, "id=" XGID, "plies=-1");
    expect_error("/v1/move", 400, 2, "id=" XGID, "max=0");
    expect_error("/v1/move", 400, 2, "id=" XGID, "colour=red");       /* unknown */
    expect_error("/v1/move", 400, 2, "id=" XGID, "id=" START);        /* twice */
    expect_error("/v1/eval", 400, 2, "id=" START, "dice=31");         /* not eval's */
    expect_error("/v1/moves", 400, 1, "id=" START, NULL);
    expect_error("/v1/id", 400, 1, "id=", NULL);
    char long_id[300] = "id=";
    memset(long_id + 3, 'A', 200);
    expect_error("/v1/cube", 400, 1, long_id, NULL);
    json_t *v = ask("POST", "/v1/move", 405, 0);
    assert_true(json_is_string(json_object_get(v, "error")));
    json_decref(v);
    assert_true(http_api_is_cheap("GET", "/v1/health"));
    assert_true(http_api_is_cheap("POST", "/v1/move"));
    assert_true(http_api_is_cheap("GET", "/nowhere"));
    assert_false(http_api_is_cheap("GET", "/v1/move"));
}

/* A refusal escapes whatever it quotes: still valid JSON. */
static void test_error_body(void **state)
{
    (void)state;
    json_t *v = ask("GET", "/v1/move", 400, 1, "a \"quoted\"\n\xff key=1");
    assert_non_null(strstr(json_string_value(json_object_get(v, "error")), "quoted"));
    json_decref(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_move),       cmocka_unit_test(test_same_bytes),
        cmocka_unit_test(test_cube_eval_moves_id), cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_error_body),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
