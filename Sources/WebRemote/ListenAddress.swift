import Posix

/// Where the remote listens, as `--listen` / `--remote` gives it: `ADDRESS:PORT` (IPv4, `[IPv6]:PORT`) or
/// `INTERFACE:PORT` (`wlan0:8080`, the interface's IPv4 address).
///
/// There is no wildcard: `0.0.0.0` and `::` are refused, so the server binds beyond loopback only on the one
/// address the user named.
package struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The numeric address to bind.
    package var address: SocketAddress
    /// The interface it was named by, if it was.
    package var interfaceName: String?

    package var description: String { interfaceName.map { "\($0):\(address.port)" } ?? address.description }

    /// Why a `--listen` value cannot be used: one sentence.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// Parses `text`; interface names are looked up in `interfaces` (the host's, by default).
    package init(
        _ text: String, interfaces: () throws -> [HostInterfaceAddress] = { try HostInterfaceAddress.current() }
    ) throws(Failure) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw Failure(description: "'\(text)' is not ADDRESS:PORT (e.g. 127.0.0.1:8080 or wlan0:8080)")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !["0.0.0.0", "::", ""].contains(host) else {
            throw Failure(
                description: "'\(text)' would listen on every network; name one address or interface (wlan0:\(port))")
        }
        if let numeric = SocketAddress(numericHost: host, port: port) {
            address = numeric
            interfaceName = nil
            return
        }
        let found: [HostInterfaceAddress]
        do {
            found = try interfaces()
        } catch {
            throw Failure(description: "cannot read this host's interfaces: \(error)")
        }
        guard let match = found.first(where: { $0.interface == host }),
            let numeric = SocketAddress(numericHost: match.address, port: port)
        else {
            throw Failure(
                description: "'\(host)' is neither an IP address nor an interface with an IPv4 address that is up")
        }
        address = numeric
        interfaceName = host
    }
}

/// The lines `serve` and `run --remote` print on start.
package enum RemoteAnnouncement {
    /// `Remote: URL` and, on a terminal, the QR code of the URL below it.
    package static func text(url: String, onTerminal: Bool) -> String {
        var text = "Remote: \(url)\n"
        if onTerminal, let code = try? QRCode(url) { text += code.terminalText() + "\n" }
        return text
    }
}
