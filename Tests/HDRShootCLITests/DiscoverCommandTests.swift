import CameraSimulator
import Foundation
import Glibc
import LegacyCameraSimulator
import Synchronization
import TestSupport
import Testing

/// `hdrshoot discover` as a built binary, searching only a loopback SSDP responder (never the network).
@Suite("hdrshoot discover (built binary)", .realTime)
struct DiscoverCommandTests {
    static func runDiscover(_ arguments: [String]) async throws -> ProcessResult {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hdrshoot-discover-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: config) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config.path
        return try await ProcessRunner.run(
            try ProcessRunner.hdrshootBinary(), arguments: ["discover"] + arguments, environment: environment,
            timeout: .seconds(60))
    }

    @Test func listsTheLoopbackCameraAsReadyInJSON() async throws {
        var simulator = SimulatorConfiguration()
        simulator.port = 0
        let result = try await CameraSimulator.withRunning(configuration: simulator) { simulator in
            let peer = try LoopbackCameraPeer()
            defer { peer.stop() }
            return try await Self.runDiscover([
                "--ssdp-target", "127.0.0.1:\(peer.ssdpPort)", "--ptpip-port", "\(simulator.port)", "--timeout",
                "800ms", "--expect-answers", "2", "--json"
            ])
        }
        #expect(result.exitCode == 0)
        #expect(result.standardError.isEmpty)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let cameras = try #require(object["cameras"] as? [[String: Any]])
        try #require(cameras.count == 1)
        let camera = cameras[0]
        #expect(camera["name"] as? String == "Loopback A7 III")
        #expect(camera["model"] as? String == "ILCE-7M3")
        #expect((camera["address"] as? String)?.hasPrefix("127.0.0.1:") == true)
        #expect(camera["ready"] as? Bool == true)
        #expect(camera["exposureMode"] as? String == "M")
        #expect(camera["pairingRequired"] as? Bool == false)
        #expect(camera["sshRequired"] as? Bool == false)
        #expect(camera["problems"] as? [String] == [])
        // Every key is there, an unknown value as null (the Codable report keeps the old [String: Any] shape).
        #expect(
            Set(camera.keys) == [
                "name", "model", "address", "host", "port", "ready", "exposureMode", "protocolVersion", "problems",
                "udn",
                "services", "pairingRequired", "sshRequired", "connection", "contentsTransfer", "source",
                "descriptionProblem", "remoteAPI"
            ])
        #expect(camera["remoteAPI"] is NSNull)
    }

    @Test func anOlderBodyIsFoundByItsScalarWebAPIAnswerAndConfirmedOverTheCameraRemoteAPI() async throws {
        var configuration = LegacySimulatorConfiguration()
        configuration.ssdpPort = 0
        let peer = try LoopbackCameraPeer()
        defer { peer.stop() }
        // No PTP/IP at the body (a port that refuses): only its Camera Remote API answers. Its SSDP responder runs
        // in this (busy) test process, so the search window is a generous one, ended by the body's one answer.
        let (result, text) = try await LegacyCameraSimulator.withRunning(configuration: configuration) { simulator in
            let ssdp = try #require(simulator.ssdpPort)
            let common = [
                "--ssdp-target", "127.0.0.1:\(ssdp)", "--ptpip-port", "\(peer.refusingPort)", "--timeout", "3s",
                "--expect-answers", "1"
            ]
            return (try await Self.runDiscover(common + ["--json"]), try await Self.runDiscover(common))
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let cameras = try #require(object["cameras"] as? [[String: Any]])
        try #require(cameras.count == 1)
        #expect(cameras[0]["services"] as? [String] == ["urn:schemas-sony-com:service:ScalarWebAPI:1"])
        #expect(cameras[0]["ready"] as? Bool == false)
        let api = try #require(cameras[0]["remoteAPI"] as? [String: Any])
        #expect((api["address"] as? String)?.hasPrefix("http://127.0.0.1:") == true)
        #expect(api["ready"] as? Bool == true)
        #expect(api["exposureMode"] as? String == "Manual")
        #expect(api["apiVersions"] as? [String] == ["1.0", "1.1", "1.2", "1.3"])
        #expect(text.standardOutput.contains("Camera Remote API at http://127.0.0.1:"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains(": ready (mode Manual)"))
    }

    @Test func aClosedPTPIPPortIsListedAsNotReadyInText() async throws {
        let peer = try LoopbackCameraPeer()
        defer { peer.stop() }
        // The peer's bound but never listening TCP port: reserved for this test, and it refuses connections.
        let port = peer.refusingPort
        let result = try await Self.runDiscover([
            "--ssdp-target", "127.0.0.1:\(peer.ssdpPort)", "--ptpip-port", "\(port)", "--timeout", "500ms",
            "--expect-answers", "2"
        ])
        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput.hasPrefix(
                "Found 1 camera:\n  Loopback A7 III  ILCE-7M3  127.0.0.1:\(port)  not ready\n"))
        #expect(result.standardOutput.contains("refused the connection"))
    }

    @Test func silenceIsAnEmptyListAndExitZero() async throws {
        let peer = try LoopbackCameraPeer(answer: false)
        defer { peer.stop() }
        // Nothing ends the window early, so it is the shortest one accepted.
        let text = try await Self.runDiscover(["--ssdp-target", "127.0.0.1:\(peer.ssdpPort)", "--timeout", "100ms"])
        #expect(text.exitCode == 0)
        #expect(text.standardOutput.hasPrefix("No Sony camera answered within 100 ms."))
        let json = try await Self.runDiscover([
            "--ssdp-target", "127.0.0.1:\(peer.ssdpPort)", "--timeout", "100ms", "--json"
        ])
        #expect(json.exitCode == 0)
        #expect(json.standardOutput == "{\"cameras\":[]}\n")
    }

    @Test(arguments: [
        ["--timeout", "soon"], ["--ssdp-target", "127.0.0.1"], ["--ptpip-port", "0"], ["--expect-answers", "0"]
    ])
    func badOptionsAreUsageErrors(arguments: [String]) async throws {
        let result = try await Self.runDiscover(arguments)
        #expect(result.exitCode == 64)
        #expect(result.errorLines.count == 2)
    }
}

