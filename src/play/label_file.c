/* label_file.c - lines of shesh label's files (see label_file.h). */
#include "label_file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval_static.h"
#include "fnv.h"
#include "gzlines.h"

void label_line_format(Buf *b, const LabelLine *l)
{
    buf_printf(b, "%ld\t%s\t%.6f %.6f %.6f %.6f %.6f\t%.6f %.6f\n", l->index, l->id, l->out[0],
               l->out[1], l->out[2], l->out[3], l->out[4], l->equity, l->se);
}

/* A number at *p ending at `sep` (or, for the last, at the end): digits, an
 * optional '-', one '.', nothing else; *p moves past the separator. */
static bool number(const char **p, const char *end, char sep, double lo, double hi, double *v)
{
    const char *s = *p, *q = s;
    if (q < end && *q == '-')
        q++;
    size_t digits = 0, dots = 0;
    for (; q < end && *q != sep; q++) {
        if (*q == '.')
            dots++;
        else if (*q >= '0' && *q <= '9')
            digits++;
        else
            return false;
    }
    if (!digits || dots > 1 || q - s > 24 || (sep && q == end))
        return false;
    char text[32];
    memcpy(text, s, (size_t)(q - s));
    text[q - s] = '\0';
    *v = strtod(text, NULL);
    if (!(*v >= lo && *v <= hi))
        return false;
    *p = q < end ? q + 1 : q;
    return true;
}

bool label_line_parse(const char *text, size_t len, LabelLine *l, Err *err)
{
    const char *p = text, *end = text + len;
    if (len && end[-1] == '\n')
        end--;
    long index = 0;
    const char *digits = p;
    while (p < end && *p >= '0' && *p <= '9' && index <= LABEL_INDEX_MAX)
        index = index * 10 + (*p++ - '0');
    if (p == digits || p - digits > 9 || index > LABEL_INDEX_MAX || p == end || *p++ != '\t')
        return err_set(err, "no index at the start of the line");
    if (end - p < POSID_LEN + 1 || p[POSID_LEN] != '\t')
        return err_set(err, "label %ld: no Position ID", index);
    memcpy(l->id, p, POSID_LEN);
    l->id[POSID_LEN] = '\0';
    Err why;
    if (!posid_decode(l->id, &l->pos, &why))
        return err_set(err, "label %ld: %s", index, why.text);
    p += POSID_LEN + 1;
    for (int k = 0; k < OUT_COUNT; k++)
        if (!number(&p, end, k < OUT_COUNT - 1 ? ' ' : '\t', 0.0, 1.0, &l->out[k]))
            return err_set(err, "label %ld: chance %d is not a number from 0 to 1", index, k + 1);
    if (!number(&p, end, ' ', -LABEL_EQUITY_MAX, LABEL_EQUITY_MAX, &l->equity) ||
        !number(&p, end, 0, 0.0, LABEL_EQUITY_MAX, &l->se) || p != end)
        return err_set(err, "label %ld: no equity and standard error at the end", index);
    l->index = index;
    return true;
}

/* ---- sets of labels ---- */

/* One line of a label file into the set (gzlines_each's callback). */
static bool take_label(void *ctx, char *line, size_t len, Err *err)
{
    LabelSet *l = ctx;
    if (line[0] == '#')
        return true;
    if (l->n == l->cap) {
        long cap = l->cap ? 2 * l->cap : 1024;
        Position *p = realloc(l->pos, (size_t)cap * sizeof *p);
        if (p)
            l->pos = p;
        double(*o)[OUT_COUNT] = realloc(l->out, (size_t)cap * sizeof *o);
        if (o)
            l->out = o;
        if (!p || !o)
            return err_set(err, "out of memory");
        l->cap = cap;
    }
    LabelLine ll;
    Err why;
    if (!label_line_parse(line, len, &ll, &why))
        return err_set(err, "not a label of shesh label (%s)", why.text);
    l->pos[l->n] = ll.pos;
    memcpy(l->out[l->n], ll.out, sizeof ll.out);
    l->n++;
    return true;
}

