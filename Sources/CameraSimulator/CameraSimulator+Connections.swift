import PTPIP
import PTPIPCodec
import SonyProtocol
import Timing

// MARK: - Serving one TCP connection (runs outside the actor; every socket call is awaited)

extension CameraSimulator {
    /// The camera's GUID in Init Command Ack (fixed, so clients that pair remember one camera).
    static let guid = PTPIPGUID(bytes: [
        0x53, 0x4F, 0x4E, 0x59, 0x2D, 0x53, 0x49, 0x4D, 0x00, 0x00, 0x37, 0x4D, 0x33, 0x00, 0x00, 0x01
    ])!
    /// How long a first packet may take after the TCP connect.
    static let handshakeTimeout: Duration = .seconds(10)
    /// How long a refused client's predecessor gets to finish leaving.
    static let leavingGrace: Duration = .milliseconds(300)
    /// Largest data packet payload; smaller when a bandwidth limit paces the data phase.
    static let dataChunkSize = 1 << 20

    /// Serves one accepted connection: a command connection (a whole session) or an event connection.
    nonisolated func serve(_ transport: TCPTransport) async {
        defer { transport.close() }
        var reader = PacketReader(transport)
        guard let first = try? await reader.next(timeout: Self.handshakeTimeout) else { return }
        switch first {
        case let .initCommandRequest(request):
            await serveCommandConnection(transport, reader: reader, request: request)
        case let .initEventRequest(number):
            await serveEventConnection(transport, reader: reader, number: number)
        case .probeRequest:
            try? await transport.send(Packet.probeResponse.encoded(), timeout: Self.handshakeTimeout)
        default:
            return
        }
    }

