/* proto_debug.c - the DBG: lines of `set debug on` (see proto_debug.h). */
#include "proto_debug.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void proto_debug_line(Buf *out, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    buf_printf(out, "DBG: %s\n", line);
}

/* The 3-character cell of one point in row r (0 = next to the edge of the
 * board, 4 = the innermost row) for n checkers drawn with ch. */
static void cell(char dst[3], int n, int r, char ch)
{
    memcpy(dst, "   ", 3);
    if (n > 5 && r == 4) {
        char num[4];
        snprintf(num, sizeof num, "%2d", n > 99 ? 99 : n);
        dst[0] = num[0];
        dst[1] = num[1];
    } else if (n > r) {
        dst[1] = ch;
    }
}

/* Checkers on X's point k (1..24) as (count, char). */
static int point(const Position *p, int k, char *ch)
{
    int x = p->side[SIDE_ROLLER][k - 1];
    int o = p->side[SIDE_OPPONENT][24 - k];
    /* Both sides on one point cannot pass validation; draw X if it happens. */
    *ch = x ? 'X' : 'O';
    return x ? x : o;
}

/* One row of checkers: the left half holds points left[0..5], the right
 * half right[0..5]; bar_n checkers (drawn with bar_ch) in the BAR column. */
static void row(Buf *out, const Position *p, const int left[6], const int right[6], int r,
                int bar_n, char bar_ch)
{
    char line[64];
    char *q = line;
    *q++ = ' ';
    *q++ = '|';
    for (int i = 0; i < 6; i++, q += 3) {
        char ch;
        int n = point(p, left[i], &ch);
        cell(q, n, r, ch);
    }
    *q++ = '|';
    cell(q, bar_n, r, bar_ch);
    q += 3;
    *q++ = '|';
    for (int i = 0; i < 6; i++, q += 3) {
        char ch;
        int n = point(p, right[i], &ch);
        cell(q, n, r, ch);
    }
    *q++ = '|';
    *q = '\0';
    proto_debug_line(out, "%s", line);
}

void proto_debug_board(Buf *out, const Position *p)
{
    static const int top_left[6] = {13, 14, 15, 16, 17, 18};
    static const int top_right[6] = {19, 20, 21, 22, 23, 24};
    static const int bottom_left[6] = {12, 11, 10, 9, 8, 7};
    static const int bottom_right[6] = {6, 5, 4, 3, 2, 1};
    int o_bar = p->side[SIDE_OPPONENT][POS_BAR];
    int x_bar = p->side[SIDE_ROLLER][POS_BAR];

    proto_debug_line(out, " +13-14-15-16-17-18------19-20-21-22-23-24-+");
    for (int r = 0; r < 5; r++)
        row(out, p, top_left, top_right, r, o_bar, 'O');
    proto_debug_line(out, " |                  |BAR|                  |");
    for (int r = 4; r >= 0; r--)
        row(out, p, bottom_left, bottom_right, r, x_bar, 'X');
    proto_debug_line(out, " +12-11-10--9--8--7-------6--5--4--3--2--1-+");
    proto_debug_line(out, " Off: X %d, O %d   Pips: X %d, O %d",
                     POS_CHECKERS - pos_checkers(p, SIDE_ROLLER),
                     POS_CHECKERS - pos_checkers(p, SIDE_OPPONENT), pos_pips(p, SIDE_ROLLER),
                     pos_pips(p, SIDE_OPPONENT));
}
