import HTTP
import PTPIP
import Timing

/// Fetches a device description: a minimal HTTP/1.1 GET over `TCPTransport`, bounded in time and size.
///
/// Descriptions are a few kilobytes from a camera on the same Wi-Fi, so this needs no more than
/// `Connection: close`, and the one HTTP codec (`HTTPResponseParser`) reads the answer: a status line,
/// `Content-Length` or chunked bodies, or a body that ends with the connection. The whole exchange is
/// bounded by `timeout` on the injected clock (a server that sends one byte a second still ends), and a
/// body above `limit` bytes is an error before it is buffered. Failures are
/// `SonyCameraError.descriptionUnreadable`, whose `DescriptionFetchFailure` says why.
package struct DescriptionFetcher: Sendable {
    /// The longest one fetch may take, connection included.
    package var timeout: Duration
    /// The largest response (headers and body) accepted.
    package var limit: Int
    /// The clock bounding the fetch.
    package var clock: any Clock<Duration>

    /// A fetcher with the given bounds.
    package init(
        timeout: Duration = .seconds(3), limit: Int = 64 * 1024, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.timeout = timeout
        self.limit = limit
        self.clock = clock
    }

    /// The body of `url` (an `http://host[:port]/path` URL) as text.
    package func fetch(_ url: HTTPURL) async throws -> String {
        do {
            return try await withTimeout(
                after: timeout, on: clock, throwing: DescriptionFetchFailure.timedOut(address: url.authority)
            ) {
                try await get(url)
            }
        } catch let failure as DescriptionFetchFailure {
            throw SonyCameraError.descriptionUnreadable(failure)
        } catch PTPIPError.timedOut {
            // A connect, send or receive bound is the whole fetch's `timeout` too: whichever of the equal bounds
            // fires first (on a busy host either may), the camera did not answer in time.
            throw SonyCameraError.descriptionUnreadable(.timedOut(address: url.authority))
        } catch let transport as PTPIPError {
            throw SonyCameraError.descriptionUnreadable(.transport(transport))
        }
    }

    private func get(_ url: HTTPURL) async throws -> String {
        let transport = try await TCPTransport.connect(host: url.host, port: url.port, timeout: timeout, clock: clock)
        defer { transport.close() }
        let request =
            "GET \(url.path) HTTP/1.1\r\nHost: \(url.authority)\r\nConnection: close\r\n"
            + "Accept: text/xml, application/xml\r\nUser-Agent: hdrshoot/0.1 UPnP/1.1\r\n\r\n"
        try await transport.send(Array(request.utf8), timeout: timeout)
        var parser = HTTPResponseParser(
            limits: HTTPLimits(maximumHeadBytes: min(limit, 16 * 1024), maximumBodyBytes: limit))
        var received = 0
        do {
            while true {
                let chunk = try await transport.receive(upTo: 16 * 1024, timeout: timeout)
                if chunk.isEmpty { break }
                received += chunk.count
                guard received <= limit else { throw Self.tooLarge(limit, at: url) }
                parser.append(chunk)
                if let response = try parser.nextResponse() { return try Self.text(of: response, from: url) }
            }
            guard let response = try parser.finishAtEndOfStream() else {
                throw DescriptionFetchFailure.endedEarly(during: "HTTP GET \(url) (the answer ended early)")
            }
            return try Self.text(of: response, from: url)
        } catch let error as HTTPError {
            throw Self.failure(error, limit: limit, at: url)
        }
    }

    /// The body of a 200 answer as UTF-8 text; any other status is a failure naming it.
    private static func text(of response: HTTPResponse, from url: HTTPURL) throws -> String {
        guard response.status == 200 else {
            throw DescriptionFetchFailure.notHTTP(
                expected: "HTTP 200 for \(url)", received: "'\(response.status) \(response.reason.prefix(50))'")
        }
        return String(decoding: response.body, as: UTF8.self)
    }

    /// The fetch's failure for bytes the HTTP codec refused.
    private static func failure(_ error: HTTPError, limit: Int, at url: HTTPURL) -> DescriptionFetchFailure {
        switch error {
        case let .tooLarge(_, _, announced):
            return .notHTTP(
                expected: "a description of at most \(limit) bytes from \(url)", received: "\(announced) bytes")
        case .endedEarly:
            return .endedEarly(during: "HTTP GET \(url) (the answer ended early)")
        case let .malformed(reason, offset):
            return .notHTTP(expected: "an HTTP/1.1 answer", received: "\(reason) at byte \(offset)")
        }
    }

    static func tooLarge(_ limit: Int, at url: HTTPURL) -> DescriptionFetchFailure {
        .notHTTP(expected: "a description of at most \(limit) bytes from \(url)", received: "more")
    }
}

/// An `http://host[:port]/path` URL, the only kind a device description may have.
package struct HTTPURL: Sendable, Hashable, CustomStringConvertible {
    /// The host (IPv6 without brackets).
    package var host: String
    /// The TCP port (80 when not written).
    package var port: UInt16
    /// The path with query, starting with `/`.
    package var path: String

    /// `host:port` as sent in `Host:` (IPv6 in brackets).
    package var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The URL as text.
    package var description: String { "http://\(authority)\(path)" }

    /// Parses an absolute `http://` URL; nil for anything else.
    package init?(_ text: String) {
        guard text.lowercased().hasPrefix("http://") else { return nil }
        let rest = text.dropFirst(7)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var path = String(rest.dropFirst(authority.count).prefix { $0 != "#" })
        if path.isEmpty { path = "/" } else if path.hasPrefix("?") { path = "/" + path }
        var host = String(authority)
        var port: UInt16 = 80
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = UInt16(after.dropFirst()), number > 0 else { return nil }
                port = number
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = String(authority[..<colon])
            guard let number = UInt16(authority[authority.index(after: colon)...]), number > 0 else { return nil }
            port = number
        }
        guard !host.isEmpty, !host.contains(where: { $0 == "@" || $0.isWhitespace }),
            !path.contains(where: { $0.isWhitespace || $0.isNewline })
        else { return nil }
        self.host = host
        self.port = port
        self.path = path
    }

    /// `reference` (absolute, `/absolute-path` or `relative-path`) resolved against this URL.
    package func resolving(_ reference: String) -> HTTPURL? {
        if reference.lowercased().hasPrefix("http://") { return HTTPURL(reference) }
        guard !reference.contains("://") else { return nil }
        var resolved = self
        if reference.hasPrefix("/") {
            resolved.path = reference
        } else {
            let directory = path.prefix { $0 != "?" }
            let base = directory.lastIndex(of: "/").map { directory[...$0] } ?? "/"
            resolved.path = base + reference
        }
        guard !resolved.path.contains(where: { $0.isWhitespace || $0.isNewline }) else { return nil }
        return resolved
    }
}
