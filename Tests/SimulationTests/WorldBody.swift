import CameraSimulator
import PTPIP
import PTPIPCodec
import SonyProtocol
import Synchronization
import TestSupport

/// The network faults the seed drew, consulted at every operation the body receives.
struct NetworkFaults: Sendable {
    /// Chance that an operation's reply is cut: the link drops before it (`dropBefore`) or in the middle of it.
    var dropChance: Double
    /// Chance that an operation (not the first of a session) is answered Device Busy without reaching the body.
    var busyChance: Double
    /// No fault after this many operations: the world lets the shoot finish.
    var quietAfterOperation: Int
    /// A scripted fault for focused tests (seeds draw none): the next this many image transfers (GetObject,
    /// GetPartialObject) are cut in the middle of their data.
    var cutTransfers = 0
    /// Chance that, at an operation, the body loses the oldest image waiting in its buffer (drawn from a stream of
    /// its own: `WorldBody.vanishRandom`, so days without it draw what they drew before).
    var vanishChance = 0.0
    /// A scripted fault for focused tests: an image whose transfer was cut (it stays in the body) is then lost by
    /// the body before it is fetched again.
    var loseCutImages = false
    /// Faults drawn but not injected, by their ordinal (0 for the first fault the body draws, in draw order): the
    /// minimizer's knob (`FaultMinimizer`). The draws are still made, so the others keep their values.
    var skipped: Set<Int> = []
}

/// The real pure `SimulatedCamera` behind in-memory connections: what `CameraSimulator` does over TCP, done
/// synchronously in the client's `send`, so the world decides every byte and every drop.
final class WorldBody: Sendable {
    struct State {
        var camera: SimulatedCamera
        var random: SeededRandom
        /// The vanished-image fault's own draws.
        var vanishRandom: SeededRandom
        /// Images the body lost from its buffer (each lets its frame fire once more).
        var vanished = 0
        /// Faults drawn so far (injected or skipped).
        var drawn = 0
        var faults: NetworkFaults
        var nextConnection = 1
        var transports: [Int: MemoryTransport] = [:]
        var framers: [Int: PacketFramer] = [:]
        /// The session: its number, command and event connections.
        var session: (number: UInt32, command: Int, event: Int?)?
        var nextSessionNumber: UInt32 = 1
        /// A data-out phase being received on the command connection.
        var dataOut: (request: OperationRequest, receiver: DataPhaseReceiver, payload: [UInt8])?
        var operations = 0
        /// The faults the world injected (busy answers, drops before a request, drops mid-reply).
        var faultsInjected = 0
        var timeline: [String] = []
        var now: Duration = .zero
        /// Shutter-button operations the body received while its card was full (since the world last asked).
        var pressesOnFullCard = 0
    }

    let state: Mutex<State>
    let clock: TestClock

    init(
        configuration: SimulatorConfiguration, random: SeededRandom, faults: NetworkFaults, clock: TestClock,
        vanishRandom: SeededRandom = SeededRandom(seed: 0)
    ) throws {
        self.clock = clock
        let datasets = try SimulatorDatasets(configuration: configuration)
        state = Mutex(
            State(
                camera: SimulatedCamera(configuration: configuration, datasets: datasets), random: random,
                vanishRandom: vanishRandom, faults: faults))
    }

    static let guid = PTPIPGUID(bytes: [
        0x53, 0x49, 0x4D, 0x2D, 0x57, 0x4F, 0x52, 0x4C, 0x44, 0x00, 0x37, 0x4D, 0x33, 0x00, 0x00, 0x01
    ])!

    // MARK: - What the world reads

    var framesFired: Int { state.withLock { $0.camera.frameCount } }
    /// Images the body lost from its buffer (the vanished-image fault).
    var imagesVanished: Int { state.withLock { $0.vanished } }
    var imagesInBuffer: Int { state.withLock { $0.camera.buffer.count } }
    var operations: Int { state.withLock { $0.operations } }
    var faultsInjected: Int { state.withLock { $0.faultsInjected } }
    var timeline: [String] { state.withLock { $0.timeline } }
    var nextDeadline: Duration? { state.withLock { $0.camera.nextDeadline } }

    func note(_ line: String) { state.withLock { Self.note(line, in: &$0) } }

    private static func note(_ line: String, in state: inout State) {
        state.timeline.append("t+\(seconds(state.now)) \(line)")
    }

    static func seconds(_ duration: Duration) -> String {
        let ms = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return "\(ms / 1000).\(String(1000 + ms % 1000).dropFirst())s"
    }

    // MARK: - Connections

