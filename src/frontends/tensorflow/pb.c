/*
 * pb.c - protobuf messages from files: binary wire format through
 * protobuf-c, and text format through one parser driven by protobuf-c's
 * message descriptors.
 *
 * The text parser does not build C structs itself: it translates the text
 * into the binary wire format, field by field, as the descriptors say
 * (nested messages and map entries become length-delimited records built
 * bottom-up), and protobuf-c unpacks that.  So any message with a
 * descriptor is readable as text, with `file:line:col` errors, and both
 * forms give the same C struct.
 *
 * Text format accepted: `name: value`, `name { ... }` / `name: { ... }` /
 * `name < ... >`, `name: [v, v]` for repeated fields, `#` comments,
 * fields separated by blanks, `,` or `;`, strings in double or single
 * quotes with C escapes (adjacent strings concatenate), integers in
 * decimal, hex or octal, floats (with inf / nan), enums by name or number,
 * booleans as true/false/t/f/1/0.
 *
 * Nesting is bounded (PB_MAX_DEPTH) in both forms before protobuf-c sees
 * the bytes: protobuf-c unpacks nested messages recursively, and a small
 * file nested thousands deep would overflow the stack.  The text parser
 * counts its own braces (it recurses too); binary input is walked
 * iteratively, record by record, descending into the fields the
 * descriptors declare as messages, which are exactly the ones protobuf-c
 * recurses into (unknown fields are kept as bytes).
 */
#include "frontends/tensorflow/pb.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- wire format writing ---- */

static void put_varint(StrBuf *b, uint64_t v) {
  do {
    uint8_t c = v & 0x7f;
    v >>= 7;
    sb_putc(b, (char)(v ? c | 0x80 : c));
  } while (v);
}

static void put_tag(StrBuf *b, uint32_t field, int wire) { put_varint(b, (uint64_t)field << 3 | (uint64_t)wire); }

static void put_fixed(StrBuf *b, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++) sb_putc(b, (char)(v >> (8 * i) & 0xff));
}

static void put_bytes(StrBuf *b, const char *p, size_t n) {
  for (size_t i = 0; i < n; i++) sb_putc(b, p[i]);
}

/* ---- the lexer ---- */

typedef struct Text {
  int file;
  const char *s;
  size_t len, pos;
  bool failed;
  int depth;      /* messages open around the current field */
  PbLocs *locs;   /* top-level fields, or NULL */
} Text;

static SrcLoc loc_at(const Text *t, size_t pos) { return (SrcLoc){t->file, (uint32_t)pos}; }

static void skip_space(Text *t) {
  while (t->pos < t->len) {
    char c = t->s[t->pos];
    if (c == '#') {
      while (t->pos < t->len && t->s[t->pos] != '\n') t->pos++;
    } else if (isspace((unsigned char)c)) {
      t->pos++;
    } else {
      break;
    }
  }
}

static bool fail(Text *t, size_t pos, const char *fmt, const char *what) {
  if (!t->failed) error_at(loc_at(t, pos), fmt, what);
  t->failed = true;
  return false;
}

static bool fail_depth(Text *t, size_t pos) {
  char limit[16];
  snprintf(limit, sizeof limit, "%d", PB_MAX_DEPTH);
  return fail(t, pos, "messages nested more than %s deep: past the nesting limit", limit);
}

static bool peek(Text *t, char c) {
  skip_space(t);
  return t->pos < t->len && t->s[t->pos] == c;
}

static bool accept(Text *t, char c) {
  if (!peek(t, c)) return false;
  t->pos++;
  return true;
}

/* An identifier or number-like token: [A-Za-z0-9_.+-]+ */
static bool token(Text *t, const char **p, size_t *n) {
  skip_space(t);
  size_t s = t->pos;
  while (t->pos < t->len) {
    char c = t->s[t->pos];
    if (!(isalnum((unsigned char)c) || c == '_' || c == '.' || c == '+' || c == '-')) break;
    t->pos++;
  }
  *p = t->s + s;
  *n = t->pos - s;
  return *n > 0;
}

static int hexval(char c) {
  return isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
}

