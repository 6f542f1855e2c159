# xlac_aot.mk - ahead-of-time compilation for projects built with make.
#
#   include /usr/local/lib/cmake/xlac/xlac_aot.mk   # where xlac is installed
#   app: app.o model.o
#   	$(CC) -o $@ $^ $(XLAC_LINK_FLAGS)
#   app.o: model.h
#
# model.o and model.h are made from model.mlir (or model.hlo) by `xlac aot`,
# with the C API prefixed by the file's name (which must be a C identifier);
# XLAC_AOT_FLAGS adds flags (--cpp_class=ns::Class, --target_triple=...).
# XLAC_LINK_FLAGS is what `xlac aot --print-link-flags` prints: the include
# directory, libxlacrt and libm; nothing else is needed.

xlac_aot_dir := $(dir $(lastword $(MAKEFILE_LIST)))
XLAC ?= $(firstword $(wildcard $(xlac_aot_dir)../../../bin/xlac $(xlac_aot_dir)../../../../bin/xlac) xlac)
XLAC_AOT_FLAGS ?=
XLAC_LINK_FLAGS = $(shell $(XLAC) aot --print-link-flags)
CFLAGS += $(filter -I%,$(XLAC_LINK_FLAGS))
CXXFLAGS += $(filter -I%,$(XLAC_LINK_FLAGS))

%.o %.h: %.mlir
	$(XLAC) aot $< -o $*.o --header $*.h --name $(notdir $*) $(XLAC_AOT_FLAGS)

%.o %.h: %.hlo
	$(XLAC) aot $< -o $*.o --header $*.h --name $(notdir $*) $(XLAC_AOT_FLAGS)
