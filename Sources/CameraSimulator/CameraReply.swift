import PTPIPCodec

/// The data-in phase of one answer: small buffers whole, images as a lazily produced byte range.
package enum DataPhase: Sendable, Equatable {
    /// Bytes already built (datasets, property dumps, the 8-byte SDIO_Connect answer, or nothing).
    case bytes([UInt8])
    /// `range` of a generated image, produced chunk by chunk while it is sent (zeros past its end).
    case image(GeneratedImage, range: Range<Int>)

    /// The number of payload bytes.
    package var count: Int {
        switch self {
        case let .bytes(bytes): return bytes.count
        case let .image(_, range): return range.count
        }
    }

    /// Payload bytes `offset..<offset+length` of this data phase.
    package func chunk(from offset: Int, length: Int) -> [UInt8] {
        let end = min(count, offset + length)
        guard offset < end else { return [] }
        switch self {
        case let .bytes(bytes): return Array(bytes[offset..<end])
        case let .image(image, range):
            // A range past the image's end (the transfer-long quirk) is padded with zeros after its EOI.
            let lower = range.lowerBound + offset, upper = range.lowerBound + end
            let inImage = lower < image.size ? image.bytes(in: lower..<min(upper, image.size)) : []
            return inImage + [UInt8](repeating: 0, count: upper - lower - inImage.count)
        }
    }

    /// All payload bytes at once (tests and small phases).
    package var allBytes: [UInt8] { chunk(from: 0, length: count) }
}

/// What the camera answers to one operation request: a response code, its parameters, maybe data.
package struct CameraReply: Sendable, Equatable {
    /// The PTP response code.
    package var code: ResponseCode
    /// Response parameters (at most five).
    package var parameters: [UInt32]
    /// The data-in phase sent before the response; every successful data-in operation has one, even empty.
    package var data: DataPhase?

    /// Creates a reply.
    package init(_ code: ResponseCode, parameters: [UInt32] = [], data: DataPhase? = nil) {
        self.code = code
        self.parameters = parameters
        self.data = data
    }

    /// A successful reply carrying `bytes` as its data phase.
    package static func ok(data bytes: [UInt8]) -> CameraReply { CameraReply(.ok, data: .bytes(bytes)) }
}

/// What the connection should do with one operation request.
package enum CameraAction: Sendable, Equatable {
    /// Send this answer.
    case reply(CameraReply)
    /// Close both connections without answering (a Wi-Fi drop); the camera stays up for a reconnect.
    case drop
    /// Never answer (a hung body); the connections stay open until the client gives up.
    case hang
}
