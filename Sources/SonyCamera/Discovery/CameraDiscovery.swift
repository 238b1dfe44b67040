import PTPIP
import Posix
import Synchronization

/// Where and how long discovery searches, and how it confirms what it finds.
///
/// The defaults search the real network (multicast out of every interface); tests set `ssdpTargets` to a
/// loopback responder and `hostAddresses` to an empty list so nothing leaves the machine.
package struct DiscoveryConfiguration: Sendable {
    /// The SSDP search targets asked for.
    package var searchTargets = [SSDP.digitalImaging, SSDP.scalarWebAPI]
    /// Unicast SSDP targets (testing); nil sends to 239.255.255.250:1900 out of each multicast interface.
    package var ssdpTargets: [SocketAddress]?
    /// This host's IPv4 addresses; nil reads them with `getifaddrs`.
    package var hostAddresses: [HostInterfaceAddress]?
    /// How long answers are collected.
    package var searchTime: Duration = .seconds(5)
    /// Ends the search as soon as this many distinct answers (one per answering address and search target) have
    /// arrived, instead of waiting out `searchTime`; nil, the default, always waits the whole window, since how
    /// many cameras a real network holds is not known. For callers that know their peers (the tests' loopback
    /// responders), so a search that has heard everything does not wait for nothing.
    package var expectedAnswers: Int?
    /// MX: how long cameras may wait before answering (seconds, 1...5).
    package var maxWait = 2
    /// The PTP/IP port each candidate is confirmed on.
    package var ptpipPort: UInt16 = PTPIPClient.defaultPort
    /// Who this host is in the handshake.
    package var identity: HostIdentity
    /// Bounds of each description fetch.
    package var descriptionTimeout: Duration = .seconds(3)
    /// Largest description accepted.
    package var descriptionLimit = 64 * 1024
    /// Longest connect, Init handshake and start-up operation of the confirmation.
    package var handshakeTimeout: Duration = .seconds(10)
    /// Sony's access-point network: when this host has an address in it, its camera address is tried too.
    package var accessPointNetwork = (network: "192.168.122.0", prefixLength: 24)
    /// The camera's address on its own access point.
    package var accessPointCamera = "192.168.122.1"

    /// The real-network defaults with this host's `identity`.
    package init(identity: HostIdentity) {
        self.identity = identity
    }
}

