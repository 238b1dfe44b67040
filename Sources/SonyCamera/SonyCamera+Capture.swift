import Exposure
import Foundation
import PTPIPCodec
import Posix
import Shooting
import SonyProtocol
import Synchronization
import Timing

extension SonyCamera {
    /// The battery level (0xD218) and the shots left on the card (0xD249) as the body reports them now (one
    /// change-only read first, when the link is up).
    package func mediaStatus() async -> MediaStatus {
        if case .ready = state { _ = try? await refreshProperties(full: false) }
        return MediaStatus(
            batteryPercent: properties.currentValue(of: .batteryRemaining)?.integerValue.map { Int($0) },
            remainingShots: properties.currentValue(of: .remainingShots)?.integerValue.map { Int($0) })
    }

    /// Messages for the photographer since the last call, each once.
    package func takeNotes() -> [String] {
        defer { pendingNotes.removeAll() }
        return pendingNotes
    }

    /// Queues a message for the photographer (shown once by the runner).
    func note(_ text: String) {
        pendingNotes.append(text)
    }

    /// How long a Long Exposure NR dark frame after an exposure of `exposure` may take: as long as the exposure
    /// from 1 s on, unless the body reports NR off (0xD15B); bodies that do not report it are assumed to have it on.
    func noiseReductionTime(for exposure: Duration) -> Duration {
        guard exposure >= .seconds(1), longExposureNR != false else { return .zero }
        return exposure
    }

    /// Whether the body's Long Exposure NR (0xD15B) is on; nil when it does not report the setting.
    package var longExposureNR: Bool? {
        properties.currentValue(of: .longExposureNR)?.integerValue.map { $0 == 2 }
    }

    /// S1 down (beside `hook`), S2 down, S2 up (after `bulb` on the injected clock when holding BULB, shortened
    /// by the test hook `configuration.timeScale`), S1 up;
    /// on failure the half press is let go when the link still works.
    func pressRelease(holdingFor bulb: Duration?, after hook: @Sendable () async throws -> Void) async throws {
        // The buffer was read empty at the end of the last capture; an announcement of that is old news.
        session.changedHints.remove(SonyPropertyCode.shootingFileInfo.rawValue)
        try await pressHalfway(beside: hook)
        var s2Down = false
        do {
            if focusHandling == .everyFrame, let mode = properties.focusMode, mode.autofocuses {
                // No way to hold one focus: this frame focuses on its own before it fires.
                let result = try await awaitFocus()
                guard result == .focused else {
                    throw SonyCameraError.focusFailed(
                        mode: mode.name, waited: result == .notFocused ? nil : configuration.focusTimeout)
                }
            }
            try await press(.s2Button, .down)
            s2Down = true
            publish(.exposing)
            if let bulb { try await clock.sleep(for: bulb / configuration.timeScale) }
            try await press(.s2Button, .up)
            s2Down = false
        } catch {
            // Never leave the shutter or the half press held on a camera we still talk to; when the shoot was
            // abandoned (cancelled) mid-BULB, the release goes up at once, outside the cancelled task.
            let held = s2Down
            await Task(executorPreference: TaskPlacement.preferred) { [self] in await letGo(shutterHeld: held) }.value
            if isLinkUsable { publish(.idle) }
            throw error
        }
        try await press(.s1Button, .up)
    }

    /// S2 up when it was held, then S1 up, while the link still works: the cleanup of a failed release.
    private func letGo(shutterHeld: Bool) async {
        if shutterHeld, isLinkUsable { try? await press(.s2Button, .up) }
        if isLinkUsable { try? await press(.s1Button, .up) }
    }

    /// S1 down while `hook` runs in a child task; returns once both are done, and only when both succeeded.
    ///
    /// The hook's error wins (the release must not follow it): S1 is let go first when it went down. The
    /// press is never cancelled for the hook, and the hook is awaited even when the press failed.
    private func pressHalfway(beside hook: @Sendable () async throws -> Void) async throws {
        async let hookOutcome = Self.outcome(of: hook)
        let pressed: Result<Void, any Error>
        do {
            try await press(.s1Button, .down)
            pressed = .success(())
        } catch {
            pressed = .failure(error)
        }
        if case let .failure(error) = await hookOutcome {
            if case .success = pressed, isLinkUsable { try? await press(.s1Button, .up) }
            throw ReleaseHookFailure(underlying: error)
        }
        try pressed.get()
    }

    /// The hook's outcome as a value, so the half-press is awaited whatever the hook does.
    private static func outcome(of hook: @Sendable () async throws -> Void) async -> Result<Void, any Error> {
        do {
            try await hook()
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Whether the link can still carry a request (not lost, not closed).
    var isLinkUsable: Bool {
        switch state {
        case .starting, .ready: true
        case .disconnected, .lost: false
        }
    }

    /// The reason the link is unusable.
    func lostOrNotConnected() throws -> SonyCameraError {
        if case let .lost(_, reason) = state { return reason }
        return .notConnected
    }

    /// One button press or release with SDIO_ControlDevice (0x9207).
    func press(_ button: SonyControlCode, _ position: SonyButtonState) async throws {
        let name = button == .s1Button ? "S1" : "S2"
        try await run(
            .sdioControlDevice, [UInt32(button.rawValue)], sending: position.dataPhase,
            during: "\(name) \(position == .down ? "down" : "up") (0x9207)")
    }

}

/// The caller's `beforeRelease` failed (nothing was released); kept apart from the camera's own errors so
/// no busy handling applies to it, and unwrapped before `release` rethrows it.
struct ReleaseHookFailure: Error {
    /// The hook's error, rethrown unchanged.
    let underlying: any Error
}

/// Counts bytes written by a data sink (which runs outside the actor).
final class ByteCounter: Sendable {
    private let count = Mutex(0)

    /// The bytes counted so far.
    var value: Int { count.withLock { $0 } }

    /// Adds `bytes`.
    func add(_ bytes: Int) { count.withLock { $0 += bytes } }
}
