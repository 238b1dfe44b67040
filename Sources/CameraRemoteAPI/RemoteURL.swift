import HTTP

/// An `http://host:port/path` URL as the camera hands them out (device description, ActionList_URL,
/// postview URLs), parsed without a resolver: the host must be an IPv4 or IPv6 literal.
///
/// Cameras always give their own numeric address (`http://192.168.122.1:8080/sony`), so a name means a
/// URL we did not expect; it is refused rather than looked up.
package struct RemoteURL: Sendable, Hashable, CustomStringConvertible {
    /// The numeric host, without brackets.
    package let host: String
    /// The TCP port (80 when the URL names none).
    package let port: UInt16
    /// The absolute path with any query, at least `/`.
    package let path: String

    /// Parses `text`; throws `.invalidURL` for anything but `http://` with a numeric host.
    package init(_ text: String) throws(CameraRemoteAPIError) {
        guard text.utf8.count <= 2048, text.hasPrefix("http://") else { throw .invalidURL(String(text.prefix(120))) }
        let rest = text.dropFirst("http://".count)
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = String(rest[authorityEnd...])
        if path.isEmpty { path = "/" }
        guard !path.contains(where: { $0 == " " || $0.isNewline }) else { throw .invalidURL(String(text.prefix(120))) }
        var host = Substring(authority)
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL(String(text.prefix(120))) }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidURL(String(text.prefix(120))) }
                portText = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        var port: UInt16 = 80
        if let portText {
            guard let value = HTTPFramer.decimal(portText), value > 0, value <= 65535 else {
                throw .invalidURL(String(text.prefix(120)))
            }
            port = UInt16(value)
        }
        guard Self.isNumericHost(host) else { throw .invalidURL(String(text.prefix(120))) }
        self.host = String(host)
        self.port = port
        self.path = path
    }

    /// Creates a URL from its parts.
    package init(host: String, port: UInt16, path: String) {
        self.host = host
        self.port = port
        self.path = path
    }

    /// The same server with another path.
    package func with(path: String) -> RemoteURL { RemoteURL(host: host, port: port, path: path) }

    /// `host:port` as a `Host` header wants it (IPv6 in brackets).
    package var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    package var description: String { "http://\(authority)\(path)" }

    private static func isNumericHost(_ host: Substring) -> Bool {
        guard !host.isEmpty else { return false }
        if host.contains(":") { return host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in HTTPFramer.decimal(part).map { $0 <= 255 } ?? false }
    }
}
