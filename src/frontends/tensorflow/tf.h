/*
 * tf.h - the TensorFlow frontend: a GraphDef (binary or text) and a tf2xla
 * Config in, a verified module out, the computation tfcompile would
 * compile.  See docs/tensorflow.md.
 */
#ifndef XLAC_FRONTENDS_TENSORFLOW_TF_H
#define XLAC_FRONTENDS_TENSORFLOW_TF_H

#include "ir/ir.h"

typedef struct TfOptions {
  const char *config;          /* tf2xla Config (.pbtxt text, else binary), or NULL */
  const char *const *fetches;  /* without a Config: "NODE" or "NODE:i", the results in order */
  int nfetches;
  const char *checkpoint;      /* a TensorFlow checkpoint (V2 prefix or index, or V1 file), or NULL: the
                                  variables not in the Config become constants of its values */
  const char *saver;           /* with a checkpoint: a SaverDef whose format must be the checkpoint's, or NULL */
} TfOptions;

/* Whether path names a GraphDef by its extension: .pb, .pbtxt, .graphdef,
   .prototxt (tfcompile reads .pbtxt as text, the rest as binary). */
bool tf_is_graph_path(const char *path);

/* Reads the graph (and the Config) and lowers what the fetches need into a
   module whose entry @main takes the feeds (and variables) as parameters
   and returns the fetches (then the written variables).  Every op is
   located at its TensorFlow node.  NULL with every problem reported: all
   the unsupported nodes at once, not the first. */
Module *tf_import(const char *graph_path, const TfOptions *o);
/* The same for a file already loaded (src_load / src_add): text format when
   its name ends in .pbtxt, .prototxt or .txt, binary otherwise. */
Module *tf_import_file(int file, const TfOptions *o);
/* The same with the Config already loaded too (config_file >= 0; o->config
   is then not read). */
Module *tf_import_files(int file, int config_file, const TfOptions *o);

/* `xlac tf-clusters`: which connected parts of the graph xlac can compile
   and what breaks them, printed; optionally a picture (.dot or .html by
   extension).  Returns the exit status. */
int tf_clusters(const char *graph_path, const char *picture_path, const TfOptions *o);

/* The op table as Markdown (docs/tensorflow-ops.md, `xlac tf-ops`). */
void tf_op_table_markdown(StrBuf *b);

#endif
