import CameraSimulator
import Foundation
import PTPIP
import PTPIPCodec
import Posix
import SonyCamera
import TestSupport
import Testing

/// Whole discovery runs against a loopback SSDP responder, a loopback description server and the simulator.
///
/// Every run injects its SSDP targets (127.0.0.1 only) and an explicit host-address list, so no test
/// reaches the multicast group or the 192.168.122.1 fallback.
@Suite("Discovery: search, describe and confirm on loopback", .realTime)
struct DiscoveryLoopbackTests {
    /// A loopback-only configuration: searching `ssdpPort` on 127.0.0.1, confirming on `ptpipPort`.
    ///
    /// The search ends once the two answers of one camera (DigitalImaging and ScalarWebAPI, `sonyAnswers`) have
    /// arrived; a responder that gives fewer waits out the 1.5 s window.
    static func configuration(
        ssdpPort: UInt16?, ptpipPort: UInt16, hosts: [HostInterfaceAddress] = []
    ) -> DiscoveryConfiguration {
        var configuration = DiscoveryConfiguration(
            identity: HostIdentity(guid: PTPIPGUID.random(), friendlyName: "hdrshoot-tests"))
        configuration.ssdpTargets = ssdpPort.map { [SocketAddress(numericHost: "127.0.0.1", port: $0)!] } ?? []
        configuration.hostAddresses = hosts
        configuration.accessPointCamera = "127.0.0.1"
        configuration.searchTime = .milliseconds(1500)
        configuration.expectedAnswers = 2
        configuration.ptpipPort = ptpipPort
        configuration.descriptionTimeout = .seconds(10)
        configuration.handshakeTimeout = .seconds(30)
        return configuration
    }

    static func simulator(_ mode: SimulatedExposureMode = .manual) -> SimulatorConfiguration {
        .loopback { $0.exposureMode = mode }
    }

    /// Answers both Sony search targets with a description on `httpPort`.
    static func sonyAnswers(httpPort: UInt16, host: String = "127.0.0.1") -> @Sendable (String) -> [[UInt8]] {
        { target in
            guard target == SSDP.digitalImaging || target == SSDP.scalarWebAPI else { return [] }
            return [LoopbackSSDPResponder.answer(searchTarget: target, location: "http://\(host):\(httpPort)/dd.xml")]
        }
    }

    static let describedRoutes: [String: DescriptionBehavior] = [
        "/dd.xml": .ok(sampleDeviceXML()), "/DigitalImagingDesc.xml": .ok(sampleImagingXML())
    ]

    @Test func findsDescribesAndConfirmsACamera() async throws {
        let cameras = try await CameraSimulator.withRunning(configuration: Self.simulator()) { simulator in
            try await LoopbackDescriptionServer.with(Self.describedRoutes) { http in
                try await LoopbackSSDPResponder.with(answers: Self.sonyAnswers(httpPort: http.port)) { ssdp in
                    let found = try await CameraDiscovery(
                        configuration: Self.configuration(ssdpPort: ssdp.target.port, ptpipPort: simulator.port)
                    ).run()
                    #expect(Set(ssdp.searches.all) == [SSDP.digitalImaging, SSDP.scalarWebAPI])
                    return found
                }
            }
        }
        try #require(cameras.count == 1)
        let camera = cameras[0]
        #expect(camera.host == "127.0.0.1")
        #expect(camera.source == .ssdp)
        #expect(Set(camera.services) == [SSDP.digitalImaging, SSDP.scalarWebAPI])
        #expect(camera.udn == sampleUDN)
        #expect(camera.friendlyName == "Studio A7 III")
        #expect(camera.model == "ILCE-7M3")
        #expect(camera.digitalImaging.pairingRequired == true)
        #expect(camera.digitalImaging.sshRequired == false)
        #expect(camera.descriptionProblem == nil)
        #expect(camera.readiness == .connected(exposureMode: "M", protocolVersion: "3.00", blockers: []))
        #expect(camera.isReady)
    }

    @Test func aCameraInAModeIsListedAsNotReadyWithWhatToDo() async throws {
        let cameras = try await CameraSimulator.withRunning(configuration: Self.simulator(.aperturePriority)) {
            simulator in
            try await LoopbackDescriptionServer.with(Self.describedRoutes) { http in
                try await LoopbackSSDPResponder.with(answers: Self.sonyAnswers(httpPort: http.port)) { ssdp in
                    try await CameraDiscovery(
                        configuration: Self.configuration(ssdpPort: ssdp.target.port, ptpipPort: simulator.port)
                    ).run()
                }
            }
        }
        try #require(cameras.count == 1)
        #expect(!cameras[0].isReady)
        #expect(cameras[0].problems.first?.contains("the mode dial is on A") == true)
    }

