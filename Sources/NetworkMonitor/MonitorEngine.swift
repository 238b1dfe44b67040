import Posix

/// The four netlink sockets of one monitor, opened together before anything is read, so that a test can open
/// them inside a network namespace (on a thread that entered it) and the monitor use them anywhere.
struct MonitorSockets: Sendable {
    /// rtnetlink events, already joined to the link and address groups.
    let routeEvents: RawNetlinkSocket
    /// rtnetlink requests.
    let routeRequests: RawNetlinkSocket
    /// Generic netlink events (joined to nl80211's groups once the family is known).
    let genericEvents: RawNetlinkSocket
    /// Generic netlink requests.
    let genericRequests: RawNetlinkSocket

    /// Opens the sockets on the calling thread; the route event socket joins its groups at once, before
    /// anything is read, so no change slips between the first read and the first event.
    static func open(_ configuration: NetworkMonitorConfiguration) throws(NetworkMonitorError) -> MonitorSockets {
        try monitorCall { () throws(SocketFailure) in
            let route = configuration.routeEndpoint.netlinkProtocol
            let generic = configuration.genericEndpoint.netlinkProtocol
            let routeEvents = try RawNetlinkSocket(
                netlinkProtocol: route, receiveBufferSize: configuration.eventReceiveBufferSize)
            for group in [Rtnetlink.groupLink, Rtnetlink.groupIPv4Address, Rtnetlink.groupIPv6Address] {
                try routeEvents.join(group: group)
            }
            return MonitorSockets(
                routeEvents: routeEvents, routeRequests: try RawNetlinkSocket(netlinkProtocol: route),
                genericEvents: try RawNetlinkSocket(
                    netlinkProtocol: generic, receiveBufferSize: configuration.eventReceiveBufferSize),
                genericRequests: try RawNetlinkSocket(netlinkProtocol: generic))
        }
    }

    /// Opens the sockets here, or with `configuration.prepareSocketThread` on a short-lived thread that runs
    /// it first (the one thread that may change its network namespace: it ends right after).
    static func open(preparing configuration: NetworkMonitorConfiguration) async throws -> MonitorSockets {
        guard let prepare = configuration.prepareSocketThread else { return try open(configuration) }
        return try await runOnOwnThread(name: "hdrshoot-netmon-open") {
            try prepare()
            return try open(configuration)
        }
    }
}

