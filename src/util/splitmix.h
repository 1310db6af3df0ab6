/* splitmix.h - splitmix64 (Steele, Lea, Flood 2014): a tiny seeded
 * generator whose state is one integer in the caller's hands, so that any
 * number of games, threads and shards draw their own streams with no
 * shared state. Every seed gives a good stream. */
#ifndef SHESH_SPLITMIX_H
#define SHESH_SPLITMIX_H

#include <stdint.h>

/* The next 64 random bits; advances *state. */
uint64_t splitmix64(uint64_t *state);

#endif
