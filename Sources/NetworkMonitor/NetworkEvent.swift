/// A change of the watched interface's network, in the order the kernel reported it.
package enum NetworkEvent: Sendable, Equatable {
    /// The interface stopped carrying traffic (admin down, carrier lost, DORMANT, removed).
    case linkDown(interface: String)
    /// The interface carries traffic again (IFF_UP and IFF_RUNNING, operstate UP).
    case linkUp(interface: String)
    /// An address was removed from the interface.
    case addressLost(interface: String, address: IPAddress)
    /// An address was added to the interface.
    case addressGained(interface: String, address: IPAddress)
    /// The host is on another Wi-Fi network than before (`from` is nil when none was known yet).
    /// Follows `connected(ssid:)` after a reconnect, or comes alone after a roam across SSIDs.
    case ssidChanged(from: SSID?, to: SSID)
    /// The Wi-Fi association ended (`reason` is the IEEE 802.11 reason code when known).
    case disconnected(reason: UInt16?)
    /// The host associated with a Wi-Fi network (`ssid` nil when it could not be read).
    case connected(ssid: SSID?)
    /// The followed station (the camera) associated with the access point on the watched interface
    /// (NL80211_CMD_NEW_STATION; `iw event`: "new station").
    case stationJoined(mac: MACAddress)
    /// The followed station (the camera) left the access point on the watched interface
    /// (NL80211_CMD_DEL_STATION; `iw event`: "del station").
    case stationLeft(mac: MACAddress)
    /// The kernel dropped events (ENOBUFS); the monitor re-read the full state, and any differences
    /// follow as ordinary events.
    case eventsLost
    /// The kernel has no nl80211 (no Wi-Fi support): the monitor watches links and addresses only.
    /// Sent once, at start.
    case wirelessUnavailable
}

/// What the monitor knows about the host's Wi-Fi on the watched interface.
package enum WirelessStatus: Sendable, Equatable {
    /// nl80211 is absent (ENOENT for the family): no Wi-Fi information at all.
    case unavailable
    /// The interface is not a Wi-Fi interface (nl80211 does not know it).
    case notWireless
    /// A Wi-Fi interface that is not associated.
    case disconnected
    /// Associated; `ssid` nil when neither GET_INTERFACE nor a scan dump gave it. An access point's interface
    /// is always `connected` to its own SSID: whether the camera is there is `NetworkSnapshot.station`.
    case connected(ssid: SSID?)
}

/// Whether the camera is a station of the watched interface, when that interface is an access point.
package enum StationStatus: Sendable, Equatable {
    /// Not followed: the interface is no access point, or no station was asked for.
    case notFollowed
    /// The interface is an access point and a station was asked for by its IP address, but the neighbour table
    /// has no resolved entry for it (yet): only the link is watched. Looked up again at every later reading.
    case unresolved
    /// The station is associated with the access point.
    case present(MACAddress)
    /// The station is not (or no longer) associated with the access point.
    case absent(MACAddress)
}

/// Which station of an access-point interface to follow (the camera, when the host is its access point).
package enum StationTarget: Sendable, Equatable {
    /// The station with this hardware address.
    case mac(MACAddress)
    /// The station holding this IP address, looked up in the neighbour table (the shoot already talked to it).
    case neighbour(IPAddress)
}

/// The current state of the watched interface.
package struct NetworkSnapshot: Sendable, Equatable {
    /// The interface name ("wlan0"), nil before the first read.
    package var interfaceName: String?
    /// The ifindex.
    package var interfaceIndex: Int32?
    /// Whether the link exists and carries traffic (IFF_UP, IFF_RUNNING, operstate UP).
    package var isUsable: Bool
    /// The addresses on the interface, sorted by text.
    package var addresses: [IPAddress]
    /// The Wi-Fi state.
    package var wireless: WirelessStatus
    /// The followed station, when the interface is an access point.
    package var station: StationStatus

    /// The SSID when associated and known.
    package var ssid: SSID? {
        if case let .connected(ssid) = wireless { return ssid }
        return nil
    }

    /// Creates a snapshot.
    package init(
        interfaceName: String? = nil, interfaceIndex: Int32? = nil, isUsable: Bool = false,
        addresses: [IPAddress] = [], wireless: WirelessStatus = .unavailable, station: StationStatus = .notFollowed
    ) {
        self.interfaceName = interfaceName
        self.interfaceIndex = interfaceIndex
        self.isUsable = isUsable
        self.addresses = addresses
        self.wireless = wireless
        self.station = station
    }
}

/// Which interface to watch.
package enum WatchTarget: Sendable, Equatable {
    /// An interface by name ("wlan0").
    case interface(name: String)
    /// The interface the kernel routes `address` (the camera) through (RTM_GETROUTE, RTA_OIF).
    case routeTo(IPAddress)
    /// The interface holding `address` (the local address of the socket connected to the camera).
    case localAddress(IPAddress)
}

/// How a `NetworkMonitor` is set up.
package struct NetworkMonitorConfiguration: Sendable {
    /// The interface to watch.
    package var target: WatchTarget
    /// How long a netlink request may wait for its answer.
    package var requestTimeout: Duration
    /// How many undelivered events the stream keeps before dropping the oldest.
    package var eventBufferSize: Int

    /// The station to follow when the watched interface turns out to be an access point (nil: none).
    package var station: StationTarget?

    /// The rtnetlink endpoint (tests only: the real kernel in practice).
    package var routeEndpoint: NetlinkEndpoint = .route
    /// The generic netlink endpoint (tests point it at a fake kernel on NETLINK_USERSOCK).
    package var genericEndpoint: NetlinkEndpoint = .generic
    /// SO_RCVBUF for the event sockets (tests make it tiny to provoke ENOBUFS).
    package var eventReceiveBufferSize: Int?
    /// When set, the sockets are opened on a short-lived thread of their own that runs this first (tests enter
    /// a network namespace with setns(2): the sockets stay in it, while the monitor runs on the shared loop).
    package var prepareSocketThread: (@Sendable () throws -> Void)?
    /// The clock the request timeout is measured on.
    package var clock: any Clock<Duration>

    /// Watches `target` (and `station`, should the interface be an access point), with a 2-second request timeout on `clock` and room for 256 undelivered events.
    package init(
        target: WatchTarget, station: StationTarget? = nil, requestTimeout: Duration = .seconds(2),
        eventBufferSize: Int = 256, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.target = target
        self.station = station
        self.requestTimeout = requestTimeout
        self.eventBufferSize = eventBufferSize
        self.clock = clock
    }
}
