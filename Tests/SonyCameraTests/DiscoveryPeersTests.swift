import Foundation
import Glibc
import PTPIP
import Posix
import SonyCamera
import TestSupport
import Testing

// Loopback stand-ins for a camera's SSDP and HTTP servers (127.0.0.1 only), plus their own small tests.

/// Answers M-SEARCHes on 127.0.0.1 with whatever `answers` returns for the search target (unicast, to the sender).
struct LoopbackSSDPResponder: Sendable {
    let socket: UDPSocket
    /// The search targets seen, in order.
    let searches = LockedLog<String>()

    var target: SocketAddress { SocketAddress(numericHost: "127.0.0.1", port: socket.localAddress.port)! }

    /// Runs `body` with a responder, then stops it.
    @discardableResult
    static func with<T: Sendable>(
        answers: @escaping @Sendable (_ searchTarget: String) -> [[UInt8]],
        _ body: (LoopbackSSDPResponder) async throws -> T
    ) async throws -> T {
        let responder = LoopbackSSDPResponder(socket: try UDPSocket.bind(host: "127.0.0.1"))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await responder.serve(answers) }
            defer {
                responder.socket.close()
                group.cancelAll()
            }
            return try await body(responder)
        }
    }

    private func serve(_ answers: @Sendable (String) -> [[UInt8]]) async {
        while let datagram = try? await socket.receive(timeout: nil) {
            let text = String(decoding: datagram.bytes, as: UTF8.self)
            guard text.hasPrefix("M-SEARCH"), datagram.sender.host == "127.0.0.1" else { continue }
            let target =
                text.split(separator: "\r\n").first { $0.hasPrefix("ST: ") }.map { String($0.dropFirst(4)) } ?? ""
            searches.append(target)
            for answer in answers(target) {
                try? await socket.send(answer, to: datagram.sender)
            }
        }
    }

    /// A Sony-shaped answer for `searchTarget` pointing at `location`.
    static func answer(searchTarget: String, location: String, udn: String = sampleUDN) -> [UInt8] {
        Array(
            ("HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nEXT:\r\nLOCATION: \(location)\r\n"
                + "SERVER: UPnP/1.0 SonyImagingDevice/1.0\r\nST: \(searchTarget)\r\nUSN: \(udn)::\(searchTarget)\r\n\r\n")
                .utf8)
    }
}

let sampleUDN = "uuid:00000000-0005-0010-8000-10a5d0f1e2d3"

/// What the loopback HTTP server does for one path.
enum DescriptionBehavior: Sendable {
    /// 200 with this body and a Content-Length.
    case ok(String)
    /// 200, chunked.
    case chunked(String)
    /// Headers, then silence until the client gives up.
    case stall
    /// 200 announcing (and starting to send) far more than any description.
    case oversized
    /// 200 without Content-Length, streaming bytes until the client hangs up.
    case endless
    /// 404.
    case notFound
}

/// A one-connection-at-a-time HTTP/1.1 server on 127.0.0.1 serving `routes`.
struct LoopbackDescriptionServer: Sendable {
    let listener: TCPListener
    var port: UInt16 { listener.port }
    /// The paths answered so far, each logged once its answer (or the first part of it) was sent.
    let answered = LockedLog<String>()

