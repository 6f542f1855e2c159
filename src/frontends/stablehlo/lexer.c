/*
 * lexer.c - MLIR tokens on demand (see lexer.h).
 *
 * Identifier character sets follow MLIR's: bare identifiers are letters,
 * digits, '_', '$' and '.', value names (%x) may also contain '-'.  A '-'
 * directly followed by a digit starts a negative number, so dense lists such
 * as [1, -2] need no unary minus in the parser.
 */
#include "frontends/stablehlo/lexer.h"

#include <ctype.h>
#include <string.h>

static bool is_id_start(int c) { return isalpha(c) || c == '_'; }
static bool is_id_char(int c) { return isalnum(c) || c == '_' || c == '$' || c == '.'; }
static bool is_suffix_char(int c) { return is_id_char(c) || c == '-'; }

size_t lex_skip_space(Lexer *lx) {
  const char *s = lx->text;
  while (lx->pos < lx->end) {
    char c = s[lx->pos];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      lx->pos++;
    } else if (c == '/' && lx->pos + 1 < lx->end && s[lx->pos + 1] == '/') {
      while (lx->pos < lx->end && s[lx->pos] != '\n') lx->pos++;
    } else {
      break;
    }
  }
  return lx->pos;
}

bool tok_is_ident(const Lexer *lx, Tok t, const char *word) {
  size_t n = strlen(word);
  return t.kind == TK_IDENT && tok_len(t) == n && memcmp(lx->text + t.start, word, n) == 0;
}

/* Reads [0-9]+(.[0-9]*)?([eE][+-]?[0-9]+)? or 0x[hex]+ starting at p. */
static TokKind lex_number(Lexer *lx, size_t *p) {
  const char *s = lx->text;
  size_t i = *p, end = lx->end;
  if (s[i] == '0' && i + 2 < end && s[i + 1] == 'x' && isxdigit((unsigned char)s[i + 2])) {
    i += 2;
    while (i < end && isxdigit((unsigned char)s[i])) i++;
    *p = i;
    return TK_INT;
  }
  TokKind k = TK_INT;
  while (i < end && isdigit((unsigned char)s[i])) i++;
  if (i < end && s[i] == '.') {
    k = TK_FLOAT;
    i++;
    while (i < end && isdigit((unsigned char)s[i])) i++;
  }
  if (i < end && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < end && (s[j] == '+' || s[j] == '-')) j++;
    if (j < end && isdigit((unsigned char)s[j])) {
      k = TK_FLOAT;
      i = j;
      while (i < end && isdigit((unsigned char)s[i])) i++;
    }
  }
  *p = i;
  return k;
}

Tok lex_next(Lexer *lx) {
  lex_skip_space(lx);
  const char *s = lx->text;
  size_t end = lx->end, i = lx->pos;
  Tok t = {TK_EOF, i, i, 0};
  if (i >= end) return t;
  unsigned char c = (unsigned char)s[i];
  if (is_id_start(c)) {
    while (i < end && is_id_char((unsigned char)s[i])) i++;
    t.kind = TK_IDENT;
  } else if (isdigit(c) || (c == '-' && i + 1 < end && isdigit((unsigned char)s[i + 1]))) {
    if (c == '-') i++;
    t.kind = lex_number(lx, &i);
  } else if (c == '"') {
    i++;
    while (i < end && s[i] != '"') {
      if (s[i] == '\\' && i + 1 < end) i++;
      i++;
    }
    if (i >= end) {
      t.kind = TK_BAD;
      t.end = t.start + 1;
      lx->pos = end;
      return t;
    }
    i++;
    t.kind = TK_STRING;
  } else if (c == '%' || c == '^' || c == '#' || c == '!') {
    i++;
    while (i < end && is_suffix_char((unsigned char)s[i])) i++;
    if (i == t.start + 1) {
      t.kind = TK_BAD;
      i = t.start + 1;
    } else {
      t.kind = c == '%' ? TK_VALUE : c == '^' ? TK_CARET : c == '#' ? TK_HASH : TK_BANG;
    }
  } else if (c == '@') {
    i++;
    if (i < end && s[i] == '"') {
      i++;
      while (i < end && s[i] != '"') {
        if (s[i] == '\\' && i + 1 < end) i++;
        i++;
      }
      if (i >= end) {
        t.kind = TK_BAD;
        t.end = t.start + 1;
        lx->pos = end;
        return t;
      }
      i++;
      t.kind = TK_SYMBOL;
    } else {
      while (i < end && is_suffix_char((unsigned char)s[i])) i++;
      t.kind = i == t.start + 1 ? TK_BAD : TK_SYMBOL;
    }
  } else if (c == '-' && i + 1 < end && s[i + 1] == '>') {
    i += 2;
    t.kind = TK_ARROW;
  } else if (strchr("()[]{}<>,:=*?+-|", c)) {
    i++;
    t.kind = TK_PUNCT;
    t.c = (char)c;
  } else {
    i++;
    t.kind = TK_BAD;
  }
  t.end = i;
  lx->pos = i;
  return t;
}
