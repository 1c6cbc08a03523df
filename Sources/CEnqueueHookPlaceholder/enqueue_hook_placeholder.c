// Keeps the Swift runtime's global-enqueue hook slot from ever being empty in a test process that links
// DeviceSimTesting, from the moment the process loads.
//
// Why: swift-concurrency-extras' `withMainSerialExecutor` remembers only *whether* a hook was installed
// when it starts, and when it returns it installs either its own hook again or none at all. If it
// started while the slot was empty (before DeviceSim's first simulation put its hook there), it empties
// the slot when it returns: a simulation advancing on another thread at that moment would lose the
// `Task {}`s of its code to the global executor until its next drain. With this placeholder in the
// slot from the start, such a call always finds a hook and puts its own back, which DeviceSim's
// main-executor hook sees (see GlobalWorkCapture.swift). The placeholder passes every job on unchanged.
#define _GNU_SOURCE
#include "CEnqueueHookPlaceholder.h"

#include <dlfcn.h>
#include <stddef.h>

typedef struct Job Job;
typedef __attribute__((swiftcall)) void (*EnqueueOriginal)(Job *job);
typedef __attribute__((swiftcall)) void (*EnqueueHook)(Job *job, EnqueueOriginal original);

static int installed = 0;

static __attribute__((swiftcall)) void pass_on(Job *job, EnqueueOriginal original) {
    original(job);
}

__attribute__((constructor)) static void install_placeholder(void) {
    EnqueueHook *slot = (EnqueueHook *)dlsym(RTLD_DEFAULT, "swift_task_enqueueGlobal_hook");
    if (slot != NULL && *slot == NULL) {
        *slot = pass_on;
        installed = 1;
    }
}

int devicesim_enqueue_hook_placeholder_installed(void) {
    return installed;
}
