// Client micro-benchmark: the round-trip cost of one empty PTP/IP operation on loopback.
// Prints figures, asserts nothing. Run in release: `swift run -c release hdrshoot-bench`.
import ByteCoding
import PTPIP
import PTPIPCodec

/// Measures, against an in-process responder over loopback TCP, the time per empty operation
/// (GetStorageIDs answered with OK, no data phase) through `PTPIPClient`, and the same exchange over a
/// bare `TCPTransport` ping-pong; the difference is the client's own overhead.
func runClientBenchmark() async {
    print("PTP/IP client (loopback TCP, in-process responder):")
    do {
        try await benchmarkRawPingPong(operations: 20_000)
        try await benchmarkClientRoundTrips(operations: 20_000, callers: 1)
        try await benchmarkClientRoundTrips(operations: 20_000, callers: 4)
        try await benchmarkDataIn(megabytes: 64)
    } catch {
        print("  client benchmark failed: \(error)")
    }
}

/// Nanoseconds in a duration, as a Double.
private func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) * 1e-9
}

/// A bare request/response exchange of the same bytes, without the client: the floor for the client.
private func benchmarkRawPingPong(operations: Int) async throws {
    let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
    defer { listener.close() }
    let request = Packet.operationRequest(OperationRequest(code: .getStorageIDs, transactionID: 1)).encoded()
    let response = Packet.operationResponse(OperationResponse(code: .ok, transactionID: 1)).encoded()
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            let server = try await listener.accept(timeout: .seconds(5))
            defer { server.close() }
            var pending = 0
            while true {
                let chunk = try await server.receive(upTo: 4096, timeout: .seconds(5))
                if chunk.isEmpty { return }
                pending += chunk.count
                while pending >= request.count {
                    pending -= request.count
                    try await server.send(response, timeout: .seconds(5))
                }
            }
        }
        let client = try await TCPTransport.connect(host: "127.0.0.1", port: listener.port, timeout: .seconds(5))
        defer { client.close() }
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(operations)
        for index in 0..<(operations + 1000) {
            let start = clock.now
            try await client.send(request, timeout: .seconds(5))
            var received = 0
            while received < response.count {
                received += try await client.receive(upTo: 4096, timeout: .seconds(5)).count
            }
            if index >= 1000 { samples.append(clock.now - start) }
        }
        client.close()
        try await group.waitForAll()
        report("bare TCPTransport ping-pong (20-byte request, 12-byte response)", samples: samples)
    }
}

/// Empty operations through the client, from `callers` concurrent tasks (serialized by the client).
private func benchmarkClientRoundTrips(operations: Int, callers: Int) async throws {
    try await withResponder(dataLength: 0) { port in
        let client = try await PTPIPClient.connect(
            host: "127.0.0.1", port: port, configuration: benchmarkConfiguration())
        try await client.openSession()
        for _ in 0..<1000 { _ = try await client.execute(.getStorageIDs) }
        let clock = ContinuousClock()
        if callers == 1 {
            var samples: [Duration] = []
            samples.reserveCapacity(operations)
            for _ in 0..<operations {
                let start = clock.now
                _ = try await client.execute(.getStorageIDs)
                samples.append(clock.now - start)
            }
            report("PTPIPClient.execute, empty operation, 1 caller", samples: samples)
        } else {
            let start = clock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<callers {
                    group.addTask {
                        for _ in 0..<(operations / callers) { _ = try await client.execute(.getStorageIDs) }
                    }
                }
                try await group.waitForAll()
            }
            let perOperation = nanoseconds(clock.now - start) / Double(operations)
            print(
                "  PTPIPClient.execute, empty operation, \(callers) callers: mean \(format(perOperation / 1000)) µs/op, "
                    + "\(Int(1e9 / perOperation)) ops/s")
        }
        await client.disconnect()
    }
}

