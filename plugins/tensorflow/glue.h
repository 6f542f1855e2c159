/* The C++ part of libxlac_tf.so (register.cc), called from npd.c.  Each
   returns NULL on success, else a message the caller frees with free(). */
#ifndef XLAC_TF_GLUE_H
#define XLAC_TF_GLUE_H
#ifdef __cplusplus
extern "C" {
#endif
const char *xlac_tf_built_for(void);
char *xlac_tf_register_client(const char *device_type);
char *xlac_tf_register_compilation_device(const char *device_type, const char *jit_device);
/* bytes of zeroed memory TensorFlow frees with delete[] (operator new[]);
   NULL when memory runs out */
void *xlac_tf_new_array(size_t bytes);
#ifdef __cplusplus
}
#endif
#endif
