# Thin wrapper over CMake.  `make` builds build/bin/xlac; `make test` runs the
# suite; `make asan` builds and runs the suite under ASan+UBSan; `make fuzz`
# builds the libFuzzer targets into build-fuzz/bin.
GEN := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

all: build/CMakeCache.txt
	cmake --build build

build/CMakeCache.txt:
	cmake -S . -B build $(GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo

test: all
	tests/run-tests.sh build

asan:
	cmake -S . -B build-asan $(GEN) -DCMAKE_BUILD_TYPE=Debug -DXLAC_SANITIZE=ON
	cmake --build build-asan
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 tests/run-tests.sh build-asan

fuzz:
	CC=clang cmake -S . -B build-fuzz $(GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXLAC_FUZZ=ON
	cmake --build build-fuzz

clean:
	rm -rf build build-asan build-fuzz

.PHONY: all test asan fuzz clean
