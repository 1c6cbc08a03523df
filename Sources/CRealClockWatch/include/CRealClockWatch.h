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



#endif