/* One or more adjacent quoted strings, unescaped into out. */
static bool string_value(Text *t, StrBuf *out) {
  if (!peek(t, '"') && !peek(t, '\'')) return fail(t, t->pos, "expected a string in quotes%s", "");
  while (peek(t, '"') || peek(t, '\'')) {
    char q = t->s[t->pos];
    size_t start = t->pos++;
    for (;;) {
      if (t->pos >= t->len || t->s[t->pos] == '\n') return fail(t, start, "unterminated string%s", "");
      char c = t->s[t->pos++];
      if (c == q) break;
      if (c != '\\') {
        sb_putc(out, c);
        continue;
      }
      if (t->pos >= t->len) return fail(t, start, "unterminated string%s", "");
      size_t epos = t->pos - 1;
      c = t->s[t->pos++];
      switch (c) {
      case 'n': sb_putc(out, '\n'); break;
      case 't': sb_putc(out, '\t'); break;
      case 'r': sb_putc(out, '\r'); break;
      case 'a': sb_putc(out, '\a'); break;
      case 'b': sb_putc(out, '\b'); break;
      case 'f': sb_putc(out, '\f'); break;
      case 'v': sb_putc(out, '\v'); break;
      case '\\': case '\'': case '"': case '?': sb_putc(out, c); break;
      case 'x': {
        int v = 0, k = 0;
        while (k < 2 && t->pos < t->len && isxdigit((unsigned char)t->s[t->pos])) v = v * 16 + hexval(t->s[t->pos++]), k++;
        if (!k) return fail(t, epos, "\\x needs hex digits%s", "");
        sb_putc(out, (char)v);
        break;
      }
      default:
        if (c >= '0' && c <= '7') {
          int v = c - '0', k = 1;
          while (k < 3 && t->pos < t->len && t->s[t->pos] >= '0' && t->s[t->pos] <= '7') v = v * 8 + (t->s[t->pos++] - '0'), k++;
          sb_putc(out, (char)v);
        } else {
          return fail(t, epos, "unknown escape sequence in a string%s", "");
        }
      }
    }
  }
  return true;
}

/* ---- values ---- */

static bool parse_int(Text *t, bool is_signed, uint64_t *out) {
  const char *p;
  size_t n;
  size_t at = (skip_space(t), t->pos);
  if (!token(t, &p, &n)) return fail(t, at, "expected an integer%s", "");
  char buf[64];
  if (n >= sizeof buf) return fail(t, at, "integer out of range%s", "");
  memcpy(buf, p, n);
  buf[n] = 0;
  char *end;
  errno = 0;
  if (buf[0] == '-') {
    long long v = strtoll(buf, &end, 0);
    if (!is_signed || *end || errno) return fail(t, at, "'%s' is not a valid integer for this field", buf);
    *out = (uint64_t)v;
  } else {
    unsigned long long v = strtoull(buf, &end, 0);
    if (*end || errno) return fail(t, at, "'%s' is not a valid integer", buf);
    *out = v;
  }
  return true;
}

static bool parse_float(Text *t, double *out) {
  const char *p;
  size_t n;
  size_t at = (skip_space(t), t->pos);
  if (!token(t, &p, &n)) return fail(t, at, "expected a number%s", "");
  char buf[64];
  if (n >= sizeof buf) return fail(t, at, "number too long%s", "");
  memcpy(buf, p, n);
  buf[n] = 0;
  /* 1.5f is accepted, as protobuf's text format does */
  if (n > 1 && (buf[n - 1] == 'f' || buf[n - 1] == 'F') && !isalpha((unsigned char)buf[n - 2])) buf[n - 1] = 0;
  const char *s = buf[0] == '-' ? buf + 1 : buf;
  double sign = buf[0] == '-' ? -1 : 1;
  if (strcasecmp(s, "inf") == 0 || strcasecmp(s, "infinity") == 0) {
    *out = sign * INFINITY;
    return true;
  }
  if (strcasecmp(s, "nan") == 0) {
    *out = NAN;
    return true;
  }
  char *end;
  *out = strtod(buf, &end);
  if (*end) return fail(t, at, "'%s' is not a valid number", buf);
  return true;
}

static bool parse_bool(Text *t, uint64_t *out) {
  const char *p;
  size_t n;
  size_t at = (skip_space(t), t->pos);
  if (!token(t, &p, &n)) return fail(t, at, "expected true or false%s", "");
  if ((n == 4 && !memcmp(p, "true", 4)) || (n == 1 && (*p == 't' || *p == '1'))) *out = 1;
  else if ((n == 5 && !memcmp(p, "false", 5)) || (n == 1 && (*p == 'f' || *p == '0'))) *out = 0;
  else return fail(t, at, "expected true or false%s", "");
  return true;
}

