import JSON
import Posix
import SessionLog

/// A session log read back as a body for the simulator: the data phases it served and the manners it showed.
///
/// The logged GetDeviceInfo (0x1001), SDIO_GetExtDeviceInfo (0x9202) and first full 0x9209 dump are served
/// verbatim (Sony "Camera Control PTP" reference, /work/shared/reference/ pp. 20-31); the round trip is the
/// median time of the operations answered OK; where the log shows a behaviour the simulator has as a quirk
/// (`SimulatorQuirk`), the quirk is turned on, each with the reason read from the log.
///
/// What `--replay-session LOG` gives the simulator (`hdrshoot simulate`, and the built-in body of `camera`, `run`
/// and `resume`); the option and the lines said about it are the CLI's.
package struct SessionReplay: Sendable {
    /// The log.
    package var path: String
    /// The logged GetDeviceInfo data phase.
    package var deviceInfo: [UInt8]?
    /// The logged SDIO_GetExtDeviceInfo data phase.
    package var extDeviceInfo: [UInt8]?
    /// The first full SDIO_GetAllExtDevicePropInfo dump.
    package var properties: [UInt8]?
    /// The median time of the operations answered OK (the body's round trip plus its handling).
    package var roundTrip: Duration = .zero
    /// The shortest time from a release to its ObjectAdded event (processing behind the shutter), if any.
    package var processing: Duration?
    /// Quirks the log shows, each with why.
    package var quirks: [(quirk: SimulatorQuirk, reason: String)] = []
    /// Busy answers after the start-up, as faults at the operations they came to.
    package var faults: [(fault: SimulatorFault, reason: String)] = []
    /// The buffer size a shoot of the logged session learned (its `learned` record), if any.
    package var bufferCapacity: Int?
    /// The fastest shutter speed's denominator the logged body was found to reach (a `learned` shutter range
    /// ending at 1/N), if any.
    package var fastestShutterDenominator: Int?
    /// The longest a release took to show it fired in the logged session (its `learned` evidence latency).
    package var evidenceLatency: Duration?

    /// Reads the log at `path`; throws when it is unreadable or shows no PTP/IP session.
    package static func load(_ path: String) throws(SessionReplayError) -> SessionReplay {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readAll(path)
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { JSONValue(json: $0) }
        var replay = SessionReplay(path: path)
        replay.read(lines)
        guard replay.deviceInfo != nil else {
            throw .noSession(path: path)
        }
        return replay
    }

    /// Fills the replay from the log's lines.
    private mutating func read(_ lines: [JSONValue]) {
        let operations = lines.filter { $0["kind"]?.string == "op" }
        func code(_ line: JSONValue) -> String { line["code"]?.string ?? "" }
        func ok(_ line: JSONValue) -> Bool { line["response"]?.string == "0x2001" }
        func hex(_ line: JSONValue) -> [UInt8]? { line["hex"]?.string.flatMap(JSONValue.bytes(fromHex:)) }
        deviceInfo = operations.first { code($0) == "0x1001" && ok($0) }.flatMap(hex)
        extDeviceInfo = operations.first { code($0) == "0x9202" && ok($0) && $0["length"]?.intValue ?? 0 > 0 }
            .flatMap(hex)
        // The start-up dump is a full one (parameter 0); it is the body as it stood when hdrshoot connected.
        properties = operations.first { line in
            code(line) == "0x9209" && ok(line) && line["params"]?.array?.first?.intValue == 0
        }.flatMap(hex)

        let times = operations.filter(ok).compactMap { $0["ms"]?.doubleValue }.sorted()
        if !times.isEmpty {
            let median = times[times.count / 2]
            roundTrip = .milliseconds(Int64(median.rounded(.down)))
        }

        let events = lines.filter { $0["kind"]?.string == "event" }
        if events.isEmpty, operations.count >= 10 {
            quirks.append((.noEvents, "the body sent no event in \(operations.count) operations"))
        }

        // Busy answers to SDIO_Connect and 0x9209 before the first readable dump of the first session.
        var busyAtStart = 0
        var startupOver = false
        var busyLater: [String: Int] = [:]
        for line in operations {
            let isBusy = line["response"]?.string == "0x2019"
            if !startupOver {
                if ["0x9201", "0x9209"].contains(code(line)), isBusy { busyAtStart += 1 }
                if code(line) == "0x9209", ok(line) { startupOver = true }
            } else if isBusy, code(line) != "0x9201", code(line) != "0x9209" {
                busyLater[code(line), default: 0] += 1
            }
        }
        if busyAtStart > 0 {
            quirks.append(
                (.busyAtStart(busyAtStart), "SDIO_Connect/0x9209 answered DeviceBusy \(busyAtStart) times at start-up"))
        }
        for (operation, count) in busyLater.sorted(by: { $0.key < $1.key }) {
            guard let number = UInt16(operation.dropFirst(2), radix: 16) else { continue }
            faults.append((.busy(operation: number, count: count), "\(operation) answered DeviceBusy \(count) times"))
        }

        let notes = lines.compactMap { $0["note"]?.string }
        if notes.contains(where: { $0.contains("ignored the first shutter release") }) {
            quirks.append(
                (
                    .startupNoFire(Self.startupNoFireWindow(operations)),
                    "the body ignored the first shutter release after connecting"
                ))
        }
        processing = Self.processingTime(lines)
        readLearned(lines.filter { $0["kind"]?.string == "learned" })
    }

    /// The limits a shoot of the logged session learned (its `learned` records), given back to the simulated body:
    /// the buffer size, a body that ignores speed changes while images wait (as its quirk), the fastest speed of a
    /// shutter range, and the evidence latency as the processing time when no event timed it.
    private mutating func readLearned(_ records: [JSONValue]) {
        for record in records {
            switch record["limit"]?.string {
            case "bufferCapacity":
                if let captures = record["captures"]?.intValue, captures >= 1 {
                    bufferCapacity = min(captures, bufferCapacity ?? captures)
                }
            case "speedChangeIgnoredWhileImagesWait":
                if !quirks.contains(where: { $0.quirk == .speedIgnoredWhileBuffered }) {
                    quirks.append(
                        (.speedIgnoredWhileBuffered, "a shoot learned the body takes no speed change while images wait")
                    )
                }
            case "shutterRange":
                if let fastest = record["fastest"]?.string, fastest.hasPrefix("1/"),
                    let denominator = Int(fastest.dropFirst(2))
                {
                    fastestShutterDenominator = denominator
                }
            case "evidenceLatency":
                if let ms = record["ms"]?.doubleValue, ms >= 0 {
                    evidenceLatency = max(evidenceLatency ?? .zero, .milliseconds(Int64(ms.rounded(.up))))
                }
            default:
                break
            }
        }
    }

    /// The window in which the body ignored a release: from OpenSession to just after the first release.
    private static func startupNoFireWindow(_ operations: [JSONValue]) -> Duration {
        let open = operations.first { $0["code"]?.string == "0x1002" }?["t"]?.doubleValue ?? 0
        let release = operations.first { $0["code"]?.string == "0x9207" }?["t"]?.doubleValue ?? open
        return .seconds(max(1, Int((release - open).rounded(.up)) + 1))
    }

    /// The shortest time from the end of a release to the next ObjectAdded event, nil without events.
    private static func processingTime(_ lines: [JSONValue]) -> Duration? {
        var lastRelease: Double?
        var shortest: Double?
        for line in lines {
            if line["kind"]?.string == "op", line["code"]?.string == "0x9207",
                line["params"]?.array?.first?.intValue == 0xD2C2
            {
                lastRelease = line["t"]?.doubleValue
            } else if line["kind"]?.string == "event",
                ["0xC201", "0x4002"].contains(line["code"]?.string ?? ""), let release = lastRelease,
                let time = line["t"]?.doubleValue
            {
                shortest = min(shortest ?? .infinity, time - release)
                lastRelease = nil
            }
        }
        return shortest.map { .milliseconds(Int64(($0 * 1000).rounded(.down))) }
    }

    /// `configuration` turned into the logged body: its data phases (written to a temporary folder of their own,
    /// which the simulator reads as it starts), its round trip and processing, its quirks and busy answers. Options
    /// already given (`keepRoundTrip`, `keepProcessing`) are kept. Returns what takes the folder away again, to call
    /// once the simulator has stopped.
    package func apply(
        to configuration: inout SimulatorConfiguration, keepRoundTrip: Bool = false, keepProcessing: Bool = false
    ) throws(SessionReplayError) -> @Sendable () -> Void {
        let folder: String
        do {
            folder = try FileSystem.makeTemporaryDirectory(prefix: "hdrshoot-replay-")
        } catch {
            throw .unreadable(path: path, reason: "cannot make a folder for the replayed data phases (\(error))")
        }
        func write(_ bytes: [UInt8]?, _ name: String) throws(SessionReplayError) -> String? {
            guard let bytes else { return nil }
            let file = folder + "/" + name
            do {
                let descriptor = try FileDescriptor.open(file, .writeOnly, [.create, .exclusive], permissions: 0o600)
                defer { descriptor.closeIgnoringErrors() }
                try descriptor.writeAll(bytes)
            } catch {
                throw .unreadable(path: file, reason: "cannot write the replayed data phase (\(error))")
            }
            return file
        }
        do {
            configuration.replayDeviceInfoPath = try write(deviceInfo, "device-info.bin")
            configuration.replayExtDeviceInfoPath = try write(extDeviceInfo, "ext-device-info.bin")
            configuration.replayPropertiesPath = try write(properties, "properties.bin")
        } catch {
            FileSystem.removeTemporaryDirectory(folder)
            throw error
        }
        if !keepRoundTrip { configuration.roundTripDelay = roundTrip }
        if !keepProcessing, let processing = processing ?? evidenceLatency { configuration.processingTime = processing }
        if let bufferCapacity { configuration.bufferCapacity = bufferCapacity }
        if let fastestShutterDenominator { configuration.fastestShutterDenominator = fastestShutterDenominator }
        for (quirk, _) in quirks where !configuration.quirks.contains(quirk) { configuration.quirks.append(quirk) }
        configuration.faults += faults.map(\.fault)
        return { FileSystem.removeTemporaryDirectory(folder) }
    }

    /// One line saying what the replay reproduces: `replaying LOG: round trip 15 ms; quirks on: no-events (...)`.
    package var summary: String {
        var parts = [
            "round trip \(roundTrip.components.seconds * 1000 + roundTrip.components.attoseconds / 1_000_000_000_000_000) ms"
        ]
        if let processing {
            parts.append(
                "processing \(processing.components.seconds * 1000 + processing.components.attoseconds / 1_000_000_000_000_000) ms"
            )
        }
        var learned: [String] = []
        if let bufferCapacity { learned.append("a buffer of \(bufferCapacity) captures") }
        if let fastestShutterDenominator { learned.append("a fastest speed of 1/\(fastestShutterDenominator)") }
        if let evidenceLatency {
            let ms =
                evidenceLatency.components.seconds * 1000 + evidenceLatency.components.attoseconds
                / 1_000_000_000_000_000
            learned.append("releases shown within \(ms) ms")
        }
        if !learned.isEmpty { parts.append("learned limits from the log: " + learned.joined(separator: ", ")) }
        if !quirks.isEmpty {
            parts.append(
                "quirks on from the log: " + quirks.map { "\($0.quirk) (\($0.reason))" }.joined(separator: ", "))
        }
        if !faults.isEmpty {
            parts.append("busy answers: " + faults.map { "\($0.fault) (\($0.reason))" }.joined(separator: ", "))
        }
        return "replaying \(path): " + parts.joined(separator: "; ") + "\n"
    }
}

/// A session log that cannot be replayed (the CLI's table words it).
package enum SessionReplayError: Error, Equatable {
    /// The file cannot be read (or the replayed data phases cannot be written).
    case unreadable(path: String, reason: String)
    /// The file holds no PTP/IP session (no GetDeviceInfo was logged).
    case noSession(path: String)
}
