/*
 * version.h - the xlac release (`xlac --version`; part of the compile
 * cache's key, so entries written by another release are never used).
 */
#ifndef XLAC_SUPPORT_VERSION_H
#define XLAC_SUPPORT_VERSION_H

#define XLAC_VERSION "0.1.0"

#endif
