import Glibc
import Posix
import Timing

/// A non-blocking UDP socket for SSDP: send datagrams, receive them with a timeout on an injected clock.
///
/// Built on the same `Socket` and `IOEventLoop` as the TCP transport, so a receive waiting for a silent
/// network parks on the loop thread, never on a pool thread, and `close()` or cancellation ends it at once.
/// Errors are `PTPIPError`s naming the address and what was being done.
package final class UDPSocket: Sendable {
    /// One received datagram and who sent it.
    package struct Datagram: Sendable, Hashable {
        /// The payload (at most `UDPSocket.maximumDatagram` bytes; longer ones are cut by the kernel).
        package var bytes: [UInt8]
        /// The sender's address and port.
        package var sender: SocketAddress
    }

    /// The largest datagram read; SSDP answers are a few hundred bytes, anything near this is not one.
    package static let maximumDatagram = 8192

    private let socket: Socket
    /// The address actually bound (with the kernel-chosen port when asked for port 0).
    package let localAddress: SocketAddress
    /// The clock the timeouts of `send` and `receive` are measured on.
    package let clock: any Clock<Duration>

    private init(socket: Socket, localAddress: SocketAddress, clock: any Clock<Duration>) {
        self.socket = socket
        self.localAddress = localAddress
        self.clock = clock
    }

    deinit {
        socket.close()
    }

    /// Opens a UDP socket bound to `host` (an IPv4 or IPv6 literal; "0.0.0.0" for every interface) and
    /// `port` (0 lets the kernel choose); timeouts are measured on `clock`.
    package static func bind(
        host: String = "0.0.0.0", port: UInt16 = 0, clock: any Clock<Duration> = ContinuousClock()
    ) throws -> UDPSocket {
        guard let address = SocketAddress(numericHost: host, port: port) else {
            throw PTPIPError.invalidState("cannot bind UDP to '\(host)': not an IPv4 or IPv6 address")
        }
        do {
            let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let fd = try systemCall("socket") { Glibc.socket(address.family, type, Int32(IPPROTO_UDP)) }
            let socket = Socket(adopting: fd)
            do {
                try socket.withDescriptor { fd throws(SocketFailure) in
                    _ = try systemCall("bind") { address.withSockAddr { Glibc.bind(fd, $0, $1) } }
                }
                return UDPSocket(socket: socket, localAddress: try socket.localAddress() ?? address, clock: clock)
            } catch {
                socket.close()
                throw error
            }
        } catch {
            throw error.ptpip(address: address.description, during: "UDP bind")
        }
    }

    /// Sends multicast datagrams out of the interface that owns `interfaceAddress` (IPv4), with `ttl` hops.
    ///
    /// Without this the kernel picks the interface of the default route, so a camera on a second
    /// network (its own Wi-Fi next to a wired LAN) would never hear the search.
    package func setMulticastInterface(_ interfaceAddress: String, ttl: Int32 = 2) throws {
        var address = in_addr()
        guard inet_pton(AF_INET, interfaceAddress, &address) == 1 else {
            throw PTPIPError.invalidState("'\(interfaceAddress)' is not an IPv4 interface address")
        }
        do {
            try socket.withDescriptor { fd throws(SocketFailure) in
                _ = try systemCall("setsockopt(IP_MULTICAST_IF)") {
                    setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_IF, &address, socklen_t(MemoryLayout<in_addr>.size))
                }
            }
            try socket.setOption(
                level: Int32(IPPROTO_IP), name: IP_MULTICAST_TTL, value: ttl, call: "setsockopt(IP_MULTICAST_TTL)")
        } catch {
            throw error.ptpip(address: localAddress.description, during: "multicast setup")
        }
    }

    /// Sends `bytes` as one datagram to `destination`, waiting (up to `timeout`) while the send buffer is full.
    package func send(_ bytes: [UInt8], to destination: SocketAddress, timeout: Duration? = .seconds(1)) async throws {
        let socket = socket
        do {
            // A datagram nearly always goes out at once; only a full send buffer starts a timer.
            if try Self.trySend(bytes, to: destination, on: socket) { return }
            try await withTimeout(after: timeout, on: clock, throwing: SocketFailure.timedOut) {
                repeat {
                    try await socket.wait(for: .writable)
                } while try !Self.trySend(bytes, to: destination, on: socket)
            }
        } catch {
            throw error.ptpip(address: destination.description, during: "UDP send")
        }
    }

    /// Sends one datagram if the send buffer takes it now; false when it is full.
    private static func trySend(
        _ bytes: [UInt8], to destination: SocketAddress, on socket: Socket
    ) throws(SocketFailure) -> Bool {
        try socket.withDescriptor { fd throws(SocketFailure) in
            let result = bytes.withUnsafeBytes { raw in
                destination.withSockAddr { address, length in
                    retryingInterrupts {
                        Glibc.sendto(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), address, length)
                    }
                }
            }
            switch result {
            case .success: return true
            case .failure(.wouldBlock): return false
            case let .failure(error): throw .system(error, call: "sendto")
            }
        }
    }

    /// The next datagram, or nil when none arrived within `timeout` (nil `timeout` waits until `close()`).
    ///
    /// Throws `.cancelled` after `close()` or task cancellation.
    package func receive(timeout: Duration?) async throws -> Datagram? {
        let socket = socket
        var buffer = [UInt8](repeating: 0, count: Self.maximumDatagram)
        do {
            // One already queued is taken without starting a timer.
            if let datagram = try Self.tryReceive(from: socket, into: &buffer) { return datagram }
            return try await withTimeout(after: timeout, on: clock, throwing: SocketFailure.timedOut) {
                var buffer = [UInt8](repeating: 0, count: Self.maximumDatagram)
                while true {
                    try await socket.wait(for: .readable)
                    if let datagram = try Self.tryReceive(from: socket, into: &buffer) { return datagram }
                }
            }
        } catch SocketFailure.timedOut {
            return nil
        } catch {
            throw error.ptpip(address: localAddress.description, during: "UDP receive")
        }
    }

    /// Reads one waiting datagram; nil when none is queued.
    private static func tryReceive(from socket: Socket, into buffer: inout [UInt8]) throws(SocketFailure) -> Datagram? {
        try socket.withDescriptor { fd throws(SocketFailure) in
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let result = buffer.withUnsafeMutableBytes { raw in
                withUnsafeMutablePointer(to: &storage) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                        retryingInterrupts { Glibc.recvfrom(fd, raw.baseAddress, raw.count, 0, address, &length) }
                            .map { count in (count, SocketAddress(address)) }
                    }
                }
            }
            switch result {
            case let .success((count, sender)):
                // A datagram from an address family we do not know is dropped, not a failure.
                guard let sender else { return nil }
                return Datagram(bytes: Array(buffer[..<count]), sender: sender)
            case .failure(.wouldBlock):
                return nil
            case let .failure(error):
                throw .system(error, call: "recvfrom")
            }
        }
    }

    /// Stops the socket at once; a pending `receive` throws `.cancelled`. Idempotent; never blocks.
    package func close() {
        socket.close()
    }
}

