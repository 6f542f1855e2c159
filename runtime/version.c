/* placeholder so the runtime library is never empty during bring-up */
#include "xlacrt.h"
int xlacrt_abi_version(void) { return XLACRT_ABI_VERSION; }