    @Test func garbageAnswersAreIgnored() async throws {
        let refusing = try LoopbackSocket(.tcp)
        let garbage: @Sendable (String) -> [[UInt8]] = { _ in
            [
                [0xFF, 0x00, 0x13],
                Array("HTTP/1.1 404 Not Found\r\nLOCATION: http://127.0.0.1:1/\r\nST: x\r\n\r\n".utf8),
                Array("NOTIFY * HTTP/1.1\r\n\r\n".utf8), [UInt8](repeating: 0x41, count: 9000)
            ]
        }
        let cameras = try await LoopbackSSDPResponder.with(answers: garbage) { ssdp in
            try await CameraDiscovery(
                configuration: Self.configuration(ssdpPort: ssdp.target.port, ptpipPort: refusing.port)
            ).run()
        }
        #expect(cameras.isEmpty)
    }

    @Test func noAnswerWithinTheWindowIsAnEmptyListWhenTheClockEndsTheWindow() async throws {
        let refusing = try LoopbackSocket(.tcp)
        let clock = TestClock()
        let cameras = try await LoopbackSSDPResponder.with(answers: { _ in [] }) { ssdp in
            let discovery = CameraDiscovery(
                configuration: Self.configuration(ssdpPort: ssdp.target.port, ptpipPort: refusing.port), clock: clock)
            let running = Task { try await discovery.run() }
            // The search is sent again a third of the way in, and the window ends at 1.5 s: nothing ends it sooner.
            await clock.waitForSleepers(1)
            #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .milliseconds(500))])
            clock.advance(by: .milliseconds(500))
            await clock.waitForSleepers(1)
            #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .milliseconds(1500))])
            clock.advance(by: .seconds(1))
            return try await running.value
        }
        #expect(cameras.isEmpty)
    }

    @Test func aClosedPTPIPPortIsListedAsNotReadyWithTheReason() async throws {
        let refusing = try LoopbackSocket(.tcp)
        let port = refusing.port
        let cameras = try await LoopbackDescriptionServer.with(Self.describedRoutes) { http in
            try await LoopbackSSDPResponder.with(answers: Self.sonyAnswers(httpPort: http.port)) { ssdp in
                try await CameraDiscovery(
                    configuration: Self.configuration(ssdpPort: ssdp.target.port, ptpipPort: port)
                ).run()
            }
        }
        try #require(cameras.count == 1)
        #expect(cameras[0].friendlyName == "Studio A7 III")
        #expect(!cameras[0].isReady)
        guard case let .unreachable(reason) = cameras[0].readiness else {
            Issue.record("expected an unreachable camera, got \(cameras[0].readiness)")
            return
        }
        #expect(reason.contains("refused the connection"))
    }

