@testable import DeviceSimRuntimeHooks
import DeviceSimTime
import Testing

@Suite struct GlobalWorkCaptureTests {
    /// Without the hooks module installed (an app target, which never links it), capture stays off and
    /// says what to link.
    @Test func withoutTheHooksInstalledCaptureIsOffAndSaysWhatToLink() {
        let executor = EventScheduler().executor
        executor.runtimeHooks = nil
        executor.capturesGlobalWork = true
        #expect(!executor.capturesGlobalWork)
        #expect(executor.globalWorkCaptureProblem?.contains("DeviceSimRuntimeHooks.install()") == true)
    }

    /// Without the runtime's hook (a runtime that does not export it), capture stays off and says why
    /// and what to do, instead of silently letting `Task {}`s escape.
    @Test func withoutTheRuntimeHookCaptureIsOffAndSaysWhy() {
        let executor = EventScheduler().executor
        executor.runtimeHooks = ProcessRuntimeHooks(slots: RuntimeHookSlots.find { _ in nil })
        executor.capturesGlobalWork = true
        #expect(!executor.capturesGlobalWork)
        let problem = executor.globalWorkCaptureProblem ?? "no problem reported"
        #expect(problem.contains("swift_task_enqueueGlobal_hook"))
        #expect(problem.contains("capturesGlobalWork = false"))
        executor.capturesGlobalWork = false                      // the test says it does without
        #expect(executor.globalWorkCaptureProblem == nil)
    }

    @Test func withTheHookCaptureIsOnAndNothingIsReported() {
        DeviceSimRuntimeHooks.install()
        let executor = EventScheduler().executor
        executor.capturesGlobalWork = true
        #expect(executor.capturesGlobalWork)
        #expect(executor.globalWorkCaptureProblem == nil)
    }
}
