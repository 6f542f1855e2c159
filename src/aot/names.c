/*
 * names.c - what of the command line may reach the generated sources: the
 * identifiers it chooses (--name, --cpp_class, --entry_point), the header's
 * file name in the test's #include, and free text (the input's path, type
 * names) in comments.
 *
 * A name is refused when the header made with it would not compile as C
 * and C++ with -Wall -Werror, or when it would take a name that belongs to
 * someone else: the C and C++ keywords; the identifiers the implementation
 * reserves (C11 7.1.3: `__x`, `_X`; C++: `__` anywhere); the types and
 * macros of the headers the generated header includes (<stddef.h>,
 * <stdint.h>: size_t, int8_t, NULL, offsetof, SIZE_MAX, INT8_C, ...);
 * xlac's own namespaces (xlac_, xlacrt_, XLAC_, XLACRT_); and, for
 * --cpp_class, the members of tfcompile's class.  Whether a symbol is one
 * of the C library's is the command's to tell (driver/aot.c asks the
 * library it runs with).
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "aot/aot.h"

static bool in_list(const char *s, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(s, list[i]) == 0) return true;
  return false;
}

/* C11, C23 and C++20 keywords, C++'s alternative tokens, and the
   identifiers with a special meaning in C++ (final, override, import,
   module): none may name a class or namespace, and a symbol named like one
   cannot be declared by the program that links it. */
static const char *const keywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
    "char8_t", "char16_t", "char32_t", "class", "co_await", "co_return", "co_yield", "compl", "concept", "const",
    "const_cast", "consteval", "constexpr", "constinit", "continue", "decltype", "default", "delete", "do", "double",
    "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "final", "float", "for", "friend", "goto",
    "if", "import", "inline", "int", "long", "module", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "override", "private", "protected", "public", "register",
    "reinterpret_cast", "requires", "restrict", "return", "short", "signed", "sizeof", "static", "static_assert",
    "static_cast", "struct", "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid",
    "typename", "typeof", "typeof_unqual", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t",
    "while", "xor", "xor_eq",
};

/* What X_t would clash with, for a --name X: the types of the headers the
   generated header includes, C++'s character types, and the common types
   of the C and POSIX headers a program includes next to it. */
static const char *const type_stems[] = {
    "size", "ssize", "rsize", "ptrdiff", "wchar", "wint", "max_align", "nullptr", "char8", "char16", "char32",
    "intptr", "uintptr", "intmax", "uintmax", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "int_least8", "int_least16", "int_least32", "int_least64", "uint_least8", "uint_least16",
    "uint_least32", "uint_least64", "int_fast8", "int_fast16", "int_fast32", "int_fast64", "uint_fast8",
    "uint_fast16", "uint_fast32", "uint_fast64", "off", "off64", "time", "clock", "clockid", "timer", "pid", "uid",
    "gid", "id", "mode", "dev", "ino", "nlink", "blksize", "blkcnt", "fsblkcnt", "fsfilcnt", "key", "pthread",
    "sigset", "sig_atomic", "fpos", "mbstate", "div", "ldiv", "lldiv", "imaxdiv", "float", "double", "fenv",
    "fexcept", "locale", "wctype", "wctrans", "socklen", "suseconds", "useconds", "errno", "thrd", "mtx", "cnd",
    "tss", "once_flag", "atomic_int",
};

/* Members (and parameter names) of the class header.c generates and of its
   base (runtime/xlacrt_tfcompile.h), besides the per-buffer ones (argN...,
   arg_X..., resultN..., result_X..., var_X...): a class cannot be named
   like one of its members. */
static const char *const class_members[] = {
    "AllocMode", "ARGS_VARIABLES_RESULTS_PROFILES_AND_TEMPS", "RESULTS_PROFILES_AND_TEMPS_ONLY",
    "ARGS_RESULTS_PROFILES_AND_TEMPS", "ARGS_RESULTS_AND_TEMPS", "RESULTS_AND_TEMPS_ONLY", "kNumArgs", "kNumResults",
    "kNumVariables", "ArgSize", "ok", "Run", "error_msg", "set_thread_pool", "args", "results", "set_arg_data",
    "arg_data", "result_data", "num_args", "num_results", "num_variables", "arg_size", "result_size", "program",
    "program_descriptor", "static_data", "StaticData", "XlaCompiledCpuFunction", "HasNameIndices", "ArgNames",
    "ResultNames", "VariableNames", "LookupArgIndex", "LookupResultIndex", "LookupVariableIndex", "ProgramShape",
    "hlo_profiling_enabled", "Find", "data_", "inst_", "names", "name", "index", "data", "alloc_mode",
    "mode", "pool", "variable_results",
};

/* A per-buffer member of the class: [set_](argN|resultN|arg_X|result_X|var_X)[_data|_size|_count],
   or a dimension parameter dimN. */
