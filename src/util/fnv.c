/* fnv.c - FNV-1a, 64 bits (see fnv.h). */
#include "fnv.h"

uint64_t fnv_bytes(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}
