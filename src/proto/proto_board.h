/* proto_board.h - the two requests that carry a FIBS board: a board line
 * (the side to act answers with a move, a cube or a resignation decision)
 * and `evaluation fibsboard` (six numbers). */
#ifndef SHESH_PROTO_BOARD_H
#define SHESH_PROTO_BOARD_H

#include <stdbool.h>

#include "buf.h"
#include "err.h"
#include "proto_config.h"
#include "proto_lex.h"

/* t->tok[first] is the board; the options follow it. Append the complete
 * reply (DBG: lines first when the session has debug on) to out, or return
 * false with err filled and nothing worth keeping in out. The decisions are
 * the player's of w, the thread's worker. */
bool proto_board_answer(const ProtoConfig *cfg, ProtoWorker *w, ProtoSession *s,
                        const ProtoTokens *t, int first, Buf *out, Err *err);
bool proto_board_evaluate(const ProtoConfig *cfg, ProtoWorker *w, ProtoSession *s,
                          const ProtoTokens *t, int first, Buf *out, Err *err);

#endif
