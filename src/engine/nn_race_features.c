/* nn_race_features.c - the hand-made inputs of a race network (see
 * nn_race_features.h). */
#include "nn_race_features.h"

static float at_most_1(float x)
{
    return x > 1.0f ? 1.0f : x;
}

static void side_features(const uint8_t *s, float f[NN_RACE_FEATURES])
{
    int outside = 0, carry = 0, crossings = 0, in_zone = 0, zone_pips = 0, on = 0, pips = 0,
        stack = 0, top = -1;
    for (int i = 0; i < POS_SLOTS; i++) {
        int c = s[i];
        if (!c)
            continue;
        on += c;
        pips += c * (i + 1);
        stack = c > stack ? c : stack;
        if (i < 6) {
            top = i > top ? i : top;
            continue;
        }
        outside += c;
        carry += c * (i - 5);
        crossings += c * (i >= 24 ? 4 : i / 6);
        if (i >= 18) {
            in_zone += c;
            zone_pips += c * (i - 17);
        }
    }
    int gaps = 0;
    for (int i = 0; i < top; i++)
        gaps += s[i] == 0;
    f[NN_RACE_OUTSIDE] = outside / 15.0f;
    f[NN_RACE_CARRY] = at_most_1(carry / 60.0f);
    f[NN_RACE_CROSSINGS] = at_most_1(crossings / 30.0f);
    f[NN_RACE_IN_ZONE] = in_zone / 15.0f;
    f[NN_RACE_ZONE_PIPS] = at_most_1(zone_pips / 30.0f);
    f[NN_RACE_NONE_OFF] = on == POS_CHECKERS ? 1.0f : 0.0f;
    f[NN_RACE_GAPS] = gaps / 5.0f;
    f[NN_RACE_WASTAGE] = (3 * s[0] + 2 * s[1] + s[2]) / 45.0f;
    f[NN_RACE_STACK] = stack / 15.0f;
    f[NN_RACE_ROLLS] = at_most_1((float)(pips + 2 * on) / (49.0f / 6.0f) / 20.0f);
}

static void model_features(const RaceSideModel *m, float f[NN_RACE_FEATURES])
{
    f[NN_RACE_MODEL_WIN] = (float)m->win;
    f[NN_RACE_MODEL_GAMMON] = (float)m->gammon;
    f[NN_RACE_MODEL_BG] = (float)m->backgammon;
    f[NN_RACE_OFF_MEAN] = at_most_1((float)(m->off_mean / 30.0));
    f[NN_RACE_OFF_SD] = at_most_1((float)(m->off_sd / 5.0));
    f[NN_RACE_FIRST_MEAN] = at_most_1((float)(m->first_mean / 15.0));
    f[NN_RACE_FIRST_SD] = at_most_1((float)(m->first_sd / 5.0));
    f[NN_RACE_CLEAR_MEAN] = at_most_1((float)(m->clear_mean / 10.0));
}

void nn_race_features(const Position *p, const RaceSideModel model[2], int count,
                      float out[2][NN_RACE_FEATURES])
{
    side_features(p->side[SIDE_ROLLER], out[0]);
    side_features(p->side[SIDE_OPPONENT], out[1]);
    if (count <= NN_RACE_FEATURES_FIRST)
        return;
    static const RaceSideModel none[2];
    model = model ? model : none;
    model_features(&model[0], out[0]);
    model_features(&model[1], out[1]);
}
