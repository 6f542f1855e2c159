# Names the command line chooses (--name, --cpp_class, --entry_point):
# every one accepted gives a header that compiles as C and as C++ with
# -Wall -Werror (and an object that links), every one that would not, or
# that would take a name of the C library's, of C++'s or of xlac's, is
# refused with exit status 1 and a message (docs/aot.md, "Names").
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
t=$1
rm -rf "$t" && mkdir -p "$t"
cd "$t"
hlo=$here/test_graph_tfmatmul.hlo
inc=$(printf '%s\n' $(xlac aot --print-link-flags) | grep '^-I')

compiles() { # HEADER
  printf '#include <stdint.h>\n#include <stdlib.h>\n#include <string.h>\n#include "%s"\nint main(void) { return 0; }\n' \
    "$1" >use.c
  cc -std=c11 -Wall -Wextra -Werror $inc -I. -c use.c -o use_c.o
  c++ -std=c++11 -Wall -Wextra -Werror $inc -I. -x c++ -c use.c -o use_cc.o
}

refused() { # WHAT-THE-MESSAGE-SAYS xlac-aot-arguments...
  local want=$1
  shift
  if xlac aot "$hlo" -o r.o --header r.h "$@" 2>err.txt; then
    echo "accepted: $*" >&2
    return 1
  fi
  cat err.txt
  grep -qF "xlac aot: error: $want" err.txt
  test ! -e r.o && test ! -e r.h
}

# accepted: odd, but nothing in the header clashes with them
for n in m _m model2 Model sizes int8x program create t program_shape entry MODEL; do
  xlac aot "$hlo" -o a.o --header a.h --name "$n" --cpp_class=ns::Model --gen_name_to_index --gen_program_shape
  compiles a.h
done
for c in Foo::Foo std::C a::b::c::Model ::ns::Model tensorflow::Model arguments Args kNum error Result run x_y_prod \
  ns::Run_ ns::m; do
  xlac aot "$hlo" -o a.o --header a.h --name m --cpp_class="$c" --gen_name_to_index --gen_program_shape
  compiles a.h
done
# an entry point of one's own links, and is what the object exports
xlac aot "$hlo" -o e.o --header e.h --name e --entry_point=my_matmul
nm e.o | grep -q ' T my_matmul$'
printf '#include "e.h"\nint main(void) { e_t *m = e_create(0); int r = e_run(m); e_destroy(m); return r; }\n' >e_main.c
aot_cc e_main e_main.c e.o -I.
./e_main

# refused --name: C++ keywords and types the header would redeclare as NAME_t
for n in int class char16 wchar size int8 uint64 intptr ptrdiff max_align pthread time; do
  refused "--name '$n' cannot be used:" --name "$n"
done
refused "--name 'size' cannot be used: the header would declare size_t" --name size
# reserved identifiers, macros, xlac's own names
for n in __m _M m_ a__b NULL SIZE_MAX INT8_C xlac xlacrt_x XLACRT_X; do
  refused "--name '$n' cannot be used:" --name "$n"
done
# a C API function the C library has (pthread_create for NAME pthread,
# sem_destroy for NAME sem)
refused "--name 'sem' cannot be used: the header would declare sem_destroy, which the C library defines" --name sem
refused "--name must be a C identifier, got 'a-b'" --name a-b
# a default name from the file name is held to the same rules
cp "$hlo" int8.hlo
if xlac aot int8.hlo 2>err.txt; then exit 1; fi
grep -qF "xlac aot: error: the name 'int8' cannot be used" err.txt
grep -qF "choose one with --name" err.txt

# refused --cpp_class: keywords and reserved names in any part, _t types,
# the class's own members, the C API's names (NAME_...), macros
for c in a::int int::A ns::size_t uint8_t::C Run ok AllocMode program kNumArgs inst_ foo::arg0 foo::arg1_data \
  foo::set_arg0_data foo::result0 foo::result_fetch_y foo::arg_feed_x foo::result_y foo::arg_x foo::var_v \
  foo::set_var_v_data XlaCompiledCpuFunction kNumVariables HasNameIndices LookupVariableIndex foo::dim0 data mode \
  m_program ns::m_t::C M_ARG0_BYTES NULL INT8_C offsetof xlacrt_pool ns::XLAC_AOT_M_H final ns::__x a::_B; do
  refused "--cpp_class '$c' cannot be used:" --name m --cpp_class="$c"
done
refused "--cpp_class must be a C++ class name with optional namespaces (ns1::ns2::Class), got 'a:::b'" \
  --name m --cpp_class=a:::b

# refused --entry_point: the C library's (an entry named malloc would
# receive the program's allocations), main, xlac's, the descriptor's
for e in malloc system free memcpy expf environ main m_program xlac_cc_f xlacrt_aot_run __e int; do
  refused "--entry_point '$e' cannot be the entry symbol:" --name m --entry_point="$e"
done
refused "--entry_point 'malloc' cannot be the entry symbol: the C library defines it" --name m --entry_point=malloc
echo "names: ok"