static bool parse_message(Text *t, const ProtobufCMessageDescriptor *d, StrBuf *out, char close);

/* One value of field f, appended to out as a complete wire-format record. */
static bool parse_value(Text *t, const ProtobufCFieldDescriptor *f, StrBuf *out) {
  uint32_t id = f->id;
  switch (f->type) {
  case PROTOBUF_C_TYPE_MESSAGE: {
    accept(t, ':');
    char close;
    size_t open = (skip_space(t), t->pos);
    if (accept(t, '{')) close = '}';
    else if (accept(t, '<')) close = '>';
    else return fail(t, t->pos, "expected '{' to start message field '%s'", f->name);
    if (t->depth >= PB_MAX_DEPTH) return fail_depth(t, open);
    StrBuf sub = {0};
    t->depth++;
    bool ok = parse_message(t, f->descriptor, &sub, close);
    t->depth--;
    if (ok) {
      put_tag(out, id, 2);
      put_varint(out, sub.len);
      put_bytes(out, sub.data, sub.len);
    }
    sb_free(&sub);
    return ok;
  }
  case PROTOBUF_C_TYPE_STRING:
  case PROTOBUF_C_TYPE_BYTES: {
    StrBuf s = {0};
    bool ok = string_value(t, &s);
    if (ok) {
      put_tag(out, id, 2);
      put_varint(out, s.len);
      put_bytes(out, s.data, s.len);
    }
    sb_free(&s);
    return ok;
  }
  case PROTOBUF_C_TYPE_ENUM: {
    const ProtobufCEnumDescriptor *e = f->descriptor;
    const char *p;
    size_t n;
    size_t at = (skip_space(t), t->pos);
    if (!token(t, &p, &n)) return fail(t, at, "expected an enum value for '%s'", f->name);
    uint64_t v;
    if (isdigit((unsigned char)p[0]) || p[0] == '-') {
      t->pos = at;
      if (!parse_int(t, true, &v)) return false;
    } else {
      char *name = xstrndup(p, n);
      const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value_by_name(e, name);
      if (!ev) {
        fail(t, at, "'%s' is not a value of this field's enum", name);
        xfree(name);
        return false;
      }
      xfree(name);
      v = (uint64_t)(int64_t)ev->value;
    }
    put_tag(out, id, 0);
    put_varint(out, v);
    return true;
  }
  case PROTOBUF_C_TYPE_BOOL: {
    uint64_t v;
    if (!parse_bool(t, &v)) return false;
    put_tag(out, id, 0);
    put_varint(out, v);
    return true;
  }
  case PROTOBUF_C_TYPE_FLOAT:
  case PROTOBUF_C_TYPE_DOUBLE: {
    double v;
    if (!parse_float(t, &v)) return false;
    if (f->type == PROTOBUF_C_TYPE_FLOAT) {
      float x = (float)v;
      uint32_t bits;
      memcpy(&bits, &x, 4);
      put_tag(out, id, 5);
      put_fixed(out, bits, 4);
    } else {
      uint64_t bits;
      memcpy(&bits, &v, 8);
      put_tag(out, id, 1);
      put_fixed(out, bits, 8);
    }
    return true;
  }
  default: {
    bool is_signed = f->type == PROTOBUF_C_TYPE_INT32 || f->type == PROTOBUF_C_TYPE_INT64 ||
                     f->type == PROTOBUF_C_TYPE_SINT32 || f->type == PROTOBUF_C_TYPE_SINT64 ||
                     f->type == PROTOBUF_C_TYPE_SFIXED32 || f->type == PROTOBUF_C_TYPE_SFIXED64;
    bool is32 = f->type == PROTOBUF_C_TYPE_INT32 || f->type == PROTOBUF_C_TYPE_UINT32 ||
                f->type == PROTOBUF_C_TYPE_SINT32 || f->type == PROTOBUF_C_TYPE_FIXED32 ||
                f->type == PROTOBUF_C_TYPE_SFIXED32;
    size_t at = (skip_space(t), t->pos);
    uint64_t v;
    if (!parse_int(t, is_signed, &v)) return false;
    int64_t sv = (int64_t)v;
    if (is32 && (is_signed ? sv < INT32_MIN || sv > INT32_MAX : v > UINT32_MAX))
      return fail(t, at, "integer out of range for 32-bit field '%s'", f->name);
    switch (f->type) {
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SINT64:
      put_tag(out, id, 0);
      put_varint(out, ((uint64_t)sv << 1) ^ (uint64_t)(sv >> 63));
      break;
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_SFIXED32:
      put_tag(out, id, 5);
      put_fixed(out, v, 4);
      break;
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_SFIXED64:
      put_tag(out, id, 1);
      put_fixed(out, v, 8);
      break;
    default:
      put_tag(out, id, 0);
      put_varint(out, v);
    }
    return true;
  }
  }
}

