/* rollout_sums.c - a rollout's exact sums (rollout_sums.h). */
#include "rollout_sums.h"

#include <math.h>
#include <string.h>

/* 10^38 - 1: the largest magnitude a sum may hold. */
static RolloutWide wide_max(void)
{
    RolloutWide m = 1;
    for (int i = 0; i < ROLLOUT_WIDE_DIGITS; i++)
        m *= 10;
    return m - 1;
}

void rollout_sums_init(RolloutSums *s)
{
    memset(s, 0, sizeof *s);
}

void rollout_sums_add(RolloutSums *s, const double v[ROLLOUT_VALUES])
{
    for (int k = 0; k < ROLLOUT_VALUES; k++) {
        double x = v[k];
        if (!(x == x))
            x = 0; /* a NaN would be a bug; it must not poison the sums */
        x = x > ROLLOUT_VALUE_MAX ? ROLLOUT_VALUE_MAX : x < -ROLLOUT_VALUE_MAX ? -ROLLOUT_VALUE_MAX : x;
        RolloutWide q = (RolloutWide)llround(x / ROLLOUT_QUANTUM);
        s->sum[k] += q;
        s->sum_sq[k] += q * q;
    }
    s->trials++;
}

/* a + b within +-wide_max(), or false. */
static bool wide_add(RolloutWide a, RolloutWide b, RolloutWide *out)
{
    RolloutWide m = wide_max();
    if (a > m || a < -m || b > m || b < -m)
        return false;
    if (b > 0 ? a > m - b : a < -m - b)
        return false;
    *out = a + b;
    return true;
}

bool rollout_sums_merge(RolloutSums *into, const RolloutSums *add, Err *err)
{
    RolloutSums r = *into;
    if (add->trials < 0 || r.trials < 0 || r.trials > INT64_MAX - add->trials)
        return err_set(err, "the trial counts do not add up");
    r.trials += add->trials;
    for (int k = 0; k < ROLLOUT_VALUES; k++)
        if (!wide_add(r.sum[k], add->sum[k], &r.sum[k]) ||
            !wide_add(r.sum_sq[k], add->sum_sq[k], &r.sum_sq[k]))
            return err_set(err, "a sum is out of range (more than %d digits)",
                           ROLLOUT_WIDE_DIGITS);
    *into = r;
    return true;
}

double rollout_sums_mean(const RolloutSums *s, int k)
{
    if (s->trials <= 0)
        return 0.0;
    return (double)((long double)s->sum[k] / (long double)s->trials * ROLLOUT_QUANTUM);
}

double rollout_sums_se(const RolloutSums *s, int k)
{
    if (s->trials < 2)
        return 0.0;
    long double n = (long double)s->trials, sum = (long double)s->sum[k];
    long double var = ((long double)s->sum_sq[k] - sum * sum / n) / (n - 1);
    if (!(var > 0))
        return 0.0;
    return (double)(sqrtl(var / n) * ROLLOUT_QUANTUM);
}

const char *rollout_wide_text(RolloutWide x, char *buf)
{
    char digits[ROLLOUT_WIDE_TEXT];
    int n = 0;
    bool negative = x < 0;
    /* Digit by digit from the remainder's magnitude: -x may not exist. */
    do {
        int d = (int)(x % 10);
        digits[n++] = (char)('0' + (d < 0 ? -d : d));
        x /= 10;
    } while (x != 0 && n < ROLLOUT_WIDE_TEXT - 2);
    int i = 0;
    if (negative)
        buf[i++] = '-';
    while (n > 0)
        buf[i++] = digits[--n];
    buf[i] = '\0';
    return buf;
}

bool rollout_wide_read(const char *s, RolloutWide *out, Err *err)
{
    const char *p = s;
    bool negative = *p == '-';
    if (negative)
        p++;
    size_t n = strlen(p);
    if (n < 1 || n > ROLLOUT_WIDE_DIGITS || (n > 1 && p[0] == '0') || (negative && !strcmp(p, "0")))
        return err_set(err, "a sum is not a whole number of 1 to %d digits", ROLLOUT_WIDE_DIGITS);
    RolloutWide x = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return err_set(err, "a sum is not a whole number of 1 to %d digits",
                           ROLLOUT_WIDE_DIGITS);
        x = x * 10 + (p[i] - '0');
    }
    *out = negative ? -x : x;
    return true;
}
