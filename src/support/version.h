/*
 * version.h - the xlac release (`xlac --version`; part of the compile
 * cache's key, so entries written by another release are never used).
 */
#ifndef XLAC_SUPPORT_VERSION_H
#define XLAC_SUPPORT_VERSION_H

#include "xlac/xlac.h"

#define XLAC_VERSION_STR2(x) #x
#define XLAC_VERSION_STR(x) XLAC_VERSION_STR2(x)
/* "MAJOR.MINOR.PATCH", from the public header's numbers */
#define XLAC_VERSION \
  XLAC_VERSION_STR(XLAC_VERSION_MAJOR) "." XLAC_VERSION_STR(XLAC_VERSION_MINOR) "." XLAC_VERSION_STR(XLAC_VERSION_PATCH)

#endif