    private nonisolated func serveCommandConnection(
        _ transport: TCPTransport, reader: PacketReader, request: InitCommandRequest
    ) async {
        switch await verdict(onInitCommandFrom: request.guid) {
        case .proceed:
            break
        case .closeWithoutAnswer:
            // A body still holding a session dropped without CloseSession: EOF until it is power-cycled.
            return
        case .refuse:
            // The photographer did not press OK at "Allow pairing with the device?" (reference p. 41).
            try? await transport.send(
                Packet.initFail(reason: .rejectedInitiator).encoded(), timeout: Self.handshakeTimeout)
            return
        case .askToPair:
            // The body shows "Allow pairing with the device? '<Friendly Name>'"; the ack waits for the answer.
            guard await waitForPairingAnswer(from: request) else {
                try? await transport.send(
                    Packet.initFail(reason: .rejectedInitiator).encoded(), timeout: Self.handshakeTimeout)
                return
            }
        }
        var admitted = await admit(command: transport)
        var waited: Duration = .zero
        while admitted == nil, waited < Self.leavingGrace, await isBusy {
            try? await clock.sleep(for: .milliseconds(25))
            waited += .milliseconds(25)
            admitted = await admit(command: transport)
        }
        guard let (number, events, wake) = admitted else {
            // One client at a time: a second one is told the camera is busy.
            try? await transport.send(Packet.initFail(reason: .busy).encoded(), timeout: Self.handshakeTimeout)
            return
        }
        let ack = InitCommandAck(
            connectionNumber: number, guid: Self.guid, friendlyName: SimulatorDatasets.modelName,
            protocolVersion: PTPIPLimits.protocolVersion)
        do {
            try await transport.send(Packet.initCommandAck(ack).encoded(), timeout: Self.handshakeTimeout)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await self.forwardEvents(events, number: number) }
                group.addTask { try await self.runTimers(number: number, wake: wake) }
                defer { group.cancelAll() }
                var reader = reader
                try await self.commandLoop(transport, reader: &reader, number: number)
            }
        } catch {}
        await endSession(number: number)
    }

    private nonisolated func serveEventConnection(
        _ transport: TCPTransport, reader: PacketReader, number: UInt32
    ) async {
        guard await attachEvent(transport, number: number) else {
            try? await transport.send(Packet.initFail(reason: .unspecified).encoded(), timeout: Self.handshakeTimeout)
            return
        }
        do {
            try await transport.send(Packet.initEventAck.encoded(), timeout: Self.handshakeTimeout)
            var reader = reader
            // Nothing is expected from the host here; EOF (or garbage) ends the whole session, as on a body.
            while try await reader.next() != nil {}
        } catch {}
        await endSession(number: number)
    }

    /// Sends the camera's events in order on the event connection of session `number`.
    private nonisolated func forwardEvents(_ events: AsyncStream<PTPEvent>, number: UInt32) async {
        for await event in events {
            guard let transport = await eventTransport(number: number) else {
                await eventForwarded(number: number, sent: false)
                continue
            }
            do {
                try await transport.send(Packet.event(event).encoded(), timeout: .seconds(5))
                await eventForwarded(number: number, sent: true)
            } catch {
                await eventForwarded(number: number, sent: false)
                return
            }
        }
    }

    /// Lets the camera's clock run (exposures end, images become ready, steps apply) while a client is connected.
    ///
    /// Sleeps until the camera's next deadline (`SimulatedCamera.nextDeadline`: an exposure or dark frame
    /// ending, an image ready, a notch step applying, focus settling, the idle drop), or until a request
    /// rings `wake` (a request may move the deadline); with no deadline it waits for a request alone. So on
    /// a test clock the body sleeps exactly until its next event, and a test can move time straight there.
    private nonisolated func runTimers(number: UInt32, wake: Doorbell) async throws {
        while !Task.isCancelled {
            let generation = wake.generation
            guard case let .sleep(deadline) = await planSleep(number: number, generation: generation) else { return }
            if let deadline, deadline <= started.elapsed {
                await tick(number: number)
                continue
            }
            // Whichever comes first, the deadline or a request, ends the wait. The sleep is until an instant,
            // not for a span: time that moved on meanwhile (a test clock) does not push the deadline back.
            await withTaskGroup(of: Void.self) { group in
                if let deadline { group.addTask { try? await self.sleep(deadline) } }
                group.addTask { await wake.wait(after: generation) }
                await group.next()
                group.cancelAll()
            }
            try Task.checkCancellation()
            await tick(number: number)
        }
    }

    private nonisolated func commandLoop(
        _ transport: TCPTransport, reader: inout PacketReader, number: UInt32
    ) async throws {
        while let packet = try await reader.next() {
            switch packet {
            case let .operationRequest(request):
                var dataOut: [UInt8] = []
                if request.dataPhase == .dataOut || Self.takesDataOut(request.code) {
                    dataOut = try await reader.dataPhase(of: request.transactionID)
                }
                let arrived = started.elapsed
                let (action, index, link) = await handle(request, dataOut: dataOut, number: number)
                switch action {
                case let .reply(reply):
                    if link.roundTrip > .zero { try await clock.sleep(for: link.roundTrip) }
                    // Counted and logged before the answer leaves: a client that has its answer finds it in
                    // the count and the log (recording after the send raced with a client reading them).
                    await record(request, arrived: arrived, index: index, reply: reply, dataOut: dataOut.count)
                    try await send(reply, to: request, on: transport, bandwidth: link.bandwidth)
                case .drop:
                    await record(request, arrived: arrived, index: index, reply: nil, dataOut: dataOut.count)
                    return
                case .hang:
                    await record(request, arrived: arrived, index: index, reply: nil, dataOut: dataOut.count)
                    // Read and ignore everything until the client gives up and closes.
                    while try await reader.next() != nil {}
                    return
                }
            case .probeRequest:
                try await transport.send(Packet.probeResponse.encoded(), timeout: .seconds(5))
            default:
                throw PTPIPError.protocolViolation(
                    expected: "an Operation Request", received: "packet type \(packet.type)")
            }
        }
    }

    /// Operations whose data phase flows host to camera, whatever the request's data-phase field says.
    static func takesDataOut(_ code: OperationCode) -> Bool {
        code == .sdioSetExtDevicePropValue || code == .sdioControlDevice
    }

    /// Sends the data-in phase (if any) and the response; large phases go out chunk by chunk.
    private nonisolated func send(
        _ reply: CameraReply, to request: OperationRequest, on transport: TCPTransport, bandwidth: Int?
    ) async throws {
        let id = request.transactionID
        let response = Packet.operationResponse(
            OperationResponse(code: reply.code, transactionID: id, parameters: reply.parameters))
        guard let data = reply.data else {
            try await transport.send(response.encoded(), timeout: .seconds(30))
            return
        }
        let start = Packet.startData(transactionID: id, totalLength: UInt64(data.count)).encoded()
        var chunkSize = Self.dataChunkSize
        if let bandwidth { chunkSize = max(1024, min(chunkSize, bandwidth / 20)) }
        if data.count <= chunkSize && bandwidth == nil {
            // Small phases: Start_Data, End_Data with the whole payload, and the response in one write.
            let end = Packet.endData(transactionID: id, payload: data.allBytes[...]).encoded()
            try await transport.send([start, end, response.encoded()], timeout: .seconds(30))
            return
        }
        try await transport.send(start, timeout: .seconds(30))
        var offset = 0
        repeat {
            let chunk = data.chunk(from: offset, length: chunkSize)
            offset += chunk.count
            let packet =
                offset >= data.count
                ? Packet.endData(transactionID: id, payload: chunk[...])
                : Packet.data(transactionID: id, payload: chunk[...])
            try await transport.send(packet.encoded(), timeout: .seconds(30))
            if let bandwidth {
                try await clock.sleep(for: .nanoseconds(Int64(chunk.count) * 1_000_000_000 / Int64(bandwidth)))
            }
        } while offset < data.count
        try await transport.send(response.encoded(), timeout: .seconds(30))
    }
}
