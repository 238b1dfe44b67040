import Glibc

// UDP on the same `Socket`: the datagram calls SSDP discovery needs (PTPIP's `UDPSocket` adds the waits,
// the timeouts and its errors on top).
extension Socket {
    /// Opens a non-blocking UDP socket bound to `address` (port 0 lets the kernel choose).
    package static func udp(boundTo address: SocketAddress) throws(SocketFailure) -> Socket {
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = try systemCall("socket") { Glibc.socket(address.family, type, Int32(IPPROTO_UDP)) }
        let socket = Socket(adopting: fd)
        do {
            try socket.withDescriptor { fd throws(SocketFailure) in
                _ = try systemCall("bind") { address.withSockAddr { Glibc.bind(fd, $0, $1) } }
            }
            return socket
        } catch {
            socket.close()
            throw error
        }
    }

    /// Sends multicast datagrams out of the interface that owns the IPv4 `interfaceAddress`, with `ttl` hops
    /// (`IP_MULTICAST_IF`, `IP_MULTICAST_TTL`). Returns false when `interfaceAddress` is not an IPv4 literal.
    package func setMulticastInterface(_ interfaceAddress: String, ttl: Int32) throws(SocketFailure) -> Bool {
        var address = in_addr()
        guard inet_pton(AF_INET, interfaceAddress, &address) == 1 else { return false }
        try withDescriptor { fd throws(SocketFailure) in
            _ = try systemCall("setsockopt(IP_MULTICAST_IF)") {
                setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_IF, &address, socklen_t(MemoryLayout<in_addr>.size))
            }
        }
        try setOption(
            level: Int32(IPPROTO_IP), name: IP_MULTICAST_TTL, value: ttl, call: "setsockopt(IP_MULTICAST_TTL)")
        return true
    }

    /// Sends one datagram if the send buffer takes it now; false when it is full (wait for `.writable`).
    package func trySend(_ bytes: [UInt8], to destination: SocketAddress) throws(SocketFailure) -> Bool {
        try withDescriptor { fd throws(SocketFailure) in
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

    /// Reads one waiting datagram into `buffer`: its length and its sender (nil for an address family we do
    /// not know); nil when none is queued (wait for `.readable`).
    package func tryReceive(
        into buffer: inout [UInt8]
    ) throws(SocketFailure) -> (count: Int, sender: SocketAddress?)? {
        try withDescriptor { fd throws(SocketFailure) in
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
            case let .success((count, sender)): return (count, sender)
            case .failure(.wouldBlock): return nil
            case let .failure(error): throw .system(error, call: "recvfrom")
            }
        }
    }
}

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
    package static func current() throws(Errno) -> [HostInterfaceAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { throw Errno.current }
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
