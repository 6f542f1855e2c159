/*
 * bf16.c - float and double to bfloat16 for generated code on CPUs without
 * an instruction for it.  LLVM lowers such a conversion (and the rounding
 * after bfloat arithmetic it computes in float) to calls of __truncsfbf2
 * and __truncdfbf2, the compiler runtime's names, which older C runtimes
 * lack (GCC 12's libgcc has the half ones only): a JIT finds them through
 * xlacrt_compiler_rt_symbols, an AOT object links them from libxlacrt.
 *
 * Round to nearest even, subnormals kept.  A NaN keeps its sign and top
 * payload bits and is made quiet when its payload lay only in the dropped
 * bits (so it does not become an infinity): the code generator's own
 * conversion (codegen/cg.c) does the same.  A double is first rounded to
 * float toward zero with the inexactness kept in the last bit ("round to
 * odd"), which makes the second rounding exact-once: float has more than
 * bfloat16's 8 + 2 bits.
 *
 * The bfloat16 comes back where LLVM expects it, in the low 16 bits of the
 * first floating-point return register (xmm0 on x86-64, h0 on AArch64).
 */
#include <stdint.h>
#include <string.h>

#include "xlacrt.h"

static uint16_t f32_to_bf16(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  if (f != f) return (uint16_t)((b & 0x7f0000) ? b >> 16 : (b | 0x400000) >> 16);
  return (uint16_t)((b + 0x7fff + ((b >> 16) & 1)) >> 16);
}

static uint16_t f64_to_bf16(double d) {
  float f = (float)d;
  if (d == d && f == f && (double)f != d && f - f == 0) { /* inexact, finite */
    uint32_t b;
    memcpy(&b, &f, 4);
    if ((double)f > d ? f > 0 : f < 0) b--; /* toward zero (a magnitude one step down) */
    b |= 1;
    memcpy(&f, &b, 4);
  }
  return f32_to_bf16(f);
}

#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
typedef __m128 bf16_ret;
static bf16_ret bf16_return(uint16_t h) { return _mm_castsi128_ps(_mm_cvtsi32_si128(h)); }
#define HAVE_BF16_HELPERS 1
#elif defined(__aarch64__) && defined(__FLT16_MAX__)
typedef _Float16 bf16_ret;
static bf16_ret bf16_return(uint16_t h) {
  bf16_ret r;
  memcpy(&r, &h, 2);
  return r;
}
#define HAVE_BF16_HELPERS 1
#endif

#ifdef HAVE_BF16_HELPERS
bf16_ret __truncsfbf2(float f);
bf16_ret __truncdfbf2(double d);
bf16_ret __truncsfbf2(float f) { return bf16_return(f32_to_bf16(f)); }
bf16_ret __truncdfbf2(double d) { return bf16_return(f64_to_bf16(d)); }

static const xlacrt_symbol helpers[] = {
    {"__truncsfbf2", (void *)__truncsfbf2},
    {"__truncdfbf2", (void *)__truncdfbf2},
};

const xlacrt_symbol *xlacrt_compiler_rt_symbols(int *n) {
  *n = (int)(sizeof helpers / sizeof helpers[0]);
  return helpers;
}
#else
const xlacrt_symbol *xlacrt_compiler_rt_symbols(int *n) {
  *n = 0;
  return NULL;
}
#endif

uint16_t xlacrt_f32_to_bf16(float f) { return f32_to_bf16(f); }
uint16_t xlacrt_f64_to_bf16(double d) { return f64_to_bf16(d); }
