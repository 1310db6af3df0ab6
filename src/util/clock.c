/* clock.c - the monotonic clock in seconds (see clock.h). */
#include "clock.h"

#include <time.h>

double clock_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
