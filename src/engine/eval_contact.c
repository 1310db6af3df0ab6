/* eval_contact.c - calibrated pubeval for contact positions (see
 * eval_contact.h). The coefficients live in eval_contact_model.c, the file
 * `shesh calibrate` writes. */
#include "eval_contact.h"

#include <math.h>

#include "pubeval.h"

static int home_points(const uint8_t *side)
{
    int n = 0;
    for (int i = 0; i < 6; i++)
        n += side[i] >= 2;
    return n;
}

static int back_checkers(const uint8_t *side)
{
    int n = 0;
    for (int i = 18; i < POS_SLOTS; i++)
        n += side[i];
    return n;
}

void eval_contact_features(const Position *p, double f[CONTACT_FEATURES])
{
    const uint8_t *me = p->side[SIDE_ROLLER], *opp = p->side[SIDE_OPPONENT];
    Position swapped = *p;
    pos_swap(&swapped);
    int my_pips = pos_pips(p, SIDE_ROLLER), opp_pips = pos_pips(p, SIDE_OPPONENT);
    f[CF_BIAS] = 1.0;
    f[CF_PUBEVAL_OPP] = pubeval_score(&swapped, false) / 10.0;
    f[CF_PUBEVAL_ME] = pubeval_score(p, false) / 10.0;
    f[CF_PIP_LEAD] = (opp_pips - my_pips) / 100.0;
    f[CF_PIPS] = (opp_pips + my_pips) / 200.0;
    f[CF_MY_OFF] = (POS_CHECKERS - pos_checkers(p, SIDE_ROLLER)) / 15.0;
    f[CF_OPP_OFF] = (POS_CHECKERS - pos_checkers(p, SIDE_OPPONENT)) / 15.0;
    f[CF_MY_BAR] = me[POS_BAR];
    f[CF_OPP_BAR] = opp[POS_BAR];
    f[CF_MY_BACK] = back_checkers(me) / 15.0;
    f[CF_OPP_BACK] = back_checkers(opp) / 15.0;
    f[CF_MY_HOME] = home_points(me) / 6.0;
    f[CF_OPP_HOME] = home_points(opp) / 6.0;
}

static double logistic(const double *coef, const double f[CONTACT_FEATURES])
{
    double z = 0.0;
    for (int i = 0; i < CONTACT_FEATURES; i++)
        z += coef[i] * f[i];
    return 1.0 / (1.0 + exp(-z));
}

void eval_contact_model(const ContactModel *m, const double f[CONTACT_FEATURES],
                        double out[OUT_COUNT])
{
    double win = logistic(m->coef[CONTACT_WIN], f);
    double wg = 0.0, wbg = 0.0, lg = 0.0, lbg = 0.0;
    /* Nobody loses a gammon after bearing a checker off. */
    if (f[CF_OPP_OFF] == 0.0) {
        wg = win * logistic(m->coef[CONTACT_WIN_GAMMON], f);
        wbg = wg * logistic(m->coef[CONTACT_WIN_BG], f);
    }
    if (f[CF_MY_OFF] == 0.0) {
        lg = (1.0 - win) * logistic(m->coef[CONTACT_LOSE_GAMMON], f);
        lbg = lg * logistic(m->coef[CONTACT_LOSE_BG], f);
    }
    out[OUT_WIN] = win;
    out[OUT_WIN_GAMMON] = wg;
    out[OUT_WIN_BG] = wbg;
    out[OUT_LOSE_GAMMON] = lg;
    out[OUT_LOSE_BG] = lbg;
}

void eval_contact(const Position *p, double out[OUT_COUNT])
{
    double f[CONTACT_FEATURES];
    eval_contact_features(p, f);
    eval_contact_model(&contact_model_default, f, out);
}
