/*
 * cpu_features.c - which instruction-set extensions this CPU runs, by the
 * names LLVM gives them ("avx2", "avx512f", "amx-tile", ...).
 *
 * An ahead-of-time object records the features its code was generated for
 * (xlacrt_aot_program.cpu_features); xlacrt_aot_check compares them with
 * these before anything runs, so an object built for a larger CPU is refused
 * with a message instead of dying of an illegal instruction.  A feature is
 * present when CPUID reports it and, for those with register state of their
 * own (AVX, AVX-512, AMX tiles), the operating system saves that state
 * (XCR0).
 */
#include "xlacrt.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

enum { EAX, EBX, ECX, EDX };
/* XCR0 bits a feature's registers need: SSE+AVX state; + opmask and the
   upper ZMM halves and registers; + tile configuration and data */
#define XS_AVX 0x6u
#define XS_AVX512 0xe6u
#define XS_AMX 0x60000u

static const struct feature {
    const char *name;
    unsigned leaf, subleaf;
    int reg, bit;
    unsigned xstate;
} features[] = {
    {"sse3", 1, 0, ECX, 0, 0},
    {"pclmul", 1, 0, ECX, 1, 0},
    {"ssse3", 1, 0, ECX, 9, 0},
    {"fma", 1, 0, ECX, 12, XS_AVX},
    {"cx16", 1, 0, ECX, 13, 0},
    {"sse4.1", 1, 0, ECX, 19, 0},
    {"sse4.2", 1, 0, ECX, 20, 0},
    {"movbe", 1, 0, ECX, 22, 0},
    {"popcnt", 1, 0, ECX, 23, 0},
    {"aes", 1, 0, ECX, 25, 0},
    {"avx", 1, 0, ECX, 28, XS_AVX},
    {"f16c", 1, 0, ECX, 29, XS_AVX},
    {"sse", 1, 0, EDX, 25, 0},
    {"sse2", 1, 0, EDX, 26, 0},
    {"bmi", 7, 0, EBX, 3, 0},
    {"avx2", 7, 0, EBX, 5, XS_AVX},
    {"bmi2", 7, 0, EBX, 8, 0},
    {"avx512f", 7, 0, EBX, 16, XS_AVX512},
    {"avx512dq", 7, 0, EBX, 17, XS_AVX512},
    {"adx", 7, 0, EBX, 19, 0},
    {"avx512ifma", 7, 0, EBX, 21, XS_AVX512},
    {"avx512cd", 7, 0, EBX, 28, XS_AVX512},
    {"sha", 7, 0, EBX, 29, 0},
    {"avx512bw", 7, 0, EBX, 30, XS_AVX512},
    {"avx512vl", 7, 0, EBX, 31, XS_AVX512},
    {"avx512vbmi", 7, 0, ECX, 1, XS_AVX512},
    {"avx512vbmi2", 7, 0, ECX, 6, XS_AVX512},
    {"gfni", 7, 0, ECX, 8, 0},
    {"vaes", 7, 0, ECX, 9, XS_AVX},
    {"vpclmulqdq", 7, 0, ECX, 10, XS_AVX},
    {"avx512vnni", 7, 0, ECX, 11, XS_AVX512},
    {"avx512bitalg", 7, 0, ECX, 12, XS_AVX512},
    {"avx512vpopcntdq", 7, 0, ECX, 14, XS_AVX512},
    {"avx512vp2intersect", 7, 0, EDX, 8, XS_AVX512},
    {"amx-bf16", 7, 0, EDX, 22, XS_AMX},
    {"avx512fp16", 7, 0, EDX, 23, XS_AVX512},
    {"amx-tile", 7, 0, EDX, 24, XS_AMX},
    {"amx-int8", 7, 0, EDX, 25, XS_AMX},
    {"avxvnni", 7, 1, EAX, 4, XS_AVX},
    {"avx512bf16", 7, 1, EAX, 5, XS_AVX512},
    {"lzcnt", 0x80000001u, 0, ECX, 5, 0},
    {"sse4a", 0x80000001u, 0, ECX, 6, 0},
    {"xop", 0x80000001u, 0, ECX, 11, XS_AVX},
    {"fma4", 0x80000001u, 0, ECX, 16, XS_AVX},
};

static unsigned xcr0(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) /* OSXSAVE */
        return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return lo;
}

static int has(const struct feature *f)
{
    unsigned r[4];
    unsigned top = __get_cpuid_max(f->leaf & 0x80000000u, NULL);
    if (top < f->leaf)
        return 0;
    if (f->leaf == 7 && f->subleaf > 0) {
        __cpuid_count(7, 0, r[EAX], r[EBX], r[ECX], r[EDX]);
        if (r[EAX] < f->subleaf)
            return 0;
    }
    __cpuid_count(f->leaf, f->subleaf, r[EAX], r[EBX], r[ECX], r[EDX]);
    if (!(r[f->reg] & (1u << f->bit)))
        return 0;
    return (xcr0() & f->xstate) == f->xstate;
}

int xlacrt_cpu_has(const char *name)
{
    for (size_t i = 0; name && i < sizeof features / sizeof *features; i++)
        if (strcmp(features[i].name, name) == 0)
            return has(&features[i]);
    return -1;
}
#else
int xlacrt_cpu_has(const char *name)
{
    (void)name;
    return -1;
}
#endif

/* The first entry of a comma-separated list that this CPU lacks, copied
   into buf; 0 when it has them all (names it does not know are not held
   against it). */
int xlacrt_cpu_missing(const char *list, char *buf, size_t size)
{
    const char *s = list ? list : "";
    while (*s) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        char name[32];
        if (n > 0 && n < sizeof name) {
            memcpy(name, s, n);
            name[n] = 0;
            if (xlacrt_cpu_has(name) == 0) {
                if (size > 0) {
                    size_t k = n < size - 1 ? n : size - 1;
                    memcpy(buf, name, k);
                    buf[k] = 0;
                }
                return 1;
            }
        }
        s += n;
        if (*s == ',')
            s++;
    }
    return 0;
}
