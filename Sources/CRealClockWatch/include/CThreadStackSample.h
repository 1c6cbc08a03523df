#ifndef CTHREADSTACKSAMPLE_H
#define CTHREADSTACKSAMPLE_H

#include <pthread.h>

/// Samples the stack of `thread` (another thread of this process, e.g. the main thread blocked by a
/// scenario app's main-actor code): sends it a signal whose handler records its return addresses with
/// glibc's `backtrace` (which unwinds through the signal frame to the interrupted code), and waits at most
/// `timeout_ms` for them. Writes at most `capacity` addresses, innermost first (the handler's own frames
/// included), to `frames`. Returns how many, or -1 when the thread did not answer in time (it may be
/// blocked with signals masked, or inside the handler of an earlier sample). One sample at a time.
int devicesim_sample_thread_stack(pthread_t thread, void **frames, int capacity, int timeout_ms);

/// Lets the calling thread be sampled: unblocks the sampling signal on it (a process started from a
/// Dispatch worker thread inherits its blocked signals) and installs the handler. Returns 1 if it can be.
int devicesim_allow_stack_samples_of_this_thread(void);

#endif
