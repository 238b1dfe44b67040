import Foundation
import Synchronization
import TestSupport
import Testing

@testable import PTPIP
@testable import PTPIPCodec

/// Collects what a client reports to its observer.
final class CollectingObserver: PTPIPObserver {
    let operations = LockedLog<PTPIPOperationRecord>()
    let events = LockedLog<PTPEvent>()
    let connects = LockedLog<(address: String, failed: Bool)>()
    /// Each request as it went out, with how many transactions had ended by then.
    let requests = LockedLog<(code: UInt16, transactionID: UInt32, endedBefore: Int)>()

    func observe(_ record: PTPIPOperationRecord) { operations.append(record) }
    func observeRequest(_ code: OperationCode, transactionID: UInt32) {
        requests.append((code.rawValue, transactionID, operations.all.count))
    }
    func observe(_ event: PTPEvent) { events.append(event) }
    func observeConnect(address: String, duration: Duration, error: (any Error)?) {
        connects.append((address, error != nil))
    }
}

/// The observer a session log hangs on the client: every operation, event and connection attempt, as it was.
@Suite("PTP/IP client observer")
struct ClientObserverTests {
    @Test func seesEachOperationWithItsAnswerDataPhaseAndEvents() async throws {
        let observer = CollectingObserver()
        let payload: [UInt8] = Array(0..<200)
        try await withPeer(script: { session in
            try await serve(session) { request, dataOut in
                let id = request.transactionID
                switch request.code {
                case .getDeviceInfo:
                    try await session.event.send([
                        .event(PTPEvent(code: .objectAdded, transactionID: 0xFFFF_FFFF, parameters: [0xFFFF_C001]))
                    ])
                    return [
                        .startData(transactionID: id, totalLength: UInt64(payload.count)),
                        .endData(transactionID: id, payload: payload[...]), ok(request)
                    ]
                case .initiateCapture:
                    return [
                        .operationResponse(OperationResponse(code: .deviceBusy, transactionID: id, parameters: []))
                    ]
                default:
                    #expect(dataOut == [1, 2, 3])
                    return [ok(request, [7])]
                }
            }
        }) { peer in
            var configuration = PTPIPClient.Configuration.testing()
            configuration.observer = observer
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: configuration)
            _ = try await client.execute(.getDeviceInfo)
            await #expect(throws: PTPIPError.self) { _ = try await client.execute(.initiateCapture) }
            _ = try await client.execute(OperationCode(0x9205), parameters: [0xD20D], sending: [1, 2, 3])
            var events = client.events.makeAsyncIterator()
            _ = try await events.next()
            await client.disconnect()
        }
        let records = observer.operations.all
        #expect(records.map(\.code.rawValue) == [0x1001, 0x100E, 0x9205])
        #expect(records[0].response == .ok && records[0].direction == .dataIn && records[0].dataLength == 200)
        #expect(records[0].data == payload)
        #expect(records[1].response == .deviceBusy && records[1].direction == PTPIPOperationRecord.DataDirection.none)
        #expect(records[2].direction == .dataOut && records[2].data == [1, 2, 3] && records[2].parameters == [0xD20D])
        #expect(records[2].responseParameters == [7])
        #expect(records.allSatisfy { $0.duration >= .zero && $0.error == nil })
        #expect(observer.events.all.map(\.code) == [.objectAdded])
        #expect(observer.connects.all.map(\.failed) == [false])
        // Each request is announced as it goes out, after the one before it ended, with its transaction id.
        let requests = observer.requests.all
        #expect(requests.map(\.code) == [0x1001, 0x100E, 0x9205])
        #expect(requests.map(\.endedBefore) == [0, 1, 2])
        #expect(requests.map(\.transactionID) == records.map(\.transactionID))
    }

    @Test func aStreamedDataPhaseIsCountedButNeverHandedOver() async throws {
        let observer = CollectingObserver()
        try await withPeer(script: { session in
            try await serve(session) { request, _ in
                let id = request.transactionID
                return [
                    .startData(transactionID: id, totalLength: 5000),
                    .endData(transactionID: id, payload: Array(repeating: 0xAB, count: 5000)[...]), ok(request)
                ]
            }
        }) { peer in
            var configuration = PTPIPClient.Configuration.testing()
            configuration.observer = observer
            let client = try await PTPIPClient.connect(host: "127.0.0.1", port: peer.port, configuration: configuration)
            _ = try await client.execute(.getObject, parameters: [1]) { _, _ in }
            await client.disconnect()
        }
        let record = try #require(observer.operations.all.first)
        #expect(record.direction == .dataIn && record.dataLength == 5000 && record.data.isEmpty)
    }

    @Test func aRefusedConnectionIsReported() async throws {
        let observer = CollectingObserver()
        var configuration = PTPIPClient.Configuration.testing()
        configuration.observer = observer
        // Port 1 on loopback: nothing listens, the connection is refused at once.
        await #expect(throws: (any Error).self) {
            _ = try await PTPIPClient.connect(host: "127.0.0.1", port: 1, configuration: configuration)
        }
        #expect(observer.connects.all.map(\.address) == ["127.0.0.1:1"])
        #expect(observer.connects.all.map(\.failed) == [true])
    }
}
