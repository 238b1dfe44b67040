import Foundation
import Glibc
import Posix
import Synchronization

@testable import NetworkMonitor

/// A fake kernel speaking generic netlink/nl80211 on a NETLINK_USERSOCK socket, in a task that waits on the
/// shared `IOEventLoop` like the monitor does.
///
/// It answers CTRL_CMD_GETFAMILY("nl80211"), GET_INTERFACE and GET_SCAN (each dump part in its own
/// datagram, NLMSG_DONE in another, optionally flagged NLM_F_DUMP_INTR once) and multicasts
/// CONNECT/ROAM/DISCONNECT events on the group it announced as `mlme`.
/// `@unchecked Sendable`: the socket is read only by the peer task; `send` touches no mutable state,
/// and the script is behind a Mutex.
final class FakeNL80211Kernel: @unchecked Sendable {
    /// What the fake answers.
    struct Script: Sendable {
        /// Answer GETFAMILY with ENOENT (a kernel without cfg80211).
        var familyMissing = false
        /// Answer nothing at all (a peer that hangs).
        var silent = false
        /// NL80211_ATTR_SSID in GET_INTERFACE (nil: left out, as some drivers do).
        var interfaceSSID: SSID?
        /// The BSSes of the GET_SCAN dump.
        var scan: [(ssid: SSID, associated: Bool)] = []
        /// Flag the next GET_SCAN dump NLM_F_DUMP_INTR.
        var interruptNextScan = false
        /// How many GET_SCAN requests arrived.
        var scanRequests = 0
        /// NL80211_ATTR_IFTYPE in GET_INTERFACE (nil: left out); NL80211_IFTYPE_AP makes the interface an
        /// access point.
        var interfaceType: UInt32?
        /// The stations associated with the access point (GET_STATION answers NEW_STATION for these, ENOENT
        /// for any other).
        var stations: Set<MACAddress> = []
        /// How many GET_STATION requests arrived.
        var stationRequests = 0
    }

    let family = GenericFamily(name: "nl80211", id: 0x30, multicastGroups: ["config": 2, "scan": 3, "mlme": 4])
    let interfaceIndex: Int32
    let endpoint: NetlinkEndpoint
    private let socket: NetlinkSocket
    private var peer: Task<Void, Never>?
    let script: Mutex<Script>

    /// Binds a USERSOCK port and starts answering. Call `stop()` before the test ends.
    init(interfaceIndex: Int32, script: Script) throws {
        var bound: NetlinkSocket?
        for attempt in 0..<20 where bound == nil {
            let port = 0x5000_0000 &+ UInt32(getpid()) &* 64 &+ UInt32(attempt) &+ UInt32.random(in: 0..<1_000_000)
            bound = try? NetlinkSocket(netlinkProtocol: NetlinkProtocol.userSocket, portID: port)
        }
        guard let bound else { throw NetworkMonitorError.closed }
        socket = bound
        endpoint = NetlinkEndpoint(netlinkProtocol: NetlinkProtocol.userSocket, peerPortID: bound.portID)
        self.interfaceIndex = interfaceIndex
        self.script = Mutex(script)
        peer = Task { [self] in await serve() }
    }

    /// Stops the peer task and waits for it.
    func stop() async {
        peer?.cancel()
        await peer?.value
    }

    private func serve() async {
        let raw = socket.raw
        while (try? await raw.waitUntilReadable()) != nil {
            while let datagram = try? socket.receive() {
                guard let messages = try? NetlinkMessage.parseAll(datagram: datagram.bytes) else { continue }
                for message in messages { answer(message, to: datagram.sender) }
            }
        }
    }

    private func answer(_ request: NetlinkMessage, to port: UInt32) {
        if script.withLock({ $0.silent }) { return }
        let command = request.payload.first ?? 0
        if request.type == GenericNetlink.controllerFamily, command == GenericNetlink.commandGetFamily {
            if script.withLock({ $0.familyMissing }) { return reply(error: 2, to: request, port: port) }
            var writer = NetlinkAttributeWriter(prefix: [GenericNetlink.commandNewFamily, 2, 0, 0])
            family.replyAttributes(&writer)
            return send([reply(request, payload: writer.bytes)], to: port)
        }
        guard request.type == family.id else { return reply(error: 95, to: request, port: port) }
        switch command {
        case NL80211.commandGetInterface:
            var writer = NetlinkAttributeWriter(prefix: [NL80211.commandNewInterface, 1, 0, 0])
            writer.append(NL80211.attributeInterfaceIndex, integer: UInt32(interfaceIndex))
            writer.append(NL80211.attributeInterfaceName, string: "lo")
            if let ssid = script.withLock({ $0.interfaceSSID }) { writer.append(NL80211.attributeSSID, ssid.bytes) }
            if let type = script.withLock({ $0.interfaceType }) {
                writer.append(NL80211.attributeInterfaceType, integer: type)
            }
            send([reply(request, payload: writer.bytes)], to: port)
        case NL80211.commandGetStation:
            // The kernel's nl80211_get_station: the MAC attribute names the station; ENOENT when it is not there.
            guard let body = try? GenericMessage(message: request),
                let mac = body.attributes[NL80211.attributeMAC].flatMap({ MACAddress(bytes: $0.payload) })
            else { return reply(error: 22, to: request, port: port) }
            let associated = script.withLock { script in
                script.stationRequests += 1
                return script.stations.contains(mac)
            }
            guard associated else { return reply(error: 2, to: request, port: port) }
            var writer = NetlinkAttributeWriter(prefix: [NL80211.commandNewStation, 1, 0, 0])
            Self.stationAttributes(&writer, interfaceIndex: interfaceIndex, mac: mac)
            send([reply(request, payload: writer.bytes)], to: port)
        case NL80211.commandGetScan:
            let (bsses, interrupted) = script.withLock { script in
                script.scanRequests += 1
                defer { script.interruptNextScan = false }
                return (script.scan, script.interruptNextScan)
            }
            for (index, bss) in bsses.enumerated() {
                var inner = NetlinkAttributeWriter()
                inner.append(NL80211.bssBSSID, [2, 0, 0, 0, 0, UInt8(index)])
                inner.append(
                    NL80211.bssInformationElements, [NL80211.elementSSID, UInt8(bss.ssid.bytes.count)] + bss.ssid.bytes)
                if bss.associated { inner.append(NL80211.bssStatus, integer: NL80211.bssStatusAssociated) }
                var writer = NetlinkAttributeWriter(prefix: [NL80211.commandNewScanResults, 1, 0, 0])
                writer.append(NL80211.attributeInterfaceIndex, integer: UInt32(interfaceIndex))
                writer.append(NL80211.attributeBSS, inner.bytes)
                var part = reply(request, payload: writer.bytes)
                part.flags = interrupted ? [.multi, .dumpInterrupted] : [.multi]
                send([part], to: port)
            }
            var done = reply(request, payload: [0, 0, 0, 0])
            done.type = NetlinkMessageType.done
            done.flags = [.multi]
            send([done], to: port) // NLMSG_DONE in a datagram of its own
        default:
            reply(error: 95, to: request, port: port)
        }
    }

