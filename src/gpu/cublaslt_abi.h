/*
 * cublaslt_abi.h - the part of NVIDIA's cuBLASLt interface the GPU backend
 * calls, declared by us.
 *
 * xlac never includes cublasLt.h and never links the library: it is opened
 * at run time (cublaslt.c) from the user's CUDA or pip installation.  The
 * numbers below are the library's documented values; the names carry our
 * own BLT_ prefix so that a file may include this header next to NVIDIA's,
 * which is what tests/lit/gpu/cublaslt_header.test does to check every
 * value and struct layout here against the installed header.
 *
 * Nothing here depends on the rest of xlac (the test compiles it alone).
 */
#ifndef XLAC_GPU_CUBLASLT_ABI_H
#define XLAC_GPU_CUBLASLT_ABI_H

#include <stddef.h>
#include <stdint.h>

/* cublasStatus_t */
enum {
  BLT_STATUS_SUCCESS = 0,
  BLT_STATUS_NOT_INITIALIZED = 1,
  BLT_STATUS_ALLOC_FAILED = 3,
  BLT_STATUS_INVALID_VALUE = 7,
  BLT_STATUS_ARCH_MISMATCH = 8,
  BLT_STATUS_MAPPING_ERROR = 11,
  BLT_STATUS_EXECUTION_FAILED = 13,
  BLT_STATUS_INTERNAL_ERROR = 14,
  BLT_STATUS_NOT_SUPPORTED = 15,
  BLT_STATUS_LICENSE_ERROR = 16,
};

/* cudaDataType (library_types.h) */
enum { BLT_R_32F = 0, BLT_R_64F = 1, BLT_R_16F = 2, BLT_R_16BF = 14 };

/* cublasComputeType_t */
enum {
  BLT_COMPUTE_32F = 68,
  BLT_COMPUTE_32F_PEDANTIC = 69,
  BLT_COMPUTE_64F = 70,
  BLT_COMPUTE_32F_FAST_TF32 = 77,
};

/* cublasOperation_t */
enum { BLT_OP_N = 0, BLT_OP_T = 1 };

/* cublasLtOrder_t */
enum { BLT_ORDER_COL = 0, BLT_ORDER_ROW = 1 };

/* cublasLtMatrixLayoutAttribute_t: TYPE uint32, ORDER int32, ROWS and
   COLS uint64, LD int64, BATCH_COUNT int32, STRIDED_BATCH_OFFSET int64 */
enum {
  BLT_LAYOUT_TYPE = 0,
  BLT_LAYOUT_ORDER = 1,
  BLT_LAYOUT_ROWS = 2,
  BLT_LAYOUT_COLS = 3,
  BLT_LAYOUT_LD = 4,
  BLT_LAYOUT_BATCH_COUNT = 5,
  BLT_LAYOUT_STRIDED_BATCH_OFFSET = 6,
};

/* cublasLtMatmulDescAttributes_t: COMPUTE_TYPE, SCALE_TYPE, POINTER_MODE,
   TRANSA, TRANSB int32; EPILOGUE uint32; BIAS_POINTER a pointer;
   BIAS_BATCH_STRIDE int64; BIAS_DATA_TYPE int32 */
enum {
  BLT_DESC_COMPUTE_TYPE = 0,
  BLT_DESC_SCALE_TYPE = 1,
  BLT_DESC_POINTER_MODE = 2,
  BLT_DESC_TRANSA = 3,
  BLT_DESC_TRANSB = 4,
  BLT_DESC_EPILOGUE = 7,
  BLT_DESC_BIAS_POINTER = 8,
  BLT_DESC_BIAS_BATCH_STRIDE = 10,
  BLT_DESC_BIAS_DATA_TYPE = 26,
};

/* cublasLtEpilogue_t (the forward ones) */
enum {
  BLT_EPILOGUE_DEFAULT = 1,
  BLT_EPILOGUE_RELU = 2,
  BLT_EPILOGUE_BIAS = 4,
  BLT_EPILOGUE_RELU_BIAS = 6,
  BLT_EPILOGUE_GELU = 32,
  BLT_EPILOGUE_GELU_BIAS = 36,
};

/* cublasLtMatmulPreferenceAttributes_t: MAX_WORKSPACE_BYTES uint64; the
   MIN_ALIGNMENT ones uint32 (the heuristic assumes 256 bytes unless told) */
enum {
  BLT_PREF_MAX_WORKSPACE_BYTES = 1,
  BLT_PREF_MIN_ALIGNMENT_A_BYTES = 5,
  BLT_PREF_MIN_ALIGNMENT_B_BYTES = 6,
  BLT_PREF_MIN_ALIGNMENT_C_BYTES = 7,
  BLT_PREF_MIN_ALIGNMENT_D_BYTES = 8,
};

/* cublasLtMatmulAlgo_t and cublasLtMatmulHeuristicResult_t, opaque but
   for their size and the workspace size and state of a result */
typedef struct BltAlgo {
  uint64_t data[8];
} BltAlgo;

typedef struct BltHeuristic {
  BltAlgo algo;
  size_t workspace_size;
  int state; /* a cublasStatus_t */
  float waves_count;
  int reserved[4];
} BltHeuristic;

typedef int BltStatus;
typedef struct BltContext *BltHandle;
typedef struct BltDesc *BltMatmulDesc;
typedef struct BltLayout *BltMatrixLayout;
typedef struct BltPref *BltPreference;

/* The entry points, by their exported names. */
typedef BltStatus (*BltCreateFn)(BltHandle *h);
typedef BltStatus (*BltDestroyFn)(BltHandle h);
typedef size_t (*BltGetVersionFn)(void);
typedef BltStatus (*BltDescCreateFn)(BltMatmulDesc *d, int compute_type, int scale_type);
typedef BltStatus (*BltDescDestroyFn)(BltMatmulDesc d);
typedef BltStatus (*BltDescSetFn)(BltMatmulDesc d, int attr, const void *buf, size_t bytes);
typedef BltStatus (*BltLayoutCreateFn)(BltMatrixLayout *l, int type, uint64_t rows, uint64_t cols, int64_t ld);
typedef BltStatus (*BltLayoutDestroyFn)(BltMatrixLayout l);
typedef BltStatus (*BltLayoutSetFn)(BltMatrixLayout l, int attr, const void *buf, size_t bytes);
typedef BltStatus (*BltPrefCreateFn)(BltPreference *p);
typedef BltStatus (*BltPrefDestroyFn)(BltPreference p);
typedef BltStatus (*BltPrefSetFn)(BltPreference p, int attr, const void *buf, size_t bytes);
typedef BltStatus (*BltHeuristicFn)(BltHandle h, BltMatmulDesc d, BltMatrixLayout a, BltMatrixLayout b,
                                    BltMatrixLayout c, BltMatrixLayout dl, BltPreference p, int requested,
                                    BltHeuristic *results, int *returned);
typedef BltStatus (*BltMatmulFn)(BltHandle h, BltMatmulDesc d, const void *alpha, const void *A, BltMatrixLayout a,
                                 const void *B, BltMatrixLayout b, const void *beta, const void *C, BltMatrixLayout c,
                                 void *D, BltMatrixLayout dl, const BltAlgo *algo, void *workspace, size_t ws_bytes,
                                 void *stream);

#endif
