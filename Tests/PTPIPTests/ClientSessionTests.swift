import Foundation
import Synchronization
import TestSupport
import Testing

@testable import PTPIP
@testable import PTPIPCodec

/// Serves requests until the client goes away, answering each with `reply(request, dataOut)`.
func serve(
    _ session: TestPeer.Session, reply: @Sendable (OperationRequest, [UInt8]?) async throws -> [Packet]
) async throws {
    while let (request, data) = try await session.command.readRequest(timeout: .seconds(30)) {
        try await session.command.send(try await reply(request, data))
    }
}

/// A plain OK response to `request`.
func ok(_ request: OperationRequest, _ parameters: [UInt32] = []) -> Packet {
    .operationResponse(OperationResponse(code: .ok, transactionID: request.transactionID, parameters: parameters))
}

/// The client and a peer exchanging handshakes, sessions and data phases over loopback TCP.
@Suite("PTP/IP client sessions")
struct ClientSessionTests {
    @Test func handshakeSendsOurIdentityAndTheConnectionNumber() async throws {
        let seen = LockedLog<TestPeer.Session>()
        try await withPeer(script: { session in seen.append(session) }) { peer in
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            #expect(client.camera.connectionNumber == TestPeer.connectionNumber)
            #expect(client.camera.friendlyName == "TestCam")
            #expect(client.camera.guid == TestPeer.cameraGUID)
            #expect(client.address == "127.0.0.1:\(peer.port)")
            await client.disconnect()
        }
        let session = try #require(seen.all.first)
        #expect(session.initCommand.guid == PTPIPClient.Configuration.testing().identity.guid)
        #expect(session.initCommand.friendlyName == "hdrshoot-test")
        #expect(session.initCommand.protocolVersion == 0x0001_0000)
        #expect(session.eventConnectionNumber == TestPeer.connectionNumber)
    }

