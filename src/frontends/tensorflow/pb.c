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
 */
#include "frontends/tensorflow/pb.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
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
    if (accept(t, '{')) close = '}';
    else if (accept(t, '<')) close = '>';
    else return fail(t, t->pos, "expected '{' to start message field '%s'", f->name);
    StrBuf sub = {0};
    bool ok = parse_message(t, f->descriptor, &sub, close);
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
   string, a [list] of them, or a { } / < > message. */
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
          if (!parse_value(t, f, out)) return false;
        } while (accept(t, ','));
        if (!accept(t, ']')) return fail(t, t->pos, "expected ',' or ']' in the list of '%s'", f->name);
      }
    } else if (!parse_value(t, f, out)) {
      return false;
    }
    if (!accept(t, ';')) accept(t, ',');
  }
}

/* ---- reading files ---- */

ProtobufCMessage *pb_parse_text(int file, const ProtobufCMessageDescriptor *d) {
  const SrcFile *sf = src_get(file);
  Text t = {file, sf->text, sf->len, 0, false};
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

/* Whether the bytes read as a wire-format message of some kind: every
   record well formed up to the end (errors name the offset). */
static bool wire_check(const char *name, const uint8_t *p, size_t n, size_t base) {
  size_t i = 0;
  while (i < n) {
    size_t at = i;
    uint64_t key = 0;
    int shift = 0;
    do {
      if (i >= n || shift > 63) {
        error_at(SRCLOC_NONE, "%s: truncated field key at byte offset %zu", name, base + at);
        return false;
      }
      key |= (uint64_t)(p[i] & 0x7f) << shift;
      shift += 7;
    } while (p[i++] & 0x80);
    int wire = (int)(key & 7);
    if (key >> 3 == 0) {
      error_at(SRCLOC_NONE, "%s: field number 0 at byte offset %zu: not a protobuf message", name,
               base + at);
      return false;
    }
    uint64_t len = 0;
    switch (wire) {
    case 0:
      shift = 0;
      do {
        if (i >= n || shift > 63) {
          error_at(SRCLOC_NONE, "%s: truncated varint at byte offset %zu", name, base + at);
          return false;
        }
        shift += 7;
      } while (p[i++] & 0x80);
      break;
    case 1: len = 8; break;
    case 5: len = 4; break;
    case 2:
      shift = 0;
      do {
        if (i >= n || shift > 63) {
          error_at(SRCLOC_NONE, "%s: truncated length at byte offset %zu", name, base + at);
          return false;
        }
        len |= (uint64_t)(p[i] & 0x7f) << shift;
        shift += 7;
      } while (p[i++] & 0x80);
      break;
    default:
      error_at(SRCLOC_NONE, "%s: unknown wire type %d at byte offset %zu: not a protobuf message", name,
               wire, base + at);
      return false;
    }
    if (wire != 0 && len > n - i) {
      error_at(SRCLOC_NONE,
               "%s: field at byte offset %zu runs past the end of the data (%llu bytes, %zu left): the file is "
               "truncated",
               name, base + at, (unsigned long long)len, n - i);
      return false;
    }
    i += (size_t)len;
  }
  return true;
}

ProtobufCMessage *pb_parse_binary(int file, const ProtobufCMessageDescriptor *d) {
  const SrcFile *sf = src_get(file);
  const uint8_t *p = (const uint8_t *)sf->text;
  if (!wire_check(sf->name, p, sf->len, 0)) return NULL;
  ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, sf->len, p);
  if (!m)
    error_at(SRCLOC_NONE, "%s: not a valid binary %s (a field has the wrong type or bad contents)", sf->name,
             d->name);
  return m;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

bool pb_is_text_path(const char *path) {
  return ends_with(path, ".pbtxt") || ends_with(path, ".txt") || ends_with(path, ".prototxt");
}

ProtobufCMessage *pb_parse_file(int file, const ProtobufCMessageDescriptor *d) {
  return pb_is_text_path(src_get(file)->name) ? pb_parse_text(file, d) : pb_parse_binary(file, d);
}

ProtobufCMessage *pb_read_file(const char *path, const ProtobufCMessageDescriptor *d) {
  int file = src_load(path);
  return file < 0 ? NULL : pb_parse_file(file, d);
}

void pb_free(ProtobufCMessage *m) {
  if (m) protobuf_c_message_free_unpacked(m, NULL);
}
