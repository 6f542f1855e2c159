/*
 * lexer.h - tokens of MLIR text, produced on demand.
 *
 * The lexer is a cursor over the source: the parser asks for one token at a
 * time and may move the cursor back (to re-read a dense<...> body once its
 * type is known) or scan raw characters for the few sub-grammars that do not
 * tokenize the usual way (tensor shapes such as 4x?xf32).  Positions are byte
 * offsets into the whole file so diagnostics point at the right place even
 * when only a slice of the file is parsed.
 */
#ifndef XLAC_FRONTENDS_STABLEHLO_LEXER_H
#define XLAC_FRONTENDS_STABLEHLO_LEXER_H

#include "support/support.h"

typedef enum TokKind {
  TK_EOF,
  TK_IDENT,  /* bare identifier, may contain dots: stablehlo.add, f32, dense */
  TK_VALUE,  /* %name (text includes the '%', not a #N suffix) */
  TK_SYMBOL, /* @name or @"quoted" (text includes the '@') */
  TK_CARET,  /* ^bb0 */
  TK_HASH,   /* #name: attribute alias or dialect attribute */
  TK_BANG,   /* !name: type alias or dialect type */
  TK_INT,    /* 12, -3, 0x7F */
  TK_FLOAT,  /* 1.5, -2e3 */
  TK_STRING, /* "..." (text includes the quotes; escapes undecoded) */
  TK_ARROW,  /* -> */
  TK_PUNCT,  /* one of ( ) [ ] { } < > , : = * ? + - | */
  TK_BAD,    /* a character that starts no token */
} TokKind;

typedef struct Tok {
  TokKind kind;
  size_t start, end; /* byte offsets into the file text */
  char c;            /* TK_PUNCT: the character */
} Tok;

typedef struct Lexer {
  int file;
  const char *text; /* whole file */
  size_t pos, end;  /* cursor and end of the slice being read */
} Lexer;

/* Reads the token at the cursor (skipping blanks and // comments) and moves
   the cursor past it.  A string without its closing quote comes back as
   TK_BAD so the parser reports it at its start. */
Tok lex_next(Lexer *lx);
/* Skips blanks and comments; returns the offset of the next character. */
size_t lex_skip_space(Lexer *lx);

static inline bool tok_is(Tok t, char c) { return t.kind == TK_PUNCT && t.c == c; }
bool tok_is_ident(const Lexer *lx, Tok t, const char *word);
static inline size_t tok_len(Tok t) { return t.end - t.start; }

#endif
