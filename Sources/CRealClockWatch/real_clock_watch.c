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
//
// A binary linked with the Swift runtime and Dispatch in it (`devicesim`'s release build on Linux, linked
// with `-static-stdlib`: Package.swift) has libdispatch's own definitions of these four functions, which
// win over the weak ones here, and exports neither them nor the runtime's symbols. There the linker's
// `--wrap=dispatch_after_f` (and the same for the three others) sends every call from outside libdispatch
// to the `__wrap_` functions below, which watch the same way and call libdispatch's (`__real_`, null in a
// binary linked without `--wrap`), and the runtime's and Dispatch's symbols are taken as linked (weak
// references, null where absent) when `dlsym` does not find them.
#define _GNU_SOURCE
#include "CRealClockWatch.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

typedef void (*work_function)(void *);
typedef void (*after_f_function)(uint64_t when, void *queue, void *context, work_function work);
typedef void (*set_timer_function)(void *source, uint64_t start, uint64_t interval, uint64_t leeway);

void dispatch_after_f(uint64_t when, void *queue, void *context, work_function work);
#if defined(__linux__)
extern void __real_dispatch_after_f(uint64_t when, void *queue, void *context, work_function work) __attribute__((weak));
extern void __real_dispatch_source_set_timer(void *source, uint64_t start, uint64_t interval, uint64_t leeway) __attribute__((weak));
#define WRAPPED(function) (__real_##function != NULL)
#else
#define WRAPPED(function) 0
#endif

static _Atomic(devicesim_real_clock_observer) observer = NULL;
static _Atomic(int) passes_through = 0;

int devicesim_set_real_clock_observer(devicesim_real_clock_observer new_observer) {
    atomic_store(&observer, new_observer);
    return atomic_load(&passes_through) || dlsym(RTLD_DEFAULT, "dispatch_after_f") == (void *)dispatch_after_f
        || WRAPPED(dispatch_after_f);
}

static void notify(int from_timer_source) {
    atomic_store(&passes_through, 1);
    devicesim_real_clock_observer current = atomic_load(&observer);
    if (current != NULL) current(from_timer_source);
}

__attribute__((weak)) void dispatch_after_f(uint64_t when, void *queue, void *context, work_function work) {
    static _Atomic(after_f_function) real = NULL;
    after_f_function function = atomic_load(&real);
    if (function == NULL) {
        function = (after_f_function)dlsym(RTLD_NEXT, "dispatch_after_f");
        atomic_store(&real, function);
    }
    notify(0);
    function(when, queue, context, work);
}

#if defined(__linux__)
void __wrap_dispatch_after_f(uint64_t when, void *queue, void *context, work_function work) {
    notify(0);
    __real_dispatch_after_f(when, queue, context, work);
}
#endif

__attribute__((weak)) void dispatch_source_set_timer(void *source, uint64_t start, uint64_t interval, uint64_t leeway) {
    static _Atomic(set_timer_function) real = NULL;
    set_timer_function function = atomic_load(&real);
    if (function == NULL) {
        function = (set_timer_function)dlsym(RTLD_NEXT, "dispatch_source_set_timer");
        atomic_store(&real, function);
    }
    notify(1);
    function(source, start, interval, leeway);
}

#if defined(__linux__)
void __wrap_dispatch_source_set_timer(void *source, uint64_t start, uint64_t interval, uint64_t leeway) {
    notify(1);
    __real_dispatch_source_set_timer(source, start, interval, leeway);
}
#endif



typedef void (*async_f_function)(void *queue, void *context, work_function work);
typedef void (*async_function)(void *queue, void *block);

void dispatch_async_f(void *queue, void *context, work_function work);
void dispatch_async(void *queue, void *block);
#if defined(__linux__)
extern void __real_dispatch_async_f(void *queue, void *context, work_function work) __attribute__((weak));
extern void __real_dispatch_async(void *queue, void *block) __attribute__((weak));
/// Dispatch's main queue and the runtime's current task as linked (null where absent), for a binary that
/// does not export them (see the top of this file).
extern char _dispatch_main_q __attribute__((weak));
extern void swift_task_getCurrent(void) __attribute__((weak));
#define LINKED(symbol) ((void *)&symbol)
#else
#define LINKED(symbol) NULL
#endif

/// Whether `dispatch_async_f` calls from outside libdispatch reach the functions here.
static int watches_async(void) {
    return dlsym(RTLD_DEFAULT, "dispatch_async_f") == (void *)dispatch_async_f || WRAPPED(dispatch_async_f);
}