/* Skips one value of a field xlac does not declare: a scalar token or
   string, a [list] of them, or a { } / < > message (iteratively, within
   the same nesting limit). */
static bool skip_value(Text *t) {
  skip_space(t);
  if (t->pos >= t->len) return fail(t, t->pos, "unexpected end of input%s", "");
  char c = t->s[t->pos];
  if (c == '{' || c == '<' || c == '[') {
    int depth = 0;
    size_t start = t->pos;
    while (t->pos < t->len) {
      char d = t->s[t->pos];
      if (d == '"' || d == '\'') {
        StrBuf junk = {0};
        bool ok = string_value(t, &junk);
        sb_free(&junk);
        if (!ok) return false;
        continue;
      }
      if (d == '#') {
        skip_space(t);
        continue;
      }
      if ((d == '{' || d == '<' || d == '[') && t->depth + depth >= PB_MAX_DEPTH) return fail_depth(t, t->pos);
      t->pos++;
      if (d == '{' || d == '<' || d == '[') depth++;
      else if ((d == '}' || d == '>' || d == ']') && --depth == 0) return true;
    }
    return fail(t, start, "unterminated value%s", "");
  }
  if (c == '"' || c == '\'') {
    StrBuf junk = {0};
    bool ok = string_value(t, &junk);
    sb_free(&junk);
    return ok;
  }
  const char *p;
  size_t n;
  if (!token(t, &p, &n)) return fail(t, t->pos, "expected a value%s", "");
  return true;
}

/* TensorFlow's messages have fields xlac does not declare (and new ones
   appear with new versions): in text, as in binary, those are skipped.
   The tf2xla Config, which users write by hand, stays strict, so that a
   misspelt field is an error. */
static bool skips_unknown_fields(const ProtobufCMessageDescriptor *d) {
  return strcmp(d->package_name, "tensorflow.tf2xla") != 0;
}

/* A top-level field's location, for pb_field_loc. */
static void note_field(Text *t, const ProtobufCFieldDescriptor *f, size_t at) {
  if (t->locs && t->depth == 0) VEC_PUSH(*t->locs, ((PbFieldLoc){f->id, (uint32_t)at}));
}

static bool parse_message(Text *t, const ProtobufCMessageDescriptor *d, StrBuf *out, char close) {
  for (;;) {
    skip_space(t);
    if (t->pos >= t->len) {
      if (!close) return true;
      return fail(t, t->pos, "unexpected end of input: missing '%s'", close == '}' ? "}" : ">");
    }
    if (close && accept(t, close)) return true;
    const char *p;
    size_t n, at = t->pos;
    if (t->s[t->pos] == '[') return fail(t, at, "extensions and Any fields ('[...]') are not supported%s", "");
    if (!token(t, &p, &n)) {
      char c[2] = {t->s[t->pos], 0};
      return fail(t, at, "expected a field name, found '%s'", c);
    }
    char *name = xstrndup(p, n);
    const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field_by_name(d, name);
    if (!f && skips_unknown_fields(d)) {
      xfree(name);
      accept(t, ':');
      if (!skip_value(t)) return false;
      if (!accept(t, ';')) accept(t, ',');
      continue;
    }
    if (!f) {
      char *msg = xasprintf("no field '%s' in %s", name, d->name);
      fail(t, at, "%s", msg);
      xfree(msg);
      xfree(name);
      return false;
    }
    xfree(name);
    if (f->type != PROTOBUF_C_TYPE_MESSAGE && !accept(t, ':'))
      return fail(t, t->pos, "expected ':' after field '%s'", f->name);
    if (f->label == PROTOBUF_C_LABEL_REPEATED && (accept(t, ':'), peek(t, '['))) {
      t->pos++;
      if (!accept(t, ']')) {
        do {
          note_field(t, f, (skip_space(t), t->pos));
          if (!parse_value(t, f, out)) return false;
        } while (accept(t, ','));
        if (!accept(t, ']')) return fail(t, t->pos, "expected ',' or ']' in the list of '%s'", f->name);
      }
    } else {
      note_field(t, f, at);
      if (!parse_value(t, f, out)) return false;
    }
    if (!accept(t, ';')) accept(t, ',');
  }
}