    private func reply(_ request: NetlinkMessage, payload: [UInt8]) -> NetlinkMessage {
        NetlinkMessage(
            type: request.type, flags: [], sequence: request.sequence, portID: request.portID, payload: payload)
    }

    private func reply(error: Int32, to request: NetlinkMessage, port: UInt32) {
        var payload = withUnsafeBytes(of: -error) { Array($0) }
        payload += Array(request.encoded().prefix(NetlinkMessage.headerSize))
        send(
            [
                NetlinkMessage(
                    type: NetlinkMessageType.error, flags: [.capped], sequence: request.sequence,
                    portID: request.portID, payload: payload)
            ], to: port)
    }

    private func send(_ messages: [NetlinkMessage], to port: UInt32) {
        try? socket.send(messages.flatMap { $0.encoded() }, to: port)
    }

    // MARK: - Events

    /// Multicasts an nl80211 event on the `mlme` group, the way the kernel does (seq 0, pid 0).
    func sendEvent(command: UInt8, attributes build: (inout NetlinkAttributeWriter) -> Void) {
        var writer = NetlinkAttributeWriter(prefix: [command, 1, 0, 0])
        build(&writer)
        let message = NetlinkMessage(type: family.id, flags: [], payload: writer.bytes)
        // USERSOCK has no kernel socket at port 0: the broadcast is delivered, then the unicast part of
        // sendmsg fails with ECONNREFUSED, which is expected here.
        try? socket.send(message.encoded(), to: 0, group: family.multicastGroups["mlme"] ?? 0)
    }

    /// CONNECT with a status code and, optionally, the association request's SSID element.
    func sendConnect(interfaceIndex: Int32, status: UInt16, requestSSID: SSID? = nil) {
        sendEvent(command: NL80211.commandConnect) { writer in
            writer.append(NL80211.attributeInterfaceIndex, integer: UInt32(interfaceIndex))
            writer.append(NL80211.attributeStatusCode, integer: status)
            if let ssid = requestSSID {
                writer.append(NL80211.attributeRequestIEs, [NL80211.elementSSID, UInt8(ssid.bytes.count)] + ssid.bytes)
            }
        }
    }

    /// DISCONNECT with a reason code.
    func sendDisconnect(interfaceIndex: Int32, reason: UInt16) {
        sendEvent(command: NL80211.commandDisconnect) { writer in
            writer.append(NL80211.attributeInterfaceIndex, integer: UInt32(interfaceIndex))
            writer.append(NL80211.attributeReasonCode, integer: reason)
        }
    }

    /// The attributes nl80211_send_station puts in NEW_STATION and DEL_STATION, in its order: IFINDEX, MAC,
    /// GENERATION, then the nested STA_INFO (here with only NL80211_STA_INFO_CONNECTED_TIME, u32 seconds).
    static func stationAttributes(_ writer: inout NetlinkAttributeWriter, interfaceIndex: Int32, mac: MACAddress) {
        writer.append(NL80211.attributeInterfaceIndex, integer: UInt32(bitPattern: interfaceIndex))
        writer.append(NL80211.attributeMAC, mac.bytes)
        writer.append(46, integer: UInt32(7)) // NL80211_ATTR_GENERATION
        var info = NetlinkAttributeWriter()
        info.append(16, integer: UInt32(12)) // NL80211_STA_INFO_CONNECTED_TIME
        writer.append(21, info.bytes) // NL80211_ATTR_STA_INFO
    }

    /// NEW_STATION (`added`) or DEL_STATION for `mac` on `interfaceIndex`; updates the GET_STATION answers
    /// first, as the kernel's station table changes before it multicasts.
    func sendStation(added: Bool, interfaceIndex: Int32, mac: MACAddress) {
        if interfaceIndex == self.interfaceIndex {
            script.withLock { if added { $0.stations.insert(mac) } else { $0.stations.remove(mac) } }
        }
        sendEvent(command: added ? NL80211.commandNewStation : NL80211.commandDeleteStation) { writer in
            Self.stationAttributes(&writer, interfaceIndex: interfaceIndex, mac: mac)
        }
    }

    /// ROAM (no SSID in the event).
    func sendRoam(interfaceIndex: Int32) {
        sendEvent(command: NL80211.commandRoam) { writer in
            writer.append(NL80211.attributeInterfaceIndex, integer: UInt32(interfaceIndex))
        }
    }
}
