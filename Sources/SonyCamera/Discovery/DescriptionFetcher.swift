import PTPIP
import Timing

/// Fetches a device description: a minimal HTTP/1.1 GET over `TCPTransport`, bounded in time and size.
///
/// Descriptions are a few kilobytes from a camera on the same Wi-Fi, so this needs no more than
/// `Connection: close`, a status line, `Content-Length` or chunked bodies, and EOF. The whole exchange is
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
        var response: [UInt8] = []
        while true {
            let chunk = try await transport.receive(upTo: 16 * 1024, timeout: timeout)
            if chunk.isEmpty { break }
            guard response.count + chunk.count <= limit else { throw Self.tooLarge(limit, at: url) }
            response += chunk
            if let complete = try HTTPResponse(parsing: response, limit: limit, final: false) {
                return try complete.text(from: url)
            }
        }
        guard let complete = try HTTPResponse(parsing: response, limit: limit, final: true) else {
            throw DescriptionFetchFailure.endedEarly(during: "HTTP GET \(url) (the answer ended early)")
        }
        return try complete.text(from: url)
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

/// A parsed HTTP/1.1 response once it is complete.
struct HTTPResponse {
    /// The status code (200).
    var status: Int
    /// The status line as sent, for messages.
    var statusLine: String
    /// The body bytes (de-chunked).
    var body: [UInt8]

    /// Parses `bytes`; nil while more bytes are needed (unless `final`: the peer closed, so the body ends here).
    init?(parsing bytes: [UInt8], limit: Int, final: Bool) throws {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let headerEnd = bytes.firstRange(of: separator) else {
            if final {
                throw DescriptionFetchFailure.notHTTP(
                    expected: "an HTTP/1.1 answer", received: "\(bytes.count) bytes without headers")
            }
            return nil
        }
        let head = String(decoding: bytes[..<headerEnd.lowerBound], as: UTF8.self)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        statusLine = String(lines.first ?? "")
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else {
            throw DescriptionFetchFailure.notHTTP(
                expected: "an HTTP/1.1 status line", received: "'\(statusLine.prefix(60))'")
        }
        status = code
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...]).trimmingSpaces()
        }
        let rest = Array(bytes[headerEnd.upperBound...])
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            guard let decoded = try Self.dechunk(rest, final: final) else { return nil }
            body = decoded
        } else if let lengthText = headers["content-length"] {
            guard let length = Int(lengthText), length >= 0 else {
                throw DescriptionFetchFailure.notHTTP(
                    expected: "a Content-Length", received: "'\(lengthText.prefix(30))'")
            }
            // Checked before waiting for the body: a server announcing 4 GiB gets an error, not a wait.
            if length > limit {
                throw DescriptionFetchFailure.notHTTP(
                    expected: "a description of at most \(limit) bytes", received: "\(length) bytes announced")
            }
            if rest.count < length {
                if final {
                    throw DescriptionFetchFailure.endedEarly(during: "HTTP body (\(rest.count) of \(length) bytes)")
                }
                return nil
            }
            body = Array(rest[..<length])
        } else {
            guard final else { return nil }
            body = rest
        }
    }

    /// The body as UTF-8 text when the status is 200.
    func text(from url: HTTPURL) throws -> String {
        guard status == 200 else {
            throw DescriptionFetchFailure.notHTTP(
                expected: "HTTP 200 for \(url)", received: "'\(statusLine.prefix(60))'")
        }
        return String(decoding: body, as: UTF8.self)
    }

    /// The body of a chunked transfer; nil while incomplete.
    private static func dechunk(_ bytes: [UInt8], final: Bool) throws -> [UInt8]? {
        var body: [UInt8] = []
        var index = 0
        let crlf: [UInt8] = [13, 10]
        while true {
            guard let lineEnd = bytes[index...].firstRange(of: crlf) else {
                if final { throw DescriptionFetchFailure.endedEarly(during: "HTTP chunked body") }
                return nil
            }
            let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self).prefix { $0 != ";" }
            guard let size = Int(sizeText.trimmingSpaces(), radix: 16), size >= 0, size <= bytes.count else {
                throw DescriptionFetchFailure.notHTTP(
                    expected: "an HTTP chunk size", received: "'\(sizeText.prefix(20))'")
            }
            if size == 0 { return body }
            let start = lineEnd.upperBound
            guard bytes.count >= start + size + 2 else {
                if final { throw DescriptionFetchFailure.endedEarly(during: "HTTP chunked body") }
                return nil
            }
            body += bytes[start..<start + size]
            index = start + size + 2
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(String(self).drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