/// A 64 MiB data-in phase streamed to a sink that only counts bytes.
private func benchmarkDataIn(megabytes: Int) async throws {
    let size = megabytes << 20
    try await withResponder(dataLength: size) { port in
        let client = try await PTPIPClient.connect(
            host: "127.0.0.1", port: port, configuration: benchmarkConfiguration())
        try await client.openSession()
        let clock = ContinuousClock()
        let start = clock.now
        _ = try await client.execute(.getObject, parameters: [1]) { _, _ in }
        let seconds = nanoseconds(clock.now - start) / 1e9
        print(
            "  PTPIPClient data-in to a sink, \(megabytes) MiB in 1 MiB Data packets: \(format(Double(megabytes) / seconds)) MiB/s"
        )
        await client.disconnect()
    }
}

private func benchmarkConfiguration() -> PTPIPClient.Configuration {
    PTPIPClient.Configuration(
        identity: HostIdentity(guid: PTPIPGUID(bytes: Array(0..<16))!, friendlyName: "hdrshoot-bench"))
}

/// Runs a minimal responder (Init handshakes, then OK to every request, with `dataLength` bytes of data
/// for GetObject) while `body` runs, and stops it afterwards.
private func withResponder(dataLength: Int, _ body: @Sendable (UInt16) async throws -> Void) async throws {
    let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
    defer { listener.close() }
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            let command = try await listener.accept(timeout: .seconds(5))
            defer { command.close() }
            var framer = PacketFramer()
            func next() async throws -> Packet? {
                try await framer.nextPacket(from: command, maximumCount: 64 << 10, timeout: .seconds(30))
            }
            guard case .initCommandRequest? = try await next() else { return }
            let ack = InitCommandAck(
                connectionNumber: 1, guid: PTPIPGUID.zero, friendlyName: "bench", protocolVersion: 0x0001_0000)
            try await command.send(Packet.initCommandAck(ack).encoded(), timeout: .seconds(5))
            let event = try await listener.accept(timeout: .seconds(5))
            defer { event.close() }
            _ = try await event.receive(upTo: 64, timeout: .seconds(5))
            try await event.send(Packet.initEventAck.encoded(), timeout: .seconds(5))
            let payload = [UInt8](repeating: 0x5A, count: 1 << 20)
            while case let .operationRequest(request)? = try await next() {
                let id = request.transactionID
                var writer = ByteWriter(capacity: 64)
                if request.code == .getObject {
                    Packet.startData(transactionID: id, totalLength: UInt64(dataLength)).encode(into: &writer)
                    try await command.send(writer.bytes, timeout: .seconds(5))
                    for _ in 0..<(dataLength / payload.count) {
                        try await command.send(
                            Packet.data(transactionID: id, payload: payload[...]).encoded(), timeout: .seconds(5))
                    }
                    writer = ByteWriter(capacity: 64)
                    Packet.endData(transactionID: id, payload: []).encode(into: &writer)
                }
                Packet.operationResponse(OperationResponse(code: .ok, transactionID: id)).encode(into: &writer)
                try await command.send(writer.bytes, timeout: .seconds(5))
            }
        }
        do {
            try await body(listener.port)
        } catch {
            listener.close()
            group.cancelAll()
            throw error
        }
        try await group.waitForAll()
    }
}

/// Prints mean, median and 99th percentile of `samples`.
private func report(_ label: String, samples: [Duration]) {
    let sorted = samples.map(nanoseconds).sorted()
    guard !sorted.isEmpty else { return }
    let mean = sorted.reduce(0, +) / Double(sorted.count)
    let median = sorted[sorted.count / 2]
    let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
    print(
        "  \(label): mean \(format(mean / 1000)) µs, median \(format(median / 1000)) µs, "
            + "p99 \(format(p99 / 1000)) µs, \(Int(1e9 / mean)) ops/s")
}

private func format(_ value: Double) -> String {
    let scaled = Int((value * 10).rounded())
    return "\(scaled / 10).\(scaled % 10)"
}
