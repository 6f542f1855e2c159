/*
 * xlac-main.c - the `xlac` executable.  All of the command line lives in
 * the library (src/driver) so that it can be tested and reused; this is
 * only the process entry point.
 */
#include "driver/driver.h"

int main(int argc, char **argv) { return xlac_main(argc, argv); }
