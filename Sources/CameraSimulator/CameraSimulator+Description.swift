import HTTP
import PTPIP

// MARK: - The body's UPnP side: SSDP answers and the descriptions over HTTP

/// Where a simulated body announces and serves its descriptions (`--ssdp-port`, `--description-port`).
///
/// A real body's UPnP port is not always 80 (64321 on an ILCE-7M5, issue 33), so the client must take the
/// port from the SSDP answer's LOCATION; the simulator serves on whatever port it is given (0: a free one).
package final class SimulatorDescriptionService: Sendable {
    /// The HTTP listener of `dd.xml` and `DigitalImagingDesc.xml`.
    private let listener: TCPListener
    /// The UDP socket SSDP M-SEARCHes are answered on, when asked for.
    private let ssdp: UDPSocket?
    /// The descriptions served.
    private let device: [UInt8]
    private let imaging: [UInt8]
    /// The host the service is bound to.
    package let host: String

    /// The TCP port the descriptions are served on.
    package var descriptionPort: UInt16 { listener.port }
    /// The UDP port SSDP searches are answered on, when they are.
    package var ssdpPort: UInt16? { ssdp?.localAddress.port }
    /// The device description's URL, as the SSDP answer's LOCATION gives it.
    package var location: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(descriptionPort)\(SimulatorDescription.devicePath)"
    }

    /// Binds both sockets at once (so the ports are known); serve with `run()`.
    package init(
        configuration: SimulatorConfiguration, clock: any Clock<Duration> = ContinuousClock()
    )
        throws(SimulatorError)
    {
        let host = configuration.host
        let port = configuration.descriptionPort ?? 0
        do {
            listener = try TCPListener.bind(host: host, port: port, clock: clock)
        } catch {
            throw .cannotListen(host: host, port: port, reason: "\(error)")
        }
        do {
            ssdp = try configuration.ssdpPort.map { port in try UDPSocket.bind(host: host, port: port, clock: clock) }
        } catch {
            listener.close()
            throw .cannotListen(host: host, port: configuration.ssdpPort ?? 0, reason: "\(error)")
        }
        self.host = host
        device = Array(SimulatorDescription.deviceXML().utf8)
        imaging = Array(SimulatorDescription.imagingXML(configuration: configuration).utf8)
    }

    /// Serves until the calling task is cancelled; then both sockets are closed.
    package func run() async {
        await withDiscardingTaskGroup { group in
            if let ssdp {
                group.addTask { await self.answerSearches(on: ssdp) }
            }
            group.addTask {
                await withTaskCancellationHandler {
                    await withDiscardingTaskGroup { connections in
                        while let transport = try? await self.listener.accept() {
                            connections.addTask { await self.serve(transport) }
                        }
                    }
                } onCancel: {
                    self.close()
                }
            }
        }
        close()
    }

    /// Closes both sockets; `run()` then ends. Idempotent.
    package func close() {
        listener.close()
        ssdp?.close()
    }

    /// Answers every M-SEARCH for DigitalImaging (or `ssdp:all`) with the description's LOCATION.
    private func answerSearches(on socket: UDPSocket) async {
        await withTaskCancellationHandler {
            while let datagram = try? await socket.receive(timeout: nil) {
                let text = String(decoding: datagram.bytes, as: UTF8.self)
                guard let answer = SimulatorDescription.searchAnswer(to: text, location: location) else { continue }
                try? await socket.send(answer, to: datagram.sender)
            }
        } onCancel: {
            socket.close()
        }
    }

    /// One HTTP connection: one GET, one answer, closed.
    private func serve(_ transport: TCPTransport) async {
        defer { transport.close() }
        var parser = HTTPRequestParser(limits: HTTPLimits(maximumBodyBytes: 0))
        do {
            while true {
                let chunk = try await transport.receive(upTo: 4096, timeout: .seconds(5))
                if chunk.isEmpty { return }
                parser.append(chunk)
                guard let request = try parser.nextRequest() else { continue }
                let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
                let body: [UInt8]? =
                    switch (request.method, path) {
                    case ("GET", SimulatorDescription.devicePath): device
                    case ("GET", SimulatorDescription.imagingPath): imaging
                    default: nil
                    }
                let response = HTTPResponse(
                    status: body == nil ? 404 : 200, reason: body == nil ? "Not Found" : "OK",
                    headers: HTTPHeaders([("Content-Type", "text/xml; charset=\"utf-8\"")]), body: body ?? [],
                    keepsAlive: false)
                try await transport.send([response.encoded()], timeout: .seconds(5))
                return
            }
        } catch {
            return
        }
    }
}
