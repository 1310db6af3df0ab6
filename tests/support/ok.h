/* ok.h - OK(call): the call, which reports through an Err named e_, must
 * succeed; otherwise the test fails naming the call and its reason. For
 * the tests that drive the match state machine and the records step by
 * step. Include after <cmocka.h> and a header that defines Err. */
#ifndef SHESH_TEST_OK_H
#define SHESH_TEST_OK_H

#define OK(call)                                                                           \
    do {                                                                                   \
        Err e_ = {{0}};                                                                    \
        if (!(call))                                                                       \
            fail_msg("%s refused: %s", #call, e_.text);                                    \
    } while (0)

#endif
