// Sees every Dispatch timer the process arms, so that DeviceSim can tell when code running in a
// simulation sleeps on a real clock.
//
// Why: Swift 6.3 on Linux gives no hook for `Task.sleep` or `ContinuousClock.sleep` (they reach none of
// the runtime's delay/deadline hooks, see DESIGN.md §4): the runtime arms a Dispatch timer through
// `dispatch_after_f` (or `dispatch_source_set_timer` when a tolerance is given), and so does
// `DispatchQueue.asyncAfter`. These two functions, defined here, are linked into the executable (a test
// binary, `devicesim`), so the dynamic linker resolves libswift_Concurrency's and libswiftDispatch's calls
// to them first; each calls the observer DeviceSimTime installed, on the arming thread, then the real
// function. Nothing else changes. If this object is not in the executable (DeviceSimTime in a shared
// library loaded after libdispatch), timers are not seen and nothing is reported.
#define _GNU_SOURCE
#include "CRealClockWatch.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>

typedef void (*work_function)(void *);
typedef void (*after_f_function)(uint64_t when, void *queue, void *context, work_function work);
typedef void (*set_timer_function)(void *source, uint64_t start, uint64_t interval, uint64_t leeway);

void dispatch_after_f(uint64_t when, void *queue, void *context, work_function work);

static _Atomic(devicesim_real_clock_observer) observer = NULL;
static _Atomic(int) passes_through = 0;

int devicesim_set_real_clock_observer(devicesim_real_clock_observer new_observer) {
    atomic_store(&observer, new_observer);
    return atomic_load(&passes_through) || dlsym(RTLD_DEFAULT, "dispatch_after_f") == (void *)dispatch_after_f;
}

static void notify(int from_timer_source) {
    atomic_store(&passes_through, 1);
    devicesim_real_clock_observer current = atomic_load(&observer);
    if (current != NULL) current(from_timer_source);
}

void dispatch_after_f(uint64_t when, void *queue, void *context, work_function work) {
    static _Atomic(after_f_function) real = NULL;
    after_f_function function = atomic_load(&real);
    if (function == NULL) {
        function = (after_f_function)dlsym(RTLD_NEXT, "dispatch_after_f");
        atomic_store(&real, function);
    }
    notify(0);
    function(when, queue, context, work);
}

void dispatch_source_set_timer(void *source, uint64_t start, uint64_t interval, uint64_t leeway) {
    static _Atomic(set_timer_function) real = NULL;
    set_timer_function function = atomic_load(&real);
    if (function == NULL) {
        function = (set_timer_function)dlsym(RTLD_NEXT, "dispatch_source_set_timer");
        atomic_store(&real, function);
    }
    notify(1);
    function(source, start, interval, leeway);
}


