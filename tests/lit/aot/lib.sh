# Shared by the AOT tests: linking generated objects the way a user would
# (with the flags `xlac aot --print-link-flags` prints, nothing else), and
# checking that an object needs nothing outside libxlacrt, libc and libm.

# A sanitizer build's libxlacrt needs the sanitizers' runtimes linked too.
aot_sanitize_flags() {
  local rt
  rt=$(printf '%s\n' $(xlac aot --print-link-flags) | grep 'libxlacrt\.a$' | head -n1)
  if nm -u "$rt" 2>/dev/null | grep -q '__asan_'; then echo "-fsanitize=address,undefined"; fi
}

# aot_cc OUT SOURCES...: a C program linked with the printed flags.
aot_cc() {
  local out=$1
  shift
  # shellcheck disable=SC2046
  cc -std=c11 -Wall -Wextra -Werror -O2 $(aot_sanitize_flags) -o "$out" "$@" $(xlac aot --print-link-flags)
}

# aot_cxx OUT SOURCES...: the same for a C++ program.
aot_cxx() {
  local out=$1
  shift
  # shellcheck disable=SC2046
  c++ -std=c++11 -Wall -Wextra -Werror -O2 $(aot_sanitize_flags) -o "$out" "$@" $(xlac aot --print-link-flags)
}

# check_undefined [--cc CC] OBJECT...: fails, listing them, when an object
# references a symbol that libxlacrt, the C library, libm and the objects
# themselves do not define.
check_undefined() {
  local cc=cc
  if [ "$1" = --cc ]; then
    cc=$2
    shift 2
  fi
  local flags rt allowed libc libm
  flags=$(xlac aot --print-link-flags)
  rt=$(printf '%s\n' $flags | grep 'libxlacrt\.a$' | head -n1)
  if [ "$cc" != cc ]; then rt=${XLACRT_CROSS_LIB:?}; fi
  libc=$($cc -print-file-name=libc.so.6)
  libm=$($cc -print-file-name=libm.so.6)
  allowed=$(mktemp)
  {
    nm --defined-only "$rt" 2>/dev/null | awk 'NF == 3 { print $3 }'
    nm --defined-only "$@" | awk 'NF == 3 { print $3 }' # each other's
    nm -D --defined-only "$libc" "$libm" | awk 'NF == 3 { sub(/@.*/, "", $3); print $3 }'
  } | sort -u >"$allowed"
  local bad
  bad=$(nm -u "$@" | awk 'NF == 2 { print $2 }' | sort -u | comm -23 - "$allowed")
  rm -f "$allowed"
  if [ -n "$bad" ]; then
    echo "undefined symbols outside libxlacrt, libc and libm in $*:" >&2
    echo "$bad" >&2
    return 1
  fi
}