/// The netlink side of the monitor: owns the sockets and the watched interface's state.
///
/// An actor on the shared `IOEventLoop`: every wait for a datagram parks there (no thread of its own, no
/// receive timeouts in the kernel), and request timeouts run on the configuration's clock. It reports
/// through two callbacks that are safe from any thread.
actor MonitorEngine {
    /// The watched link as last reported by the kernel.
    struct WatchedLink: Equatable {
        var index: Int32
        var name: String
        var isPresent: Bool
        var isUsable: Bool
    }

    let configuration: NetworkMonitorConfiguration
    private let sink: @Sendable (NetworkEvent) -> Void
    private let publish: @Sendable (NetworkSnapshot) -> Void
    let routeRequests: NetlinkRequester
    let routeEvents: NetlinkSocket
    var wireless: WirelessChannel?
    var link: WatchedLink
    var addresses: Set<IPAddress>
    var wirelessStatus: WirelessStatus = .unavailable
    var lastSSID: SSID?
    /// Whether GET_INTERFACE said the watched interface is an access point (stations join it).
    var isAccessPoint = false
    /// The followed station (the camera) on that access point.
    var station: StationStatus = .notFollowed
    /// The followed station's hardware address, once found.
    var stationMAC: MACAddress?

    private init(
        configuration: NetworkMonitorConfiguration, publish: @escaping @Sendable (NetworkSnapshot) -> Void,
        emit: @escaping @Sendable (NetworkEvent) -> Void, routeRequests: NetlinkRequester, routeEvents: NetlinkSocket,
        wireless: WirelessChannel?, link: WatchedLink, addresses: Set<IPAddress>
    ) {
        self.configuration = configuration
        self.publish = publish
        self.sink = emit
        self.routeRequests = routeRequests
        self.routeEvents = routeEvents
        self.wireless = wireless
        self.link = link
        self.addresses = addresses
    }

    /// Finds the interface on `sockets` and reads its full state (link, addresses, Wi-Fi); publishes it.
    static func open(
        configuration: NetworkMonitorConfiguration, sockets: MonitorSockets,
        publish: @escaping @Sendable (NetworkSnapshot) -> Void = { _ in },
        emit: @escaping @Sendable (NetworkEvent) -> Void
    ) async throws(NetworkMonitorError) -> MonitorEngine {
        let requests = NetlinkRequester(
            socket: NetlinkSocket(sockets.routeRequests), endpoint: configuration.routeEndpoint,
            timeout: configuration.requestTimeout, clock: configuration.clock)
        let index = try await resolve(configuration.target, using: requests)
        guard let current = try await readLinks(using: requests).first(where: { $0.index == index }) else {
            throw .interfaceNotFound("ifindex \(index)")
        }
        let link = WatchedLink(
            index: index, name: current.name ?? "if\(index)", isPresent: true, isUsable: current.isUsable)
        let addresses = try await readAddresses(of: index, using: requests)
        let wireless = try await WirelessChannel.open(
            configuration: configuration, requests: sockets.genericRequests, events: sockets.genericEvents)
        let engine = MonitorEngine(
            configuration: configuration, publish: publish, emit: emit, routeRequests: requests,
            routeEvents: NetlinkSocket(sockets.routeEvents), wireless: wireless, link: link, addresses: addresses)
        await engine.readInitialWirelessStatus()
        return engine
    }

    /// Reads the Wi-Fi state once at the start (or says there is no nl80211), then publishes the snapshot.
    private func readInitialWirelessStatus() async {
        if wireless == nil {
            sink(.wirelessUnavailable)
        } else {
            wirelessStatus = await readWirelessStatus(assumingConnected: false, fallback: nil)
            lastSSID = snapshot.ssid
            station = await readStationStatus()
        }
        publish(snapshot)
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
            addresses: addresses.sorted { $0.description < $1.description }, wireless: wirelessStatus,
            station: station)
    }

    // MARK: - Finding the interface

    private static func resolve(
        _ target: WatchTarget, using requests: NetlinkRequester
    ) async throws(NetworkMonitorError) -> Int32 {
        switch target {
        case let .interface(name):
            let links = try parse(
                try await requests.request("RTM_GETLINK dump", RtnetlinkRequest.dumpLinks), LinkMessage.init)
            guard let found = links.first(where: { $0.name == name }) else {
                throw .interfaceNotFound("interface \(name)")
            }
            return found.index
        case let .routeTo(address):
            let replies: [NetlinkMessage]
            do {
                replies = try await requests.request("RTM_GETROUTE \(address)") {
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
                try await requests.request("RTM_GETADDR dump", RtnetlinkRequest.dumpAddresses), AddressMessage.init)
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

    static func readLinks(
        using requests: NetlinkRequester, isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkMonitorError) -> [LinkMessage] {
        let replies = try await requests.request("RTM_GETLINK dump", RtnetlinkRequest.dumpLinks)
        return try parse(replies.filter { $0.type == Rtnetlink.newLink }, LinkMessage.init)
    }

    static func readAddresses(
        of index: Int32, using requests: NetlinkRequester, isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkMonitorError) -> Set<IPAddress> {
        let replies = try await requests.request("RTM_GETADDR dump", RtnetlinkRequest.dumpAddresses)
        let all = try parse(replies.filter { $0.type == Rtnetlink.newAddress }, AddressMessage.init)
        return Set(all.filter { $0.index == index }.compactMap(\.address))
    }

    // MARK: - Events

    /// Handles events as they arrive, until the task is cancelled (then it throws `.closed`) or a socket fails;
    /// `woke` is called each time a datagram woke it (an idle monitor never wakes: it is parked on the loop).
    func run(woke: @Sendable () -> Void = {}) async throws(NetworkMonitorError) {
        while true {
            try await waitForEvents()
            woke()
            try await handlePendingEvents()
            publish(snapshot)
        }
    }

    /// Suspends on the loop until an event socket has a datagram queued.
    private func waitForEvents() async throws(NetworkMonitorError) {
        let route = routeEvents.raw
        guard let radio = wireless?.events.raw else {
            do { try await route.waitUntilReadable() } catch { throw NetworkMonitorError(error) }
            return
        }
        // Both sockets at once: the first to have something wins, the other wait is cancelled.
        let failure = await withTaskGroup(of: SocketFailure?.self) { group in
            for socket in [route, radio] {
                group.addTask {
                    do throws(SocketFailure) { try await socket.waitUntilReadable() } catch { return error }
                    return nil
                }
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let failure { throw NetworkMonitorError(failure) }
    }

    /// Handles everything queued on the event sockets, without waiting for more.
    func handlePendingEvents() async throws(NetworkMonitorError) {
        for message in try drain(routeEvents, from: configuration.routeEndpoint.peerPortID) {
            guard let message else { return try await recoverLostEvents() }
            handleRoute(message)
        }
        if let events = wireless?.events, let peer = wireless?.endpoint.peerPortID {
            for message in try drain(events, from: peer) {
                guard let message else { return try await recoverLostEvents() }
                await handleWireless(message)
            }
        }
    }

    /// Takes everything queued on `socket`; a nil element means events were lost (ENOBUFS) after the
    /// messages before it, and nothing after it is taken: the caller re-reads everything.
    private func drain(_ socket: NetlinkSocket, from peer: UInt32) throws(NetworkMonitorError) -> [NetlinkMessage?] {
        var messages: [NetlinkMessage?] = []
        while true {
            let datagram: (bytes: [UInt8], sender: UInt32)?
            do { datagram = try socket.receive() } catch {
                guard case .eventsLost = error else { throw error }
                return messages + [nil]
            }
            guard let datagram else { return messages }
            // Only the kernel (or the injected fake) may speak on this socket; a malformed datagram is dropped.
            guard datagram.sender == peer, let parsed = try? NetlinkMessage.parseAll(datagram: datagram.bytes) else {
                continue
            }
            messages += parsed.map { Optional($0) }
        }
    }

    /// After ENOBUFS: discard what is still queued (older than what was dropped), then re-read the full
    /// state and report the differences as ordinary events.
    func recoverLostEvents() async throws(NetworkMonitorError) {
        emit(.eventsLost)
        for socket in [routeEvents, wireless?.events].compactMap({ $0 }) {
            while true {
                do { if try socket.receive() == nil { break } } catch {
                    guard case .eventsLost = error else { throw error }
                }
            }
        }
        let links = try await Self.readLinks(using: routeRequests)
        if let current = links.first(where: { $0.index == link.index })
            ?? links.first(where: { !link.isPresent && $0.name == link.name })
        {
            apply(current)
        } else if link.isPresent {
            setLink(present: false, usable: false)
        }
        let current = link.isPresent ? try await Self.readAddresses(of: link.index, using: routeRequests) : []
        let previous = addresses
        addresses = current
        for lost in previous.subtracting(current).sorted(by: { $0.description < $1.description }) {
            emit(.addressLost(interface: link.name, address: lost))
        }
        for gained in current.subtracting(previous).sorted(by: { $0.description < $1.description }) {
            emit(.addressGained(interface: link.name, address: gained))
        }
        if wireless != nil {
            setWireless(await readWirelessStatus(assumingConnected: false, fallback: nil), reason: nil)
            setStation(await readStationStatus())
        }
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