    /// A new connection, as `PTPIPClient`'s connector opens it.
    func connect(for gate: ProcessGate) throws -> MemoryTransport {
        try state.withLock { state in
            // Checked under the body's lock, so a process killed meanwhile (`processDied`) opens nothing.
            if gate.isKilled { throw PTPIPError.cancelled(during: "connect (the process was killed)") }
            let number = state.nextConnection
            state.nextConnection += 1
            let transport = MemoryTransport(
                connection: number, peer: "simulated-body:\(number)", clock: clock,
                onSend: { [weak self] connection, bytes in self?.received(bytes, on: connection) },
                onClose: { [weak self] connection in self?.clientClosed(connection) })
            state.transports[number] = transport
            state.framers[number] = PacketFramer()
            return transport
        }
    }

    /// The process died: every connection it held is gone (the body sees the link close).
    func processDied() {
        let open = state.withLock { state in
            Self.note("process killed: every connection closes", in: &state)
            // In the order the connections opened, the same on every run of a seed.
            return state.transports.sorted { $0.key < $1.key }.map(\.value)
        }
        for transport in open { transport.close() }
    }

    private func clientClosed(_ connection: Int) {
        state.withLock { state in
            state.transports[connection] = nil
            state.framers[connection] = nil
            if let session = state.session, session.command == connection || session.event == connection {
                Self.endSession(&state, why: "the client closed connection \(connection)")
            }
        }
    }

    private static func endSession(_ state: inout State, why: String) {
        guard let session = state.session else { return }
        state.session = nil
        state.dataOut = nil
        note("session \(session.number) ends: \(why)", in: &state)
        for connection in [session.command, session.event].compactMap({ $0 }) {
            state.transports[connection]?.closeFromPeer()
            state.transports[connection] = nil
            state.framers[connection] = nil
        }
        state.camera.connectionClosed(now: state.now)
    }

    // MARK: - Time

    /// Lets the body's time run to `now`: exposures end, images become ready; events go out.
    func advance(to now: Duration) {
        state.withLock { state in
            if now > state.now { state.now = now }
            state.camera.advance(to: state.now)
            Self.flushEvents(&state)
            if state.camera.takeLinkDrop() { Self.endSession(&state, why: "the body's idle drop") }
        }
    }

    private static func flushEvents(_ state: inout State) {
        let events = state.camera.takeEvents()
        _ = state.camera.takeFinishedCaptures()
        guard let event = state.session?.event, let transport = state.transports[event] else { return }
        for item in events { transport.deliver(Packet.event(item).encoded()) }
    }

    /// Faults the body drew (injected or skipped): the ordinals the minimizer may skip are 0..<this.
    var faultsDrawn: Int { state.withLock { $0.drawn } }

    /// Counts a drawn fault; false when the minimizer skips it (`NetworkFaults.skipped`).
    private static func injects(_ state: inout State) -> Bool {
        defer { state.drawn += 1 }
        return !state.faults.skipped.contains(state.drawn)
    }

    // MARK: - Requests

    private func received(_ bytes: [UInt8], on connection: Int) {
        state.withLock { state in
            guard state.framers[connection] != nil else { return }
            state.framers[connection]!.append(bytes)
            while let framer = state.framers[connection] {
                var copy = framer
                let packet: Packet?
                do {
                    packet = try copy.nextPacket()
                } catch {
                    Self.note("garbage on connection \(connection): \(error)", in: &state)
                    Self.endSession(&state, why: "garbage")
                    return
                }
                state.framers[connection] = copy
                guard let packet else { return }
                Self.handle(packet, on: connection, &state)
            }
        }
    }

    private static func handle(_ packet: Packet, on connection: Int, _ state: inout State) {
        guard let transport = state.transports[connection] else { return }
        switch packet {
        case .initCommandRequest:
            guard state.session == nil else {
                transport.deliver(Packet.initFail(reason: .busy).encoded())
                transport.closeFromPeer()
                return
            }
            let number = state.nextSessionNumber
            state.nextSessionNumber += 1
            state.session = (number, connection, nil)
            state.camera.linkOpened(now: state.now)
            note("session \(number) opens", in: &state)
            let ack = InitCommandAck(
                connectionNumber: number, guid: guid, friendlyName: SimulatorDatasets.modelName,
                protocolVersion: PTPIPLimits.protocolVersion)
            transport.deliver(Packet.initCommandAck(ack).encoded())
        case let .initEventRequest(number):
            guard let session = state.session, session.number == number, session.event == nil else {
                transport.deliver(Packet.initFail(reason: .unspecified).encoded())
                transport.closeFromPeer()
                return
            }
            state.session = (session.number, session.command, connection)
            transport.deliver(Packet.initEventAck.encoded())
            flushEvents(&state)
        case let .operationRequest(request):
            if request.dataPhase == .dataOut || request.code == .sdioSetExtDevicePropValue
                || request.code == .sdioControlDevice
            {
                state.dataOut = (request, DataPhaseReceiver(transactionID: request.transactionID), [])
                return
            }
            operate(request, dataOut: [], on: transport, &state)
        case .startData, .data, .endData:
            guard var phase = state.dataOut else { return }
            var payload = phase.payload
            let accepted = (try? phase.receiver.accept(packet, sink: { payload += $0 })) ?? false
            phase.payload = payload
            guard accepted else {
                endSession(&state, why: "an unexpected data packet")
                return
            }
            if phase.receiver.isComplete {
                state.dataOut = nil
                operate(phase.request, dataOut: phase.payload, on: transport, &state)
            } else {
                state.dataOut = phase
            }
        case .probeRequest:
            transport.deliver(Packet.probeResponse.encoded())
        default:
            endSession(&state, why: "packet type \(packet.type) on connection \(connection)")
        }
    }

