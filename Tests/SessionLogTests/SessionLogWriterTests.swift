import Foundation
import JSON
import Posix
import SessionLog
import Synchronization
import TestSupport
import Testing

@Suite("Session log writer")
struct SessionLogWriterTests {
    /// A writer that ignores warnings.
    static func start(_ store: SessionLogStore, command: String, arguments: [String]) -> SessionLogWriter? {
        SessionLogWriter.start(in: store, command: command, arguments: arguments, version: "test", warn: { _ in })
    }

    @Test func linesAreJSONWithMonotonicTimesAndOneWallClockAnchor() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = SessionLogStore(directory: folder.url.path + "/logs")
        let writer = try #require(Self.start(store, command: "camera", arguments: ["--camera", "simulator"]))
        for index in 0..<100 { writer.record("op", [("index", .int(index)), ("text", .string("a \"quoted\"\nline"))]) }
        writer.close()
        let text = String(decoding: try FileSystem.readAll(writer.path), as: UTF8.self)
        let lines = text.split(separator: "\n").map { JSONValue(json: $0) }
        #expect(lines.count == 101)
        #expect(lines.allSatisfy { $0 != nil })
        #expect(lines[0]?["kind"]?.string == "session")
        #expect(lines[0]?["wallClock"]?.string?.hasSuffix("Z") == true)
        #expect(lines.filter { $0?["wallClock"] != nil }.count == 1)
        let times = lines.compactMap { $0?["t"]?.doubleValue }
        #expect(times == times.sorted())
        #expect(lines[100]?["text"]?.string == "a \"quoted\"\nline")
        #expect(lines[100]?["index"]?.intValue == 99)
    }

    /// Two processes that start in the same millisecond each get a log of their own (the second name ends in
    /// `-2`), without a warning; neither file is touched by the other.
    @Test func twoSessionsStartedInTheSameMillisecondGetTwoLogs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = SessionLogStore(directory: folder.url.path + "/logs")
        let now = Date(timeIntervalSince1970: 1_764_000_000.123)
        let warnings = Mutex<[String]>([])
        func start() -> SessionLogWriter? {
            SessionLogWriter.start(
                in: store, command: "run", arguments: [], version: "test", now: now,
                warn: { warning in warnings.withLock { $0.append(warning) } })
        }
        let first = try #require(start())
        let second = try #require(start())
        let third = try #require(start())
        first.record("op", [("who", .string("first"))])
        second.record("op", [("who", .string("second"))])
        for writer in [first, second, third] { writer.close() }
        #expect(warnings.withLock { $0 }.isEmpty)
        let stem = SessionLogStore.stem(startedAt: now, command: "run")
        #expect(
            [first.path, second.path, third.path].map { URL(fileURLWithPath: $0).lastPathComponent }
                == [stem + ".jsonl", stem + "-2.jsonl", stem + "-3.jsonl"])
        let secondText = String(decoding: try FileSystem.readAll(second.path), as: UTF8.self)
        #expect(secondText.contains("\"second\"") && !secondText.contains("\"first\""))
    }

    @Test func theLogIsCreated0600InA0700Folder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = SessionLogStore(directory: folder.url.path + "/state/hdrshoot/logs")
        let writer = try #require(Self.start(store, command: "run", arguments: []))
        writer.close()
        let fileMode = try #require(
            try FileManager.default.attributesOfItem(atPath: writer.path)[.posixPermissions] as? Int)
        let folderMode = try #require(
            try FileManager.default.attributesOfItem(atPath: store.directory)[.posixPermissions] as? Int)
        #expect(fileMode == 0o600)
        #expect(folderMode == 0o700)
    }

    @Test func attachingAShootIdRenamesTheFileAndKeepsWriting() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = SessionLogStore(directory: folder.url.path)
        let writer = try #require(Self.start(store, command: "run", arguments: []))
        writer.record("before", [])
        let path = writer.attach(shootID: "20261124-221524-3fa9")
        writer.record("after", [])
        writer.close()
        #expect(path.hasSuffix("-run-20261124-221524-3fa9.jsonl"))
        let kinds = String(decoding: try FileSystem.readAll(path), as: UTF8.self).split(separator: "\n")
            .compactMap { JSONValue(json: $0)?["kind"]?.string }
        #expect(kinds == ["session", "before", "after"])
    }

    @Test func anUnwritableFolderGivesOneWarningAndNoLog() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A folder inside a regular file can never be made, even by root.
        let blocker = folder.url.path + "/file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let warnings = Mutex<[String]>([])
        let writer = SessionLogWriter.start(
            in: SessionLogStore(directory: blocker + "/logs"), command: "run", arguments: [], version: "test",
            warn: { text in warnings.withLock { $0.append(text) } })
        #expect(writer == nil)
        let said = warnings.withLock { $0 }
        #expect(said.count == 1)
        #expect(said.first?.hasPrefix("warning: cannot write the session log") == true)
    }

    @Test func oneSessionStopsAtTheSizeCapWithATruncationLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var store = SessionLogStore(directory: folder.url.path)
        store.maximumTotalBytes = 20_000
        let writer = try #require(Self.start(store, command: "run", arguments: []))
        for index in 0..<2000 {
            writer.record("op", [("index", .int(index))])
            if index % 100 == 0 { Thread.sleep(forTimeInterval: 0.002) } // several flushes, not one
        }
        writer.close()
        let bytes = try FileSystem.readAll(writer.path)
        #expect(bytes.count <= 20_000 + 200)
        let last = String(decoding: bytes, as: UTF8.self).split(separator: "\n").last.flatMap { JSONValue(json: $0) }
        #expect(last?["kind"]?.string == "truncated")
    }
}
