/* fnv.h - FNV-1a, 64 bits: the hash of the behaviour signatures `shesh
 * bench` prints. Simple, and the same on every platform and compiler, so a
 * signature changes only when what it hashes does. */
#ifndef SHESH_FNV_H
#define SHESH_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV_OFFSET 0xcbf29ce484222325u

/* h extended by the n bytes at data (start from FNV_OFFSET). */
uint64_t fnv_bytes(uint64_t h, const void *data, size_t n);

#endif
