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

/* A loaded file (src_load) as text format / binary wire format; NULL with
   an error reported (text: at file:line:col; binary: at the byte offset). */
ProtobufCMessage *pb_parse_text(int file, const ProtobufCMessageDescriptor *d);
ProtobufCMessage *pb_parse_binary(int file, const ProtobufCMessageDescriptor *d);
/* tfcompile's rule: text format for .pbtxt / .prototxt / .txt, binary
   otherwise. */
bool pb_is_text_path(const char *path);
/* A loaded file, text or binary by its name. */
ProtobufCMessage *pb_parse_file(int file, const ProtobufCMessageDescriptor *d);
/* Loads path and parses it by that rule. */
ProtobufCMessage *pb_read_file(const char *path, const ProtobufCMessageDescriptor *d);
void pb_free(ProtobufCMessage *m);

#endif
