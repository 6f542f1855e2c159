/* test_runtime_amx_hw.c - the bfloat16 and int8 products on the real AMX
 * instructions, against naive references (tile_gemm_cases.h), the same
 * bits on pools of 1 and 3.  Where the CPU or the OS does not allow AMX,
 * the test is skipped (exit 77) with the reason; test_runtime_amx runs the
 * same kernels on emulated tiles on every host. */
#include "tile_gemm_cases.h"

int main(void)
{
    if (!xlacrt_gemm_set_isa("amx")) {
        printf("AMX not usable on this host: %s\n", xlacrt_amx_status());
        return 77;
    }
    CHECK_STR(xlacrt_gemm_isa(), "amx");
    CHECK_STR(xlacrt_gemm_s8_isa(), "amx");
    tg_flush_denormals(1);
    xlacrt_pool *p1 = xlacrt_pool_create(1), *p3 = xlacrt_pool_create(3);
    CHECK(p1 && p3);
    tg_run_all(p3, p1, 200, 40);
    xlacrt_gemm_set_isa("best");
    xlacrt_pool_destroy(p1);
    xlacrt_pool_destroy(p3);
    TEST_SUMMARY();
}
