// libFuzzer entry point for the PTP/IP codec and the EXIF reader: arbitrary bytes go to both framer modes,
// the whole-packet decoder, every body decoder, the datasets, and the EXIF reader (as they are, behind a
// JPEG EXIF header, behind a TIFF header), and the one HTTP codec (HTTPFuzzTarget.swift). Any trap is a bug: bad bytes must only ever cause a throw.
// Built by Fuzz/run.sh together with the PTPIPCodec sources and the ByteCoding and ImageMetadata modules.

import ImageMetadata

/// libFuzzer calls this once per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    FuzzTarget.run(bytes)
    return 0
}

/// What each input is put through; decoded values must survive an encode/decode round trip.
enum FuzzTarget {
    /// Puts one input through every decoder; traps (the fuzzer's "crash") only on a codec bug.
    static func run(_ bytes: [UInt8]) {
        // The first byte picks how the stream is split, so splits are explored along with contents.
        let chunk = 1 + Int(bytes.first ?? 0) % 97
        wholePackets(bytes, chunk: chunk)
        streamedFrames(bytes, chunk: chunk)
        singlePackets(bytes)
        datasets(bytes)
        exif(bytes)
        HTTPFuzzTarget.run(bytes, chunk: chunk)
    }

    private static func wholePackets(_ bytes: [UInt8], chunk: Int) {
        var framer = PacketFramer(maximumPacketLength: 1 << 16)
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            framer.append(bytes[start..<end])
            start = end
            do {
                while let packet = try framer.nextPacket() { checkRoundTrip(packet) }
            } catch {
                return
            }
        }
    }

    private static func streamedFrames(_ bytes: [UInt8], chunk: Int) {
        var framer = PacketFramer(maximumPacketLength: 512, maximumStreamedPacketLength: 1 << 20)
        var start = 0
        var payloadBytes = 0
        var sunkBytes = 0
        var receiver: DataPhaseReceiver?
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            framer.append(bytes[start..<end])
            start = end
            do {
                while let frame = try framer.nextFrame() {
                    // The first Start_Data opens a data phase that every later frame is checked against.
                    if receiver == nil, case let .packet(.startData(transactionID, _)) = frame {
                        receiver = DataPhaseReceiver(transactionID: transactionID)
                    }
                    if receiver != nil { _ = try receiver?.accept(frame, sink: { sunkBytes += $0.count }) }
                    switch frame {
                    case let .packet(packet): checkRoundTrip(packet)
                    case let .dataChunk(piece): payloadBytes += piece.bytes.count
                    }
                }
            } catch {
                return
            }
        }
        precondition(payloadBytes <= bytes.count, "streamed more payload than was fed")
        precondition(sunkBytes <= payloadBytes, "the data phase sink got more than was streamed")
    }

    private static func singlePackets(_ bytes: [UInt8]) {
        if let packet = try? Packet.decode(bytes) { checkRoundTrip(packet) }
        let body = bytes.dropFirst(min(1, bytes.count))
        for type in PacketType.allCases {
            if let packet = try? Packet.decode(type: type, body: body) { checkRoundTrip(packet) }
        }
    }

    private static func datasets(_ bytes: [UInt8]) {
        if let info = try? DeviceInfo(decoding: bytes) {
            precondition((try? DeviceInfo(decoding: info.encoded())) == info, "DeviceInfo twins disagree")
        }
        if let info = try? ObjectInfo(decoding: bytes) {
            precondition((try? ObjectInfo(decoding: info.encoded())) == info, "ObjectInfo twins disagree")
        }
    }

    private static func exif(_ bytes: [UInt8]) {
        _ = ImageFormat(detecting: bytes).fileExtension
        checkExif(bytes)
        // Behind a JPEG SOI + APP1 "Exif\0\0" (the segment length claims the whole input, cut at 64 KiB),
        // and behind a little-endian TIFF header pointing at byte 8, so the IFD walk sees the fuzzer's bytes.
        let length = min(2 + 6 + bytes.count, 0xFFFF)
        checkExif(
            [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF), 0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
                + bytes)
        checkExif([0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00] + bytes)
    }

    private static func checkExif(_ bytes: [UInt8]) {
        guard let fields = try? ExifReader.read(bytes) else { return }
        // Whatever the reader returns, the writer writes and the reader reads back (strings the writer
        // cuts, longer than the reader's limit once re-encoded, are compared only when short enough).
        guard let again = try? ExifReader.read([0xFF, 0xD8] + ExifWriter.jpegSegment(fields)) else {
            preconditionFailure("EXIF the writer wrote from read fields does not read back")
        }
        precondition(again.exposureTime == fields.exposureTime, "EXIF ExposureTime twins disagree")
        for (original, reread) in [
            (fields.model, again.model), (fields.make, again.make), (fields.dateTimeOriginal, again.dateTimeOriginal)
        ] {
            if let original, original.utf8.count < 1023 {
                precondition(reread == original, "EXIF string twins disagree")
            }
        }
    }

    private static func checkRoundTrip(_ packet: Packet) {
        let encoded = packet.encoded()
        precondition(encoded.count == packet.encodedLength, "encodedLength disagrees with encode")
        precondition((try? Packet.decode(encoded)) == packet, "packet twins disagree")
    }
}
