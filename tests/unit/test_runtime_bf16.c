/* The runtime's float and double to bfloat16 conversions (runtime/bf16.c),
   which JIT code and AOT objects call as __truncsfbf2 and __truncdfbf2 on
   CPUs without AVX512-BF16: round to nearest even against a reference
   that picks the nearer of the two neighbours, subnormals kept, NaNs quiet
   with their sign, a double rounded once (not through float), and the
   helpers' calling convention (the bits in the low half of xmm0). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "test_util.h"
#include "xlacrt.h"

#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

static float bits_f32(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}

static double bf16_value(uint16_t h) { return (double)bits_f32((uint32_t)h << 16); }

/* the nearest bfloat16 to a finite x, ties to the even one: the two
   neighbours by truncation, compared in long double (exact here) */
static uint16_t reference(long double x, uint16_t down) {
  uint16_t up = (uint16_t)(down + 1);
  if ((down & 0x7fff) == 0x7f7f) { /* the largest finite: up is infinity */
    long double max = fabsl((long double)bf16_value(down)), half_ulp = ldexpl(1.0L, 127 - 8);
    if (fabsl(x) < max + half_ulp || (fabsl(x) == max + half_ulp && !(down & 1))) return down;
    return up;
  }
  long double a = fabsl(x - (long double)bf16_value(down)), b = fabsl((long double)bf16_value(up) - x);
  if (a < b) return down;
  if (b < a) return up;
  return (down & 1) ? up : down;
}

int main(void) {
  /* floats: every 16-bit top with a spread of lower halves */
  static const uint32_t lows[] = {0x0000, 0x0001, 0x3fff, 0x7fff, 0x8000, 0x8001, 0xbfff, 0xffff, 0x1234};
  int bad = 0;
  for (uint32_t top = 0; top < 0x10000; top++)
    for (size_t i = 0; i < sizeof lows / sizeof *lows; i++) {
      uint32_t b = top << 16 | lows[i];
      float f = bits_f32(b);
      uint16_t got = xlacrt_f32_to_bf16(f);
      uint16_t want;
      if (isnan(f))
        want = (uint16_t)((b & 0x7f0000) ? top : (top | 0x40));
      else if (isinf(f))
        want = (uint16_t)top;
      else
        want = reference(f, (uint16_t)top);
      if (got != want && bad++ < 5) fprintf(stderr, "f32 %08x: got %04x, want %04x\n", b, got, want);
    }
  CHECK_EQ_I(bad, 0);

  /* doubles: a value just above a tie of bfloat16 that float would round
     onto the tie (then to even: wrong), ties themselves, the largest
     finite and past it, subnormals, signs, NaN */
  struct {
    double d;
    uint16_t want;
  } cases[] = {
      {1.0 + 0x1p-8 + 0x1p-30, 0x3f81},  {1.0 + 0x1p-8, 0x3f80},           {1.0 + 0x1p-8 + 0x1p-7, 0x3f82},
      {-(1.0 + 0x1p-8 + 0x1p-30), 0xbf81}, {1.0 + 0x1p-8 - 0x1p-40, 0x3f80}, {0x1.fep127, 0x7f7f},
      {0x1.ff8p127, 0x7f80},             {0x1.fefffffp127, 0x7f7f},       {0x1.ffp127, 0x7f80},       {1e300, 0x7f80},
      {-1e300, 0xff80},                  {0x1p-133, 0x0001},               {0x1p-134, 0x0000},
      {0x1p-134 + 0x1p-160, 0x0001},     {-0x1p-140, 0x8000},              {0.0, 0x0000},
      {-0.0, 0x8000},                    {3.0, 0x4040},                    {1e-50, 0x0000},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    uint16_t got = xlacrt_f64_to_bf16(cases[i].d);
    if (got != cases[i].want) fprintf(stderr, "f64 %a: got %04x, want %04x\n", cases[i].d, got, cases[i].want);
    CHECK_EQ_I(got, cases[i].want);
  }
  uint16_t qn = xlacrt_f64_to_bf16(-NAN);
  CHECK(((qn & 0x7fc0) == 0x7fc0) && (qn & 0x8000));

  /* the helpers by their compiler-runtime names, called as LLVM calls them */
  int n = -1;
  const xlacrt_symbol *syms = xlacrt_compiler_rt_symbols(&n);
#if defined(__x86_64__) && defined(__SSE2__)
  CHECK_EQ_I(n, 2);
  for (int i = 0; syms && i < n; i++) {
    if (strcmp(syms[i].name, "__truncsfbf2") == 0) {
      __m128 (*fn)(float) = (__m128 (*)(float))syms[i].addr;
      int r = _mm_cvtsi128_si32(_mm_castps_si128(fn(1.0f + 0x1p-8f + 0x1p-20f)));
      CHECK_EQ_I(r & 0xffff, 0x3f81);
    } else if (strcmp(syms[i].name, "__truncdfbf2") == 0) {
      __m128 (*fn)(double) = (__m128 (*)(double))syms[i].addr;
      int r = _mm_cvtsi128_si32(_mm_castps_si128(fn(1.0 + 0x1p-8 + 0x1p-30)));
      CHECK_EQ_I(r & 0xffff, 0x3f81);
    } else {
      CHECK(!"an unexpected helper");
    }
  }
#else
  CHECK(n >= 0);
#endif
  TEST_SUMMARY();
}
