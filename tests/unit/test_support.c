/* Unit tests for src/support: arena, string builder, hash map, source
   locations and diagnostics. */
#include "support/support.h"

#include <stdlib.h>

#include "test_util.h"

static char captured[512];
static int captured_line, captured_col;
static void hook(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud) {
  (void)lvl;
  (void)ud;
  snprintf(captured, sizeof captured, "%s", msg);
  src_line_col(loc, &captured_line, &captured_col);
}

int main(void) {
  /* arena: zeroed, aligned, survives many allocations incl. big ones */
  Arena a;
  arena_init(&a);
  for (int i = 0; i < 1000; i++) {
    unsigned char *p = arena_alloc(&a, (size_t)(i % 97) + 1);
    CHECK(((uintptr_t)p & 15) == 0);
    CHECK(p[0] == 0);
    p[0] = 1;
  }
  char *big = arena_alloc(&a, 1 << 20);
  CHECK(big[(1 << 20) - 1] == 0);
  CHECK_STR(arena_strndup(&a, "hello world", 5), "hello");
  arena_free(&a);

  /* string builder */
  StrBuf b = {0};
  sb_printf(&b, "%d-%s", 42, "x");
  sb_putc(&b, '!');
  char *s = sb_take(&b);
  CHECK_STR(s, "42-x!");
  free(s);
  s = sb_take(&b); /* empty builder gives "" not NULL */
  CHECK_STR(s, "");
  free(s);

  /* hash map: insert, overwrite, lookup by length-delimited key, growth */
  StrMap m = {0};
  static int vals[1000];
  char key[32];
  for (int i = 0; i < 1000; i++) {
    snprintf(key, sizeof key, "k%d", i);
    strmap_put(&m, key, &vals[i]);
  }
  CHECK(strmap_get(&m, "k0") == &vals[0]);
  CHECK(strmap_get(&m, "k999") == &vals[999]);
  CHECK(strmap_get(&m, "k1000") == NULL);
  CHECK(strmap_getn(&m, "k12xyz", 3) == &vals[12]);
  strmap_put(&m, "k5", &vals[6]);
  CHECK(strmap_get(&m, "k5") == &vals[6]);
  CHECK_EQ_I(m.len, 1000);
  strmap_free(&m);

  /* locations: line/col from offsets, diagnostics through a hook */
  int f = src_add("t.mlir", "ab\ncd\n\tef", 9);
  int line, col;
  src_line_col((SrcLoc){f, 4}, &line, &col);
  CHECK_EQ_I(line, 2);
  CHECK_EQ_I(col, 2);
  src_line_col((SrcLoc){f, 8}, &line, &col);
  CHECK_EQ_I(line, 3);
  CHECK_EQ_I(col, 3);
  diag_set_hook(hook, NULL);
  diag_reset_count();
  error_at(((SrcLoc){f, 3}), "bad %s", "thing");
  CHECK_STR(captured, "bad thing");
  CHECK_EQ_I(captured_line, 2);
  CHECK_EQ_I(captured_col, 1);
  CHECK_EQ_I(diag_error_count(), 1);
  diag_set_hook(NULL, NULL);

  /* printed form: file:line:col, source line, caret */
  FILE *tmp = tmpfile();
  diag_set_stream(tmp);
  error_at(((SrcLoc){f, 4}), "oops");
  diag_set_stream(NULL);
  rewind(tmp);
  char out[256] = {0};
  size_t n = fread(out, 1, sizeof out - 1, tmp);
  fclose(tmp);
  out[n] = 0;
  CHECK_STR(out, "t.mlir:2:2: error: oops\ncd\n ^\n");
  TEST_SUMMARY();
}
