import Exposure
import ShootKit
import Synchronization
import Testing

@testable import WebRemote

/// `POST /api/shoot` typed where it enters: the form becomes a request of stops and counts, or a 400 with the
/// sentence the shoot's messages give, before anything is started.
@Suite struct ShootFormRequestTests {
    /// Says each error by its Swift description (the CLI's table says them in full; here only the route matters).
    struct Messages: ShootMessages {
        func message(for error: any Error) -> String { "said: \(error)" }
        func connectFailure(_ error: any Error) -> String { "\(error)" }
        func sentence(for blocker: ShootBlocker) -> String { "\(blocker)" }
    }

    @Test func aFormOfReadingsBecomesStopsOfTheScale() throws {
        let request = try ShootForm(shadow: "1/4", highlight: "1/1000", frames: 5, ev: 1, confirm: true)
            .request(scale: .third, messages: Messages())
        guard case .bracket(let bracket) = request else {
            Issue.record("expected a bracket, got \(request)")
            return
        }
        #expect(bracket.shadow?.speed == ShutterSpeed(numerator: 1, denominator: 4))
        #expect(bracket.highlight?.speed == ShutterSpeed(numerator: 1, denominator: 1000))
        #expect(bracket.frames == 5 && bracket.spacing == EVAmount(stops: 1) && bracket.confirm)
        // A reading between stops snaps, and says so through `wasSnapped`; a third of a stop is 0.3.
        let snapped = try ShootForm(shadow: "1/7", highlight: "1/1000", ev: 0.33).request(
            scale: .third, messages: Messages())
        guard case .bracket(let other) = snapped else { return }
        #expect(other.shadow?.speed == ShutterSpeed(numerator: 1, denominator: 8) && other.shadow?.wasSnapped == true)
        #expect(other.spacing?.label == "0.3" && other.frames == nil && !other.confirm)
    }

    @Test func resumeIsItsOwnRequest() throws {
        #expect(
            try ShootForm(shadow: "nonsense", resume: true, id: "x").request(scale: .third, messages: Messages())
                == .resume(ResumeRequest(id: "x")))
    }

    @Test(arguments: [
        ShootForm(highlight: "1/1000"), ShootForm(shadow: "soon", highlight: "1/1000"),
        ShootForm(shadow: "1/4", highlight: "-1"), ShootForm(shadow: "1/4", highlight: "1/1000", frames: 40),
        ShootForm(shadow: "1/4", highlight: "1/1000", ev: 0.8)
    ])
    func aFormThePlannerCannotTakeIs400WithItsSentence(form: ShootForm) {
        #expect {
            try form.request(scale: .third, messages: Messages())
        } throws: { error in
            guard let refusal = error as? RemoteCommandRefusal else { return false }
            return refusal.status == 400 && !refusal.message.isEmpty
        }
    }

    @Test func theRemoteHandsTheStarterTheTypedRequestAndAnswersABadFormWithoutStartingAnything() async throws {
        let started = Mutex<[ShootRequest]>([])
        let remote = ControllerRemote(messages: Messages()) { request throws(RemoteCommandRefusal) in
            started.withLock { $0.append(request) }
        }
        try await remote.perform(.shoot(ShootForm(shadow: "2\"", highlight: "1/500", frames: 3)))
        await #expect(throws: RemoteCommandRefusal.self) {
            try await remote.perform(.shoot(ShootForm(shadow: "1/4", highlight: "1/1000", frames: 1)))
        }
        let requests = started.withLock { $0 }
        #expect(requests.count == 1)
        guard case .bracket(let bracket)? = requests.first else { return }
        #expect(bracket.shadow?.speed == ShutterSpeed(numerator: 2, denominator: 1) && bracket.frames == 3)
    }
}
