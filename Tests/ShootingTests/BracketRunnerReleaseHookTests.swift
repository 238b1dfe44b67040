import Exposure
import Foundation
import Shooting
import TestSupport
import Testing

/// The "about to fire" record written by the camera's release hook: once per frame attempt, before the
/// release, and a failure of it stops the run with nothing fired. Virtual time throughout.
@Suite("BracketRunner: the in-flight record in the release hook")
struct BracketRunnerReleaseHookTests {
    /// Runs `runner` to the end, advancing the test clock past each busy backoff (`backoffs` of them).
    private func run(_ runner: BracketRunner, clock: TestClock, backoffs: Int) async -> ShootResult {
        let task = Task { await runner.run() }
        for _ in 0..<backoffs {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(10))
        }
        return await task.value
    }

    @Test func aBusyReleaseRetriedRecordsTheFrameInFlightOnce() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let journal = sampleJournal()
        try await store.create(journal)
        var script = InMemoryCamera.Script()
        script.busyReleases = 2 // the first frame's release is refused twice after the hook ran
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let recorder = JournalRecorder(journal: journal, store: store, now: { journalEpoch })
        let result = await run(
            makeRunner(camera, plan: journal.plan, clock: clock, recorder: recorder), clock: clock, backoffs: 2)

        #expect(result.isComplete)
        // Three calls of the hook for frame 1 (two refused releases), one for each other frame.
        #expect(await camera.hookCalls == journal.plan.totalExposures + 2)
        let saved = try await store.load(id: journal.id)
        let first = saved.frame(at: .start)
        #expect(first.attempts == 1 && !first.possiblyDuplicated)
        #expect(saved.frame(at: ShootPosition(set: 1, frame: 2)).attempts == 1)
    }

    @Test func aBusyReleaseRetriedCallsTheRecorderOnce() async {
        var script = InMemoryCamera.Script()
        script.busyReleases = 1
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let recorder = RecordingRecorder()
        let result = await run(
            makeRunner(camera, plan: plan(sets: 1, frames: 2), clock: clock, recorder: recorder), clock: clock,
            backoffs: 1)
        #expect(result.isComplete)
        let first = ShootPosition(set: 1, frame: 1), second = ShootPosition(set: 1, frame: 2)
        #expect(
            await recorder.entries == [
                .started(first), .willFire(first), .fired(first), .willFire(second), .fired(second), .saved(first),
                .saved(second), .finished(complete: true)
            ])
        #expect(await camera.hookCalls == 3)
    }

    @Test func aRecorderFailureInTheHookStopsRecordingFailedWithNothingFired() async {
        let camera = InMemoryCamera()
        let failing = ShootPosition(set: 1, frame: 2)
        let recorder = RecordingRecorder(failWillFireAt: failing)
        let (result, events) = await runCollecting(
            makeRunner(camera, plan: plan(sets: 1, frames: 3), recorder: recorder))
        #expect(result.recordingFailed)
        // Frame 1 fired and waits in the camera (the journal says so): resume fetches it first.
        #expect(result.resumePosition == .start && result.saved == 0)
        #expect(await recorder.entries.contains(.fired(.start)))
        // The camera called the hook for frame 2 and fired nothing after it; no failure is recorded for it.
        #expect(await camera.hookCalls == 2)
        #expect(await camera.shotSettings.count == 1)
        #expect(await !recorder.entries.contains { if case .failed = $0 { true } else { false } })
        // Frame 2 got as far as `.capturing`: the hook runs inside the capture.
        #expect(events.contains { $0.isPhase(.capturing, set: 1, frame: 2) })
        #expect(!events.contains { $0.isPhase(.inCamera, set: 1, frame: 2) })
    }

    /// A capture that fails for good before the hook (busy before the half-press) cannot have fired; one that
    /// fails after it (the release refused) may have.
    @Test(arguments: [(beforeHook: true, mayHaveFired: false), (beforeHook: false, mayHaveFired: true)])
    func mayHaveFiredSaysWhetherTheHookRan(beforeHook: Bool, mayHaveFired: Bool) async {
        var script = InMemoryCamera.Script()
        if beforeHook { script.busyCaptures = 3 } else { script.busyReleases = 3 }
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let recorder = RecordingRecorder()
        let result = await run(
            makeRunner(camera, plan: plan(sets: 1, frames: 2), clock: clock, recorder: recorder), clock: clock,
            backoffs: 2)
        #expect(result.failure as? InMemoryCamera.InMemoryCameraError == .busy)
        #expect(await camera.shotSettings.isEmpty)
        #expect(await recorder.entries.contains(.failed(.start, mayHaveFired: mayHaveFired)))
        #expect(await recorder.entries.filter { $0 == .willFire(.start) }.count == (beforeHook ? 0 : 1))
    }
}