static bool buffer_member(const char *s) {
  if (strncmp(s, "dim", 3) == 0 && isdigit((unsigned char)s[3])) return true;
  if (strncmp(s, "set_", 4) == 0) s += 4;
  if (strncmp(s, "var_", 4) == 0) return true;
  if (strncmp(s, "arg", 3) == 0) s += 3;
  else if (strncmp(s, "result", 6) == 0) s += 6;
  else return false;
  return isdigit((unsigned char)*s) || *s == '_';
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The form of <stdint.h>'s and <limits.h>'s macros: capitals, digits and
   underscores ending in _MAX, _MIN, _C or _WIDTH (SIZE_MAX, INT8_C). */
static bool limit_macro(const char *s) {
  for (const char *p = s; *p; p++)
    if (!isupper((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_') return false;
  return ends_with(s, "_MAX") || ends_with(s, "_MIN") || ends_with(s, "_C") || ends_with(s, "_WIDTH");
}

/* Why the identifier s may not appear in generated code at file or
   namespace scope, or NULL. */
static const char *identifier_problem(const char *s) {
  if (!is_c_identifier(s)) return "it is not a C identifier";
  if (in_list(s, keywords, ARRAY_LEN(keywords))) return "it is a C or C++ keyword";
  if (s[0] == '_' && (s[1] == '_' || isupper((unsigned char)s[1])))
    return "identifiers that begin with __ or _ and a capital are reserved for the C implementation";
  if (strstr(s, "__")) return "identifiers with __ in them are reserved for the C++ implementation";
  if (strncasecmp(s, "xlac_", 5) == 0 || strncasecmp(s, "xlacrt_", 7) == 0)
    return "names that begin with xlac_ or xlacrt_ are xlac's own";
  if (strcmp(s, "NULL") == 0 || strcmp(s, "offsetof") == 0 || strcmp(s, "unreachable") == 0 || limit_macro(s))
    return "it is, or has the form of, a macro of <stddef.h> or <stdint.h>";
  return NULL;
}

char *aot_name_problem(const char *name) {
  const char *why = identifier_problem(name);
  if (why) return xstrdup(why);
  /* the header declares NAME_t, NAME_program, NAME_create, ... */
  char *t = xasprintf("%s_t", name);
  why = identifier_problem(t);
  char *r = why ? xasprintf("the header would declare %s: %s", t, why) : NULL;
  for (size_t i = 0; !r && i < ARRAY_LEN(type_stems); i++)
    if (strcmp(name, type_stems[i]) == 0)
      r = xasprintf("the header would declare %s, a type of the C library or of C++", t);
  xfree(t);
  return r;
}

char *aot_class_problem(const char *cpp_class, const char *name) {
  char *prefix = xasprintf("%s_", name);
  char *upper_prefix = xstrdup(prefix);
  for (char *p = upper_prefix; *p; p++) *p = (char)toupper((unsigned char)*p);
  char *r = NULL;
  const char *p = cpp_class;
  for (;;) {
    const char *sep = strstr(p, "::");
    char *part = sep ? xstrndup(p, (size_t)(sep - p)) : xstrdup(p);
    const char *why = identifier_problem(part);
    if (!why && ends_with(part, "_t")) why = "names that end in _t are the C library's (POSIX reserves them)";
    bool api = strncmp(part, prefix, strlen(prefix)) == 0 || strncmp(part, upper_prefix, strlen(upper_prefix)) == 0;
    if (!why && !sep && (in_list(part, class_members, ARRAY_LEN(class_members)) || buffer_member(part)))
      why = "the class has a member of that name";
    if (why) r = xasprintf("'%s': %s", part, why);
    else if (api) r = xasprintf("'%s': the names of the header's C API begin with %s or %s", part, prefix, upper_prefix);
    xfree(part);
    if (r || !sep) break;
    p = sep + 2;
  }
  xfree(prefix);
  xfree(upper_prefix);
  return r;
}

char *aot_symbol_problem(const char *sym, const char *name) {
  const char *why = identifier_problem(sym);
  if (why) return xstrdup(why);
  if (strcmp(sym, "main") == 0) return xstrdup("it is the program's main");
  char *program = xasprintf("%s_program", name);
  char *r = strcmp(sym, program) == 0 ? xasprintf("%s is the descriptor's symbol", program) : NULL;
  xfree(program);
  return r;
}

char *aot_include_problem(const char *header_name) {
  /* C11 6.4.7: a quote, a backslash, two slashes or a comment's start in
     an #include "..." name are undefined; a double quote or a newline ends
     it; other control characters have no place in a file name */
  for (const unsigned char *p = (const unsigned char *)header_name; *p; p++) {
    if (*p < 0x20 || *p == 0x7f) return xstrdup("it has a control character");
    if (*p == '"' || *p == '\'' || *p == '\\')
      return xasprintf("the generated sources #include it, and a name with %c cannot be written there", *p);
    if (*p == '/' && (p[1] == '/' || p[1] == '*'))
      return xasprintf("the generated sources #include it, and a name with /%c cannot be written there", p[1]);
  }
  return *header_name ? NULL : xstrdup("it is empty");
}

void aot_comment_text(StrBuf *b, const char *s) {
  /* printable ASCII as is, anything else (newlines, bytes that are not
     ASCII, the backslash that would splice lines) as \xHH; the slash of a
     comment's end or start too */
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    bool comment_mark = *p == '/' && ((p > (const unsigned char *)s && p[-1] == '*') || p[1] == '*');
    if (*p < 0x20 || *p >= 0x7f || *p == '\\' || comment_mark) sb_printf(b, "\\x%02x", *p);
    else sb_putc(b, (char)*p);
  }
}
