import Posix

/// The netlink side of the monitor: owns the sockets and the watched interface's state.
///
/// Confined to the monitor's dedicated thread: every method blocks on netlink and must never run
/// on the cooperative pool. It reports through two callbacks that are safe from any thread.
final class MonitorEngine {
    /// The watched link as last reported by the kernel.
    struct WatchedLink: Equatable {
        var index: Int32
        var name: String
        var isPresent: Bool
        var isUsable: Bool
    }

    let configuration: NetworkMonitorConfiguration
    private let sink: (NetworkEvent) -> Void
    private let publish: (NetworkSnapshot) -> Void
    let routeRequests: NetlinkRequester
    let routeEvents: NetlinkSocket
    var wireless: WirelessChannel?
    var link: WatchedLink
    var addresses: Set<IPAddress> = []
    var wirelessStatus: WirelessStatus = .unavailable
    var lastSSID: SSID?

    /// Opens the sockets, joins the groups (before reading, so no change slips between), finds the
    /// interface and reads its full state.
    init(
        configuration: NetworkMonitorConfiguration, publish: @escaping (NetworkSnapshot) -> Void = { _ in },
        emit: @escaping (NetworkEvent) -> Void
    ) throws(NetworkMonitorError) {
        self.configuration = configuration
        self.sink = emit
        self.publish = publish
        let route = configuration.routeEndpoint
        routeEvents = try NetlinkSocket(
            netlinkProtocol: route.netlinkProtocol,
            receiveBufferSize: configuration.eventReceiveBufferSize)
        for group in [Rtnetlink.groupLink, Rtnetlink.groupIPv4Address, Rtnetlink.groupIPv6Address] {
            try routeEvents.join(group: group)
        }
        routeRequests = try NetlinkRequester(endpoint: route, timeout: configuration.requestTimeout)
        let index = try Self.resolve(configuration.target, using: routeRequests)
        link = WatchedLink(index: index, name: "", isPresent: false, isUsable: false)
        guard let current = try readLinks().first(where: { $0.index == index }) else {
            throw .interfaceNotFound("ifindex \(index)")
        }
        link = WatchedLink(
            index: index, name: current.name ?? "if\(index)", isPresent: true, isUsable: current.isUsable)
        addresses = try readAddresses()
        wireless = try WirelessChannel.open(configuration: configuration)
        if wireless == nil {
            emit(.wirelessUnavailable)
        } else {
            wirelessStatus = readWirelessStatus(assumingConnected: false, fallback: nil)
            lastSSID = snapshot.ssid
        }
    }

    /// Publishes the current state, then reports `event`.
    func emit(_ event: NetworkEvent) {
        publish(snapshot)
        sink(event)
    }

    /// The state as the package snapshot.
    var snapshot: NetworkSnapshot {
        NetworkSnapshot(
            interfaceName: link.name, interfaceIndex: link.index, isUsable: link.isPresent && link.isUsable,
            addresses: addresses.sorted { $0.description < $1.description }, wireless: wirelessStatus)
    }

    // MARK: - Finding the interface

    private static func resolve(
        _ target: WatchTarget, using requests: NetlinkRequester
    ) throws(NetworkMonitorError) -> Int32 {
        switch target {
        case let .interface(name):
            let links = try parse(
                try requests.request("RTM_GETLINK dump", RtnetlinkRequest.dumpLinks), LinkMessage.init)
            guard let found = links.first(where: { $0.name == name }) else {
                throw .interfaceNotFound("interface \(name)")
            }
            return found.index
        case let .routeTo(address):
            let replies: [NetlinkMessage]
            do {
                replies = try requests.request("RTM_GETROUTE \(address)") {
                    RtnetlinkRequest.route(to: address, sequence: $0)
                }
            } catch {
                if case .kernel = error { throw .interfaceNotFound("route to \(address)") }
                throw error
            }
            for reply in replies where reply.type == Rtnetlink.newRoute {
                do {
                    if let index = try RtnetlinkRequest.outputInterface(of: reply) { return index }
                } catch { throw .malformed(context: "RTM_NEWROUTE", NetlinkRequester.byteError(error)) }
            }
            throw .interfaceNotFound("route to \(address)")
        case let .localAddress(address):
            let all = try parse(
                try requests.request("RTM_GETADDR dump", RtnetlinkRequest.dumpAddresses), AddressMessage.init)
            guard let found = all.first(where: { $0.address == address }) else {
                throw .interfaceNotFound("address \(address)")
            }
            return found.index
        }
    }

    /// Decodes every reply with `decode`, turning byte errors into `.malformed`.
    static func parse<T>(
        _ replies: [NetlinkMessage], _ decode: (NetlinkMessage) throws -> T
    ) throws(NetworkMonitorError) -> [T] {
        var decoded: [T] = []
        for reply in replies {
            do { decoded.append(try decode(reply)) } catch {
                throw .malformed(context: "message type \(reply.type)", NetlinkRequester.byteError(error))
            }
        }
        return decoded
    }

    private func readLinks() throws(NetworkMonitorError) -> [LinkMessage] {
        let replies = try routeRequests.request("RTM_GETLINK dump", RtnetlinkRequest.dumpLinks)
        return try Self.parse(replies.filter { $0.type == Rtnetlink.newLink }, LinkMessage.init)
    }

