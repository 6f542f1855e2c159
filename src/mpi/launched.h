/*
 * launched.h - whether an MPI launcher (mpirun, srun, ...) started this
 * process, from the environment it sets; no MPI needed to ask (the JAX
 * plugin asks before it decides to load MPI at all).
 */
#ifndef XLAC_MPI_LAUNCHED_H
#define XLAC_MPI_LAUNCHED_H

#include <stdlib.h>

static inline int mpi_launched(void) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS"};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
    if (getenv(vars[i])) return 1;
  return 0;
}

#endif
