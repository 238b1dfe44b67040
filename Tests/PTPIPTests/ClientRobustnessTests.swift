import Synchronization
import TestSupport
import Testing

@testable import PTPIP
@testable import PTPIPCodec

/// The client against peers that fail, stall, refuse or race: typed errors, bounded time, no interleaving.
@Suite("PTP/IP client robustness")
struct ClientRobustnessTests {
    @Test func aPeerClosingMidDataPhaseIsATypedErrorAndBreaksTheSession() async throws {
        try await withPeer(script: { session in
            guard let (request, _) = try await session.command.readRequest() else { return }
            let id = request.transactionID
            try await session.command.send([
                .startData(transactionID: id, totalLength: 100), .data(transactionID: id, payload: [1, 2, 3])
            ])
            session.command.close()
        }) { peer in
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            let failure = PTPIPError.peerClosed(during: "the data phase of \(OperationCode.getObject)")
            await #expect(throws: failure) { _ = try await client.execute(.getObject, parameters: [1]) }
            // The connection is out of step now: later calls fail with the same reason instead of hanging.
            await #expect(throws: failure) { _ = try await client.execute(.getStorageIDs) }
            await client.disconnect()
        }
    }

    @Test func moreDataThanAnnouncedIsAProtocolViolation() async throws {
        try await withPeer(script: { session in
            guard let (request, _) = try await session.command.readRequest() else { return }
            let id = request.transactionID
            try await session.command.send([
                .startData(transactionID: id, totalLength: 2), .endData(transactionID: id, payload: [1, 2, 3]),
                ok(request)
            ])
            _ = try await session.command.readPacket(timeout: .seconds(30))
        }) { peer in
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            await #expect(
                throws: PTPIPError.malformed(
                    .dataPhaseViolation(
                        expected: "2 bytes of data as Start_Data announced", received: "at least 3 bytes"))
            ) {
                _ = try await client.execute(.getObject)
            }
            await client.disconnect()
        }
    }

    @Test func aResponseForAnotherTransactionIsAProtocolViolation() async throws {
        try await withPeer(script: { session in
            guard try await session.command.readRequest() != nil else { return }
            try await session.command.send([.operationResponse(OperationResponse(code: .ok, transactionID: 77))])
            _ = try await session.command.readPacket(timeout: .seconds(30))
        }) { peer in
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            await #expect(throws: PTPIPError.self) { _ = try await client.execute(.getDeviceInfo) }
            await client.disconnect()
        }
    }

    @Test func aSilentPeerTimesOutWhenTheClockPassesTheOperationTimeout() async throws {
        try await withPeer(script: { session in
            _ = try await session.command.readRequest()
            // Read on without answering until the client goes away.
            _ = try await session.command.readPacket(timeout: .seconds(30))
        }) { peer in
            let clock = TestClock()
            let client = try await PTPIPClient.connect(
                host: "127.0.0.1", port: peer.port, configuration: .testing(operationTimeout: .seconds(10)),
                clock: clock)
            let call = Task { try await client.execute(.getStorageIDs) }
            // The one timer is the wait for the response: the operation timeout from now.
            await clock.waitForSleepers(1)
            #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(10))])
            clock.advance(by: .seconds(10) - .milliseconds(1))
            #expect(clock.sleeperCount == 1)
            clock.advance(by: .milliseconds(1))
            await #expect(
                throws: PTPIPError.timedOut(
                    address: "127.0.0.1:\(peer.port)",
                    during: "waiting for the response to \(OperationCode.getStorageIDs)")
            ) {
                _ = try await call.value
            }
            await client.disconnect()
        }
    }

    @Test func concurrentCallersAreSerializedNeverInterleaved() async throws {
        let log = LockedLog<(id: UInt32, quietBeforeAnswer: Bool)>()
        let allQueued = Signal()
        try await withPeer(script: { session in
            while let (request, _) = try await session.command.readRequest(timeout: .seconds(30)) {
                // The first of the eight is answered only once the other seven queue in the client: were they
                // not held back, their requests would be here already.
                if request.transactionID == 1 { await allQueued.wait() }
                // Before answering, make sure the client sent nothing else: a second request now would
                // mean two transactions overlap on the command connection.
                let quiet = try await session.command.hasNothingPending()
                log.append((request.transactionID, quiet))
                try await session.command.send([ok(request, [request.transactionID])])
            }
        }) { peer in
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            try await client.openSession()
            let answers = try await withThrowingTaskGroup(of: UInt32.self) { group in
                for _ in 0..<8 { group.addTask { try await client.execute(.getStorageIDs).parameters[0] } }
                let gate = await client.gate
                await waitUntil { gate.waitingCount == 7 }
                allQueued.fire()
                return try await group.reduce(into: [UInt32]()) { $0.append($1) }
            }
            #expect(answers.sorted() == Array(1...8))
            await client.disconnect()
        }
        // 0 is OpenSession, 9 the CloseSession of disconnect().
        #expect(log.all.map(\.id) == Array(0...9))
        #expect(log.all.allSatisfy { $0.quietBeforeAnswer })
    }

    @Test func disconnectIsBoundedWhenThePeerIsSilent() async throws {
        try await withPeer(script: { session in
            try await serve(session) { request, _ in
                // Answer OpenSession, then fall silent (CloseSession gets no answer) until the peer stops.
                if request.code == .openSession { return [ok(request)] }
                await Signal().wait()
                return []
            }
        }) { peer in
            let clock = TestClock()
            let client = try await PTPIPClient.connect(
                host: "127.0.0.1", port: peer.port, configuration: .testing(), clock: clock)
            try await client.openSession()
            let disconnecting = Task { await client.disconnect() }
            // CloseSession waits for its answer at most the disconnect bound (300 ms), not the operation timeout.
            await clock.waitForSleepers(1)
            #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .milliseconds(300))])
            clock.advance(by: .milliseconds(300))
            await disconnecting.value
            var events = client.events.makeAsyncIterator()
            #expect(try await events.next() == nil)
            await #expect(throws: PTPIPError.invalidState("the client is disconnected")) {
                _ = try await client.execute(.getStorageIDs)
            }
        }
    }

    @Test func disconnectCutsOffATransactionStuckPastTheBound() async throws {
        try await withPeer(script: { session in
            _ = try await session.command.readRequest()
            _ = try await session.command.readPacket(timeout: .seconds(30))
        }) { peer in
            let clock = TestClock()
            let client = try await PTPIPClient.connect(
                host: "127.0.0.1", port: peer.port, configuration: .testing(), clock: clock)
            let stuck = Task { try await client.execute(.getStorageIDs) }
            // The transaction waits for its answer (up to the 5 s operation timeout)...
            await clock.waitForSleepers(1)
            let disconnecting = Task { await client.disconnect() }
            // ...and disconnect waits for its turn up to its 300 ms bound, then closes the sockets under it.
            await clock.waitForSleepers(2)
            #expect(clock.pendingDeadlines.map(\.offset) == [.milliseconds(300), .seconds(5)])
            clock.advance(by: .milliseconds(300))
            await disconnecting.value
            await #expect {
                _ = try await stuck.value
            } throws: { error in
                if case .cancelled? = error as? PTPIPError { return true }
                return false
            }
            #expect(clock.now.offset == .milliseconds(300))
        }
    }

    @Test(arguments: [TestPeer.Handshake.failCommand(.rejectedInitiator), .failEvent(.busy)])
    func initFailIsATypedError(handshake: TestPeer.Handshake) async throws {
        let reason: InitFailReason = if case let .failCommand(reason) = handshake { reason } else { .busy }
        try await withPeer(handshake: handshake, script: { _ in }) { peer in
            await #expect(throws: PTPIPError.initFailed(reason: reason)) {
                _ = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            }
        }
    }

    @Test func aClosedPortIsRefusedWithTheAddress() async throws {
        // Bound but not listening: refused, and no parallel test can be handed the port meanwhile (a closed
        // listener's port could be).
        let closedPort = try LoopbackSocket()
        defer { closedPort.close() }
        let port = closedPort.port
        await #expect(throws: PTPIPError.connectionRefused(address: "127.0.0.1:\(port)")) {
            _ = try await PTPIPClient.connect(host: "127.0.0.1", port: port, configuration: .testing())
        }
    }

    @Test func aPeerThatNeverAcksTheHandshakeTimesOutWhenTheClockPassesTheConnectTimeout() async throws {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let requestArrived = Signal()
        // A peer that takes the Init Command Request and never answers it.
        let peer = Task {
            let connection = PeerConnection(try await listener.accept(timeout: .seconds(10)))
            defer { connection.close() }
            guard case .initCommandRequest? = try await connection.readPacket() else { throw PeerError.closedEarly }
            requestArrived.fire()
            _ = try await connection.readPacket(timeout: .seconds(30))
        }
        defer { peer.cancel() }
        let clock = TestClock()
        let port = listener.port
        let connecting = Task {
            try await PTPIPClient.connect(host: "127.0.0.1", port: port, configuration: .testing(), clock: clock)
        }
        await requestArrived.wait()
        // The TCP connect is done, so the one timer is the wait for the Init Command Ack (the connect timeout).
        await clock.waitForSleepers(1)
        let bound = PTPIPClient.Configuration.testing().connectTimeout
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: bound)])
        clock.advance(by: bound)
        await #expect(throws: PTPIPError.timedOut(address: "127.0.0.1:\(port)", during: "the Init Command handshake")) {
            _ = try await connecting.value
        }
    }

    @Test func cancellingAQueuedCallerLeavesTheQueueOnly() async throws {
        let gate = TransactionGate()
        try await gate.enter()
        let order = LockedLog<Int>()
        // Each caller is queued before the next one starts, so the queue's order is the test's.
        let first = Task {
            try await gate.enter()
            order.append(1)
            gate.leave()
        }
        await waitUntil { gate.waitingCount == 1 }
        let cancelled = Task {
            try await gate.enter()
            order.append(2)
            gate.leave()
        }
        await waitUntil { gate.waitingCount == 2 }
        let third = Task {
            try await gate.enter()
            order.append(3)
            gate.leave()
        }
        await waitUntil { gate.waitingCount == 3 }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        gate.leave()
        try await first.value
        try await third.value
        #expect(order.all == [1, 3])
    }
}
