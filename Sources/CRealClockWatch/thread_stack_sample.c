// Samples the stack of another thread of the process: the scenario runner's main-thread watchdog names
// the code that has blocked the main thread (a busy loop, Thread.sleep, a semaphore wait) this way.
//
// The handler only calls `backtrace` (warmed up first, so it does not load libgcc_s inside the handler),
// writes to static storage and posts a semaphore: async-signal-safe in practice on glibc. Linux only
// (real-time signals, sem_timedwait): elsewhere no thread can be sampled and the watchdog names the step.
#define _GNU_SOURCE
#include "CThreadStackSample.h"

#ifdef __linux__

#include <errno.h>
#include <execinfo.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <time.h>

enum { sample_capacity = 128 };

static void *sample_frames[sample_capacity];
static volatile sig_atomic_t sample_count = 0;
static sem_t sample_ready;
static pthread_mutex_t sample_turn = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t sample_setup_once = PTHREAD_ONCE_INIT;
static int sample_signal = -1;

static void sample_handler(int signal_number, siginfo_t *info, void *context) {
    (void)signal_number;
    (void)info;
    (void)context;
    int saved = errno;
    sample_count = backtrace(sample_frames, sample_capacity);
    sem_post(&sample_ready);
    errno = saved;
}

static void sample_setup(void) {
    if (sem_init(&sample_ready, 0, 0) != 0) return;
    void *warm[4];
    (void)backtrace(warm, 4);
    // A real-time signal near the top: the runtime, Dispatch and glibc use none of them.
    int chosen = SIGRTMAX - 3;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = sample_handler;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(chosen, &action, NULL) == 0) sample_signal = chosen;
}

int devicesim_allow_stack_samples_of_this_thread(void) {
    pthread_once(&sample_setup_once, sample_setup);
    if (sample_signal < 0) return 0;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sample_signal);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL) == 0;
}

int devicesim_sample_thread_stack(pthread_t thread, void **frames, int capacity, int timeout_ms) {
    pthread_once(&sample_setup_once, sample_setup);
    if (sample_signal < 0) return -1;
    pthread_mutex_lock(&sample_turn);
    while (sem_trywait(&sample_ready) == 0) {}   // a late answer to an earlier sample
    sample_count = 0;
    int result = -1;
    if (pthread_kill(thread, sample_signal) == 0) {
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_sec += timeout_ms / 1000;
        deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_sec += 1;
            deadline.tv_nsec -= 1000000000L;
        }
        int waited;
        do { waited = sem_timedwait(&sample_ready, &deadline); } while (waited != 0 && errno == EINTR);
        if (waited == 0) {
            int count = sample_count < capacity ? sample_count : capacity;
            for (int index = 0; index < count; index++) frames[index] = sample_frames[index];
            result = count;
        }
    }
    pthread_mutex_unlock(&sample_turn);
    return result;
}

#else

int devicesim_allow_stack_samples_of_this_thread(void) { return 0; }

int devicesim_sample_thread_stack(pthread_t thread, void **frames, int capacity, int timeout_ms) {
    (void)thread;
    (void)frames;
    (void)capacity;
    (void)timeout_ms;
    return -1;
}

#endif
