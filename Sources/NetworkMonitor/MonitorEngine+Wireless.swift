import Posix

/// The nl80211 sockets: one for requests, one joined to the `mlme` and `config` groups.
struct WirelessChannel {
    let endpoint: NetlinkEndpoint
    let requests: NetlinkRequester
    let events: NetlinkSocket
    let family: GenericFamily

    /// Resolves nl80211 by name on `requests` and joins its groups on `events`; nil when the kernel has no
    /// nl80211 (ENOENT), and the two sockets are then closed.
    static func open(
        configuration: NetworkMonitorConfiguration, requests requestSocket: RawNetlinkSocket,
        events eventSocket: RawNetlinkSocket
    ) async throws(NetworkMonitorError) -> WirelessChannel? {
        let endpoint = configuration.genericEndpoint
        let requests = NetlinkRequester(
            socket: NetlinkSocket(requestSocket), endpoint: endpoint, timeout: configuration.requestTimeout,
            clock: configuration.clock)
        let replies: [NetlinkMessage]
        do {
            replies = try await requests.request("CTRL_CMD_GETFAMILY \(NL80211.familyName)") {
                GenericFamily.request(name: NL80211.familyName, sequence: $0)
            }
        } catch {
            if case .kernel(_, .noSuchFileOrDirectory) = error {
                requestSocket.close()
                eventSocket.close()
                return nil
            }
            throw error
        }
        guard let reply = replies.first(where: { $0.type == GenericNetlink.controllerFamily }) else {
            throw .malformed(context: "CTRL_CMD_NEWFAMILY", .invalidValue(field: "reply", reason: "missing"))
        }
        let family: GenericFamily
        do { family = try GenericFamily(message: reply) } catch {
            throw .malformed(context: "CTRL_CMD_NEWFAMILY", NetlinkRequester.byteError(error))
        }
        let events = NetlinkSocket(eventSocket)
        for name in [NL80211.groupMLME, NL80211.groupConfig] {
            if let group = family.multicastGroups[name] { try events.join(group: group) }
        }
        return WirelessChannel(endpoint: endpoint, requests: requests, events: events, family: family)
    }
}

extension MonitorEngine {
    /// Reads the association state: GET_INTERFACE's SSID, else the associated BSS of a GET_SCAN dump,
    /// else `fallback` (the SSID element of the CONNECT event's request IEs) when we know we connected.
    ///
    /// A failing request never stops the monitor: it degrades to what the event said.
    func readWirelessStatus(assumingConnected: Bool, fallback: SSID?) async -> WirelessStatus {
        guard let wireless else { return .unavailable }
        let index = link.index
        let unknown: WirelessStatus = assumingConnected ? .connected(ssid: fallback) : .disconnected
        let replies: [NetlinkMessage]
        do {
            replies = try await wireless.requests.request("NL80211_CMD_GET_INTERFACE") {
                NL80211Interface.request(family: wireless.family.id, interfaceIndex: index, sequence: $0)
            }
        } catch {
            switch error {
            case .kernel(_, .noSuchDevice), .kernel(_, .invalidArgument), .kernel(_, .notSupported),
                .kernel(_, .noSuchFileOrDirectory):
                return .notWireless
            default:
                return unknown
            }
        }
        guard let reply = replies.first(where: { $0.type == wireless.family.id }),
            let interface = try? NL80211Interface(message: reply)
        else { return unknown }
        isAccessPoint = interface.isAccessPoint
        // An access point is on its own network whether or not a station is there (`station` says that).
        if interface.isAccessPoint { return .connected(ssid: interface.ssid) }
        if let ssid = interface.ssid { return .connected(ssid: ssid) }
        guard
            let dump = try? await wireless.requests.request(
                "NL80211_CMD_GET_SCAN",
                {
                    NL80211ScanResult.request(family: wireless.family.id, interfaceIndex: index, sequence: $0)
                })
        else { return unknown }
        let associated = dump.filter { $0.type == wireless.family.id }
            .compactMap { try? NL80211ScanResult(message: $0) }
            .first { $0.isAssociated && ($0.interfaceIndex == nil || $0.interfaceIndex == index) }
        if let associated { return .connected(ssid: associated.ssid ?? fallback) }
        return unknown
    }

    /// Reacts to one nl80211 multicast message about the watched interface.
    func handleWireless(_ message: NetlinkMessage) async {
        guard let wireless, message.type == wireless.family.id,
            let event = try? NL80211Event(message: message)
        else { return }
        switch event {
        case let .connect(index, status, requestSSID) where index == nil || index == link.index:
            if status == 0 {
                setWireless(await readWirelessStatus(assumingConnected: true, fallback: requestSSID), reason: nil)
            } else {
                setWireless(.disconnected, reason: nil) // a failed attempt leaves us unassociated
            }
        case let .roam(index, requestSSID) where index == nil || index == link.index:
            setWireless(await readWirelessStatus(assumingConnected: true, fallback: requestSSID), reason: nil)
        case let .disconnect(index, reason, _) where index == nil || index == link.index:
            setWireless(.disconnected, reason: reason)
        case let .dropHint(index, reason) where index == nil || index == link.index:
            // DEAUTHENTICATE/DISASSOCIATE come before DISCONNECT: pause at the first sign.
            setWireless(.disconnected, reason: reason)
        case let .stationAdded(index, mac?) where index == link.index && mac == stationMAC:
            setStation(.present(mac))
        case let .stationRemoved(index, mac?) where index == link.index && mac == stationMAC:
            setStation(.absent(mac))
        default:
            return
        }
    }

    /// Moves to `status`, emitting connected / disconnected / ssidChanged for what actually changed.
    func setWireless(_ status: WirelessStatus, reason: UInt16?) {
        let previous = wirelessStatus
        wirelessStatus = status
        switch (previous, status) {
        case (.connected, .disconnected), (.connected, .notWireless):
            emit(.disconnected(reason: reason))
        case let (.connected(before), .connected(after)):
            if let after, after != before, after != lastSSID { emit(.ssidChanged(from: lastSSID, to: after)) }
        case let (_, .connected(after)):
            emit(.connected(ssid: after))
            if let after, after != lastSSID { emit(.ssidChanged(from: lastSSID, to: after)) }
        default:
            break
        }
        if case let .connected(ssid?) = status { lastSSID = ssid }
    }
}
