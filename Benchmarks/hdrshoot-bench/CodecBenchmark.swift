// Codec micro-benchmark: how fast the PTP/IP framer and decoder turn received bytes into packets.
// Prints figures, asserts nothing. Run in release: `swift run -c release hdrshoot-bench`.
import ByteCoding
import PTPIPCodec

/// Measures decode throughput for 1 MiB Data packets (whole and streamed) and small Operation Responses,
/// feeding the framer 64 KiB at a time as a socket read would, and prints one line per figure.
func runCodecBenchmark() {
    print("PTP/IP codec (64 KiB reads into PacketFramer):")
    benchmarkDataPackets()
    benchmarkOperationResponses()
    benchmarkEncoding()
}

/// The size of one simulated socket read.
private let readSize = 64 << 10

/// Times `body` over `rounds` repetitions and returns seconds per repetition (best of the rounds).
private func bestSeconds(rounds: Int, _ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    var best = Double.infinity
    for _ in 0..<rounds {
        let elapsed = clock.measure(body)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        best = min(best, seconds)
    }
    return best
}

/// Feeds `stream` to `framer` in `readSize` pieces, calling `drain` after each piece.
private func feed(_ stream: [UInt8], _ framer: inout PacketFramer, drain: (inout PacketFramer) -> Void) {
    stream.withUnsafeBytes { raw in
        var start = 0
        while start < raw.count {
            let end = min(start + readSize, raw.count)
            framer.append(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
            drain(&framer)
            start = end
        }
    }
}

private func benchmarkDataPackets() {
    let packetCount = 32
    let payload = [UInt8](repeating: 0xA5, count: 1 << 20)
    var writer = ByteWriter(capacity: packetCount * (payload.count + 12))
    for index in 0..<packetCount {
        Packet.data(transactionID: UInt32(index), payload: payload[...]).encode(into: &writer)
    }
    let stream = writer.bytes
    let megabytes = Double(stream.count) / 1_048_576

    var checksum = 0
    let whole = bestSeconds(rounds: 5) {
        var framer = PacketFramer(maximumPacketLength: 2 << 20)
        feed(stream, &framer) { framer in
            while case let .data(_, payload)? = try? framer.nextPacket() { checksum &+= payload.count }
        }
    }
    let streamed = bestSeconds(rounds: 5) {
        var framer = PacketFramer(maximumPacketLength: 4096)
        feed(stream, &framer) { framer in
            while case let .dataChunk(piece)? = try? framer.nextFrame() { checksum &+= piece.bytes.count }
        }
    }
    print("  1 MiB Data packets, whole (one payload copy): \(format(megabytes / whole)) MB/s")
    print("  1 MiB Data packets, streamed chunks (no copy): \(format(megabytes / streamed)) MB/s")
    if checksum == 0 { print("  (no payload decoded)") }
}

private func benchmarkOperationResponses() {
    let packetCount = 200_000
    var writer = ByteWriter(capacity: packetCount * 18)
    for index in 0..<packetCount {
        let parameters: [UInt32] = index % 2 == 0 ? [] : [UInt32(index)]
        Packet.operationResponse(OperationResponse(code: .ok, transactionID: UInt32(index), parameters: parameters))
            .encode(into: &writer)
    }
    let stream = writer.bytes
    var checksum: UInt32 = 0
    let seconds = bestSeconds(rounds: 5) {
        var framer = PacketFramer()
        feed(stream, &framer) { framer in
            while case let .operationResponse(response)? = try? framer.nextPacket() {
                checksum &+= response.transactionID
            }
        }
    }
    print("  Operation Responses (14-18 bytes): \(format(Double(packetCount) / seconds)) packets/s")
    if checksum == 0 { print("  (no response decoded)") }
}

private func benchmarkEncoding() {
    let packetCount = 200_000
    var total = 0
    let seconds = bestSeconds(rounds: 5) {
        var writer = ByteWriter(capacity: packetCount * 22)
        for index in 0..<packetCount {
            Packet.operationRequest(
                OperationRequest(code: .getObject, transactionID: UInt32(index), parameters: [0xFFFF_C001])
            )
            .encode(into: &writer)
        }
        total &+= writer.count
    }
    print("  Operation Requests encoded: \(format(Double(packetCount) / seconds)) packets/s")
    if total == 0 { print("  (nothing encoded)") }
}

/// A figure with thousands separators and no decimals (Foundation-free).
private func format(_ value: Double) -> String {
    guard value.isFinite else { return "inf" }
    let digits = String(Int(value))
    var result = ""
    for (index, character) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
        result.append(character)
    }
    return result
}
