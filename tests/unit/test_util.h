/* test_util.h - a tiny assertion harness for the C unit tests.  Each test
   executable ends with TEST_SUMMARY(), which prints "N passed, N failed" and
   returns the exit status. */
#ifndef XLAC_TEST_UTIL_H
#define XLAC_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int test_passed, test_failed;

#define CHECK(cond)                                                           \
  do {                                                                        \
    if (cond) {                                                               \
      test_passed++;                                                          \
    } else {                                                                  \
      test_failed++;                                                          \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                         \
  } while (0)

#define CHECK_STR(a, b)                                                             \
  do {                                                                              \
    const char *a_ = (a), *b_ = (b);                                                \
    if (a_ && b_ && strcmp(a_, b_) == 0) {                                          \
      test_passed++;                                                                \
    } else {                                                                        \
      test_failed++;                                                                \
      fprintf(stderr, "%s:%d: got \"%s\", expected \"%s\"\n", __FILE__, __LINE__, \
              a_ ? a_ : "(null)", b_ ? b_ : "(null)");                              \
    }                                                                               \
  } while (0)

#define CHECK_EQ_I(a, b)                                                                \
  do {                                                                                  \
    long long a_ = (long long)(a), b_ = (long long)(b);                                 \
    if (a_ == b_) {                                                                     \
      test_passed++;                                                                    \
    } else {                                                                            \
      test_failed++;                                                                    \
      fprintf(stderr, "%s:%d: %s = %lld, expected %lld\n", __FILE__, __LINE__, #a, a_, b_); \
    }                                                                                   \
  } while (0)

#define CHECK_EQ_F(a, b)                                                                    \
  do {                                                                                      \
    double a_ = (a), b_ = (b);                                                              \
    if (a_ == b_ || (isnan(a_) && isnan(b_))) {                                             \
      test_passed++;                                                                        \
    } else {                                                                                \
      test_failed++;                                                                        \
      fprintf(stderr, "%s:%d: %s = %.17g, expected %.17g\n", __FILE__, __LINE__, #a, a_, b_); \
    }                                                                                       \
  } while (0)

#define TEST_SUMMARY()                                            \
  do {                                                            \
    printf("%d passed, %d failed\n", test_passed, test_failed);   \
    return test_failed ? 1 : 0;                                   \
  } while (0)

#endif
