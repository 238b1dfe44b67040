import HTTP

/// Who may do what: the checks every request passes before it reaches the shoot (issue 34, "Access").
///
/// - `Host` must name the server: the listen address (with or without its port), the interface it was given
///   as, or `localhost` when listening on loopback. Anything else is a DNS-rebinding attempt (421); no `Host`
///   at all is a malformed request (400).
/// - Reading (the page, `/api/state`, `/events`, thumbnails) needs nothing more.
/// - A command (a POST) whose `Origin` names another origin, `null` included, is refused (403); no `Origin`
///   (curl, scripts) or the page's own is accepted. It must carry `Authorization: Bearer TOKEN` (401 without
///   it or with a wrong one) and, when it has a body, `Content-Type: application/json` (415).
///
/// Pure: a refused request has not touched the shoot, and the tests check each rule without a socket.
package struct RequestGate: Sendable {
    /// `Host` values accepted, lowercased.
    let hosts: Set<String>
    /// `Origin` values accepted for commands, lowercased.
    let origins: Set<String>
    /// The commands' secret.
    let token: RemoteToken

    /// The gate of a server listening on `host`:`port` (an IPv6 host without brackets), reached also by
    /// `interfaceName` when the address was given as one.
    package init(host: String, port: UInt16, interfaceName: String?, isLoopback: Bool, token: RemoteToken) {
        var names = [host.contains(":") ? "[\(host)]" : host]
        if let interfaceName { names.append(interfaceName) }
        if isLoopback { names.append("localhost") }
        var hosts: Set<String> = []
        var origins: Set<String> = []
        for name in names.map({ $0.lowercased() }) {
            hosts.insert(name)
            hosts.insert("\(name):\(port)")
            origins.insert("http://\(name):\(port)")
            if port == 80 { origins.insert("http://\(name)") }
        }
        self.hosts = hosts
        self.origins = origins
        self.token = token
    }

    /// What the gate says about a request.
    package enum Verdict: Sendable, Equatable {
        /// Go on.
        case allowed
        /// Refused with this status and a sentence for the body.
        case refused(status: Int, message: String)
    }

    /// Checks `request`; `isCommand` for the requests that change something (the POSTs).
    package func check(_ request: HTTPRequest, isCommand: Bool) -> Verdict {
        let hostValues = request.headers.values("Host")
        guard hostValues.count == 1, let host = hostValues.first else {
            return .refused(status: 400, message: "A request needs exactly one Host header.")
        }
        guard hosts.contains(host.lowercased()) else {
            return .refused(status: 421, message: "This server does not answer for the host '\(host.prefix(80))'.")
        }
        guard isCommand else { return .allowed }
        let originValues = request.headers.values("Origin")
        if !originValues.isEmpty {
            guard originValues.count == 1, origins.contains(originValues[0].lowercased()) else {
                return .refused(status: 403, message: "Commands are taken only from this server's own page.")
            }
        }
        guard let authorization = request.headers["Authorization"], authorization.count > 7,
            authorization.prefix(7).lowercased() == "bearer ",
            token.matches(String(authorization.dropFirst(7)))
        else {
            return .refused(status: 401, message: "A command needs the token of the printed Remote: URL.")
        }
        if !request.body.isEmpty {
            let type = request.headers["Content-Type"]?.split(separator: ";").first.map {
                $0.trimmingCharacters(in: " \t").lowercased()
            }
            guard type == "application/json" else {
                return .refused(status: 415, message: "A command's body must be application/json.")
            }
        }
        return .allowed
    }
}

extension Substring {
    /// The text without leading and trailing characters of `set`.
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        let drop = Set(set)
        guard let first = firstIndex(where: { !drop.contains($0) }), let last = lastIndex(where: { !drop.contains($0) })
        else { return "" }
        return self[first...last]
    }
}