// MARK: - Host interfaces

/// One IPv4 address of this host, as `getifaddrs(3)` reports it.
package struct HostInterfaceAddress: Sendable, Hashable {
    /// The interface name (`wlan0`).
    package var interface: String
    /// The address (`192.168.122.23`).
    package var address: String
    /// The netmask (`255.255.255.0`).
    package var netmask: String
    /// Whether the interface is up and can send multicast.
    package var canMulticast: Bool
    /// Whether it is a loopback interface.
    package var isLoopback: Bool

    /// A host address as given (tests inject these instead of reading the host's).
    package init(
        interface: String, address: String, netmask: String, canMulticast: Bool = true, isLoopback: Bool = false
    ) {
        self.interface = interface
        self.address = address
        self.netmask = netmask
        self.canMulticast = canMulticast
        self.isLoopback = isLoopback
    }

    /// Whether this address lies in `network` with `prefixLength` bits (`192.168.122.0`, 24).
    package func isIn(network: String, prefixLength: Int) -> Bool {
        var mine = in_addr()
        var theirs = in_addr()
        guard inet_pton(AF_INET, address, &mine) == 1, inet_pton(AF_INET, network, &theirs) == 1,
            (0...32).contains(prefixLength)
        else { return false }
        let mask: UInt32 = prefixLength == 0 ? 0 : ~UInt32(0) << (32 - UInt32(prefixLength))
        return UInt32(bigEndian: mine.s_addr) & mask == UInt32(bigEndian: theirs.s_addr) & mask
    }

    /// The host's IPv4 addresses of interfaces that are up.
    package static func current() throws -> [HostInterfaceAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else {
            let error = Errno.current
            throw PTPIPError.systemCallFailed(call: "getifaddrs", errno: error)
        }
        defer { freeifaddrs(list) }
        var result: [HostInterfaceAddress] = []
        var cursor = list
        while let entry = cursor {
            cursor = entry.pointee.ifa_next
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, let address = entry.pointee.ifa_addr,
                Int32(address.pointee.sa_family) == AF_INET, let parsed = SocketAddress(address)
            else { continue }
            let mask = entry.pointee.ifa_netmask.flatMap { SocketAddress($0) }?.host ?? "255.255.255.255"
            result.append(
                HostInterfaceAddress(
                    interface: String(cString: entry.pointee.ifa_name), address: parsed.host, netmask: mask,
                    canMulticast: flags & Int32(IFF_MULTICAST) != 0,
                    isLoopback: flags & Int32(IFF_LOOPBACK) != 0))
        }
        return result
    }
}