    private static func operate(
        _ request: OperationRequest, dataOut: [UInt8], on transport: MemoryTransport, _ state: inout State
    ) {
        state.operations += 1
        let index = state.operations
        if request.code == .sdioControlDevice, state.camera.cardIsFull { state.pressesOnFullCard += 1 }
        let name = String(describing: request.code)
        let faulty = index <= state.faults.quietAfterOperation
        if faulty, state.faults.vanishChance > 0, state.vanishRandom.chance(state.faults.vanishChance),
            !state.camera.buffer.isEmpty, Self.injects(&state), let frame = state.camera.loseOldestImage()
        {
            state.faultsInjected += 1
            state.vanished += 1
            note("the body loses the oldest image in its buffer, frame \(frame)'s (fault)", in: &state)
            flushEvents(&state)
        }
        if faulty, index > 1, state.random.chance(state.faults.busyChance), Self.injects(&state) {
            state.faultsInjected += 1
            note("op \(index) \(name): busy (fault)", in: &state)
            let response = Packet.operationResponse(
                OperationResponse(code: .deviceBusy, transactionID: request.transactionID, parameters: []))
            transport.deliver(response.encoded())
            return
        }
        let dropBefore = faulty && state.random.chance(state.faults.dropChance / 2)
        if dropBefore, Self.injects(&state) {
            state.faultsInjected += 1
            note("op \(index) \(name): the link drops before the body sees it (fault)", in: &state)
            endSession(&state, why: "a drop")
            return
        }
        // A body lets an image go once its last byte was sent: a transfer cut before that leaves it in the buffer.
        let before = state.camera
        let action = state.camera.handle(request, dataOut: dataOut, now: state.now)
        flushEvents(&state)
        switch action {
        case .drop, .hang:
            note("op \(index) \(name): the body drops the link (\(action == .drop ? "drop" : "hang"))", in: &state)
            endSession(&state, why: "the body's fault")
        case let .reply(reply):
            var bytes: [UInt8] = []
            var lastDataByte = 0
            let response = Packet.operationResponse(
                OperationResponse(code: reply.code, transactionID: request.transactionID, parameters: reply.parameters)
            )
            if let data = reply.data {
                bytes += Packet.startData(transactionID: request.transactionID, totalLength: UInt64(data.count))
                    .encoded()
                bytes += Packet.endData(transactionID: request.transactionID, payload: data.allBytes[...]).encoded()
                lastDataByte = bytes.count
            }
            bytes += response.encoded()
            let scriptedCut =
                state.faults.cutTransfers > 0 && lastDataByte > 0
                && [.getObject, .getPartialObject].contains(request.code)
            if scriptedCut || (faulty && state.random.chance(state.faults.dropChance / 2) && Self.injects(&state)) {
                state.faultsInjected += 1
                let cut: Int
                if scriptedCut {
                    state.faults.cutTransfers -= 1
                    cut = lastDataByte / 2
                } else {
                    cut = Int(state.random.next() % UInt64(bytes.count))
                }
                note(
                    "op \(index) \(name) → \(reply.code): the link drops after \(cut) of \(bytes.count) bytes (fault)",
                    in: &state)
                transport.deliver(Array(bytes.prefix(cut)))
                if cut < lastDataByte, [.getObject, .getPartialObject].contains(request.code) {
                    state.camera = before
                    note("the image stays in the body: its last byte was never sent", in: &state)
                    if state.faults.loseCutImages, let frame = state.camera.loseOldestImage() {
                        state.faultsInjected += 1
                        state.vanished += 1
                        note("the body loses the oldest image in its buffer, frame \(frame)'s (fault)", in: &state)
                    }
                }
                endSession(&state, why: "a drop mid-reply")
                return
            }
            if request.code != .sdioGetAllExtDevicePropInfo || reply.code != .ok {
                let phase = reply.data.map { ", \($0.count) B" } ?? ""
                note("op \(index) \(name) \(request.parameters)\(phase) → \(reply.code)", in: &state)
            }
            transport.deliver(bytes)
        }
    }
}