/// Dispatch's main queue, looked up by name or, where it is not exported, as linked.
static void *find_main_queue(void) {
    void *queue = dlsym(RTLD_DEFAULT, "_dispatch_main_q");
    return queue != NULL ? queue : LINKED(_dispatch_main_q);
}

static _Atomic(devicesim_main_queue_observer) main_queue_observer = NULL;
static void *_Atomic main_queue = NULL;

int devicesim_set_main_queue_observer(devicesim_main_queue_observer new_observer) {
    atomic_store(&main_queue, find_main_queue());
    atomic_store(&main_queue_observer, new_observer);
    return watches_async();
}

static void *dlsym_main_queue(void) {
    void *queue = atomic_load_explicit(&main_queue, memory_order_relaxed);
    if (queue == NULL) {
        queue = find_main_queue();
        atomic_store(&main_queue, queue);
    }
    return queue;
}

static void notify_main_queue(void *queue) {
    devicesim_main_queue_observer current = atomic_load_explicit(&main_queue_observer, memory_order_acquire);
    if (current != NULL && queue != NULL && queue == atomic_load_explicit(&main_queue, memory_order_relaxed)) current();
}

// Main-queue jobs that a synchronous advance on the main queue may run early.
//
// Once `devicesim_hold_main_queue_jobs` was called, every `dispatch_async_f` to the main queue (every
// main-actor job on Linux) goes to Dispatch wrapped in a record that also sits in a first-in, first-out
// list. `devicesim_run_held_main_queue_jobs`, called on the main queue (a synchronous advance made by a
// `@MainActor` test), takes records from that list and runs their work at once, in order; when Dispatch
// later reaches such a record it only frees it. A record Dispatch reaches first leaves the list and runs as
// usual. The main queue is serial, so a job runs exactly once either way.
//
// Only the caller's own jobs run early: each record carries the Swift task that was running on the
// queueing thread when it was queued (NULL: none), and the runner takes only records queued by one of its
// "owners", or that resume one: the task calling it (a @MainActor test) and the tasks whose jobs it has
// run early during the same advance (a view model's `Task {}`, which then queues its own resumptions; a
// task's job is the task itself, and the runtime clears the current task before a task hops), and every
// record queued on the advancing thread while the advance runs (it runs nothing else meanwhile). So a
// synchronous advance in one @MainActor test runs what that test's code queued, never another test's body
// or work, which keep their place in Dispatch. (A caller outside any task, a synchronous XCTest method on
// the main thread, owns the records queued outside any task: XCTest runs one test at a time.)
struct held_job {
    void *context;
    work_function work;
    uint64_t number;
    void *queued_by;
    void *queued_during;
    int listed;
    struct held_job *previous;
    struct held_job *next;
};

static _Atomic(int) holding = 0;
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static struct held_job *held_first = NULL;
static struct held_job *held_last = NULL;
static uint64_t held_numbered = 0;
static _Atomic(int) running_held = 0;
/// The owners of the synchronous advance running on this thread, if any (see
/// devicesim_own_main_queue_jobs_queued_here).
static __thread void *advance_on_this_thread = NULL;

void devicesim_own_main_queue_jobs_queued_here(void **owners) { advance_on_this_thread = owners; }
typedef __attribute__((swiftcall)) void *(*current_task_function)(void);

/// The Swift task running on the calling thread (NULL: none), through the runtime's exported
/// `swift_task_getCurrent`.
static void *current_task(void) {
    static _Atomic(current_task_function) function = NULL;
    current_task_function found = atomic_load_explicit(&function, memory_order_acquire);
    if (found == NULL) {
        found = (current_task_function)dlsym(RTLD_DEFAULT, "swift_task_getCurrent");
        if (found == NULL) found = (current_task_function)LINKED(swift_task_getCurrent);
        if (found == NULL) return NULL;
        atomic_store(&function, found);
    }
    return found();
}

static void unlink_held(struct held_job *job) {
    if (job->previous) job->previous->next = job->next; else held_first = job->next;
    if (job->next) job->next->previous = job->previous; else held_last = job->previous;
    job->previous = job->next = NULL;
    job->listed = 0;
}

static void devicesim_run_held_job_from_dispatch(void *record) {
    struct held_job *job = record;
    pthread_mutex_lock(&held_lock);
    int runs = job->listed;
    if (runs) unlink_held(job);
    pthread_mutex_unlock(&held_lock);
    if (runs) job->work(job->context);
    free(job);
}

