/* run_records.c - a run's two record files (see run_records.h). */
#include "run_records.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "buf.h"
#include "gzmember.h"
#include "record_jsonl.h"
#include "record_mat.h"
#include "tally.h"

typedef struct File {
    int fd;
    char what[300]; /* "record 'PATH'" for messages */
    char path[4096];
} File;

struct RunRecords {
    File f[2];        /* .mat.gz, .jsonl.gz */
    GzMember *zip;
    Buf text;
    Record header;    /* names, length and rules: the .mat headers */
    int64_t games;
    int score[2];     /* money: the running score, A and B */
    int match_to;
    uint64_t seed;
};

bool run_records_is_mat(const char *path)
{
    size_t n = strlen(path), m = strlen(".mat.gz");
    return n >= m && !strcmp(path + n - m, ".mat.gz");
}

void run_records_jsonl_path(const char *mat_path, char *out, size_t size)
{
    size_t n = strlen(mat_path);
    if (run_records_is_mat(mat_path))
        n -= strlen(".mat.gz");
    snprintf(out, size, "%.*s.jsonl.gz", (int)n, mat_path);
}

static bool file_open(File *f, const char *path, bool create, Err *err)
{
    snprintf(f->path, sizeof f->path, "%s", path);
    snprintf(f->what, sizeof f->what, "record '%.280s'", path);
    f->fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0), 0644);
    if (f->fd < 0)
        return err_set(err, "%s: %s", f->what, strerror(errno));
    return true;
}

static bool member(RunRecords *rr, int which, Err *err)
{
    File *f = &rr->f[which];
    bool ok = gzmember_write(rr->zip, f->fd, rr->text.data, rr->text.len, f->what, err);
    buf_clear(&rr->text);
    return ok;
}

static RunRecords *records_open(const char *mat_path, const char *jsonl_path,
                                const char *const names[2], int match_to, const Rules *rules,
                                uint64_t seed, bool create, bool header, Err *err)
{
    RunRecords *rr = calloc(1, sizeof *rr);
    if (!rr) {
        err_set(err, "out of memory for the records");
        return NULL;
    }
    rr->f[0].fd = rr->f[1].fd = -1;
    rr->match_to = match_to;
    rr->seed = seed;
    buf_init(&rr->text);
    if (!record_init(&rr->header, names[0], names[1], match_to, rules, err)) {
        free(rr);
        return NULL;
    }
    if (!(rr->zip = gzmember_new(err)) || !file_open(&rr->f[0], mat_path, create, err) ||
        !file_open(&rr->f[1], jsonl_path, create, err)) {
        bool made[2] = {create && rr->f[0].fd >= 0, create && rr->f[1].fd >= 0};
        run_records_close(rr, NULL, NULL);
        if (made[0])
            unlink(mat_path);
        if (made[1])
            unlink(jsonl_path);
        return NULL;
    }
    /* A money session has one header; each match brings its own. */
    if (match_to == 0 && header) {
        record_mat_header(&rr->header, &rr->text);
        if (!member(rr, 0, err)) {
            run_records_close(rr, NULL, NULL);
            return NULL;
        }
    }
    return rr;
}

RunRecords *run_records_create(const char *mat_path, const char *jsonl_path,
                               const char *const names[2], int match_to, const Rules *rules,
                               uint64_t seed, Err *err)
{
    return records_open(mat_path, jsonl_path, names, match_to, rules, seed, true, true, err);
}

RunRecords *run_records_open(const char *mat_path, const char *jsonl_path,
                             const char *const names[2], int match_to, const Rules *rules,
                             uint64_t seed, int64_t games, const int score[2], Err *err)
{
    struct stat st;
    bool empty = stat(mat_path, &st) == 0 && st.st_size == 0;
    RunRecords *rr =
        records_open(mat_path, jsonl_path, names, match_to, rules, seed, false, empty, err);
    if (rr) {
        rr->games = games;
        rr->score[0] = score[0];
        rr->score[1] = score[1];
    }
    return rr;
}

static bool add_game(RunRecords *rr, const DuelPair *p, int h, int game, Err *err)
{
    const DuelHalf *half = &p->half[h];
    const RecordGame *g = record_game(&half->record, game);
    const RefereeGame *rg = &half->games[game];
    bool money = rr->match_to == 0;
    int number = money ? (int)(rr->games % 1000000000) + 1 : game + 1;
    const int *score = money ? rr->score : g->score;
    if (!record_mat_game_as(&half->record, game, number, score, &rr->text, err) ||
        !member(rr, 0, err))
        return false;
    RecordJsonlPlace at = {rr->seed, p->index, h, half->a_seat,
                           game == record_games(&half->record) - 1,
                           tally_scored_kind(rg, &half->record.rules), number,
                           {score[0], score[1]}};
    record_jsonl_game(&half->record, game, rg, &at, &rr->text);
    if (!member(rr, 1, err))
        return false;
    if (money)
        rr->score[rg->winner] += rg->points;
    rr->games++;
    return true;
}

bool run_records_add(RunRecords *rr, const DuelPair *p, Err *err)
{
    for (int h = 0; h < 2; h++) {
        const Record *r = &p->half[h].record;
        if (rr->match_to > 0) {
            record_mat_header(r, &rr->text);
            if (!member(rr, 0, err))
                return false;
        }
        for (int game = 0; game < record_games(r); game++)
            if (!add_game(rr, p, h, game, err))
                return false;
    }
    return true;
}

int64_t run_records_games(const RunRecords *rr)
{
    return rr->games;
}

/* The CRC-32 of a file's bytes. */
static bool file_crc(const char *path, uint32_t *crc, Err *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return err_set(err, "record '%.280s': %s", path, strerror(errno));
    uLong c = crc32(0L, Z_NULL, 0);
    unsigned char block[65536];
    size_t n;
    while ((n = fread(block, 1, sizeof block, fp)) > 0)
        c = crc32(c, block, (uInt)n);
    bool ok = !ferror(fp);
    fclose(fp);
    *crc = (uint32_t)c;
    return ok || err_set(err, "record '%.280s': cannot read it back", path);
}

bool run_records_close(RunRecords *rr, uint32_t crc[2], Err *err)
{
    if (!rr)
        return true;
    bool ok = true;
    for (int i = 0; i < 2; i++) {
        File *f = &rr->f[i];
        if (f->fd < 0)
            continue;
        if (close(f->fd) != 0 && ok)
            ok = err_set(err, "%s: %s", f->what, strerror(errno));
        if (ok && crc)
            ok = file_crc(f->path, &crc[i], err);
    }
    gzmember_free(rr->zip);
    buf_free(&rr->text);
    record_free(&rr->header);
    free(rr);
    return ok;
}
