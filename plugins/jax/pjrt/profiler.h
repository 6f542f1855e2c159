/*
 * profiler.h - the plugin's tracer for the framework's profiler (the PJRT
 * profiler extension): while a profiling session runs, every execution is
 * recorded as one event on each device it ran on, and the session gets
 * them as device planes of its trace (profiler.c).
 */
#ifndef XLAC_PJRT_PROFILER_H
#define XLAC_PJRT_PROFILER_H

#include <stdint.h>

#include "pjrt_api.h"
#include "xlac/xlac.h"

/* The extension, to be chained from PJRT_Api.extension_start. */
extern const PJRT_Profiler_Extension xlac_profiler_extension;

/* The time (ns of the realtime clock, the profiler's clock) when a
   session is recording, else 0: a run measured from it is then recorded
   with profiler_record_run. */
int64_t profiler_start_time(void);
/* Records a run of `name` (xe's module) from t0 (profiler_start_time) until
   now on each of the client devices devs[0..ndev-1]; `failed`: the run
   returned an error. */
void profiler_record_run(const char *name, const xlac_executable *xe, const int *devs, int ndev, int64_t t0,
                         bool failed);

#endif
