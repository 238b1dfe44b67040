/// Following the camera as a station of the host's own access point.
///
/// In the field the Pi is often the access point that both the camera and the phone join: the host's link
/// then never drops when the camera walks away, only the camera's association does. nl80211 multicasts
/// NEW_STATION and DEL_STATION on the `mlme` group for every station of an AP interface (what `iw event`
/// prints as "new station" / "del station"); the monitor follows the one whose hardware address is the
/// camera's, found in the neighbour table by the camera's IP address (the shoot has already talked to it).
extension MonitorEngine {
    /// Asks the kernel whether the followed station is associated now (GET_STATION: NEW_STATION when it is,
    /// ENOENT when not); `.notFollowed` when the interface is no access point or no station is asked for,
    /// `.unresolved` while the station's address has no neighbour entry (looked up again at each reading).
    ///
    /// A failing request never stops the monitor: it keeps what it knew.
    func readStationStatus() async -> StationStatus {
        guard let wireless, isAccessPoint, let target = configuration.station else { return .notFollowed }
        if stationMAC == nil { stationMAC = await findStation(target) }
        guard let mac = stationMAC else { return .unresolved }
        let index = link.index
        do {
            let replies = try await wireless.requests.request("NL80211_CMD_GET_STATION \(mac)") {
                NL80211Station.request(family: wireless.family.id, interfaceIndex: index, mac: mac, sequence: $0)
            }
            let associated = replies.contains { reply in
                guard reply.type == wireless.family.id, let event = try? NL80211Event(message: reply),
                    case .stationAdded(_, let found) = event
                else { return false }
                return found == nil || found == mac
            }
            return associated ? .present(mac) : .absent(mac)
        } catch {
            if case .kernel(_, .noSuchFileOrDirectory) = error { return .absent(mac) }
            return station == .notFollowed || station == .unresolved ? .present(mac) : station
        }
    }

    /// The hardware address of `target`: given, or the resolved neighbour-table entry for its IP address on
    /// the watched interface.
    private func findStation(_ target: StationTarget) async -> MACAddress? {
        switch target {
        case let .mac(mac):
            return mac
        case let .neighbour(address):
            return try? await Self.neighbourMAC(of: address, on: link.index, using: routeRequests)
        }
    }

    /// Looks `address` up in the kernel's neighbour table (RTM_GETNEIGH dump) on interface `index`.
    static func neighbourMAC(
        of address: IPAddress, on index: Int32, using requests: NetlinkRequester,
        isolation: isolated (any Actor)? = #isolation
    ) async throws(NetworkMonitorError) -> MACAddress? {
        let replies = try await requests.request("RTM_GETNEIGH dump", RtnetlinkRequest.dumpNeighbours)
        let entries = try parse(replies.filter { $0.type == Rtnetlink.newNeighbour }, NeighbourMessage.init)
        return entries.first { $0.index == index && $0.address == address && $0.isResolved }?.mac
    }

    /// Moves the followed station to `status`, reporting a join or a departure when it changed.
    func setStation(_ status: StationStatus) {
        let previous = station
        station = status
        switch (previous, status) {
        case let (.present, .absent(mac)):
            emit(.stationLeft(mac: mac))
        case let (.absent, .present(mac)):
            emit(.stationJoined(mac: mac))
        default:
            break
        }
    }
}
