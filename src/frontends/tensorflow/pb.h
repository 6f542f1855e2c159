/*
 * pb.h - protobuf messages from files (pb.c): the binary wire format
 * through protobuf-c, and the text format through one parser driven by
 * protobuf-c's descriptors, for any message xlac declares (tensorflow.proto,
 * tf2xla.proto, generated into the build directory).
 */
#ifndef XLAC_FRONTENDS_TENSORFLOW_PB_H
#define XLAC_FRONTENDS_TENSORFLOW_PB_H

#include <protobuf-c/protobuf-c.h>

#include "support/support.h"

/* How deep messages may nest (a message field inside a message inside ...).
   protobuf-c unpacks (and frees) nested messages recursively, so input
   nested deeper is refused before it gets there: a few kilobytes of
   nesting would otherwise overflow the stack.  TensorFlow's graphs nest
   about a dozen deep; protobuf's own readers stop at 100 as well. */
#define PB_MAX_DEPTH 100

/* Where the top-level fields of a message were read, in file order: the
   field number and the byte offset (text: the field's name, or the value
   in a [list]; binary: the record's key).  Diagnostics about an entry of a
   hand-written message (the Config's feed 2) point there. */
typedef struct PbFieldLoc {
  uint32_t field;
  uint32_t off;
} PbFieldLoc;
typedef struct PbLocs {
  PbFieldLoc *data;
  int len, cap;
} PbLocs;

/* A loaded file (src_load) as text format / binary wire format; NULL with
   an error reported (text: at file:line:col; binary: at file:OFFSET, the
   file marked binary).  locs, when not NULL, gets the top-level fields'
   locations (free with VEC_FREE). */
ProtobufCMessage *pb_parse_text(int file, const ProtobufCMessageDescriptor *d);
ProtobufCMessage *pb_parse_binary(int file, const ProtobufCMessageDescriptor *d);
ProtobufCMessage *pb_parse_text_locs(int file, const ProtobufCMessageDescriptor *d, PbLocs *locs);
ProtobufCMessage *pb_parse_binary_locs(int file, const ProtobufCMessageDescriptor *d, PbLocs *locs);
/* The message in bytes [off, off + n) of a loaded file, which is binary
   (a value inside another format: a checkpoint's table); NULL with an
   error at the offending byte. */
ProtobufCMessage *pb_parse_binary_at(int file, size_t off, size_t n, const ProtobufCMessageDescriptor *d);
/* The location of the index-th top-level record of field number `field`
   (the start of the file when there is none). */
SrcLoc pb_field_loc(const PbLocs *locs, int file, uint32_t field, size_t index);
/* tfcompile's rule: text format for .pbtxt / .prototxt / .txt, binary
   otherwise. */
bool pb_is_text_path(const char *path);
/* A loaded file, text or binary by its name. */
ProtobufCMessage *pb_parse_file(int file, const ProtobufCMessageDescriptor *d);
ProtobufCMessage *pb_parse_file_locs(int file, const ProtobufCMessageDescriptor *d, PbLocs *locs);
/* Loads path and parses it by that rule. */
ProtobufCMessage *pb_read_file(const char *path, const ProtobufCMessageDescriptor *d);
void pb_free(ProtobufCMessage *m);

#endif
