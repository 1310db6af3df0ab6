/* cli_opt.c - usage errors, getopt_long's complaints and JSON errors, the
 * same for every command (see cli_opt.h). */
#include "cli_opt.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "json.h"
#include "num.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "shesh %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\ntry 'shesh %s --help'\n", cmd);
    va_end(ap);
    return EXIT_USAGE;
}

void cli_getopt_start(void)
{
    optind = 1;
    opterr = 0;
}

/* The options whose names start with the first len bytes of name, and the
 * one named exactly (NULL if none is). */
static int count_prefix(const struct option *longopts, const char *name, size_t len,
                        const struct option **exact)
{
    int n = 0;
    *exact = NULL;
    for (const struct option *o = longopts; o->name; o++) {
        if (strncmp(o->name, name, len))
            continue;
        n++;
        if (strlen(o->name) == len)
            *exact = o;
    }
    return n;
}

int cli_option_error(const char *cmd, int c, char **argv, const struct option *longopts)
{
    /* Inside a group of short options optind has not moved on: optopt
     * names the letter. Otherwise the word before optind is the option. */
    const char *word = optind > 0 ? argv[optind - 1] : "";
    if (strncmp(word, "--", 2) != 0) {
        if (c == ':')
            return cli_usage_error(cmd, "option '-%c' needs a value", optopt);
        return cli_usage_error(cmd, "unknown option '-%c'", optopt ? optopt : '?');
    }
    const char *name = word + 2;
    size_t len = strcspn(name, "=");
    const struct option *exact;
    int n = count_prefix(longopts, name, len, &exact);
    const struct option *o = exact;
    if (!o && n == 1)
        for (o = longopts; strncmp(o->name, name, len); o++)
            ;
    if (c == ':' && o)
        return cli_usage_error(cmd, "--%s needs a value", o->name);
    if (o && o->has_arg == no_argument && name[len] == '=')
        return cli_usage_error(cmd, "--%s takes no value", o->name);
    if (!o && n > 1) {
        Buf b;
        buf_init(&b);
        for (const struct option *p = longopts; p->name; p++)
            if (!strncmp(p->name, name, len))
                buf_printf(&b, "%s--%s", b.len ? ", " : "", p->name);
        int rc = cli_usage_error(cmd, "option '--%.*s' is ambiguous: %s", (int)len, name, b.data);
        buf_free(&b);
        return rc;
    }
    return cli_usage_error(cmd, "unknown option '--%.*s'", (int)len, name);
}

void cli_json_error(Buf *out, const char *input, const char *message)
{
    json_error(out, input, message);
    buf_puts(out, "\n");
}

bool cli_parse_shard(const char *arg, int shard[2], Err *err)
{
    const char *slash = strchr(arg, '/');
    char k[16];
    if (!slash || (size_t)(slash - arg) >= sizeof k)
        return err_set(err, "--shard takes K/N (1 <= K <= N), not '%.40s'", arg);
    memcpy(k, arg, (size_t)(slash - arg));
    k[slash - arg] = '\0';
    return num_int("--shard N", slash + 1, 1, 100000, &shard[1], err) &&
           num_int("--shard K", k, 1, shard[1], &shard[0], err);
}

int cli_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

bool cli_weights_option(const char *arg, const char **out, Err *err)
{
    if (!*arg)
        return err_set(err, "--weights: give the network file's name");
    *out = arg;
    return true;
}
