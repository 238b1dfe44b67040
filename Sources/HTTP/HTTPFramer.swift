/// The one HTTP/1.1 message framer: start line, header fields, and a body framed by Content-Length, by
/// chunked transfer coding, or (responses only) by the end of the connection (RFC 9112 §6).
///
/// Bytes go in with `append`; `nextMessage()` returns nil while it needs more and throws
/// `HTTPError` when the bytes are malformed. Every peer-announced size (the head, a declared
/// Content-Length, a chunk size) is checked against `HTTPLimits` before the bytes are kept, and the raw
/// buffer only ever holds what one `append` brought plus an unfinished line. Nothing here traps on input.
/// Clients parse responses with it (`HTTPResponseParser`: the Camera Remote API client, the device description
/// fetcher) and servers requests (`HTTPRequestParser`: the legacy simulator, the web remote).
package struct HTTPFramer: Sendable {
    /// Which start line the messages have.
    package enum Kind: Sendable {
        /// `HTTP/1.1 200 OK`
        case response
        /// `POST /sony/camera HTTP/1.1`
        case request
    }

    /// A message's start line, headers and body, before the kind-specific wrapping.
    package struct Message: Sendable, Equatable {
        /// The three parts of the start line (version, code, reason / method, target, version).
        package var startLine: [String]
        /// The header fields (trailers of a chunked body appended).
        package var headers: HTTPHeaders
        /// The body, de-chunked.
        package var body: [UInt8]
        /// The minor HTTP version (0 or 1).
        package var minorVersion: Int
    }

    private enum State: Sendable {
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case untilClose
    }

    private let kind: Kind
    private let limits: HTTPLimits
    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes consumed from the stream before `buffer[start]`.
    private var consumed = 0
    /// Where the line being parsed began in the stream, for error offsets.
    private var lineOffset = 0
    private var state = State.head
    private var message = Message(startLine: [], headers: HTTPHeaders(), body: [], minorVersion: 1)
    private var headerCount = 0
    /// Set by the caller for a response to HEAD (no body whatever the headers say).
    private var bodyless = false

    /// Creates a framer for `kind` messages within `limits`.
    package init(kind: Kind, limits: HTTPLimits) {
        self.kind = kind
        self.limits = limits
    }

    /// Whether bytes of a next message (or of an unfinished one) are waiting.
    package var hasBufferedBytes: Bool { start < buffer.count || !isIdle }

    /// Whether no message is under way (the last one, if any, was delivered whole).
    package var isIdle: Bool {
        if case .head = state { return start == buffer.count && message.startLine.isEmpty }
        return false
    }

    /// Adds bytes from the stream.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole message, nil if more bytes are needed; throws on malformed bytes or a broken limit.
    package mutating func nextMessage() throws(HTTPError) -> Message? {
        while true {
            switch state {
            case .head:
                guard let line = try nextLine(limit: limits.maximumHeadBytes, what: .head) else { return nil }
                if message.startLine.isEmpty {
                    if line.isEmpty && kind == .request { continue } // a stray CRLF between requests (RFC 9112 §2.2)
                    try parseStartLine(line)
                } else if line.isEmpty {
                    if let finished = try beginBody() { return finished }
                } else {
                    try parseField(line)
                }
            case let .fixedBody(remaining):
                let take = min(remaining, buffer.count - start)
                message.body.append(contentsOf: buffer[start..<start + take])
                advance(take)
                if remaining - take > 0 {
                    state = .fixedBody(remaining: remaining - take)
                    return nil
                }
                return finish()
            case .chunkSize:
                guard let line = try nextLine(limit: 1024, what: .chunkSizeLine) else { return nil }
                let size = try parseChunkSize(line)
                state = size == 0 ? .trailers : .chunkData(remaining: size)
            case let .chunkData(remaining):
                let take = min(remaining, buffer.count - start)
                message.body.append(contentsOf: buffer[start..<start + take])
                advance(take)
                if remaining - take > 0 {
                    state = .chunkData(remaining: remaining - take)
                    return nil
                }
                state = .chunkDataEnd
            case .chunkDataEnd:
                guard let line = try nextLine(limit: 2, what: .chunkEnd) else { return nil }
                guard line.isEmpty else { throw malformed("chunk data longer than its size") }
                state = .chunkSize
            case .trailers:
                guard let line = try nextLine(limit: limits.maximumHeadBytes, what: .trailer) else { return nil }
                if line.isEmpty { return finish() }
                try parseField(line)
            case .untilClose:
                let count = buffer.count - start
                guard message.body.count + count <= limits.maximumBodyBytes else {
                    throw .tooLarge(
                        .body, limit: limits.maximumBodyBytes, announced: message.body.count + count)
                }
                message.body.append(contentsOf: buffer[start...])
                advance(count)
                return nil
            }
        }
    }

    /// Marks this message as the answer to a HEAD request: it has no body whatever its headers say.
    package mutating func expectNoBody() { bodyless = true }

    /// Called at the peer's EOF: the message that ends with the connection, or an error if one was cut short.
    package mutating func finishAtEndOfStream() throws(HTTPError) -> Message? {
        switch state {
        case .untilClose: return finish()
        case .head where message.startLine.isEmpty && start == buffer.count: return nil
        default:
            throw .endedEarly(offset: consumed)
        }
    }

    // MARK: - Pieces

    private mutating func advance(_ count: Int) {
        start += count
        consumed += count
    }

    private func malformed(_ reason: String) -> HTTPError { .malformed(reason, offset: lineOffset) }

    /// The next CRLF-terminated line without its CRLF, nil if incomplete; lines longer than `limit` throw.
    private mutating func nextLine(limit: Int, what: HTTPError.Part) throws(HTTPError) -> ArraySlice<UInt8>? {
        var index = start
        let end = buffer.count
        lineOffset = consumed
        while index < end {
            if buffer[index] == 0x0A {
                guard index > start, buffer[index - 1] == 0x0D else { throw malformed("a line ends in LF without CR") }
                let line = buffer[start..<index - 1]
                try chargeHead(index + 1 - start, limit: limit, what: what)
                advance(index + 1 - start)
                return line
            }
            index += 1
        }
        if end - start > limit { throw .tooLarge(what, limit: limit, announced: end - start) }
        return nil
    }

    private var headBytes = 0

    private mutating func chargeHead(_ count: Int, limit: Int, what: HTTPError.Part) throws(HTTPError) {
        guard count <= limit else { throw .tooLarge(what, limit: limit, announced: count) }
        if case .head = state {
            headBytes += count
            guard headBytes <= limits.maximumHeadBytes else {
                throw .tooLarge(.head, limit: limits.maximumHeadBytes, announced: headBytes)
            }
        }
    }

    private mutating func parseStartLine(_ line: ArraySlice<UInt8>) throws(HTTPError) {
        guard let text = String(validating: line, as: UTF8.self) else { throw malformed("start line is not UTF-8") }
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        switch kind {
        case .response:
            guard parts.count >= 2 else { throw malformed("status line '\(text.prefix(80))' has no status code") }
            message.minorVersion = try version(parts[0])
            guard parts[1].count == 3, parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let status = Int(parts[1]), status >= 100
            else { throw malformed("status code '\(parts[1].prefix(16))' is not three digits") }
            message.startLine = [parts[0], String(status), parts.count > 2 ? parts[2] : ""]
        case .request:
            guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[0].utf8.allSatisfy(Self.isTokenByte)
            else { throw malformed("request line '\(text.prefix(80))' is not 'METHOD target HTTP/1.x'") }
            message.minorVersion = try version(parts[2])
            message.startLine = parts
        }
    }

    private func version(_ text: String) throws(HTTPError) -> Int {
        switch text {
        case "HTTP/1.1": return 1
        case "HTTP/1.0": return 0
        default: throw malformed("unsupported HTTP version '\(text.prefix(16))'")
        }
    }

    private mutating func parseField(_ line: ArraySlice<UInt8>) throws(HTTPError) {
        guard let first = line.first, first != 0x20, first != 0x09 else {
            throw malformed("folded header line (obsolete line folding is refused)")
        }
        guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex else {
            throw malformed("header line without a name and a colon")
        }
        let name = line[line.startIndex..<colon]
        guard name.allSatisfy(Self.isTokenByte) else { throw malformed("header name with a forbidden byte") }
        var value = line[(colon + 1)...]
        while let byte = value.first, byte == 0x20 || byte == 0x09 { value = value.dropFirst() }
        while let byte = value.last, byte == 0x20 || byte == 0x09 { value = value.dropLast() }
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }),
            let valueText = String(validating: value, as: UTF8.self)
        else { throw malformed("header value with a control byte or invalid UTF-8") }
        headerCount += 1
        guard headerCount <= limits.maximumHeaderCount else {
            throw .tooLarge(.headerFields, limit: limits.maximumHeaderCount, announced: headerCount)
        }
        message.headers.add(String(decoding: name, as: UTF8.self), valueText)
    }

    /// Decides the body's framing at the end of the head; returns the message when it has no body.
    private mutating func beginBody() throws(HTTPError) -> Message? {
        let headers = message.headers
        let status = kind == .response ? Int(message.startLine[1]) ?? 0 : 0
        if kind == .response && (100..<200).contains(status) {
            // An interim response (100 Continue): dropped, the real one follows.
            message = Message(startLine: [], headers: HTTPHeaders(), body: [], minorVersion: 1)
            headerCount = 0
            headBytes = 0
            return nil
        }
        let codings = headers.values("Transfer-Encoding")
        let lengths = headers.values("Content-Length")
        if !codings.isEmpty {
            guard lengths.isEmpty else { throw malformed("both Transfer-Encoding and Content-Length") }
            let joined = codings.joined(separator: ",").split(separator: ",").map {
                $0.trimmingSpaces.lowercased()
            }
            guard joined == ["chunked"] else { throw malformed("transfer coding '\(joined.joined(separator: ","))'") }
        }
        if bodyless || status == 204 || status == 304 { return finish() }
        if !codings.isEmpty {
            state = .chunkSize
            return nil
        }
        if let first = lengths.first {
            let all = lengths.flatMap { $0.split(separator: ",").map(\.trimmingSpaces) }
            guard all.allSatisfy({ $0 == all[0] }) else { throw malformed("conflicting Content-Length values") }
            guard let length = Self.decimal(first.trimmingSpaces) else {
                throw malformed("Content-Length '\(first.prefix(24))' is not a number")
            }
            guard length <= limits.maximumBodyBytes else {
                throw .tooLarge(.body, limit: limits.maximumBodyBytes, announced: length)
            }
            if length == 0 { return finish() }
            // Within the limit, so the announced size may be reserved at once (one allocation per body).
            message.body.reserveCapacity(length)
            state = .fixedBody(remaining: length)
            return nil
        }
        if kind == .request { return finish() }
        state = .untilClose
        return nil
    }

    private mutating func parseChunkSize(_ line: ArraySlice<UInt8>) throws(HTTPError) -> Int {
        let digits = line.prefix { $0 != 0x3B && $0 != 0x20 && $0 != 0x09 }
        guard !digits.isEmpty, digits.count <= 15 else { throw malformed("chunk size has no or too many digits") }
        var size = 0
        for byte in digits {
            guard let digit = Self.hexValue(byte) else { throw malformed("chunk size is not hexadecimal") }
            size = size * 16 + digit
        }
        guard message.body.count + size <= limits.maximumBodyBytes else {
            throw .tooLarge(.body, limit: limits.maximumBodyBytes, announced: message.body.count + size)
        }
        return size
    }

    private mutating func finish() -> Message {
        let done = message
        message = Message(startLine: [], headers: HTTPHeaders(), body: [], minorVersion: 1)
        state = .head
        headerCount = 0
        headBytes = 0
        bodyless = false
        return done
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: return Int(byte - 0x30)
        case 0x41...0x46: return Int(byte - 0x41 + 10)
        case 0x61...0x66: return Int(byte - 0x61 + 10)
        default: return nil
        }
    }

    /// A non-negative decimal of at most 15 digits (no sign, no spaces): anything else is nil.
    package static func decimal(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 15, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    var trimmingSpaces: Substring {
        let text = Substring(self)
        guard let first = text.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = text.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return text[first...last]
    }
}
