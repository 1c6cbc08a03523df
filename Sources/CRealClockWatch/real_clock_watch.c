// Sees every Dispatch timer the process arms, so that DeviceSim can tell when code running in a
// simulation sleeps on a real clock.
//
// Why: Swift 6.3 on Linux gives no hook for `Task.sleep` or `ContinuousClock.sleep` (they reach none of
// the runtime's delay/deadline hooks, see DESIGN.md §4): the runtime arms a Dispatch timer through
// `dispatch_after_f` (or `dispatch_source_set_timer` when a tolerance is given), and so does
// `DispatchQueue.asyncAfter`. These two functions, defined here, are linked into the executable (a test
// binary, `devicesim`), so the dynamic linker resolves libswift_Concurrency's and libswiftDispatch's calls
// to them first; each calls the observer DeviceSimTime installed, on the arming thread, then the real
// function. Nothing else changes. `dispatch_async_f` and `dispatch_async` are watched the same way, for
// work queued on the main queue only (every main-actor job on Linux is queued with `dispatch_async_f`):
// work that simulated code running on another thread sends to the main actor. If this object is not in the executable (DeviceSimTime in a shared
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



typedef void (*async_f_function)(void *queue, void *context, work_function work);
typedef void (*async_function)(void *queue, void *block);

void dispatch_async_f(void *queue, void *context, work_function work);
void dispatch_async(void *queue, void *block);

static _Atomic(devicesim_main_queue_observer) main_queue_observer = NULL;
static void *_Atomic main_queue = NULL;

int devicesim_set_main_queue_observer(devicesim_main_queue_observer new_observer) {
    atomic_store(&main_queue, dlsym(RTLD_DEFAULT, "_dispatch_main_q"));
    atomic_store(&main_queue_observer, new_observer);
    return dlsym(RTLD_DEFAULT, "dispatch_async_f") == (void *)dispatch_async_f;
}

static void notify_main_queue(void *queue) {
    devicesim_main_queue_observer current = atomic_load_explicit(&main_queue_observer, memory_order_acquire);
    if (current != NULL && queue != NULL && queue == atomic_load_explicit(&main_queue, memory_order_relaxed)) current();
}

void dispatch_async_f(void *queue, void *context, work_function work) {
    static _Atomic(async_f_function) real = NULL;
    async_f_function function = atomic_load_explicit(&real, memory_order_acquire);
    if (function == NULL) {
        function = (async_f_function)dlsym(RTLD_NEXT, "dispatch_async_f");
        atomic_store(&real, function);
    }
    notify_main_queue(queue);
    function(queue, context, work);
}

void dispatch_async(void *queue, void *block) {
    static _Atomic(async_function) real = NULL;
    async_function function = atomic_load_explicit(&real, memory_order_acquire);
    if (function == NULL) {
        function = (async_function)dlsym(RTLD_NEXT, "dispatch_async");
        atomic_store(&real, function);
    }
    notify_main_queue(queue);
    function(queue, block);
}