/// Finds Sony cameras: SSDP M-SEARCH, device descriptions over HTTP, then a PTP/IP handshake with each.
///
/// Every candidate is confirmed with a real session (Sony's start-up included), so "ready" means hdrshoot
/// could shoot now. A candidate that cannot be confirmed is still listed, with the reason. The search
/// window and every fetch are bounded on the injected clock; nothing is left running when `run()` returns.
package struct CameraDiscovery: Sendable {
    /// What and where to search.
    package var configuration: DiscoveryConfiguration
    /// The clock of the search window, the fetch bounds and the camera's start-up polls.
    package var clock: any Clock<Duration>

    /// A discovery run with `configuration`.
    package init(configuration: DiscoveryConfiguration, clock: any Clock<Duration> = ContinuousClock()) {
        self.configuration = configuration
        self.clock = clock
    }

    /// Searches, describes and confirms; returns every camera found, sorted by address.
    ///
    /// Throws (`PTPIPError`) only when no search socket could be opened at all.
    package func run() async throws -> [DiscoveredCamera] {
        let hostAddresses: [HostInterfaceAddress]
        if let given = configuration.hostAddresses {
            hostAddresses = given
        } else {
            do throws(Errno) {
                hostAddresses = try HostInterfaceAddress.current()
            } catch {
                throw PTPIPError.systemCallFailed(call: "getifaddrs", errno: error)
            }
        }
        let answers = try await search(hostAddresses: hostAddresses)
        var candidates = Self.candidates(from: answers, ptpipPort: configuration.ptpipPort)
        let network = configuration.accessPointNetwork
        let onAccessPoint = hostAddresses.contains {
            $0.isIn(network: network.network, prefixLength: network.prefixLength)
                && $0.address != configuration.accessPointCamera
        }
        if onAccessPoint, !candidates.contains(where: { $0.camera.host == configuration.accessPointCamera }) {
            let camera = DiscoveredCamera(
                host: configuration.accessPointCamera, ptpipPort: configuration.ptpipPort, source: .accessPointDefault)
            candidates.append(Candidate(camera: camera, location: nil))
        }
        let confirmed = await withTaskGroup(of: DiscoveredCamera.self) { group in
            for candidate in candidates {
                group.addTask { await confirm(candidate) }
            }
            var found: [DiscoveredCamera] = []
            for await camera in group { found.append(camera) }
            return found
        }
        return confirmed.sorted { ($0.host, $0.ptpipPort) < ($1.host, $1.ptpipPort) }
    }

    // MARK: - Search

    /// One parsed SSDP answer and where it came from.
    struct Answer: Sendable, Hashable {
        var response: SSDPResponse
        var sender: String
    }

    /// Sends the M-SEARCHes and collects the answers for `searchTime` (re-sending once a third of the way in,
    /// since UDP over Wi-Fi loses datagrams), or until `expectedAnswers` distinct ones arrived.
    func search(hostAddresses: [HostInterfaceAddress]) async throws -> [Answer] {
        let plan = try searchSockets(hostAddresses: hostAddresses)
        guard !plan.isEmpty else { return [] }
        let closeAll: @Sendable () -> Void = { for (socket, _) in plan { socket.close() } }
        defer { closeAll() }
        let messages = plan.flatMap { socket, target in
            configuration.searchTargets.map {
                (
                    socket, target,
                    SSDP.search(for: $0, host: target.host, port: target.port, maxWait: configuration.maxWait)
                )
            }
        }
        let sendAll: @Sendable () async -> Void = {
            for (socket, target, message) in messages {
                // A search that cannot be sent out of one interface must not stop the others.
                try? await socket.send(message, to: target)
            }
        }
        let tally = AnswerTally(expected: configuration.expectedAnswers)
        await sendAll()
        let searchTime = configuration.searchTime
        let clock = clock
        return await withTaskGroup(of: [Answer]?.self) { group in
            for (socket, _) in plan {
                group.addTask {
                    // The last expected answer ends the search: closing the sockets ends every collector.
                    await Self.collect(from: socket) { if tally.count($0) { closeAll() } }
                }
            }
            group.addTask {
                try? await clock.sleep(for: searchTime / 3)
                if !Task.isCancelled { await sendAll() }
                try? await clock.sleep(for: searchTime - searchTime / 3)
                // The window is over: closing the sockets ends every collector.
                closeAll()
                return nil
            }
            var answers: [Answer] = []
            var collecting = plan.count
            while collecting > 0, let batch = await group.next() {
                guard let batch else { continue }
                answers += batch
                collecting -= 1
            }
            // Every collector has ended; when the expected answers ended them, the window's timer is still waiting.
            group.cancelAll()
            return answers
        }
    }

    /// The distinct answers of a search, counted towards `DiscoveryConfiguration.expectedAnswers`.
    final class AnswerTally: Sendable {
        /// The answers that end the search; nil for none.
        let expected: Int?
        private let heard = Mutex<Set<[String]>>([])

        init(expected: Int?) {
            self.expected = expected
        }

        /// Counts `answer` (once per address and search target); true once the expected number has arrived.
        func count(_ answer: Answer) -> Bool {
            guard let expected else { return false }
            return heard.withLock { heard in
                heard.insert([answer.sender, answer.response.searchTarget])
                return heard.count >= expected
            }
        }
    }

    /// The sockets to search from and where each sends.
    private func searchSockets(hostAddresses: [HostInterfaceAddress]) throws -> [(UDPSocket, SocketAddress)] {
        if let targets = configuration.ssdpTargets {
            var sockets: [(UDPSocket, SocketAddress)] = []
            for target in targets {
                sockets.append(
                    (try UDPSocket.bind(host: target.host.contains(":") ? "::" : "0.0.0.0", clock: clock), target))
            }
            return sockets
        }
        guard let group = SocketAddress(numericHost: SSDP.multicastHost, port: SSDP.port) else { return [] }
        var sockets: [(UDPSocket, SocketAddress)] = []
        var lastError: (any Error)?
        for address in hostAddresses where address.canMulticast && !address.isLoopback {
            do {
                let socket = try UDPSocket.bind(host: address.address, clock: clock)
                try socket.setMulticastInterface(address.address)
                sockets.append((socket, group))
            } catch {
                lastError = error
            }
        }
        if sockets.isEmpty, let lastError { throw lastError }
        return sockets
    }

    /// Every SSDP answer arriving on `socket` until it is closed, each also handed to `heard` as it comes;
    /// anything else is ignored.
    static func collect(from socket: UDPSocket, heard: @Sendable (Answer) -> Void = { _ in }) async -> [Answer] {
        var answers: [Answer] = []
        while let datagram = try? await socket.receive(timeout: nil) {
            if let response = SSDPResponse(datagram: datagram.bytes) {
                let answer = Answer(response: response, sender: datagram.sender.host)
                answers.append(answer)
                heard(answer)
            }
        }
        return answers
    }

    // MARK: - Candidates

    /// A camera to confirm and the description URL it announced.
    struct Candidate: Sendable {
        var camera: DiscoveredCamera
        var location: String?
    }

    /// The answers grouped into one candidate per UDN (from the USN; the LOCATION when there is none),
    /// then per address.
    static func candidates(from answers: [Answer], ptpipPort: UInt16) -> [Candidate] {
        var byHost: [String: Candidate] = [:]
        var order: [String] = []
        for answer in answers {
            let usn = answer.response.uniqueServiceName
            let udn = usn.hasPrefix("uuid:") ? Self.udn(ofUSN: usn) : nil
            if var existing = byHost[answer.sender] {
                if !existing.camera.services.contains(answer.response.searchTarget) {
                    existing.camera.services.append(answer.response.searchTarget)
                }
                existing.camera.udn = existing.camera.udn ?? udn
                // The DigitalImaging answer's description is the one that leads to DigitalImagingDesc.xml.
                if answer.response.searchTarget == SSDP.digitalImaging { existing.location = answer.response.location }
                byHost[answer.sender] = existing
            } else {
                let camera = DiscoveredCamera(
                    host: answer.sender, ptpipPort: ptpipPort, source: .ssdp, services: [answer.response.searchTarget],
                    udn: udn)
                byHost[answer.sender] = Candidate(camera: camera, location: answer.response.location)
                order.append(answer.sender)
            }
        }
        return order.compactMap { byHost[$0] }
    }

    /// `uuid:...` from `uuid:...::urn:...`.
    static func udn(ofUSN usn: String) -> String {
        guard let range = usn.range(of: "::") else { return usn }
        return String(usn[..<range.lowerBound])
    }

    // MARK: - Confirmation

    /// Reads the candidate's descriptions, then opens a PTP/IP session to it.
    func confirm(_ candidate: Candidate) async -> DiscoveredCamera {
        var camera = candidate.camera
        if let location = candidate.location {
            await describe(&camera, location: location)
        }
        await handshake(&camera)
        return camera
    }

    /// Fetches the device description and DigitalImagingDesc.xml, from the answering address only.
    func describe(_ camera: inout DiscoveredCamera, location: String) async {
        guard let url = HTTPURL(location) else {
            camera.descriptionProblem = "the camera announced an unusable description address '\(location.prefix(80))'"
            return
        }
        // Never follow an answer to another machine: SSDP answers are unauthenticated.
        guard url.host == camera.host else {
            camera.descriptionProblem =
                "the description is announced at \(url.host), not at the answering address; not fetched"
            return
        }
        let fetcher = DescriptionFetcher(
            timeout: configuration.descriptionTimeout, limit: configuration.descriptionLimit, clock: clock)
        do {
            guard let description = DeviceDescription(xml: try await fetcher.fetch(url)) else {
                camera.descriptionProblem = "the device description at \(url) has no UDN"
                return
            }
            camera.udn = description.udn
            camera.friendlyName = description.friendlyName.isEmpty ? nil : description.friendlyName
            camera.digitalImaging = description.digitalImaging
            // The Camera Remote API of an older body: never followed to another machine either.
            if let api = description.scalarWebAPICameraURL, let apiURL = HTTPURL(api), apiURL.host == camera.host {
                camera.remoteAPIURL = api
            }
            if !description.modelName.isEmpty, description.modelName != "SonyImagingDevice" {
                camera.model = description.modelName
            }
            if let path = description.digitalImagingDescriptionPath, let detail = url.resolving(path),
                detail.host == camera.host
            {
                let imaging = DigitalImagingDescription(xml: try await fetcher.fetch(detail))
                camera.digitalImaging = imaging.merged(with: description.digitalImaging)
            }
            camera.model = camera.digitalImaging.modelName ?? camera.model
        } catch {
            camera.descriptionProblem = "cannot read the device description: \(error)"
        }
    }

    /// Opens a session (Sony's start-up included), reads what blocks a shoot, and closes it.
    func handshake(_ camera: inout DiscoveredCamera) async {
        var settings = SonyCameraConfiguration(
            host: camera.host, port: camera.ptpipPort, identity: configuration.identity)
        settings.connectTimeout = configuration.handshakeTimeout
        settings.operationTimeout = configuration.handshakeTimeout
        settings.propertiesReadyTimeout = configuration.handshakeTimeout
        settings.disconnectTimeout = .seconds(1)
        let session = SonyCamera(configuration: settings, clock: clock)
        do {
            try await session.connect()
            let info = try await session.info()
            camera.model = camera.model ?? (info.model.isEmpty ? nil : info.model)
            camera.readiness = .connected(
                exposureMode: info.exposureMode, protocolVersion: info.protocolVersion, blockers: info.blockers)
        } catch {
            camera.readiness = .unreachable(reason: "\(error)")
        }
        await session.disconnect()
    }
}

