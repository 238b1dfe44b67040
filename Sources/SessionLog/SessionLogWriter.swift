import Dispatch
import Foundation
import JSON
import Posix
import Synchronization
import Timing

/// Writes one session's JSON-Lines log, off the hot path: `record` encodes the line and appends it to a
/// buffer under a lock (a few microseconds); a serial queue writes the buffer out.
///
/// Every line starts with `t`, seconds since the session started on a monotonic clock, and `kind`; the
/// first line (`kind: "session"`) carries the one wall-clock anchor. Logging never fails the work it records:
/// a failed write (a full disk, a folder gone) gives one warning through `warn`, and the log stops.
package final class SessionLogWriter: Sendable {
    private struct State {
        var path: String
        var file: FileDescriptor?
        var buffer: [UInt8] = []
        var flushScheduled = false
        var written = 0
        var warned = false
    }

    private let state: Mutex<State>
    private let stopwatch: Stopwatch
    private let queue = DispatchQueue(label: "hdrshoot.session-log")
    private let warn: @Sendable (String) -> Void
    private let echo: (@Sendable (String) -> Void)?
    private let maximumBytes: Int

    /// The log's path now (it is renamed once a shoot id is known).
    package var path: String { state.withLock { $0.path } }

    /// Whether lines are still being written (false after a failure or `close()`).
    package var isWriting: Bool { state.withLock { $0.file != nil } }

    /// Starts a log for `command` in `store` (rotating the folder first), with the anchor line; nil after one
    /// warning through `warn` when the folder or the file cannot be made. `echo` hears every line (`--verbose`).
    package static func start(
        in store: SessionLogStore, command: String, arguments: [String], version: String, now: Date = Date(),
        clock: any Clock<Duration> = ContinuousClock(), warn: @escaping @Sendable (String) -> Void,
        echo: (@Sendable (String) -> Void)? = nil
    ) -> SessionLogWriter? {
        let stopwatch = Stopwatch(clock: clock)
        let stem = SessionLogStore.stem(startedAt: now, command: command)
        var path = store.directory + "/" + stem + SessionLogStore.fileExtension
        let file: FileDescriptor
        do throws(Errno) {
            try store.prepare()
            store.rotate(now: now)
            // Two sessions started in the same millisecond (two hdrshoot processes at once) get `-2`, `-3`, …
            var attempt = 1
            while true {
                do {
                    file = try FileDescriptor.open(
                        path, .writeOnly, [.create, .exclusive, .append, .noFollow], permissions: 0o600)
                    break
                } catch .fileExists where attempt < 100 {
                    attempt += 1
                    path = store.directory + "/" + stem + "-\(attempt)" + SessionLogStore.fileExtension
                }
            }
            try file.setPermissions(0o600)
        } catch {
            warn(Self.warning(path: path, error: error))
            return nil
        }
        let writer = SessionLogWriter(
            path: path, file: file, stopwatch: stopwatch, maximumBytes: store.maximumTotalBytes, warn: warn,
            echo: echo)
        writer.record(
            "session",
            [
                ("wallClock", .string(Self.iso8601(now))), ("unixTime", .number(now.timeIntervalSince1970)),
                ("command", .string(command)), ("arguments", .array(arguments.map(JSONValue.string))),
                ("version", .string(version))
            ])
        return writer
    }

    private init(
        path: String, file: FileDescriptor, stopwatch: Stopwatch, maximumBytes: Int,
        warn: @escaping @Sendable (String) -> Void, echo: (@Sendable (String) -> Void)?
    ) {
        state = Mutex(State(path: path, file: file))
        self.stopwatch = stopwatch
        self.maximumBytes = maximumBytes
        self.warn = warn
        self.echo = echo
    }

    deinit {
        state.withLock { $0.file?.closeIgnoringErrors() }
    }

    /// The time since the session started.
    package var elapsed: Duration { stopwatch.elapsed }

    /// Appends one line: `t`, `kind`, then `fields` in order. Returns at once; the write happens on the queue.
    package func record(_ kind: String, _ fields: [(String, JSONValue)]) {
        var line: [UInt8] = []
        line.reserveCapacity(128)
        JSONValue.object(
            JSONObject([("t", .number(Self.seconds(stopwatch.elapsed))), ("kind", .string(kind))] + fields)
        )
        .encode(into: &line)
        line.append(UInt8(ascii: "\n"))
        let schedule = state.withLock { state -> Bool in
            guard state.file != nil else { return false }
            state.buffer.append(contentsOf: line)
            if state.flushScheduled { return false }
            state.flushScheduled = true
            return true
        }
        if let echo { echo(String(decoding: line, as: UTF8.self)) }
        // One write per `flushDelay` at most: the shooting path only appends, it never wakes the writer per line.
        if schedule { queue.asyncAfter(deadline: .now() + Self.flushDelay) { self.flush() } }
    }

    /// Renames the file to carry `shootID` (the journal and the manifest link to the new path); returns it.
    @discardableResult
    package func attach(shootID: String) -> String {
        queue.sync {
            state.withLock { state in
                guard state.file != nil, !state.path.contains(shootID) else { return state.path }
                let url = URL(fileURLWithPath: state.path)
                let stem = url.deletingPathExtension().lastPathComponent
                let target =
                    url.deletingLastPathComponent().path + "/" + stem + "-" + shootID
                    + SessionLogStore.fileExtension
                if (try? FileSystem.rename(state.path, to: target)) != nil { state.path = target }
                return state.path
            }
        }
    }

    /// Writes what is buffered and closes the file; later records are dropped. Waits for the queue.
    package func close() {
        queue.sync {
            flush()
            state.withLock { state in
                try? state.file?.close()
                state.file = nil
            }
        }
    }

    /// Writes the buffer out (on the queue); the first failure closes the file and warns once.
    private func flush() {
        let (file, bytes, path, written) = state.withLock { state in
            state.flushScheduled = false
            let bytes = state.buffer
            state.buffer.removeAll(keepingCapacity: true)
            return (state.file, bytes, state.path, state.written)
        }
        guard let file, !bytes.isEmpty else { return }
        var chunk = bytes
        var full = false
        if written + chunk.count > maximumBytes {
            // One session never takes more than the whole folder may: say so once, then stop.
            chunk = Array(
                "{\"kind\":\"truncated\",\"reason\":\"the log reached its size limit of \(maximumBytes) bytes\"}\n".utf8
            )
            full = true
        }
        do throws(Errno) {
            try file.writeAll(chunk)
            state.withLock { $0.written += chunk.count }
            if full { stop(file) }
        } catch {
            stop(file)
            let shouldWarn = state.withLock { state -> Bool in
                defer { state.warned = true }
                return !state.warned
            }
            if shouldWarn { warn(Self.warning(path: path, error: error)) }
        }
    }

    private func stop(_ file: FileDescriptor) {
        state.withLock { state in
            state.file = nil
            state.buffer = []
        }
        file.closeIgnoringErrors()
    }

    /// How long lines gather in the buffer before the queue writes them (a crash loses at most this much).
    static let flushDelay = DispatchTimeInterval.milliseconds(50)

    /// The one warning a failed log gives.
    static func warning(path: String, error: Errno) -> String {
        "warning: cannot write the session log \(path) (\(error)); carrying on without a log\n"
    }

    /// Seconds with microsecond precision.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) + Double(attoseconds / 1_000_000_000_000) / 1e6)
    }

    /// `2026-11-24T22:15:23.123Z`.
    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
