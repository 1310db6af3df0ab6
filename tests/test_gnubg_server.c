/* test_gnubg_server.c - the real gnubg started as an external server on a
 * free loopback port: it answers `version` there, two run at once on
 * different ports, stopping one leaves no process behind, and a binary that
 * is missing or exits at once is reported, not waited for. Needs gnubg
 * (`make test` installs it); GNUBG names another binary. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "gnubg_server.h"
#include "listen.h"

static const char *gnubg_binary(void)
{
    const char *b = getenv("GNUBG");
    return b && b[0] ? b : GNUBG_DEFAULT_BINARY;
}

static GnubgServerOptions options(void)
{
    GnubgServerOptions o = {0};
    o.binary = gnubg_binary();
    o.cube = true;
    o.start_timeout = 30;
    return o;
}

/* Sends `version` and reads until the four-line answer is complete. */
static void assert_answers_version(const char *addr)
{
    ListenAddr a;
    Err err;
    assert_true(listen_parse(addr, &a, &err));
    /* gnubg listens again only a moment after its previous client left. */
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        fd = listen_connect(&a, 10.0, &err);
        if (fd < 0)
            usleep(50000);
    }
    if (fd < 0)
        fail_msg("connect %s: %s", addr, err.text);
    assert_true(listen_send_all(fd, "version\n", 8));
    char buf[512] = "";
    size_t len = 0;
    while (len < sizeof buf - 1 && !strstr(buf, "Software:")) {
        ssize_t n = read(fd, buf + len, sizeof buf - 1 - len);
        if (n <= 0)
            break;
        len += (size_t)n;
        buf[len] = '\0';
    }
    buf[len] = '\0';
    close(fd);
    if (!strstr(buf, "Interface: 2") || !strstr(buf, "Software: 1.07"))
        fail_msg("gnubg at %s answered '%s'", addr, buf);
}

/* The servers a test started, stopped by the teardown even when an assertion
 * failed half way (cmocka leaves the test at once). */
typedef struct Servers {
    GnubgServer *g, *h;
} Servers;

static int servers_setup(void **state)
{
    *state = calloc(1, sizeof(Servers));
    return *state ? 0 : -1;
}

static int servers_teardown(void **state)
{
    Servers *s = *state;
    gnubg_server_stop(s->g);
    gnubg_server_stop(s->h);
    free(s);
    return 0;
}

static void test_start_answer_stop(void **state)
{
    Servers *s = *state;
    if (access(gnubg_binary(), X_OK) != 0)
        fail_msg("%s is missing: make test installs it (Debian package gnubg)", gnubg_binary());
    Err err;
    GnubgServerOptions o = options();
    GnubgServer *g = s->g = gnubg_server_start(&o, &err);
    if (!g)
        fail_msg("%s", err.text);
    o.plies = 1;
    o.jacoby = true;
    o.beavers = 3;
    GnubgServer *h = s->h = gnubg_server_start(&o, &err);
    if (!h)
        fail_msg("%s", err.text);
    assert_string_not_equal(gnubg_server_addr(g), gnubg_server_addr(h));
    assert_true(gnubg_server_alive(g) && gnubg_server_alive(h));
    assert_answers_version(gnubg_server_addr(g));
    assert_answers_version(gnubg_server_addr(h));
    /* gnubg listens again after its client left: a second client. */
    assert_answers_version(gnubg_server_addr(g));

    pid_t pg = gnubg_server_pid(g), ph = gnubg_server_pid(h);
    gnubg_server_stop(g);
    s->g = NULL;
    assert_int_equal(kill(pg, 0), -1);
    assert_int_equal(errno, ESRCH);
    assert_int_equal(kill(ph, 0), 0); /* the other one runs on */
    assert_answers_version(gnubg_server_addr(h));
    gnubg_server_stop(h);
    s->h = NULL;
    assert_int_equal(kill(ph, 0), -1);
    gnubg_server_stop(NULL);
}

static void test_bad_binaries(void **state)
{
    (void)state;
    Err err;
    GnubgServerOptions o = options();
    o.binary = "/nonexistent/gnubg";
    assert_null(gnubg_server_start(&o, &err));
    assert_non_null(strstr(err.text, "/nonexistent/gnubg"));
    assert_non_null(strstr(err.text, "cannot run"));

    o.binary = "/bin/true"; /* exits at once, never listens */
    assert_null(gnubg_server_start(&o, &err));
    assert_non_null(strstr(err.text, "exited before listening"));

    o = options();
    o.plies = 5;
    assert_null(gnubg_server_start(&o, &err));
    assert_non_null(strstr(err.text, "plies"));
    o.plies = 0;
    o.beavers = -1;
    assert_null(gnubg_server_start(&o, &err));
    assert_non_null(strstr(err.text, "beavers"));
}

int main(void)
{
    /* A peer that leaves must not kill the test. */
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_start_answer_stop, servers_setup, servers_teardown),
        cmocka_unit_test(test_bad_binaries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
