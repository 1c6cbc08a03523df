#ifndef CREALCLOCKWATCH_H
#define CREALCLOCKWATCH_H

#include "CThreadStackSample.h"

/// Called on the thread that arms a Dispatch timer (`dispatch_after_f`, `dispatch_source_set_timer`):
/// every `Task.sleep`, `ContinuousClock`/`SuspendingClock` sleep and `DispatchQueue.asyncAfter` of Swift
/// 6.3 on Linux arms one. Set once; NULL: nothing is watched.
/// `from_timer_source` is 1 for `dispatch_source_set_timer` (a sleep with a tolerance, and run loops'
/// own timers), 0 for `dispatch_after_f` (`Task.sleep`, clock sleeps, `asyncAfter`).
typedef void (*devicesim_real_clock_observer)(int from_timer_source);

/// Installs the observer (process-wide). Returns 1 if this process's Dispatch timers pass through the
/// watch (the watch is linked into the executable), 0 if not.
int devicesim_set_real_clock_observer(devicesim_real_clock_observer observer);

/// Called on the thread that queues work on the main dispatch queue (`dispatch_async_f`, as the Swift
/// runtime queues every main-actor job on Linux, and `dispatch_async`, as `DispatchQueue.main.async` does).
typedef void (*devicesim_main_queue_observer)(void);

/// Installs the observer of main-queue work (process-wide). Returns 1 if this process's main-queue work
/// passes through the watch (the watch is linked into the executable), 0 if not.
int devicesim_set_main_queue_observer(devicesim_main_queue_observer observer);


/// From now on, keeps every job queued on the main queue with `dispatch_async_f` (every main-actor job on
/// Linux) in a list as well, so that `devicesim_run_held_main_queue_jobs` can run it early. Returns 1 if
/// this process's main-queue work passes through the watch, 0 if not (then nothing is held).
int devicesim_hold_main_queue_jobs(void);

/// Runs, on the calling thread, in the order they were queued, the held main-queue jobs queued before this
/// call by one of `owners` (Swift tasks, `*owner_count` of them; when 0, the calling task is made the
/// first) that Dispatch has not run yet; Dispatch then skips them. The task of each job run is added to
/// `owners` (up to `capacity`), so what it queues is run by the next call. Other jobs (another test's) keep
/// their place. Call it on the main queue only (a synchronous advance on the main actor), keeping `owners`
/// for the whole advance. Returns how many ran (0 when called from a job it runs).
long devicesim_run_held_main_queue_jobs(void **owners, long *owner_count, long capacity);

/// Until called again with NULL, the main-queue jobs queued on the calling thread belong to `owners`
/// (the same buffer given to `devicesim_run_held_main_queue_jobs`): a synchronous advance on the main
/// queue runs nothing but its own work on its thread.
void devicesim_own_main_queue_jobs_queued_here(void **owners);

/// The address of the Swift runtime's `swift_task_enqueueGlobal_hook` (`hook` 0) or
/// `swift_task_enqueueMainExecutor_hook` (1) as linked into this binary, or NULL: for a binary that has
/// the runtime in it and does not export its symbols (`devicesim`'s release build on Linux), where `dlsym`
/// finds neither.
void *devicesim_linked_enqueue_hook(int hook);

#endif