    @Test func openSessionUsesTransactionZeroThenIDsCountFromOne() async throws {
        let requests = LockedLog<OperationRequest>()
        try await withPeer(script: { session in
            try await serve(session) { request, _ in
                requests.append(request)
                return [ok(request)]
            }
        }) { peer in
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            _ = try await client.execute(.getDeviceInfo)
            try await client.openSession(id: 0x42)
            #expect(await client.sessionID == 0x42)
            _ = try await client.execute(.getStorageIDs)
            _ = try await client.execute(.getStorageIDs)
            try await client.closeSession()
            #expect(await client.sessionID == nil)
            await client.disconnect()
        }
        #expect(
            requests.all.map(\.code) == [.getDeviceInfo, .openSession, .getStorageIDs, .getStorageIDs, .closeSession])
        #expect(requests.all.map(\.transactionID) == [0, 0, 1, 2, 3])
        #expect(requests.all[1].parameters == [0x42])
    }

    @Test func transactionIDsWrapToOneSkippingZeroAndAllOnes() async throws {
        let requests = LockedLog<OperationRequest>()
        try await withPeer(script: { session in
            try await serve(session) { request, _ in
                requests.append(request)
                return [ok(request)]
            }
        }) { peer in
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            try await client.openSession()
            await client.setNextTransactionID(0xFFFF_FFFE)
            _ = try await client.execute(.getStorageIDs)
            _ = try await client.execute(.getStorageIDs)
            await client.disconnect()
        }
        #expect(requests.all.map(\.transactionID) == [0, 0xFFFF_FFFE, 1, 2])
    }

    @Test func dataInIsReassembledAndResponseParametersReturned() async throws {
        let payload = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try await withPeer(script: { session in
            try await serve(session) { request, _ in
                let id = request.transactionID
                return [
                    .startData(transactionID: id, totalLength: UInt64(payload.count)),
                    .data(transactionID: id, payload: payload[0..<300]),
                    .data(transactionID: id, payload: payload[300..<301]),
                    .endData(transactionID: id, payload: payload[301...]),
                    ok(request, [9, 8])
                ]
            }
        }) { peer in
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            let result = try await client.execute(.getDeviceInfo)
            #expect(result.data == payload)
            #expect(result.parameters == [9, 8])
            #expect(result.code == .ok)
            await client.disconnect()
        }
    }

    @Test func largeDataInStreamsToTheSinkInBoundedChunksWithProgress() async throws {
        let size = 16 << 20
        let chunkSize = 64 << 10
        // A pattern with a prime period, built by block copies (per-byte loops are slow in debug builds
        // and would hog the two pool threads other tests share).
        let block = (0..<65_521).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 8) }
        var body: [UInt8] = []
        body.reserveCapacity(size)
        while body.count < size { body.append(contentsOf: block.prefix(size - body.count)) }
        let payload = body
        try await withPeer(script: { session in
            try await serve(session) { request, _ in
                // One 16 MiB Data packet, larger than maximumPacketLength: the client must stream it.
                let id = request.transactionID
                return [
                    .startData(transactionID: id, totalLength: UInt64(size)),
                    .data(transactionID: id, payload: payload[...]),
                    .endData(transactionID: id, payload: []), ok(request)
                ]
            }
        }) { peer in
            var configuration = PTPIPClient.Configuration.testing()
            configuration.receiveChunkSize = chunkSize
            configuration.maximumPacketLength = 1 << 20
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: configuration)
            let tally = Mutex<(count: Int, largest: Int, mismatches: Int, last: DataProgress?)>((0, 0, 0, nil))
            let result = try await client.execute(.getObject, parameters: [1]) { chunk, progress in
                tally.withLock { tally in
                    let expected = payload[tally.count..<min(size, tally.count + chunk.count)]
                    let same = chunk.withUnsafeBytes { got in
                        expected.withUnsafeBytes { want in
                            got.count == want.count && memcmp(got.baseAddress!, want.baseAddress!, got.count) == 0
                        }
                    }
                    if !same { tally.mismatches += 1 }
                    tally.count += chunk.count
                    tally.largest = max(tally.largest, chunk.count)
                    if let last = tally.last, last.received >= progress.received { tally.mismatches += 1 }
                    if progress.received != UInt64(tally.count) { tally.mismatches += 1 }
                    tally.last = progress
                }
            }
            #expect(result.data.isEmpty)
            let final = tally.withLock { $0 }
            #expect(final.count == size)
            #expect(final.mismatches == 0)
            #expect(final.largest <= chunkSize)
            #expect(final.last == DataProgress(received: UInt64(size), total: UInt64(size)))
            await client.disconnect()
        }
    }

    @Test func dataOutGoesOutAsOneWrite() async throws {
        let firstRead = LockedLog<[UInt8]>()
        let payload: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
        try await withPeer(script: { session in
            // Read raw: everything the client wrote for the transaction must arrive in the first read.
            let bytes = try await session.command.receiveRaw(upTo: 4096)
            firstRead.append(bytes)
            try await session.command.send([.operationResponse(OperationResponse(code: .ok, transactionID: 0))])
            _ = try await session.command.readPacket(timeout: .seconds(30))
        }) { peer in
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            _ = try await client.execute(OperationCode(0x9205), parameters: [0xD20D], sending: payload)
            await client.disconnect()
        }
        var framer = PacketFramer()
        framer.append(try #require(firstRead.all.first))
        var packets: [Packet] = []
        while let packet = try framer.nextPacket() { packets.append(packet) }
        #expect(framer.bufferedByteCount == 0)
        #expect(
            packets.first
                == .operationRequest(
                    OperationRequest(
                        dataPhase: .dataOut, code: OperationCode(0x9205), transactionID: 0, parameters: [0xD20D])))
        #expect(packets.dropFirst().first == .startData(transactionID: 0, totalLength: UInt64(payload.count)))
        #expect(packets.last == .endData(transactionID: 0, payload: []))
        let sent = packets.flatMap { packet -> [UInt8] in
            if case let .data(_, bytes) = packet { return Array(bytes) }
            return []
        }
        #expect(sent == payload)
    }

    @Test func nonOKResponsesAreTypedErrorsAndTheSessionGoesOn() async throws {
        try await withPeer(script: { session in
            try await serve(session) { request, _ in
                let code: ResponseCode = request.code == .initiateCapture ? .deviceBusy : .ok
                return [.operationResponse(OperationResponse(code: code, transactionID: request.transactionID))]
            }
        }) { peer in
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            try await client.openSession()
            await #expect(throws: PTPIPError.response(code: .deviceBusy, operation: .initiateCapture)) {
                _ = try await client.execute(.initiateCapture)
            }
            #expect(PTPIPError.response(code: .deviceBusy, operation: .initiateCapture).isTransient)
            #expect(try await client.execute(.getStorageIDs).transactionID == 2)
            await client.disconnect()
        }
    }

    @Test func eventsArriveWhileATransactionRunsAndProbesAreAnswered() async throws {
        let release = Signal()
        let probeAnswer = LockedLog<Packet?>()
        try await withPeer(script: { session in
            guard let (request, _) = try await session.command.readRequest() else { return }
            try await session.event.send([
                .event(PTPEvent(code: .objectAdded, transactionID: request.transactionID, parameters: [0xFFFF_C001]))
            ])
            try await session.event.send([.probeRequest])
            probeAnswer.append(try await session.event.readPacket())
            await release.wait()
            try await session.command.send([ok(request)])
            _ = try await session.command.readPacket(timeout: .seconds(30))
        }) { peer in
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: .testing())
            let operation = Task { try await client.execute(.initiateCapture) }
            var events = client.events.makeAsyncIterator()
            let event = try await events.next()
            // The response is held back until now, so the event came while the transaction ran.
            release.fire()
            _ = try await operation.value
            #expect(event == PTPEvent(code: .objectAdded, transactionID: 0, parameters: [0xFFFF_C001]))
            await client.disconnect()
            #expect(try await events.next() == nil)
        }
        #expect(probeAnswer.all == [.probeResponse])
    }

    @Test(.enabled(if: TestHost.hasIPv6Loopback, "needs IPv6: ::1 cannot be bound here"))
    func ipv6LoopbackSessionWorksWhenAvailable() async throws {
        try await withPeer(
            host: "::1",
            script: { session in
                try await serve(session) { request, _ in [ok(request)] }
            }
        ) { peer in
            let client = try await PTPIPClient.connect(host: "::1", port: peer.port, configuration: .testing())
            #expect(client.address == "[::1]:\(peer.port)")
            try await client.openSession()
            await client.disconnect()
        }
    }
}