    @Test(.realTime(timeLimit: .seconds(60)), arguments: [DescriptionBehavior.stall, .oversized, .notFound])
    func anUnreadableDescriptionIsReportedAndTheHandshakeStillDecides(behavior: DescriptionBehavior) async throws {
        let started = ContinuousClock.now
        // Virtual time: only the stall needs its bound to pass, and it passes when the test says; the others fail
        // at once, with the clock never moved.
        let clock = TestClock()
        let cameras = try await CameraSimulator.withRunning(configuration: Self.simulator()) { simulator in
            try await LoopbackDescriptionServer.with(["/dd.xml": behavior]) { http in
                try await LoopbackSSDPResponder.with(answers: Self.sonyAnswers(httpPort: http.port)) { ssdp in
                    let configuration = Self.configuration(ssdpPort: ssdp.target.port, ptpipPort: simulator.port)
                    let discovery = CameraDiscovery(configuration: configuration, clock: clock)
                    guard case .stall = behavior else { return try await discovery.run() }
                    let running = Task { try await discovery.run() }
                    // The server has sent the headers and part of the body, then stalls; the fetch waits for the rest.
                    let stalled = try await eventually { http.answered.all.contains("/dd.xml") }
                    try #require(stalled, "the description server never answered")
                    await clock.waitForSleepers(2) // the whole fetch's bound and the receive's
                    clock.advance(by: configuration.descriptionTimeout)
                    return try await running.value
                }
            }
        }
        try #require(cameras.count == 1)
        let problem = try #require(cameras[0].descriptionProblem)
        #expect(problem.hasPrefix("cannot read the device description"))
        // Each way of failing is reported as itself: the stall as the description's bound, not as some later error.
        let cause: String
        switch behavior {
        case .stall: cause = "did not answer in time"
        case .oversized: cause = "at most"
        default: cause = "404"
        }
        #expect(problem.contains(cause), "\(problem)")
        #expect(cameras[0].friendlyName == nil)
        // The model then comes from the PTP/IP session itself.
        #expect(cameras[0].model == "ILCE-7M3")
        #expect(cameras[0].isReady)
        // Not a hang: the search ends with the camera's answers, the description's bound passes on the test clock,
        // and the handshake with the real simulator needs no waiting; the test's time limit ends a hang.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    // The time limit turns a search that ended too soon (and so never sleeps again) into a failure, not a hang.
    @Test(.realTime(timeLimit: .seconds(60)))
    func theSearchEndsOnceTheExpectedAnswersArrivedAndNoSooner() async throws {
        let refusing = try LoopbackSocket(.tcp)
        // The description is announced at the refusing port too, so the confirmation fails at once.
        let answers = Self.sonyAnswers(httpPort: refusing.port)
        try await LoopbackSSDPResponder.with(answers: answers) { ssdp in
            // The camera's two answers are all that is expected: the search ends with them, the clock never moved.
            let clock = TestClock()
            let configuration = Self.configuration(ssdpPort: ssdp.target.port, ptpipPort: refusing.port)
            let found = try await CameraDiscovery(configuration: configuration, clock: clock).run()
            try #require(found.count == 1)
            #expect(Set(found[0].services) == [SSDP.digitalImaging, SSDP.scalarWebAPI])
            #expect(clock.now == TestClock.Instant(offset: .zero))
            #expect(ssdp.searches.all.count == 2)
        }
        // One more than the camera's two: from the re-sent search on, it also answers as a root device after its
        // DigitalImaging answer, and that third answer, not the repeated DigitalImaging one before it, ends the search.
        let asked = LockedLog<String>()
        let answersThenMore: @Sendable (String) -> [[UInt8]] = { target in
            asked.append(target)
            guard asked.all.count > 2, target == SSDP.digitalImaging else { return answers(target) }
            let location = "http://127.0.0.1:\(refusing.port)/dd.xml"
            return answers(target) + [LoopbackSSDPResponder.answer(searchTarget: "upnp:rootdevice", location: location)]
        }
        try await LoopbackSSDPResponder.with(answers: answersThenMore) { ssdp in
            let clock = TestClock()
            var configuration = Self.configuration(ssdpPort: ssdp.target.port, ptpipPort: refusing.port)
            configuration.expectedAnswers = 3
            let running = Task { try await CameraDiscovery(configuration: configuration, clock: clock).run() }
            // The first two answers leave the window open: only the clock re-sends the search.
            await clock.waitForSleepers(1)
            #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .milliseconds(500))])
            clock.advance(by: .milliseconds(500))
            let found = try await running.value
            try #require(found.count == 1)
            #expect(Set(found[0].services) == [SSDP.digitalImaging, SSDP.scalarWebAPI, "upnp:rootdevice"])
            #expect(clock.now == TestClock.Instant(offset: .milliseconds(500)))
        }
    }

    @Test func aDescriptionAnnouncedAtAnotherAddressIsNotFetched() async throws {
        // 192.0.2.1 (TEST-NET-1) is only written into the answer, never contacted.
        let cameras = try await CameraSimulator.withRunning(configuration: Self.simulator()) { simulator in
            try await LoopbackSSDPResponder.with(answers: Self.sonyAnswers(httpPort: 80, host: "192.0.2.1")) { ssdp in
                try await CameraDiscovery(
                    configuration: Self.configuration(ssdpPort: ssdp.target.port, ptpipPort: simulator.port)
                ).run()
            }
        }
        try #require(cameras.count == 1)
        #expect(cameras[0].host == "127.0.0.1")
        #expect(cameras[0].descriptionProblem?.contains("not fetched") == true)
        #expect(cameras[0].isReady)
    }

    @Test func onTheCamerasAccessPointNetworkItsDefaultAddressIsTried() async throws {
        let onAccessPoint = [
            HostInterfaceAddress(interface: "wlan0", address: "192.168.122.23", netmask: "255.255.255.0")
        ]
        let cameras = try await CameraSimulator.withRunning(configuration: Self.simulator()) { simulator in
            // No SSDP target at all: only the access-point default (redirected to 127.0.0.1 here) is tried.
            try await CameraDiscovery(
                configuration: Self.configuration(ssdpPort: nil, ptpipPort: simulator.port, hosts: onAccessPoint)
            ).run()
        }
        try #require(cameras.count == 1)
        #expect(cameras[0].source == .accessPointDefault)
        #expect(cameras[0].isReady)
        #expect(cameras[0].model == "ILCE-7M3")

        let refusing = try LoopbackSocket(.tcp)
        let elsewhere = [HostInterfaceAddress(interface: "eth0", address: "10.1.2.3", netmask: "255.255.255.0")]
        let none = try await CameraDiscovery(
            configuration: Self.configuration(ssdpPort: nil, ptpipPort: refusing.port, hosts: elsewhere)
        ).run()
        #expect(none.isEmpty)
    }

    @Test func hostAddressesInTheAccessPointNetworkAreRecognised() {
        let address = HostInterfaceAddress(interface: "wlan0", address: "192.168.122.23", netmask: "255.255.255.0")
        #expect(address.isIn(network: "192.168.122.0", prefixLength: 24))
        #expect(!address.isIn(network: "192.168.123.0", prefixLength: 24))
        #expect(
            !HostInterfaceAddress(interface: "x", address: "192.168.1.5", netmask: "").isIn(
                network: "192.168.122.0", prefixLength: 24))
    }
}
