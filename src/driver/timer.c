/*
 * timer.c - `--timeout SECONDS`: a thread that raises an InterpCancel's
 * stop flag when the time is up.  The loops of the run (interpreted and
 * compiled) poll the flag and stop with an error at the loop; the thread
 * itself never touches the run.  A run that ends first stops the thread,
 * which is waiting on a condition variable and wakes at once.
 *
 * Compiling stops at its next step once the flag is up, but LLVM's
 * optimizer and code generator cannot be interrupted: when the time is up
 * during a compilation that has not stopped a grace period later, the
 * thread reports the timeout and ends the process (exit status 1).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "driver/driver.h"

struct RunTimer {
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  struct timespec deadline; /* CLOCK_MONOTONIC */
  bool done;
  InterpCancel *cancel;
  atomic_int compiling; /* inside a compilation (run_timer_compiling) */
};

/* after the time is up, how long a compilation may take to notice */
#define GRACE_SECONDS 2

static void *timer_main(void *arg) {
  RunTimer *t = arg;
  pthread_mutex_lock(&t->mu);
  int rc = 0;
  while (!t->done && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&t->cv, &t->mu, &t->deadline);
  if (!t->done) atomic_store(&t->cancel->stop, 1);
  /* a compilation gets a grace period to stop by itself */
  t->deadline.tv_sec += GRACE_SECONDS;
  rc = 0;
  while (!t->done && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&t->cv, &t->mu, &t->deadline);
  if (!t->done && atomic_load(&t->compiling)) {
    fprintf(stderr, "xlac: error: %s while compiling (inside LLVM, which cannot be interrupted); stopped\n",
            t->cancel->reason ? t->cancel->reason : "the time is up");
    fflush(stdout);
    _exit(1);
  }
  pthread_mutex_unlock(&t->mu);
  return NULL;
}

RunTimer *run_timer_start(double seconds, InterpCancel *c) {
  RunTimer *t = xcalloc(1, sizeof(RunTimer));
  t->cancel = c;
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&t->cv, &ca);
  pthread_condattr_destroy(&ca);
  pthread_mutex_init(&t->mu, NULL);
  clock_gettime(CLOCK_MONOTONIC, &t->deadline);
  double whole = (double)(time_t)seconds;
  t->deadline.tv_sec += (time_t)seconds;
  t->deadline.tv_nsec += (long)((seconds - whole) * 1e9);
  if (t->deadline.tv_nsec >= 1000000000L) {
    t->deadline.tv_sec++;
    t->deadline.tv_nsec -= 1000000000L;
  }
  if (pthread_create(&t->thread, NULL, timer_main, t) != 0) {
    /* without a thread the run cannot be stopped: say so and stop it now */
    fprintf(stderr, "xlac: error: cannot start the --timeout thread\n");
    atomic_store(&c->reported, 1);
    atomic_store(&c->stop, 1);
    pthread_cond_destroy(&t->cv);
    pthread_mutex_destroy(&t->mu);
    xfree(t);
    return NULL;
  }
  return t;
}

void run_timer_compiling(RunTimer *t, bool on) {
  if (t) atomic_store(&t->compiling, on);
}

void run_timer_stop(RunTimer *t) {
  if (!t) return;
  pthread_mutex_lock(&t->mu);
  t->done = true;
  pthread_cond_signal(&t->cv);
  pthread_mutex_unlock(&t->mu);
  pthread_join(t->thread, NULL);
  pthread_cond_destroy(&t->cv);
  pthread_mutex_destroy(&t->mu);
  xfree(t);
}