/* ---- reading files ---- */

ProtobufCMessage *pb_parse_text_locs(int file, const ProtobufCMessageDescriptor *d, PbLocs *locs) {
  const SrcFile *sf = src_get(file);
  Text t = {file, sf->text, sf->len, 0, false, 0, locs};
  StrBuf wire = {0};
  bool ok = parse_message(&t, d, &wire, 0);
  ProtobufCMessage *m = NULL;
  if (ok) {
    m = protobuf_c_message_unpack(d, NULL, wire.len, (const uint8_t *)(wire.data ? wire.data : ""));
    if (!m) error_at(loc_at(&t, 0), "the text does not make a valid %s", d->name);
  }
  sb_free(&wire);
  return m;
}

ProtobufCMessage *pb_parse_text(int file, const ProtobufCMessageDescriptor *d) {
  return pb_parse_text_locs(file, d, NULL);
}

/* One varint at p[*i], within end. */
static bool read_varint(const uint8_t *p, size_t end, size_t *i, uint64_t *out) {
  uint64_t v = 0;
  int shift = 0;
  do {
    if (*i >= end || shift > 63) return false;
    v |= (uint64_t)(p[*i] & 0x7f) << shift;
    shift += 7;
  } while (p[(*i)++] & 0x80);
  *out = v;
  return true;
}

/* The wire type a declared field is written with (a repeated scalar may
   also come packed, as wire type 2). */
static unsigned field_wire_type(const ProtobufCFieldDescriptor *f) {
  switch (f->type) {
  case PROTOBUF_C_TYPE_FIXED64:
  case PROTOBUF_C_TYPE_SFIXED64:
  case PROTOBUF_C_TYPE_DOUBLE: return 1;
  case PROTOBUF_C_TYPE_FIXED32:
  case PROTOBUF_C_TYPE_SFIXED32:
  case PROTOBUF_C_TYPE_FLOAT: return 5;
  case PROTOBUF_C_TYPE_STRING:
  case PROTOBUF_C_TYPE_BYTES:
  case PROTOBUF_C_TYPE_MESSAGE: return 2;
  default: return 0;
  }
}

/* A message being walked: its descriptor and where its bytes end. */
typedef struct WireLevel {
  const ProtobufCMessageDescriptor *d;
  size_t end;
} WireLevel;

/* Whether the bytes read as message d: every record well formed and within
   the message that holds it, declared fields of the wire type their type
   needs, and messages nested at most PB_MAX_DEPTH deep.  Iterative, so
   the walk itself needs no stack; errors are located at the record's
   byte offset (plus base, where p is inside the file). */