    /// Runs `body` with a server, then stops it and every connection it holds.
    @discardableResult
    static func with<T: Sendable>(
        _ routes: [String: DescriptionBehavior], _ body: (LoopbackDescriptionServer) async throws -> T
    ) async throws -> T {
        let server = LoopbackDescriptionServer(listener: try TCPListener.bind(host: "127.0.0.1"))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await withTaskGroup(of: Void.self) { connections in
                    while let connection = try? await server.listener.accept() {
                        connections.addTask { await serve(connection, routes: routes, answered: server.answered) }
                    }
                    connections.cancelAll()
                }
            }
            defer {
                server.listener.close()
                group.cancelAll()
            }
            return try await body(server)
        }
    }

    private static func serve(
        _ connection: TCPTransport, routes: [String: DescriptionBehavior], answered: LockedLog<String>
    ) async {
        defer { connection.close() }
        var request: [UInt8] = []
        while request.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
            guard let chunk = try? await connection.receive(upTo: 4096, timeout: .seconds(10)), !chunk.isEmpty else {
                return
            }
            request += chunk
        }
        let path =
            String(decoding: request, as: UTF8.self).split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        switch routes[path] ?? .notFound {
        case let .ok(body):
            try? await connection.send(
                Array(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                        .utf8), timeout: .seconds(5))
            answered.append(path)
        case let .chunked(body):
            let bytes = Array(body.utf8)
            let half = bytes.count / 2
            var out = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            for part in [bytes[..<half], bytes[half...]] {
                out += Array("\(String(part.count, radix: 16))\r\n".utf8) + part + Array("\r\n".utf8)
            }
            out += Array("0\r\n\r\n".utf8)
            try? await connection.send(out, timeout: .seconds(5))
            answered.append(path)
        case .stall:
            try? await connection.send(
                Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n<ro".utf8), timeout: .seconds(5))
            answered.append(path)
            _ = try? await connection.receive(upTo: 1, timeout: .seconds(30))
        case .oversized:
            try? await connection.send(
                Array("HTTP/1.1 200 OK\r\nContent-Length: 4294967296\r\n\r\n".utf8), timeout: .seconds(5))
            answered.append(path)
            _ = try? await connection.receive(upTo: 1, timeout: .seconds(30))
        case .endless:
            try? await connection.send(Array("HTTP/1.1 200 OK\r\n\r\n".utf8), timeout: .seconds(5))
            answered.append(path)
            let filler = [UInt8](repeating: 0x41, count: 16 * 1024)
            while (try? await connection.send(filler, timeout: .seconds(5))) != nil {}
        case .notFound:
            try? await connection.send(
                Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8), timeout: .seconds(5))
            answered.append(path)
        }
    }
}

/// A Sony-shaped `dd.xml` (after an ILCE-7RM2's, with a DigitalImaging service and ScalarWebAPI info).
func sampleDeviceXML(
    friendlyName: String = "Studio A7 III", imagingPath: String = "/DigitalImagingDesc.xml"
) -> String {
    """
    <?xml version="1.0"?>
    <root xmlns="urn:schemas-upnp-org:device-1-0">
      <specVersion><major>1</major><minor>0</minor></specVersion>
      <device>
        <deviceType>urn:schemas-upnp-org:device:Basic:1</deviceType>
        <friendlyName>\(friendlyName)</friendlyName>
        <manufacturer>Sony Corporation</manufacturer>
        <modelDescription>SonyDigitalMediaServer</modelDescription>
        <modelName>SonyImagingDevice</modelName>
        <UDN>\(sampleUDN)</UDN>
        <serviceList>
          <service>
            <serviceType>urn:schemas-sony-com:service:ScalarWebAPI:1</serviceType>
            <serviceId>urn:schemas-sony-com:serviceId:ScalarWebAPI</serviceId>
            <SCPDURL/><controlURL/><eventSubURL/>
          </service>
          <service>
            <serviceType>urn:schemas-sony-com:service:DigitalImaging:1</serviceType>
            <serviceId>urn:schemas-sony-com:serviceId:DigitalImaging</serviceId>
            <SCPDURL>\(imagingPath)</SCPDURL>
            <controlURL>/upnp/control/DigitalImaging</controlURL>
            <eventSubURL></eventSubURL>
          </service>
        </serviceList>
        <av:X_ScalarWebAPI_DeviceInfo xmlns:av="urn:schemas-sony-com:av">
          <av:X_ScalarWebAPI_Version>1.0</av:X_ScalarWebAPI_Version>
          <av:X_ScalarWebAPI_ServiceList>
            <av:X_ScalarWebAPI_Service>
              <av:X_ScalarWebAPI_ServiceType>camera</av:X_ScalarWebAPI_ServiceType>
              <av:X_ScalarWebAPI_ActionList_URL>http://127.0.0.1:8080/sony</av:X_ScalarWebAPI_ActionList_URL>
              <av:X_ScalarWebAPI_AccessType/>
            </av:X_ScalarWebAPI_Service>
          </av:X_ScalarWebAPI_ServiceList>
        </av:X_ScalarWebAPI_DeviceInfo>
      </device>
    </root>
    """
}

