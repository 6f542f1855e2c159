# xlac_add_aot_library: a program compiled ahead of time, as a library
# target (what Bazel's tf_library is to tfcompile).
#
#   xlac_add_aot_library(NAME
#     SOURCE model.mlir            # StableHLO or HLO text
#     [FUNCTION name]              # function to compile (default: @main / ENTRY)
#     [CPP_CLASS ns::Class]        # also a C++ class with tfcompile's methods
#     [TARGET_TRIPLE triple] [TARGET_CPU cpu] [TARGET_FEATURES features]
#     [GEN_TEST]                   # NAME_test: zero and random inputs checked
#                                  # against the reference interpreter (add_test too)
#     [GEN_BENCHMARK]              # NAME_benchmark: times run, prints min/median/max
#     [AOT_FLAGS flags...])        # anything else for `xlac aot`
#
# Runs `xlac aot` at build time into NAME.o and NAME.h in the current
# binary directory; NAME is a static library of that object with the
# directory on its include path, linked with xlac::xlacrt and libm and
# nothing else.  #include "NAME.h" and call NAME_create / NAME_run (or use
# the C++ class).  NAME must be a C identifier: it prefixes the C API.
# XLAC_EXECUTABLE names the xlac command (find_package(xlac) sets it).

function(xlac_add_aot_library name)
  cmake_parse_arguments(PARSE_ARGV 1 A "GEN_TEST;GEN_BENCHMARK"
                        "SOURCE;FUNCTION;CPP_CLASS;TARGET_TRIPLE;TARGET_CPU;TARGET_FEATURES" "AOT_FLAGS")
  if(NOT A_SOURCE)
    message(FATAL_ERROR "xlac_add_aot_library(${name}): SOURCE is required")
  endif()
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "xlac_add_aot_library(${name}): the name must be a C identifier")
  endif()
  if(NOT XLAC_EXECUTABLE)
    message(FATAL_ERROR "xlac_add_aot_library: XLAC_EXECUTABLE is not set (find_package(xlac) sets it)")
  endif()
  get_filename_component(src "${A_SOURCE}" ABSOLUTE)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}")
  set(obj "${dir}/${name}.o")
  set(hdr "${dir}/${name}.h")
  set(outputs "${obj}" "${hdr}")
  set(args aot "${src}" -o "${obj}" --header "${hdr}" --name ${name})
  if(A_FUNCTION)
    list(APPEND args --function ${A_FUNCTION})
  endif()
  if(A_CPP_CLASS)
    list(APPEND args --cpp_class=${A_CPP_CLASS} --gen_name_to_index --gen_program_shape)
  endif()
  if(A_TARGET_TRIPLE)
    list(APPEND args --target_triple=${A_TARGET_TRIPLE})
  endif()
  if(A_TARGET_CPU)
    list(APPEND args --target_cpu=${A_TARGET_CPU})
  endif()
  if(A_TARGET_FEATURES)
    list(APPEND args --target_features=${A_TARGET_FEATURES})
  endif()
  if(A_GEN_TEST)
    list(APPEND args --out_test=${dir}/${name}_test.c)
    list(APPEND outputs "${dir}/${name}_test.c")
  endif()
  if(A_GEN_BENCHMARK)
    list(APPEND args --out_benchmark=${dir}/${name}_benchmark.c)
    list(APPEND outputs "${dir}/${name}_benchmark.c")
  endif()
  list(APPEND args ${A_AOT_FLAGS})
  set(deps "${src}")
  if(TARGET "${XLAC_EXECUTABLE}")
    list(APPEND deps "${XLAC_EXECUTABLE}")
    set(cmd "$<TARGET_FILE:${XLAC_EXECUTABLE}>")
  else()
    set(cmd "${XLAC_EXECUTABLE}")
  endif()
  add_custom_command(OUTPUT ${outputs} COMMAND ${cmd} ${args} DEPENDS ${deps}
                     COMMENT "xlac aot ${A_SOURCE} -> ${name}.o, ${name}.h" VERBATIM)
  set_source_files_properties("${obj}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  add_library(${name} STATIC "${obj}" "${hdr}")
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE C)
  target_include_directories(${name} PUBLIC "${dir}")
  target_link_libraries(${name} PUBLIC xlac::xlacrt m)
  if(A_GEN_TEST)
    add_executable(${name}_test "${dir}/${name}_test.c")
    target_link_libraries(${name}_test PRIVATE ${name})
    if(NOT A_TARGET_TRIPLE)
      add_test(NAME ${name}_test COMMAND ${name}_test)
    endif()
  endif()
  if(A_GEN_BENCHMARK)
    add_executable(${name}_benchmark "${dir}/${name}_benchmark.c")
    target_link_libraries(${name}_benchmark PRIVATE ${name})
  endif()
endfunction()
