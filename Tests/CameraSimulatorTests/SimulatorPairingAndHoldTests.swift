import CameraSimulator
import PTPIP
import PTPIPCodec
import TestSupport
import Testing

/// What a body decides before it acknowledges an Init Command Request (issue 33): a session dropped without
/// CloseSession that it holds until power-cycled (`--hold-session-after-drop`), and the pairing screen of a body
/// that needs pairing (`--pairing`, Camera Control PTP 3 reference pp. 40-41). Over loopback TCP.
@Suite("Simulator pairing and held sessions over loopback TCP", .realTime)
struct SimulatorPairingAndHoldTests {
    @Test func aSessionDroppedWithoutCloseSessionIsHeldUntilAPowerCycle() async throws {
        try await withSimulator({
            $0.holdsSessionAfterDrop = true
            $0.faults = [.dropAtOperation(2)]
        }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.openSession(id: 1)
            // The link drops under an open session: no CloseSession reaches the body.
            await #expect(throws: PTPIPError.self) { _ = try await client.execute(.sdioConnect, parameters: [1, 0, 0]) }
            await client.disconnect()
            #expect(try await eventually { await simulator.holdsStaleSession })
            for _ in 0..<2 {
                let error = await #expect(throws: PTPIPError.self) { _ = try await connectClient(to: simulator) }
                #expect(error?.isClosedAtInitCommand == true, "\(String(describing: error))")
            }
            await simulator.powerCycle()
            let again = try await connectClient(to: simulator)
            try await again.startSonySession()
            await again.disconnect()
            // Closed with CloseSession this time: nothing is held.
            #expect(try await eventually { await !simulator.isClientConnected })
            #expect(await !simulator.holdsStaleSession)
            let third = try await connectClient(to: simulator)
            await third.disconnect()
        }
    }

    @Test func aSessionClosedProperlyIsNotHeld() async throws {
        try await withSimulator({ $0.holdsSessionAfterDrop = true }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.startSonySession()
            await client.disconnect()
            #expect(try await eventually { await !simulator.isClientConnected })
            #expect(await !simulator.holdsStaleSession)
        }
    }

    @Test func aBodyThatNeedsPairingAcksOnlyAfterTheOKAndThenRemembersTheComputer() async throws {
        try await withSimulator({ $0.needsPairing = true }) { simulator in
            async let connected = connectClient(to: simulator, connectTimeout: .seconds(60))
            #expect(try await eventually { await simulator.pairingRequests == [HostIdentity.defaultFriendlyName] })
            #expect(await simulator.answerPairing(allow: true) == 1)
            let client = try await connected
            try await client.startSonySession()
            await client.disconnect()
            // The GUID is saved: the next connection is acknowledged at once.
            let again = try await connectClient(to: simulator)
            await again.disconnect()
            #expect(await simulator.pairingRequests.isEmpty)
        }
    }

    @Test func aRefusalAtThePairingScreenIsInitFailReasonOne() async throws {
        try await withSimulator({ $0.needsPairing = true }) { simulator in
            async let attempt: PTPIPError? = {
                do {
                    try await connectClient(to: simulator, connectTimeout: .seconds(60)).disconnect()
                    return nil
                } catch {
                    return error as? PTPIPError
                }
            }()
            let asked = try await eventually { await simulator.pairingRequests.count == 1 }
            #expect(asked)
            #expect(await simulator.answerPairing(allow: false) == 1)
            let refused = await attempt
            #expect(refused == .initFailed(reason: .rejectedInitiator))
        }
    }
}
