/* cli_label_merge.c - `shesh label merge`: the shards of one run of shesh
 * label (cli_label.c) back into one file, in index order. Each shard holds
 * the labels K-1, K-1+N, ... of the run, so the merge takes label i from
 * shard i mod N; a shard that stops early stops the merge there, naming
 * it, instead of writing a file with a hole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cli.h"
#include "cli_opt.h"
#include "gzmember.h"
#include "label_file.h"

/* A shard's file: its labels after the header, and where merge is in them. */
typedef struct Shard {
    Buf text;
    size_t at;
    const char *path;
} Shard;

/* Reads path into sh; *k, *of: its shard; common: its header up to the
 * shard (at most LABEL_LINE_MAX bytes). */
static bool read_shard(const char *path, Shard *sh, int *k, int *of, char *common)
{
    Err err = {{0}};
    buf_init(&sh->text);
    sh->path = path;
    if (gzmember_read_file(path, &sh->text, &err) != GZ_END) {
        fprintf(stderr, "shesh label merge: %s\n", err.text);
        return false;
    }
    const char *t = sh->text.data;
    const char *nl = memchr(t, '\n', sh->text.len);
    const char *at = nl ? strstr(t, " shard=") : NULL;
    if (strncmp(t, LABEL_HEADER, strlen(LABEL_HEADER)) || !at || at > nl ||
        sscanf(at, " shard=%d/%d", k, of) != 2 || (size_t)(at - t) >= LABEL_LINE_MAX) {
        fprintf(stderr, "shesh label merge: %s is not a file of shesh label\n", path);
        return false;
    }
    memcpy(common, t, (size_t)(at - t));
    common[at - t] = '\0';
    sh->at = (size_t)(nl - t) + 1;
    return true;
}

int cli_label_merge(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: shesh label merge SHARD...\n\n"
               "Writes the labels of the N shards of one run of shesh label (in any\n"
               "order) to standard output as one plain text file in index order, after\n"
               "the header without its shard. Every shard must be there once, complete\n"
               "and from the same run.\n\n"
               "Exit status: 0 merged, 1 a shard unreadable, missing, incomplete or\n"
               "from another run, 2 usage.\n");
        return EXIT_OK;
    }
    if (argc < 2)
        return cli_usage_error("label merge", "give the shards' files");
    int n = argc - 1, status = EXIT_FAIL;
    Shard *s = calloc((size_t)n, sizeof *s);
    if (!s)
        return EXIT_FAIL;
    char first[LABEL_LINE_MAX], common[LABEL_LINE_MAX];
    long positions = 0;
    for (int i = 0; i < n; i++) {
        Shard sh;
        int k, of;
        if (!read_shard(argv[i + 1], &sh, &k, &of, common)) {
            buf_free(&sh.text);
            goto done;
        }
        const char *why = NULL;
        if (of != n || k < 1 || k > n || s[k - 1].path)
            why = "give each shard of the run once";
        else if (i > 0 && strcmp(common, first))
            why = "not from the same run as the others";
        if (why) {
            fprintf(stderr, "shesh label merge: %s (shard %d of %d): %s\n", argv[i + 1], k, of,
                    why);
            buf_free(&sh.text);
            goto done;
        }
        if (i == 0) {
            memcpy(first, common, sizeof first);
            sscanf(common, LABEL_HEADER "positions=%ld", &positions);
        }
        s[k - 1] = sh;
    }
    printf("%s\n", first);
    for (long index = 0; index < positions; index++) {
        Shard *sh = &s[index % n];
        const char *t = sh->text.data + sh->at;
        const char *nl = strchr(t, '\n');
        LabelLine l;
        if (!nl || !label_line_parse(t, (size_t)(nl - t) + 1, &l, NULL) || l.index != index) {
            fprintf(stderr, "shesh label merge: %s stops before label %ld: run it on with "
                            "--resume\n",
                    sh->path, index);
            goto done;
        }
        fwrite(t, 1, (size_t)(nl - t) + 1, stdout);
        sh->at += (size_t)(nl - t) + 1;
    }
    status = fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
done:
    for (int i = 0; i < n; i++)
        buf_free(&s[i].text);
    free(s);
    return status;
}
