# Thin wrapper over CMake.  `make` builds build/bin/xlac; `make test` runs the
# suite; `make tf-plugin` builds libxlac_tf.so for TensorFlow; `make asan`
# builds and runs the suite under ASan+UBSan; `make tsan` builds build-tsan
# with ThreadSanitizer and runs the tests that use threads; `make fuzz`
# builds the libFuzzer targets into build-fuzz/bin.
GEN := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

all: build/CMakeCache.txt
	cmake --build build

build/CMakeCache.txt:
	cmake -S . -B build $(GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo

test: all
	tests/run-tests.sh build

# The TensorFlow device library (plugins/tensorflow), built against the
# TensorFlow of XLAC_TF_VENV (default ~/.cache/xlac-tf) into build/lib
# beside libxlac_pjrt.so; not part of `all`, which needs no TensorFlow.
XLAC_TF_VENV ?= $(HOME)/.cache/xlac-tf
tf-plugin: all
	PYTHON=$(XLAC_TF_VENV)/bin/python plugins/tensorflow/build.sh build/lib

asan:
	cmake -S . -B build-asan $(GEN) -DCMAKE_BUILD_TYPE=Debug -DXLAC_SANITIZE=ON
	cmake --build build-asan
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 tests/run-tests.sh build-asan

# The tests that run threads (replicas and partitions, the thread pool, the
# --timeout timer), as run-tests.sh filters.  (Not the GPU simulator's runs:
# GPGPU-Sim's device memory under ThreadSanitizer's shadow outgrows the
# machine's memory.)  Reports go to files, so that a
# race fails the target even in a test that expects its program to fail.
TSAN_TESTS := test_collectives interp/collectives run/collectives replicas deadlock run/timeout test_cpu_ test_runtime_gemm test_runtime_amx test_rt_linalg test_api \
	cpu/transpose cpu/gemv cpu/rng cpu/conv cpu/compile_split cpu/window_select_scatter_disjoint test_tcp_comm
tsan:
	cmake -S . -B build-tsan $(GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXLAC_TSAN=ON
	cmake --build build-tsan
	rm -rf build-tsan/tsan-reports && mkdir -p build-tsan/tsan-reports
	@fail=0; for t in $(TSAN_TESTS); do \
	  echo "tsan: $$t"; \
	  TSAN_OPTIONS="log_path=$(CURDIR)/build-tsan/tsan-reports/report $$TSAN_OPTIONS" \
	    tests/run-tests.sh build-tsan $$t || fail=1; \
	done; \
	if [ -n "$$(ls build-tsan/tsan-reports)" ]; then \
	  cat build-tsan/tsan-reports/*; echo "tsan: ThreadSanitizer reported races (above)"; fail=1; \
	fi; \
	exit $$fail

fuzz:
	CC=clang cmake -S . -B build-fuzz $(GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXLAC_FUZZ=ON
	cmake --build build-fuzz

clean:
	rm -rf build build-asan build-tsan build-fuzz

.PHONY: all test tf-plugin asan tsan fuzz clean
