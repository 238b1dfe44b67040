import PTPIPCodec
import Synchronization

// MARK: - The photographer's hands on the body: the pairing screen's OK, the power switch

extension CameraSimulator {
    /// One Init Command Request waiting at "Allow pairing with the device?".
    struct PairingWait: Sendable {
        /// The computer asking.
        let guid: PTPIPGUID
        /// The name the body shows.
        let friendlyName: String
        /// Resumed with the answer: true for OK.
        let answer: CheckedContinuation<Bool, Never>
    }

    /// The requests waiting at the pairing screen, by arrival number; a `Mutex` so a cancelled wait can be
    /// answered at once from its cancellation handler.
    final class PairingScreen: Sendable {
        let waits = Mutex<(next: UInt64, waiting: [UInt64: PairingWait])>((0, [:]))
    }

    /// The friendly names of the computers waiting at the pairing screen now (`--pairing`), oldest first.
    package var pairingRequests: [String] {
        pairingScreen.waits.withLock { $0.waiting.sorted { $0.key < $1.key }.map(\.value.friendlyName) }
    }

    /// The photographer answers the pairing screen: OK (`allow`) saves every waiting computer's GUID and lets
    /// its Init Command Ack go; otherwise each gets Init Fail reason 1. Returns how many were waiting.
    @discardableResult
    package func answerPairing(allow: Bool) -> Int {
        let waiting = pairingScreen.waits.withLock { state in
            defer { state.waiting.removeAll() }
            return state.waiting.sorted { $0.key < $1.key }.map(\.value)
        }
        for wait in waiting {
            if allow { camera.pair(wait.guid) }
            wait.answer.resume(returning: allow)
        }
        return waiting.count
    }

    /// A test hook: the link's round trip (`--rtt`) becomes `delay` from the next request on. A test that needs a
    /// shoot slow while it looks at it (a second process finding the shoot still under way) makes it fast again
    /// once it has looked, instead of waiting out the slow rest.
    package func setRoundTripDelay(_ delay: Duration) {
        roundTripDelay = delay
    }

    /// A test hook like `setRoundTripDelay(_:)`: the data phases' throughput limit (`--bandwidth`) becomes
    /// `bytesPerSecond` (nil: unlimited) from the next request on.
    package func setBandwidth(_ bytesPerSecond: Int?) {
        bandwidth = bytesPerSecond
    }

    /// The body is turned off and on: a session it held after a drop is gone (`--hold-session-after-drop`).
    package func powerCycle() {
        camera.powerCycle()
    }

    /// The photographer puts in another memory card with `shots` of room (`--card-shots`; a full card fires
    /// nothing): 0xD249 reads `shots` again, announced with DevicePropChanged.
    package func swapCard(shots: Int = 9_999) {
        camera.cardSwapped(shots: shots)
    }

    /// Whether the body holds a session dropped without CloseSession (it answers Init Command with EOF).
    package var holdsStaleSession: Bool { camera.holdsStaleSession }

    /// What the body does with an Init Command Request from `guid`.
    func verdict(onInitCommandFrom guid: PTPIPGUID) -> SimulatedCamera.InitCommandVerdict {
        camera.verdict(onInitCommandFrom: guid)
    }

    /// Puts `request` on the pairing screen and waits for the photographer; false when refused or when the
    /// simulator stops first.
    nonisolated func waitForPairingAnswer(from request: InitCommandRequest) async -> Bool {
        let screen = pairingScreen
        let id = screen.waits.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        pairingNotices.yield(request.friendlyName)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let wait = PairingWait(guid: request.guid, friendlyName: request.friendlyName, answer: continuation)
                let cancelled = screen.waits.withLock { state in
                    if Task.isCancelled { return true }
                    state.waiting[id] = wait
                    return false
                }
                if cancelled { continuation.resume(returning: false) }
            }
        } onCancel: {
            screen.waits.withLock { $0.waiting.removeValue(forKey: id) }?.answer.resume(returning: false)
        }
    }
}
