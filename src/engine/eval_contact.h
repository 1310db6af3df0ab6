/* eval_contact.h - chances in a contact position from pubeval.
 *
 * Pubeval gives a score, not chances. A few logistic models turn it into
 * the five outputs: P(win) = s(b . f), P(win gammon | win) = s(g . f), and
 * so on, where s is the logistic function and f a short feature vector:
 * pubeval's score of the position for each side, the pip counts, checkers
 * borne off, on the bar and back, home points made. The coefficients were
 * fitted by `shesh calibrate` on self-play games (docs/engine.md says how
 * and how well); gammons are exactly 0 once the loser has borne off. */
#ifndef SHESH_EVAL_CONTACT_H
#define SHESH_EVAL_CONTACT_H

#include "eval_outputs.h"
#include "position.h"

/* Feature slots, in the order eval_contact_features fills them. */
enum {
    CF_BIAS,
    CF_PUBEVAL_OPP, /* pubeval of the position for the side that just moved */
    CF_PUBEVAL_ME,  /* ... and as if the player on roll had just moved */
    CF_PIP_LEAD,    /* (opponent's pips - mine) / 100 */
    CF_PIPS,        /* (both pip counts) / 200: how far the game has to go */
    CF_MY_OFF,      /* checkers borne off / 15 */
    CF_OPP_OFF,
    CF_MY_BAR, /* checkers on the bar */
    CF_OPP_BAR,
    CF_MY_BACK, /* checkers in the other side's home board or on the bar / 15 */
    CF_OPP_BACK,
    CF_MY_HOME, /* home board points made / 6 */
    CF_OPP_HOME,
    CONTACT_FEATURES
};

/* The models, in the order of their coefficient rows. */
enum {
    CONTACT_WIN,        /* P(win) */
    CONTACT_WIN_GAMMON, /* P(gammon | win), opponent has nothing off */
    CONTACT_WIN_BG,     /* P(backgammon | gammon win) */
    CONTACT_LOSE_GAMMON,
    CONTACT_LOSE_BG,
    CONTACT_MODELS
};

typedef struct ContactModel {
    double coef[CONTACT_MODELS][CONTACT_FEATURES];
} ContactModel;

/* The fitted model compiled in. */
extern const ContactModel contact_model_default;

/* Features of a position (player on roll about to roll). */
void eval_contact_features(const Position *p, double f[CONTACT_FEATURES]);

/* The outputs from given features and model. */
void eval_contact_model(const ContactModel *m, const double f[CONTACT_FEATURES],
                        double out[OUT_COUNT]);

void eval_contact(const Position *p, double out[OUT_COUNT]);

#endif
