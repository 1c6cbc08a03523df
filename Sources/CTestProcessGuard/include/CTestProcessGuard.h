#ifndef CTESTPROCESSGUARD_H
#define CTESTPROCESSGUARD_H

#include <sys/types.h>

/// The process id of the test runner this process watches (`swift-test` or `swift-build`, its parent when
/// it started), or 0 when it watches none. See test_process_guard.c.
pid_t devicesim_watched_test_runner(void);

#endif