bool label_set_read(const char *path, LabelSet *l, Err *err)
{
    if (!gzlines_each(path, LABEL_LINE_MAX, take_label, l, err))
        return false;
    if (l->n == 0)
        return err_set(err, "%s holds no labels", path);
    return true;
}

long label_set_judge(const NnWeights *w, const LabelSet *l, double mae[1 + OUT_COUNT])
{
    memset(mae, 0, (1 + OUT_COUNT) * sizeof mae[0]);
    long n = 0;
    for (long i = 0; i < l->n; i++) {
        if (!eval_network_values(w->race, &l->pos[i]))
            continue;
        double out[OUT_COUNT];
        nn_eval(w, &l->pos[i], out);
        eval_clamp(out);
        mae[0] += fabs(eval_money_equity(out) - eval_money_equity(l->out[i]));
        for (int k = 0; k < OUT_COUNT; k++)
            mae[1 + k] += fabs(out[k] - l->out[i][k]);
        n++;
    }
    if (n > 0)
        for (int k = 0; k <= OUT_COUNT; k++)
            mae[k] /= (double)n;
    return n;
}

bool label_siblings(const LabelSet *set, long k)
{
    if (k < 0 || k + 1 >= set->n)
        return false;
    const Position *a = &set->pos[k], *b = &set->pos[k + 1];
    if (pos_equal(a, b) || pos_pips(a, SIDE_OPPONENT) != pos_pips(b, SIDE_OPPONENT))
        return false;
    const uint8_t *x = a->side[SIDE_ROLLER], *y = b->side[SIDE_ROLLER];
    int hit_a = 0, hit_b = 0; /* blots of the position before, hit in a, in b */
    for (int i = 0; i < POS_BAR; i++) {
        if (x[i] == y[i])
            continue;
        if (x[i] + y[i] != 1) /* a blot in one, hit in the other */
            return false;
        hit_a += y[i], hit_b += x[i];
    }
    return x[POS_BAR] >= hit_a && x[POS_BAR] - hit_a == y[POS_BAR] - hit_b;
}

/* The mover's loss in the run of labels [from, to): the labels value each
 * result for the player on roll there, the other side of the mover. */
static double run_loss(const NnWeights *w, const LabelSet *set, long from, long to)
{
    long pick = from, best = from;
    double pick_eq = 0.0;
    for (long i = from; i < to; i++) {
        double out[OUT_COUNT];
        nn_eval(w, &set->pos[i], out);
        eval_clamp(out);
        double eq = eval_money_equity(out);
        if (i == from || eq < pick_eq)
            pick = i, pick_eq = eq;
        if (eval_money_equity(set->out[i]) < eval_money_equity(set->out[best]))
            best = i;
    }
    return eval_money_equity(set->out[pick]) - eval_money_equity(set->out[best]);
}

long label_set_choice(const NnWeights *w, const LabelSet *set, double *loss)
{
    long runs = 0;
    double sum = 0.0;
    for (long from = 0; from < set->n;) {
        long to = from + 1;
        while (label_siblings(set, to - 1))
            to++;
        bool valued = true;
        for (long i = from; i < to && valued; i++)
            valued = eval_network_values(w->race, &set->pos[i]);
        if (to - from >= 2 && valued) {
            sum += run_loss(w, set, from, to);
            runs++;
        }
        from = to;
    }
    *loss = runs ? sum / (double)runs : 0.0;
    return runs;
}

void label_set_free(LabelSet *set)
{
    free(set->pos);
    free(set->out);
    set->pos = NULL;
    set->out = NULL;
    set->n = 0;
}

uint64_t label_set_hash(const LabelSet *set)
{
    uint64_t h = FNV_OFFSET;
    for (long i = 0; i < set->n; i++) {
        h = fnv_bytes(h, set->pos[i].side, sizeof set->pos[i].side);
        h = fnv_bytes(h, set->out[i], sizeof set->out[i]);
    }
    return h;
}
