/* clock.h - seconds on the monotonic clock, for timeouts, deadlines and
 * speed figures: it never jumps when the wall clock is set. */
#ifndef SHESH_CLOCK_H
#define SHESH_CLOCK_H

/* Seconds since an arbitrary fixed point (differences are what count). */
double clock_now(void);

#endif
