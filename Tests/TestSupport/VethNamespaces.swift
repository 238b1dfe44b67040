import Foundation
import Glibc
import Testing

/// Two network namespaces a test creates, joined by a veth pair: the host (`hs0`, 10.231.0.65/24), where
/// the code under test runs, and the camera (`hs1`, 10.231.0.66/24), the peer whose link goes up and down.
///
/// `with(_:)` always deletes both namespaces (the veth pair goes with them), also when the body throws, and
/// cancels the test (reported as skipped, with the reason) where namespaces cannot be made: no iproute2, not root.
package struct VethNamespaces: Sendable {
    /// Why entering a namespace failed.
    package struct EnterFailure: Error, CustomStringConvertible {
        /// The call that failed (`open /var/run/netns/...`, `setns`).
        package let operation: String
        /// `errno` after it.
        package let code: Int32

        /// The failure in one line, for test output.
        package var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    /// The host's namespace.
    package let hostNamespace: String
    /// The camera's namespace.
    package let cameraNamespace: String
    /// The host's end of the veth pair.
    package let hostLink = "hs0"
    /// The camera's end.
    package let cameraLink = "hs1"
    /// The host's address.
    package let hostAddress = "10.231.0.65"
    /// The camera's address.
    package let cameraAddress = "10.231.0.66"

    /// Creates the namespaces and the link, runs `body`, and deletes the namespaces whatever happens.
    package static func with<T>(_ body: (VethNamespaces) async throws -> T) async throws -> T {
        guard let ip = TestHost.ip else {
            try Test.cancel("skipped: iproute2 ('ip') is not installed, so no network namespace")
        }
        let tag = "\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        let namespaces = VethNamespaces(
            hostNamespace: "hdrshoot-host-\(tag)", cameraNamespace: "hdrshoot-camera-\(tag)")
        let created = try await run(ip, ["netns", "add", namespaces.hostNamespace])
        guard created.status == 0 else {
            let reason = created.errorOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            try Test.cancel("skipped: cannot create a network namespace: \(reason)")
        }
        do {
            try await namespaces.setUp()
            let result = try await body(namespaces)
            await namespaces.remove()
            return result
        } catch {
            await namespaces.remove()
            throw error
        }
    }

    private func setUp() async throws {
        try await ip(["netns", "add", cameraNamespace])
        // Distinct ifindexes on the two ends make carrier changes "urgent" for the kernel's linkwatch (a veth
        // whose peer shares its ifindex is rate-limited to one operstate update per second).
        try await ip([
            "-n", hostNamespace, "link", "add", hostLink, "index", "5", "type", "veth",
            "peer", "name", cameraLink, "netns", cameraNamespace, "index", "9"
        ])
        try await ip(["-n", hostNamespace, "addr", "add", "\(hostAddress)/24", "dev", hostLink])
        try await ip(["-n", cameraNamespace, "addr", "add", "\(cameraAddress)/24", "dev", cameraLink])
        for (namespace, link) in [(hostNamespace, hostLink), (cameraNamespace, cameraLink)] {
            try await ip(["-n", namespace, "link", "set", "lo", "up"])
            try await ip(["-n", namespace, "link", "set", link, "up"])
        }
    }

    /// Deletes both namespaces.
    private func remove() async {
        guard let ip = TestHost.ip else { return }
        for namespace in [hostNamespace, cameraNamespace] {
            _ = try? await Self.run(ip, ["netns", "del", namespace])
        }
    }

    /// Runs `ip arguments...`, failing the test on a non-zero exit.
    package func ip(_ arguments: [String]) async throws {
        let result = try await Self.run(try #require(TestHost.ip), arguments)
        try #require(result.status == 0, "ip \(arguments.joined(separator: " ")): \(result.errorOutput)")
    }

    /// Takes the host's end of the link down or up; returns when `ip` is done.
    package func setHostLink(up: Bool) async throws {
        try await ip(["-n", hostNamespace, "link", "set", hostLink, up ? "up" : "down"])
    }

    /// Takes the camera's end of the link down or up (the host's end then loses or regains its carrier).
    package func setCameraLink(up: Bool) async throws {
        try await ip(["-n", cameraNamespace, "link", "set", cameraLink, up ? "up" : "down"])
    }

    /// `ip netns exec <namespace> <executable> arguments...`, as an executable and its arguments (ip execs the
    /// command, so the child's PID is the command's).
    package func command(in namespace: String, _ executable: URL, _ arguments: [String]) throws -> (URL, [String]) {
        (try #require(TestHost.ip), ["netns", "exec", namespace, executable.path] + arguments)
    }

    /// Moves the calling thread into the host's namespace. Only for dedicated threads, never the pool.
    package func enterHostNamespace() throws {
        try Self.enter(namespace: hostNamespace)
    }

    /// Moves the calling thread into `namespace` (setns(2), looked up with dlsym: Glibc's module map does
    /// not export it). Only for dedicated threads, never the pool.
    package static func enter(namespace: String) throws {
        typealias SetNamespace = @convention(c) (Int32, Int32) -> Int32
        let cloneNewNet: Int32 = 0x4000_0000
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setns") else {
            throw EnterFailure(operation: "dlsym(setns)", code: ENOSYS)
        }
        let fd = open("/var/run/netns/\(namespace)", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw EnterFailure(operation: "open /var/run/netns/\(namespace)", code: errno) }
        defer { close(fd) }
        guard unsafeBitCast(symbol, to: SetNamespace.self)(fd, cloneNewNet) == 0 else {
            throw EnterFailure(operation: "setns", code: errno)
        }
    }

    /// Runs `ip` directly (no process slot: a link change is timed by the caller, so it must not queue
    /// behind other tests' children) and returns its status and standard error.
    private static func run(_ ip: URL, _ arguments: [String]) async throws -> (status: Int32, errorOutput: String) {
        try await BackgroundProcess.with(ip, arguments: arguments) { process in
            let status = await process.waitForExit(timeout: .seconds(30))
            return (status, process.standardError)
        }
    }
}