    private func readAddresses() throws(NetworkMonitorError) -> Set<IPAddress> {
        let replies = try routeRequests.request("RTM_GETADDR dump", RtnetlinkRequest.dumpAddresses)
        let all = try Self.parse(replies.filter { $0.type == Rtnetlink.newAddress }, AddressMessage.init)
        return Set(all.filter { $0.index == link.index }.compactMap(\.address))
    }

    // MARK: - Events

    /// Blocks in poll until events arrive or `wakeup` fires; returns when woken.
    func run(wakeup: Wakeup) throws(NetworkMonitorError) {
        while true {
            var descriptors = [wakeup.descriptor, routeEvents.descriptor]
            if let wireless { descriptors.append(wireless.events.descriptor) }
            let ready = try monitorCall { () throws(SocketFailure) in try pollReadable(descriptors) }
            if ready.contains(0) { return }
            try handlePendingEvents()
            publish(snapshot)
        }
    }

    /// Handles everything queued on the event sockets, without waiting for more.
    func handlePendingEvents() throws(NetworkMonitorError) {
        try drain(routeEvents, from: configuration.routeEndpoint.peerPortID) { handleRoute($0) }
        if let wireless {
            try drain(wireless.events, from: wireless.endpoint.peerPortID) { handleWireless($0) }
        }
    }

    /// Handles everything queued on `socket`; ENOBUFS means events were lost: re-read everything.
    private func drain(
        _ socket: NetlinkSocket, from peer: UInt32, _ handle: (NetlinkMessage) -> Void
    ) throws(NetworkMonitorError) {
        while true {
            let datagram: (bytes: [UInt8], sender: UInt32)?
            do { datagram = try socket.receive(wait: false) } catch {
                guard case .eventsLost = error else { throw error }
                try recoverLostEvents()
                return
            }
            guard let datagram else { return }
            // Only the kernel (or the injected fake) may speak on this socket; a malformed datagram is dropped.
            guard datagram.sender == peer, let messages = try? NetlinkMessage.parseAll(datagram: datagram.bytes) else {
                continue
            }
            messages.forEach(handle)
        }
    }

    /// After ENOBUFS: discard what is still queued (older than what was dropped), then re-read the full
    /// state and report the differences as ordinary events.
    func recoverLostEvents() throws(NetworkMonitorError) {
        emit(.eventsLost)
        for socket in [routeEvents, wireless?.events].compactMap({ $0 }) {
            while true {
                do { if try socket.receive(wait: false) == nil { break } } catch {
                    guard case .eventsLost = error else { throw error }
                }
            }
        }
        let links = try readLinks()
        if let current = links.first(where: { $0.index == link.index })
            ?? links.first(where: { !link.isPresent && $0.name == link.name })
        {
            apply(current)
        } else if link.isPresent {
            setLink(present: false, usable: false)
        }
        let current = link.isPresent ? try readAddresses() : []
        let previous = addresses
        addresses = current
        for lost in previous.subtracting(current).sorted(by: { $0.description < $1.description }) {
            emit(.addressLost(interface: link.name, address: lost))
        }
        for gained in current.subtracting(previous).sorted(by: { $0.description < $1.description }) {
            emit(.addressGained(interface: link.name, address: gained))
        }
        if wireless != nil { setWireless(readWirelessStatus(assumingConnected: false, fallback: nil), reason: nil) }
    }

    private func handleRoute(_ message: NetlinkMessage) {
        switch message.type {
        case Rtnetlink.newLink, Rtnetlink.deleteLink:
            if let decoded = try? LinkMessage(message: message) { apply(decoded) }
        case Rtnetlink.newAddress, Rtnetlink.deleteAddress:
            guard let decoded = try? AddressMessage(message: message), decoded.index == link.index,
                link.isPresent, let address = decoded.address
            else { return }
            if decoded.isRemoval {
                if addresses.remove(address) != nil { emit(.addressLost(interface: link.name, address: address)) }
            } else if addresses.insert(address).inserted {
                emit(.addressGained(interface: link.name, address: address))
            }
        default:
            return
        }
    }

    /// Applies a link message about the watched link (by index, or by name once it was removed).
    private func apply(_ message: LinkMessage) {
        let sameIndex = message.index == link.index
        let reappeared = !link.isPresent && !message.isRemoval && message.name == link.name
        guard sameIndex || reappeared else { return }
        link.index = message.index
        if let name = message.name { link.name = name }
        setLink(present: !message.isRemoval, usable: message.isUsable)
    }

    private func setLink(present: Bool, usable: Bool) {
        let wasUsable = link.isPresent && link.isUsable
        link.isPresent = present
        link.isUsable = usable
        let isUsable = present && usable
        if !present {
            let lost = addresses.sorted { $0.description < $1.description }
            addresses = []
            for address in lost { emit(.addressLost(interface: link.name, address: address)) }
        }
        if wasUsable, !isUsable { emit(.linkDown(interface: link.name)) }
        if !wasUsable, isUsable { emit(.linkUp(interface: link.name)) }
    }
}
