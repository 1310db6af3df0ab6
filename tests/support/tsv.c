/* tsv.c - test vector reader (see tsv.h). */
#include "tsv.h"

#include <stdlib.h>
#include <string.h>

bool tsv_open(TsvReader *r, const char *path)
{
    r->lineno = 0;
    r->nfields = 0;
    r->file = gzopen(path, "rb");
    return r->file != NULL;
}

bool tsv_next(TsvReader *r)
{
    while (gzgets(r->file, r->line, sizeof r->line)) {
        r->lineno++;
        size_t len = strlen(r->line);
        while (len > 0 && (r->line[len - 1] == '\n' || r->line[len - 1] == '\r'))
            r->line[--len] = '\0';
        if (r->line[0] == '#')
            continue;
        r->nfields = 0;
        char *p = r->line;
        for (;;) {
            if (r->nfields < TSV_FIELDS_MAX)
                r->field[r->nfields++] = p;
            char *tab = strchr(p, '\t');
            if (!tab)
                break;
            *tab = '\0';
            p = tab + 1;
        }
        return true;
    }
    return false;
}

void tsv_close(TsvReader *r)
{
    if (r->file)
        gzclose(r->file);
    r->file = NULL;
}

bool tsv_parse_side(const char *s, uint8_t side[25])
{
    for (int i = 0; i < 25; i++) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v < 0 || v > 15 || (i < 24 && *end != ','))
            return false;
        side[i] = (uint8_t)v;
        s = i < 24 ? end + 1 : end;
    }
    return *s == '\0';
}