int devicesim_hold_main_queue_jobs(void) {
    dlsym_main_queue();
    atomic_store(&holding, 1);
    return watches_async();
}

static int is_owner(void *task, void *const *owners, long count) {
    for (long index = 0; index < count; index += 1) {
        if (owners[index] == task) return 1;
    }
    return 0;
}

long devicesim_run_held_main_queue_jobs(void **owners, long *owner_count, long capacity) {
    if (*owner_count == 0) {
        if (capacity < 1) return 0;
        owners[0] = current_task();
        *owner_count = 1;
    }
    if (atomic_exchange(&running_held, 1)) return 0;   // not from inside a job it runs
    pthread_mutex_lock(&held_lock);
    uint64_t last = held_numbered;
    pthread_mutex_unlock(&held_lock);
    long ran = 0;
    while (1) {
        pthread_mutex_lock(&held_lock);
        struct held_job *job = held_first;
        while (job != NULL && job->number <= last && job->queued_during != (void *)owners
               && !is_owner(job->queued_by, owners, *owner_count) && !is_owner(job->context, owners, *owner_count)) {
            job = job->next;
        }
        if (job == NULL || job->number > last) {
            pthread_mutex_unlock(&held_lock);
            break;
        }
        unlink_held(job);
        void *context = job->context;
        work_function work = job->work;
        pthread_mutex_unlock(&held_lock);
        // A task's job is the task itself: what it queues while it runs is the owners' too.
        if (context != NULL && !is_owner(context, owners, *owner_count) && *owner_count < capacity) {
            owners[*owner_count] = context;
            *owner_count += 1;
        }
        work(context);
        ran += 1;
    }
    atomic_store(&running_held, 0);
    return ran;
}

/// What `dispatch_async_f` does here, then `function` (libdispatch's).
static void watched_async_f(async_f_function function, void *queue, void *context, work_function work) {
    notify_main_queue(queue);
    if (queue != NULL && atomic_load_explicit(&holding, memory_order_acquire)
        && queue == dlsym_main_queue()) {
        struct held_job *job = malloc(sizeof(struct held_job));
        if (job != NULL) {
            job->context = context;
            job->work = work;
            job->listed = 1;
            job->next = NULL;
            pthread_mutex_lock(&held_lock);
            job->number = ++held_numbered;
            job->queued_by = current_task();
            job->queued_during = advance_on_this_thread;
            job->previous = held_last;
            if (held_last) held_last->next = job; else held_first = job;
            held_last = job;
            pthread_mutex_unlock(&held_lock);
            function(queue, job, devicesim_run_held_job_from_dispatch);
            return;
        }
    }
    function(queue, context, work);
}

__attribute__((weak)) void dispatch_async_f(void *queue, void *context, work_function work) {
    static _Atomic(async_f_function) real = NULL;
    async_f_function function = atomic_load_explicit(&real, memory_order_acquire);
    if (function == NULL) {
        function = (async_f_function)dlsym(RTLD_NEXT, "dispatch_async_f");
        atomic_store(&real, function);
    }
    watched_async_f(function, queue, context, work);
}

#if defined(__linux__)
void __wrap_dispatch_async_f(void *queue, void *context, work_function work) {
    watched_async_f(__real_dispatch_async_f, queue, context, work);
}
#endif

__attribute__((weak)) void dispatch_async(void *queue, void *block) {
    static _Atomic(async_function) real = NULL;
    async_function function = atomic_load_explicit(&real, memory_order_acquire);
    if (function == NULL) {
        function = (async_function)dlsym(RTLD_NEXT, "dispatch_async");
        atomic_store(&real, function);
    }
    notify_main_queue(queue);
    function(queue, block);
}

#if defined(__linux__)
void __wrap_dispatch_async(void *queue, void *block) {
    notify_main_queue(queue);
    __real_dispatch_async(queue, block);
}
#endif

#if defined(__linux__)
extern char swift_task_enqueueGlobal_hook __attribute__((weak));
extern char swift_task_enqueueMainExecutor_hook __attribute__((weak));
#endif

void *devicesim_linked_enqueue_hook(int hook) {
    return hook == 0 ? LINKED(swift_task_enqueueGlobal_hook) : LINKED(swift_task_enqueueMainExecutor_hook);
}
