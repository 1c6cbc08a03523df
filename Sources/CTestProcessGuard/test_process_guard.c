// Ends a test process whose test runner is gone, so that no test process outlives `swift test`.
//
// Why: a test that deadlocks (issue 45: two @MainActor tests waiting on each other, at 0 % CPU) keeps
// its process alive after Swift Testing's time limit has passed, and when `swift test` is killed (a CI
// job's timeout, Ctrl-C) that process used to live on, orphaned, on a reused runner. Linked into every
// test binary that links DeviceSimTesting: when the process starts, if its parent is `swift-test` or
// `swift-build` (the runner SwiftPM starts it from), a thread of its own checks twice a second that
// this parent is still its parent; once it is not (the runner ended or was killed, and the process was
// handed to init or a subreaper), it says so on stderr and ends the process with status 1.
//
// Not `prctl(PR_SET_PDEATHSIG)`: Linux sends that signal when the *thread* that started the child ends,
// and a runner may start test processes from a worker thread that ends while they still run. The check
// costs one `getppid` every 500 ms. A process started any other way (by hand, by a debugger, by another
// test) is not watched.
#define _GNU_SOURCE
#include "CTestProcessGuard.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pid_t watched_runner = 0;

pid_t devicesim_watched_test_runner(void) { return watched_runner; }

/// Whether process `pid` is a SwiftPM test runner, by its command name.
static int is_test_runner(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
    FILE *file = fopen(path, "r");
    if (file == NULL) return 0;
    char name[32] = {0};
    int read = fgets(name, sizeof name, file) != NULL;
    fclose(file);
    if (!read) return 0;
    name[strcspn(name, "\n")] = 0;
    return strcmp(name, "swift-test") == 0 || strcmp(name, "swift-build") == 0;
}

static void end_orphaned_process(void) {
    char message[200];
    int length = snprintf(message, sizeof message,
        "DeviceSim: the test runner (pid %d) has ended; ending this test process (pid %d) so that it does not outlive it\n",
        (int)watched_runner, (int)getpid());
    if (length > 0) (void)!write(2, message, (size_t)length);
    _exit(1);
}

static void *watch_runner(void *unused) {
    (void)unused;
    const struct timespec interval = {0, 500 * 1000 * 1000};
    while (1) {
        nanosleep(&interval, NULL);
        if (getppid() != watched_runner) end_orphaned_process();
    }
    return NULL;
}

__attribute__((constructor)) static void watch_test_runner(void) {
#ifdef __linux__
    pid_t parent = getppid();
    if (parent <= 1 || !is_test_runner(parent)) return;
    watched_runner = parent;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 64 * 1024);
    pthread_t thread;
    if (pthread_create(&thread, &attributes, watch_runner, NULL) != 0) watched_runner = 0;
    pthread_attr_destroy(&attributes);
    if (watched_runner != 0 && getppid() != parent) end_orphaned_process();
#endif
}
