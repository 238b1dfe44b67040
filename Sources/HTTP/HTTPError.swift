/// Why bytes from a peer are not an HTTP/1.1 message we accept: the one error of the HTTP codec.
///
/// A server answers `.tooLarge(.head, ...)` and `.tooLarge(.headerFields, ...)` with 431, `.tooLarge(.body, ...)`
/// with 413 and `.malformed` with 400 (`suggestedStatus`); a client wraps it in its own layer's error. Nothing in
/// the codec traps on input: every malformed or oversized message is one of these.
package enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes broke the protocol; `offset` counts bytes from the start of the stream to the bad line.
    case malformed(String, offset: Int)
    /// The peer closed the connection in the middle of a message that began at `offset`.
    case endedEarly(offset: Int)
    /// The peer announced (or sent) more than the limits allow for `part`; checked before anything is buffered.
    case tooLarge(Part, limit: Int, announced: Int)

    /// Which part of a message a size limit guards.
    package enum Part: String, Sendable, Equatable {
        /// The start line and the header lines together (`HTTPLimits.maximumHeadBytes`).
        case head = "HTTP head"
        /// How many header fields, trailers included (`HTTPLimits.maximumHeaderCount`).
        case headerFields = "header field count"
        /// The body after de-chunking (`HTTPLimits.maximumBodyBytes`).
        case body = "body"
        /// One chunk-size line of a chunked body.
        case chunkSizeLine = "chunk size line"
        /// The CRLF that ends a chunk's data.
        case chunkEnd = "chunk end"
        /// One trailer line after the last chunk.
        case trailer = "trailer"
    }

    /// The status a server answers with: 431 for a head over its limits, 413 for a body, 400 otherwise.
    package var suggestedStatus: Int {
        switch self {
        case .malformed, .endedEarly: return 400
        case .tooLarge(.head, _, _), .tooLarge(.headerFields, _, _): return 431
        case .tooLarge: return 413
        }
    }

    package var description: String {
        switch self {
        case let .malformed(reason, offset): return "malformed HTTP at byte \(offset): \(reason)"
        case let .endedEarly(offset): return "the connection closed in the middle of a message (byte \(offset))"
        case let .tooLarge(part, limit, announced):
            return "\(part.rawValue) of \(announced) bytes is larger than the limit of \(limit) bytes"
        }
    }
}