static bool wire_check(int file, size_t base, const ProtobufCMessageDescriptor *d, const uint8_t *p, size_t n,
                       PbLocs *locs) {
  WireLevel level[PB_MAX_DEPTH + 1];
  int depth = 0;
  level[0] = (WireLevel){d, n};
  size_t i = 0;
  for (;;) {
    while (i == level[depth].end) {
      if (depth == 0) return true;
      depth--;
    }
    size_t at = i, end = level[depth].end;
    SrcLoc loc = {file, (uint32_t)(base + at)};
    uint64_t key, len = 0;
    if (!read_varint(p, end, &i, &key)) {
      error_at(loc, "truncated field key");
      return false;
    }
    unsigned wire = (unsigned)(key & 7);
    uint64_t number = key >> 3;
    if (number == 0 || number > 0x1fffffff) {
      error_at(loc, "field number %llu: not a protobuf message", (unsigned long long)number);
      return false;
    }
    bool ok = true;
    switch (wire) {
    case 0: {
      uint64_t value;
      ok = read_varint(p, end, &i, &value);
      break;
    }
    case 1: len = 8; break;
    case 5: len = 4; break;
    case 2: ok = read_varint(p, end, &i, &len); break;
    default:
      error_at(loc, "unknown wire type %u: not a protobuf message", wire);
      return false;
    }
    if (!ok) {
      error_at(loc, "truncated %s", wire ? "length" : "varint");
      return false;
    }
    if (len > end - i) {
      if (depth == 0)
        error_at(loc, "field runs past the end of the data (%llu bytes, %zu left): the file is truncated",
                 (unsigned long long)len, end - i);
      else
        error_at(loc, "field runs past the end of the %s that holds it (%llu bytes, %zu left)",
                 level[depth].d->name, (unsigned long long)len, end - i);
      return false;
    }
    if (depth == 0 && locs) VEC_PUSH(*locs, ((PbFieldLoc){(uint32_t)number, (uint32_t)at}));
    const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(level[depth].d, (unsigned)number);
    if (f && wire != field_wire_type(f) && !(wire == 2 && f->label == PROTOBUF_C_LABEL_REPEATED)) {
      error_at(loc, "field '%s' of %s has wire type %u, not %u", f->name, level[depth].d->name, wire,
               field_wire_type(f));
      return false;
    }
    if (f && f->type == PROTOBUF_C_TYPE_MESSAGE) {
      if (depth == PB_MAX_DEPTH) {
        error_at(loc, "messages nested more than %d deep: past the nesting limit", PB_MAX_DEPTH);
        return false;
      }
      level[++depth] = (WireLevel){f->descriptor, i + (size_t)len};
      continue;
    }
    i += (size_t)len;
  }
}

ProtobufCMessage *pb_parse_binary_locs(int file, const ProtobufCMessageDescriptor *d, PbLocs *locs) {
  const SrcFile *sf = src_get(file);
  const uint8_t *p = (const uint8_t *)sf->text;
  src_set_binary(file); /* diagnostics say file:OFFSET */
  if (!wire_check(file, 0, d, p, sf->len, locs)) return NULL;
  ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, sf->len, p);
  SrcLoc start = {file, 0};
  if (!m) error_at(start, "not a valid binary %s (a field has the wrong type or bad contents)", d->name);
  return m;
}

ProtobufCMessage *pb_parse_binary_at(int file, size_t off, size_t n, const ProtobufCMessageDescriptor *d) {
  const SrcFile *sf = src_get(file);
  const uint8_t *p = (const uint8_t *)sf->text + off;
  src_set_binary(file);
  if (!wire_check(file, off, d, p, n, NULL)) return NULL;
  ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, n, p);
  SrcLoc start = {file, (uint32_t)off};
  if (!m) error_at(start, "not a valid binary %s (a field has the wrong type or bad contents)", d->name);
  return m;
}

ProtobufCMessage *pb_parse_binary(int file, const ProtobufCMessageDescriptor *d) {
  return pb_parse_binary_locs(file, d, NULL);
}

SrcLoc pb_field_loc(const PbLocs *locs, int file, uint32_t field, size_t index) {
  for (int i = 0; locs && i < locs->len; i++)
    if (locs->data[i].field == field && index-- == 0) return (SrcLoc){file, locs->data[i].off};
  return (SrcLoc){file, 0};
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

bool pb_is_text_path(const char *path) {
  return ends_with(path, ".pbtxt") || ends_with(path, ".txt") || ends_with(path, ".prototxt");
}

ProtobufCMessage *pb_parse_file_locs(int file, const ProtobufCMessageDescriptor *d, PbLocs *locs) {
  return pb_is_text_path(src_get(file)->name) ? pb_parse_text_locs(file, d, locs)
                                               : pb_parse_binary_locs(file, d, locs);
}

ProtobufCMessage *pb_parse_file(int file, const ProtobufCMessageDescriptor *d) {
  return pb_parse_file_locs(file, d, NULL);
}

ProtobufCMessage *pb_read_file(const char *path, const ProtobufCMessageDescriptor *d) {
  int file = src_load(path);
  return file < 0 ? NULL : pb_parse_file(file, d);
}

void pb_free(ProtobufCMessage *m) {
  if (m) protobuf_c_message_free_unpacked(m, NULL);
}
