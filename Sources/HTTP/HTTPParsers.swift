/// Parses HTTP/1.1 responses from a byte stream (the client's side of `HTTPFramer`).
///
/// `append` the bytes as they arrive; `nextResponse()` is nil until a whole response is there. At the
/// peer's EOF call `finishAtEndOfStream()`: a response without a length ends there, anything else cut short
/// throws. Sizes are checked against `limits` before bytes are kept.
package struct HTTPResponseParser: Sendable {
    private var framer: HTTPFramer

    /// Creates a parser that accepts responses within `limits`.
    package init(limits: HTTPLimits = .jsonRPC) { framer = HTTPFramer(kind: .response, limits: limits) }

    /// Whether bytes beyond the delivered responses are waiting (on a connection without pipelining, an error).
    package var hasBufferedBytes: Bool { framer.hasBufferedBytes }

    /// Adds bytes from the stream.
    package mutating func append(_ bytes: some Collection<UInt8>) { framer.append(bytes) }

    /// The next whole response, or nil if more bytes are needed.
    package mutating func nextResponse() throws(HTTPError) -> HTTPResponse? {
        try framer.nextMessage().map(Self.response)
    }

    /// The response that ends with the connection, nil if none was under way; throws if one was cut short.
    package mutating func finishAtEndOfStream() throws(HTTPError) -> HTTPResponse? {
        try framer.finishAtEndOfStream().map(Self.response)
    }

    /// The next response answers a HEAD request: it has no body.
    package mutating func expectNoBody() { framer.expectNoBody() }

    private static func response(_ message: HTTPFramer.Message) -> HTTPResponse {
        let connection = message.headers.values("Connection").joined(separator: ",").lowercased()
        let framed =
            message.headers["Content-Length"] != nil || message.headers["Transfer-Encoding"] != nil
            || [204, 304].contains(Int(message.startLine[1]) ?? 0)
        let keepsAlive =
            framed
            && (message.minorVersion == 1 ? !connection.contains("close") : connection.contains("keep-alive"))
        return HTTPResponse(
            status: Int(message.startLine[1]) ?? 0, reason: message.startLine[2], headers: message.headers,
            body: message.body, keepsAlive: keepsAlive)
    }
}

/// One HTTP/1.1 request: what the client sends and what the simulator's server parses.
package struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `POST`, `HEAD`.
    package var method: String
    /// The request target, an absolute path with any query (`/sony/camera`).
    package var target: String
    /// The header fields (`Host` and `Content-Length` are added by `encoded()` when missing).
    package var headers: HTTPHeaders
    /// The body (empty for GET).
    package var body: [UInt8]
    /// Whether the sender wants the connection kept open (HTTP/1.1 without `Connection: close`).
    package var keepsAlive: Bool

    /// Creates a request.
    package init(
        method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        keepsAlive: Bool = true
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.keepsAlive = keepsAlive
    }

    /// The bytes on the wire, with `Host: host` and the body's `Content-Length`.
    package func encoded(host: String) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if headers["Host"] == nil { head += "Host: \(host)\r\n" }
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        if headers["Content-Length"] == nil && (!body.isEmpty || method == "POST") {
            head += "Content-Length: \(body.count)\r\n"
        }
        if !keepsAlive && headers["Connection"] == nil { head += "Connection: close\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }
}

extension HTTPResponse {
    /// The bytes on the wire (a server's answer): the status line, the headers, `Content-Length`, the body.
    package func encoded() -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        if headers["Content-Length"] == nil && headers["Transfer-Encoding"] == nil {
            head += "Content-Length: \(body.count)\r\n"
        }
        if !keepsAlive && headers["Connection"] == nil { head += "Connection: close\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }
}

/// Parses HTTP/1.1 requests from a byte stream (the simulator's side of `HTTPFramer`).
package struct HTTPRequestParser: Sendable {
    private var framer: HTTPFramer

    /// Creates a parser that accepts requests within `limits`.
    package init(limits: HTTPLimits = .jsonRPC) { framer = HTTPFramer(kind: .request, limits: limits) }

    /// Adds bytes from the stream.
    package mutating func append(_ bytes: some Collection<UInt8>) { framer.append(bytes) }

    /// The next whole request, or nil if more bytes are needed.
    package mutating func nextRequest() throws(HTTPError) -> HTTPRequest? {
        guard let message = try framer.nextMessage() else { return nil }
        let connection = message.headers.values("Connection").joined(separator: ",").lowercased()
        return HTTPRequest(
            method: message.startLine[0], target: message.startLine[1], headers: message.headers, body: message.body,
            keepsAlive: message.minorVersion == 1 ? !connection.contains("close") : connection.contains("keep-alive"))
    }

    /// At EOF: throws if a request was cut short.
    package mutating func finishAtEndOfStream() throws(HTTPError) {
        _ = try framer.finishAtEndOfStream()
    }
}
