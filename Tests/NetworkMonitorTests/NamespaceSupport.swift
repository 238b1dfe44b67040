import Foundation
import Glibc
import Posix
import Testing
@testable import NetworkMonitor

/// Runs `ip` (iproute2) without blocking a cooperative thread.
enum IPTool {
    /// The `ip` binary, if installed.
    static let path: String? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs `ip arguments...` and returns its exit status and combined output.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        guard let path else { return (127, "ip not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                continuation.resume(returning: (finished.terminationStatus, String(decoding: data, as: UTF8.self)))
            }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
    }
}

/// Two network namespaces joined by a veth pair: `nm0` (10.231.0.1/24) in the monitor's namespace,
/// `nm1` (10.231.0.2/24, "the camera") in the peer namespace. Always removed by `withVethPair`.
struct VethPair: Sendable {
    let monitorNamespace: String
    let peerNamespace: String
    let monitorLink = "nm0"
    let peerLink = "nm1"
    let monitorAddress = "10.231.0.1"
    let cameraAddress = "10.231.0.2"

    /// Creates the namespaces and links, runs `body`, and removes the namespaces even when `body` throws.
    /// Cancels (skips) the test with a message when namespaces cannot be created here.
    static func withVethPair(_ body: (VethPair) async throws -> Void) async throws {
        let tag = "\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        let pair = VethPair(monitorNamespace: "hdrshoot-nm-\(tag)", peerNamespace: "hdrshoot-cam-\(tag)")
        if IPTool.path == nil { try Test.cancel("skipped: iproute2 ('ip') is not installed") }
        let created = try await IPTool.run(["netns", "add", pair.monitorNamespace])
        if created.status != 0 {
            try Test.cancel("skipped: cannot create a network namespace (needs root): \(created.output)")
        }
        do {
            try await pair.setUp()
            try await body(pair)
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }

    private func setUp() async throws {
        try await ip(["netns", "add", peerNamespace])
        // Distinct ifindexes on the two ends make carrier changes "urgent" for the kernel's linkwatch
        // (a veth whose peer has its own ifindex is rate-limited to one operstate update per second).
        try await ip(["-n", monitorNamespace, "link", "add", monitorLink, "index", "5", "type", "veth",
                      "peer", "name", peerLink, "netns", peerNamespace, "index", "9"])
        try await ip(["-n", monitorNamespace, "addr", "add", "\(monitorAddress)/24", "dev", monitorLink])
        try await ip(["-n", peerNamespace, "addr", "add", "\(cameraAddress)/24", "dev", peerLink])
        try await ip(["-n", monitorNamespace, "link", "set", monitorLink, "up"])
        try await ip(["-n", peerNamespace, "link", "set", peerLink, "up"])
    }

    /// Deletes both namespaces (the veth pair goes with them).
    func remove() async {
        _ = try? await IPTool.run(["netns", "del", monitorNamespace])
        _ = try? await IPTool.run(["netns", "del", peerNamespace])
    }

    /// Runs `ip`, failing the test on a non-zero exit.
    func ip(_ arguments: [String]) async throws {
        let result = try await IPTool.run(arguments)
        try #require(result.status == 0, "ip \(arguments.joined(separator: " ")): \(result.output)")
    }

    /// Sets the camera side's link up or down (the monitor side then loses or regains carrier).
    func setCameraLink(up: Bool) async throws {
        try await ip(["-n", peerNamespace, "link", "set", peerLink, up ? "up" : "down"])
    }

    /// Moves the calling thread into the monitor's namespace. Only for dedicated threads, never the pool.
    func enterMonitorNamespace() throws {
        try Self.enter(namespace: monitorNamespace)
    }

    /// setns(2) via dlsym: Glibc's module map does not export it.
    static func enter(namespace: String) throws {
        typealias SetNamespace = @convention(c) (Int32, Int32) -> Int32
        let cloneNewNet: Int32 = 0x4000_0000
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setns") else {
            throw NetworkMonitorError.system(operation: "dlsym(setns)", errno: Errno(rawValue: 38))
        }
        let fd = open("/var/run/netns/\(namespace)", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw NetworkMonitorError.system(operation: "open netns", errno: Errno(rawValue: errno)) }
        defer { close(fd) }
        guard unsafeBitCast(symbol, to: SetNamespace.self)(fd, cloneNewNet) == 0 else {
            throw NetworkMonitorError.system(operation: "setns", errno: Errno(rawValue: errno))
        }
    }
}

/// Runs `body` on a fresh thread inside `namespace` (so sockets it opens live there) and returns its result.
func onThread<T: Sendable>(inNamespace namespace: String?, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do {
                if let namespace { try VethPair.enter(namespace: namespace) }
                continuation.resume(returning: try body())
            } catch {
                continuation.resume(throwing: error)
            }
        }
        thread.start()
    }
}

/// Collects a monitor's events so a test can wait for one with a real-time deadline (the kernel is real).
actor EventLog {
    private(set) var events: [NetworkEvent] = []
    private var ended = false

    func append(_ event: NetworkEvent) { events.append(event) }
    func end() { ended = true }

    /// Waits until an event at or after `start` matches, for at most `timeout`; returns its index.
    func waitFor(after start: Int = 0, timeout: Duration = .seconds(3), clock: ContinuousClock = ContinuousClock(),
                 _ matches: (NetworkEvent) -> Bool) async -> Int? {
        let deadline = clock.now.advanced(by: timeout)
        while true {
            if start < events.count, let index = events[start...].firstIndex(where: matches) { return index }
            if ended || clock.now >= deadline { return nil }
            try? await clock.sleep(for: .milliseconds(5))
        }
    }
}

/// Starts a task that copies `monitor.events` into a log; await the task after `monitor.stop()`.
func collect(_ monitor: NetworkMonitor, into log: EventLog) -> Task<Void, Never> {
    Task {
        do { for try await event in monitor.events { await log.append(event) } } catch {}
        await log.end()
    }
}
