import Exposure
import Foundation

/// Keeps a shoot's journal current: the runner's `ShootRecorder`, saving atomically at every milestone.
///
/// A failed save before a frame fires stops the run (the runner does not shoot untracked frames), and the
/// frame's record is put back so a later save does not claim it was in flight.
package actor JournalRecorder: ShootRecorder {
    /// The journal, with every change so far (each one saved before the call that made it returns).
    package private(set) var journal: ShootJournal
    private let store: JournalStore
    private let now: @Sendable () -> Date

    /// Records into `journal` (already created in `store`); `now` stamps the entries.
    package init(journal: ShootJournal, store: JournalStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.journal = journal
        self.store = store
        self.now = now
    }

    /// Logs that a run starts at `position` (fresh, or resuming) and marks the shoot in progress (the runner
    /// calls this; nothing else needs to).
    package func runWillStart(at position: ShootPosition, restartingSet: Bool) async throws {
        try await change { journal, time in
            journal.status = .inProgress
            journal.log.append(.init(at: time, event: .started(at: position, restartingSet: restartingSet)))
        }
    }

    /// Marks the frame in flight; a frame that may have fired before becomes possibly duplicated.
    package func frameWillFire(at position: ShootPosition, setting: CameraShutterSpeed) async throws {
        let before = journal.frame(at: position)
        do {
            try await markInFlight(at: position)
        } catch {
            journal.updateFrame(at: position) { $0 = before }
            throw error
        }
    }

    private func markInFlight(at position: ShootPosition) async throws {
        try await change { journal, time in
            journal.updateFrame(at: position) { record in
                switch record.state {
                case .inFlight, .inCamera: record.possiblyDuplicated = true
                case .failed(let failure) where failure.mayHaveFired: record.possiblyDuplicated = true
                case .done(let images, _): record.earlierImages += images
                case .pending, .failed: break
                }
                record.attempts += 1
                record.state = .inFlight(since: time)
            }
        }
    }

    /// Marks the frame in the camera: fired, its image not downloaded yet.
    package func frameDidFire(at position: ShootPosition) async throws {
        try await change { journal, time in
            journal.updateFrame(at: position) { $0.state = .inCamera(since: time) }
        }
    }

    /// Marks the frame done with its files; images recovered from an interrupted earlier attempt are kept
    /// with the frame's earlier images.
    package func frameDidSave(at position: ShootPosition, frame: CapturedFrame) async throws {
        try await change { journal, time in
            journal.updateFrame(at: position) {
                $0.earlierImages += frame.recoveredImages
                if !frame.unmatchedImages.isEmpty {
                    $0.unmatchedImages = ($0.unmatchedImages ?? []) + frame.unmatchedImages
                }
                $0.state = .done(images: frame.images, at: time)
            }
        }
    }

    /// Marks the frame failed.
    package func frameDidFail(at position: ShootPosition, error: any Error, mayHaveFired: Bool) async throws {
        let lost = (error as? any RemoteCameraError)?.isConnectionLost ?? false
        try await change { journal, time in
            journal.updateFrame(at: position) {
                $0.state = .failed(
                    .init(at: time, detail: String(describing: error), connectionLost: lost, mayHaveFired: mayHaveFired)
                )
            }
        }
    }

    /// Logs a pause hold.
    package func runDidPause(_ reason: PauseReason) async throws {
        try await change { journal, time in journal.log.append(.init(at: time, event: .paused(reason))) }
    }

    /// Logs a released hold.
    package func runDidResume(_ reason: PauseReason) async throws {
        try await change { journal, time in journal.log.append(.init(at: time, event: .resumed(reason))) }
    }

    /// Logs the end of the run and sets the shoot's status.
    package func runDidFinish(_ result: ShootResult) async throws {
        try await change { journal, time in
            if let reason = result.stopReason {
                journal.status = .stopped(reason.kind)
                let detail = reason.error.map { String(describing: $0) }
                journal.log.append(
                    .init(at: time, event: .stopped(reason.kind, at: result.resumePosition, detail: detail)))
            } else {
                journal.status = .complete
                journal.log.append(.init(at: time, event: .completed))
            }
        }
    }

    /// Appends a set of `speeds` to the plan (`--check extend`: the frames a range check found missing), its
    /// frames pending, the shoot in progress again and the extension counted in the recipe; returns the position
    /// of its first frame.
    ///
    /// Recorded like any plan: a run stopped in the extension resumes in it.
    package func appendSet(_ speeds: [ShutterSpeed]) async throws -> ShootPosition {
        precondition(!speeds.isEmpty, "an appended set has frames")
        try await change { journal, _ in
            journal.plan.sets.append(speeds)
            journal.frames.append(speeds.map { _ in .pending })
            journal.status = .inProgress
            let extensions = journal.recipe?.extensions ?? 0
            journal.recipe?.extensions = extensions + 1
        }
        return ShootPosition(set: journal.plan.sets.count, frame: 1)
    }

    /// Applies `body` to the journal at once (so overlapping calls never lose each other's changes) and
    /// saves the result; the store drops a snapshot older than the file, so out-of-order saves are harmless.
    private func change(_ body: (inout ShootJournal, Date) -> Void) async throws {
        let time = now()
        body(&journal, time)
        journal.updatedAt = time
        journal.revision += 1
        try await store.save(journal)
    }
}
