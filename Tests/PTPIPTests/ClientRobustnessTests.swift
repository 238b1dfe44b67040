import Synchronization
import Testing
import TestSupport
@testable import PTPIP

/// The client against peers that fail, stall, refuse or race: typed errors, bounded time, no interleaving.
@Suite("PTP/IP client robustness")
struct ClientRobustnessTests {
    @Test func aPeerClosingMidDataPhaseIsATypedErrorAndBreaksTheSession() async throws {
        try await withPeer(script: { session in
            guard let (request, _) = try await session.command.readRequest() else { return }
            let id = request.transactionID
            try await session.command.send([.startData(transactionID: id, totalLength: 100), .data(transactionID: id, payload: [1, 2, 3])])
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
            try await session.command.send([.startData(transactionID: id, totalLength: 2), .endData(transactionID: id, payload: [1, 2, 3]), ok(request)])
            _ = try await session.command.readPacket(timeout: .seconds(30))
        }) { peer in
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            await #expect(throws: PTPIPError.protocolViolation(expected: "2 bytes of data as Start_Data announced", received: "at least 3 bytes")) {
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

    @Test func aSilentPeerTimesOutInsteadOfHanging() async throws {
        try await withPeer(script: { session in
            _ = try await session.command.readRequest()
            // Read on without answering until the client goes away.
            _ = try await session.command.readPacket(timeout: .seconds(30))
        }) { peer in
            let client = try await PTPIPClient.connect(
                host: "127.0.0.1", port: peer.port, configuration: .testing(operationTimeout: .milliseconds(200)))
            let start = ContinuousClock.now
            await #expect(throws: PTPIPError.timedOut(
                address: "127.0.0.1:\(peer.port)", during: "waiting for the response to \(OperationCode.getStorageIDs)")) {
                _ = try await client.execute(.getStorageIDs)
            }
            let elapsed = ContinuousClock.now - start
            #expect(elapsed >= .milliseconds(190) && elapsed < TimingBounds.notAHang)
            await client.disconnect()
        }
    }

    @Test func concurrentCallersAreSerializedNeverInterleaved() async throws {
        let log = LockedLog<(id: UInt32, quietBeforeAnswer: Bool)>()
        try await withPeer(script: { session in
            while let (request, _) = try await session.command.readRequest(timeout: .seconds(30)) {
                // Before answering, make sure the client sent nothing else: a second request now would
                // mean two transactions overlap on the command connection.
                let quiet = try await session.command.staysQuiet(for: .milliseconds(15))
                log.append((request.transactionID, quiet))
                try await session.command.send([ok(request, [request.transactionID])])
            }
        }) { peer in
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            try await client.openSession()
            let answers = try await withThrowingTaskGroup(of: UInt32.self) { group in
                for _ in 0..<8 { group.addTask { try await client.execute(.getStorageIDs).parameters[0] } }
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
                // Answer OpenSession, then fall silent (CloseSession gets no answer).
                if request.code == .openSession { return [ok(request)] }
                try await Task.sleep(for: .seconds(30))
                return []
            }
        }) { peer in
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            try await client.openSession()
            let start = ContinuousClock.now
            await client.disconnect()
            let elapsed = ContinuousClock.now - start
            #expect(elapsed < TimingBounds.notAHang, "disconnect took \(elapsed) with a 300 ms bound")
            var events = client.events.makeAsyncIterator()
            #expect(try await events.next() == nil)
            await #expect(throws: PTPIPError.invalidState("the client is disconnected")) { _ = try await client.execute(.getStorageIDs) }
        }
    }

    @Test func disconnectCutsOffATransactionStuckPastTheBound() async throws {
        try await withPeer(script: { session in
            _ = try await session.command.readRequest()
            _ = try await session.command.readPacket(timeout: .seconds(30))
        }) { peer in
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            let stuck = Task { try await client.execute(.getStorageIDs) }
            try await Task.sleep(for: .milliseconds(50))
            let start = ContinuousClock.now
            await client.disconnect()
            #expect(ContinuousClock.now - start < TimingBounds.notAHang)
            await #expect(throws: PTPIPError.self) { _ = try await stuck.value }
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
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        let port = listener.port
        listener.close()
        await #expect(throws: PTPIPError.connectionRefused(address: "127.0.0.1:\(port)")) {
            _ = try await PTPIPClient.connect(host: "127.0.0.1", port: port, configuration: .testing())
        }
    }

    @Test func aPeerThatNeverAcksTheHandshakeTimesOut() async throws {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        var configuration = PTPIPClient.Configuration.testing()
        configuration.connectTimeout = .milliseconds(200)
        let port = listener.port
        let start = ContinuousClock.now
        // The kernel completes the TCP handshake from the backlog; nobody ever answers Init Command.
        await #expect(throws: PTPIPError.timedOut(address: "127.0.0.1:\(port)", during: "the Init Command handshake")) {
            _ = try await PTPIPClient.connect(host: "127.0.0.1", port: port, configuration: configuration)
        }
        #expect(ContinuousClock.now - start < TimingBounds.notAHang)
    }

    @Test func cancellingAQueuedCallerLeavesTheQueueOnly() async throws {
        let gate = TransactionGate()
        try await gate.enter()
        let order = LockedLog<Int>()
        let first = Task { try await gate.enter(); order.append(1); gate.leave() }
        try await Task.sleep(for: .milliseconds(20))
        let cancelled = Task { try await gate.enter(); order.append(2); gate.leave() }
        try await Task.sleep(for: .milliseconds(20))
        let third = Task { try await gate.enter(); order.append(3); gate.leave() }
        try await Task.sleep(for: .milliseconds(20))
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        gate.leave()
        try await first.value
        try await third.value
        #expect(order.all == [1, 3])
    }
}
