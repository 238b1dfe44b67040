import Foundation
import Glibc
import Testing

/// What this machine offers the tests that need more than Swift (a system tool, root, IPv6), read once.
///
/// Use with a trait, so a test that cannot run here is reported as skipped with the reason, never passed:
/// `@Test(.enabled(if: TestHost.script != nil, "needs util-linux 'script' for a pseudo-terminal"))`.
package enum TestHost {
    /// The executable `name` in the usual system folders (`/usr/sbin`, `/sbin`, `/usr/bin`, `/bin`), or nil.
    package static func tool(_ name: String) -> URL? {
        ["/usr/sbin", "/sbin", "/usr/bin", "/bin"].lazy
            .map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// iproute2's `ip`, which makes network namespaces and veth pairs.
    package static let ip = tool("ip")
    /// util-linux's `script`, which gives a child a pseudo-terminal.
    package static let script = tool("script")
    /// util-linux's `flock`, which holds a file lock from another process.
    package static let flock = tool("flock")
    /// util-linux's `unshare`, which starts a child in a private mount namespace.
    package static let unshare = tool("unshare")

    /// Whether the tests run as root (needed for network and mount namespaces).
    package static var isRoot: Bool { getuid() == 0 }

    /// Whether network namespaces can be made here: root and iproute2. `VethNamespaces.with` still cancels the
    /// test with the kernel's reason when this holds and the kernel refuses (a container without the capability).
    package static var canMakeNetworkNamespaces: Bool { isRoot && ip != nil }

    /// Why a test that needs network namespaces is skipped.
    package static let networkNamespacesReason: Comment = "needs root and iproute2 ('ip') for network namespaces"

    /// Whether a TCP socket can be bound to the IPv6 loopback address `::1` here.
    package static let hasIPv6Loopback: Bool = {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
    }()
}
