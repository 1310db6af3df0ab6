/* child.h - a command run as a child process that talks on its standard
 * input and output, for players that are programs of their own (UBGI
 * engines).
 *
 * The command is read by /bin/sh -c, so one string says it all: arguments,
 * quoting, redirections (`... 2>/dev/null`), `cd DIR && ./engine`. Its
 * stdin and stdout are one end of a socketpair rather than two pipes:
 * writing to an engine that died is then an error (send with
 * MSG_NOSIGNAL), not a SIGPIPE that would kill the referee. Its stderr is
 * the referee's. It runs in a process group of its own, so a Ctrl-C on the
 * terminal reaches the referee and not the engine, and so that stopping it
 * stops whatever the shell started too. */
#ifndef SHESH_CHILD_H
#define SHESH_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

#include "err.h"

typedef struct Child {
    pid_t pid;   /* the shell, leader of the group; 0 when none */
    int fd;      /* our end of the socketpair; -1 once handed on */
    bool reaped;
    int status;  /* waitpid's, once reaped */
} Child;

/* Starts `/bin/sh -c command`. False with err filled when it cannot. */
bool child_start(Child *c, const char *command, Err *err);

/* True once the shell has exited (it is reaped then), waiting at most
 * wait_s seconds for it. */
bool child_exited(Child *c, double wait_s);

/* "exit status 3", "killed by signal 9" or "running": for messages. */
void child_describe(const Child *c, char *out, size_t size);

/* Waits up to grace_s seconds for the shell to exit by itself, then sends
 * SIGTERM to its group, then SIGKILL a second later; reaps it. Closes fd
 * if still ours. Safe to call twice. */
void child_stop(Child *c, double grace_s);

#endif