/// A Sony-shaped `DigitalImagingDesc.xml` (element names of Sony's Camera Control PTP reference).
func sampleImagingXML(pairing: String = "Necessary", ssh: String = "Disable") -> String {
    """
    <?xml version="1.0"?>
    <scpd xmlns="urn:schemas-upnp-org:service-1-0" xmlns:av="urn:schemas-sony-com:av">
      <av:X_DeviceInfo>
        <av:X_ModelName>ILCE-7M3</av:X_ModelName>
        <av:X_FirmwareVersion>4.01</av:X_FirmwareVersion>
        <av:X_MacAddress>10:a5:d0:f1:e2:d3</av:X_MacAddress>
      </av:X_DeviceInfo>
      <av:X_ConnectionInfo><av:X_SSH_Support>\(ssh)</av:X_SSH_Support></av:X_ConnectionInfo>
      <av:X_PTP_Information>
        <av:X_PTP_Versions>3.00</av:X_PTP_Versions>
        <av:X_PTP_PairingNecessity>\(pairing)</av:X_PTP_PairingNecessity>
        <av:X_PTP_RemoteControlSupport>Enable</av:X_PTP_RemoteControlSupport>
      </av:X_PTP_Information>
    </scpd>
    """
}

@Suite("Discovery: UDP socket and description fetch on loopback", .realTime)
struct DiscoveryPeersTests {
    @Test func udpSocketCarriesADatagramAndReportsTheSender() async throws {
        let receiver = try UDPSocket.bind(host: "127.0.0.1")
        let sender = try UDPSocket.bind(host: "127.0.0.1")
        defer {
            receiver.close()
            sender.close()
        }
        try await sender.send([1, 2, 3], to: SocketAddress(numericHost: "127.0.0.1", port: receiver.localAddress.port)!)
        let datagram = try #require(try await receiver.receive(timeout: .seconds(10)))
        #expect(datagram.bytes == [1, 2, 3])
        #expect(datagram.sender.port == sender.localAddress.port)
    }

    @Test func udpReceiveReturnsNilWhenNothingArrives() async throws {
        let socket = try UDPSocket.bind(host: "127.0.0.1")
        defer { socket.close() }
        #expect(try await socket.receive(timeout: .milliseconds(50)) == nil)
    }

    @Test func fetchesContentLengthAndChunkedBodies() async throws {
        let body = sampleImagingXML()
        try await LoopbackDescriptionServer.with(["/a.xml": .ok(body), "/b.xml": .chunked(body)]) { server in
            let fetcher = DescriptionFetcher(timeout: .seconds(10))
            let plain = try await fetcher.fetch(HTTPURL("http://127.0.0.1:\(server.port)/a.xml")!)
            let chunked = try await fetcher.fetch(HTTPURL("http://127.0.0.1:\(server.port)/b.xml")!)
            #expect(plain == body)
            #expect(chunked == body)
        }
    }

    @Test func aStalledServerTimesOutInsteadOfHanging() async throws {
        try await LoopbackDescriptionServer.with(["/dd.xml": .stall]) { server in
            // Virtual time: the fetch ends when its 300 ms pass on the test clock, however busy the host is.
            let clock = TestClock()
            let fetcher = DescriptionFetcher(timeout: .milliseconds(300), clock: clock)
            let url = try #require(HTTPURL("http://127.0.0.1:\(server.port)/dd.xml"))
            let fetch = Task { try await fetcher.fetch(url) }
            // The server has answered with headers and part of the body, then stalls; the fetch waits for the rest.
            let stalled = try await eventually { server.answered.all.contains("/dd.xml") }
            try #require(stalled, "the server never answered")
            await clock.waitForSleepers(2) // the whole fetch's bound and the receive's
            clock.advance(by: .milliseconds(300))
            await #expect(throws: SonyCameraError.descriptionUnreadable(.timedOut(address: "127.0.0.1:\(server.port)")))
            {
                try await fetch.value
            }
        }
    }

    @Test(arguments: [DescriptionBehavior.oversized, .endless])
    func anOversizedBodyIsAnError(behavior: DescriptionBehavior) async throws {
        try await LoopbackDescriptionServer.with(["/dd.xml": behavior]) { server in
            let fetcher = DescriptionFetcher(timeout: .seconds(10), limit: 64 * 1024)
            do {
                _ = try await fetcher.fetch(HTTPURL("http://127.0.0.1:\(server.port)/dd.xml")!)
                Issue.record("an oversized description was accepted")
            } catch let error as SonyCameraError {
                guard case .descriptionUnreadable(.notHTTP) = error else {
                    Issue.record("not an HTTP failure: \(error)")
                    return
                }
                #expect("\(error)".contains("at most 65536 bytes"))
            }
        }
    }

    @Test func aMissingDescriptionIsAnError() async throws {
        try await LoopbackDescriptionServer.with([:]) { server in
            await #expect(throws: SonyCameraError.self) {
                try await DescriptionFetcher(timeout: .seconds(10)).fetch(
                    HTTPURL("http://127.0.0.1:\(server.port)/dd.xml")!)
            }
        }
    }
}
