import Foundation
import TestSupport
import Testing
import Glibc

/// Two network namespaces the test creates, joined by a veth pair: the host (`hs0`, 10.231.0.65/24) where
/// `hdrshoot run` shoots, and the camera (`hs1`, 10.231.0.66/24) where `hdrshoot simulate` listens.
///
/// `with(_:)` always deletes both namespaces (the veth pair goes with them), also when the body throws,
/// and skips the test with a message where namespaces cannot be made (not root, no iproute2).
struct ShootNamespaces: Sendable {
    /// The host's namespace.
    let hostNamespace: String
    /// The camera's namespace.
    let cameraNamespace: String
    /// The host's end of the veth pair.
    let hostLink = "hs0"
    /// The camera's end.
    let cameraLink = "hs1"
    /// The host's address.
    let hostAddress = "10.231.0.65"
    /// The simulated camera's address.
    let cameraAddress = "10.231.0.66"

    /// The `ip` binary, if installed.
    static let ipPath: String? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Creates the namespaces and the link, runs `body`, and deletes the namespaces whatever happens.
    static func with<T>(_ body: (ShootNamespaces) async throws -> T) async throws -> T {
        guard let ipPath else { try Test.cancel("skipped: iproute2 ('ip') is not installed, so no network namespace") }
        let tag = "\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        let namespaces = ShootNamespaces(hostNamespace: "hdrshoot-host-\(tag)", cameraNamespace: "hdrshoot-camera-\(tag)")
        let created = try await ProcessRunner.run(URL(fileURLWithPath: ipPath), arguments: ["netns", "add", namespaces.hostNamespace])
        guard created.exitCode == 0 else {
            try Test.cancel("skipped: cannot create a network namespace (needs root): \(created.standardError)")
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
        // Distinct ifindexes on the two ends make carrier changes "urgent" for the kernel's linkwatch (else a
        // veth's operstate may lag up to a second behind).
        try await ip(["-n", hostNamespace, "link", "add", hostLink, "index", "5", "type", "veth",
                      "peer", "name", cameraLink, "netns", cameraNamespace, "index", "9"])
        try await ip(["-n", hostNamespace, "addr", "add", "\(hostAddress)/24", "dev", hostLink])
        try await ip(["-n", cameraNamespace, "addr", "add", "\(cameraAddress)/24", "dev", cameraLink])
        for (namespace, link) in [(hostNamespace, hostLink), (cameraNamespace, cameraLink)] {
            try await ip(["-n", namespace, "link", "set", "lo", "up"])
            try await ip(["-n", namespace, "link", "set", link, "up"])
        }
    }

    /// Deletes both namespaces.
    func remove() async {
        guard let ipPath = Self.ipPath else { return }
        for namespace in [hostNamespace, cameraNamespace] {
            _ = try? await ProcessRunner.run(URL(fileURLWithPath: ipPath), arguments: ["netns", "del", namespace])
        }
    }

    /// Runs `ip arguments...`, failing the test on a non-zero exit.
    func ip(_ arguments: [String]) async throws {
        let ipPath = try #require(Self.ipPath)
        let result = try await ProcessRunner.run(URL(fileURLWithPath: ipPath), arguments: arguments)
        try #require(result.exitCode == 0, "ip \(arguments.joined(separator: " ")): \(result.standardError)")
    }

    /// Takes the host's end of the link down or up; returns when `ip` is done. Launched directly (no process
    /// slot to wait for), so the time taken just before the call is when the link went down, within ms.
    func setHostLink(up: Bool) async throws {
        let ipPath = try #require(Self.ipPath)
        let arguments = ["-n", hostNamespace, "link", "set", hostLink, up ? "up" : "down"]
        let status = try await BackgroundProcess.with(URL(fileURLWithPath: ipPath), arguments: arguments) { await $0.waitForExit(timeout: .seconds(10)) }
        try #require(status == 0, "ip \(arguments.joined(separator: " ")) exited with \(status)")
    }

    /// `ip netns exec <namespace> <hdrshoot> arguments...` (ip execs the command, so the PID is hdrshoot's).
    func hdrshootCommand(in namespace: String, _ arguments: [String]) throws -> (URL, [String]) {
        let ipPath = try #require(Self.ipPath)
        return (URL(fileURLWithPath: ipPath), ["netns", "exec", namespace, try ProcessRunner.hdrshootBinary().path] + arguments)
    }
}

/// One fired frame from the simulator's `--capture-log`.
struct LoggedCapture: Sendable {
    /// The camera's label (`1/250`).
    var label: String
    /// Seconds since the simulator started.
    var time: Double

    /// Every record of the capture log at `path`, in firing order.
    static func load(_ path: String) throws -> [LoggedCapture] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            let object = try #require(jsonObject(String(line)))
            return LoggedCapture(label: try #require(object["label"] as? String), time: try #require(object["time"] as? Double))
        }
    }
}

/// The `paused`/`resumed` entries of the journal in `stateDirectory`, as (event, kind, detail).
func journalHolds(stateDirectory: String) throws -> [(event: String, kind: String, detail: String?)] {
    let files = try FileManager.default.contentsOfDirectory(atPath: stateDirectory).filter { $0.hasSuffix(".json") }
    try #require(files.count == 1, "one journal expected, found \(files)")
    let url = URL(fileURLWithPath: stateDirectory).appendingPathComponent(files[0])
    let journal = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    let log = try #require(journal["log"] as? [[String: Any]])
    return log.compactMap { entry in
        guard let event = entry["event"] as? [String: Any], let name = event.keys.first, name == "paused" || name == "resumed",
              let body = event[name] as? [String: Any], let reason = body["_0"] as? [String: Any] else { return nil }
        return (name, reason["kind"] as? String ?? "?", reason["detail"] as? String)
    }
}