// MARK: - One known address

extension CameraDiscovery {
    /// What one address (`--camera 192.168.122.1`) says about itself, without a session: a unicast SSDP
    /// M-SEARCH for DigitalImaging to `host:ssdpPort`, then the descriptions at the answer's LOCATION (its port,
    /// whatever it is: not always 80). Nil when nothing answered within `searchTime` (an older body, a body
    /// whose UPnP is off, or no camera at all); the camera's `descriptionProblem` says when the description
    /// could not be read.
    package func describe(host: String, ssdpPort: UInt16 = SSDP.port) async -> DiscoveredCamera? {
        guard let target = SocketAddress(numericHost: host, port: ssdpPort) else { return nil }
        var settings = configuration
        settings.ssdpTargets = [target]
        settings.hostAddresses = []
        settings.searchTargets = [SSDP.digitalImaging]
        settings.expectedAnswers = 1
        settings.maxWait = 1
        let search = CameraDiscovery(configuration: settings, clock: clock)
        guard let answers = try? await search.search(hostAddresses: []) else { return nil }
        let candidates = Self.candidates(from: answers, ptpipPort: configuration.ptpipPort)
        guard let candidate = candidates.first(where: { $0.camera.host == host }) else { return nil }
        var camera = candidate.camera
        if let location = candidate.location {
            await search.describe(&camera, location: location)
        } else {
            camera.descriptionProblem = "the camera's SSDP answer names no description"
        }
        return camera
    }
}