/// A camera's SSDP responder (UDP) and description server (TCP) on 127.0.0.1, on two plain threads.
///
/// Written with Glibc sockets because this test target does not link the transport layer; each thread
/// polls with a short timeout so `stop()` ends it promptly.
final class LoopbackCameraPeer: Sendable {
    let ssdpPort: UInt16
    let httpPort: UInt16
    /// A loopback TCP port bound without listening: connections to it are refused while the peer lives.
    let refusingPort: UInt16
    private let udpSocket: LoopbackSocket
    private let tcpSocket: LoopbackSocket
    private let refusing: LoopbackSocket
    private let stopped = Atomic(false)
    private let finished = DispatchGroup()

    init(answer: Bool = true) throws {
        udpSocket = try LoopbackSocket(.udp)
        tcpSocket = try LoopbackSocket(.tcp)
        refusing = try LoopbackSocket(.tcp)
        (ssdpPort, httpPort, refusingPort) = (udpSocket.port, tcpSocket.port, refusing.port)
        _ = listen(tcpSocket.descriptor, 4)
        let (udp, tcp, httpPort) = (udpSocket.descriptor, tcpSocket.descriptor, httpPort)
        finished.enter()
        Thread { [self] in
            defer { finished.leave() }
            var buffer = [UInt8](repeating: 0, count: 2048)
            while !stopped.load(ordering: .acquiring) {
                guard Self.waitReadable(udp) else { continue }
                var from = sockaddr_in()
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                let count = withUnsafeMutablePointer(to: &from) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(udp, &buffer, buffer.count, 0, $0, &length)
                    }
                }
                guard count > 0, answer, from.sin_addr.s_addr == UInt32(0x7F00_0001).bigEndian else { continue }
                let text = String(decoding: buffer[..<count], as: UTF8.self)
                guard let st = text.split(separator: "\r\n").first(where: { $0.hasPrefix("ST: ") })?.dropFirst(4) else {
                    continue
                }
                let reply = Array(
                    ("HTTP/1.1 200 OK\r\nLOCATION: http://127.0.0.1:\(httpPort)/dd.xml\r\nST: \(st)\r\n"
                        + "USN: uuid:00000000-0005-0010-8000-10a5d0f1e2d3::\(st)\r\n\r\n").utf8)
                _ = withUnsafePointer(to: &from) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(udp, reply, reply.count, 0, $0, length)
                    }
                }
            }
        }.start()
        finished.enter()
        Thread { [self] in
            defer { finished.leave() }
            while !stopped.load(ordering: .acquiring) {
                guard Self.waitReadable(tcp) else { continue }
                let client = accept(tcp, nil, nil)
                guard client >= 0 else { continue }
                Self.serve(client)
                close(client)
            }
        }.start()
    }

    /// Stops both threads and closes the sockets.
    func stop() {
        stopped.store(true, ordering: .releasing)
        finished.wait()
        udpSocket.close()
        tcpSocket.close()
        refusing.close()
    }

    private static func waitReadable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 50) > 0
    }

    private static func serve(_ client: Int32) {
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while request.firstRange(of: Array("\r\n\r\n".utf8)) == nil, waitReadable(client) {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { return }
            request += buffer[..<count]
        }
        let path = String(decoding: request, as: UTF8.self).split(separator: " ").dropFirst().first ?? ""
        let body: String
        switch path {
        case "/dd.xml":
            body =
                "<root><device><friendlyName>Loopback A7 III</friendlyName><modelName>SonyImagingDevice</modelName>"
                + "<UDN>uuid:00000000-0005-0010-8000-10a5d0f1e2d3</UDN><serviceList><service>"
                + "<serviceType>urn:schemas-sony-com:service:DigitalImaging:1</serviceType>"
                + "<SCPDURL>/DigitalImagingDesc.xml</SCPDURL></service></serviceList></device></root>"
        case "/DigitalImagingDesc.xml":
            body =
                "<scpd><X_ModelName>ILCE-7M3</X_ModelName><X_SSH_Support>Disable</X_SSH_Support>"
                + "<X_PTP_PairingNecessity>Unnecessary</X_PTP_PairingNecessity></scpd>"
        default:
            let notFound = Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8)
            _ = write(client, notFound, notFound.count)
            return
        }
        let response = Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
        _ = write(client, response, response.count)
    }
}
